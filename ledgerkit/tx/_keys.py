"""Ed25519 keys and the account addresses derived from them.

Signing is pynacl's (libsodium). Private keys never show in ``repr``, ``str``,
exceptions or logs; :meth:`Ed25519PrivateKey.secret_hex` is the one explicit way out.
"""

from __future__ import annotations

import hashlib
from typing import Any, Final

import nacl.bindings
import nacl.exceptions
import nacl.signing

from ledgerkit._errors import InputError, InvalidHexError, SigningError
from ledgerkit.bcs import (
    AnyPublicKey,
    AnySignature,
    Ed25519Authenticator,
    RawTransaction,
    SignedTransaction,
    SingleKeyAuthenticator,
)
from ledgerkit.types import Address, HexBytes

__all__ = ["Ed25519PrivateKey", "Ed25519PublicKey"]

#: Scheme bytes appended to a public key before hashing it into an authentication key.
ED25519_SCHEME: Final = b"\x00"
MULTI_ED25519_SCHEME: Final = b"\x01"
SINGLE_KEY_SCHEME: Final = b"\x02"
MULTI_KEY_SCHEME: Final = b"\x03"


class Ed25519PublicKey:
    """A 32-byte Ed25519 public key."""

    __slots__ = ("_bytes", "_verify_key")

    def __init__(self, value: bytes | str) -> None:
        try:
            raw = bytes(HexBytes.parse(value))
        except InvalidHexError as exc:
            raise SigningError(f"not an Ed25519 public key: {exc}") from None
        if len(raw) != 32:
            raise SigningError(f"an Ed25519 public key is 32 bytes, got {len(raw)}")
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

    Examples
    --------
    >>> key = Ed25519PrivateKey.from_seed(b"demo")
    >>> repr(key).startswith("Ed25519PrivateKey(<secret>, public_key=")
    True
    """

    __slots__ = ("_secret", "_signing_key", "public_key", "public_key_bytes")

    def __init__(self, secret: bytes | str) -> None:
        raw: bytes | None
        try:
            raw = bytes(HexBytes.parse(secret))
        except (InputError, TypeError):
            raw = None
        # Raised outside the except block so that no chained exception carries the text.
        if raw is None:
            raise SigningError("an Ed25519 private key is 32 bytes or 64 hex digits")
        if len(raw) != 32:
            raise SigningError(f"an Ed25519 private key is 32 bytes, got {len(raw)}")
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
