"""Events typed by their modules' ABIs, read from the embedded node: handle events and
module events alike, without a field type written by hand. Expected values are read from
the node's raw JSON through httpx, apart from the code under test."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pandas as pd
import pytest

import ledgerkit
from ledgerkit import AbiCache
from ledgerkit.frames import events_to_frame
from ledgerkit.localnet import LocalNode
from ledgerkit.models import Event, EventGuid, TransactionEvents

SCORE = "0x1::ledger_demo::ScoreChanged"
DEPOSIT = "0x1::fungible_asset::Deposit"
NEW_BLOCK = "0x1::block::NewBlockEvent"


def _long(address: str) -> str:
    return "0x" + address.lower().removeprefix("0x").rjust(64, "0")


def _raw(node: LocalNode, path: str, **params: Any) -> Any:
    answer = httpx.get(f"{node.url.rstrip('/')}/{path}", params=params, timeout=30)
    answer.raise_for_status()
    return answer.json()


@pytest.fixture(scope="module")
def raw_transactions(node: LocalNode) -> list[dict[str, Any]]:
    """Versions 0..299 as the node's JSON."""
    pages = [_raw(node, "transactions", start=start, limit=100) for start in (0, 100, 200)]
    return [txn for page in pages for txn in page]


@pytest.fixture
def client(node: LocalNode) -> Iterator[ledgerkit.Client]:
    with ledgerkit.Client(node.url, cache=False) as client:
        yield client


def _frame(client: ledgerkit.Client) -> pd.DataFrame:
    pages = [client.transactions(start=start, limit=100).value for start in (0, 100, 200)]
    return events_to_frame([txn for page in pages for txn in page])


def test_handle_and_module_events_of_one_type_are_typed_alike(
    client: ledgerkit.Client, raw_transactions: list[dict[str, Any]]
) -> None:
    expected = [
        (
            int(txn["version"]),
            index,
            int(event["guid"]["creation_number"]),
            _long(event["data"]["player"]),
            int(event["data"]["old"]),
            int(event["data"]["new"]),
        )
        for txn in raw_transactions
        for index, event in enumerate(txn.get("events", []))
        if event["type"] == SCORE
    ]
    # set_score emits to the board's handle, add_score as a module event: both are here.
    assert {row[2] == 0 for row in expected} == {True, False}
    typed = ledgerkit.typed_events(client, _frame(client), SCORE)
    got = list(
        zip(
            typed["version"],
            typed["event_index"],
            typed["creation_number"],
            typed["player"].astype(str),
            typed["old"],
            typed["new"],
            strict=True,
        )
    )
    assert got == expected
    assert str(typed["new"].dtype) == "UInt64"
    assert isinstance(typed["player"].dtype, pd.CategoricalDtype)


def test_module_events_of_fungible_asset_deposits_are_exact(
    client: ledgerkit.Client, raw_transactions: list[dict[str, Any]]
) -> None:
    expected = [
        (int(txn["version"]), index, _long(event["data"]["store"]), int(event["data"]["amount"]))
        for txn in raw_transactions
        for index, event in enumerate(txn.get("events", []))
        if event["type"] == DEPOSIT
    ]
    assert len(expected) > 10
    typed = ledgerkit.typed_events(client, _frame(client), DEPOSIT)
    assert list(typed.columns[-2:]) == ["store", "amount"]
    got = list(
        zip(
            typed["version"],
            typed["event_index"],
            typed["store"].astype(str),
            typed["amount"],
            strict=True,
        )
    )
    assert got == expected


