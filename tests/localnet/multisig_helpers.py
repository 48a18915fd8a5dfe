"""What the multisig account tests over HTTP share: their fixtures (a node, its HTTP
client, three funded owners, a new 2-of-3 account), building, sending and reading calls.

Expected addresses are computed here from the framework's derivation with hashlib:
``SHA3-256(creator ‖ "aptos_framework::multisig_account" ‖ u64_le(seq) ‖ 0xFF)``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from typing import Any, Final

import httpx
import pytest
from node_http_helpers import ok, run

from ledgerkit.bcs import EntryFunction, Multisig, RawTransaction, SignedTransaction
from ledgerkit.keys import Account
from ledgerkit.localnet import LocalNode
from ledgerkit.types import Address

MS: Final = "0x1::multisig_account::"
STRINGS: Final = "vector<0x1::string::String>"


def expected_address(creator: Address, sequence: int) -> str:
    seed = b"aptos_framework::multisig_account" + sequence.to_bytes(8, "little")
    return "0x" + hashlib.sha3_256(bytes(creator) + seed + b"\xff").hexdigest()


def view(http: httpx.Client, function: str, *args: Any) -> list[Any]:
    body = {"function": MS + function, "type_arguments": [], "arguments": list(args)}
    result: list[Any] = ok(http.post("/view", json=body))
    return result


def call(http: httpx.Client, who: Account, function: str, *args: tuple[str, Any]) -> Any:
    name = function if "::" in function else MS + function
    return run(http, who, name, list(args))


def inner_payload(function: str, *args: tuple[str, Any]) -> bytes:
    """``MultisigTransactionPayload::EntryFunction`` as BCS: variant 0, then the call."""
    return b"\x00" + EntryFunction.build(function, [], list(args)).to_bcs()


def execute(
    http: httpx.Client, who: Account, account: str, ef: EntryFunction | None
) -> SignedTransaction:
    chain_id = int(ok(http.get("/"))["chain_id"])
    sequence = int(ok(http.get(f"/accounts/{who.address}"))["sequence_number"])
    raw = RawTransaction(
        who.address,
        sequence,
        Multisig(Address.parse(account), ef),
        200_000,
        100,
        int(ok(http.get("/"))["ledger_timestamp"]) // 1_000_000 + 600,
        chain_id,
    )
    return raw.sign(who.private_key)


def events(txn: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The framework's events of ``txn``: all but the VM's ``FeeStatement``, checked last."""
    *emitted, fee = txn["events"]
    assert fee["type"] == "0x1::transaction_fee::FeeStatement"
    return [(e["type"], e["data"]) for e in emitted]


def abort_of(txn: dict[str, Any]) -> str:
    assert txn["success"] is False
    status: str = txn["vm_status"]
    return status


def fund(http: httpx.Client, bank: Account, to: Address, amount: int) -> None:
    done = run(http, bank, "0x1::aptos_account::transfer", [("address", to), ("u64", amount)])
    assert done["success"], done["vm_status"]


def new_multisig(http: httpx.Client, owners: list[Account]) -> str:
    """A 2-of-3 multisig account made by ``owners[0]`` with the other two, metadata
    ``{"Example": BCS("SDK")}``; checked to be at the address its creator derives."""
    a, b, c = owners
    sequence = int(ok(http.get(f"/accounts/{a.address}"))["sequence_number"])
    address = expected_address(a.address, sequence)
    assert view(http, "get_next_multisig_account_address", str(a.address)) == [address]
    done = call(
        http,
        a,
        "create_with_owners",
        ("vector<address>", [b.address, c.address]),
        ("u64", 2),
        (STRINGS, ["Example"]),
        ("vector<vector<u8>>", [b"\x03SDK"]),
    )
    assert done["success"], done["vm_status"]
    assert events(done) == []  # no event at creation
    return address


def multisig_fixtures(seed: int) -> tuple[Callable[..., Any], ...]:
    """The fixtures of a test module of multisig accounts, on a node of its own of
    ``seed``: ``msig_node, http, owners, account = multisig_fixtures(SEED)``."""

    @pytest.fixture(scope="module")
    def msig_node(make_node: Any) -> LocalNode:
        node: LocalNode = make_node(seed=seed, blocks=3, services=False)
        return node

    @pytest.fixture(scope="module")
    def http(msig_node: LocalNode) -> Iterator[httpx.Client]:
        with httpx.Client(base_url=msig_node.url, timeout=30.0) as client:
            yield client

    @pytest.fixture(scope="module")
    def owners(http: httpx.Client, msig_node: LocalNode) -> list[Account]:
        """Three new accounts with 1 APT each."""
        made = [Account.generate() for _ in range(3)]
        for account in made:
            fund(http, msig_node.dev_accounts[0], account.address, 100_000_000)
        return made

    @pytest.fixture
    def account(http: httpx.Client, owners: list[Account]) -> str:
        """A new 2-of-3 multisig account created by owner 0 with owners 1 and 2."""
        return new_multisig(http, owners)

    return msig_node, http, owners, account
