"""How a run lays out its work, seen from outside: partitions fetched before a failure are
still written and recorded, and a new dataset whose chain cannot be told gets nothing."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from extract_helpers import VERSIONS, FaultyTransport, invalid_input

import ledgerkit
from ledgerkit.extract import extract, read_manifest
from ledgerkit.localnet import LocalNode


def test_partitions_fetched_before_a_failure_are_written(node: LocalNode, tmp_path: Path) -> None:
    def fail_after_four(request: httpx.Request, number: int) -> httpx.Response | None:
        return invalid_input(request) if number > 4 else None

    transport = FaultyTransport(after=fail_after_four)
    with pytest.raises(ledgerkit.InvalidInputError):
        extract(
            "transactions",
            node.url,
            tmp_path,
            start=0,
            stop=VERSIONS,
            partition_size=100,  # one page a partition: the first four pages are four
            concurrency=2,
            progress=False,
            transport=transport,
        )
    manifest = read_manifest(tmp_path)
    assert manifest is not None
    assert manifest["range"] == [0, VERSIONS]
    recorded = manifest["partitions"]
    # Two requests at a time: when the fifth is refused, three pages at least have come,
    # and the first two long since (the latest may still be on its way, and is dropped).
    assert 2 <= len(recorded) <= 4
    assert all(p["rows"] == 100 for p in recorded)
    on_disk = {f"transactions/{p.name}" for p in (tmp_path / "transactions").glob("*")}
    assert on_disk == {p["file"] for p in recorded}  # every file recorded, no temporary one


class _NoGenesis(FaultyTransport):
    """The node, but its genesis transaction answers 400 (not retried)."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/transactions/by_version/0"):
            return invalid_input(request)
        return await super().handle_async_request(request)


def test_a_new_dataset_gets_nothing_when_the_chain_cannot_be_told(
    node: LocalNode, tmp_path: Path
) -> None:
    out = tmp_path / "data"
    with pytest.raises(ledgerkit.InvalidInputError):
        extract(
            "transactions",
            node.url,
            out,
            start=1,  # the genesis is not among the pages: it is asked for
            stop=VERSIONS,
            partition_size=300,
            progress=False,
            transport=_NoGenesis(),
        )
    assert not out.exists()


@pytest.mark.parametrize("kind", ["transactions", "activity"])
def test_a_range_from_version_0_names_its_chain_by_its_first_page(
    node: LocalNode, tmp_path: Path, kind: str
) -> None:
    # The genesis transaction is the first record of the first page: no request of its
    # own (the node here would refuse it), and the manifest names the chain as the node's
    # own answer for version 0 does.
    genesis = httpx.get(f"{node.url}/transactions/by_version/0").json()["hash"]
    summary = extract(
        kind,
        node.url,
        tmp_path,
        start=0,
        stop=250,
        partition_size=100,
        progress=False,
        transport=_NoGenesis(),
    )
    assert summary.genesis_hash == genesis
    manifest = read_manifest(tmp_path)
    assert manifest is not None
    assert manifest["genesis_hash"] == genesis


def test_events_from_version_0_still_ask_for_the_genesis(node: LocalNode, tmp_path: Path) -> None:
    # A page of events carries no transaction hash: the chain is asked for by version 0.
    with pytest.raises(ledgerkit.InvalidInputError):
        extract(
            "transaction_events",
            node.url,
            tmp_path / "events",
            start=0,
            stop=250,
            progress=False,
            transport=_NoGenesis(),
        )
    assert not (tmp_path / "events").exists()
