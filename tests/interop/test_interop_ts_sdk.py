"""The official TypeScript SDK (@aptos-labs/ts-sdk 6.3 and 7.3, pinned in
ts/package-lock.json) against the embedded node: it reads, pages, simulates, submits and waits
as against a public node.

``ts/scenarios.mjs`` runs one scenario group per ``node`` process and prints a JSON object of
step results: the read group runs once for the module and release, each transfer test runs
its own. Every test runs under both releases (the ``ts`` fixture), 7.3 under Node.js 22+.
The tests skip where no ``node`` new enough is found, except in CI (``CI=true``), where that
or a missing ``ts/node_modules`` fails them: ``make test`` installs both releases with
``npm ci``.
"""

from __future__ import annotations

from typing import Any, Final

import httpx
import pytest
from ts_sdks import TsRunner, value

from ledgerkit.localnet import LocalNode

pytestmark = [pytest.mark.interop, pytest.mark.timeout(900)]

#: Bound on one scenario group (the script stops itself after 90 s).
RUN_TIMEOUT_SECONDS: Final = 150
APT: Final = "0x1::aptos_coin::AptosCoin"
GENESIS_BALANCE: Final = 100_000_000_000_000
CHAIN_ID: Final = 4


def run_group(
    ts: TsRunner, node: LocalNode, group: str, *args: str, key: str | None = None
) -> dict[str, Any]:
    """Run one scenario group of ``scenarios.mjs``; returns its step results by name."""
    return ts.run("scenarios.mjs", group, node.url, *args, timeout=RUN_TIMEOUT_SECONDS, key=key)


