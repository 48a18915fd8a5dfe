"""The entries of the binary format's tables, read one at a time from a :class:`Cursor`.

Limits are those of aptos-core's ``file_format_common.rs`` (a table index at most 65535,
an identifier at most 255 bytes, a signature at most 255 tokens nested at most 256 deep,
255 fields, 127 variants, 255 locals, 65535 instructions...), and each refusal carries
the status aptos-core's deserializer gives it.
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit.localnet.vm.move._cursor import Cursor
from ledgerkit.localnet.vm.move._format import (
    AccessSpecifier,
    BytecodeError,
    CodeUnit,
    Constant,
    FieldDefinition,
    FieldHandle,
    FieldInstantiation,
    FunctionDefinition,
    FunctionHandle,
    FunctionInstantiation,
    Instruction,
    Metadata,
    ModuleHandle,
    Op,
    SignatureToken,
    StructDefinition,
    StructDefInstantiation,
    StructHandle,
    StructTypeParameter,
    StructVariantHandle,
    StructVariantInstantiation,
    VariantDefinition,
    VariantFieldHandle,
    VariantFieldInstantiation,
)
from ledgerkit.localnet.vm.move._operands import (
    FIXED,
    FIXED_WIDTH,
    INDEX,
    LOCAL,
    MIN_VERSION,
    OPERAND,
    VEC,
)

__all__ = [
    "read_ability_sets",
    "read_access_specifiers",
    "read_code_unit",
    "read_constant",
    "read_field_handle",
    "read_function_def",
    "read_function_handle",
    "read_identifier",
    "read_instantiation",
    "read_metadata",
    "read_module_handle",
    "read_signature",
    "read_struct_def",
    "read_struct_handle",
    "read_struct_variant_handle",
    "read_variant_field_handle",
]

INDEX_MAX: Final = 65535
IDENTIFIER_SIZE_MAX: Final = 255
SIGNATURE_SIZE_MAX: Final = 255
SIGNATURE_TOKEN_DEPTH_MAX: Final = 256
TYPE_PARAMETER_COUNT_MAX: Final = 255
TYPE_PARAMETER_INDEX_MAX: Final = 65536
FIELD_COUNT_MAX: Final = 255
VARIANT_COUNT_MAX: Final = 127
ACQUIRES_COUNT_MAX: Final = 255
ACCESS_SPECIFIER_COUNT_MAX: Final = 64
ATTRIBUTE_COUNT_MAX: Final = 16
LOCAL_INDEX_MAX: Final = 255
BYTECODE_COUNT_MAX: Final = 65535
CONSTANT_SIZE_MAX: Final = 65535
METADATA_KEY_SIZE_MAX: Final = 1023
METADATA_VALUE_SIZE_MAX: Final = 65535
ABILITIES_ALL: Final = 0xF

_NATIVE: Final = 0x2
_ENTRY: Final = 0x4
_VISIBILITIES: Final = frozenset({0x0, 0x1, 0x3})
_IDENT_REST: Final = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_IDENT_REST_V9: Final = _IDENT_REST | {ord("$")}
_LETTERS: Final = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")

#: Serialized type byte -> the token of a type without parameters.
_LEAF: Final[dict[int, SignatureToken]] = {
    0x1: ("bool",),
    0x2: ("u8",),
    0x3: ("u64",),
    0x4: ("u128",),
    0x5: ("address",),
    0xC: ("signer",),
    0xD: ("u16",),
    0xE: ("u32",),
    0xF: ("u256",),
    0x11: ("i8",),
    0x12: ("i16",),
    0x13: ("i32",),
    0x14: ("i64",),
    0x15: ("i128",),
    0x16: ("i256",),
}
#: Opcode byte -> (its Op, its operand kind, the first version it is in).
_DECODE: Final = {int(op): (op, OPERAND[op], MIN_VERSION[op]) for op in Op}
_SAT: Final = "="  # marks a finished token on the reader's stack
_FIXED_STATUS: Final = {1: "MALFORMED", 2: "BAD_U16", 4: "BAD_U32", 8: "BAD_U64"}


def valid_identifier(raw: bytes, version: int) -> bool:
    """Move's rule for names: a letter then letters, digits and ``_``, or ``_`` and at
    least one more; ``$`` counts as ``_`` from version 9; ``<SELF>`` and ``<SELF>_N``
    (the compiler's names in scripts) are names too."""
    if raw == b"<SELF>":
        return True
    if raw.startswith(b"<SELF>_"):
        return len(raw) > 7 and raw[7:].isdigit()
    rest = _IDENT_REST_V9 if version >= 9 else _IDENT_REST
    if not raw or not all(b in rest for b in raw[1:]):
        return False
    first = raw[0]
    return first in _LETTERS or (
        len(raw) > 1 and (first == 0x5F or (first == 0x24 and version >= 9))
    )


def read_identifier(c: Cursor) -> str:
    size = c.uleb(IDENTIFIER_SIZE_MAX)
    raw = c.take(size, "Bad Identifier pool size")
    if not valid_identifier(raw, c.version):
        raise BytecodeError("MALFORMED", "Invalid Identifier")
    return raw.decode("ascii")


def read_address(c: Cursor) -> bytes:
    return c.take(32, "Bad Address pool size")


def read_module_handle(c: Cursor) -> ModuleHandle:
    return ModuleHandle(c.uleb(INDEX_MAX), c.uleb(INDEX_MAX))


def read_abilities(c: Cursor) -> int:
    return c.uleb(ABILITIES_ALL)


def read_ability_sets(c: Cursor) -> tuple[int, ...]:
    count = c.uleb(TYPE_PARAMETER_COUNT_MAX)
    return tuple(c.uleb(ABILITIES_ALL) for _ in range(count))


def read_struct_handle(c: Cursor) -> StructHandle:
    module = c.uleb(INDEX_MAX)
    name = c.uleb(INDEX_MAX)
    abilities = read_abilities(c)
    count = c.uleb(TYPE_PARAMETER_COUNT_MAX)
    params = []
    for _ in range(count):
        constraints = read_abilities(c)
        params.append(StructTypeParameter(constraints, c.uleb(1) != 0))
    return StructHandle(module, name, abilities, tuple(params))


def read_function_handle(c: Cursor) -> FunctionHandle:
    module = c.uleb(INDEX_MAX)
    name = c.uleb(INDEX_MAX)
    parameters = c.uleb(INDEX_MAX)
    return_ = c.uleb(INDEX_MAX)
    type_parameters = read_ability_sets(c)
    access = read_access_specifiers(c) if c.version >= 7 else None
    attributes: tuple[int, ...] = ()
    if c.version >= 8:
        count = c.uleb(ATTRIBUTE_COUNT_MAX)
        attrs = []
        for _ in range(count):
            byte = c.u8()
            if byte not in (1, 2):
                raise BytecodeError("MALFORMED", "malformed attribute")
            attrs.append(byte)
        attributes = tuple(attrs)
    return FunctionHandle(module, name, parameters, return_, type_parameters, access, attributes)


def read_access_specifiers(c: Cursor) -> tuple[AccessSpecifier, ...] | None:
    if not c.option():
        return None
    count = c.uleb(ACCESS_SPECIFIER_COUNT_MAX)
    return tuple(_read_access_specifier(c) for _ in range(count))


def _read_access_specifier(c: Cursor) -> AccessSpecifier:
    kind = c.u8()
    if kind not in (1, 2):
        raise BytecodeError("MALFORMED", "malformed access kind")
    negated = c.flag()
    tag = c.u8()
    resource: tuple[Any, ...]
    if tag == 1:
        resource = ("any",)
    elif tag == 2:
        resource = ("at_address", c.uleb(INDEX_MAX))
    elif tag == 3:
        resource = ("in_module", c.uleb(INDEX_MAX))
    elif tag == 4:
        resource = ("resource", c.uleb(INDEX_MAX))
    elif tag == 5:
        resource = ("resource_inst", c.uleb(INDEX_MAX), c.uleb(INDEX_MAX))
    else:
        raise BytecodeError("MALFORMED", "malformed resource specifier")
    tag = c.u8()
    address: tuple[Any, ...]
    if tag == 1:
        address = ("any",)
    elif tag == 2:
        address = ("literal", c.uleb(INDEX_MAX))
    elif tag == 3:
        local = c.uleb(LOCAL_INDEX_MAX)
        address = ("parameter", local, c.uleb(INDEX_MAX) if c.option() else None)
    else:
        raise BytecodeError("MALFORMED", "malformed address specifier")
    return AccessSpecifier(kind, negated, resource, address)


def read_instantiation(cls: Any) -> Any:
    """A reader of ``cls(index, signature_index)`` entries."""

    def read(c: Cursor) -> Any:
        return cls(c.uleb(INDEX_MAX), c.uleb(INDEX_MAX))

    return read


READ_FUNCTION_INST = read_instantiation(FunctionInstantiation)
READ_STRUCT_DEF_INST = read_instantiation(StructDefInstantiation)
READ_FIELD_INST = read_instantiation(FieldInstantiation)
READ_VARIANT_FIELD_INST = read_instantiation(VariantFieldInstantiation)
READ_STRUCT_VARIANT_INST = read_instantiation(StructVariantInstantiation)


def read_signature(c: Cursor) -> tuple[SignatureToken, ...]:
    count = c.uleb(SIGNATURE_SIZE_MAX)
    return tuple(read_token(c) for _ in range(count))


def _token_node(c: Cursor) -> list[Any]:
    """One node of a token: ``[_SAT, token]`` when complete, else a builder to fill."""
    byte = c.u8()
    leaf = _LEAF.get(byte)
    if leaf is not None or byte in (0x10,):
        version = c.version
        if (byte in (0xD, 0xE, 0xF) and version < 6) or (byte == 0x10 and version < 8):
            raise BytecodeError("MALFORMED", f"type {byte:#x} not in bytecode version {version}")
        if 0x11 <= byte <= 0x16 and version < 9:
            raise BytecodeError("MALFORMED", f"signed integers not in bytecode version {version}")
        if leaf is not None:
            return [_SAT, leaf]
        abilities = read_abilities(c)
        args = c.uleb(TYPE_PARAMETER_COUNT_MAX)
        results = c.uleb(TYPE_PARAMETER_COUNT_MAX)
        if args + results == 0:
            return [_SAT, ("function", (), (), abilities)]
        return ["function", abilities, args, results, []]
    if byte == 0xA:
        return ["vector"]
    if byte == 0x6:
        return ["ref"]
    if byte == 0x7:
        return ["mut_ref"]
    if byte == 0x8:
        return [_SAT, ("struct", c.uleb(INDEX_MAX))]
    if byte == 0xB:
        handle = c.uleb(INDEX_MAX)
        arity = c.uleb(TYPE_PARAMETER_COUNT_MAX)
        if arity == 0:
            raise BytecodeError("MALFORMED", "Struct inst with arity 0")
        return ["struct_inst", handle, arity, []]
    if byte == 0x9:
        index = c.uleb(TYPE_PARAMETER_INDEX_MAX)
        if index > 0xFFFF:
            raise BytecodeError("UNKNOWN_INVARIANT_VIOLATION_ERROR", "type parameter index")
        return [_SAT, ("tparam", index)]
    raise BytecodeError("UNKNOWN_SERIALIZED_TYPE", f"type byte {byte:#x}")


def _apply(builder: list[Any], tok: SignatureToken) -> list[Any]:
    kind = builder[0]
    if kind == "struct_inst":
        builder[3].append(tok)
        if len(builder[3]) >= builder[2]:
            return [_SAT, ("struct_inst", builder[1], tuple(builder[3]))]
        return builder
    if kind == "function":
        done = builder[4]
        done.append(tok)
        if len(done) == builder[2] + builder[3]:
            args = tuple(done[: builder[2]])
            return [_SAT, ("function", args, tuple(done[builder[2] :]), builder[1])]
        return builder
    return [_SAT, (kind, tok)]


def read_token(c: Cursor) -> SignatureToken:
    """One signature token, built on a stack as aptos-core does (at most 256 deep)."""
    node = _token_node(c)
    if node[0] is _SAT:
        return node[1]  # type: ignore[no-any-return]
    stack = [node]
    while True:
        if len(stack) > SIGNATURE_TOKEN_DEPTH_MAX:
            raise BytecodeError("MALFORMED", "Maximum recursion depth reached")
        if stack[-1][0] is _SAT:
            tok = stack.pop()[1]
            if not stack:
                return tok  # type: ignore[no-any-return]
            stack.append(_apply(stack.pop(), tok))
        else:
            stack.append(_token_node(c))


def read_constant(c: Cursor) -> Constant:
    type_ = read_token(c)
    size = c.uleb(CONSTANT_SIZE_MAX)
    return Constant(type_, c.take(size, "Bad byte blob size"))


def read_metadata(c: Cursor) -> Metadata:
    key = c.take(c.uleb(METADATA_KEY_SIZE_MAX), "Bad byte blob size")
    return Metadata(key, c.take(c.uleb(METADATA_VALUE_SIZE_MAX), "Bad byte blob size"))


def _read_fields(c: Cursor) -> tuple[FieldDefinition, ...]:
    count = c.uleb(FIELD_COUNT_MAX)
    return tuple(FieldDefinition(c.uleb(INDEX_MAX), read_token(c)) for _ in range(count))


def read_struct_def(c: Cursor) -> StructDefinition:
    handle = c.uleb(INDEX_MAX)
    flag = c.u8("Invalid field info in struct")
    if flag == 1:
        return StructDefinition(handle, None, None)
    if flag == 2:
        return StructDefinition(handle, _read_fields(c), None)
    if flag == 3:
        if c.version < 7:
            raise BytecodeError("MALFORMED", f"Enum types not in bytecode version {c.version}")
        count = c.uleb(VARIANT_COUNT_MAX)
        variants = tuple(
            VariantDefinition(c.uleb(INDEX_MAX), _read_fields(c)) for _ in range(count)
        )
        return StructDefinition(handle, None, variants)
    raise BytecodeError("UNKNOWN_NATIVE_STRUCT_FLAG", f"struct flag {flag:#x}")


def read_field_handle(c: Cursor) -> FieldHandle:
    return FieldHandle(c.uleb(INDEX_MAX), c.uleb(FIELD_COUNT_MAX))


def read_variant_field_handle(c: Cursor) -> VariantFieldHandle:
    owner = c.uleb(INDEX_MAX)
    field = c.uleb(FIELD_COUNT_MAX)
    count = c.uleb(VARIANT_COUNT_MAX)
    variants = tuple(c.uleb(VARIANT_COUNT_MAX) for _ in range(count))
    return VariantFieldHandle(owner, variants, field)


def read_struct_variant_handle(c: Cursor) -> StructVariantHandle:
    return StructVariantHandle(c.uleb(INDEX_MAX), c.uleb(VARIANT_COUNT_MAX))


def read_function_def(c: Cursor) -> FunctionDefinition:
    function = c.uleb(INDEX_MAX)
    visibility = c.u8()
    if visibility not in _VISIBILITIES:
        raise BytecodeError("MALFORMED", "Invalid visibility byte")
    flags = c.u8()
    is_entry = bool(flags & _ENTRY)
    flags &= ~_ENTRY
    count = c.uleb(ACQUIRES_COUNT_MAX)
    acquires = tuple(c.uleb(INDEX_MAX) for _ in range(count))
    code = None
    if flags & _NATIVE:
        flags &= ~_NATIVE
    else:
        code = read_code_unit(c)
    if flags:
        raise BytecodeError("INVALID_FLAG_BITS", f"function flags {flags:#x}")
    return FunctionDefinition(function, visibility, is_entry, acquires, code)


def read_code_unit(c: Cursor) -> CodeUnit:
    locals_ = c.uleb(INDEX_MAX)
    return CodeUnit(locals_, read_code(c))


def read_code(c: Cursor) -> tuple[Instruction, ...]:
    """An instruction stream: its length, then each opcode and its operands."""
    count = c.uleb(BYTECODE_COUNT_MAX)
    version = c.version
    data = c.data
    end = c.end
    make = tuple.__new__
    code: list[Instruction] = []
    for _ in range(count):
        pos = c.pos
        if pos >= end:
            raise BytecodeError("MALFORMED", "Unexpected EOF")
        op = data[pos]
        c.pos = pos + 1
        info = _DECODE.get(op)
        if info is None:
            raise BytecodeError("UNKNOWN_OPCODE", f"code {op:X}")
        member, kind, since = info
        if since > version:
            raise BytecodeError("MALFORMED", f"opcode {op:#x} not in bytecode version {version}")
        arg: Any = None
        if kind:
            # one-byte ULEB128 operands (most of them) without a call
            if kind <= INDEX and pos + 1 < end and data[pos + 1] < 0x80:
                arg = data[pos + 1]
                c.pos = pos + 2
            elif kind == LOCAL:
                arg = c.uleb(LOCAL_INDEX_MAX)
            elif kind <= INDEX:
                arg = c.uleb(INDEX_MAX)
            elif kind == FIXED:
                width, signed = FIXED_WIDTH[op]
                arg = c.fixed(width, _FIXED_STATUS.get(width, f"BAD_U{width * 8}"), signed=signed)
            elif kind == VEC:
                arg = (c.uleb(INDEX_MAX), c.fixed(8, "BAD_U64"))
            else:
                arg = (c.uleb(INDEX_MAX), c.uleb((1 << 64) - 1))
        code.append(make(Instruction, (member, arg)))
    return tuple(code)
