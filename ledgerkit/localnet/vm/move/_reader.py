"""The Move binary format's reader: bytes to :class:`CompiledModule` / :class:`CompiledScript`.

No Move VM can be installed from PyPI or npm, so the node reads bytecode with this
reader, written after aptos-core's ``deserializer.rs`` and ``check_bounds.rs`` (facts,
not code). What it accepts and refuses:

* bytecode versions 5 to 9 (10 with ``max_version=10``); the version word may carry
  Aptos's mask ``0x0A000000``, stripped as aptos-core strips it;
* every table kind, including version 7's enums, variants and access specifiers,
  version 8's closures, function attributes and function types, and version 9's signed
  integers; ULEB128 integers as aptos-core reads them (64 bits at most, no overlong form);
* the limits of ``file_format_common.rs``: 255 tables, table indices up to 65535,
  identifiers up to 255 bytes, signatures of up to 255 tokens nested up to 256 deep,
  255 locals, 65535 instructions per function, constants up to 65535 bytes;
* a node-side bound on the whole binary, 64 KiB by default (``max_size``): a regular
  Aptos transaction carries at most 64 KiB (a governance one 1 MiB);
* after reading, the bounds checker (:mod:`._bounds`) runs, as aptos-core runs its own.

Refusals are :class:`BytecodeError` with aptos-core's status (``BAD_MAGIC``,
``UNKNOWN_VERSION``, ``MALFORMED``, ``BAD_HEADER_TABLE``, ``DUPLICATE_TABLE``,
``UNKNOWN_TABLE_TYPE``, ``UNKNOWN_SERIALIZED_TYPE``, ``UNKNOWN_OPCODE``, ``BAD_U64``...,
``INDEX_OUT_OF_BOUNDS``...). One deliberate difference: the node accepts only the
canonical layout aptos-core's serializer writes (tables in its order, the version mask
present exactly from version 7, nothing after the last section); aptos-core also takes
permuted headers and trailing bytes. So every binary read here writes back
byte for byte (:mod:`._writer`). Versions 1 to 4 (pre-Aptos layouts) are refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ledgerkit.localnet.vm.move import _read_items as items
from ledgerkit.localnet.vm.move._bounds import check_module, check_script
from ledgerkit.localnet.vm.move._cursor import Cursor
from ledgerkit.localnet.vm.move._format import BytecodeError, CompiledModule, CompiledScript

__all__ = [
    "MAX_MODULE_SIZE",
    "MAX_VERSION",
    "MIN_VERSION",
    "TABLE_ORDER",
    "VERSION_MASK",
    "read_module",
    "read_script",
    "stored_module",
]

MAGIC: Final = b"\xa1\x1c\xeb\x0b"
VERSION_MASK: Final = 0x0A000000
MIN_VERSION: Final = 5
MAX_VERSION: Final = 10
DEFAULT_MAX_VERSION: Final = 9
#: The node's bound on one module's or script's bytes (a regular transaction's size).
MAX_MODULE_SIZE: Final = 64 * 1024
TABLE_COUNT_MAX: Final = 255
U32_MAX: Final = 0xFFFF_FFFF

#: Table kind byte -> (field of the compiled unit, entry reader); in the serializer's order.
TABLE_ORDER: Final[dict[int, tuple[str, Callable[[Cursor], Any]]]] = {
    0x1: ("module_handles", items.read_module_handle),
    0x2: ("struct_handles", items.read_struct_handle),
    0x3: ("function_handles", items.read_function_handle),
    0x4: ("function_instantiations", items.READ_FUNCTION_INST),
    0x5: ("signatures", items.read_signature),
    0x7: ("identifiers", items.read_identifier),
    0x8: ("address_identifiers", items.read_address),
    0x6: ("constant_pool", items.read_constant),
    0x10: ("metadata", items.read_metadata),
    0xA: ("struct_defs", items.read_struct_def),
    0xB: ("struct_def_instantiations", items.READ_STRUCT_DEF_INST),
    0xC: ("function_defs", items.read_function_def),
    0xD: ("field_handles", items.read_field_handle),
    0xE: ("field_instantiations", items.READ_FIELD_INST),
    0xF: ("friend_decls", items.read_module_handle),
    0x11: ("variant_field_handles", items.read_variant_field_handle),
    0x12: ("variant_field_instantiations", items.READ_VARIANT_FIELD_INST),
    0x13: ("struct_variant_handles", items.read_struct_variant_handle),
    0x14: ("struct_variant_instantiations", items.READ_STRUCT_VARIANT_INST),
}
_RANK: Final = {kind: rank for rank, kind in enumerate(TABLE_ORDER)}
_COMMON: Final = frozenset({0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x10})
_ENUM_TABLES: Final = frozenset({0x11, 0x12, 0x13, 0x14})


class _Layout:
    """The header's facts: version, tables (header order) and where their contents sit."""

    __slots__ = ("content_start", "raw_version", "tables", "version")

    def __init__(self, raw_version: int, version: int) -> None:
        self.raw_version = raw_version
        self.version = version
        self.tables: list[tuple[int, int, int]] = []  # (kind, offset, count)
        self.content_start = 0


