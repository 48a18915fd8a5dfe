"""The Move value codec: a Move value in the API's JSON form <-> its BCS bytes.

The JSON form is the node's (see the spec's "Move resource" rules): ``bool`` is a JSON
bool, ``u8``/``u16``/``u32`` are numbers, ``u64`` and wider are decimal strings,
``address`` is ``0x`` hex, ``vector<u8>`` is ``0x`` hex, other vectors are arrays,
``0x1::string::String`` is a plain string, ``0x1::option::Option<T>`` is
``{"vec": []}`` or ``{"vec": [v]}``, ``0x1::object::Object<T>`` is ``{"inner": address}``
and any other struct is an object of its fields. BCS has no field names, so a struct's
field layout comes from a :class:`LayoutSource`: a dictionary (:class:`DictLayouts`)
or, later, module ABIs fetched from a node.

Encoders and decoders are compiled once per type and cached, so encoding many values
of one type (arguments of the same entry function, rows of a table) stays cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Protocol

from ledgerkit._errors import (
    BCSDecodeError,
    BCSEncodeError,
    InputError,
    MoveTypeSyntaxError,
    MoveValueError,
)
from ledgerkit.bcs._codec import Deserializer, Serializer
from ledgerkit.types import (
    Address,
    HexBytes,
    MoveType,
    PrimitiveType,
    StructTag,
    VectorType,
    parse_uint,
)

__all__ = ["DictLayouts", "LayoutSource", "MoveValueCodec"]

Encoder = Callable[[Serializer, Any, str], None]
Decoder = Callable[[Deserializer], Any]

_MAX_DEPTH: Final = 64
_ONE: Final = Address.from_int(1)
_UNSIGNED_BITS: Final = {"u8": 8, "u16": 16, "u32": 32, "u64": 64, "u128": 128, "u256": 256}
_SIGNED_BITS: Final = {"i8": 8, "i16": 16, "i32": 32, "i64": 64, "i128": 128, "i256": 256}


class LayoutSource(Protocol):
    """Where the codec learns a struct's fields.

    ``struct_fields`` gets a concrete struct tag and returns its fields in declaration
    order with the type arguments already substituted, or ``None`` when unknown. A
    source whose layouts can change should carry an integer ``generation`` attribute
    that grows on every change; codecs recompile when it moves.
    """

    def struct_fields(self, tag: StructTag) -> Sequence[tuple[str, MoveType]] | None: ...


class DictLayouts:
    """A :class:`LayoutSource` from a dictionary of struct to fields.

    Keys are struct tags without type arguments; field types may use ``T0``, ``T1`` ...
    for the struct's type parameters.

    Examples
    --------
    >>> layouts = DictLayouts({"0x42::demo::Pair": [("a", "T0"), ("b", "T1")]})
    >>> fields = layouts.struct_fields(StructTag.parse("0x42::demo::Pair<u8, bool>"))
    >>> [(name, str(t)) for name, t in fields]
    [('a', 'u8'), ('b', 'bool')]
    """

    def __init__(
        self, layouts: Mapping[str | StructTag, Sequence[tuple[str, str | MoveType]]] | None = None
    ) -> None:
        self._layouts: dict[StructTag, tuple[tuple[str, MoveType], ...]] = {}
        #: Bumped on every change, so codecs drop what they compiled from older layouts.
        self.generation = 0
        for key, fields in (layouts or {}).items():
            self.add(key, fields)

    def add(self, struct: str | StructTag, fields: Sequence[tuple[str, str | MoveType]]) -> None:
        """Add or replace the layout of one struct."""
        tag = StructTag.parse(struct).base
        self._layouts[tag] = tuple((str(name), MoveType.parse(t)) for name, t in fields)
        self.generation += 1

    def struct_fields(self, tag: StructTag) -> Sequence[tuple[str, MoveType]] | None:
        fields = self._layouts.get(tag.base)
        if fields is None:
            return None
        if not tag.type_args:
            return fields
        try:
            return tuple((name, t.substitute(tag.type_args)) for name, t in fields)
        except MoveTypeSyntaxError as exc:
            raise MoveValueError(f"layout of {tag}: {exc}") from None


class MoveValueCodec:
    """Encode and decode Move values between the API's JSON form and BCS.

    Parameters
    ----------
    layouts : LayoutSource or mapping, optional
        Struct layouts for structs other than String, Option and Object (which are
        built in). A mapping is wrapped in :class:`DictLayouts`.

    Examples
    --------
    >>> codec = MoveValueCodec()
    >>> codec.encode("vector<u64>", ["1", "18446744073709551615"]).hex()
    '020100000000000000ffffffffffffffff'
    >>> codec.decode("0x1::option::Option<0x1::string::String>", bytes.fromhex("01026869"))
    {'vec': ['hi']}
    """

    def __init__(
        self,
        layouts: LayoutSource
        | Mapping[str | StructTag, Sequence[tuple[str, str | MoveType]]]
        | None = None,
    ) -> None:
        if layouts is None or isinstance(layouts, Mapping):
            self.layouts: LayoutSource = DictLayouts(layouts)
        else:
            self.layouts = layouts
        self._encoders: dict[MoveType | str, Encoder] = {}
        self._decoders: dict[MoveType, Decoder] = {}
        self._generation = getattr(self.layouts, "generation", 0)

    def _check_generation(self) -> None:
        generation = getattr(self.layouts, "generation", 0)
        if generation != self._generation:
            self._encoders.clear()
            self._decoders.clear()
            self._generation = generation

    # -- public -------------------------------------------------------------------------

    def encode(self, move_type: MoveType | str, value: Any) -> bytes:
        """BCS bytes of ``value`` (JSON form) as ``move_type``.

        Raises
        ------
        MoveValueError
            The value does not fit the type (the message names where inside it).
        """
        s = Serializer()
        self.serialize(s, move_type, value)
        return s.output()

    def decode(self, move_type: MoveType | str, data: bytes | bytearray | memoryview) -> Any:
        """The JSON form of the BCS ``data`` of a ``move_type``; trailing bytes are an error."""
        d = Deserializer(data)
        value = self.deserialize(d, move_type)
        d.finish()
        return value

    def serialize(self, s: Serializer, move_type: MoveType | str, value: Any) -> None:
        """Write ``value`` as ``move_type`` to ``s``."""
        self.encoder(move_type)(s, value, "value")

    def deserialize(self, d: Deserializer, move_type: MoveType | str) -> Any:
        """Read one ``move_type`` from ``d`` and return its JSON form."""
        return self.decoder(MoveType.parse(move_type))(d)

    def encoder(self, t: MoveType | str) -> Callable[[Serializer, Any, str], None]:
        """The compiled encoder of a type: ``encoder(serializer, value, where)``.

        Cached under the type and under its text, so ``encoder("u64")`` is one look-up.
        """
        found = self._encoders.get(t)
        if found is None or self._generation != getattr(self.layouts, "generation", 0):
            self._check_generation()
            parsed = MoveType.parse(t)
            found = self._encoders.get(parsed) or self._compile_encoder(parsed, 0)
            self._encoders[parsed] = found
            self._encoders[t] = found
        return found

    def decoder(self, t: MoveType) -> Callable[[Deserializer], Any]:
        """The compiled decoder of a type: ``decoder(deserializer) -> JSON value``."""
        found = self._decoders.get(t)
        if found is None or self._generation != getattr(self.layouts, "generation", 0):
            self._check_generation()
            found = self._compile_decoder(t, 0)
            self._decoders[t] = found
        return found

    # -- compiling ----------------------------------------------------------------------

    def _fields(self, tag: StructTag) -> Sequence[tuple[str, MoveType]]:
        fields = self.layouts.struct_fields(tag)
        if fields is None:
            raise MoveValueError(
                f"no field layout known for struct {tag}; give the codec its layout"
            )
        return fields

    def _compile_encoder(self, t: MoveType, depth: int) -> Encoder:
        if depth > _MAX_DEPTH:
            raise MoveValueError(f"type nested deeper than {_MAX_DEPTH} levels: {t}")
        if isinstance(t, PrimitiveType):
            return _primitive_encoder(t.name)
        if isinstance(t, VectorType):
            if t.element == PrimitiveType("u8"):
                return _encode_byte_vector
            element = self._compile_encoder(t.element, depth + 1)

            def encode_vector(s: Serializer, value: Any, where: str) -> None:
                if not isinstance(value, list | tuple):
                    raise _mismatch(where, "an array", value)
                s.uleb128(len(value))
                for i, item in enumerate(value):
                    element(s, item, f"{where}[{i}]")

            return encode_vector
        if isinstance(t, StructTag):
            return self._compile_struct_encoder(t, depth)
        raise MoveValueError(f"{t} is not a concrete value type")

    def _compile_struct_encoder(self, t: StructTag, depth: int) -> Encoder:
        if t.address == _ONE and t.module == "string" and t.name == "String":
            return _encode_string
        if t.address == _ONE and t.module == "option" and t.name == "Option":
            # An Option is the struct {vec: vector<T>} holding at most one element.
            vector = self._compile_encoder(VectorType(_single_arg(t)), depth + 1)

            def encode_option(s: Serializer, value: Any, where: str) -> None:
                if not (isinstance(value, dict) and value.keys() == {"vec"}):
                    raise _mismatch(where, 'an option {"vec": []} or {"vec": [value]}', value)
                inner = Serializer()
                vector(inner, value["vec"], f"{where}.vec")
                encoded = inner.output()
                if encoded[0] > 1:
                    raise MoveValueError(f"{where}: an option holds at most one value")
                s.fixed_bytes(encoded)

            return encode_option
        if t.address == _ONE and t.module == "object" and t.name == "Object":

            def encode_object(s: Serializer, value: Any, where: str) -> None:
                if isinstance(value, dict) and set(value) == {"inner"}:
                    value = value["inner"]
                _encode_address(s, value, f"{where}.inner")

            return encode_object
        fields = [(name, self._compile_encoder(ft, depth + 1)) for name, ft in self._fields(t)]
        names = {name for name, _ in fields}

        def encode_struct(s: Serializer, value: Any, where: str) -> None:
            if not isinstance(value, dict):
                raise _mismatch(where, f"an object with the fields of {t}", value)
            if value.keys() != names:
                missing = sorted(names - value.keys())
                extra = sorted(value.keys() - names)
                raise MoveValueError(
                    f"{where}: {t} needs exactly the fields {sorted(names)}"
                    + (f"; missing {missing}" if missing else "")
                    + (f"; unknown {extra}" if extra else "")
                )
            for name, encode in fields:
                encode(s, value[name], f"{where}.{name}")

        return encode_struct

    def _compile_decoder(self, t: MoveType, depth: int) -> Decoder:
        if depth > _MAX_DEPTH:
            raise MoveValueError(f"type nested deeper than {_MAX_DEPTH} levels: {t}")
        if isinstance(t, PrimitiveType):
            return _primitive_decoder(t.name)
        if isinstance(t, VectorType):
            if t.element == PrimitiveType("u8"):
                return lambda d: "0x" + d.var_bytes().hex()
            element = self._compile_decoder(t.element, depth + 1)
            return lambda d: d.sequence(lambda: element(d))
        if isinstance(t, StructTag):
            if t.address == _ONE and t.module == "string" and t.name == "String":
                return Deserializer.string
            if t.address == _ONE and t.module == "option" and t.name == "Option":
                # An Option is the struct {vec: vector<T>} holding at most one element.
                vector = self._compile_decoder(VectorType(_single_arg(t)), depth + 1)

                def decode_option(d: Deserializer) -> Any:
                    start = d.position
                    items = vector(d)
                    count = (len(items) - 2) // 2 if isinstance(items, str) else len(items)
                    if count > 1:
                        raise BCSDecodeError(
                            f"an Option holds 0 or 1 values, not {count}", offset=start
                        )
                    return {"vec": items}

                return decode_option
            if t.address == _ONE and t.module == "object" and t.name == "Object":
                return lambda d: {"inner": d.address().short}
            fields = [(name, self._compile_decoder(ft, depth + 1)) for name, ft in self._fields(t)]
            return lambda d: {name: decode(d) for name, decode in fields}
        raise MoveValueError(f"{t} is not a concrete value type")


def _single_arg(t: StructTag) -> MoveType:
    if len(t.type_args) != 1:
        raise MoveValueError(f"{t.base} takes one type argument, got {len(t.type_args)}")
    return t.type_args[0]


def _mismatch(where: str, expected: str, value: Any) -> MoveValueError:
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:60] + "..."
    return MoveValueError(f"{where}: expected {expected}, got {type(value).__name__} {shown}")


def _encode_bool(s: Serializer, value: Any, where: str) -> None:
    if not isinstance(value, bool):
        raise _mismatch(where, "true or false", value)
    s.boolean(value)


def _encode_address(s: Serializer, value: Any, where: str) -> None:
    try:
        s.address(Address.parse(value))
    except InputError as exc:
        raise MoveValueError(f"{where}: {exc}") from None


def _encode_string(s: Serializer, value: Any, where: str) -> None:
    if not isinstance(value, str):
        raise _mismatch(where, "a string", value)
    try:
        s.string(value)
    except BCSEncodeError as exc:
        raise MoveValueError(f"{where}: {exc}") from None


def _encode_byte_vector(s: Serializer, value: Any, where: str) -> None:
    if isinstance(value, str):
        try:
            value = HexBytes.parse(value)
        except InputError as exc:
            raise MoveValueError(f"{where}: vector<u8> is written as 0x hex: {exc}") from None
    elif not isinstance(value, bytes | bytearray):
        raise _mismatch(where, "0x hex bytes", value)
    s.var_bytes(value)


def _unsigned_encoder(bits: int) -> Encoder:
    name = f"u{bits}"
    size = bits // 8
    maximum = (1 << bits) - 1

    def encode(s: Serializer, value: Any, where: str) -> None:
        if value.__class__ is int and 0 <= value <= maximum:
            number = value  # fast path: a plain int in range
        else:
            try:
                number = parse_uint(value, bits, what=f"{where} ({name})")
            except InputError as exc:
                raise MoveValueError(str(exc)) from None
        s.fixed_bytes(number.to_bytes(size, "little"))

    return encode


def _signed_encoder(bits: int) -> Encoder:
    name = f"i{bits}"
    size = bits // 8
    low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1

    def encode(s: Serializer, value: Any, where: str) -> None:
        if isinstance(value, str):
            body = value[1:] if value.startswith("-") else value
            if not (body.isascii() and body.isdigit()) or len(body) > 80:
                raise _mismatch(where, f"a decimal {name}", value)
            number = int(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            raise _mismatch(where, f"an integer ({name})", value)
        if not low <= number <= high:
            raise MoveValueError(f"{where}: {name} out of range: {value!r}")
        s.fixed_bytes(number.to_bytes(size, "little", signed=True))

    return encode


def _encode_signer(s: Serializer, value: Any, where: str) -> None:
    raise MoveValueError(f"{where}: a signer cannot be passed as a value")


def _primitive_encoder(name: str) -> Encoder:
    if name == "bool":
        return _encode_bool
    if name == "address":
        return _encode_address
    if name == "signer":
        return _encode_signer
    if name in _UNSIGNED_BITS:
        return _unsigned_encoder(_UNSIGNED_BITS[name])
    return _signed_encoder(_SIGNED_BITS[name])


def _primitive_decoder(name: str) -> Decoder:
    if name == "bool":
        return Deserializer.boolean
    if name == "address":
        return lambda d: d.address().short
    if name == "signer":
        return lambda d: d.address().short
    if name in _UNSIGNED_BITS:
        bits = _UNSIGNED_BITS[name]
        size = bits // 8
        if bits <= 32:
            return lambda d: int.from_bytes(d.fixed_bytes(size), "little")
        return lambda d: str(int.from_bytes(d.fixed_bytes(size), "little"))
    bits = _SIGNED_BITS[name]
    size = bits // 8
    if bits <= 32:
        return lambda d: int.from_bytes(d.fixed_bytes(size), "little", signed=True)
    return lambda d: str(int.from_bytes(d.fixed_bytes(size), "little", signed=True))
