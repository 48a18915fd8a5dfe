"""The local identity provider: two OpenID Connect issuers that sign ID tokens offline.

It stands in for the pair the faucet's ID tokens come from: a project's token issuer (as
``https://securetoken.google.com/<project>``, whose audience is the project id) and a general
account issuer (as ``https://accounts.google.com``, whose audience and ``azp`` are an OAuth
client id). Each issuer publishes a discovery document and its RS256 keys, and signs an ID
token for any email posted to its ``sign_in``. That stands in for a person signing in with
the scopes ``openid email profile``: the provider serves on loopback only, and nothing but
the request's shape is checked. Tokens are signed and verify as real ones do; unlike some
emulators, it never issues ``alg: none`` tokens.

:meth:`IdentityProvider.app` is its HTTP app (``_identity_http``): the identity rows of the
endpoint table, failures answered as OAuth servers answer them.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from jwt.algorithms import RSAAlgorithm
from starlette.applications import Starlette

from ledgerkit._errors import InputError
from ledgerkit.localnet.services._identity_http import identity_app

__all__ = [
    "ALGORITHM",
    "ISSUER_NAMES",
    "MAX_PUBLISHED_KEYS",
    "IdentityProvider",
    "Issuer",
]

#: The one signing algorithm of both issuers (as Google's and Firebase's).
ALGORITHM: Final = "RS256"
#: The issuers, by the path segment they live under.
ISSUER_NAMES: Final = ("project", "accounts")
#: Keys a JWKS publishes at most: the current one and the one before it.
MAX_PUBLISHED_KEYS: Final = 2
#: Longest email or name taken (an email address is at most 254 characters).
MAX_TEXT_CHARS: Final = 254
#: Longest token lifetime, in seconds (real ID tokens live an hour).
MAX_LIFETIME: Final = 86_400

_KEY_BITS: Final = 2048
_SCOPES: Final = ("openid", "email", "profile")
_COMMON_CLAIMS: Final = (
    "aud", "auth_time", "email", "email_verified", "exp", "iat", "iss", "name", "sub",
)  # fmt: skip
_CLAIMS: Final = {
    "project": tuple(sorted((*_COMMON_CLAIMS, "firebase", "user_id"))),
    "accounts": tuple(sorted((*_COMMON_CLAIMS, "azp"))),
}
_ATOM: Final = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_LABEL: Final = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_EMAIL: Final = re.compile(rf"({_ATOM}(?:\.{_ATOM})*)@({_LABEL}(?:\.{_LABEL})+)", re.ASCII)
_CONTROL: Final = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_BASE62: Final = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

_log = logging.getLogger("ledgerkit.localnet")


class _SigningKey:
    """An RSA key pair; only its public half and its ``kid`` are ever shown."""

    __slots__ = ("_private", "jwk", "kid")

    def __init__(self) -> None:
        self._private = rsa.generate_private_key(public_exponent=65537, key_size=_KEY_BITS)
        public = self._private.public_key()
        der = public.public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
        # 40 hex digits, as Google's kids are; the same key always has the same kid.
        self.kid = hashlib.sha1(der, usedforsecurity=False).hexdigest()
        numbers = RSAAlgorithm.to_jwk(public, as_dict=True)
        self.jwk: dict[str, str] = {
            "kty": "RSA",
            "alg": ALGORITHM,
            "use": "sig",
            "kid": self.kid,
            "n": numbers["n"],
            "e": numbers["e"],
        }

    def sign(self, claims: Mapping[str, Any], headers: Mapping[str, Any]) -> str:
        fields = {**headers, "kid": self.kid, "typ": "JWT"}
        return jwt.encode(dict(claims), self._private, algorithm=ALGORITHM, headers=fields)

    def __repr__(self) -> str:
        return f"<RSA signing key {self.kid}>"


class Issuer:
    """One OpenID Connect issuer of the provider: its keys, discovery document and tokens.

    Attributes
    ----------
    name : str
        ``"project"`` or ``"accounts"``, the path segment it lives under.
    audience : str
        The ``aud`` of its tokens: the project id, or the OAuth client id.
    algorithm : str
        ``"RS256"``.
    """

    algorithm: Final = ALGORITHM

    def __init__(self, name: str, audience: str) -> None:
        self.name = name
        self.audience = audience
        #: Where the provider is served (set by :meth:`IdentityProvider.bind`).
        self.base_url: str | None = None
        self._lock = threading.Lock()
        self._keys: tuple[_SigningKey, ...] = (_SigningKey(),)

    @property
    def url(self) -> str:
        """The issuer identifier, ``{base_url}/{name}`` (the ``iss`` of its tokens)."""
        if self.base_url is None:
            raise RuntimeError(
                "the identity provider has no URL yet: call bind(base_url) before use"
            )
        return f"{self.base_url}/{self.name}"

    @property
    def kids(self) -> tuple[str, ...]:
        """The ``kid`` of every published key, the signing one last."""
        return tuple(key.kid for key in self._keys)

    def jwks(self) -> dict[str, Any]:
        """The published keys, a JWK set: the signing key and the one before it."""
        return {"keys": [dict(key.jwk) for key in self._keys]}

    def discovery(self) -> dict[str, Any]:
        """The OpenID Connect discovery document (``/.well-known/openid-configuration``)."""
        url = self.url
        return {
            "issuer": url,
            # Both the sign-in and the token endpoint: posting an email answers a token.
            "authorization_endpoint": f"{url}/sign_in",
            "token_endpoint": f"{url}/sign_in",
            "jwks_uri": f"{url}/jwks",
            "response_types_supported": ["id_token"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": [ALGORITHM],
            "scopes_supported": list(_SCOPES),
            "claims_supported": list(_CLAIMS[self.name]),
            "grant_types_supported": ["implicit"],
            "token_endpoint_auth_methods_supported": ["none"],
        }

    def rotate_key(self) -> str:
        """Sign with a new key from now on; the previous one stays published, so tokens
        already issued keep verifying. Returns the new ``kid``."""
        key = _SigningKey()
        with self._lock:
            self._keys = (*self._keys, key)[-MAX_PUBLISHED_KEYS:]
        _log.info("identity provider: issuer %s signs with key %s", self.name, key.kid)
        return key.kid

    def sign(self, claims: Mapping[str, Any], *, headers: Mapping[str, Any] | None = None) -> str:
        """``claims`` exactly as given, signed with the current key.

        For tests and experiments: a token with any claims (expired, for another
        audience...) or extra header fields, signed by a key this issuer publishes. The
        header's ``alg``, ``kid`` and ``typ`` are always this issuer's.
        """
        extra = dict(headers or {})
        if {"alg", "kid", "typ"} & set(extra):
            raise InputError("the header's alg, kid and typ are the issuer's own")
        return self._keys[-1].sign(claims, extra)

    def claims(
        self, email: str, *, name: str, email_verified: bool, issued: int, lifetime: int
    ) -> dict[str, Any]:
        """The claims of a token for ``email`` (already checked), as the real issuer's."""
        sub = _subject(self.name, self.audience, email)
        claims: dict[str, Any] = {
            "iss": self.url,
            "aud": self.audience,
            "auth_time": issued,
            "sub": sub,
            "iat": issued,
            "exp": issued + lifetime,
            "email": email,
            "email_verified": email_verified,
            "name": name,
        }
        if self.name == "project":
            claims["user_id"] = sub
            claims["firebase"] = {
                "identities": {"google.com": [_subject("accounts", "", email)], "email": [email]},
                "sign_in_provider": "google.com",
            }
        else:
            claims["azp"] = self.audience
        return claims

    def __repr__(self) -> str:
        where = self.url if self.base_url is not None else "(not bound)"
        return f"Issuer(name={self.name!r}, url={where!r}, audience={self.audience!r})"


