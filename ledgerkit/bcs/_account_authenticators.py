"""Account authenticators: how one account signed (the ``AccountAuthenticator`` enum).

The variants, as the ledger numbers them: :class:`Ed25519Authenticator` (0),
:class:`MultiEd25519Authenticator` (1), :class:`SingleKeyAuthenticator` (2),
:class:`MultiKeyAuthenticator` (3), :class:`NoAccountAuthenticator` (4),
:class:`AbstractionAuthenticator` (5). The first two also serve as transaction
authenticators of a single sender (see ``_transaction_authenticators``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from ledgerkit._errors import BCSDecodeError, BCSEncodeError
from ledgerkit.bcs._any_keys import AnyPublicKey, AnySignature
from ledgerkit.bcs._codec import BCSStruct, Deserializer, Serializer
from ledgerkit.bcs._enums import StructEnum
from ledgerkit.types import Address

__all__ = [
    "AbstractionAuthenticator",
    "AccountAuthenticator",
    "Ed25519Authenticator",
    "MultiEd25519Authenticator",
    "MultiKeyAuthenticator",
    "NoAccountAuthenticator",
    "SingleKeyAuthenticator",
    "deserialize_account_authenticator",
    "serialize_account_authenticator",
]

ED25519_PUBLIC_KEY_LENGTH: Final = 32
ED25519_SIGNATURE_LENGTH: Final = 64
MULTI_ED25519_MAX_KEYS: Final = 32

T = TypeVar("T")


def _check_length(what: str, value: bytes, length: int) -> bytes:
    value = bytes(value)
    if len(value) != length:
        raise BCSEncodeError(f"{what} must be {length} bytes, got {len(value)}")
    return value


def _write_key_and_signature(s: Serializer, key: bytes, signature: bytes) -> None:
    s.var_bytes(key)
    s.var_bytes(signature)


def _read_key_and_signature(d: Deserializer) -> tuple[int, bytes, bytes]:
    """Where the authenticator starts, then its public key and signature bytes."""
    start = d.position
    return start, d.field("public_key", d.var_bytes), d.field("signature", d.var_bytes)


def _read_as(start: int, make: Callable[..., T], *args: Any) -> T:
    """``make(*args)``, a value it refuses reported as undecodable at ``start``."""
    try:
        return make(*args)
    except BCSEncodeError as exc:
        raise BCSDecodeError(str(exc), offset=start) from None


@dataclass(frozen=True, slots=True)
class Ed25519Authenticator(BCSStruct):
    """One Ed25519 public key and its signature."""

    public_key: bytes
    signature: bytes

    def __post_init__(self) -> None:
        if type(self.public_key) is not bytes or len(self.public_key) != 32:
            key = _check_length("an Ed25519 public key", self.public_key, 32)
            object.__setattr__(self, "public_key", key)
        if type(self.signature) is not bytes or len(self.signature) != 64:
            sig = _check_length("an Ed25519 signature", self.signature, 64)
            object.__setattr__(self, "signature", sig)

    def serialize(self, s: Serializer) -> None:
        _write_key_and_signature(s, self.public_key, self.signature)

    @classmethod
    def deserialize(cls, d: Deserializer) -> Ed25519Authenticator:
        start, key, sig = _read_key_and_signature(d)
        return _read_as(start, cls, key, sig)


@dataclass(frozen=True, slots=True)
class MultiEd25519Authenticator(BCSStruct):
    """K-of-N Ed25519: the N public keys, the threshold K, the signatures and a bitmap.

    ``signatures`` are in key order for the keys whose bit is set in the 4-byte
    ``bitmap`` (bit ``i`` is the high bit first of byte ``i // 8``).
    """

    public_keys: tuple[bytes, ...]
    threshold: int
    signatures: tuple[bytes, ...]
    bitmap: bytes

    def __post_init__(self) -> None:
        keys = tuple(
            _check_length("an Ed25519 public key", k, ED25519_PUBLIC_KEY_LENGTH)
            for k in self.public_keys
        )
        sigs = tuple(
            _check_length("an Ed25519 signature", x, ED25519_SIGNATURE_LENGTH)
            for x in self.signatures
        )
        if not 1 <= len(keys) <= MULTI_ED25519_MAX_KEYS:
            raise BCSEncodeError(f"multi-Ed25519 takes 1 to 32 keys, got {len(keys)}")
        if not 1 <= self.threshold <= len(keys):
            raise BCSEncodeError(f"threshold {self.threshold} outside 1..{len(keys)}")
        bitmap = _check_length("a multi-Ed25519 bitmap", self.bitmap, 4)
        if bin(int.from_bytes(bitmap, "big")).count("1") != len(sigs):
            raise BCSEncodeError("the bitmap must have one bit set per signature")
        object.__setattr__(self, "public_keys", keys)
        object.__setattr__(self, "signatures", sigs)
        object.__setattr__(self, "bitmap", bitmap)

    @staticmethod
    def make_bitmap(indices: list[int] | tuple[int, ...]) -> bytes:
        """The 4-byte bitmap with the bits of ``indices`` set."""
        value = 0
        for i in indices:
            if not 0 <= i < MULTI_ED25519_MAX_KEYS:
                raise BCSEncodeError(f"signer index {i} outside 0..31")
            value |= 1 << (31 - i)
        return value.to_bytes(4, "big")

    @property
    def public_key_bytes(self) -> bytes:
        """The multi-key as one byte string: the keys, then the threshold."""
        return b"".join(self.public_keys) + bytes([self.threshold])

    @property
    def signature_bytes(self) -> bytes:
        """The multi-signature as one byte string: the signatures, then the bitmap."""
        return b"".join(self.signatures) + self.bitmap

    def serialize(self, s: Serializer) -> None:
        _write_key_and_signature(s, self.public_key_bytes, self.signature_bytes)

    @classmethod
    def deserialize(cls, d: Deserializer) -> MultiEd25519Authenticator:
        start, key_bytes, sig_bytes = _read_key_and_signature(d)
        if len(key_bytes) % 32 != 1 or len(sig_bytes) % 64 != 4:
            raise BCSDecodeError("malformed multi-Ed25519 key or signature", offset=start)
        keys = tuple(key_bytes[i : i + 32] for i in range(0, len(key_bytes) - 1, 32))
        sigs = tuple(sig_bytes[i : i + 64] for i in range(0, len(sig_bytes) - 4, 64))
        return _read_as(start, cls, keys, key_bytes[-1], sigs, sig_bytes[-4:])


@dataclass(frozen=True, slots=True)
class SingleKeyAuthenticator(BCSStruct):
    """One key of any scheme and its signature."""

    public_key: AnyPublicKey
    signature: AnySignature

    def serialize(self, s: Serializer) -> None:
        self.public_key.serialize(s)
        self.signature.serialize(s)

    @classmethod
    def deserialize(cls, d: Deserializer) -> SingleKeyAuthenticator:
        key = d.field("public_key", AnyPublicKey.deserialize, d)
        sig = d.field("signature", AnySignature.deserialize, d)
        return cls(key, sig)


@dataclass(frozen=True, slots=True)
class MultiKeyAuthenticator(BCSStruct):
    """K-of-N keys of any schemes: the keys, K, the signatures and a bitmap of signers.

    The bitmap is a bit vector serialized as bytes: bit ``i`` is the high bit first of
    byte ``i // 8``.
    """

    public_keys: tuple[AnyPublicKey, ...]
    signatures_required: int
    signatures: tuple[AnySignature, ...]
    bitmap: bytes

    def __post_init__(self) -> None:
        object.__setattr__(self, "public_keys", tuple(self.public_keys))
        object.__setattr__(self, "signatures", tuple(self.signatures))
        object.__setattr__(self, "bitmap", bytes(self.bitmap))
        if not 1 <= self.signatures_required <= len(self.public_keys):
            raise BCSEncodeError(
                f"signatures_required {self.signatures_required} outside 1..{len(self.public_keys)}"
            )

    @staticmethod
    def make_bitmap(indices: list[int] | tuple[int, ...], key_count: int) -> bytes:
        """The bit vector with the bits of ``indices`` set, one byte per 8 keys."""
        out = bytearray((key_count + 7) // 8)
        for i in indices:
            if not 0 <= i < key_count:
                raise BCSEncodeError(f"signer index {i} outside 0..{key_count - 1}")
            out[i // 8] |= 0x80 >> (i % 8)
        return bytes(out)

    def serialize(self, s: Serializer) -> None:
        s.uleb128(len(self.public_keys))
        for key in self.public_keys:
            key.serialize(s)
        s.u8(self.signatures_required)
        s.uleb128(len(self.signatures))
        for sig in self.signatures:
            sig.serialize(s)
        s.var_bytes(self.bitmap)

    @classmethod
    def deserialize(cls, d: Deserializer) -> MultiKeyAuthenticator:
        start = d.position
        keys = d.field("public_keys", d.sequence, lambda: AnyPublicKey.deserialize(d), "key")
        required = d.field("signatures_required", d.u8)
        sigs = d.field("signatures", d.sequence, lambda: AnySignature.deserialize(d), "signature")
        bitmap = d.field("bitmap", d.var_bytes)
        return _read_as(start, cls, tuple(keys), required, tuple(sigs), bitmap)


@dataclass(frozen=True, slots=True)
class NoAccountAuthenticator(BCSStruct):
    """No signature at all (used for a fee payer not yet known, in simulation)."""

    def serialize(self, s: Serializer) -> None:
        return None

    @classmethod
    def deserialize(cls, d: Deserializer) -> NoAccountAuthenticator:
        return cls()


@dataclass(frozen=True, slots=True)
class AbstractionAuthenticator(BCSStruct):
    """Account abstraction: a Move function authenticates the account.

    ``function_info`` is ``(module_address, module_name, function_name)``; ``auth_data``
    is the BCS of the abstraction's auth-data enum, carried byte for byte.
    """

    module_address: Address
    module_name: str
    function_name: str
    auth_data: bytes = field(default=b"")

    def serialize(self, s: Serializer) -> None:
        s.address(self.module_address)
        s.string(self.module_name)
        s.string(self.function_name)
        s.fixed_bytes(self.auth_data)

    @classmethod
    def deserialize(cls, d: Deserializer) -> AbstractionAuthenticator:
        address = d.field("module_address", d.address)
        module = d.field("module_name", d.string)
        function = d.field("function_name", d.string)
        start = d.position
        kind = d.variant(("V1", "DerivableV1"), "abstraction auth data")
        d.var_bytes()  # signing_message_digest
        d.var_bytes()  # authenticator / abstract_signature
        if kind == 1:
            d.var_bytes()  # abstract_public_key
        return cls(address, module, function, d.bytes_since(start))


AccountAuthenticator = (
    Ed25519Authenticator
    | MultiEd25519Authenticator
    | SingleKeyAuthenticator
    | MultiKeyAuthenticator
    | NoAccountAuthenticator
    | AbstractionAuthenticator
)
_ACCOUNT_ENUM: Final = StructEnum[AccountAuthenticator](
    ("ed25519", "multi_ed25519", "single_key", "multi_key", "no_account", "abstraction"),
    {
        0: Ed25519Authenticator,
        1: MultiEd25519Authenticator,
        2: SingleKeyAuthenticator,
        3: MultiKeyAuthenticator,
        4: NoAccountAuthenticator,
        5: AbstractionAuthenticator,
    },
    what="account authenticator",
    noun="an account authenticator",
)


def serialize_account_authenticator(s: Serializer, auth: AccountAuthenticator) -> None:
    """Write an AccountAuthenticator with its variant index."""
    _ACCOUNT_ENUM.serialize(s, auth)


def deserialize_account_authenticator(d: Deserializer) -> AccountAuthenticator:
    """Read an AccountAuthenticator."""
    return _ACCOUNT_ENUM.deserialize(d)
