"""Hostile bytecode, written out byte by byte, and the VM status each gets: the one
aptos-core's deserializer or bounds checker gives (``deserializer.rs``,
``check_bounds.rs``), or for the node's own rules (size bound, canonical layout) the
status named in the reader's docstring."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from bytecode_samples import full_module, full_script, layout, small_module

from ledgerkit.localnet.vm.framework import VMStatusError
from ledgerkit.localnet.vm.move import (
    BytecodeError,
    CodeUnit,
    FunctionDefinition,
    Instruction,
    Op,
    StructDefinition,
    StructVariantInstantiation,
    read_module,
    read_script,
    stored_module,
    write_module,
    write_script,
)

MAGIC = "a11ceb0b"
V6 = "06000000"
ADDRESS_ONE = "00" * 31 + "01"


def with_signature(token: str, version: str = V6) -> bytes:
    """Module 0x1::M with one signature of one token."""
    return layout(version, [(1, "0000"), (5, "01" + token), (7, "014d"), (8, ADDRESS_ONE)])


def with_code(code: str, count: int = 1, flags: str = "00", visibility: str = "01") -> bytes:
    """Module 0x1::M with one public function ``f()`` whose code is ``code``."""
    return layout(
        V6,
        [
            (1, "0000"),  # module handle: address 0, name 0
            (3, "0001000000"),  # function handle: module 0, name 1, () -> (), no type params
            (5, "00"),  # signature 0: ()
            (7, "014d0166"),  # "M", "f"
            (8, ADDRESS_ONE),
            (0xC, f"00{visibility}{flags}0000{count:02x}" + code),  # handle 0, locals 0
        ],
    )


def status_of(binary: bytes, *, script: bool = False, max_version: int = 9) -> str:
    with pytest.raises(BytecodeError) as caught:
        (read_script if script else read_module)(binary, max_version=max_version)
    return caught.value.status


def test_the_building_blocks_are_valid() -> None:
    assert read_module(with_code("02")).function_defs[0].code == CodeUnit(0, (Instruction(Op.RET),))
    assert read_module(with_signature("03")).signatures == ((("u64",),),)


@pytest.mark.parametrize(
    ("binary", "status"),
    [
        (b"", "BAD_MAGIC"),
        (bytes.fromhex("a11ceb"), "BAD_MAGIC"),
        (bytes.fromhex("a11ceb0c06000000000000"), "BAD_MAGIC"),
        (bytes.fromhex("a11ceb0b0600"), "MALFORMED"),  # version word cut short
        (bytes.fromhex("a11ceb0b000000000000"), "UNKNOWN_VERSION"),  # 0
        (bytes.fromhex("a11ceb0b040000000000"), "UNKNOWN_VERSION"),  # before 5
        (bytes.fromhex("a11ceb0b0a00000a0000"), "UNKNOWN_VERSION"),  # 10 unless asked
        (bytes.fromhex("a11ceb0b0700000b0000"), "UNKNOWN_VERSION"),  # not the Aptos mask
        (bytes.fromhex("a11ceb0b060000008000"), "MALFORMED"),  # overlong ULEB128 count
        (bytes.fromhex("a11ceb0b0600000080"), "MALFORMED"),  # ULEB128 cut short
        (bytes.fromhex("a11ceb0b06000000ff01"), "MALFORMED"),  # 255 tables announced, none there
        (bytes.fromhex("a11ceb0b0600000001090001" + "00"), "UNKNOWN_TABLE_TYPE"),
        (bytes.fromhex("a11ceb0b0600000001010102" + "0000"), "BAD_HEADER_TABLE"),  # gap
        (bytes.fromhex("a11ceb0b0600000001010000" + "00"), "BAD_HEADER_TABLE"),  # empty
        (bytes.fromhex("a11ceb0b060000000101007f" + "00"), "BAD_HEADER_TABLE"),  # past end
        (bytes.fromhex("a11ceb0b06000000020700010701010000"), "DUPLICATE_TABLE"),
        (bytes.fromhex("a11ceb0b06000000020701010701010000"), "BAD_HEADER_TABLE"),  # overlap
        (bytes.fromhex("a11ceb0b060000000000"), "NO_MODULE_HANDLES"),
    ],
)
def test_headers(binary: bytes, status: str) -> None:
    assert status_of(binary) == status


@pytest.mark.parametrize(
    ("token", "version", "status"),
    [
        ("17", V6, "UNKNOWN_SERIALIZED_TYPE"),
        ("00", V6, "UNKNOWN_SERIALIZED_TYPE"),
        ("0a", V6, "MALFORMED"),  # vector of nothing: the table ends
        ("0d", "05000000", "MALFORMED"),  # u16 before version 6
        ("10000000", "0700000a", "MALFORMED"),  # a function type before version 8
        ("11", "0800000a", "MALFORMED"),  # i8 before version 9
        ("0b0000", V6, "MALFORMED"),  # a struct instantiation of no type
        ("09808004", V6, "UNKNOWN_INVARIANT_VIOLATION_ERROR"),  # type parameter 65536
        ("098180", V6, "MALFORMED"),  # overlong type parameter index
        ("0800", V6, "INDEX_OUT_OF_BOUNDS"),  # struct handle 0 of none
    ],
)
def test_signature_tokens(token: str, version: str, status: str) -> None:
    assert status_of(with_signature(token, version)) == status


@pytest.mark.parametrize(
    ("code", "status"),
    [
        ("69", "UNKNOWN_OPCODE"),
        ("00", "UNKNOWN_OPCODE"),
        ("68", "MALFORMED"),  # ABORT_MSG before version 10
        ("5b01", "MALFORMED"),  # LD_I8 before version 9
        ("5a00", "MALFORMED"),  # CALL_CLOSURE before version 8
        ("5600", "MALFORMED"),  # TEST_VARIANT before version 7
        ("31", "MALFORMED"),  # LD_U8 with no byte left
        ("4801", "BAD_U16"),
        ("49010203", "BAD_U32"),
        ("0601020304050607", "BAD_U64"),
        ("32" + "00" * 15, "BAD_U128"),
        ("4a" + "00" * 31, "BAD_U256"),
        ("4000" + "00" * 7, "BAD_U64"),  # VEC_PACK's count cut short
        ("0501", "INDEX_OUT_OF_BOUNDS"),  # a branch past the code
        ("0a00", "INDEX_OUT_OF_BOUNDS"),  # a local of none
        ("1101", "INDEX_OUT_OF_BOUNDS"),  # function handle 1 of 1
        ("0700", "INDEX_OUT_OF_BOUNDS"),  # constant 0 of none
        ("1200", "INDEX_OUT_OF_BOUNDS"),  # struct definition 0 of none
        ("4101", "INDEX_OUT_OF_BOUNDS"),  # signature 1 of 1
        ("0b8002", "MALFORMED"),  # local 256
        ("05808004", "MALFORMED"),  # code offset 65536
    ],
)
def test_instructions(code: str, status: str) -> None:
    assert status_of(with_code(code)) == status


def test_function_definitions() -> None:
    assert status_of(with_code("02", flags="08")) == "INVALID_FLAG_BITS"
    assert status_of(with_code("02", flags="01")) == "INVALID_FLAG_BITS"  # the v1 public bit
    assert status_of(with_code("02", count=2)) == "MALFORMED"  # one instruction short
    assert status_of(with_code("0202", count=1)) == "MALFORMED"  # a byte left in the table
    assert read_module(with_code("02", visibility="03")).function_defs[0].visibility == 3
    assert status_of(with_code("02", visibility="02")) == "MALFORMED"  # pre-v5 "script"
    assert status_of(with_code("02", visibility="04")) == "MALFORMED"


def test_struct_definitions() -> None:
    base = [(1, "0000"), (2, "00010000"), (7, "014d0153"), (8, ADDRESS_ONE)]
    assert read_module(layout(V6, [*base, (0xA, "0001")])).struct_defs == (
        StructDefinition(0, None, None),
    )
    assert status_of(layout(V6, [*base, (0xA, "0004")])) == "UNKNOWN_NATIVE_STRUCT_FLAG"
    assert status_of(layout(V6, [*base, (0xA, "000300")])) == "MALFORMED"  # enum before v7
    assert status_of(layout(V6, [*base, (0xA, "00")])) == "MALFORMED"  # flag missing
    assert status_of(layout(V6, [*base, (0x13, "0000")])) == "MALFORMED"  # enum table, v6
    assert status_of(layout("0700000a", [*base, (0xA, "000300")])) == "ZERO_VARIANTS_ERROR"
    # a field named by identifier 5 of 2
    assert status_of(layout(V6, [*base, (0xA, "0002010503")])) == "INDEX_OUT_OF_BOUNDS"


def test_identifiers() -> None:
    def named(name: bytes, version: str = V6) -> bytes:
        ident = (bytes([len(name)]) + name).hex()
        return layout(version, [(1, "0000"), (7, ident), (8, ADDRESS_ONE)])

    for good in (b"M", b"_x", b"a1_", b"<SELF>", b"<SELF>_12"):
        assert read_module(named(good)).name == good.decode()
    for bad in (b"", b"_", b"1a", b"a-b", b"\xc3\xa9", b"<SELF>_", b"<SELF>_x", b"$x"):
        assert status_of(named(bad)) == "MALFORMED", bad
    assert read_module(named(b"a$b", "0900000a")).name == "a$b"  # from version 9
    assert read_module(named(b"$x", "0900000a")).name == "$x"
    assert status_of(named(b"a$b", "0800000a")) == "MALFORMED"


def test_the_node_reads_only_the_serializers_layout() -> None:
    good = with_code("02")
    assert status_of(good + b"\x00") == "MALFORMED"  # a byte after the self handle
    # the same tables, headers listed in another order: aptos-core sorts them, the node refuses
    permuted = layout(V6, [(7, "014d"), (1, "0000"), (8, ADDRESS_ONE)])
    assert status_of(permuted) == "MALFORMED"
    assert status_of(with_signature("03", "0600000a")) == "MALFORMED"  # mask before v7
    assert status_of(with_signature("03", "07000000")) == "MALFORMED"  # no mask from v7
    # 0x08000007: aptos-core's mask clears bit 27 too, so this reads as version 7
    assert status_of(with_signature("03", "07000008")) == "MALFORMED"


def test_scripts() -> None:
    script = write_script(full_script())
    assert read_script(script).version == 9
    assert status_of(script, script=True, max_version=8) == "UNKNOWN_VERSION"
    assert status_of(script + b"\x02", script=True) == "MALFORMED"
    # a module's table in a script
    module_table = layout(V6, [(0xC, "00")], tail="00000000")
    assert status_of(module_table, script=True) == "MALFORMED"
    # a script's parameters: signature 0 of none
    assert status_of(bytes.fromhex(MAGIC + V6 + "00" + "00" + "00" + "00" + "00"), script=True) == (
        "INDEX_OUT_OF_BOUNDS"
    )


def test_bounds_beyond_single_instructions() -> None:
    module = full_module(9)
    too_many_locals = dataclasses.replace(
        module,
        signatures=(*module.signatures, (("u8",),) * 255),
        function_defs=(
            dataclasses.replace(module.function_defs[0], code=CodeUnit(5, (Instruction(Op.RET),))),
            *module.function_defs[1:],
        ),
    )
    assert status_of(write_module(too_many_locals)) == "TOO_MANY_LOCALS"
    wrong_arity = dataclasses.replace(module, signatures=(*module.signatures, (("struct", 1),)))
    assert status_of(write_module(wrong_arity)) == "NUMBER_OF_TYPE_ARGUMENTS_MISMATCH"
    # a type parameter beyond the function's own (f has none)
    stray = dataclasses.replace(
        module,
        function_defs=(
            FunctionDefinition(0, 1, False, (), CodeUnit(4, (Instruction(Op.RET),))),
            *module.function_defs[1:],
        ),
    )
    assert status_of(write_module(stray)) == "INDEX_OUT_OF_BOUNDS"
    # an instruction's instantiation whose type arguments are signature 99 of 5
    bad_instantiation = dataclasses.replace(
        module, struct_variant_instantiations=(StructVariantInstantiation(1, 99),)
    )
    assert status_of(write_module(bad_instantiation)) == "INDEX_OUT_OF_BOUNDS"
    small = small_module(6)
    assert status_of(write_module(dataclasses.replace(small, self_handle=1))) == (
        "INDEX_OUT_OF_BOUNDS"
    )


def test_refusals_are_vm_status_errors() -> None:
    with pytest.raises(VMStatusError) as caught:
        read_module(b"not bytecode")
    assert caught.value.status == "BAD_MAGIC"
    assert isinstance(caught.value, BytecodeError)
    assert status_of("a11ceb0b" * 4) == "MALFORMED"  # type: ignore[arg-type]
    assert status_of(b"\xa1\x1c\xeb\x0b" + bytes(65533)) == "EXCEEDED_MAX_TRANSACTION_SIZE"


def test_a_stored_module_that_does_not_read_is_absent() -> None:
    # What the node's readers of its store see: a module, or nothing (never an error).
    data = (Path(__file__).parent / "data" / "hello_world_authenticator_v7.mv").read_bytes()
    assert stored_module(data) == read_module(data)
    assert stored_module(None) is None
    assert stored_module(b"\xa1\x1c\xeb\x0b") is None  # the magic, and nothing after it
    assert stored_module(data[:-1]) is None
