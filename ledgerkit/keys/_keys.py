"""Ed25519 and secp256k1 ECDSA keys, and the account addresses derived from them.

Ed25519 signing is pynacl's (libsodium); secp256k1 is OpenSSL's through ``cryptography``
(see :mod:`ledgerkit.bcs` for what the ledger accepts: SHA3-256 digest, low-S).

A private key is taken as 32 bytes, as hex (``0x`` optional), or in the AIP-80 form the
SDKs and wallets exchange, ``ed25519-priv-0x…`` / ``secp256k1-priv-0x…``; the AIP-80
prefix of another scheme is refused. Private keys never show in ``repr``, ``str``,
exceptions or logs; ``secret_hex()`` and ``secret_aip80()`` are the explicit ways out.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Any, Final

import nacl.bindings
import nacl.exceptions
import nacl.signing

from ledgerkit._errors import InputError, InvalidHexError, InvalidKeyError
from ledgerkit.bcs import (
    SECP256K1_ORDER,
    SECP256K1_PUBLIC_KEY_LENGTH,
    AnyPublicKey,
    AnySignature,
    Ed25519Authenticator,
    RawTransaction,
    SignedTransaction,
    SingleKeyAuthenticator,
    SingleSenderAuthenticator,
    secp256k1_signer,
    secp256k1_verify,
)
from ledgerkit.types import Address, HexBytes

__all__ = [
    "Ed25519PrivateKey",
    "Ed25519PublicKey",
    "Secp256k1PrivateKey",
    "Secp256k1PublicKey",
]

#: Scheme bytes appended to a public key before hashing it into an authentication key.
ED25519_SCHEME: Final = b"\x00"
SINGLE_KEY_SCHEME: Final = b"\x02"

#: ``<scheme>-priv-`` of AIP-80 private keys (any scheme, to name the one given).
_AIP80_PREFIX: Final = re.compile(r"([a-z0-9]+)-priv-")


def _secret_bytes(secret: object, scheme: str) -> bytes:
    """The 32 bytes of a private key of ``scheme`` given as bytes, hex or AIP-80 text.

    Every error is raised outside any ``except`` block and never quotes the input, so
    that no traceback carries the secret.
    """
    what = "an Ed25519 private key" if scheme == "ed25519" else f"a {scheme} private key"
    if isinstance(secret, str):
        text = secret.strip()
        prefix = _AIP80_PREFIX.match(text)
        if prefix is not None:
            if prefix[1] != scheme:
                raise InvalidKeyError(f"expected {what}, got an AIP-80 '{prefix[0]}' key")
            text = text[prefix.end() :]
        secret = text
    raw: bytes | None
    try:
        raw = bytes(HexBytes.parse(secret))  # type: ignore[arg-type]
    except (InputError, TypeError):
        raw = None
    if raw is None:
        raise InvalidKeyError(
            f"{what} is 32 bytes, 64 hex digits or {scheme}-priv-0x and 64 digits"
        )
    if len(raw) != 32:
        raise InvalidKeyError(f"{what} is 32 bytes, got {len(raw)}")
    return raw


class Ed25519PublicKey:
    """A 32-byte Ed25519 public key."""

    __slots__ = ("_bytes", "_verify_key")

    def __init__(self, value: bytes | str) -> None:
        try:
            raw = bytes(HexBytes.parse(value))
        except InvalidHexError as exc:
            raise InvalidKeyError(f"not an Ed25519 public key: {exc}") from None
        if len(raw) != 32:
            raise InvalidKeyError(f"an Ed25519 public key is 32 bytes, got {len(raw)}")
        self._bytes = raw
        self._verify_key = nacl.signing.VerifyKey(raw)

    def __bytes__(self) -> bytes:
        return self._bytes

    def __str__(self) -> str:
        return "0x" + self._bytes.hex()

    def __repr__(self) -> str:
        return f"Ed25519PublicKey({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ed25519PublicKey) and other._bytes == self._bytes

    def __hash__(self) -> int:
        return hash(self._bytes)

    def verify(self, message: bytes, signature: bytes) -> bool:
        """True when ``signature`` is this key's signature of ``message``."""
        try:
            self._verify_key.verify(message, signature)
        except (nacl.exceptions.BadSignatureError, nacl.exceptions.ValueError, ValueError):
            return False
        return True

    def authentication_key(self, *, single_key: bool = False) -> bytes:
        """SHA3-256 of the key and its scheme byte (the legacy Ed25519 scheme by default)."""
        if single_key:
            body = AnyPublicKey("ed25519", self._bytes).to_bcs() + SINGLE_KEY_SCHEME
        else:
            body = self._bytes + ED25519_SCHEME
        return hashlib.sha3_256(body).digest()

    def address(self, *, single_key: bool = False) -> Address:
        """The address of a fresh account whose authentication key this key gives."""
        return Address(self.authentication_key(single_key=single_key))


