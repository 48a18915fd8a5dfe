"""The answer cache against chains of one genesis whose histories part: what each client
asks to check the cached history, what it drops, and what a pruned node or a node behind
does. Scripted nodes, the blocking and the asyncio client alike; roots written out."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from client_fakes import BASE, META, FakeNode, answer, error, user_transaction

from ledgerkit.client import AsyncClient, Client

GENESIS = "0x" + "9e" * 32
#: The versions the workload reads; the histories part at PARTED.
VERSIONS = (2, 4, 6, 8)
PARTED = 5


def _root(version: int, history: str) -> str:
    """The accumulator root at ``version``: the same on both histories before PARTED."""
    mine = "a" if version < PARTED else history
    return "0x" + mine * 2 + f"{version:062x}"


class ForkingNode(FakeNode):
    """A node of chain 2 that serves history ``A``, or (``part``) history ``B``, which
    shares its genesis and its versions before :data:`PARTED`; versions below ``oldest``
    answer 410 (pruned), versions past ``head`` 404."""

    def __init__(self) -> None:
        super().__init__()
        self.history = "a"
        self.oldest = 0
        self.head = META.ledger_version
        self.on("GET", "/transactions/by_version/0", lambda r: self._ok(self._genesis()))
        for v in (*VERSIONS, META.ledger_version):
            self.on("GET", f"/transactions/by_version/{v}", self._transaction)
        self.on("GET", "/accounts/0x1/resource/0x1::m::R", self._resource)

    def part(self) -> None:
        self.history = "b"

    def _meta(self) -> Any:
        return replace(META, ledger_version=self.head, oldest_ledger_version=self.oldest)

    def _ok(self, body: Any) -> httpx.Response:
        return answer(body, meta=self._meta())

    def _genesis(self) -> dict[str, Any]:
        return {"version": "0", "hash": GENESIS, "type": "genesis_transaction"}

    def _transaction(self, request: httpx.Request) -> httpx.Response:
        version = int(request.url.path.rsplit("/", 1)[1])
        if version < self.oldest:
            return error(410, "version_pruned", meta=self._meta())
        if version > self.head:
            return error(404, "transaction_not_found", meta=self._meta())
        body = user_transaction(version)
        body["accumulator_root_hash"] = _root(version, self.history)
        body["gas_used"] = "111" if version < PARTED or self.history == "a" else "222"
        return self._ok(body)

    def _resource(self, request: httpx.Request) -> httpx.Response:
        value = "1" if self.history == "a" else "2"
        return self._ok({"type": "0x1::m::R", "data": {"value": value}})

    def versions_asked(self) -> list[int]:
        """The versions asked by ``by_version`` (marks and reads) but the genesis, in order."""
        paths = [r.url.path for r in self.requests]
        return [int(p.rsplit("/", 1)[1]) for p in paths if "/by_version/" in p][1:]


def _run(
    node: ForkingNode, cache: Path, asynchronous: bool, versions: tuple[int, ...] = VERSIONS
) -> list[int]:
    """The gas of the transactions at ``versions``, read by a new client."""
    node.requests.clear()
    if not asynchronous:
        with Client(BASE, transport=node.transport, cache=cache) as client:
            return [int(client.transaction_by_version(v).value.gas_used) for v in versions]

    async def main() -> list[int]:
        async with AsyncClient(BASE, transport=node.transport, cache=cache) as client:
            return [int((await client.transaction_by_version(v)).value.gas_used) for v in versions]

    return asyncio.run(main())


TWINS = pytest.mark.parametrize("asynchronous", [False, True], ids=["Client", "AsyncClient"])


@TWINS
def test_an_unchanged_history_is_checked_by_one_request(tmp_path: Path, asynchronous: bool) -> None:
    node = ForkingNode()
    assert _run(node, tmp_path, asynchronous) == [111, 111, 111, 111]
    assert _run(node, tmp_path, asynchronous) == [111, 111, 111, 111]
    assert node.versions_asked() == [8]  # the newest mark; every answer from the cache


@TWINS
def test_answers_past_the_parting_are_dropped_and_read_again(
    tmp_path: Path, asynchronous: bool
) -> None:
    node = ForkingNode()
    assert _run(node, tmp_path, asynchronous) == [111, 111, 111, 111]
    node.part()
    assert _run(node, tmp_path, asynchronous) == [111, 111, 222, 222]
    # The newest mark (8) differs, so do 6; 4 agrees: 2 and 4 come from the cache, 6 and 8
    # are read again.
    assert node.versions_asked() == [8, 4, 6, 6, 8]
    assert _run(node, tmp_path, asynchronous) == [111, 111, 222, 222]
    assert node.versions_asked() == [8]  # B's own marks now


@TWINS
def test_a_pruned_mark_is_trusted(tmp_path: Path, asynchronous: bool) -> None:
    node = ForkingNode()
    assert _run(node, tmp_path, asynchronous) == [111, 111, 111, 111]
    node.oldest = 100  # the node no longer holds any of them
    assert _run(node, tmp_path, asynchronous) == [111, 111, 111, 111]
    assert node.versions_asked() == [8]  # answered 410: the cached answers stand


@TWINS
def test_a_node_behind_the_marks_cannot_vouch_for_them(tmp_path: Path, asynchronous: bool) -> None:
    node = ForkingNode()
    assert _run(node, tmp_path, asynchronous) == [111, 111, 111, 111]
    node.head = 7  # a node restarted and not yet at 8
    assert _run(node, tmp_path, asynchronous, (2, 4, 6)) == [111, 111, 111]
    # 8 is past its head (404); 4 agrees, 6 too: only what depends on 8 went.
    assert node.versions_asked() == [8, 4, 6]


def test_an_answer_without_a_root_is_marked_at_the_head_once(tmp_path: Path) -> None:
    node = ForkingNode()
    with Client(BASE, transport=node.transport, cache=tmp_path) as client:
        for version in (10, 20, 30):
            client.account_resource("0x1", "0x1::m::R", ledger_version=version)
    assert node.versions_asked() == [META.ledger_version]  # one mark covers all three
    node.part()
    node.requests.clear()
    with Client(BASE, transport=node.transport, cache=tmp_path) as client:
        value = client.account_resource("0x1", "0x1::m::R", ledger_version=10).value
    assert value.data == {"value": "2"}  # B's, read again: the mark at the head differs
    assert node.versions_asked() == [META.ledger_version, META.ledger_version]
