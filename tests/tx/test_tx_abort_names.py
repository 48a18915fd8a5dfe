"""An abort code of the embedded framework has one name and description, the constant its
module declares: the node writes it in the ``vm_status`` of a real failing transaction (or
in a failing view's message), and ``parse_abort`` reads the same from the code alone.

Each failure is provoked on the node and simulated (nothing is committed); the expected
constants are written out from the framework modules' declarations.
"""

from __future__ import annotations

import re
from typing import Any, Final

import pytest

from ledgerkit import Client, Ed25519PrivateKey, InvalidInputError
from ledgerkit.localnet import LocalNode
from ledgerkit.tx import FRAMEWORK_ERRORS, MoveAbort, parse_abort

APT: Final = "0x1::aptos_coin::AptosCoin"
LDT_METADATA: Final = "0x1::fungible_asset::Metadata"
GAS: Final = {"max_gas_amount": 200_000, "gas_unit_price": 100}
#: Stands for a dev account's address (one that exists) among the arguments below.
EXISTING: Final = "<a dev account>"
_STATUS: Final = re.compile(r"Move abort in (0x[0-9a-f]+::\w+): (\w+)\((0x[0-9a-f]+)\)")


def simulated_status(client: Client, node: LocalNode, function: str, args: list[Any],
                     type_arguments: tuple[str, ...] = ()) -> str:  # fmt: skip
    sender = node.dev_accounts[4]
    raw = client.build_transaction(sender, function, args, type_arguments=type_arguments, **GAS)
    simulation = client.simulate(raw, signer=sender.private_key)
    assert not simulation.success
    return simulation.vm_status


def agree(status: str) -> MoveAbort:
    """The node's named abort reads as the bare code does through the client's table."""
    node_says = parse_abort(status)
    assert node_says is not None, status
    assert node_says.module is not None, status
    table_says = parse_abort(f"Move abort in {node_says.module}: {node_says.code:#x}")
    assert table_says == node_says, status
    return node_says


