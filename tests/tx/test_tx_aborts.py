"""Move aborts read from ``vm_status`` texts as nodes write them (``Move abort in
0x1::coin: EINSUFFICIENT_BALANCE(0x10006): ...``, ``Move abort in 0x1::m: 0x10006``,
``Move abort: code 0x2a``): module, code, the ``std::error`` split and the names."""

from __future__ import annotations

import pickle

import pytest

from ledgerkit.tx import FRAMEWORK_ERRORS, MoveAbort, parse_abort


def test_a_named_abort_keeps_the_nodes_name_and_description() -> None:
    status = (
        "Move abort in 0x1::coin: EINSUFFICIENT_BALANCE(0x10006): "
        "Not enough coins to complete transaction"
    )
    abort = parse_abort(status)
    assert abort == MoveAbort(
        "0x1::coin", 0x10006, "EINSUFFICIENT_BALANCE", "Not enough coins to complete transaction"
    )
    assert (abort.category, abort.reason) == (1, 6)
    assert abort.category_name == "INVALID_ARGUMENT"
    assert str(abort) == status


@pytest.mark.parametrize(
    ("status", "module", "code", "name"),
    [
        # Not named by the node: named from the framework table, by module and reason.
        ("Move abort in 0x1::coin: 0x10006", "0x1::coin", 0x10006, "EINSUFFICIENT_BALANCE"),
        ("Move abort in 0x1::fungible_asset: 0x10004", "0x1::fungible_asset", 0x10004,
         "EINSUFFICIENT_BALANCE"),
        ("Move abort in 0x1::account: 0x60002", "0x1::account", 0x60002,
         "EACCOUNT_DOES_NOT_EXIST"),
        ("Move abort in 0x1::object: 0x50004", "0x1::object", 0x50004, "ENOT_OBJECT_OWNER"),
        ("Move abort in 0x1::aptos_account: 0x10005", "0x1::aptos_account", 0x10005,
         "EMISMATCHING_RECIPIENTS_AND_AMOUNTS_LENGTH"),
        # The long address form names the same module.
        ("Move abort in 0x0000000000000000000000000000000000000000000000000000000000000001"
         "::coin: 0x5000a", "0x1::coin", 0x5000A, "EFROZEN"),
        # A module the table does not know: code only.
        ("Move abort in 0xcafe::dex: 0x10006", "0xcafe::dex", 0x10006, None),
    ],
)  # fmt: skip
def test_an_unnamed_abort_is_named_from_the_framework_table(
    status: str, module: str, code: int, name: str | None
) -> None:
    abort = parse_abort(status)
    assert abort is not None
    assert (abort.module, abort.code, abort.name) == (module, code, name)
    assert (abort.description is None) == (name is None)


def test_the_code_splits_as_std_error_does() -> None:
    abort = parse_abort("Move abort in 0x1::object: ENOT_OBJECT_OWNER(0x50004): not yours")
    assert abort is not None
    assert (abort.category, abort.category_name, abort.reason) == (5, "PERMISSION_DENIED", 4)
    not_found = parse_abort("Move abort in 0xcafe::m: 0x6002a")
    assert not_found is not None
    assert (not_found.category, not_found.category_name, not_found.reason) == (6, "NOT_FOUND", 42)
    # A code outside the convention has no category name.
    odd = parse_abort("Move abort in 0xcafe::m: 0xff000001")
    assert odd is not None
    assert odd.category_name is None


def test_move_2s_unspecified_code_is_internal_reason_zero() -> None:
    abort = parse_abort("Move abort in 0xcafe::m: 0xca26cbd9be0b0000")
    assert abort is not None
    assert (abort.category_name, abort.reason, abort.name) == ("INTERNAL", 0, None)
    assert abort.description is not None


def test_a_script_abort_has_no_module() -> None:
    abort = parse_abort("Move abort: code 0x2a")
    assert abort == MoveAbort(None, 42)
    assert str(abort) == "Move abort in a script: 0x2a"


def test_a_name_without_description_is_kept() -> None:
    abort = parse_abort("Move abort in 0x1::ledger_demo: ESCORE_OVERFLOW(0x20002)")
    assert abort == MoveAbort("0x1::ledger_demo", 0x20002, "ESCORE_OVERFLOW", None)


@pytest.mark.parametrize(
    "status",
    [
        "Executed successfully",
        "Out of gas",
        "SEQUENCE_NUMBER_TOO_OLD",
        "Execution failed in 0x1::coin::transfer at code offset 3",
        "Move abort in something else",
        "",
    ],
)
def test_anything_but_an_abort_is_none(status: str) -> None:
    assert parse_abort(status) is None


def test_the_table_holds_the_framework_constants() -> None:
    # Values from the framework sources (coin.move, fungible_asset.move, account.move...).
    assert FRAMEWORK_ERRORS["0x1::coin", 6][0] == "EINSUFFICIENT_BALANCE"
    assert FRAMEWORK_ERRORS["0x1::coin", 5][0] == "ECOIN_STORE_NOT_PUBLISHED"
    assert FRAMEWORK_ERRORS["0x1::fungible_asset", 3][0] == "ESTORE_IS_FROZEN"
    assert FRAMEWORK_ERRORS["0x1::fungible_asset", 23][0] == "EFUNGIBLE_STORE_EXISTENCE"
    assert FRAMEWORK_ERRORS["0x1::account", 1][0] == "EACCOUNT_ALREADY_EXISTS"
    assert FRAMEWORK_ERRORS["0x1::object", 2][0] == "EOBJECT_DOES_NOT_EXIST"
    assert all(name.startswith(("E", "PROLOGUE_E")) for name, _ in FRAMEWORK_ERRORS.values())


def test_an_abort_pickles() -> None:
    abort = parse_abort("Move abort in 0x1::coin: 0x10006")
    assert pickle.loads(pickle.dumps(abort)) == abort
