"""The request builders of ``ledgerkit.client.calls``: each is the client method of its
name, signature and docstring included; the old names still answer, with a warning."""

from __future__ import annotations

import asyncio
import inspect
from typing import Any

import pytest
from client_fakes import HASH, PENDING, FakeNode, answer

from ledgerkit import (
    AsyncClient,
    Client,
    InputError,
    InvalidAddressError,
    InvalidIntegerError,
)
from ledgerkit.client import calls
from ledgerkit.models import PendingTransaction


def test_a_builder_takes_the_options_of_its_method_by_keyword_only() -> None:
    with pytest.raises(TypeError):
        calls.account("0x1", 5)  # type: ignore[misc]
    call = calls.account("0x1", ledger_version=5)
    assert (call.method, call.path, call.params) == (
        "GET",
        "/accounts/0x1",
        (("ledger_version", "5"),),
    )
    page = calls.transactions(start=10, limit=3)
    assert page.params == (("limit", "3"), ("start", "10"))


def test_a_builder_reads_as_its_method_without_self() -> None:
    assert str(inspect.signature(calls.block_by_height)) == (
        "(height: 'int', *, with_transactions: 'bool' = False) -> 'Call[Block]'"
    )
    assert str(inspect.signature(Client.block_by_height)) == (
        "(self, height: 'int', *, with_transactions: 'bool' = False) -> 'Result[Block]'"
    )
    assert calls.block_by_height.__name__ == "block_by_height"
    assert calls.block_by_height.__doc__ == Client.block_by_height.__doc__
    assert calls.block_by_height.__doc__ == AsyncClient.block_by_height.__doc__
    assert repr(calls.block_by_height) == "<endpoint ledgerkit.client.calls.block_by_height>"


def test_a_bad_input_fails_in_the_builder() -> None:
    with pytest.raises(InputError, match="limit must be at least 1"):
        calls.transactions(limit=0)
    with pytest.raises(InputError, match="a JSON request"):
        calls.encode_submission(["not", "a", "mapping"])  # type: ignore[arg-type]


def test_the_long_poll_is_a_method_and_caches_under_the_lookup_by_hash() -> None:
    call = calls.wait_transaction_by_hash(HASH)
    assert (call.name, call.path, call.cache_path) == (
        "wait_transaction_by_hash",
        f"/transactions/wait_by_hash/{HASH}",
        f"/transactions/by_hash/{HASH}",
    )
    node = FakeNode()
    node.on("GET", f"/transactions/wait_by_hash/{HASH}", answer(PENDING))
    with node.client() as client:
        still_pending = client.wait_transaction_by_hash(HASH).value
    assert isinstance(still_pending, PendingTransaction)  # one poll: no waiting for more
    assert still_pending.hash == HASH
    assert len(node.sent()) == 1


def test_the_old_names_warn_and_are_the_new_builders() -> None:
    with pytest.warns(
        DeprecationWarning, match=r"calls\.view is deprecated; use calls\.view_json"
    ) as warned:
        view = calls.view  # type: ignore[attr-defined]
    assert warned[0].filename == __file__  # the warning points at the line that named it
    assert view is calls.view_json
    assert view("0x1::chain_id::get").name == "view_json"
    with pytest.warns(DeprecationWarning, match="use calls.wait_transaction_by_hash"):
        wait = calls.wait_by_hash  # type: ignore[attr-defined]
    assert wait is calls.wait_transaction_by_hash


def test_the_old_event_stream_still_makes_the_pages_of_a_stream() -> None:
    with pytest.warns(DeprecationWarning, match=r"use client\.iter_events"):
        event_stream = calls.event_stream  # type: ignore[attr-defined]
    page = event_stream("0x1", 3, None, None)(5, 10)
    assert (page.name, page.path, page.params) == (
        "events_by_creation_number",
        "/accounts/0x1/events/3",
        (("limit", "10"), ("start", "5")),
    )
    with pytest.raises(InputError, match="name the stream"):
        event_stream("0x1", None, None, None)


def test_a_name_calls_never_had_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="acount"):
        calls.acount  # type: ignore[attr-defined]  # noqa: B018


@pytest.mark.parametrize(
    ("asked", "error", "match"),
    [
        ({"start_version": -1}, InvalidIntegerError, "start_version"),
        ({"end_version": 2**64}, InvalidIntegerError, "end_version"),
        ({"limit": 0}, InvalidIntegerError, "limit must be at least 1"),
        ({"limit": 2**16}, InvalidIntegerError, "limit"),
        ({"start_version": "ten"}, InvalidIntegerError, "start_version"),
    ],
)
def test_bad_summaries_parameters_fail_before_any_request(
    asked: dict[str, Any], error: type[Exception], match: str
) -> None:
    node = FakeNode()
    with node.client() as client, pytest.raises(error, match=match):
        client.account_transaction_summaries("0x1", **asked)

    async def run() -> None:
        async with node.async_client() as client:
            await client.account_transaction_summaries("0x1", **asked)

    with pytest.raises(error, match=match):
        asyncio.run(run())
    with pytest.raises(InvalidAddressError):
        calls.account_transaction_summaries("0xzz")
    assert node.requests == []