def _as_bytes(data: object, max_size: int) -> bytes:
    if not isinstance(data, bytes | bytearray | memoryview):
        raise BytecodeError("MALFORMED", f"bytecode must be bytes, not {type(data).__name__}")
    binary = bytes(data)
    if len(binary) > max_size:
        raise BytecodeError(
            "EXCEEDED_MAX_TRANSACTION_SIZE", f"{len(binary)} bytes over the {max_size}-byte bound"
        )
    return binary


def _read_header(binary: bytes, max_version: int) -> tuple[_Layout, Cursor]:
    if binary[:4] != MAGIC:
        raise BytecodeError("BAD_MAGIC", "not Move bytecode")
    if len(binary) < 8:
        raise BytecodeError("MALFORMED", "Bad binary header")
    raw = int.from_bytes(binary[4:8], "little")
    version = raw & ~VERSION_MASK
    if version < MIN_VERSION or version > min(max_version, MAX_VERSION):
        raise BytecodeError("UNKNOWN_VERSION", f"bytecode version {version} unsupported")
    layout = _Layout(raw, version)
    c = Cursor(binary, 8, len(binary), version)
    count = c.uleb(TABLE_COUNT_MAX)
    for _ in range(count):
        kind = c.u8("Error reading table")
        offset = c.uleb(U32_MAX)
        size = c.uleb(U32_MAX)
        if kind not in TABLE_ORDER:
            raise BytecodeError("UNKNOWN_TABLE_TYPE", f"table kind {kind:#x}")
        layout.tables.append((kind, offset, size))
    return layout, c


def _check_tables(layout: _Layout, binary_len: int) -> int:
    """The tables cover the contents without gaps or overlaps, once each: their length."""
    current = 0
    seen: set[int] = set()
    for kind, offset, size in sorted(layout.tables, key=lambda t: t[1]):
        if offset != current or size == 0 or current + size > U32_MAX:
            raise BytecodeError("BAD_HEADER_TABLE", f"table {kind:#x} at {offset}+{size}")
        current += size
        if kind in seen:
            raise BytecodeError("DUPLICATE_TABLE", f"table kind {kind:#x} twice")
        seen.add(kind)
        if current > binary_len:
            raise BytecodeError("BAD_HEADER_TABLE", "tables run past the binary")
    return current


def _load_tables(layout: _Layout, c: Cursor, *, module: bool) -> dict[str, tuple[Any, ...]]:
    """Every table's entries, common tables first, as aptos-core builds them."""
    version = layout.version
    start = layout.content_start
    ordered = sorted(layout.tables, key=lambda t: t[1])
    loaded: dict[str, tuple[Any, ...]] = {}
    for kind, offset, size in ordered:
        if kind in _ENUM_TABLES and version < 7:
            raise BytecodeError("MALFORMED", f"Enum types not in bytecode version {version}")
        if kind in _COMMON:
            loaded[TABLE_ORDER[kind][0]] = _load(kind, c.sub(start + offset, start + offset + size))
    for kind, offset, size in ordered:
        if kind in _COMMON:
            continue
        if not module:
            raise BytecodeError("MALFORMED", "Bad table in Script")
        loaded[TABLE_ORDER[kind][0]] = _load(kind, c.sub(start + offset, start + offset + size))
    return loaded


