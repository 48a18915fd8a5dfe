"""A sender with no account yet, brought by a fee payer, calling functions that use the
sender's ``Account`` (key rotation, multisig accounts): the framework makes the account
first (``account::ensure_resource_exists``), the call commits, and the chain goes on."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

import httpx
import pytest
from node_http_helpers import expiration, ok, submit, wait

from ledgerkit.bcs import EntryFunction, FeePayerRawTransaction, RawTransaction
from ledgerkit.keys import Account
from ledgerkit.localnet import LocalNode
from ledgerkit.localnet.vm.framework._context import NATIVES
from ledgerkit.types import Address

SEED: Final = 37
STRINGS: Final = "vector<0x1::string::String>"


@pytest.fixture(scope="module")
def fresh_node(make_node: Any) -> LocalNode:
    node: LocalNode = make_node(seed=SEED, blocks=3, services=False)
    return node


@pytest.fixture(scope="module")
def http(fresh_node: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=fresh_node.url, timeout=30.0) as client:
        yield client


def sponsored(http: httpx.Client, payer: Account, function: str, args: list[Any]) -> Any:
    """``function`` called by a new account (no ``Account`` yet), its gas paid by ``payer``."""
    fresh = Account.generate()
    chain_id = int(ok(http.get("/"))["chain_id"])
    raw = RawTransaction(
        fresh.address, 0, EntryFunction.build(function, [], args), 200_000, 100, expiration(),
        chain_id,
    )  # fmt: skip
    message = FeePayerRawTransaction(raw, (), payer.address)
    signed = message.authenticate(fresh.sign(message), (), payer.sign(message))
    return fresh, wait(http, submit(http, signed)["hash"])


OK: Final = "Executed successfully"
#: ``account::revoke_any_rotation_capability`` asks for an account with an offer and makes
#: none (``assert_account_resource_with_error``): not_found(ENO_SUCH_ROTATION_CAPABILITY_OFFER).
NO_OFFER: Final = "Move abort in 0x1::account: ENO_SUCH_ROTATION_CAPABILITY_OFFER(0x60012)"


@pytest.mark.parametrize(
    ("function", "args", "status"),
    [
        ("0x1::account::rotate_authentication_key_call", [("vector<u8>", bytes(range(32)))], OK),
        ("0x1::account::revoke_any_rotation_capability", [], NO_OFFER),
        (
            "0x1::multisig_account::create_with_owners",
            [("vector<address>", []), ("u64", 1), (STRINGS, []), ("vector<vector<u8>>", [])],
            OK,
        ),
    ],
    ids=["rotate_authentication_key_call", "revoke_any_rotation_capability", "multisig"],
)
def test_a_sponsored_call_from_a_new_account_commits_and_the_chain_goes_on(
    http: httpx.Client, fresh_node: LocalNode, function: str, args: list[Any], status: str
) -> None:
    payer, bystander = fresh_node.dev_accounts[1], fresh_node.dev_accounts[2]
    fresh, committed = sponsored(http, payer, function, args)
    assert committed["vm_status"].startswith(status)
    assert committed["success"] is (status == OK)
    account = ok(http.get(f"/accounts/{fresh.address}"))
    assert account["sequence_number"] == "1"
    # Another account's plain transfer still commits after it.
    chain_id = int(ok(http.get("/"))["chain_id"])
    sequence = int(ok(http.get(f"/accounts/{bystander.address}"))["sequence_number"])
    call = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", fresh.address), ("u64", 5)]
    )
    raw = RawTransaction(bystander.address, sequence, call, 200_000, 100, expiration(), chain_id)
    assert wait(http, submit(http, bystander.sign(raw))["hash"])["success"] is True


def test_a_function_body_that_fails_fails_its_transaction_not_the_chain(
    http: httpx.Client, fresh_node: LocalNode, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fault in a function's Python body is the node's own bug: the transaction is
    committed as failed (``UNKNOWN_INVARIANT_VIOLATION_ERROR``), the fault logged, and the
    next transactions commit."""
    key = (Address.from_int(1), "ledger_demo", "set_score")

    def broken(ctx: object, type_args: object, args: object) -> None:
        raise KeyError("a fault of the body's own")

    monkeypatch.setitem(NATIVES, key, broken)
    sender, bystander = fresh_node.dev_accounts[3], fresh_node.dev_accounts[4]
    chain_id = int(ok(http.get("/"))["chain_id"])

    def signed(account: Account, function: str, args: list[Any]) -> Any:
        sequence = int(ok(http.get(f"/accounts/{account.address}"))["sequence_number"])
        call = EntryFunction.build(function, [], args)
        raw = RawTransaction(account.address, sequence, call, 200_000, 100, expiration(), chain_id)
        return account.sign(raw)

    score = [("address", sender.address), ("u64", 7)]
    failed = wait(http, submit(http, signed(sender, "0x1::ledger_demo::set_score", score))["hash"])
    assert (failed["success"], failed["vm_status"]) == (False, "UNKNOWN_INVARIANT_VIOLATION_ERROR")
    transfer = [("address", sender.address), ("u64", 5)]
    after = signed(bystander, "0x1::aptos_account::transfer", transfer)
    assert wait(http, submit(http, after)["hash"])["success"] is True
