"""The ID-token checks of the local faucet: where the token is, and whether to trust it.

:func:`bearer_token` takes the token out of a request as the real faucet does
(``Authorization: Bearer <token>`` with ``x-is-jwt: true``) and refuses one sent in the
query string. :class:`TokenVerifier` checks it against a fixed list of trusted issuers,
each pinned to one issuer string, audience, JWKS and algorithm:

- the token is at most ``max_token_bytes`` long, measured before anything is parsed;
- its header is a JSON object naming the issuer's algorithm and a ``kid``, and carries no
  key or key location (``jku``, ``x5u``, ``jwk``, ``x5c``) and no critical extension;
- the unverified ``iss`` only picks which issuer's keys and audience to check against;
- the key is an RSA key of that issuer's JWKS with that ``kid``; the algorithm is the
  pinned one, never the header's;
- PyJWT checks the signature, the exact ``iss``, a single ``aud`` equal to the issuer's and
  that ``aud exp iss sub iat`` are present; ``exp``, ``nbf``, ``iat`` and ``auth_time`` are
  checked here against one clock with ``leeway`` seconds of slack;
- ``sub`` is 1 to 128 characters, ``email`` is present, and ``email_verified`` is ``true``.

JWKS are fetched with httpx and kept for their ``Cache-Control: max-age`` (60 s without
one, 10 s after a failed fetch, when the keys held before are kept). An unknown ``kid``
makes at most one early fetch per cache period, however many unknown kids arrive.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
import logging
import math
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, NoReturn

import httpx
import jwt
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from jwt.algorithms import RSAAlgorithm

from ledgerkit._errors import InputError
from ledgerkit.localnet.services._strict_json import strict_json

__all__ = [
    "FAILED",
    "MAX_JWKS_BYTES",
    "MAX_JWKS_KEYS",
    "NOT_VERIFIED",
    "TOKEN_QUERY_PARAMETERS",
    "TokenRejected",
    "TokenVerifier",
    "TrustedIssuer",
    "bearer_token",
]

#: The faucet's message for a token whose ``email_verified`` is not ``true``.
NOT_VERIFIED: Final = "The JWT token is not verified"
#: The faucet's message for every other refusal.
FAILED: Final = "Failed to verify JWT token"

#: Query parameters that would carry a token in the URL (and so into logs): refused.
TOKEN_QUERY_PARAMETERS: Final = frozenset(
    {
        "access_token", "api_key", "apikey", "auth", "auth_token", "authorization",
        "bearer", "credential", "credentials", "id_token", "jwt", "key", "refresh_token",
        "session", "token",
    }
)  # fmt: skip
#: Largest JWKS answer read, and most keys taken from one.
MAX_JWKS_BYTES: Final = 64 * 1024
MAX_JWKS_KEYS: Final = 32

#: RSA algorithms an issuer may be pinned to (only RSA keys are used).
_RSA_ALGORITHMS: Final = frozenset({"RS256", "RS384", "RS512"})
#: Header fields that name a key or where to get one: the issuer's JWKS is the only source.
_KEY_HEADERS: Final = ("jku", "x5u", "jwk", "x5c")
_REQUIRED: Final = ["aud", "exp", "iss", "sub", "iat"]
#: Seconds a JWKS is kept without ``max-age``, after a failed fetch, and at least / most.
_DEFAULT_MAX_AGE: Final = 60.0
_RETRY_AFTER_FAILURE: Final = 10.0
_LEAST_MAX_AGE: Final = 10.0
_MOST_MAX_AGE: Final = 86_400.0
_SEGMENT: Final = re.compile(r"[A-Za-z0-9_-]*")
_KID: Final = re.compile(r"[A-Za-z0-9._-]{1,128}")
_B64TOKEN: Final = re.compile(r"[A-Za-z0-9._~+/-]+=*")
_LOOKS_LIKE_JWT: Final = re.compile(r"eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.?[A-Za-z0-9_-]*")
_MAX_AGE: Final = re.compile(r"(?:^|[,\s])max-age\s*=\s*\"?(\d{1,10})\"?")

_log = logging.getLogger("ledgerkit.localnet")


class TokenRejected(Exception):  # noqa: N818 (a refusal the faucet answers, not a fault)
    """An ID token (or its absence) the faucet refuses.

    Attributes
    ----------
    reason : str
        Why, in a few words safe for a log; never the token nor a claim's value.
    message : str
        What the faucet answers: :data:`NOT_VERIFIED` when only ``email_verified`` failed,
        :data:`FAILED` otherwise.
    """

    def __init__(self, reason: str, *, unverified_email: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.message = NOT_VERIFIED if unverified_email else FAILED


def _refuse(reason: str) -> NoReturn:
    raise TokenRejected(reason)


@dataclass(frozen=True)
class TrustedIssuer:
    """An issuer whose ID tokens are accepted, pinned to its audience, keys and algorithm.

    Attributes
    ----------
    issuer : str
        The exact ``iss`` of its tokens.
    audience : str
        The one ``aud`` its tokens must carry.
    jwks_uri : str
        Where its keys are published (http or https).
    algorithm : str
        The one algorithm its tokens may use (``RS256``, ``RS384`` or ``RS512``).
    """

    issuer: str
    audience: str
    jwks_uri: str
    algorithm: str = "RS256"

    def __post_init__(self) -> None:
        if not self.issuer or not self.audience:
            raise InputError("a trusted issuer needs an issuer and an audience")
        if self.algorithm not in _RSA_ALGORITHMS:
            raise InputError(f"algorithm must be one of {sorted(_RSA_ALGORITHMS)}")
        try:
            scheme = httpx.URL(self.jwks_uri).scheme
        except httpx.InvalidURL:
            scheme = ""
        if scheme not in ("http", "https"):
            raise InputError("jwks_uri must be an http or https URL")


def bearer_token(headers: Mapping[str, str], query: Mapping[str, str]) -> str:
    """The ID token of a request: ``Authorization: Bearer <token>`` with ``x-is-jwt: true``.

    Parameters
    ----------
    headers : mapping
        The request's headers (names in any case; a Starlette ``Headers`` will do).
    query : mapping
        Its query parameters.

    Raises
    ------
    TokenRejected
        No ``x-is-jwt: true``; no ``Authorization``, another scheme than ``Bearer`` or a
        malformed token; a header given twice; or a token-like query parameter (a token
        in a URL ends up in logs).
    """
    for name, value in _pairs(query):
        if name.lower() in TOKEN_QUERY_PARAMETERS or _LOOKS_LIKE_JWT.fullmatch(value):
            _refuse("a token in the query string")
    wanted: dict[str, list[str]] = {"authorization": [], "x-is-jwt": []}
    for name, value in _pairs(headers):
        if name.lower() in wanted:
            wanted[name.lower()].append(value)
    if any(len(values) > 1 for values in wanted.values()):
        _refuse("a token header given twice")
    if [value.strip().lower() for value in wanted["x-is-jwt"]] != ["true"]:
        _refuse("no x-is-jwt: true header")
    if not wanted["authorization"]:
        _refuse("no Authorization header")
    scheme, _, token = wanted["authorization"][0].strip().partition(" ")
    if scheme.lower() != "bearer":
        _refuse("Authorization is not a Bearer token")
    if not _B64TOKEN.fullmatch(token):
        _refuse("a malformed Bearer token")
    return token


def _pairs(mapping: Mapping[str, str]) -> Iterable[tuple[str, str]]:
    """Every (name, value) of ``mapping``, repeats included when it keeps them (Starlette's
    ``Headers`` and ``QueryParams`` do)."""
    multi = getattr(mapping, "multi_items", None)
    found: Iterable[tuple[str, str]] = multi() if callable(multi) else mapping.items()
    return found


@dataclass(frozen=True)
class _KeySet:
    """One issuer's keys as last fetched, and until when they are kept."""

    keys: Mapping[str, RSAPublicKey]
    expires: float
    #: Whether an unknown kid may still make an early fetch in this cache period.
    may_refetch: bool


