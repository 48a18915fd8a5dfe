"""The node over HTTP, reading transactions: the listing, by version, by hash, waiting,
an account's transactions and auxiliary info, with the shapes of every transaction type."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from node_http_helpers import (
    assert_error,
    assert_headers,
    is_address,
    is_hash,
    is_hex_bytes,
    is_u64,
    ledger_version,
    ok,
)

UNKNOWN_HASH = "0x" + "ab" * 32
COMMON = {
    "version",
    "hash",
    "state_change_hash",
    "event_root_hash",
    "gas_used",
    "success",
    "vm_status",
    "accumulator_root_hash",
    "changes",
    "type",
}  # and state_checkpoint_hash, which may be absent or null
CHANGE_FIELDS = {
    "write_resource": {"address", "state_key_hash", "data"},
    "delete_resource": {"address", "state_key_hash", "resource"},
    "write_module": {"address", "state_key_hash", "data"},
    "delete_module": {"address", "state_key_hash", "module"},
    "write_table_item": {"state_key_hash", "handle", "key", "value"},
    "delete_table_item": {"state_key_hash", "handle", "key"},
}


def all_transactions(http: httpx.Client) -> list[dict[str, Any]]:
    latest = ledger_version(http)
    out: list[dict[str, Any]] = []
    while len(out) <= latest:
        out.extend(ok(http.get("/transactions", params={"start": len(out), "limit": "100"})))
    return out[: latest + 1]


def first_of(http: httpx.Client, kind: str, **match: Any) -> dict[str, Any]:
    for txn in all_transactions(http):
        if txn["type"] == kind and all(txn.get(k) == v for k, v in match.items()):
            return txn
    raise AssertionError(f"no {kind} {match} on the chain")


def assert_common(txn: dict[str, Any]) -> None:
    assert set(txn) >= COMMON, COMMON - set(txn)
    assert is_u64(txn["version"])
    assert is_u64(txn["gas_used"])
    for name in ("hash", "state_change_hash", "event_root_hash", "accumulator_root_hash"):
        assert is_hash(txn[name]), name
    checkpoint = txn.get("state_checkpoint_hash")
    assert checkpoint is None or is_hash(checkpoint)
    assert isinstance(txn["success"], bool)
    assert isinstance(txn["vm_status"], str)
    for change in txn["changes"]:
        assert_change(change)


def assert_change(change: dict[str, Any]) -> None:
    kind = change["type"]
    assert kind in CHANGE_FIELDS, kind
    assert set(change) - {"type", "data"} >= CHANGE_FIELDS[kind] - {"data"}
    assert CHANGE_FIELDS[kind] <= set(change)
    assert is_hash(change["state_key_hash"])
    if "address" in change:
        assert is_address(change["address"])
    if kind == "write_resource":
        assert set(change["data"]) == {"type", "data"}
    if kind == "write_module":
        assert is_hex_bytes(change["data"]["bytecode"])
    if kind == "write_table_item":
        assert is_address(change["handle"])
        assert is_hex_bytes(change["key"])
        assert is_hex_bytes(change["value"])


def assert_event(event: dict[str, Any]) -> None:
    assert {"guid", "sequence_number", "type", "data"} <= set(event)
    assert is_u64(event["guid"]["creation_number"])
    assert is_address(event["guid"]["account_address"])
    assert is_u64(event["sequence_number"])


def assert_user_transaction(txn: dict[str, Any]) -> None:
    assert txn["type"] == "user_transaction"
    assert_common(txn)
    assert is_address(txn["sender"])
    for name in (
        "sequence_number",
        "max_gas_amount",
        "gas_unit_price",
        "expiration_timestamp_secs",
        "timestamp",
    ):
        assert is_u64(txn[name]), name
    payload = txn["payload"]
    assert payload["type"] == "entry_function_payload"
    assert payload["function"].count("::") == 2
    assert isinstance(payload["type_arguments"], list)
    assert isinstance(payload["arguments"], list)
    signature = txn["signature"]
    assert signature["type"] == "ed25519_signature"
    assert is_hex_bytes(signature["public_key"])
    assert len(signature["public_key"]) == 2 + 64
    assert len(signature["signature"]) == 2 + 128
    for event in txn["events"]:
        assert_event(event)


# -- the listing --------------------------------------------------------------------------------


def test_listing_defaults_to_the_latest_25(http: httpx.Client) -> None:
    response = http.get("/transactions")
    txns = ok(response)
    latest = assert_headers(response)["X-NODE-LEDGER-VERSION"]
    assert len(txns) == 25
    assert [int(t["version"]) for t in txns] == list(range(latest - 24, latest + 1))


def test_listing_clamps_the_limit_to_100(http: httpx.Client) -> None:
    assert len(ok(http.get("/transactions", params={"start": "0", "limit": "1000"}))) == 100
    assert len(ok(http.get("/transactions", params={"limit": "1000"}))) == 100


def test_listing_from_a_start(http: httpx.Client) -> None:
    txns = ok(http.get("/transactions", params={"start": "3", "limit": "5"}))
    assert [t["version"] for t in txns] == ["3", "4", "5", "6", "7"]
    assert txns[0] == ok(http.get("/transactions/by_version/3"))


def test_listing_of_the_last_version_is_one_transaction(http: httpx.Client) -> None:
    latest = ledger_version(http)
    txns = ok(http.get("/transactions", params={"start": str(latest), "limit": "10"}))
    assert [t["version"] for t in txns] == [str(latest)]


@pytest.mark.parametrize(
    ("params", "codes"),
    [
        ({"start": "99999999"}, ("invalid_input",)),
        ({"limit": "0"}, ("invalid_input",)),
        ({"limit": "abc"}, ("invalid_input", "web_framework_error")),
        ({"limit": "65536"}, ("invalid_input", "web_framework_error")),
        ({"start": "abc"}, ("invalid_input", "web_framework_error")),
    ],
)
def test_listing_refuses_bad_paging(
    http: httpx.Client, params: dict[str, str], codes: tuple[str, ...]
) -> None:
    assert_error(http.get("/transactions", params=params), 400, *codes)


# -- by version ------------------------------------------------------------------------------------


def test_version_0_is_genesis(http: httpx.Client) -> None:
    genesis = ok(http.get("/transactions/by_version/0"))
    assert genesis["type"] == "genesis_transaction"
    assert_common(genesis)
    assert genesis["version"] == "0"
    assert genesis["payload"]["type"] == "write_set_payload"
    write_set = genesis["payload"]["write_set"]
    assert write_set["type"] == "direct_write_set"
    kinds = {c["type"] for c in genesis["changes"]}
    assert {"write_module", "write_resource"} <= kinds
    assert isinstance(genesis["events"], list)


def test_block_metadata_transaction(http: httpx.Client) -> None:
    txn = ok(http.get("/transactions/by_version/1"))
    assert txn["type"] == "block_metadata_transaction"
    assert_common(txn)
    assert is_hash(txn["id"])
    assert is_u64(txn["epoch"])
    assert is_u64(txn["round"])
    assert is_u64(txn["timestamp"])
    assert is_address(txn["proposer"])
    assert all(isinstance(b, int) and 0 <= b <= 255 for b in txn["previous_block_votes_bitvec"])
    assert all(isinstance(i, int) for i in txn["failed_proposer_indices"])
    assert [e["type"] for e in txn["events"]] == ["0x1::block::NewBlockEvent"]
    block = ok(http.get("/blocks/by_version/1"))
    assert txn["id"] == block["block_hash"]


def test_every_block_ends_with_a_checkpoint(http: httpx.Client) -> None:
    """A block's last transaction is its state checkpoint (an epilogue on newer nodes)."""
    for height in (1, 2, 10):
        block = ok(http.get(f"/blocks/by_height/{height}"))
        last = ok(http.get(f"/transactions/by_version/{block['last_version']}"))
        assert last["type"] in ("state_checkpoint_transaction", "block_epilogue_transaction")
        assert_common(last)
        assert is_hash(last["state_checkpoint_hash"])
        assert last["timestamp"] == block["block_timestamp"]
        if last["type"] == "block_epilogue_transaction":
            info = last["block_end_info"]
            assert isinstance(info["block_gas_limit_reached"], bool)
            for name in ("block_effective_block_gas_units", "block_approx_output_size"):
                assert isinstance(info[name], int)  # integers here, as in the reference


