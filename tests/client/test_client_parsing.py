"""Every endpoint's answer, read through ``httpx.MockTransport``: the request the client
sends, the typed value it returns, and the ledger metadata on every result.

Bodies are shaped like a public Aptos node's; each is served once with our ``X-NODE-*``
headers and once with Aptos' ``X-APTOS-*``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from typing import Any

import httpx
import pytest
from client_fakes import (
    ACCOUNT,
    ACCOUNT_RESOURCE,
    ADDRESS,
    COIN_STORE,
    GAS_ESTIMATE,
    HASH,
    LEDGER_INFO,
    META,
    MODULE,
    PENDING,
    SUBMITTED,
    FakeNode,
    answer,
    block,
    block_metadata_transaction,
    event,
    simulated_user_transaction,
    user_transaction,
    with_cursor,
)

from ledgerkit import DecodingError, InputError, VMError
from ledgerkit.bcs import EntryFunction, RawTransaction
from ledgerkit.client import Client, Result
from ledgerkit.models import (
    AccountData,
    AuxiliaryInfo,
    Block,
    BlockMetadataTransaction,
    GasEstimate,
    HealthStatus,
    LedgerInfo,
    MoveModuleBytecode,
    MoveResource,
    PendingTransaction,
    UserTransaction,
)
from ledgerkit.tx import Ed25519PrivateKey
from ledgerkit.types import Address, LedgerMeta

PREFIXES = ["X-NODE-", "X-APTOS-"]
COIN_STORE_TAG = "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>"
ENCODED_COIN_STORE = "0x1%3A%3Acoin%3A%3ACoinStore%3C0x1%3A%3Aaptos_coin%3A%3AAptosCoin%3E"
KEY = Ed25519PrivateKey.from_seed(b"client tests")


def signed_transfer() -> Any:
    payload = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", ADDRESS), ("u64", 100)]
    )
    raw = RawTransaction(KEY.address(), 9, payload, 2000, 100, 1_700_000_600, 2)
    return raw, KEY.sign_transaction(raw)


def serve(
    prefix: str, method: str, path: str, body: Any, **options: Any
) -> tuple[FakeNode, Client]:
    node = FakeNode()
    node.on(method, path, answer(body, prefix=prefix, **options))
    return node, node.client()


def only_request(node: FakeNode) -> httpx.Request:
    assert len(node.requests) == 1
    return node.requests[0]


@pytest.mark.parametrize("prefix", PREFIXES)
def test_ledger_info_and_its_metadata(prefix: str) -> None:
    node, client = serve(prefix, "GET", "/", LEDGER_INFO)
    info, ledger = client.ledger_info()
    assert isinstance(info, LedgerInfo)
    assert (info.chain_id, info.ledger_version, info.node_role) == (2, 5000, "full_node")
    assert ledger == META
    request = only_request(node)
    assert request.headers["accept"] == "application/json"
    assert str(request.url) == "http://node.test/v1/"


@pytest.mark.parametrize("prefix", PREFIXES)
def test_health_with_and_without_duration(prefix: str) -> None:
    node, client = serve(prefix, "GET", "/-/healthy", {"message": "aptos-node:ok"})
    assert client.health().value == HealthStatus(message="aptos-node:ok")
    result = client.health(duration_secs=30)
    assert result.ledger == META
    assert node.requests[-1].url.params["duration_secs"] == "30"


@pytest.mark.parametrize("prefix", PREFIXES)
def test_account_keeps_a_u64_exact(prefix: str) -> None:
    node, client = serve(prefix, "GET", f"/accounts/{ADDRESS}", ACCOUNT)
    value, ledger = client.account(Address.parse(ADDRESS))
    assert isinstance(value, AccountData)
    assert value.sequence_number == 2**64 - 1
    assert ledger == META
    assert "ledger_version" not in only_request(node).url.params


@pytest.mark.parametrize("prefix", PREFIXES)
def test_resources_page_carries_the_cursor(prefix: str) -> None:
    meta = with_cursor(META, "0x00aa")
    node, client = serve(
        prefix, "GET", f"/accounts/{ADDRESS}/resources", [ACCOUNT_RESOURCE, COIN_STORE], meta=meta
    )
    page = client.account_resources(ADDRESS, limit=2, start="0x0011")
    assert [r.type for r in page.value] == ["0x1::account::Account", COIN_STORE_TAG]
    assert all(isinstance(r, MoveResource) for r in page.value)
    assert page.ledger.cursor == "0x00aa"
    assert dict(only_request(node).url.params) == {"limit": "2", "start": "0x0011"}


@pytest.mark.parametrize("prefix", PREFIXES)
def test_a_resource_by_struct_tag_is_percent_encoded_and_keeps_u128(prefix: str) -> None:
    path = f"/accounts/{ADDRESS}/resource/{COIN_STORE_TAG}"
    node, client = serve(prefix, "GET", path, COIN_STORE)
    # Spelled loosely (long address, spaces): sent in canonical form.
    loose = "0x0000000000000000000000000000000000000000000000000000000000000001::coin::CoinStore<"
    resource, ledger = client.account_resource(ADDRESS, loose + " 0x1::aptos_coin::AptosCoin >")
    assert resource.data["coin"]["value"] == str(2**128 - 1)
    assert ledger == META
    raw_path = only_request(node).url.raw_path.decode()
    assert raw_path == f"/v1/accounts/{ADDRESS}/resource/{ENCODED_COIN_STORE}"


@pytest.mark.parametrize("prefix", PREFIXES)
def test_resource_as_bcs(prefix: str) -> None:
    path = f"/accounts/{ADDRESS}/resource/0x1::account::Account"
    node, client = serve(
        prefix, "GET", path, None, raw=b"\x01\x02\x03", content_type="application/x-bcs"
    )
    result = client.account_resource_bcs(ADDRESS, "0x1::account::Account", ledger_version=10)
    assert result == Result(b"\x01\x02\x03", META)
    request = only_request(node)
    assert request.headers["accept"] == "application/x-bcs"
    assert request.url.params["ledger_version"] == "10"


@pytest.mark.parametrize("prefix", PREFIXES)
def test_modules_and_one_module_with_its_abi(prefix: str) -> None:
    node = FakeNode()
    node.on("GET", f"/accounts/{ADDRESS}/modules", answer([MODULE], prefix=prefix))
    node.on("GET", f"/accounts/{ADDRESS}/module/coin", answer(MODULE, prefix=prefix))
    client = node.client()
    [listed] = client.account_modules(ADDRESS).value
    module, ledger = client.account_module(ADDRESS, "coin")
    assert listed == module
    assert isinstance(module, MoveModuleBytecode)
    assert module.abi is not None
    assert module.abi.function("balance") is not None
    assert module.abi.structs[0].is_event is False  # an older node leaves it out
    assert ledger == META


@pytest.mark.parametrize("prefix", PREFIXES)
def test_module_bytecode_is_the_bcs_answer(prefix: str) -> None:
    path = f"/accounts/{ADDRESS}/module/coin"
    code = bytes.fromhex("a11ceb0b0600000001")
    node, client = serve(prefix, "GET", path, None, raw=code, content_type="application/x-bcs")
    assert client.account_module_bytecode(ADDRESS, "coin").value == code
    assert only_request(node).headers["accept"] == "application/x-bcs"


@pytest.mark.parametrize("prefix", PREFIXES)
def test_balance_is_an_exact_int_by_coin_type_or_by_metadata_address(prefix: str) -> None:
    big = 2**64 - 1  # beyond what a float holds
    node = FakeNode()
    coin = "0x1::aptos_coin::AptosCoin"
    node.on("GET", f"/accounts/{ADDRESS}/balance/{coin}", answer(None, raw=str(big).encode()))
    node.on("GET", f"/accounts/{ADDRESS}/balance/0xa", answer(5, prefix=prefix))
    client = node.client()
    assert client.account_balance(ADDRESS, coin).value == big
    assert client.account_balance(ADDRESS, "0xa", ledger_version=7).value == 5
    assert node.requests[-1].url.params["ledger_version"] == "7"


@pytest.mark.parametrize("prefix", PREFIXES)
def test_account_transactions(prefix: str) -> None:
    path = f"/accounts/{ADDRESS}/transactions"
    node, client = serve(prefix, "GET", path, [user_transaction(10), user_transaction(11)])
    txns, ledger = client.account_transactions(ADDRESS, start=9, limit=2)
    assert [t.version for t in txns] == [10, 11]
    assert all(isinstance(t, UserTransaction) for t in txns)
    assert ledger == META
    assert dict(only_request(node).url.params) == {"limit": "2", "start": "9"}


@pytest.mark.parametrize("prefix", PREFIXES)
def test_events_by_creation_number_and_by_handle(prefix: str) -> None:
    node = FakeNode()
    node.on("GET", f"/accounts/{ADDRESS}/events/2", answer([event(0), event(1)], prefix=prefix))
    handle_path = f"/accounts/{ADDRESS}/events/{COIN_STORE_TAG}/deposit_events"
    node.on("GET", handle_path, answer([event(1)], prefix=prefix))
    client = node.client()
    events, ledger = client.events_by_creation_number(ADDRESS, 2, start=0, limit=2)
    assert [(e.sequence_number, e.version, e.data["amount"]) for e in events] == [
        (0, 4000, "1000"),
        (1, 4001, "1001"),
    ]
    assert ledger == META
    [one] = client.events_by_handle(ADDRESS, COIN_STORE_TAG, "deposit_events").value
    assert one.guid.creation_number == 2
    assert node.requests[-1].url.raw_path.decode() == (
        f"/v1/accounts/{ADDRESS}/events/{ENCODED_COIN_STORE}/deposit_events"
    )


@pytest.mark.parametrize("prefix", PREFIXES)
def test_transactions_page_of_mixed_kinds(prefix: str) -> None:
    body = [block_metadata_transaction(100), user_transaction(101)]
    node, client = serve(prefix, "GET", "/transactions", body)
    txns, ledger = client.transactions(start=100, limit=2)
    assert dict(only_request(node).url.params) == {"limit": "2", "start": "100"}
    assert [type(t) for t in txns] == [BlockMetadataTransaction, UserTransaction]
    assert ledger == META


@pytest.mark.parametrize("prefix", PREFIXES)
def test_transaction_by_version_by_hash_and_pending(prefix: str) -> None:
    node = FakeNode()
    node.on("GET", "/transactions/by_version/101", answer(user_transaction(101), prefix=prefix))
    node.on("GET", f"/transactions/by_hash/{HASH}", answer(PENDING, prefix=prefix))
    client = node.client()
    txn, ledger = client.transaction_by_version(101)
    assert isinstance(txn, UserTransaction)
    assert txn.success
    assert txn.gas_used == 24
    assert ledger == META
    pending = client.transaction_by_hash(bytes.fromhex(HASH[2:])).value
    assert isinstance(pending, PendingTransaction)
    assert pending.hash == HASH


@pytest.mark.parametrize("prefix", PREFIXES)
def test_auxiliary_info_and_its_encryption_key_header(prefix: str) -> None:
    headers = {f"{prefix}TXN-ENCRYPTION-KEY": "0xbeef"}
    body = [{"transaction_index": 0}, {"transaction_index": 1}, {}]
    node, client = serve(prefix, "GET", "/transactions/auxiliary_info", body, headers=headers)
    items, ledger = client.transactions_auxiliary_info(4000, limit=3)
    assert items == [AuxiliaryInfo(transaction_index=0), AuxiliaryInfo(transaction_index=1),
                     AuxiliaryInfo(transaction_index=None)]  # fmt: skip
    assert ledger.txn_encryption_key == "0xbeef"
    assert dict(only_request(node).url.params) == {"limit": "3", "start_version": "4000"}


@pytest.mark.parametrize("prefix", PREFIXES)
def test_submit_sends_bcs_and_reads_the_pending_transaction(prefix: str) -> None:
    _, signed = signed_transfer()
    node, client = serve(prefix, "POST", "/transactions", SUBMITTED, status=202)
    pending, ledger = client.submit_transaction(signed)
    assert isinstance(pending, PendingTransaction)
    assert (pending.hash, pending.sequence_number, pending.gas_unit_price) == (HASH, 9, 100)
    assert ledger == META
    request = only_request(node)
    assert request.headers["content-type"] == "application/x.aptos.signed_transaction+bcs"
    assert request.content == signed.to_bcs()


@pytest.mark.parametrize("prefix", PREFIXES)
def test_simulate_a_raw_transaction_with_zero_signature_and_flags(prefix: str) -> None:
    raw, _ = signed_transfer()
    node, client = serve(
        prefix,
        "POST",
        "/transactions/simulate",
        [simulated_user_transaction(0)],
        meta=_gas(META, 24),
    )
    [simulated], ledger = client.simulate_transaction(
        raw, public_key=KEY.public_key, estimate_gas_unit_price=True, estimate_max_gas_amount=True
    )
    assert isinstance(simulated, UserTransaction)
    assert ledger.gas_used == 24
    request = only_request(node)
    assert dict(request.url.params) == {
        "estimate_gas_unit_price": "true",
        "estimate_max_gas_amount": "true",
    }
    # The body is the raw transaction with the real public key and 64 zero bytes.
    assert request.content.startswith(raw.to_bcs())
    assert request.content.endswith(KEY.public_key_bytes + b"\x40" + bytes(64))


@pytest.mark.parametrize("prefix", PREFIXES)
def test_submit_a_batch_sends_a_bcs_sequence_and_reads_the_failures(prefix: str) -> None:
    _, first = signed_transfer()
    second = KEY.sign_transaction(replace(first.raw, sequence_number=10))
    failure = {
        "error": {"message": "bad chain", "error_code": "vm_error", "vm_error_code": 23},
        "transaction_index": 1,
    }
    body = {"transaction_failures": [failure]}
    node, client = serve(prefix, "POST", "/transactions/batch", body, status=206)
    result, ledger = client.submit_batch_transactions([first, second])
    assert ledger == META
    [refused] = result.transaction_failures
    assert refused.transaction_index == 1
    assert refused.error["error_code"] == "vm_error"
    assert isinstance(refused.exception, VMError)
    assert (refused.exception.status, refused.exception.vm_error_code) == (400, 23)
    request = only_request(node)
    assert request.headers["content-type"] == "application/x.aptos.signed_transaction+bcs"
    assert request.content == b"\x02" + first.to_bcs() + second.to_bcs()


def test_a_batch_all_accepted_has_no_failures() -> None:
    _, signed = signed_transfer()
    _, client = serve(
        "X-APTOS-", "POST", "/transactions/batch", {"transaction_failures": []}, status=202
    )
    assert client.submit_batch_transactions([signed]).value.transaction_failures == []


@pytest.mark.parametrize("bad", [[], "not a list", [b"bytes"]])
def test_a_batch_that_is_not_a_list_of_signed_transactions_is_refused_unsent(bad: Any) -> None:
    node = FakeNode()
    with pytest.raises(InputError):
        node.client().submit_batch_transactions(bad)
    assert node.requests == []


def test_submit_and_simulate_answers_with_the_union_tag_are_taken_too() -> None:
    _, signed = signed_transfer()
    node = FakeNode()
    node.on("POST", "/transactions", answer(PENDING, status=202))
    node.on("POST", "/transactions/simulate", answer([user_transaction(0)]))
    client = node.client()
    assert client.submit_transaction(signed).value.hash == HASH
    [simulated_txn] = client.simulate_transaction(signed).value
    assert isinstance(simulated_txn, UserTransaction)
    assert simulated_txn.version == 0


@pytest.mark.parametrize("prefix", PREFIXES)
def test_encode_submission_decodes_the_hex_signing_message(prefix: str) -> None:
    call = EntryFunction.build("0x1::aptos_account::transfer", [], [("address", "0x2"), ("u64", 9)])
    raw = RawTransaction(Address.parse(ADDRESS), 9, call, 2_000, 100, 1_900_000_000, 4)
    message = hashlib.sha3_256(b"APTOS::RawTransaction").digest() + raw.to_bcs()
    node, client = serve(prefix, "POST", "/transactions/encode_submission", "0x" + message.hex())
    request = {"sender": ADDRESS, "sequence_number": "9", "payload": {"type": "x"}}
    encoded = client.encode_submission(request).value
    assert encoded.signing_message == message
    assert encoded.raw == raw
    assert encoded.request == request
    assert json.loads(only_request(node).content) == request


@pytest.mark.parametrize("prefix", PREFIXES)
def test_encode_submission_that_is_no_signing_message_is_a_decoding_error(prefix: str) -> None:
    _, client = serve(prefix, "POST", "/transactions/encode_submission", "0x00ff10")
    with pytest.raises(DecodingError, match="not a signing message"):
        client.encode_submission({"sender": ADDRESS})


@pytest.mark.parametrize("prefix", PREFIXES)
def test_table_items_by_json_key_and_by_bcs_key(prefix: str) -> None:
    handle = "0x" + "0c" * 32
    node = FakeNode()
    node.on("POST", f"/tables/{handle}/item", answer("340282366920938463463374607431768211455"))
    node.on(
        "POST",
        f"/tables/{handle}/raw_item",
        answer(None, raw=b"\x07", content_type="application/x-bcs", prefix=prefix),
    )
    client = node.client()
    value, ledger = client.table_item(handle, "address", "u128", Address.parse("0x1"))
    assert value == str(2**128 - 1)
    assert ledger == META
    assert json.loads(node.requests[0].content) == {
        "key_type": "address",
        "value_type": "u128",
        "key": "0x1",
    }
    assert client.raw_table_item(handle, b"\x01\x02", ledger_version=3).value == b"\x07"
    assert json.loads(node.requests[1].content) == {"key": "0x0102"}
    assert node.requests[1].headers["accept"] == "application/x-bcs"


@pytest.mark.parametrize("prefix", PREFIXES)
def test_gas_estimate(prefix: str) -> None:
    _, client = serve(prefix, "GET", "/estimate_gas_price", GAS_ESTIMATE)
    value, ledger = client.estimate_gas_price()
    assert value == GasEstimate(
        gas_estimate=100, deprioritized_gas_estimate=100, prioritized_gas_estimate=150
    )
    assert ledger == META


@pytest.mark.parametrize("prefix", PREFIXES)
def test_view_in_json_and_in_bcs(prefix: str) -> None:
    node = FakeNode()
    node.on("POST", "/view", lambda request: _view_answer(request, prefix))
    client = node.client()
    values, ledger = client.view_json(
        "0x1::coin::balance", ["0x1::aptos_coin::AptosCoin"], [ADDRESS], ledger_version=12
    )
    assert values == ["18446744073709551615"]
    assert ledger.gas_used == 5
    assert json.loads(node.requests[0].content) == {
        "function": "0x1::coin::balance",
        "type_arguments": ["0x1::aptos_coin::AptosCoin"],
        "arguments": [ADDRESS],
    }
    assert node.requests[0].url.params["ledger_version"] == "12"
    call = EntryFunction.build("0x1::coin::balance", ["0x1::aptos_coin::AptosCoin"],
                               [("address", ADDRESS)])  # fmt: skip
    assert client.view_bcs(call).value == b"\x01" + (2**64 - 1).to_bytes(8, "little")
    assert node.requests[1].headers["content-type"] == "application/x.aptos.view_function+bcs"
    assert node.requests[1].content == call.to_bcs()


def _view_answer(request: httpx.Request, prefix: str) -> httpx.Response:
    meta = _gas(META, 5)
    if request.headers["accept"] == "application/x-bcs":
        raw = b"\x01" + (2**64 - 1).to_bytes(8, "little")
        return answer(None, raw=raw, content_type="application/x-bcs", meta=meta, prefix=prefix)
    return answer(["18446744073709551615"], meta=meta, prefix=prefix)


@pytest.mark.parametrize("prefix", PREFIXES)
def test_blocks_by_height_and_by_version(prefix: str) -> None:
    node = FakeNode()
    node.on("GET", "/blocks/by_height/50", lambda r: answer(
        block(50, 200, 203, with_transactions=4 if "with_transactions" in r.url.params else None),
        prefix=prefix,
    ))  # fmt: skip
    node.on("GET", "/blocks/by_version/201", answer(block(50, 200, 203), prefix=prefix))
    client = node.client()
    plain, ledger = client.block_by_height(50)
    assert isinstance(plain, Block)
    assert plain.transactions is None
    assert ledger == META
    full = client.block_by_height(50, with_transactions=True).value
    assert full.transactions is not None
    assert [t.version for t in full.transactions] == [200, 201, 202, 203]  # type: ignore[union-attr]
    assert node.requests[1].url.params["with_transactions"] == "true"
    assert client.block_by_version(201).value == plain


# -- ledger_version on every read that takes it ------------------------------------------------


READS_AT_A_VERSION = [
    ("account", (ADDRESS,), f"/accounts/{ADDRESS}", ACCOUNT),
    ("account_resources", (ADDRESS,), f"/accounts/{ADDRESS}/resources", []),
    ("iter_account_resources", (ADDRESS,), f"/accounts/{ADDRESS}/resources", []),
    ("account_resource", (ADDRESS, "0x1::account::Account"),
     f"/accounts/{ADDRESS}/resource/0x1::account::Account", ACCOUNT_RESOURCE),
    ("account_modules", (ADDRESS,), f"/accounts/{ADDRESS}/modules", []),
    ("iter_account_modules", (ADDRESS,), f"/accounts/{ADDRESS}/modules", []),
    ("account_module", (ADDRESS, "coin"), f"/accounts/{ADDRESS}/module/coin", MODULE),
    ("account_balance", (ADDRESS, "0x1::aptos_coin::AptosCoin"),
     f"/accounts/{ADDRESS}/balance/0x1::aptos_coin::AptosCoin", 1),
    ("table_item", ("0x1", "u8", "u8", 1), "/tables/0x1/item", 2),
    ("view_json", ("0x1::m::f",), "/view", []),
]  # fmt: skip


@pytest.mark.parametrize(("method", "args", "path", "body"), READS_AT_A_VERSION)
def test_every_read_takes_a_ledger_version(
    method: str, args: tuple[Any, ...], path: str, body: Any
) -> None:
    node = FakeNode()
    verb = "POST" if path.startswith(("/tables", "/view")) else "GET"
    node.on(verb, path, answer(body))
    client = node.client()
    result = getattr(client, method)(*args, ledger_version=77)
    if method.startswith("iter_"):
        assert list(result) == []
    else:
        assert result.ledger == META
    assert node.requests[0].url.params["ledger_version"] == "77"


# -- empty pages and walks -------------------------------------------------------------------


def test_empty_pages_and_empty_walks() -> None:
    node = FakeNode()
    for path in ("resources", "modules", "transactions", "events/0"):
        node.on("GET", f"/accounts/{ADDRESS}/{path}", answer([]))
    node.on("GET", "/transactions", answer([]))
    # The node is pruned (its oldest version is past 0): an empty page of an account's
    # transactions is weighed against the account's sequence number, one request more.
    node.on("GET", f"/accounts/{ADDRESS}", answer({**ACCOUNT, "sequence_number": "0"}))
    client = node.client()
    assert client.account_resources(ADDRESS) == Result([], META)
    assert client.account_transactions(ADDRESS).value == []
    assert list(client.iter_account_resources(ADDRESS)) == []
    assert list(client.iter_account_modules(ADDRESS)) == []
    assert list(client.iter_events(ADDRESS, 0)) == []
    assert list(client.iter_events(ADDRESS, 0, forward=True)) == []
    assert list(client.iter_transactions(10, 20)) == []
    assert list(client.iter_transactions(20, 20)) == []  # an empty range asks nothing
    assert len(node.requests) == 8


def test_the_cursor_walk_reaches_the_last_page_at_one_ledger_version() -> None:
    pages = {None: ("0x01", [ACCOUNT_RESOURCE]), "0x01": ("0x02", [COIN_STORE]),
             "0x02": (None, [{"type": "0x1::m::Last", "data": {}}])}  # fmt: skip
    node = FakeNode()

    def resources(request: httpx.Request) -> httpx.Response:
        cursor, items = pages[request.url.params.get("start")]
        # The ledger moves on between pages; the walk must stay at the first version.
        moved = replace(META, cursor=cursor, ledger_version=5000 + len(node.requests))
        return answer(items, meta=moved)

    node.on("GET", f"/accounts/{ADDRESS}/resources", resources)
    walked = list(node.client().iter_account_resources(ADDRESS, limit=1))
    assert [r.value.type for r in walked] == ["0x1::account::Account", COIN_STORE_TAG,
                                              "0x1::m::Last"]  # fmt: skip
    assert [r.ledger.cursor for r in walked] == ["0x01", "0x02", None]
    params = [dict(r.url.params) for r in node.requests]
    assert params == [
        {"limit": "1"},
        {"limit": "1", "start": "0x01", "ledger_version": "5001"},
        {"limit": "1", "start": "0x02", "ledger_version": "5001"},
    ]


def _stream(node: FakeNode, count: int, node_page: int, default: int = 25) -> None:
    """An event stream of ``count`` events whose node serves at most ``node_page``."""

    def events(request: httpx.Request) -> httpx.Response:
        limit = min(int(request.url.params.get("limit", default)), node_page)
        start_text = request.url.params.get("start")
        start = max(0, count - limit) if start_text is None else int(start_text)
        return answer([event(s) for s in range(start, min(start + limit, count))])

    node.on("GET", f"/accounts/{ADDRESS}/events/2", events)


def test_event_walk_newest_first_trusts_the_node_page_size() -> None:
    node = FakeNode()
    _stream(node, count=23, node_page=4)
    walked = [r.value.sequence_number for r in node.client().iter_events(ADDRESS, 2, limit=10)]
    assert walked == list(range(22, -1, -1))
    # Pages of 4 (what the node served), never a gap or a repeat.
    assert len(node.requests) == 6


def test_event_walk_backwards_from_a_start_learns_a_smaller_page() -> None:
    node = FakeNode()
    _stream(node, count=500, node_page=7)
    walked = [r.value.sequence_number for r in node.client().iter_events(ADDRESS, 2, start=30)]
    assert walked == list(range(30, -1, -1))


def test_event_walk_forward_stops_at_the_short_page() -> None:
    node = FakeNode()
    _stream(node, count=23, node_page=4)
    walked = list(node.client().iter_events(ADDRESS, 2, forward=True, limit=10))
    assert [r.value.sequence_number for r in walked] == list(range(23))
    assert [r.url.params["start"] for r in node.requests] == ["0", "4", "8", "12", "16", "20"]
    assert all(r.ledger == META for r in walked)


def test_event_walk_forward_from_a_start_to_an_empty_page() -> None:
    node = FakeNode()
    _stream(node, count=12, node_page=4)
    walked = list(node.client().iter_events(ADDRESS, 2, forward=True, start=4, limit=4))
    assert [r.value.sequence_number for r in walked] == list(range(4, 12))
    assert node.requests[-1].url.params["start"] == "12"  # the empty page that ends it


def test_transaction_walk_follows_what_the_node_served_up_to_the_head() -> None:
    node = FakeNode()

    def transactions(request: httpx.Request) -> httpx.Response:
        start = int(request.url.params["start"])
        end = min(start + 3, META.ledger_version + 1)  # a node page of 3, whatever is asked
        return answer([user_transaction(v) for v in range(start, end)])

    node.on("GET", "/transactions", transactions)
    client = node.client()
    walked = [r.value.version for r in client.iter_transactions(4990, 10**9, limit=50)]
    assert walked == list(range(4990, 5001))
    assert [r.value.version for r in client.iter_transactions(4990, 4995)] == list(
        range(4990, 4995)
    )


def _gas(meta: LedgerMeta, gas: int) -> LedgerMeta:
    return replace(meta, gas_used=gas)