class TokenVerifier:
    """Checks ID tokens against a fixed list of trusted issuers (see the module docstring).

    Parameters
    ----------
    issuers : sequence of TrustedIssuer
        The issuers trusted, each with its own ``iss``.
    http : httpx.AsyncClient, optional
        The client JWKS are fetched with (the caller closes it); by default one of the
        verifier's own, closed by :meth:`aclose`.
    leeway : int
        Seconds of slack for ``exp``, ``nbf``, ``iat`` and ``auth_time`` (at most 300).
    max_token_bytes : int
        Longest token looked at.
    clock : callable
        Unix time in seconds; token times and the JWKS cache are read against it.
    """

    def __init__(
        self,
        issuers: Sequence[TrustedIssuer],
        *,
        http: httpx.AsyncClient | None = None,
        leeway: int = 60,
        max_token_bytes: int = 8192,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._issuers = {trusted.issuer: trusted for trusted in issuers}
        if not self._issuers or len(self._issuers) != len(issuers):
            raise InputError("trust at least one issuer, each once")
        if not 0 <= leeway <= 300:
            raise InputError("leeway must be 0 to 300 seconds")
        if max_token_bytes < 1:
            raise InputError("max_token_bytes must be positive")
        self._own_http = http is None
        self._http = http or httpx.AsyncClient(
            timeout=10.0, follow_redirects=False, trust_env=False
        )
        self.leeway = leeway
        self.max_token_bytes = max_token_bytes
        self._clock = clock
        self._sets: dict[str, _KeySet] = {}
        self._locks = {name: asyncio.Lock() for name in self._issuers}

    @property
    def issuers(self) -> tuple[TrustedIssuer, ...]:
        """The trusted issuers."""
        return tuple(self._issuers.values())

    async def verify(self, token: str) -> dict[str, Any]:
        """The claims of ``token`` once every check passed.

        Raises
        ------
        TokenRejected
            For any failed check; ``message`` says what the faucet answers.
        """
        if not isinstance(token, str) or len(token) > self.max_token_bytes:
            _refuse("the token is too long")  # before anything is parsed
        if not token.isascii():
            _refuse("the token is not ASCII")
        parts = token.split(".")
        if len(parts) != 3 or not all(_SEGMENT.fullmatch(part) for part in parts):
            _refuse("not a signed JWT (three base64url parts)")
        header = _json_object(parts[0], "header")
        _check_header(header)
        claims = _json_object(parts[1], "payload")
        iss = claims.get("iss")
        trusted = self._issuers.get(iss) if isinstance(iss, str) else None
        if trusted is None:
            _refuse("an issuer not trusted")
        if header.get("alg") != trusted.algorithm:
            _refuse("an algorithm the issuer does not use")
        key = await self._key(trusted, header["kid"])
        try:
            verified: dict[str, Any] = jwt.decode(
                token,
                key=key,
                algorithms=[trusted.algorithm],
                audience=trusted.audience,
                issuer=trusted.issuer,
                # The times are checked below against the verifier's clock, all together.
                options={
                    "require": _REQUIRED,
                    "strict_aud": True,
                    "verify_exp": False,
                    "verify_nbf": False,
                    "verify_iat": False,
                },
                leeway=self.leeway,
            )
        except jwt.PyJWTError as error:
            _refuse(_reason_of(error))
        self._check_claims(verified)
        if verified.get("email_verified") is not True:
            raise TokenRejected("email_verified is not true", unverified_email=True)
        return verified

    def _check_claims(self, claims: Mapping[str, Any]) -> None:
        now = self._clock()
        times = {}
        for name in ("exp", "iat", "nbf", "auth_time"):
            value = claims.get(name)
            if value is None and name in ("nbf", "auth_time"):
                continue
            if (
                isinstance(value, bool)
                or not isinstance(value, (int, float))
                or not math.isfinite(value)
            ):
                _refuse(f"{name} is not a number")
            times[name] = value
        if times["exp"] <= now - self.leeway:
            _refuse("the token has expired")
        for name in ("iat", "nbf", "auth_time"):
            if name in times and times[name] > now + self.leeway:
                _refuse(f"{name} is in the future")
        sub = claims.get("sub")
        if not isinstance(sub, str) or not 1 <= len(sub) <= 128:
            _refuse("sub is not 1 to 128 characters")
        email = claims.get("email")
        if not isinstance(email, str) or not email:
            _refuse("no email")

    # -- keys -----------------------------------------------------------------------------

    async def _key(self, trusted: TrustedIssuer, kid: str) -> RSAPublicKey:
        """The issuer's key ``kid``: from the cache, or after at most one fetch."""
        held = self._sets.get(trusted.issuer)
        if held is None or self._clock() >= held.expires:
            held = await self._refresh(trusted, kid, early=False)
        key = held.keys.get(kid)
        if key is None and held.may_refetch:
            held = await self._refresh(trusted, kid, early=True)
            key = held.keys.get(kid)
        if key is None:
            _refuse("no key of the issuer has this kid")
        return key

    async def _refresh(self, trusted: TrustedIssuer, kid: str, *, early: bool) -> _KeySet:
        """Fetch the issuer's keys, unless another task did while this one waited.

        ``early``: a fetch for an unknown ``kid`` before the cache expires, allowed once
        per cache period (after a successful scheduled fetch)."""
        async with self._locks[trusted.issuer]:
            held = self._sets.get(trusted.issuer)
            now = self._clock()
            if held is not None:
                if not early and now < held.expires:
                    return held
                if early and (kid in held.keys or not held.may_refetch):
                    return held
            try:
                keys, max_age = await self._fetch(trusted)
                fetched = True
            except (httpx.HTTPError, ValueError, RecursionError) as error:
                kept = {} if held is None else held.keys
                _log.warning(
                    "JWKS of %s not fetched (%s); %d keys kept",
                    trusted.issuer,
                    type(error).__name__,
                    len(kept),
                )
                keys, max_age, fetched = kept, _RETRY_AFTER_FAILURE, False
            fresh = _KeySet(keys, now + max_age, may_refetch=fetched and not early)
            self._sets[trusted.issuer] = fresh
            return fresh

    async def _fetch(self, trusted: TrustedIssuer) -> tuple[Mapping[str, RSAPublicKey], float]:
        """The issuer's RSA keys for its algorithm, by kid, and how long to keep them."""
        request = self._http.stream(
            "GET", trusted.jwks_uri, headers={"Accept": "application/json"}, follow_redirects=False
        )
        async with request as response:
            if response.status_code != 200:
                raise ValueError(f"status {response.status_code}")
            raw = bytearray()
            async for chunk in response.aiter_bytes():
                raw += chunk
                if len(raw) > MAX_JWKS_BYTES:
                    raise ValueError("JWKS too large")
            cache = response.headers.get("cache-control", "")
        document = json.loads(raw.decode("utf-8"))
        found = document.get("keys") if isinstance(document, dict) else None
        if not isinstance(found, list) or len(found) > MAX_JWKS_KEYS:
            raise ValueError(f"not a JWKS of at most {MAX_JWKS_KEYS} keys")
        keys: dict[str, RSAPublicKey] = {}
        repeated: set[str] = set()
        for jwk in found:
            kid = _usable_kid(jwk, trusted.algorithm)
            if kid is None:
                continue
            try:
                key = RSAAlgorithm.from_jwk(jwk)
            except (jwt.PyJWTError, ValueError, TypeError):
                continue
            if not isinstance(key, RSAPublicKey) or key.key_size < 2048:
                continue  # a private key is never published; a short one never trusted
            if kid in keys:
                repeated.add(kid)
            keys[kid] = key
        for kid in repeated:  # two keys under one kid: neither is trusted
            del keys[kid]
        return keys, _max_age(cache)

    async def aclose(self) -> None:
        """Close the verifier's own HTTP client (not one it was given)."""
        if self._own_http:
            await self._http.aclose()

    async def __aenter__(self) -> TokenVerifier:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"TokenVerifier(issuers={[t.issuer for t in self._issuers.values()]})"


def _usable_kid(jwk: object, algorithm: str) -> str | None:
    """The kid of a JWK usable to check ``algorithm`` signatures, or ``None``."""
    if not isinstance(jwk, dict) or jwk.get("kty") != "RSA":
        return None
    kid = jwk.get("kid")
    if not isinstance(kid, str) or not _KID.fullmatch(kid):
        return None
    if jwk.get("alg", algorithm) != algorithm or jwk.get("use", "sig") != "sig":
        return None
    return kid


def _max_age(cache_control: str) -> float:
    """Seconds to keep a JWKS by its ``Cache-Control``, within 10 s and a day."""
    directives = cache_control.lower()
    if "no-store" in directives or "no-cache" in directives:
        return _LEAST_MAX_AGE
    match = _MAX_AGE.search(directives)
    seconds = float(match[1]) if match else _DEFAULT_MAX_AGE
    return min(max(seconds, _LEAST_MAX_AGE), _MOST_MAX_AGE)


def _json_object(segment: str, what: str) -> dict[str, Any]:
    """A base64url segment holding a JSON object (no repeated keys), or a refusal."""
    if len(segment) % 4 == 1:
        _refuse(f"the {what} is not base64url")
    try:
        raw = base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
        found = strict_json(raw.decode("utf-8"))
    except (binascii.Error, ValueError, RecursionError):
        _refuse(f"the {what} is not JSON")
    if not isinstance(found, dict):
        _refuse(f"the {what} is not a JSON object")
    return found


def _check_header(header: Mapping[str, Any]) -> None:
    named = [name for name in _KEY_HEADERS if name in header]
    if named:
        _refuse(f"the header names a key ({', '.join(named)})")
    if "crit" in header or "b64" in header:
        _refuse("the header asks for an extension")
    kid = header.get("kid")
    if not isinstance(kid, str) or not _KID.fullmatch(kid):
        _refuse("the header has no usable kid")
    if header.get("typ", "JWT") != "JWT":
        _refuse("the header's typ is not JWT")


def _reason_of(error: jwt.PyJWTError) -> str:
    """A few safe words for a PyJWT refusal (its message is not logged as it is)."""
    if isinstance(error, jwt.MissingRequiredClaimError):
        return f"no {error.claim} claim"
    reasons: tuple[tuple[type[jwt.PyJWTError], str], ...] = (
        (jwt.InvalidSignatureError, "a bad signature"),
        (jwt.InvalidAudienceError, "a wrong audience"),
        (jwt.InvalidIssuerError, "a wrong issuer"),
        (jwt.InvalidAlgorithmError, "an algorithm not allowed"),
    )
    for kind, reason in reasons:
        if isinstance(error, kind):
            return reason
    return f"an invalid token ({type(error).__name__})"