def test_user_transaction_shape(http: httpx.Client) -> None:
    txn = first_of(http, "user_transaction", success=True)
    assert_user_transaction(txn)
    assert txn["vm_status"] == "Executed successfully"
    assert txn["changes"], "a successful transaction changes state"
    assert int(txn["gas_used"]) > 0


def test_failed_user_transactions_say_why(http: httpx.Client) -> None:
    txn = first_of(http, "user_transaction", success=False)
    assert_user_transaction(txn)
    assert txn["vm_status"] != "Executed successfully"
    assert txn["vm_status"]


def test_table_writes_have_their_shape(http: httpx.Client) -> None:
    for txn in all_transactions(http):
        tables = [c for c in txn["changes"] if c["type"] == "write_table_item"]
        if tables:
            for change in tables:
                assert_change(change)
            return
    raise AssertionError("no table write on the generated chain")


def test_version_beyond_the_latest_is_404(http: httpx.Client) -> None:
    beyond = ledger_version(http) + 1
    response = http.get(f"/transactions/by_version/{beyond}")
    assert_error(response, 404, "transaction_not_found")
    assert_error(http.get(f"/transactions/by_version/{2**64 - 1}"), 404, "transaction_not_found")


@pytest.mark.parametrize("version", ["abc", "-1", "1.0", str(2**64), "0x10"])
def test_malformed_version_is_400(http: httpx.Client, version: str) -> None:
    assert_error(http.get(f"/transactions/by_version/{version}"), 400, "invalid_input")