TRANSACTIONS: Final = [
    # (what fails, function, arguments, type arguments, module, code, constant)
    ("a coin that is not one", "0x1::aptos_account::transfer_coins", ["0x" + "ab" * 32, 1],
     ("0x1::ledger_demo::Point",), "0x1::coin", 0x60003, "ECOIN_INFO_NOT_PUBLISHED"),
    ("a batch of 2 recipients and 1 amount", "0x1::aptos_account::batch_transfer",
     [["0x" + "ab" * 32, "0x" + "cd" * 32], [1]], (), "0x1::aptos_account", 0x10005,
     "EMISMATCHING_RECIPIENTS_AND_AMOUNTS_LENGTH"),
    ("an account at a reserved address", "0x1::aptos_account::create_account", ["0x3"], (),
     "0x1::account", 0x10005, "ECANNOT_RESERVED_ADDRESS"),
    ("an account that exists", "0x1::aptos_account::create_account", [EXISTING], (),
     "0x1::account", 0x80001, "EACCOUNT_ALREADY_EXISTS"),
    ("a 3-byte authentication key", "0x1::account::rotate_authentication_key_call",
     [b"\x01\x02\x03"], (), "0x1::account", 0x10004, "EMALFORMED_AUTHENTICATION_KEY"),
    ("a profile level over the limit", "0x1::ledger_demo::set_profile", ["ada", 101, []], (),
     "0x1::ledger_demo", 0x10001, "ELEVEL_TOO_HIGH"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("function", "args", "type_arguments", "module", "code", "constant"),
    [t[1:] for t in TRANSACTIONS],
    ids=[t[0] for t in TRANSACTIONS],
)
def test_a_failing_transaction_reads_the_same_on_the_node_and_in_the_client(
    client: Client,
    node: LocalNode,
    function: str,
    args: list[Any],
    type_arguments: tuple[str, ...],
    module: str,
    code: int,
    constant: str,
) -> None:
    args = [node.dev_accounts[0].address if a == EXISTING else a for a in args]
    status = simulated_status(client, node, function, args, type_arguments)
    abort = agree(status)
    assert (abort.module, abort.code, abort.name) == (module, code, constant)
    assert abort.description == FRAMEWORK_ERRORS[module, code & 0xFFFF][1]


def test_a_transfer_over_the_balance(client: Client, node: LocalNode) -> None:
    sender = node.dev_accounts[4]
    to = Ed25519PrivateKey.generate().address()
    raw = client.build_transaction(sender, "0x1::aptos_account::transfer", [to, 10**18], **GAS)
    status = client.simulate(raw, signer=sender.private_key).vm_status
    abort = agree(status)
    assert (abort.module, abort.code, abort.name) == (
        "0x1::fungible_asset",
        0x10004,
        "EINSUFFICIENT_BALANCE",
    )


@pytest.mark.parametrize("category", [0x1, 0x2, 0x6])
@pytest.mark.parametrize(
    "reason", sorted(r for m, r in FRAMEWORK_ERRORS if m == "0x1::ledger_demo")
)
def test_fail_if_with_every_code_ledger_demo_declares(
    client: Client, node: LocalNode, category: int, reason: int
) -> None:
    code = category << 16 | reason
    status = simulated_status(client, node, "0x1::ledger_demo::fail_if", [code])
    abort = agree(status)
    # Named by the module's declaration, whichever function aborts with the code.
    assert abort.name == FRAMEWORK_ERRORS["0x1::ledger_demo", reason][0]
    assert status.startswith(f"Move abort in 0x1::ledger_demo: {abort.name}({code:#x}): ")


@pytest.mark.parametrize("code", [42, 0x10003, 0xDEAD, 0xFFFF_FFFF_FFFF_FFFF])
def test_fail_if_with_a_code_ledger_demo_does_not_declare(
    client: Client, node: LocalNode, code: int
) -> None:
    status = simulated_status(client, node, "0x1::ledger_demo::fail_if", [code])
    assert status == f"Move abort in 0x1::ledger_demo: {code:#x}"
    assert parse_abort(status) == MoveAbort("0x1::ledger_demo", code)


@pytest.mark.parametrize(
    ("function", "module", "code", "constant"),
    [
        ("0x1::account::get_authentication_key", "0x1::account", 0x60002,
         "EACCOUNT_DOES_NOT_EXIST"),
        ("0x1::fungible_asset::store_metadata", "0x1::fungible_asset", 0x60017,
         "EFUNGIBLE_STORE_EXISTENCE"),
    ],
)  # fmt: skip
def test_a_failing_view_names_the_abort_as_the_client_does(
    client: Client, function: str, module: str, code: int, constant: str
) -> None:
    nobody = Ed25519PrivateKey.generate().address()
    type_arguments = [LDT_METADATA] if "store_metadata" in function else []
    with pytest.raises(InvalidInputError) as caught:
        client.view(function, [nobody], type_arguments=type_arguments)
    found = _STATUS.search(str(caught.value))
    assert found is not None, str(caught.value)
    status = str(caught.value)[found.start() :].split(" [")[0]
    abort = agree(status)
    assert (abort.module, abort.code, abort.name) == (module, code, constant)


def test_the_tables_keys_are_what_the_framework_declares() -> None:
    # Written out from coin.move, fungible_asset.move, account.move, ledger_demo.
    assert FRAMEWORK_ERRORS["0x1::coin", 3][0] == "ECOIN_INFO_NOT_PUBLISHED"
    assert FRAMEWORK_ERRORS["0x1::coin", 2][0] == "ECOIN_INFO_ALREADY_PUBLISHED"
    assert FRAMEWORK_ERRORS["0x1::fungible_asset", 5][0] == "EMAX_SUPPLY_EXCEEDED"
    assert FRAMEWORK_ERRORS["0x1::ledger_demo", 1][0] == "ELEVEL_TOO_HIGH"
    assert FRAMEWORK_ERRORS["0x1::ledger_demo", 2][0] == "ESCORE_OVERFLOW"
