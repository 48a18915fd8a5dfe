"""Forged ID tokens for the tests of the token checks and of the faucet.

Tokens are put together by hand (base64url JSON, then a signature over ``header.payload``),
so a test can send what no library would sign: ``alg: none``, HS256 keyed with the
issuer's RSA public key, a payload re-encoded under the original signature, a key that is
not the issuer's under the issuer's ``kid``. Tokens signed with the issuer's own key come
from ``Issuer.sign`` of the local identity provider.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import Any

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from jwt.algorithms import RSAAlgorithm

from ledgerkit.localnet.services._identity_provider import Issuer

Json = Mapping[str, Any]


def b64url(data: bytes) -> str:
    """Base64url without padding, as JWS segments are."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(segment: str) -> bytes:
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


def segment(value: Json) -> str:
    """One JWS segment: compact JSON, base64url."""
    return b64url(json.dumps(value, separators=(",", ":")).encode())


def header_of(token: str) -> dict[str, Any]:
    """The header of ``token``, unverified."""
    found: dict[str, Any] = json.loads(unb64url(token.split(".")[0]))
    return found


def claims_of(token: str) -> dict[str, Any]:
    """The claims of ``token``, unverified."""
    found: dict[str, Any] = json.loads(unb64url(token.split(".")[1]))
    return found


def unsigned(header: Json, claims: Json) -> str:
    """``header.claims.`` with an empty signature (what ``alg: none`` looks like)."""
    return f"{segment(header)}.{segment(claims)}."


def rs256(header: Json, claims: Json, key: rsa.RSAPrivateKey) -> str:
    """``header.claims`` signed RS256 with ``key``, whatever the header says."""
    signing_input = f"{segment(header)}.{segment(claims)}"
    signature = key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
    return f"{signing_input}.{b64url(signature)}"


def hs256(header: Json, claims: Json, secret: bytes) -> str:
    """``header.claims`` with an HMAC-SHA256 tag keyed with ``secret``."""
    signing_input = f"{segment(header)}.{segment(claims)}"
    tag = hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{b64url(tag)}"


def public_pem(jwk: Json) -> bytes:
    """The PEM of an RSA JWK's public key: the secret of the HS256 key-confusion attack."""
    key = RSAAlgorithm.from_jwk(dict(jwk))
    assert isinstance(key, rsa.RSAPublicKey)
    return key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def hs256_with_public_key(issuer: Issuer, claims: Json) -> str:
    """An HS256 token under the issuer's ``kid``, keyed with its public key's PEM."""
    jwk = issuer.jwks()["keys"][-1]
    header = {"alg": "HS256", "kid": jwk["kid"], "typ": "JWT"}
    return hs256(header, claims, public_pem(jwk))


@functools.cache
def foreign_key() -> rsa.RSAPrivateKey:
    """An RSA key no issuer publishes."""
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def foreign_signed(issuer: Issuer, claims: Json) -> str:
    """RS256 under the issuer's current ``kid``, signed by :func:`foreign_key`."""
    header = {"alg": "RS256", "kid": issuer.kids[-1], "typ": "JWT"}
    return rs256(header, claims, foreign_key())


def signing_key(issuer: Issuer) -> rsa.RSAPrivateKey:
    """The issuer's current private key (which the provider never shows): for tokens of the
    issuer's own key with what ``Issuer.sign`` will not write, a header without ``kid``, a
    claim PyJWT refuses to encode."""
    key: rsa.RSAPrivateKey = issuer._keys[-1]._private
    return key


def own_signed(issuer: Issuer, header: Json, claims: Json) -> str:
    """RS256 with the issuer's own current key, ``header`` as given."""
    return rs256(header, claims, signing_key(issuer))


def tamper(token: str, **changes: Any) -> str:
    """``token`` with its claims changed and re-encoded, the original signature kept."""
    head, _, signature = token.split(".")
    claims = {**claims_of(token), **changes}
    return f"{head}.{segment(claims)}.{signature}"


def without(claims: Json, *names: str) -> dict[str, Any]:
    """``claims`` without ``names``."""
    return {name: value for name, value in claims.items() if name not in names}


def sized(issuer: Issuer, claims: Json, length: int) -> str:
    """A token signed by ``issuer`` exactly ``length`` characters long, padded with a
    ``pad`` claim and, to reach lengths base64 cannot, a ``pad`` header field."""
    for header_pad in range(4):
        headers = {"pad": "x" * header_pad} if header_pad else None
        bare = len(issuer.sign({**claims, "pad": ""}, headers=headers))
        for extra in range(max(0, (length - bare) * 3 // 4 - 3), (length - bare) * 3 // 4 + 4):
            token = issuer.sign({**claims, "pad": "x" * extra}, headers=headers)
            if len(token) == length:
                return token
    raise AssertionError(f"no token of {length} characters")
