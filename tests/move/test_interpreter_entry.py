"""The interpreter's doors: scripts, arguments decoded from BCS, the package's public
names, and the framework table as a host's bridge would use it."""

from __future__ import annotations

import pytest
from interp_kit import SIGNER, U64, DictHost, Mod, Op, code

from ledgerkit.localnet.vm import move
from ledgerkit.localnet.vm.move._format import CodeUnit, CompiledScript

CAFE = bytes(30) + b"\xca\xfe"
STD = bytes(31) + b"\x01"


def test_script_calls_a_module_with_its_signer() -> None:
    lib = Mod("bank")
    _, vault = lib.struct("Vault", [("n", U64)], abilities=0x8 | 0x4)
    lib.fn(
        "open",
        [("ref", SIGNER), U64],
        [],
        code((Op.MOVE_LOC, 0), (Op.MOVE_LOC, 1), (Op.PACK, vault), (Op.MOVE_TO, vault), Op.RET),
    )
    tables = Mod("unused_self")
    open_ = tables.ext_fn(0xCAFE, "bank", "open", [("ref", SIGNER), U64], [])
    params = tables.sig(SIGNER, U64)
    body = code(
        (Op.IMM_BORROW_LOC, 0), (Op.MOVE_LOC, 1), (Op.LD_U64, 1), Op.ADD, (Op.CALL, open_), Op.RET
    )
    script = CompiledScript(
        version=7,
        module_handles=tuple(tables.module_handles),
        struct_handles=(),
        function_handles=tuple(tables.function_handles),
        function_instantiations=(),
        signatures=(*tables.signatures, ()),
        identifiers=tuple(tables.identifiers),
        address_identifiers=tuple(tables.addresses),
        constant_pool=(),
        metadata=(),
        code=CodeUnit(len(tables.signatures), body),
        type_parameters=(),
        parameters=params,
    )
    host = DictHost(lib.build())
    owner = move.SignerValue(CAFE)
    meter = move.GasMeter(10**8)
    move.execute_script(host, script, [], [owner, move.U64Value(9)], meter=meter)
    vault_ty = move.StructType(CAFE, "bank", "Vault", (), 0xC)
    assert host.resources[(CAFE, vault_ty)].fields == [10]
    with pytest.raises(move.MoveExecutionError, match="NUMBER_OF_ARGUMENTS_MISMATCH"):
        move.execute_script(host, script, [], [owner], meter=meter)


def test_arguments_from_bcs() -> None:
    string = move.StructType(STD, "string", "String", (), 0x7)
    value = move.decode_bcs(string, b"\x02hi")
    assert isinstance(value, move.StructValue)
    assert bytes(value.fields[0].elems) == b"hi"
    option = move.StructType(STD, "option", "Option", ("u64",), 0x7)
    some = move.decode_bcs(option, b"\x01" + (2**64 - 1).to_bytes(8, "little"))
    assert some.fields[0].elems == [2**64 - 1]
    point = move.StructType(CAFE, "shapes", "Point", (), 0x7)
    layout = {point: ("u8", move.VectorType("bool"))}.get
    got = move.decode_bcs(point, b"\x07\x02\x01\x00", layout)
    assert got.fields[0] == 7
    assert got.fields[1].elems == [True, False]
    assert move.encode_bcs(got) == b"\x07\x02\x01\x00"
    for ty, data in (
        ("u64", b"\x01"),  # short
        ("bool", b"\x02"),
        (move.VectorType("u8"), b"\x05ab"),  # longer than its bytes
        ("u8", b"\x01\x02"),  # trailing
        (point, b"\x07\x00"),  # no layout given
        (option, b"\x02" + bytes(16)),  # two values in an Option
    ):
        with pytest.raises(move.MoveExecutionError, match="DATA_FORMAT_ERROR"):
            move.decode_bcs(ty, data)


def test_framework_table_serves_a_bridge() -> None:
    utf8 = move.PURE_FUNCTIONS[("string", "utf8")]
    meter = move.GasMeter(10**6)

    class Ctx:
        host = DictHost()
        limits = move.Limits()

    Ctx.meter = meter  # type: ignore[attr-defined]
    (s,) = utf8(Ctx, (), [move.VectorValue("u8", [move.U8Value(0x61)])])  # type: ignore[arg-type]
    assert move.type_name(s.ty) == "0x1::string::String"
    assert meter.used == 7350  # the flat native charge
    with pytest.raises(move.MoveExecutionError, match="UNKNOWN_INVARIANT_VIOLATION_ERROR"):
        utf8(Ctx, (), [])  # type: ignore[arg-type]


def test_gas_table_figures() -> None:
    # aptos-core instr.rs figures times 10
    assert move.INSTRUCTION_GAS[Op.ADD] == 5880
    assert move.INSTRUCTION_GAS[Op.BR_TRUE] == 4410
    assert move.INSTRUCTION_GAS[Op.MOVE_TO] == 18380
    assert move.INSTRUCTION_GAS[Op.CALL] == 36760