def test_an_event_stream_read_by_creation_number_is_typed(
    client: ledgerkit.Client, node: LocalNode
) -> None:
    raw = _raw(node, "accounts/0x1/events/2", start=0, limit=25)
    stream = client.events_by_creation_number("0x1", 2, start=0, limit=25)
    typed = ledgerkit.typed_events(client, stream, NEW_BLOCK)
    assert len(typed) == len(raw) == 25
    assert typed["version"].tolist() == [int(e["version"]) for e in raw]
    assert typed["hash"].astype(str).tolist() == [_long(e["data"]["hash"]) for e in raw]
    assert typed["proposer"].astype(str).tolist() == [_long(e["data"]["proposer"]) for e in raw]
    for name in ("epoch", "round", "height", "time_microseconds"):
        assert typed[name].tolist() == [int(e["data"][name]) for e in raw], name
    assert typed["previous_block_votes_bitvec"].tolist() == [
        e["data"]["previous_block_votes_bitvec"] for e in raw
    ]
    assert [json.loads(t) for t in typed["failed_proposer_indices"]] == [
        e["data"]["failed_proposer_indices"] for e in raw
    ]


class _Counting(httpx.BaseTransport):
    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.paths: list[str] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.paths.append(request.url.path)
        return self.inner.handle_request(request)

    def close(self) -> None:  # closed with the client: the pooled connections too
        self.inner.close()


def test_a_held_cache_fetches_each_module_once(node: LocalNode) -> None:
    counting = _Counting()
    with ledgerkit.Client(node.url, cache=False, transport=counting) as client:
        frame = events_to_frame(client.transactions(start=0, limit=100))
        cache = AbiCache()
        first = ledgerkit.typed_events(client, frame, DEPOSIT, cache=cache)
        again = ledgerkit.typed_events(client, frame, DEPOSIT, cache=cache)
        other = ledgerkit.typed_events(client, frame, "0x1::fungible_asset::Withdraw", cache=cache)
        fresh = ledgerkit.typed_events(client, frame, DEPOSIT)
    pd.testing.assert_frame_equal(first, again)
    pd.testing.assert_frame_equal(first, fresh)
    assert len(other) > 0
    modules = [p for p in counting.paths if "/module/" in p]
    # Once for the held cache (Withdraw is in the same module), once for the fresh one.
    assert modules == ["/v1/accounts/0x1/module/fungible_asset"] * 2


def _one_event(kind: str) -> pd.DataFrame:
    guid = EventGuid(creation_number=0, account_address="0x0")
    event = Event(guid=guid, sequence_number=0, type=kind, data={})
    return events_to_frame([TransactionEvents(version=1, events=[event])])


def test_a_module_or_struct_the_node_lacks_is_a_typed_error(client: ledgerkit.Client) -> None:
    with pytest.raises(ledgerkit.UnknownStructError) as caught:
        ledgerkit.typed_events(client, _one_event("0x1::nowhere::Thing"), "0x1::nowhere::Thing")
    assert caught.value.module_found is False
    assert "module 0x1::nowhere is not published" in str(caught.value)
    with pytest.raises(ledgerkit.UnknownStructError) as caught:
        ledgerkit.typed_events(
            client, _one_event("0x1::ledger_demo::Nope"), "0x1::ledger_demo::Nope"
        )
    assert caught.value.module_found is True
    assert "module 0x1::ledger_demo declares no struct Nope" in str(caught.value)


def test_the_async_twin_types_the_same(node: LocalNode, client: ledgerkit.Client) -> None:
    frame = events_to_frame(client.transactions(start=0, limit=100))

    async def typed() -> pd.DataFrame:
        async with ledgerkit.AsyncClient(node.url, cache=False) as aclient:
            with pytest.raises(ledgerkit.InputError, match=r"await ledgerkit\.atyped_events"):
                ledgerkit.typed_events(aclient, frame, SCORE)  # type: ignore[arg-type]
            return await ledgerkit.atyped_events(aclient, frame, SCORE)

    expected = ledgerkit.typed_events(client, frame, SCORE)
    pd.testing.assert_frame_equal(asyncio.run(typed()), expected)
    with pytest.raises(ledgerkit.InputError, match="atyped_events takes an AsyncClient"):
        asyncio.run(ledgerkit.atyped_events(client, frame, SCORE))  # type: ignore[arg-type]
