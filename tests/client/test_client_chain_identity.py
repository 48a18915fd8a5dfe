"""The answer cache knows its chain by chain id and genesis hash: every local node is
chain 4, and no cached answer of one local chain is served for another, whether a second
chain is opened on the same cache path or the node behind an open client is replaced. The
check costs one request per client, and one more only when the node may have changed."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from client_fakes import (
    LEDGER_INFO,
    META,
    AsyncFakeClock,
    FakeClock,
    FakeNode,
    answer,
    error,
    user_transaction,
)

import ledgerkit
from ledgerkit.client import AsyncClient, ChainIdentity, Client
from ledgerkit.localnet import LocalNode

VERSIONS = range(1, 6)
GENESIS_A = "0x" + "a0" * 32
GENESIS_B = "0x" + "b0" * 32
LOOPBACK = "http://127.0.0.1:8080/v1"


def _hashes(client: Client) -> list[str]:
    return [client.transaction_by_version(v).value.hash for v in VERSIONS]


def _direct(node: LocalNode) -> list[str]:
    with Client(node.url, cache=False) as client:
        return _hashes(client)


# -- two real local chains, both chain 4 ------------------------------------------------------


def test_a_second_chain_on_the_same_cache_path_is_served_its_own_answers(
    tmp_path: Path,
) -> None:
    with LocalNode(seed=0, blocks=5) as first, Client(first.url, cache=tmp_path) as client:
        from_first = _hashes(client)
    with LocalNode(seed=7, blocks=5) as second:
        truth = _direct(second)
        with Client(second.url, cache=tmp_path) as client:
            assert _hashes(client) == truth
            assert client.chain_identity().value.chain_id == 4
    assert from_first != truth  # two chains of one chain id, with different transactions
    assert all(a != b for a, b in zip(from_first, truth, strict=True))


def _replace(node: LocalNode, seed: int) -> LocalNode:
    """Stop ``node`` and start a chain of ``seed`` on the same port."""
    port = int(node.url.rsplit(":", 1)[1].split("/", 1)[0])
    node.stop()
    try:
        return LocalNode(seed=seed, blocks=5, port=port).start()
    except OSError as exc:  # pragma: no cover - the port was taken meanwhile
        pytest.skip(f"port {port} not free again: {exc}")


def test_a_client_kept_open_while_its_node_is_replaced_serves_no_old_answer(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    first = LocalNode(seed=0, blocks=5).start()
    try:
        client = Client(first.url, cache=tmp_path, clock=clock)
        from_first = _hashes(client)
        assert _hashes(client) == from_first  # from the cache
    finally:
        second = _replace(first, seed=7)
    try:
        truth = _direct(second)
        clock.now += 5  # a few seconds after its last answer: a node may have changed
        assert _hashes(client) == truth
        assert _hashes(client) == truth  # and now cached for this chain
        client.close()
    finally:
        second.stop()
    assert all(a != b for a, b in zip(from_first, truth, strict=True))


def test_a_new_connection_to_a_replaced_node_is_checked_at_once(tmp_path: Path) -> None:
    first = LocalNode(seed=0, blocks=5).start()
    try:
        client = Client(first.url, cache=tmp_path, clock=FakeClock())  # time stands still
        _hashes(client)
    finally:
        second = _replace(first, seed=7)
    try:
        truth = _direct(second)
        client.ledger_info()  # any request to the new node goes over a new connection
        assert _hashes(client) == truth
        client.close()
    finally:
        second.stop()


# -- the same, scripted: what is sent, and when ------------------------------------------------


class SwitchingNode(FakeNode):
    """A node serving chain A, then (after :meth:`switch`) chain B: both chain 2, with
    their own genesis and transactions; B is younger (its ledger is behind A's)."""

    def __init__(self) -> None:
        super().__init__()
        self.chain = "A"
        self.on("GET", "/", lambda r: self._answer(LEDGER_INFO))
        self.on("GET", "/transactions/by_version/0", lambda r: self._genesis())
        for v in VERSIONS:
            self.on("GET", f"/transactions/by_version/{v}", self._transaction)

    def switch(self) -> None:
        self.chain = "B"

    def _meta(self) -> Any:
        return META if self.chain == "A" else replace(META, ledger_version=50)

    def _answer(self, body: Any) -> httpx.Response:
        return answer(body, meta=self._meta())

    def _genesis(self) -> httpx.Response:
        digest = GENESIS_A if self.chain == "A" else GENESIS_B
        return self._answer({"version": "0", "hash": digest, "type": "genesis_transaction"})

    def _transaction(self, request: httpx.Request) -> httpx.Response:
        version = int(request.url.path.rsplit("/", 1)[1])
        body = user_transaction(version)
        body["hash"] = ("0xaa" if self.chain == "A" else "0xbb") + body["hash"][4:]
        return self._answer(body)

    def genesis_asked(self) -> int:
        return len(self.sent("/transactions/by_version/0"))


def _prefixes(client: Client) -> set[str]:
    return {h[:4] for h in _hashes(client)}


def test_the_identity_costs_one_request_per_client(tmp_path: Path) -> None:
    node = SwitchingNode()
    with Client(LOOPBACK, transport=node.transport, cache=tmp_path, clock=FakeClock()) as c:
        for _ in range(3):
            assert _prefixes(c) == {"0xaa"}
    assert node.genesis_asked() == 1
    assert len(node.requests) == 1 + len(VERSIONS)  # the genesis, then each once
    node.requests.clear()
    with Client(LOOPBACK, transport=node.transport, cache=tmp_path, clock=FakeClock()) as c:
        assert _prefixes(c) == {"0xaa"}
    # The genesis, and the newest history mark (the newest version read), checked once.
    assert [r.url.path for r in node.requests] == [
        "/v1/transactions/by_version/0",
        "/v1/transactions/by_version/5",
    ]


def test_a_loopback_node_silent_for_a_while_is_asked_first(tmp_path: Path) -> None:
    node = SwitchingNode()
    clock = FakeClock()
    with Client(LOOPBACK, transport=node.transport, cache=tmp_path, clock=clock) as client:
        assert _prefixes(client) == {"0xaa"}
        node.switch()
        clock.now += 5
        assert _prefixes(client) == {"0xbb"}
        assert node.genesis_asked() == 2
        assert _prefixes(client) == {"0xbb"}  # B's answers are cached under B
    assert node.genesis_asked() == 2


def test_an_answer_of_a_younger_ledger_makes_a_remote_client_ask_again(tmp_path: Path) -> None:
    node = SwitchingNode()
    with node.client(cache=tmp_path, clock=FakeClock()) as client:  # http://node.test
        assert _prefixes(client) == {"0xaa"}
        node.switch()
        client.ledger_info()  # B's ledger is behind where A's stood: not the same chain
        assert _prefixes(client) == {"0xbb"}
    assert node.genesis_asked() == 2


def test_an_answer_of_another_chain_while_a_request_is_out_is_not_stored(
    tmp_path: Path,
) -> None:
    node = SwitchingNode()
    with node.client(cache=tmp_path) as client:
        client.transaction_by_version(1)  # the identity: chain A
        node.switch()  # B answers the next request, itself a miss
        assert client.transaction_by_version(2).value.hash.startswith("0xbb")
    with node.client(cache=tmp_path) as client:  # asks B's genesis: nothing of B cached
        assert client.transaction_by_version(2).value.hash.startswith("0xbb")
    assert len(node.sent("/transactions/by_version/2")) == 2


def test_the_async_client_checks_the_same_way(tmp_path: Path) -> None:
    node = SwitchingNode()
    clock = AsyncFakeClock()

    async def main() -> list[set[str]]:
        seen = []
        async with AsyncClient(
            LOOPBACK, transport=node.transport, cache=tmp_path, clock=clock
        ) as client:
            for step in range(2):
                if step:
                    node.switch()
                    clock.now += 5
                results = await asyncio.gather(
                    *(client.transaction_by_version(v) for v in VERSIONS)
                )
                seen.append({r.value.hash[:4] for r in results})
        return seen

    assert asyncio.run(main()) == [{"0xaa"}, {"0xbb"}]
    assert node.genesis_asked() == 2  # concurrent calls wait for one check


def test_a_pruned_genesis_leaves_the_chain_id_alone(tmp_path: Path) -> None:
    node = SwitchingNode()
    node.on("GET", "/transactions/by_version/0", error(410, "version_pruned", "pruned"))
    with node.client(cache=tmp_path) as client:
        identity = client.chain_identity().value
        assert identity == ChainIdentity(META.chain_id, None)
        client.transaction_by_version(1)
        client.transaction_by_version(1)
    assert len(node.sent("/transactions/by_version/1")) == 1  # the cache works


def test_a_node_that_refuses_the_genesis_is_read_without_the_cache(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    node = SwitchingNode()
    node.on("GET", "/transactions/by_version/0", error(403, "api_disabled", "no"))
    caplog.set_level(logging.WARNING, logger="ledgerkit.client")
    with node.client(cache=tmp_path) as client:
        for _ in range(3):
            assert client.transaction_by_version(1).value.version == 1
    assert len(node.sent("/transactions/by_version/1")) == 3
    assert node.genesis_asked() == 1  # a refusal is not asked again by this client
    assert "did not say which chain" in caplog.text


def test_an_identity_is_read_from_the_genesis_transaction_of_any_page() -> None:
    upper = "0x" + "AB" * 32
    assert ChainIdentity.from_genesis(4, 0, upper) == ChainIdentity(4, "0x" + "ab" * 32)
    assert ChainIdentity.from_genesis(1, "0", GENESIS_A).genesis_hash == GENESIS_A


@pytest.mark.parametrize(
    ("version", "digest", "says"),
    [
        (1, GENESIS_A, "version 1"),
        ("00", GENESIS_A, "version '00'"),
        (0, "0x" + "ab" * 31, "not 32 bytes of hex"),
        (0, "ab" * 33, "not 32 bytes of hex"),
        (0, "0x" + "zz" * 32, "not hex"),
    ],
)
def test_an_identity_from_anything_but_a_genesis_is_refused(
    version: object, digest: str, says: str
) -> None:
    with pytest.raises(ledgerkit.DecodingError, match=says):
        ChainIdentity.from_genesis(4, version, digest)  # type: ignore[arg-type]