def raw(http: httpx.Client, path: str, **params: Any) -> Any:
    answer = http.get(path, params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()


def raw_balance(http: httpx.Client, address: object) -> int:
    return int(raw(http, f"/accounts/{address}/balance/{APT}"))


# -- reads -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def reads(ts: TsRunner, node: LocalNode, dev: list[Any], busy_sender: str) -> dict[str, Any]:
    return run_group(ts, node, "read", str(dev[7].address), busy_sender)


def test_ledger_info_and_chain_id(reads: dict[str, Any], http: httpx.Client) -> None:
    info = value(reads, "ledger_info")
    expected = raw(http, "/")
    # Other tests add blocks, and the chain clock moves the epoch on.
    moving = {"epoch", "ledger_version", "ledger_timestamp", "block_height"}
    assert {k: v for k, v in info.items() if k not in moving} == {
        k: v for k, v in expected.items() if k not in moving
    }
    assert info["chain_id"] == CHAIN_ID
    assert value(reads, "chain_id") == CHAIN_ID


def test_account_and_resource(reads: dict[str, Any], dev: list[Any]) -> None:
    address = str(dev[7].address)
    assert value(reads, "account") == {"sequence_number": "0", "authentication_key": address}
    resource = value(reads, "account_resource")
    assert resource["authentication_key"] == address
    assert resource["sequence_number"] == "0"


def test_original_address_of_an_unrotated_key(reads: dict[str, Any], dev: list[Any]) -> None:
    """The SDK looks the key up in ``0x1::account::OriginatingAddress``; a key never rotated
    is not in its table, and the SDK then answers the address the key derives."""
    assert value(reads, "original_address") == str(dev[7].address)


def test_resources_are_paged_by_the_cursor(reads: dict[str, Any], http: httpx.Client) -> None:
    """The SDK follows ``x-aptos-cursor``; 0x1's resources at two a page take several pages."""
    expected = [r["type"] for r in raw(http, "/accounts/0x1/resources")]
    assert len(expected) > 2
    assert value(reads, "resources_all") == expected
    pages = value(reads, "resources_pages")
    assert len(pages) > 1, f"the SDK stopped after page one ({pages}): no x-aptos-cursor header"
    assert [len(page) for page in pages[:-1]] == [2] * (len(pages) - 1)
    assert [t for page in pages for t in page] == expected


def test_modules_are_paged_by_the_cursor(reads: dict[str, Any], http: httpx.Client) -> None:
    expected = [m["abi"]["name"] for m in raw(http, "/accounts/0x1/modules")]
    assert len(expected) > 5
    assert value(reads, "modules_all") == expected
    pages = value(reads, "modules_pages")
    assert len(pages) > 1, f"the SDK stopped after page one ({pages}): no x-aptos-cursor header"
    assert [t for page in pages for t in page] == expected
    assert max(len(page) for page in pages) <= 5
    module = value(reads, "module")
    assert module["name"] == "coin"
    assert "balance" in module["functions"]


def test_transactions_and_account_transactions_pages(
    reads: dict[str, Any], busy_sender: str
) -> None:
    assert value(reads, "transactions_pages") == [
        ["1", "2", "3", "4", "5"],
        ["6", "7", "8", "9", "10"],
    ]
    assert value(reads, "account_transactions_pages") == [
        [{"sender": busy_sender, "sequence_number": "0"}],
        [{"sender": busy_sender, "sequence_number": "1"}],
    ]


def test_transaction_by_version_and_by_hash(
    reads: dict[str, Any], http: httpx.Client, busy_sender: str
) -> None:
    first = raw(http, f"/accounts/{busy_sender}/transactions", start=0, limit=1)[0]
    expected = {
        "type": "user_transaction",
        "version": first["version"],
        "hash": first["hash"],
        "success": first["success"],
        "vm_status": first["vm_status"],
        "sender": busy_sender,
        "sequence_number": "0",
        "gas_used": first["gas_used"],
        "gas_unit_price": first["gas_unit_price"],
        "max_gas_amount": first["max_gas_amount"],
        "events": [e["type"] for e in first["events"]],
        "signature": first["signature"]["type"],
    }
    assert value(reads, "account_transaction_first") == expected
    assert value(reads, "transaction_by_version") == expected
    assert value(reads, "transaction_by_hash") == expected


def test_events_by_handle_and_creation_number(reads: dict[str, Any], http: httpx.Client) -> None:
    expected = [
        {"sequence_number": e["sequence_number"], "type": e["type"]}
        for e in raw(
            http,
            "/accounts/0x1/events/0x1::block::BlockResource/new_block_events",
            start=0,
            limit=6,
        )
    ]
    assert [e["sequence_number"] for e in expected] == ["0", "1", "2", "3", "4", "5"]
    assert {e["type"] for e in expected} == {"0x1::block::NewBlockEvent"}
    for name in ("events_by_handle", "events_by_creation_number"):
        assert value(reads, name) == [expected[:3], expected[3:]], name


def test_block_with_its_transactions(reads: dict[str, Any], http: httpx.Client) -> None:
    block = raw(http, "/blocks/by_height/1", with_transactions="true")
    assert value(reads, "block") == {
        "block_height": "1",
        "first_version": block["first_version"],
        "last_version": block["last_version"],
        "transactions": [t["version"] for t in block["transactions"]],
    }


def test_view_functions_and_balance(reads: dict[str, Any]) -> None:
    assert value(reads, "view_bcs") == [str(GENESIS_BALANCE)]
    assert value(reads, "view_json") == [str(GENESIS_BALANCE)]
    assert value(reads, "view_chain_id") == [CHAIN_ID]
    assert value(reads, "balance") == GENESIS_BALANCE


def test_gas_estimate(reads: dict[str, Any], http: httpx.Client) -> None:
    estimate = value(reads, "gas_estimate")
    assert set(estimate) == set(raw(http, "/estimate_gas_price"))
    low, mid, high = (
        estimate["deprioritized_gas_estimate"],
        estimate["gas_estimate"],
        estimate["prioritized_gas_estimate"],
    )
    assert 0 < low <= mid <= high


# -- writes ----------------------------------------------------------------------------------

#: What scenarios.mjs gives each fresh single-key account: 10 APT.
FUNDING: Final = 1_000_000_000


def check_transfer(
    results: dict[str, Any],
    http: httpx.Client,
    *,
    prefix: str = "",
    sender: str,
    recipient: str,
    amount: int,
    before: tuple[int, int, int],
) -> dict[str, Any]:
    """The steps of one transfer: built, simulated, submitted, waited for, and the balances
    moved by exactly the amount and the fee. Returns the committed transaction."""
    sender_before, recipient_before, sequence_before = before
    assert value(results, f"{prefix}before") == {
        "sender": str(sender_before),
        "recipient": str(recipient_before),
    }
    built = value(results, f"{prefix}build")
    assert built["sequence_number"] == str(sequence_before)
    assert built["chain_id"] == CHAIN_ID
    for step in ("simulate", "simulate_estimated"):
        simulated = value(results, f"{prefix}{step}")
        assert simulated["success"] is True, (step, simulated["vm_status"])
        assert simulated["vm_status"] == "Executed successfully"
        assert int(simulated["gas_used"]) > 0
        assert simulated["sender"] == sender
    submitted = value(results, f"{prefix}submit")
    committed = raw(http, f"/transactions/by_hash/{submitted['hash']}")
    assert committed["type"] == "user_transaction"
    assert committed["success"] is True, committed["vm_status"]
    assert committed["sender"] == sender
    assert committed["payload"]["function"] == "0x1::aptos_account::transfer"
    assert committed["payload"]["arguments"] == [recipient, str(amount)]
    waited = value(results, f"{prefix}wait")
    assert waited["hash"] == submitted["hash"]
    assert waited["version"] == committed["version"]
    assert waited["success"] is True
    fee = int(committed["gas_used"]) * int(committed["gas_unit_price"])
    assert value(results, f"{prefix}after") == {
        "sender": str(sender_before - amount - fee),
        "recipient": str(recipient_before + amount),
    }
    assert raw_balance(http, sender) == sender_before - amount - fee
    assert value(results, f"{prefix}account_after")["sequence_number"] == str(sequence_before + 1)
    committed_txn: dict[str, Any] = committed
    return committed_txn


def before_transfer(http: httpx.Client, sender: object, recipient: object) -> tuple[int, int, int]:
    sequence = int(raw(http, f"/accounts/{sender}")["sequence_number"])
    return raw_balance(http, sender), raw_balance(http, recipient), sequence


def test_build_simulate_sign_submit_wait_with_a_hex_key(
    ts: TsRunner, node: LocalNode, http: httpx.Client, dev: list[Any]
) -> None:
    sender, recipient = str(dev[2].address), str(dev[3].address)
    before = before_transfer(http, sender, recipient)
    key = dev[2].private_key.secret_hex()
    results = run_group(ts, node, "submit", recipient, "12345", key=key)
    assert value(results, "signer") == {"address": sender}
    check_transfer(results, http, sender=sender, recipient=recipient, amount=12345, before=before)
    assert raw_balance(http, recipient) == before[1] + 12345


def test_build_simulate_sign_submit_wait_with_an_aip80_key(
    ts: TsRunner, node: LocalNode, http: httpx.Client, dev: list[Any]
) -> None:
    """AIP-80 (``ed25519-priv-0x...``) is the form the SDK prints and expects keys in."""
    sender, recipient = str(dev[4].address), str(dev[3].address)
    before = before_transfer(http, sender, recipient)
    aip80 = f"ed25519-priv-{dev[4].private_key.secret_hex()}"
    results = run_group(ts, node, "submit", recipient, "777", key=aip80)
    assert value(results, "signer") == {"address": sender}
    check_transfer(results, http, sender=sender, recipient=recipient, amount=777, before=before)
    assert raw_balance(http, recipient) == before[1] + 777


@pytest.fixture(scope="module")
def single_key(ts: TsRunner, node: LocalNode, dev: list[Any]) -> dict[str, Any]:
    """Fresh SingleKey accounts (Ed25519, secp256k1 ECDSA) funded by dev account 3, each
    sending 1,000 octas to dev account 2."""
    key = dev[3].private_key.secret_hex()
    return run_group(ts, node, "single_key", str(dev[2].address), "1000", key=key)


@pytest.mark.parametrize("scheme", ["ed25519", "secp256k1"])
def test_single_key_accounts_transfer(
    single_key: dict[str, Any], http: httpx.Client, dev: list[Any], scheme: str
) -> None:
    """The SDK signs a SingleKey account's transactions with ``single_sender``
    authenticators; the node verifies them (secp256k1: SHA3-256 prehash, low-S)."""
    prefix = f"{scheme}_"
    funded = value(single_key, f"{prefix}fund")
    assert funded["success"] is True
    sender = funded["address"]
    recipient_before = int(value(single_key, f"{prefix}before")["recipient"])
    committed = check_transfer(
        single_key,
        http,
        prefix=prefix,
        sender=sender,
        recipient=str(dev[2].address),
        amount=1000,
        before=(FUNDING, recipient_before, 0),
    )
    assert committed["signature"]["type"] == "single_sender"
    assert value(single_key, f"{prefix}wait")["signature"] == "single_sender"