def _subject(issuer: str, audience: str, email: str) -> str:
    """A stable ``sub`` for ``email`` at an issuer: a project's user id is 28 letters and
    digits (one per project), an account's id 21 digits (the same for every client)."""
    scope = audience if issuer == "project" else ""
    digest = hashlib.sha256(f"{issuer}\0{scope}\0{email}".encode()).digest()
    number = int.from_bytes(digest, "big")
    if issuer == "accounts":
        return str(10**20 + number % 10**20)
    letters = []
    for _ in range(28):
        number, digit = divmod(number, 62)
        letters.append(_BASE62[digit])
    return "".join(letters)


def _check_email(email: object) -> str:
    """``email`` in lower case, or :class:`InputError` when it is not an address."""
    if not isinstance(email, str) or len(email) > MAX_TEXT_CHARS:
        raise InputError(f"email must be a string of at most {MAX_TEXT_CHARS} characters")
    match = _EMAIL.fullmatch(email)
    if match is None or len(match[1]) > 64:
        raise InputError("email must be an address like name@example.com")
    return email.lower()


def _check_name(name: object) -> str:
    """``name`` as given, or :class:`InputError` when it is empty, long or has controls."""
    if (
        not isinstance(name, str)
        or not name.strip()
        or len(name) > MAX_TEXT_CHARS
        or _CONTROL.search(name)
    ):
        raise InputError(f"name must be 1 to {MAX_TEXT_CHARS} printable characters, not all blank")
    return name


