"""The Move binary format's writer: :class:`CompiledModule` / :class:`CompiledScript` to bytes.

Written (after aptos-core's ``serializer.rs``: facts, not code) because no Move tool can
be installed here; tests build modules as Python structures and write them with this.
The layout is the one aptos-core's serializer produces: magic, the version word (with
the Aptos mask ``0x0A000000`` from version 7), the table count, the non-empty tables'
headers and contents in the serializer's order, then the module's self handle or the
script's type parameters, parameters, access specifiers (version 8 on) and code. So
``write_module(read_module(b)) == b`` for every ``b`` the reader accepts.

A value the format cannot hold (an index over 65535, a construct newer than the unit's
version...) is a :class:`BytecodeError` (``MALFORMED``), never a silently wrong binary.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from ledgerkit.localnet.vm.move._format import (
    AccessSpecifier,
    BytecodeError,
    CodeUnit,
    CompiledModule,
    CompiledScript,
    FunctionDefinition,
    FunctionHandle,
    SignatureToken,
    StructDefinition,
)
from ledgerkit.localnet.vm.move._operands import (
    CLOSURE,
    FIXED,
    FIXED_WIDTH,
    INDEX,
    LOCAL,
    MIN_VERSION,
    OFFSET,
    OPERAND,
    VEC,
)
from ledgerkit.localnet.vm.move._reader import MAGIC, MAX_VERSION, TABLE_ORDER, VERSION_MASK
from ledgerkit.localnet.vm.move._reader import MIN_VERSION as _MIN_VERSION

__all__ = ["write_module", "write_script"]

IDX: Final = 65535
_LEAF: Final = {
    "bool": 0x1,
    "u8": 0x2,
    "u64": 0x3,
    "u128": 0x4,
    "address": 0x5,
    "signer": 0xC,
    "u16": 0xD,
    "u32": 0xE,
    "u256": 0xF,
    "i8": 0x11,
    "i16": 0x12,
    "i32": 0x13,
    "i64": 0x14,
    "i128": 0x15,
    "i256": 0x16,
}
_WRAP: Final = {"ref": 0x6, "mut_ref": 0x7, "vector": 0xA}
_RESOURCE: Final = {"any": 1, "at_address": 2, "in_module": 3, "resource": 4, "resource_inst": 5}
_ADDRESS: Final = {"any": 1, "literal": 2, "parameter": 3}


class _Out:
    """A growing binary for one unit of bytecode ``version``."""

    __slots__ = ("buf", "version")

    def __init__(self, version: int) -> None:
        self.buf = bytearray()
        self.version = version

    def u8(self, value: int) -> None:
        self.buf.append(value)

    def uleb(self, value: int, maximum: int = IDX) -> None:
        if not 0 <= value <= maximum:
            raise BytecodeError("MALFORMED", f"value {value} outside 0..{maximum}")
        while value >= 0x80:
            self.buf.append((value & 0x7F) | 0x80)
            value >>= 7
        self.buf.append(value)

    def blob(self, data: bytes, maximum: int) -> None:
        self.uleb(len(data), maximum)
        self.buf += data

    def need(self, version: int, what: str) -> None:
        if self.version < version:
            raise BytecodeError("MALFORMED", f"{what} needs bytecode version {version}")


def _token(out: _Out, tok: SignatureToken) -> None:
    stack: list[tuple[SignatureToken, int]] = [(tok, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > 256:
            raise BytecodeError("MALFORMED", "signature token nested over 256 deep")
        kind = node[0]
        if kind in _LEAF:
            code = _LEAF[kind]
            if code in (0xD, 0xE, 0xF):
                out.need(6, kind)
            elif code >= 0x11:
                out.need(9, kind)
            out.u8(code)
        elif kind in _WRAP:
            out.u8(_WRAP[kind])
            stack.append((node[1], depth + 1))
        elif kind == "struct":
            out.u8(0x8)
            out.uleb(node[1])
        elif kind == "struct_inst":
            out.u8(0xB)
            out.uleb(node[1])
            if not node[2]:
                raise BytecodeError("MALFORMED", "struct instantiation without type arguments")
            out.uleb(len(node[2]), 255)
            stack.extend((t, depth + 1) for t in reversed(node[2]))
        elif kind == "tparam":
            out.u8(0x9)
            out.uleb(node[1])
        elif kind == "function":
            out.need(8, "function type")
            out.u8(0x10)
            out.uleb(node[3], 0xF)
            out.uleb(len(node[1]), 255)
            out.uleb(len(node[2]), 255)
            stack.extend((t, depth + 1) for t in reversed((*node[1], *node[2])))
        else:
            raise BytecodeError("MALFORMED", f"unknown signature token {node!r}")


def _signature(out: _Out, sig: Sequence[SignatureToken]) -> None:
    out.uleb(len(sig), 255)
    for tok in sig:
        _token(out, tok)


def _abilities(out: _Out, sets: Sequence[int]) -> None:
    out.uleb(len(sets), 255)
    for abilities in sets:
        out.uleb(abilities, 0xF)


def _access(out: _Out, specs: tuple[AccessSpecifier, ...] | None) -> None:
    if specs is None:
        out.u8(1)
        return
    out.u8(2)
    out.uleb(len(specs), 64)
    for spec in specs:
        if spec.kind not in (1, 2):
            raise BytecodeError("MALFORMED", f"access kind {spec.kind}")
        out.u8(spec.kind)
        out.u8(2 if spec.negated else 1)
        tag, *rest = spec.resource
        out.u8(_RESOURCE[tag])
        for index in rest:
            out.uleb(index)
        tag, *rest = spec.address
        out.u8(_ADDRESS[tag])
        if tag == "literal":
            out.uleb(rest[0])
        elif tag == "parameter":
            out.uleb(rest[0], 255)
            if rest[1] is None:
                out.u8(1)
            else:
                out.u8(2)
                out.uleb(rest[1])


def _function_handle(out: _Out, fh: FunctionHandle) -> None:
    for index in (fh.module, fh.name, fh.parameters, fh.return_):
        out.uleb(index)
    _abilities(out, fh.type_parameters)
    if out.version >= 7:
        _access(out, fh.access_specifiers)
    elif fh.access_specifiers is not None:
        out.need(7, "access specifiers")
    if out.version >= 8:
        out.uleb(len(fh.attributes), 16)
        for attribute in fh.attributes:
            if attribute not in (1, 2):
                raise BytecodeError("MALFORMED", f"function attribute {attribute}")
            out.u8(attribute)
    elif fh.attributes:
        out.need(8, "function attributes")


def _identifier(out: _Out, name: str) -> None:
    try:
        raw = name.encode("ascii")
    except UnicodeEncodeError as error:
        raise BytecodeError("MALFORMED", f"identifier {name!r} is not ASCII") from error
    out.blob(raw, 255)


def _address(out: _Out, address: bytes) -> None:
    if len(address) != 32:
        raise BytecodeError("MALFORMED", "an address is 32 bytes")
    out.buf += address


def _fields(out: _Out, fields: Sequence[Any]) -> None:
    out.uleb(len(fields), 255)
    for field in fields:
        out.uleb(field.name)
        _token(out, field.signature)


def _struct_def(out: _Out, sdef: StructDefinition) -> None:
    out.uleb(sdef.struct_handle)
    if sdef.variants is not None:
        out.need(7, "enum types")
        out.u8(3)
        out.uleb(len(sdef.variants), 127)
        for variant in sdef.variants:
            out.uleb(variant.name)
            _fields(out, variant.fields)
    elif sdef.fields is not None:
        out.u8(2)
        _fields(out, sdef.fields)
    else:
        out.u8(1)


def _code(out: _Out, unit: CodeUnit) -> None:
    out.uleb(unit.locals)
    out.uleb(len(unit.code))
    buf = out.buf
    version = out.version
    for op, arg in unit.code:
        kind = OPERAND.get(op)
        if kind is None:
            raise BytecodeError("UNKNOWN_OPCODE", f"code {op!r}")
        if MIN_VERSION[op] > version:
            out.need(MIN_VERSION[op], f"opcode {int(op):#x}")
        buf.append(op)
        if kind in (INDEX, OFFSET, LOCAL) and type(arg) is int and 0 <= arg < 0x80:
            buf.append(arg)  # a one-byte ULEB128 operand, the common case
        elif kind in (INDEX, OFFSET):
            out.uleb(arg)
        elif kind == LOCAL:
            out.uleb(arg, 255)
        elif kind == FIXED:
            width, signed = FIXED_WIDTH[op]
            try:
                buf += int(arg).to_bytes(width, "little", signed=signed)
            except OverflowError as error:
                raise BytecodeError("MALFORMED", f"{arg} does not fit opcode {op:#x}") from error
        elif kind == VEC:
            out.uleb(arg[0])
            buf += int(arg[1]).to_bytes(8, "little")
        elif kind == CLOSURE:
            out.uleb(arg[0])
            out.uleb(arg[1], (1 << 64) - 1)


def _function_def(out: _Out, fdef: FunctionDefinition) -> None:
    out.uleb(fdef.function)
    if fdef.visibility not in (0, 1, 3):
        raise BytecodeError("MALFORMED", f"visibility {fdef.visibility}")
    out.u8(fdef.visibility)
    out.u8((0x4 if fdef.is_entry else 0) | (0x2 if fdef.code is None else 0))
    out.uleb(len(fdef.acquires), 255)
    for index in fdef.acquires:
        out.uleb(index)
    if fdef.code is not None:
        _code(out, fdef.code)


def _pair(first: str, second: str) -> Callable[[_Out, Any], None]:
    def write(out: _Out, entry: Any) -> None:
        out.uleb(getattr(entry, first))
        out.uleb(getattr(entry, second))

    return write


def _variant_field_handle(out: _Out, handle: Any) -> None:
    out.uleb(handle.struct_index)
    out.uleb(handle.field, 255)
    out.uleb(len(handle.variants), 127)
    for variant in handle.variants:
        out.uleb(variant, 127)


def _struct_variant_handle(out: _Out, handle: Any) -> None:
    out.uleb(handle.struct_index)
    out.uleb(handle.variant, 127)


def _struct_handle(out: _Out, sh: Any) -> None:
    out.uleb(sh.module)
    out.uleb(sh.name)
    out.uleb(sh.abilities, 0xF)
    out.uleb(len(sh.type_parameters), 255)
    for param in sh.type_parameters:
        out.uleb(param.constraints, 0xF)
        out.u8(1 if param.is_phantom else 0)


def _constant(out: _Out, constant: Any) -> None:
    _token(out, constant.type_)
    out.blob(constant.data, 65535)


def _metadata(out: _Out, entry: Any) -> None:
    out.blob(entry.key, 1023)
    out.blob(entry.value, 65535)


_WRITERS: Final[dict[str, Callable[[_Out, Any], None]]] = {
    "module_handles": _pair("address", "name"),
    "struct_handles": _struct_handle,
    "function_handles": _function_handle,
    "function_instantiations": _pair("handle", "type_parameters"),
    "signatures": _signature,
    "identifiers": _identifier,
    "address_identifiers": _address,
    "constant_pool": _constant,
    "metadata": _metadata,
    "struct_defs": _struct_def,
    "struct_def_instantiations": _pair("def_", "type_parameters"),
    "function_defs": _function_def,
    "field_handles": _pair("owner", "field"),
    "field_instantiations": _pair("handle", "type_parameters"),
    "friend_decls": _pair("address", "name"),
    "variant_field_handles": _variant_field_handle,
    "variant_field_instantiations": _pair("handle", "type_parameters"),
    "struct_variant_handles": _struct_variant_handle,
    "struct_variant_instantiations": _pair("handle", "type_parameters"),
}


def _unit(unit: CompiledModule | CompiledScript, tail: Callable[[_Out], None]) -> bytes:
    version = unit.version
    if not _MIN_VERSION <= version <= MAX_VERSION:
        raise BytecodeError("UNKNOWN_VERSION", f"bytecode version {version} unsupported")
    contents = _Out(version)
    headers = _Out(version)
    count = 0
    for kind, (name, _) in TABLE_ORDER.items():
        entries = getattr(unit, name, ())
        if not entries:
            continue
        if kind >= 0x11:
            contents.need(7, name)
        start = len(contents.buf)
        write = _WRITERS[name]
        for entry in entries:
            write(contents, entry)
        count += 1
        headers.u8(kind)
        headers.uleb(start, 0xFFFF_FFFF)
        headers.uleb(len(contents.buf) - start, 0xFFFF_FFFF)
    out = _Out(version)
    out.buf += MAGIC
    word = version | VERSION_MASK if version >= 7 else version
    out.buf += word.to_bytes(4, "little")
    out.uleb(count, 255)
    out.buf += headers.buf + contents.buf
    tail(out)
    return bytes(out.buf)


def _guarded(unit: CompiledModule | CompiledScript, tail: Callable[[_Out], None]) -> bytes:
    try:
        return _unit(unit, tail)
    except (TypeError, ValueError, OverflowError, AttributeError, KeyError, IndexError) as error:
        raise BytecodeError("MALFORMED", f"not writable: {error}") from error


def write_module(module: CompiledModule) -> bytes:
    """``module`` in the binary format, laid out as aptos-core's serializer lays it out."""
    return _guarded(module, lambda out: out.uleb(module.self_handle))


def write_script(script: CompiledScript) -> bytes:
    """``script`` in the binary format, laid out as aptos-core's serializer lays it out."""

    def tail(out: _Out) -> None:
        _abilities(out, script.type_parameters)
        out.uleb(script.parameters)
        if out.version >= 8:
            _access(out, script.access_specifiers)
        elif script.access_specifiers is not None:
            out.need(8, "access specifiers on a script")
        _code(out, script.code)

    return _guarded(script, tail)
