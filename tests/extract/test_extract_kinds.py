"""One entry point for every kind: ``extract(kind, ...)`` writes the very files its alias
(``extract_transactions`` and kin) writes, its coroutine twin too, and a kind outside the
closed set is refused before anything is sent or written."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from extract_helpers import VERSIONS, FaultyTransport

import ledgerkit
from ledgerkit.extract import (
    KINDS,
    aextract,
    aextract_blocks,
    aextract_events,
    aextract_transactions,
    extract,
    extract_blocks,
    extract_events,
    extract_transactions,
    read_manifest,
)
from ledgerkit.localnet import LocalNode

#: ``0x1``'s creation number 2 is the ``NewBlockEvent`` stream: one event per block.
ADDRESS, CREATION_NUMBER = "0x1", 2
STREAM: dict[str, Any] = {"address": ADDRESS, "creation_number": CREATION_NUMBER}

#: kind -> (start, stop, partition size, files written). Transactions: [37, 300), [300, 600),
#: [600, 900), [900, 914); blocks: [5, 40), [40, 80), [80, 120), [120, 121); events:
#: [3, 50), [50, 100), [100, 110).
CASES: dict[str, tuple[int, int, int, int]] = {
    "transactions": (37, VERSIONS, 300, 4),
    "blocks": (5, 121, 40, 4),
    "events": (3, 110, 50, 3),
}


def _files(root: Path, kind: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((root / kind).glob("*.parquet"))}


def _by_alias(kind: str, url: str, out: Path, **arguments: Any) -> object:
    if kind == "transactions":
        return extract_transactions(url, out, **arguments)
    if kind == "blocks":
        return extract_blocks(url, out, **arguments)
    return extract_events(url, out, ADDRESS, CREATION_NUMBER, **arguments)


def test_the_kinds_are_the_five_datasets() -> None:
    assert KINDS == ("transactions", "blocks", "events", "transaction_events", "activity")


@pytest.mark.parametrize("kind", list(CASES))
def test_extract_writes_the_files_its_alias_writes(
    kind: str, node: LocalNode, tmp_path: Path
) -> None:
    start, stop, size, files = CASES[kind]
    arguments: dict[str, Any] = {
        "start": start,
        "stop": stop,
        "partition_size": size,
        "progress": False,
    }
    stream = STREAM if kind == "events" else {}
    one = extract(kind, node.url, tmp_path / "one", **stream, **arguments)  # type: ignore[arg-type]
    alias = _by_alias(kind, node.url, tmp_path / "alias", **arguments)
    assert str(one).split(" in ")[0] == str(alias).split(" in ")[0]
    mine, theirs = _files(tmp_path / "one", kind), _files(tmp_path / "alias", kind)
    assert len(mine) == files
    assert mine == theirs  # byte for byte
    frame = pd.read_parquet(tmp_path / "one" / kind)
    key = {"transactions": "version", "blocks": "block_height", "events": "sequence_number"}
    assert frame[key[kind]].tolist() == list(range(start, stop))
    manifest = read_manifest(tmp_path / "one")
    assert manifest is not None
    assert manifest["kind"] == kind
    assert manifest["stream"] == (
        {"address": "0x" + "0" * 63 + "1", "creation_number": 2} if kind == "events" else None
    )


@pytest.mark.parametrize("kind", list(CASES))
def test_aextract_writes_the_files_of_its_alias(kind: str, node: LocalNode, tmp_path: Path) -> None:
    start, stop, size, _ = CASES[kind]
    arguments: dict[str, Any] = {"start": start, "stop": stop, "partition_size": size}
    arguments["progress"] = False

    async def both() -> None:
        stream = STREAM if kind == "events" else {}
        await aextract(kind, node.url, tmp_path / "one", **stream, **arguments)  # type: ignore[arg-type]
        if kind == "transactions":
            await aextract_transactions(node.url, tmp_path / "alias", **arguments)
        elif kind == "blocks":
            await aextract_blocks(node.url, tmp_path / "alias", **arguments)
        else:
            alias = tmp_path / "alias"
            await aextract_events(node.url, alias, ADDRESS, CREATION_NUMBER, **arguments)

    asyncio.run(both())
    assert _files(tmp_path / "one", kind) == _files(tmp_path / "alias", kind)
    assert _files(tmp_path / "one", kind)


@pytest.mark.parametrize("kind", ["transaction", "Blocks", "", "payloads", None, 3])
def test_an_unknown_kind_is_refused_naming_the_kinds(kind: Any, tmp_path: Path) -> None:
    transport = FaultyTransport()
    out = tmp_path / "data"
    with pytest.raises(ledgerkit.InputError) as caught:
        extract(kind, "http://127.0.0.1:9/v1", out, start=0, stop=10, transport=transport)
    message = str(caught.value)
    assert message.startswith(f"unknown extraction kind {kind!r}")
    assert "'transactions', 'blocks', 'events'" in message
    with pytest.raises(ledgerkit.InputError, match="unknown extraction kind"):
        asyncio.run(aextract(kind, "http://127.0.0.1:9/v1", out, start=0, stop=10))
    assert transport.pages == 0
    assert not out.exists()


def test_events_need_their_stream_and_other_kinds_take_none(tmp_path: Path) -> None:
    url = "http://127.0.0.1:9/v1"
    with pytest.raises(ledgerkit.InputError, match="give address= and creation_number="):
        extract("events", url, tmp_path / "a", start=0, stop=10, address="0x1")
    with pytest.raises(ledgerkit.InputError, match="blocks have none"):
        extract("blocks", url, tmp_path / "b", start=0, stop=10, **STREAM)
    with pytest.raises(ledgerkit.InputError, match="transactions have none"):
        extract("transactions", url, tmp_path / "c", start=0, stop=10, creation_number=2)
    assert list(tmp_path.iterdir()) == []


def test_the_aliases_say_what_they_alias() -> None:
    for alias, kind in [
        (extract_transactions, "transactions"),
        (extract_blocks, "blocks"),
        (extract_events, "events"),
        (aextract_transactions, "transactions"),
        (aextract_blocks, "blocks"),
        (aextract_events, "events"),
    ]:
        assert alias.__doc__ is not None
        assert alias.__doc__.startswith("Alias of ")
        assert f'extract("{kind}", url, out' in alias.__doc__
