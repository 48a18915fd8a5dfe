"""Global storage instructions against a dict-backed host: ``move_to``, ``exists``,
``borrow_global(_mut)`` writing in place, ``move_from``, and their VM statuses."""

from __future__ import annotations

import pytest
from interp_kit import ADDRESS, ALL, BOOL, KEY, SIGNER, U64, DictHost, Mod, Op, code, run

from ledgerkit.localnet.vm.move._interp_errors import MoveExecutionError
from ledgerkit.localnet.vm.move._runtime_types import StructType
from ledgerkit.localnet.vm.move._values import (
    AddressValue,
    Reference,
    SignerValue,
    StructValue,
    U64Value,
)

CAFE = bytes(30) + b"\xca\xfe"
ALICE = AddressValue(bytes(31) + b"\xa1")


def counter_module() -> tuple[Mod, StructType, StructType]:
    m = Mod("counter")
    _, counter = m.struct("Counter", [("n", U64)], abilities=KEY | 0x4 | 0x2)
    _, slot = m.struct("Slot", [("v", ("tparam", 0))], abilities=KEY | 0x4, tparams=[False])
    n = m.field(counter, 0)
    ctok = ("struct", 0)
    m.fn(
        "init",
        [("ref", SIGNER), U64],
        [],
        code((Op.MOVE_LOC, 0), (Op.MOVE_LOC, 1), (Op.PACK, counter), (Op.MOVE_TO, counter), Op.RET),
    )
    m.fn("has", [ADDRESS], [BOOL], code((Op.MOVE_LOC, 0), (Op.EXISTS, counter), Op.RET))
    # *&mut borrow_global_mut<Counter>(a).n = old + 1; returns old
    m.fn(
        "bump",
        [ADDRESS],
        [U64],
        code(
            (Op.MOVE_LOC, 0), (Op.MUT_BORROW_GLOBAL, counter), (Op.MUT_BORROW_FIELD, n),
            (Op.ST_LOC, 1), (Op.COPY_LOC, 1), Op.READ_REF, (Op.ST_LOC, 2),
            (Op.COPY_LOC, 2), (Op.LD_U64, 1), Op.ADD, (Op.MOVE_LOC, 1), Op.WRITE_REF,
            (Op.MOVE_LOC, 2), Op.RET,
        ),
        locals_=[("mut_ref", U64), U64],
    )  # fmt: skip
    m.fn(
        "read",
        [ADDRESS],
        [U64],
        code(
            (Op.MOVE_LOC, 0),
            (Op.IMM_BORROW_GLOBAL, counter),
            (Op.IMM_BORROW_FIELD, n),
            Op.READ_REF,
            Op.RET,
        ),
    )
    m.fn(
        "take",
        [ADDRESS],
        [U64],
        code((Op.MOVE_LOC, 0), (Op.MOVE_FROM, counter), (Op.UNPACK, counter), Op.RET),
    )
    m.fn(
        "reset",
        [ADDRESS],
        [],
        code(
            (Op.LD_U64, 0),
            (Op.PACK, counter),
            (Op.MOVE_LOC, 0),
            (Op.MUT_BORROW_GLOBAL, counter),
            Op.WRITE_REF,
            Op.RET,
        ),
    )
    slot_u64 = m.struct_inst(slot, U64)
    m.fn(
        "put_slot",
        [("ref", SIGNER), U64],
        [],
        code(
            (Op.MOVE_LOC, 0),
            (Op.MOVE_LOC, 1),
            (Op.PACK_GENERIC, slot_u64),
            (Op.MOVE_TO_GENERIC, slot_u64),
            Op.RET,
        ),
    )
    m.fn(
        "has_slot", [ADDRESS], [BOOL], code((Op.MOVE_LOC, 0), (Op.EXISTS_GENERIC, slot_u64), Op.RET)
    )
    counter_ty = StructType(CAFE, "counter", "Counter", (), KEY | 0x4 | 0x2)
    slot_ty = StructType(CAFE, "counter", "Slot", ("u64",), KEY | 0x4)
    assert ctok == ("struct", 0)
    return m, counter_ty, slot_ty