class Ed25519PrivateKey:
    """An Ed25519 signing key. Its secret never appears in ``repr`` or ``str``.

    Parameters
    ----------
    secret : bytes or str
        32 bytes, 64 hex digits (``0x`` optional) or the AIP-80 form
        ``ed25519-priv-0x…``.

    Raises
    ------
    InvalidKeyError
        Not 32 bytes, not hex, or the AIP-80 form of another scheme's key.

    Examples
    --------
    >>> key = Ed25519PrivateKey.from_seed(b"demo")
    >>> repr(key).startswith("Ed25519PrivateKey(<secret>, public_key=")
    True
    >>> Ed25519PrivateKey(key.secret_aip80()) == key
    True
    """

    __slots__ = ("_secret", "_signing_key", "public_key", "public_key_bytes")

    def __init__(self, secret: bytes | str) -> None:
        raw = _secret_bytes(secret, "ed25519")
        self._signing_key = nacl.signing.SigningKey(raw)
        # libsodium's 64-byte secret (seed and public key); signing with it directly
        # skips pynacl's per-call wrapper objects.
        self._secret: bytes = self._signing_key._signing_key
        self.public_key_bytes: bytes = bytes(self._signing_key.verify_key)
        self.public_key = Ed25519PublicKey(self.public_key_bytes)

    @classmethod
    def generate(cls) -> Ed25519PrivateKey:
        """A new random key."""
        return cls(bytes(nacl.signing.SigningKey.generate()))

    @classmethod
    def from_seed(cls, seed: bytes | str) -> Ed25519PrivateKey:
        """A key derived deterministically from any seed (SHA3-256 of it)."""
        data = seed.encode() if isinstance(seed, str) else bytes(seed)
        return cls(hashlib.sha3_256(b"ledgerkit-key:" + data).digest())

    def sign(self, message: bytes) -> bytes:
        """The 64-byte signature of ``message``."""
        signed: bytes = nacl.bindings.crypto_sign(message, self._secret)
        return signed[:64]

    def secret_hex(self) -> str:
        """The private key as ``0x`` hex. Handle with care: it is the account."""
        return "0x" + bytes(self._signing_key).hex()

    def secret_aip80(self) -> str:
        """The private key as AIP-80 text, ``ed25519-priv-0x…``, the form SDKs and
        wallets read without a warning. Handle with care: it is the account."""
        return "ed25519-priv-" + self.secret_hex()

    def address(self, *, single_key: bool = False) -> Address:
        """The address derived from the public key (see :meth:`Ed25519PublicKey.address`)."""
        return self.public_key.address(single_key=single_key)

    def authenticator(self, message: bytes) -> Ed25519Authenticator:
        """An Ed25519 account authenticator over ``message``."""
        return Ed25519Authenticator(self.public_key_bytes, self.sign(message))

    def single_key_authenticator(self, message: bytes) -> SingleKeyAuthenticator:
        """A single-key account authenticator over ``message``."""
        return SingleKeyAuthenticator(
            AnyPublicKey("ed25519", self.public_key_bytes),
            AnySignature("ed25519", self.sign(message)),
        )

    def sign_transaction(self, raw: RawTransaction) -> SignedTransaction:
        """Sign a single-signer transaction with an Ed25519 authenticator."""
        return raw.sign(self)

    def __repr__(self) -> str:
        return f"Ed25519PrivateKey(<secret>, public_key={self.public_key})"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Ed25519PrivateKey) and other.public_key_bytes == self.public_key_bytes
        )

    def __hash__(self) -> int:
        return hash(self.public_key_bytes)

    def __reduce__(self) -> Any:
        raise TypeError("private keys are not pickled; export with secret_hex() on purpose")


class Secp256k1PublicKey:
    """A secp256k1 ECDSA public key: 65 bytes, ``0x04`` and the uncompressed point.

    The 64 bytes of the point without the ``0x04`` are taken too. Accounts use it as a
    single key (authentication key scheme 2), as the SDKs do.
    """

    __slots__ = ("_bytes",)

    def __init__(self, value: bytes | str) -> None:
        try:
            raw = bytes(HexBytes.parse(value))
        except InvalidHexError as exc:
            raise InvalidKeyError(f"not a secp256k1 public key: {exc}") from None
        if len(raw) == SECP256K1_PUBLIC_KEY_LENGTH - 1:
            raw = b"\x04" + raw
        if len(raw) != SECP256K1_PUBLIC_KEY_LENGTH or raw[0] != 4:
            raise InvalidKeyError(
                f"a secp256k1 public key is 65 bytes starting 0x04, got {len(raw)} bytes"
            )
        if not _on_curve(raw):
            raise InvalidKeyError("not a secp256k1 public key: the point is not on the curve")
        self._bytes = raw

    def __bytes__(self) -> bytes:
        return self._bytes

    def __str__(self) -> str:
        return "0x" + self._bytes.hex()

    def __repr__(self) -> str:
        return f"Secp256k1PublicKey({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secp256k1PublicKey) and other._bytes == self._bytes

    def __hash__(self) -> int:
        return hash(self._bytes)

    def verify(self, message: bytes, signature: bytes) -> bool:
        """True when ``signature`` (64 bytes, low-S) is this key's signature of ``message``."""
        return secp256k1_verify(self._bytes, message, bytes(signature))

    def authentication_key(self) -> bytes:
        """SHA3-256 of the key as a single key (``AnyPublicKey`` BCS) and scheme byte 2."""
        body = AnyPublicKey("secp256k1_ecdsa", self._bytes).to_bcs() + SINGLE_KEY_SCHEME
        return hashlib.sha3_256(body).digest()

    def address(self) -> Address:
        """The address of a fresh account whose authentication key this key gives."""
        return Address(self.authentication_key())


