"""``Client.send`` / ``AsyncClient.send``: any request the core describes, sent with the
client's headers, retries and error tree, its answer read by the call's own decoder or
a chosen one (what bulk extraction uses to read pages as frame rows)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from client_fakes import META, FakeNode, answer, error, user_transaction

from ledgerkit import DecodingError, InputError, TransactionNotFoundError
from ledgerkit.client import AiohttpTransport, AsyncClient, Call, Client, calls
from ledgerkit.models import TransactionRow, UserTransaction, decode_transaction_rows


def _node() -> FakeNode:
    node = FakeNode()

    def transactions(request: httpx.Request) -> httpx.Response:
        start = int(request.url.params["start"])
        limit = int(request.url.params["limit"])
        return answer([user_transaction(v) for v in range(start, start + limit)])

    node.on("GET", "/transactions", transactions)
    node.on("GET", "/transactions/by_version/42", lambda _r: answer(user_transaction(42)))
    node.on("GET", "/transactions/by_version/7", error(404, "transaction_not_found"))
    node.on("GET", "/transactions/by_version/0", answer(user_transaction(0)))
    return node


def test_a_call_sent_as_is_answers_what_the_method_answers() -> None:
    node = _node()
    with node.client() as client:
        sent = client.send(calls.transactions(start=3, limit=2))
        asked = client.transactions(start=3, limit=2)
    assert sent == asked
    assert [txn.version for txn in sent.value] == [3, 4]
    assert all(isinstance(txn, UserTransaction) for txn in sent.value)
    assert sent.ledger == META


def test_a_chosen_decoder_reads_the_same_request() -> None:
    node = _node()
    with node.client(headers={"X-Team": "research"}) as client:
        rows, ledger = client.send(
            calls.transactions(start=10, limit=3), decoder=decode_transaction_rows
        )
    assert [type(row) for row in rows] == [TransactionRow] * 3
    assert [row.version for row in rows] == [10, 11, 12]
    assert ledger.ledger_version == 5_000
    [request] = node.sent("/transactions")
    assert dict(request.url.params) == {"start": "10", "limit": "3"}
    assert request.headers["accept"] == "application/json"
    assert request.headers["x-team"] == "research"


def test_the_async_twin_sends_the_same() -> None:
    node = _node()

    async def run() -> Any:
        async with node.async_client() as client:
            plain = await client.send(calls.transactions(start=0, limit=2))
            rows = await client.send(
                calls.transactions(start=0, limit=2), decoder=decode_transaction_rows
            )
            return plain, rows

    plain, rows = asyncio.run(run())
    assert [txn.version for txn in plain.value] == [0, 1]
    assert [row.version for row in rows.value] == [0, 1]
    assert AsyncClient.send.__doc__ == Client.send.__doc__


def test_a_refusal_raises_from_the_error_tree() -> None:
    with _node().client() as client, pytest.raises(TransactionNotFoundError):
        client.send(calls.transaction_by_version(7), decoder=len)


def test_a_decoder_that_fails_is_a_decoding_error() -> None:
    def refuse(body: bytes) -> Any:
        raise ValueError("not what I read")

    with _node().client() as client, pytest.raises(DecodingError, match="not what I read"):
        client.send(calls.transaction_by_version(42), decoder=refuse)


def test_an_answer_read_another_way_is_never_cached(tmp_path: Path) -> None:
    node = _node()
    with node.client(cache=tmp_path) as client:
        size = client.send(calls.transaction_by_version(42), decoder=len).value
        again = client.send(calls.transaction_by_version(42), decoder=len).value
        record = client.transaction_by_version(42).value
    assert size == again == len(json.dumps(user_transaction(42)).encode())
    assert record.version == 42  # the record, not the length read before
    assert len(node.sent("/transactions/by_version/42")) == 3


def test_send_takes_a_call_and_a_callable_decoder() -> None:
    with _node().client() as client:
        with pytest.raises(InputError, match="takes a Call"):
            client.send("/transactions")  # type: ignore[call-overload]
        with pytest.raises(InputError, match="decoder must be callable"):
            client.send(calls.ledger_info(), decoder="json")  # type: ignore[call-overload]
    assert not _node().requests


def test_calls_are_public_and_describe_requests_without_io() -> None:
    call = calls.transactions(start=5, limit=10)
    assert isinstance(call, Call)
    assert (call.method, call.path, call.params) == (
        "GET",
        "/transactions",
        (("limit", "10"), ("start", "5")),
    )


def test_the_aiohttp_transport_is_a_public_option_loaded_when_named() -> None:
    assert issubclass(AiohttpTransport, httpx.AsyncBaseTransport)
    client = AsyncClient("http://node.test/v1", transport=AiohttpTransport(), cache=False)
    asyncio.run(client.aclose())
    code = "import sys, ledgerkit.client; print('aiohttp' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
