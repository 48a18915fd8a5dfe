"""``iter_blocks`` walks a range of heights on both clients: the blocks the node serves one
by one over plain HTTP, in height order, bounded by the head the first answer gives, with
a progress bar when asked (or on long ranges someone watches)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ledgerkit import AsyncClient, Client, InputError
from ledgerkit.localnet import LocalNode


@pytest.fixture(scope="module")
def http(node: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=node.url, timeout=30.0) as client:
        yield client


@pytest.fixture
def client(node: LocalNode) -> Iterator[Client]:
    with Client(node.url, cache=False) as c:
        yield c


def served(http: httpx.Client, height: int) -> dict[str, Any]:
    answer = http.get(f"/blocks/by_height/{height}")
    assert answer.status_code == 200, answer.text
    block: dict[str, Any] = answer.json()
    return block


def as_node_writes(block: Any) -> dict[str, Any]:
    return {
        "block_height": str(block.block_height),
        "block_hash": block.block_hash,
        "block_timestamp": str(block.block_timestamp),
        "first_version": str(block.first_version),
        "last_version": str(block.last_version),
    }


def test_a_range_of_heights(client: Client, http: httpx.Client) -> None:
    blocks = [block for block, _ in client.iter_blocks(3, 8)]
    assert [b.block_height for b in blocks] == [3, 4, 5, 6, 7]
    for block in blocks:
        assert as_node_writes(block) == served(http, block.block_height)


def test_without_an_end_the_walk_stops_at_the_head(client: Client, http: httpx.Client) -> None:
    head = int(http.get("/").json()["block_height"])
    walked = [
        (block.block_height, ledger.block_height) for block, ledger in client.iter_blocks(head - 2)
    ]
    assert [height for height, _ in walked] == [head - 2, head - 1, head]
    # An end past the head stops there too.
    assert [b.block_height for b, _ in client.iter_blocks(head, head + 1000)] == [head]


def test_an_empty_range_sends_nothing(node: LocalNode) -> None:
    sent: list[httpx.Request] = []
    transport = httpx.HTTPTransport()

    class Counting(httpx.BaseTransport):
        def handle_request(self, request: httpx.Request) -> httpx.Response:
            sent.append(request)
            return transport.handle_request(request)

    with Client(node.url, cache=False, transport=Counting()) as client:
        assert list(client.iter_blocks(5, 5)) == []
        assert list(client.iter_blocks(9, 2)) == []
    assert sent == []


def test_blocks_with_their_transactions(client: Client, http: httpx.Client) -> None:
    for block, _ in client.iter_blocks(1, 4, with_transactions=True):
        assert block.transactions is not None
        versions = [t.version for t in block.transactions]
        assert versions == list(range(block.first_version, block.last_version + 1))
        sent = served(http, block.block_height)
        assert versions == list(range(int(sent["first_version"]), int(sent["last_version"]) + 1))


def test_the_async_client_walks_the_same(node: LocalNode, client: Client) -> None:
    async def walk() -> list[int]:
        async with AsyncClient(node.url, cache=False) as aclient:
            return [block.block_height async for block, _ in aclient.iter_blocks(2, 6)]

    assert asyncio.run(walk()) == [b.block_height for b, _ in client.iter_blocks(2, 6)]


def test_a_progress_bar_when_asked(client: Client, capsys: pytest.CaptureFixture[str]) -> None:
    assert len(list(client.iter_blocks(0, 7, progress=True))) == 7
    bar = capsys.readouterr().err
    assert "blocks" in bar
    assert "7/7" in bar


def test_no_bar_on_a_short_range_or_when_refused(
    client: Client, capsys: pytest.CaptureFixture[str]
) -> None:
    list(client.iter_blocks(0, 7))
    list(client.iter_blocks(0, 40, progress=False))
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [((-1, 5), {}), (("a", 5), {}), ((0, 2**64), {}), ((0, 5), {"progress": "yes"})],
)
def test_bad_input_is_refused_before_anything_is_sent(
    client: Client, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    with pytest.raises(InputError):
        client.iter_blocks(*args, **kwargs)