def _on_curve(point: bytes) -> bool:
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256K1(), point)
    except ValueError:
        return False
    return True


class Secp256k1PrivateKey:
    """A secp256k1 ECDSA signing key, as single-key accounts use it.

    Signatures are 64 bytes (``r`` then ``s``), of the SHA3-256 digest of the message,
    always in low-S form, with a deterministic nonce (RFC 6979): the bytes the official
    SDKs produce for the same key and message. The secret never appears in ``repr``.

    Parameters
    ----------
    secret : bytes or str
        32 bytes, 64 hex digits (``0x`` optional) or the AIP-80 form
        ``secp256k1-priv-0x…``; a number from 1 to the group order - 1.

    Raises
    ------
    InvalidKeyError
        Not 32 bytes, not hex, out of range, or the AIP-80 form of another scheme's key.

    Examples
    --------
    >>> key = Secp256k1PrivateKey.from_seed(b"demo")
    >>> key.public_key.verify(b"hello", key.sign(b"hello"))
    True
    >>> Secp256k1PrivateKey(key.secret_aip80()) == key
    True
    """

    __slots__ = ("_secret", "_sign", "public_key", "public_key_bytes")

    def __init__(self, secret: bytes | str) -> None:
        raw = _secret_bytes(secret, "secp256k1")
        signer: tuple[bytes, Any] | None
        try:
            signer = secp256k1_signer(raw)
        except ValueError:
            signer = None
        if signer is None:
            raise InvalidKeyError(
                "a secp256k1 private key is a number from 1 to the group order - 1"
            )
        self._secret = raw
        self.public_key_bytes: bytes = signer[0]
        self._sign = signer[1]
        self.public_key = Secp256k1PublicKey(self.public_key_bytes)

    @classmethod
    def generate(cls) -> Secp256k1PrivateKey:
        """A new random key."""
        while True:
            candidate = secrets.token_bytes(32)
            if 0 < int.from_bytes(candidate, "big") < SECP256K1_ORDER:
                return cls(candidate)

    @classmethod
    def from_seed(cls, seed: bytes | str) -> Secp256k1PrivateKey:
        """A key derived deterministically from any seed (SHA3-256 of it)."""
        data = seed.encode() if isinstance(seed, str) else bytes(seed)
        digest = hashlib.sha3_256(b"ledgerkit-secp256k1-key:" + data).digest()
        while not 0 < int.from_bytes(digest, "big") < SECP256K1_ORDER:
            digest = hashlib.sha3_256(digest).digest()  # about one seed in 2**128
        return cls(digest)

    def sign(self, message: bytes) -> bytes:
        """The 64-byte low-S signature of ``message``."""
        signature: bytes = self._sign(message)
        return signature

    def secret_hex(self) -> str:
        """The private key as ``0x`` hex. Handle with care: it is the account."""
        return "0x" + self._secret.hex()

    def secret_aip80(self) -> str:
        """The private key as AIP-80 text, ``secp256k1-priv-0x…``. Handle with care."""
        return "secp256k1-priv-" + self.secret_hex()

    def address(self) -> Address:
        """The address derived from the public key as a single key."""
        return self.public_key.address()

    def authenticator(self, message: bytes) -> SingleKeyAuthenticator:
        """A single-key account authenticator over ``message``."""
        return SingleKeyAuthenticator(
            AnyPublicKey("secp256k1_ecdsa", self.public_key_bytes),
            AnySignature("secp256k1_ecdsa", self.sign(message)),
        )

    def sign_transaction(self, raw: RawTransaction) -> SignedTransaction:
        """Sign a single-signer transaction (a single-sender authenticator)."""
        auth = self.authenticator(raw.signing_message())
        return SignedTransaction(raw, SingleSenderAuthenticator(auth))

    def __repr__(self) -> str:
        return f"Secp256k1PrivateKey(<secret>, public_key={self.public_key})"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Secp256k1PrivateKey)
            and other.public_key_bytes == self.public_key_bytes
        )

    def __hash__(self) -> int:
        return hash(self.public_key_bytes)

    def __reduce__(self) -> Any:
        raise TypeError("private keys are not pickled; export with secret_hex() on purpose")
