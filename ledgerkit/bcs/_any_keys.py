"""Keys and signatures of any scheme, as single-key and multi-key accounts hold them.

:class:`AnyPublicKey` and :class:`AnySignature` pair a scheme name with its bytes: the
key or signature itself for the fixed-size schemes, the BCS of the scheme's struct for
keyless and WebAuthn, carried byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ledgerkit._errors import BCSDecodeError, BCSEncodeError
from ledgerkit.bcs._codec import BCSStruct, Deserializer, Serializer

__all__ = ["AnyPublicKey", "AnySignature"]


def _read_keyless_public_key(d: Deserializer) -> bytes:
    start = d.position
    d.string()  # iss_val
    d.var_bytes()  # idc
    return d.bytes_since(start)


def _read_federated_keyless_public_key(d: Deserializer) -> bytes:
    start = d.position
    d.address()  # jwk_addr
    _read_keyless_public_key(d)
    return d.bytes_since(start)


@dataclass(frozen=True, slots=True)
class AnyPublicKey(BCSStruct):
    """A public key of any scheme, as single-key and multi-key accounts hold them.

    ``value`` is the key itself for ``ed25519`` (32 bytes), ``secp256k1_ecdsa`` and
    ``secp256r1_ecdsa`` (65 bytes, uncompressed); for ``keyless`` and
    ``federated_keyless`` it is the BCS of the key's struct.
    """

    scheme: str
    value: bytes

    SCHEMES: ClassVar[tuple[str, ...]] = (
        "ed25519",
        "secp256k1_ecdsa",
        "secp256r1_ecdsa",
        "keyless",
        "federated_keyless",
    )

    def __post_init__(self) -> None:
        if self.scheme not in self.SCHEMES:
            raise BCSEncodeError(f"unknown public key scheme {self.scheme!r}")
        object.__setattr__(self, "value", bytes(self.value))

    def serialize(self, s: Serializer) -> None:
        s.uleb128(self.SCHEMES.index(self.scheme))
        if self.scheme in ("keyless", "federated_keyless"):
            s.fixed_bytes(self.value)
        else:
            s.var_bytes(self.value)

    @classmethod
    def deserialize(cls, d: Deserializer) -> AnyPublicKey:
        scheme = cls.SCHEMES[d.variant(cls.SCHEMES, "public key scheme")]
        if scheme == "keyless":
            return cls(scheme, d.field("value", _read_keyless_public_key, d))
        if scheme == "federated_keyless":
            return cls(scheme, d.field("value", _read_federated_keyless_public_key, d))
        return cls(scheme, d.field("value", d.var_bytes))


def _read_webauthn(d: Deserializer) -> bytes:
    start = d.position
    d.variant(("secp256r1_ecdsa",), "assertion signature")
    d.var_bytes()  # signature
    d.var_bytes()  # authenticator_data
    d.var_bytes()  # client_data_json
    return d.bytes_since(start)


@dataclass(frozen=True, slots=True)
class AnySignature(BCSStruct):
    """A signature of any scheme.

    ``value`` is the signature itself for ``ed25519`` and ``secp256k1_ecdsa`` (64 bytes);
    for ``web_authn`` and ``keyless`` it is the BCS of the signature's struct.
    Keyless signatures are carried byte for byte but not decoded from a stream.
    """

    scheme: str
    value: bytes

    SCHEMES: ClassVar[tuple[str, ...]] = ("ed25519", "secp256k1_ecdsa", "web_authn", "keyless")

    def __post_init__(self) -> None:
        if self.scheme not in self.SCHEMES:
            raise BCSEncodeError(f"unknown signature scheme {self.scheme!r}")
        object.__setattr__(self, "value", bytes(self.value))

    def serialize(self, s: Serializer) -> None:
        s.uleb128(self.SCHEMES.index(self.scheme))
        if self.scheme in ("web_authn", "keyless"):
            s.fixed_bytes(self.value)
        else:
            s.var_bytes(self.value)

    @classmethod
    def deserialize(cls, d: Deserializer) -> AnySignature:
        start = d.position
        scheme = cls.SCHEMES[d.variant(cls.SCHEMES, "signature scheme")]
        if scheme == "web_authn":
            return cls(scheme, d.field("value", _read_webauthn, d))
        if scheme == "keyless":
            raise BCSDecodeError("keyless signatures cannot be decoded here", offset=start)
        return cls(scheme, d.field("value", d.var_bytes))
