"""TypeTag: the BCS form of a Move type, as entry functions and struct tags carry it."""

from __future__ import annotations

from typing import Final

from ledgerkit._errors import BCSDecodeError, BCSEncodeError
from ledgerkit.bcs._codec import Deserializer, Serializer
from ledgerkit.types import MoveType, PrimitiveType, StructTag, VectorType, is_identifier

__all__ = [
    "deserialize_struct_tag",
    "deserialize_type_tag",
    "read_identifier",
    "serialize_struct_tag",
    "serialize_type_tag",
    "type_tag_bytes",
]

#: Variant index of each primitive in the TypeTag enum (vector is 6, struct is 7). The
#: enum's order is the chain's: 11 is the function type tag (not read or written here), and
#: the signed integers follow it at 12 ... 17.
PRIMITIVE_TAGS: Final = {
    "bool": 0,
    "u8": 1,
    "u64": 2,
    "u128": 3,
    "address": 4,
    "signer": 5,
    "u16": 8,
    "u32": 9,
    "u256": 10,
    "i8": 12,
    "i16": 13,
    "i32": 14,
    "i64": 15,
    "i128": 16,
    "i256": 17,
}
_FUNCTION: Final = 11
_VECTOR: Final = 6
_STRUCT: Final = 7
_BY_TAG: Final = {tag: PrimitiveType(name) for name, tag in PRIMITIVE_TAGS.items()}
_MAX_DEPTH: Final = 64


def serialize_type_tag(s: Serializer, t: MoveType) -> None:
    """Write ``t`` as a TypeTag.

    Raises
    ------
    BCSEncodeError
        For generic parameters and references (they only appear in ABIs) and for types
        the TypeTag enum has no variant for.
    """
    if isinstance(t, PrimitiveType):
        tag = PRIMITIVE_TAGS.get(t.name)
        if tag is None:
            raise BCSEncodeError(f"no TypeTag variant is known for {t.name}")
        s.uleb128(tag)
    elif isinstance(t, VectorType):
        s.uleb128(_VECTOR)
        serialize_type_tag(s, t.element)
    elif isinstance(t, StructTag):
        s.uleb128(_STRUCT)
        serialize_struct_tag(s, t)
    else:
        raise BCSEncodeError(f"{t} is not a concrete type and has no TypeTag")


def serialize_struct_tag(s: Serializer, t: StructTag) -> None:
    """Write a StructTag: address, module, name, type arguments."""
    s.address(t.address)
    s.string(t.module)
    s.string(t.name)
    s.uleb128(len(t.type_args))
    for arg in t.type_args:
        serialize_type_tag(s, arg)


def deserialize_type_tag(d: Deserializer, _depth: int = 0) -> MoveType:
    """Read one TypeTag."""
    if _depth > _MAX_DEPTH:
        raise BCSDecodeError("type tag nested too deep", offset=d.position)
    start = d.position
    tag = d.uleb128()
    primitive = _BY_TAG.get(tag)
    if primitive is not None:
        return primitive
    if tag == _VECTOR:
        return VectorType(deserialize_type_tag(d, _depth + 1))
    if tag == _STRUCT:
        return deserialize_struct_tag(d, _depth + 1)
    if tag == _FUNCTION:
        raise BCSDecodeError("function types (TypeTag variant 11) are not supported", offset=start)
    raise BCSDecodeError(f"unknown TypeTag variant {tag}", offset=start)


def deserialize_struct_tag(d: Deserializer, _depth: int = 0) -> StructTag:
    """Read a StructTag."""
    address = d.address()
    module = read_identifier(d)
    name = read_identifier(d)
    args = d.sequence(lambda: deserialize_type_tag(d, _depth + 1))
    return StructTag(address, module, name, tuple(args))


def read_identifier(d: Deserializer) -> str:
    """A Move identifier (module, struct or function name); anything else is refused."""
    start = d.position
    text = d.string()
    if not is_identifier(text):
        raise BCSDecodeError(f"{text[:40]!r} is not a Move identifier", offset=start)
    return text


def type_tag_bytes(t: MoveType | str) -> bytes:
    """The TypeTag bytes of a type (given as a tree or as text)."""
    s = Serializer()
    serialize_type_tag(s, MoveType.parse(t))
    return s.output()