def _load(kind: int, c: Cursor) -> tuple[Any, ...]:
    reader = TABLE_ORDER[kind][1]
    entries = []
    while c.pos < c.end:
        entries.append(reader(c))
    return tuple(entries)


def _open(data: object, max_version: int, max_size: int) -> tuple[_Layout, Cursor]:
    binary = _as_bytes(data, max_size)
    layout, c = _read_header(binary, max_version)
    length = _check_tables(layout, len(binary))
    layout.content_start = c.pos
    if c.pos + length > len(binary):
        raise BytecodeError("MALFORMED", "Error reading table contents")
    c.pos += length
    return layout, c


def _check_canonical(layout: _Layout, c: Cursor) -> None:
    """The node's own rule: only the layout aptos-core's serializer writes."""
    if c.pos != len(c.data):
        raise BytecodeError("MALFORMED", f"{len(c.data) - c.pos} bytes after the last section")
    canonical = layout.version | VERSION_MASK if layout.version >= 7 else layout.version
    if layout.raw_version != canonical:
        raise BytecodeError("MALFORMED", f"version word {layout.raw_version:#010x} not canonical")
    ranks = [_RANK[kind] for kind, _, _ in layout.tables]
    offsets = [offset for _, offset, _ in layout.tables]
    if ranks != sorted(ranks) or offsets != sorted(offsets):
        raise BytecodeError("MALFORMED", "tables not in the serializer's order")


def read_module(
    data: bytes, *, max_version: int = DEFAULT_MAX_VERSION, max_size: int = MAX_MODULE_SIZE
) -> CompiledModule:
    """The module in ``data``, read and bounds-checked (:class:`BytecodeError` if refused)."""
    layout, c = _open(data, max_version, max_size)
    self_handle = c.uleb(items.INDEX_MAX)
    tables = _load_tables(layout, c, module=True)
    module = CompiledModule(layout.version, self_handle, **tables)
    check_module(module)
    _check_canonical(layout, c)
    return module


def stored_module(data: bytes | None) -> CompiledModule | None:
    """The module a state item holds, or None when there is none or its bytes do not
    read (every published module read when it was published: this guards the readers of
    a damaged store, which treat such a module as absent)."""
    if data is None:
        return None
    try:
        return read_module(data)
    except BytecodeError:
        return None


def read_script(
    data: bytes, *, max_version: int = DEFAULT_MAX_VERSION, max_size: int = MAX_MODULE_SIZE
) -> CompiledScript:
    """The script in ``data``, read and bounds-checked (:class:`BytecodeError` if refused)."""
    layout, c = _open(data, max_version, max_size)
    type_parameters = items.read_ability_sets(c)
    parameters = c.uleb(items.INDEX_MAX)
    access = items.read_access_specifiers(c) if layout.version >= 8 else None
    code = items.read_code_unit(c)
    tables = _load_tables(layout, c, module=False)
    script = CompiledScript(
        version=layout.version,
        module_handles=tables.get("module_handles", ()),
        struct_handles=tables.get("struct_handles", ()),
        function_handles=tables.get("function_handles", ()),
        function_instantiations=tables.get("function_instantiations", ()),
        signatures=tables.get("signatures", ()),
        identifiers=tables.get("identifiers", ()),
        address_identifiers=tables.get("address_identifiers", ()),
        constant_pool=tables.get("constant_pool", ()),
        metadata=tables.get("metadata", ()),
        code=code,
        type_parameters=type_parameters,
        parameters=parameters,
        access_specifiers=access,
    )
    check_script(script)
    _check_canonical(layout, c)
    return script
