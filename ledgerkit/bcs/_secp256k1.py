"""secp256k1 ECDSA as the ledger uses it: what a valid signature is, and how to make one.

The ledger signs the SHA3-256 digest of the signing message; a signature is 64 bytes,
``r`` then ``s``, big-endian, and only the low-S form (``s <= n / 2``) is valid, so
that a signature cannot be turned into a second valid one. Public keys are 65 bytes,
``0x04`` and the uncompressed point.

The curve arithmetic is OpenSSL's, through ``cryptography``, imported on first use so
that ``import ledgerkit`` does not pay for it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ec import ECDSA

__all__ = [
    "SECP256K1_ORDER",
    "SECP256K1_PUBLIC_KEY_LENGTH",
    "SECP256K1_SIGNATURE_LENGTH",
    "secp256k1_signer",
    "secp256k1_verify",
]

#: The order ``n`` of the curve's group: private keys are 1 .. n - 1.
SECP256K1_ORDER: Final = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
SECP256K1_PUBLIC_KEY_LENGTH: Final = 65
SECP256K1_SIGNATURE_LENGTH: Final = 64
_HALF_ORDER: Final = SECP256K1_ORDER // 2


def _ecdsa() -> ECDSA:
    """ECDSA over a SHA3-256 digest computed here; the nonce derived as RFC 6979 says."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, utils

    return ec.ECDSA(utils.Prehashed(hashes.SHA3_256()), deterministic_signing=True)


def secp256k1_verify(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """True when ``signature`` is a valid low-S signature of ``message`` by ``public_key``.

    Anything malformed (a key that is not a 65-byte point on the curve, a signature
    that is not 64 bytes, ``r`` or ``s`` out of range, a high ``s``) is simply not
    valid: the answer is False, never an exception.
    """
    if len(public_key) != SECP256K1_PUBLIC_KEY_LENGTH or public_key[0] != 4:
        return False
    if len(signature) != SECP256K1_SIGNATURE_LENGTH:
        return False
    r = int.from_bytes(signature[:32], "big")
    s = int.from_bytes(signature[32:], "big")
    if not (0 < r < SECP256K1_ORDER and 0 < s <= _HALF_ORDER):
        return False
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric import ec, utils

    digest = hashlib.sha3_256(message).digest()
    try:
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256K1(), bytes(public_key))
        key.verify(utils.encode_dss_signature(r, s), digest, _ecdsa())
    except (ValueError, InvalidSignature):
        return False
    return True


def secp256k1_signer(secret: bytes) -> tuple[bytes, Callable[[bytes], bytes]]:
    """The public key of a private key, and a function that signs messages with it.

    ``secret`` is 32 bytes, big-endian, 1 .. n - 1 (:class:`ValueError` otherwise). The
    signatures are 64 bytes, low-S, with the nonce derived from the key and the message
    as RFC 6979 says, so signing the same message twice gives the same bytes.
    """
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec, utils

    value = int.from_bytes(secret, "big")
    if len(secret) != 32 or not 0 < value < SECP256K1_ORDER:
        raise ValueError("a secp256k1 private key is 32 bytes, from 1 to the group order - 1")
    key = ec.derive_private_key(value, ec.SECP256K1())
    public_key = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    algorithm = _ecdsa()

    def sign(message: bytes) -> bytes:
        digest = hashlib.sha3_256(message).digest()
        r, s = utils.decode_dss_signature(key.sign(digest, algorithm))
        if s > _HALF_ORDER:
            s = SECP256K1_ORDER - s
        return r.to_bytes(32, "big") + s.to_bytes(32, "big")

    return public_key, sign