def _check_lifetime(lifetime: object) -> int:
    if type(lifetime) is not int or not 1 <= lifetime <= MAX_LIFETIME:
        raise InputError(f"lifetime must be whole seconds from 1 to {MAX_LIFETIME}")
    return lifetime


class IdentityProvider:
    """Two local OpenID Connect issuers, ``project`` and ``accounts``, and their HTTP app.

    Parameters
    ----------
    project_id : str
        The project issuer's audience (its tokens' ``aud``).
    client_id : str
        The account issuer's OAuth client id (its tokens' ``aud`` and ``azp``).
    lifetime : int
        Seconds a token lives (``exp - iat``), 3600 as real ID tokens.
    clock : callable
        Unix time in seconds.
    jwks_max_age : int
        Seconds a JWKS may be cached (``Cache-Control: public, max-age=...``).

    Examples
    --------
    >>> provider = IdentityProvider()
    >>> provider.bind("http://127.0.0.1:8090")
    >>> provider.issuers["project"].url
    'http://127.0.0.1:8090/project'
    >>> token = provider.sign_in("alice@example.com")
    """

    def __init__(
        self,
        *,
        project_id: str = "ledgerkit-local",
        client_id: str = "ledgerkit-local.apps.local",
        lifetime: int = 3600,
        clock: Callable[[], float] = time.time,
        jwks_max_age: int = 3600,
    ) -> None:
        for what, value in (("project_id", project_id), ("client_id", client_id)):
            if not value or len(value) > 128 or _CONTROL.search(value):
                raise InputError(f"{what} must be 1 to 128 printable characters")
        if type(jwks_max_age) is not int or jwks_max_age < 0:
            raise InputError("jwks_max_age must be whole seconds, 0 or more")
        self.lifetime = _check_lifetime(lifetime)
        self.jwks_max_age = jwks_max_age
        self._clock = clock
        self.issuers: Mapping[str, Issuer] = {
            "project": Issuer("project", project_id),
            "accounts": Issuer("accounts", client_id),
        }

    def bind(self, base_url: str) -> None:
        """Set where the provider is served, ``http://127.0.0.1:PORT``; the issuers are
        ``{base_url}/project`` and ``{base_url}/accounts``."""
        base = base_url.rstrip("/")
        if not re.fullmatch(r"https?://[A-Za-z0-9.\[\]:-]+(?:/[A-Za-z0-9._~/-]*)?", base):
            raise InputError("base_url must be an http(s) URL without query or fragment")
        for issuer in self.issuers.values():
            issuer.base_url = base

    def issuer(self, name: str) -> Issuer:
        """The issuer called ``name`` (``"project"`` or ``"accounts"``)."""
        try:
            return self.issuers[name]
        except KeyError:
            raise InputError(f"no issuer {name!r}; known: {list(ISSUER_NAMES)}") from None

    def sign_in(
        self,
        email: str,
        *,
        name: str | None = None,
        issuer: str = "project",
        email_verified: bool = True,
        lifetime: int | None = None,
    ) -> str:
        """An ID token for ``email``, as signing in with the scopes ``openid email profile``
        would give.

        Parameters
        ----------
        email : str
            The person's address (kept in lower case).
        name : str, optional
            Their display name; the email's local part when omitted.
        issuer : {"project", "accounts"}
            Which issuer signs.
        email_verified : bool
            The ``email_verified`` claim (the faucet funds only verified emails).
        lifetime : int, optional
            Seconds the token lives; the provider's ``lifetime`` when omitted.

        Returns
        -------
        str
            The signed token (compact JWS).
        """
        signer = self.issuer(issuer)
        address = _check_email(email)
        shown = _check_name(address.split("@")[0] if name is None else name)
        if type(email_verified) is not bool:
            raise InputError("email_verified must be True or False")
        seconds = self.lifetime if lifetime is None else _check_lifetime(lifetime)
        claims = signer.claims(
            address,
            name=shown,
            email_verified=email_verified,
            issued=int(self._clock()),
            lifetime=seconds,
        )
        _log.debug("identity provider: %s signed in %s", issuer, claims["sub"])
        return signer.sign(claims)

    def rotate_keys(self, issuer: str = "project") -> str:
        """Give ``issuer`` a new signing key; returns its ``kid``. The previous key stays
        published, so tokens already issued keep verifying; older keys are withdrawn."""
        return self.issuer(issuer).rotate_key()

    def app(self) -> Starlette:
        """The provider's HTTP app: the identity rows of the endpoint table."""
        return identity_app(self)

    def __repr__(self) -> str:
        project, accounts = self.issuers["project"], self.issuers["accounts"]
        return (
            f"IdentityProvider(project_id={project.audience!r}, "
            f"client_id={accounts.audience!r}, kids={[*project.kids, *accounts.kids]})"
        )