# -- by hash, waiting -----------------------------------------------------------------------------


def test_by_hash_and_wait_by_hash_find_the_committed_transaction(http: httpx.Client) -> None:
    txn = first_of(http, "user_transaction", success=True)
    assert ok(http.get(f"/transactions/by_hash/{txn['hash']}")) == txn
    assert ok(http.get(f"/transactions/by_hash/{txn['hash'][2:]}")) == txn
    assert ok(http.get(f"/transactions/wait_by_hash/{txn['hash']}")) == txn
    genesis = ok(http.get("/transactions/by_version/0"))
    assert ok(http.get(f"/transactions/by_hash/{genesis['hash']}")) == genesis


@pytest.mark.parametrize("bad", ["0x12", "zz", "0x" + "g" * 64, "0x" + "ab" * 33])
def test_malformed_hash_is_400(http: httpx.Client, bad: str) -> None:
    assert_error(http.get(f"/transactions/by_hash/{bad}"), 400, "invalid_input")
    assert_error(http.get(f"/transactions/wait_by_hash/{bad}"), 400, "invalid_input")


def test_unknown_hash_is_404(http: httpx.Client) -> None:
    assert_error(http.get(f"/transactions/by_hash/{UNKNOWN_HASH}"), 404, "transaction_not_found")
    waited = http.get(f"/transactions/wait_by_hash/{UNKNOWN_HASH}")
    assert_error(waited, 404, "transaction_not_found")


# -- an account's transactions -----------------------------------------------------------------


def busiest_sender(http: httpx.Client) -> str:
    counts: dict[str, int] = {}
    for txn in all_transactions(http):
        if txn["type"] == "user_transaction":
            counts[txn["sender"]] = counts.get(txn["sender"], 0) + 1
    return max(counts, key=lambda s: counts[s])


def test_account_transactions_are_its_own_in_sequence(http: httpx.Client) -> None:
    sender = busiest_sender(http)
    # Public nodes list an account's sequence-numbered transactions here, not its
    # orderless ones (those carry a replay_protection_nonce).
    mine = [
        t
        for t in all_transactions(http)
        if t["type"] == "user_transaction"
        and t["sender"] == sender
        and "replay_protection_nonce" not in t
    ]
    listed = ok(http.get(f"/accounts/{sender}/transactions"))
    assert listed == mine[:25]
    sequence = [int(t["sequence_number"]) for t in listed]
    assert sequence == sorted(sequence)
    assert all(t["sender"] == sender for t in listed)


def test_account_transactions_page_by_sequence_number(http: httpx.Client) -> None:
    sender = busiest_sender(http)
    listed = ok(http.get(f"/accounts/{sender}/transactions", params={"limit": "100"}))
    assert len(listed) >= 2
    second = int(listed[1]["sequence_number"])
    page = ok(http.get(f"/accounts/{sender}/transactions", params={"start": second, "limit": 1}))
    assert page == [listed[1]]


def test_account_transactions_of_an_unknown_account_is_404(http: httpx.Client) -> None:
    response = http.get(f"/accounts/0x{'ab' * 32}/transactions")
    assert_error(response, 404, "account_not_found")
    assert_error(http.get("/accounts/0xzz/transactions"), 400, "invalid_input")
    assert_error(http.get("/accounts/0x1/transactions", params={"limit": "0"}), 400)


# -- auxiliary info --------------------------------------------------------------------------------


def test_auxiliary_info_needs_start_version(http: httpx.Client) -> None:
    body = assert_error(http.get("/transactions/auxiliary_info"), 400, "invalid_input")
    assert "start_version" in body["message"]


def test_auxiliary_info_gives_the_index_in_the_block(http: httpx.Client) -> None:
    for height in (0, 1, 2, 5):
        block = ok(http.get(f"/blocks/by_height/{height}"))
        first, last = int(block["first_version"]), int(block["last_version"])
        count = last - first + 1
        info = ok(
            http.get(
                "/transactions/auxiliary_info",
                params={"start_version": first, "limit": count},
            )
        )
        assert info == [{"transaction_index": i} for i in range(count)]


def test_auxiliary_info_pages(http: httpx.Client) -> None:
    info = ok(http.get("/transactions/auxiliary_info", params={"start_version": "0"}))
    assert len(info) == 25
    assert all(isinstance(i["transaction_index"], int) for i in info)
    clamped = http.get("/transactions/auxiliary_info", params={"start_version": 0, "limit": 1000})
    assert len(ok(clamped)) == 100


@pytest.mark.parametrize(
    "params",
    [
        {"start_version": "abc"},
        {"start_version": "99999999"},
        {"start_version": "0", "limit": "0"},
        {"start_version": "0", "limit": "abc"},
    ],
)
def test_auxiliary_info_refuses_bad_input(http: httpx.Client, params: dict[str, str]) -> None:
    response = http.get("/transactions/auxiliary_info", params=params)
    assert_error(response, 400, "invalid_input", "web_framework_error")
