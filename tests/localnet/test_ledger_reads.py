"""Reading the ledger: resources and modules by cursor, tables, events, transactions,
blocks, versions and pruning."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from ledgerkit._errors import ErrorCode
from ledgerkit.bcs import EntryFunction, RawTransaction, Serializer
from ledgerkit.localnet import NodeConfig
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.chain import DevAccount
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.localnet.vm.framework import DEMO_TOKEN_METADATA
from ledgerkit.types import Address, EntryFunctionId, MoveType, StructTag

BOARD = StructTag.parse("0x1::ledger_demo::Board")
FRAMEWORK = Address.from_int(1)
DEMO_TOKEN = DEMO_TOKEN_METADATA.long


def call(
    ledger: Ledger, account: DevAccount, function: str, args: list[tuple[str, Any]]
) -> dict[str, Any]:
    sequence = int(ledger.reads.account(account.address, None)["sequence_number"])
    now = ledger.meta().ledger_timestamp_usec
    raw = RawTransaction(
        account.address,
        sequence,
        EntryFunction.build(function, [], args),
        10_000,
        100,
        now // 1_000_000 + 600,
        ledger.config.chain_id,
    )
    signed = account.private_key.sign_transaction(raw)
    ledger.submit(signed)
    ledger.produce_block(now + 500_000)
    committed = ledger.transaction_by_hash(bytes(signed.hash()))
    assert committed["success"], committed["vm_status"]
    return committed


@pytest.fixture(scope="module")
def ledger() -> Iterator[Ledger]:
    """A small chain where dev account 0 has played ledger_demo a little."""
    opened = Ledger.open(None, NodeConfig(seed=31, blocks=12))
    dev, other = opened.dev_accounts[:2]
    for score in (10, 20, 30, 40, 50):
        call(
            opened,
            dev,
            "0x1::ledger_demo::set_score",
            [("address", other.address.long), ("u64", score)],
        )
    call(opened, dev, "0x1::ledger_demo::set_cell", [("u64", 3), ("u64", 4), ("u64", 99)])
    call(
        opened,
        dev,
        "0x1::ledger_demo::set_profile",
        [("0x1::string::String", "ada"), ("u8", 7), ("vector<0x1::string::String>", ["move"])],
    )
    yield opened
    opened.close()


def board(ledger: Ledger, version: int | None = None) -> dict[str, Any]:
    resource = ledger.reads.resource(ledger.dev_accounts[0].address, BOARD, version)
    data: dict[str, Any] = orjson.loads(resource.json)["data"]
    return data


# -- resources and modules ------------------------------------------------------------------


def test_resources_page_by_cursor_to_the_last_page(ledger: Ledger) -> None:
    address = ledger.dev_accounts[0].address
    everything = ledger.reads.resources(address, None, None, 9999)
    assert everything.cursor is None
    names = [str(r.tag) for r in everything.items]
    assert "0x1::account::Account" in names
    assert "0x1::ledger_demo::Board" in names
    seen: list[str] = []
    cursor = None
    while True:
        page = ledger.reads.resources(address, None, cursor, 1)
        seen += [str(r.tag) for r in page.items]
        if page.cursor is None:
            break
        assert all(c in "0123456789abcdef" for c in page.cursor)
        cursor = page.cursor
    assert seen == names
    for item in everything.items:
        assert orjson.loads(item.json)["type"] == str(item.tag)
        assert item.bcs


def test_framework_resources_page_one_by_one(ledger: Ledger) -> None:
    everything = [str(r.tag) for r in ledger.reads.resources(FRAMEWORK, None, None, 9999).items]
    assert "0x1::coin::CoinInfo<0x1::aptos_coin::AptosCoin>" in everything
    seen, cursor = [], None
    while True:
        page = ledger.reads.resources(FRAMEWORK, None, cursor, 1)
        seen += [str(r.tag) for r in page.items]
        if page.cursor is None:
            break
        cursor = page.cursor
    assert seen == everything
    with pytest.raises(NodeError) as info:  # a cursor of another account's listing
        ledger.reads.resources(ledger.dev_accounts[0].address, None, cursor, 1)
    assert info.value.code is ErrorCode.INVALID_INPUT


def test_resources_at_an_older_version_do_not_show_later_ones(ledger: Ledger) -> None:
    address = ledger.dev_accounts[0].address
    names = {str(r.tag) for r in ledger.reads.resources(address, 0, None, 9999).items}
    assert "0x1::ledger_demo::Board" not in names
    assert "0x1::account::Account" in names


def test_modules_page_by_cursor(ledger: Ledger) -> None:
    everything = ledger.reads.modules(FRAMEWORK, None, None, 9999).items
    assert len(everything) >= 19
    collected = []
    cursor = None
    while True:
        page = ledger.reads.modules(FRAMEWORK, None, cursor, 4)
        collected += page.items
        if page.cursor is None:
            break
        cursor = page.cursor
    assert [m.name for m in collected] == [m.name for m in everything]
    module = ledger.reads.module(FRAMEWORK, "coin", None)
    body = orjson.loads(module.json)
    assert body["bytecode"].startswith("0xa11ceb0b")
    assert module.bcs == bytes.fromhex(body["bytecode"][2:])
    abi = body["abi"]
    assert (abi["address"], abi["name"]) == ("0x1", "coin")
    transfer = next(f for f in abi["exposed_functions"] if f["name"] == "transfer")
    assert transfer["params"] == ["&signer", "address", "u64"]
    assert transfer["is_entry"]
    assert transfer["generic_type_params"] == [{"constraints": []}]
    assert ledger.reads.modules(ledger.dev_accounts[0].address, None, None, 10).items == []


def test_bad_cursors_limits_and_missing_things(ledger: Ledger) -> None:
    address = ledger.dev_accounts[0].address
    cases = [
        (lambda: ledger.reads.resources(address, None, "zz", 10), ErrorCode.INVALID_INPUT),
        (lambda: ledger.reads.resources(address, None, "00", 10), ErrorCode.INVALID_INPUT),
        (lambda: ledger.reads.resources(address, None, None, 0), ErrorCode.INVALID_INPUT),
        (lambda: ledger.reads.module(FRAMEWORK, "nope", None), ErrorCode.MODULE_NOT_FOUND),
        (
            lambda: ledger.reads.resource(address, StructTag.parse("0x1::x::Y"), None),
            ErrorCode.RESOURCE_NOT_FOUND,
        ),
        (
            lambda: ledger.reads.resource(Address.from_int(0xABC), BOARD, None),
            ErrorCode.ACCOUNT_NOT_FOUND,
        ),
        (lambda: ledger.reads.account(address, 10**9), ErrorCode.VERSION_NOT_FOUND),
        (lambda: ledger.reads.transaction_by_version(10**9), ErrorCode.TRANSACTION_NOT_FOUND),
        (lambda: ledger.reads.block_by_height(10**9, False), ErrorCode.BLOCK_NOT_FOUND),
        (lambda: ledger.reads.block_by_version(10**9, False), ErrorCode.BLOCK_NOT_FOUND),
        (lambda: ledger.reads.transactions(10**9, 5), ErrorCode.INVALID_INPUT),
        (lambda: ledger.transaction_by_hash(bytes(32)), ErrorCode.TRANSACTION_NOT_FOUND),
    ]
    for run, code in cases:
        with pytest.raises(NodeError) as info:
            run()
        assert info.value.code is code
        assert info.value.status == code.status


def test_balances_by_coin_type_and_by_metadata_address(ledger: Ledger) -> None:
    address = ledger.dev_accounts[2].address
    apt = ledger.reads.balance(address, StructTag.parse("0x1::aptos_coin::AptosCoin"), None)
    assert apt == ledger.reads.balance(address, Address.from_int(0xA), None) == 10**14
    metadata = ledger.views.view(
        EntryFunctionId.parse("0x1::coin::paired_metadata"),
        [MoveType.parse("0x1::aptos_coin::AptosCoin")],
        [],
        None,
    )[0][0]
    assert metadata == {"vec": [{"inner": "0xa"}]}
    ldt = Address.parse(DEMO_TOKEN)
    assert ledger.reads.balance(address, ldt, None) == 1_000_000 * 10**6
    symbol = ledger.views.view(
        EntryFunctionId.parse("0x1::fungible_asset::symbol"),
        [MoveType.parse("0x1::fungible_asset::Metadata")],
        [{"inner": DEMO_TOKEN}],
        None,
    )[0]
    assert symbol == ["LDT"]
    nobody = Address.from_int(0x1234)
    assert ledger.reads.balance(nobody, Address.from_int(0xA), None) == 0
    with pytest.raises(NodeError) as info:
        ledger.reads.balance(address, StructTag.parse("0x1::fake::Coin"), None)
    assert info.value.code is ErrorCode.RESOURCE_NOT_FOUND


# -- tables -----------------------------------------------------------------------------------


def test_table_items_by_primitive_struct_and_string_keys(ledger: Ledger) -> None:
    data = board(ledger)
    other = ledger.dev_accounts[1].address
    scores = Address.parse(data["scores"]["handle"])
    value, encoded = ledger.reads.table_item(
        scores, MoveType.parse("address"), MoveType.parse("u64"), other.short, None
    )
    assert value == "50"
    assert encoded == (50).to_bytes(8, "little")
    assert ledger.reads.raw_table_item(scores, bytes(other), None) == encoded

    cells = Address.parse(data["cells"]["handle"])
    point = MoveType.parse("0x1::ledger_demo::Point")
    value, _ = ledger.reads.table_item(
        cells, point, MoveType.parse("u64"), {"x": "3", "y": "4"}, None
    )
    assert value == "99"
    key = Serializer()
    key.u64(3)
    key.u64(4)
    assert ledger.reads.raw_table_item(cells, key.output(), None) == (99).to_bytes(8, "little")

    names = Address.parse(data["names"]["handle"])
    profile = MoveType.parse("0x1::ledger_demo::Profile")
    value, _ = ledger.reads.table_item(
        names, MoveType.parse("0x1::string::String"), profile, "ada", None
    )
    assert value == {"name": "ada", "level": 7, "tags": ["move"]}


def test_table_items_at_versions_and_missing_items(ledger: Ledger) -> None:
    data = board(ledger)
    scores = Address.parse(data["scores"]["handle"])
    other = ledger.dev_accounts[1].address
    history = ledger.reads.account_transactions(ledger.dev_accounts[0].address, 0, 100)
    first_version = int(history[0]["version"])
    value, _ = ledger.reads.table_item(
        scores, MoveType.parse("address"), MoveType.parse("u64"), other.long, first_version
    )
    assert value == "10"
    with pytest.raises(NodeError) as info:
        ledger.reads.table_item(
            scores, MoveType.parse("address"), MoveType.parse("u64"), other.long, first_version - 1
        )
    assert info.value.code is ErrorCode.TABLE_ITEM_NOT_FOUND
    with pytest.raises(NodeError) as info:
        ledger.reads.raw_table_item(scores, b"\x00" * 32, None)
    assert info.value.code is ErrorCode.TABLE_ITEM_NOT_FOUND
    with pytest.raises(NodeError) as info:
        ledger.reads.table_item(scores, MoveType.parse("address"), MoveType.parse("u64"), 5, None)
    assert info.value.code is ErrorCode.INVALID_INPUT


# -- events -----------------------------------------------------------------------------------


def test_events_by_handle_and_by_creation_number_page_alike(ledger: Ledger) -> None:
    address = ledger.dev_accounts[0].address
    newest = ledger.reads.events_by_handle(address, BOARD, "score_events", None, 2)
    assert [e["sequence_number"] for e in newest] == ["3", "4"]
    assert [e["data"]["new"] for e in newest] == ["40", "50"]
    first = ledger.reads.events_by_handle(address, BOARD, "score_events", 0, 2)
    assert [e["data"]["old"] for e in first] == ["0", "10"]
    creation = int(data_handle(board(ledger))["guid"]["id"]["creation_num"])
    by_number = ledger.reads.events_by_creation_number(address, creation, 0, 100)
    assert len(by_number) == 5
    assert by_number[:2] == first
    for event in by_number:
        assert event["type"] == "0x1::ledger_demo::ScoreChanged"
        assert event["guid"] == {"creation_number": str(creation), "account_address": address.long}
        assert int(event["version"]) > 0
    assert ledger.reads.events_by_creation_number(address, 999, None, 10) == []
    assert len(ledger.reads.events_by_handle(address, BOARD, "score_events", None, 1000)) == 5


def data_handle(data: dict[str, Any]) -> dict[str, Any]:
    handle: dict[str, Any] = data["score_events"]
    return handle


def test_block_events_of_the_framework_account(ledger: Ledger) -> None:
    tag = StructTag.parse("0x1::block::BlockResource")
    events = ledger.reads.events_by_handle(FRAMEWORK, tag, "new_block_events", None, 3)
    height = ledger.meta().block_height
    assert [e["data"]["height"] for e in events] == [str(h) for h in range(height - 2, height + 1)]


def test_event_handle_errors(ledger: Ledger) -> None:
    address = ledger.dev_accounts[0].address
    with pytest.raises(NodeError) as info:
        ledger.reads.events_by_handle(address, BOARD, "scores", None, 5)
    assert info.value.code is ErrorCode.STRUCT_FIELD_NOT_FOUND
    with pytest.raises(NodeError) as info:
        ledger.reads.events_by_handle(address, BOARD, "nothing", None, 5)
    assert info.value.code is ErrorCode.STRUCT_FIELD_NOT_FOUND
    with pytest.raises(NodeError) as info:
        ledger.reads.events_by_handle(
            ledger.dev_accounts[5].address, BOARD, "score_events", None, 5
        )
    assert info.value.code is ErrorCode.RESOURCE_NOT_FOUND


# -- transactions and blocks ----------------------------------------------------------------


def test_transaction_pages(ledger: Ledger) -> None:
    latest = ledger.meta().ledger_version
    page = ledger.reads.transactions(None, 25)
    assert [int(t["version"]) for t in page] == list(range(latest - 24, latest + 1))
    assert len(ledger.reads.transactions(0, 1000)) == min(100, latest + 1)
    assert ledger.reads.transactions(latest, 10)[0]["version"] == str(latest)
    mine = ledger.reads.account_transactions(ledger.dev_accounts[0].address, None, 25)
    assert [t["sequence_number"] for t in mine] == [str(n) for n in range(7)]
    assert (
        ledger.reads.account_transactions(ledger.dev_accounts[0].address, 5, 1)[0][
            "sequence_number"
        ]
        == "5"
    )
    with pytest.raises(NodeError) as info:
        ledger.reads.account_transactions(Address.from_int(0x999), None, 5)
    assert info.value.code is ErrorCode.ACCOUNT_NOT_FOUND


def test_auxiliary_info_counts_from_each_block_start(ledger: Ledger) -> None:
    block = ledger.reads.block_by_height(3, with_transactions=False)
    first, last = int(block["first_version"]), int(block["last_version"])
    info = ledger.reads.auxiliary_info(first, last - first + 1)
    assert info == [{"transaction_index": i} for i in range(last - first + 1)]
    assert ledger.reads.auxiliary_info(0, 1) == [{"transaction_index": 0}]


def test_blocks_by_height_and_by_version_agree(ledger: Ledger) -> None:
    block = ledger.reads.block_by_height(5, with_transactions=True)
    middle = (int(block["first_version"]) + int(block["last_version"])) // 2
    assert ledger.reads.block_by_version(middle, with_transactions=True) == block
    assert (
        len(block["transactions"]) == int(block["last_version"]) - int(block["first_version"]) + 1
    )


def test_index_meta_and_health(ledger: Ledger) -> None:
    index = ledger.index()
    meta = ledger.meta(gas_used=5, cursor="ab")
    assert index["chain_id"] == 4
    assert index["node_role"] == "full_node"
    assert index["ledger_version"] == str(meta.ledger_version)
    assert index["block_height"] == str(meta.block_height)
    assert (meta.gas_used, meta.cursor) == (5, "ab")
    assert isinstance(index["git_hash"], str)
    now = meta.ledger_timestamp_usec
    ledger.health(None, now + 10**12)
    ledger.health(60, now + 1_000_000)
    with pytest.raises(NodeError) as info:
        ledger.health(60, now + 61_000_000)
    assert (info.value.code, info.value.status) == (ErrorCode.HEALTH_CHECK_FAILED, 503)


# -- pruning ----------------------------------------------------------------------------------


def test_a_prune_window_answers_410_below_the_oldest_version() -> None:
    pruned = Ledger.open(None, NodeConfig(seed=31, blocks=30, prune_window=40))
    try:
        meta = pruned.meta()
        assert meta.oldest_ledger_version > 0
        assert meta.oldest_block_height > 0
        assert 0 < meta.ledger_version + 1 - meta.oldest_ledger_version <= 40
        oldest = pruned.reads.block_by_height(meta.oldest_block_height, with_transactions=False)
        assert int(oldest["first_version"]) == meta.oldest_ledger_version
        dev = pruned.dev_accounts[0].address
        cases = [
            (lambda: pruned.reads.transaction_by_version(0), ErrorCode.VERSION_PRUNED),
            (lambda: pruned.reads.account(dev, 0), ErrorCode.VERSION_PRUNED),
            (lambda: pruned.reads.resources(dev, 0, None, 10), ErrorCode.VERSION_PRUNED),
            (lambda: pruned.reads.transactions(0, 10), ErrorCode.VERSION_PRUNED),
            (lambda: pruned.reads.auxiliary_info(0, 10), ErrorCode.VERSION_PRUNED),
            (lambda: pruned.reads.block_by_height(0, False), ErrorCode.BLOCK_PRUNED),
            (lambda: pruned.reads.block_by_version(0, False), ErrorCode.BLOCK_PRUNED),
        ]
        for run, code in cases:
            with pytest.raises(NodeError) as info:
                run()
            assert (info.value.code, info.value.status) == (code, 410)
        # State written at genesis is still readable at the versions that are kept.
        assert pruned.reads.account(dev, meta.oldest_ledger_version)["sequence_number"] == "0"
        assert int(pruned.reads.transactions(None, 100)[0]["version"]) >= meta.oldest_ledger_version
    finally:
        pruned.close()