def signer(address: bytes) -> Reference:
    return Reference([SignerValue(address)], 0, False)


def test_resource_life_cycle() -> None:
    m, counter_ty, _ = counter_module()
    module = m.build()
    host = DictHost(module)
    assert run(module, "has", [ALICE], host=host) == [False]
    run(module, "init", [signer(ALICE), U64Value(41)], host=host)
    assert run(module, "has", [ALICE], host=host) == [True]
    assert host.resources[(ALICE, counter_ty)].fields == [41]
    assert run(module, "bump", [ALICE], host=host) == [41]
    assert host.resources[(ALICE, counter_ty)].fields == [42]  # written in place
    assert run(module, "read", [ALICE], host=host) == [42]
    run(module, "reset", [ALICE], host=host)
    assert host.resources[(ALICE, counter_ty)].fields == [0]
    assert run(module, "take", [ALICE], host=host) == [0]
    assert host.resources == {}


@pytest.mark.parametrize("name", ["bump", "read", "take", "reset"])
def test_absent_resource_is_missing_data(name: str) -> None:
    m, _, _ = counter_module()
    with pytest.raises(MoveExecutionError) as caught:
        run(m.build(), name, [ALICE])
    assert caught.value.status == "MISSING_DATA"


def test_second_move_to_is_resource_already_exists() -> None:
    m, counter_ty, _ = counter_module()
    module = m.build()
    host = DictHost(module)
    run(module, "init", [signer(ALICE), U64Value(1)], host=host)
    with pytest.raises(MoveExecutionError) as caught:
        run(module, "init", [signer(ALICE), U64Value(2)], host=host)
    assert caught.value.status == "RESOURCE_ALREADY_EXISTS"
    assert host.resources[(ALICE, counter_ty)].fields == [1]


def test_generic_resource_is_keyed_by_its_instantiation() -> None:
    m, _, slot_ty = counter_module()
    module = m.build()
    host = DictHost(module)
    run(module, "put_slot", [signer(ALICE), U64Value(5)], host=host)
    assert run(module, "has_slot", [ALICE], host=host) == [True]
    assert host.resources[(ALICE, slot_ty)].fields == [5]
    assert str(slot_ty) == "0xcafe::counter::Slot<u64>"


def test_overwriting_a_resource_without_drop_is_refused() -> None:
    m = Mod("nodrop")
    _, coin = m.struct("Coin", [("n", U64)], abilities=KEY | 0x4)
    m.fn(
        "f",
        [ADDRESS],
        [],
        code(
            (Op.LD_U64, 0),
            (Op.PACK, coin),
            (Op.MOVE_LOC, 0),
            (Op.MUT_BORROW_GLOBAL, coin),
            Op.WRITE_REF,
            Op.RET,
        ),
    )
    module = m.build()
    host = DictHost(module)
    coin_ty = StructType(CAFE, "nodrop", "Coin", (), KEY | 0x4)
    host.resources[(ALICE, coin_ty)] = StructValue(coin_ty, [U64Value(5)])
    with pytest.raises(MoveExecutionError, match="UNKNOWN_INVARIANT_VIOLATION_ERROR"):
        run(module, "f", [ALICE], host=host)
    assert host.resources[(ALICE, coin_ty)].fields == [5]


def test_move_to_of_a_struct_without_key_is_refused() -> None:
    m = Mod("nokey")
    _, plain = m.struct("Plain", [("n", U64)], abilities=ALL)
    m.fn(
        "f",
        [("ref", SIGNER)],
        [],
        code((Op.MOVE_LOC, 0), (Op.LD_U64, 1), (Op.PACK, plain), (Op.MOVE_TO, plain), Op.RET),
    )
    with pytest.raises(MoveExecutionError, match="UNKNOWN_INVARIANT_VIOLATION_ERROR"):
        run(m.build(), "f", [signer(ALICE)])
