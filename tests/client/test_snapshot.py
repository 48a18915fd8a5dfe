"""Record and replay against a scripted node (``client_fakes``): answers given again in
order, waits taken on a virtual clock, a request never recorded named in a typed error,
no secret in the file, and a damaged file refused with a typed error.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import secrets
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pyarrow as pa
import pytest
from client_fakes import (
    ADDRESS,
    LEDGER_INFO,
    AsyncFakeClock,
    FakeClock,
    FakeNode,
    answer,
    error,
)

import ledgerkit
from ledgerkit import InputError, NodeAPIError, SnapshotError, SnapshotMissError, TransportError
from ledgerkit.client.snapshot import AsyncVirtualClock, Snapshot, VirtualClock

URL = "http://node.test/v1"


def _counting_node() -> FakeNode:
    """A node whose ledger moves on by one version each time it is asked where it stands."""
    node = FakeNode()
    asked = iter(range(5_000, 6_000))

    def ledger_info(request: httpx.Request) -> httpx.Response:
        return answer({**LEDGER_INFO, "ledger_version": str(next(asked))})

    node.on("GET", "/", ledger_info)
    return node


def _throttling_node() -> FakeNode:
    """A node that answers 429 with ``Retry-After: 2`` once, then the ledger info."""
    node = FakeNode()
    answers = iter([error(429, "rate_limited", headers={"Retry-After": "2"})])

    def ledger_info(request: httpx.Request) -> httpx.Response:
        return next(answers, None) or answer(LEDGER_INFO)

    node.on("GET", "/", ledger_info)
    return node


def test_the_same_request_gets_its_answers_in_order_then_the_last_again(tmp_path: Path) -> None:
    path = tmp_path / "a.snapshot"
    node = _counting_node()
    with ledgerkit.connect(URL, record=path, transport=node.transport) as client:
        live = [client.ledger_info().value.ledger_version for _ in range(3)]
    assert live == [5_000, 5_001, 5_002]
    with ledgerkit.connect(replay=path) as replayed:
        again = [replayed.ledger_info().value.ledger_version for _ in range(4)]
    assert again == [5_000, 5_001, 5_002, 5_002]
    assert len(node.requests) == 3  # the replay sent nothing


def test_a_request_never_recorded_is_a_miss_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "a.snapshot"
    with ledgerkit.connect(URL, record=path, transport=_counting_node().transport) as client:
        client.ledger_info()
    with ledgerkit.connect(replay=path) as replayed, pytest.raises(SnapshotMissError) as caught:
        replayed.account(ADDRESS)
    miss = caught.value
    assert isinstance(miss, TransportError)
    assert (miss.method, miss.url, miss.accept) == (
        "GET",
        f"{URL}/accounts/{ADDRESS}",
        "application/json",
    )
    assert str(miss).startswith(f"GET {URL}/accounts/{ADDRESS} (Accept: application/json)")


def test_a_request_body_is_part_of_the_key(tmp_path: Path) -> None:
    path = tmp_path / "a.snapshot"
    node = FakeNode()
    node.on("POST", "/view", lambda request: answer([json.loads(request.content)["arguments"]]))
    with ledgerkit.connect(URL, record=path, transport=node.transport) as client:
        assert client.view_json("0x1::m::f", [], ["1"]).value == [["1"]]
    with ledgerkit.connect(replay=path) as replayed:
        assert replayed.view_json("0x1::m::f", [], ["1"]).value == [["1"]]
        with pytest.raises(SnapshotMissError, match=r"^POST http://node.test/v1/view "):
            replayed.view_json("0x1::m::f", [], ["2"])


def test_answers_of_two_origins_are_kept_apart(tmp_path: Path) -> None:
    archive_url = "http://archive.test/v1"
    archive = FakeNode()
    archive.on("GET", "/", answer({**LEDGER_INFO, "ledger_version": "77"}))
    recording = Snapshot(tmp_path / "a.snapshot")
    with (
        recording.client(URL, transport=_counting_node().transport) as live,
        recording.client(archive_url, transport=archive.transport) as old,
    ):
        assert live.ledger_info().value.ledger_version == 5_000
        assert old.ledger_info().value.ledger_version == 77
    recording.save()
    replaying = Snapshot.load(tmp_path / "a.snapshot")
    assert replaying.base_urls == (URL, archive_url)
    with replaying.client() as first, replaying.client(archive_url) as second:
        assert first.base_url == URL
        assert second.ledger_info().value.ledger_version == 77
        assert first.ledger_info().value.ledger_version == 5_000


def test_a_429_wait_is_replayed_on_the_virtual_clock(tmp_path: Path) -> None:
    path = tmp_path / "a.snapshot"
    live_clock = FakeClock()
    node = _throttling_node()
    with ledgerkit.connect(URL, record=path, transport=node.transport, clock=live_clock) as c:
        live = c.ledger_info()
    assert live_clock.sleeps == [2.0]
    clock = VirtualClock(start=1_700_000_000.0)
    with ledgerkit.connect(replay=path, clock=clock) as replayed:
        again = replayed.ledger_info()
    assert again == live
    assert clock.slept == [2.0]
    assert clock.monotonic() == 2.0
    assert len(node.requests) == 2


def test_an_async_client_replays_the_429_wait_too(tmp_path: Path) -> None:
    path = tmp_path / "a.snapshot"
    node = _throttling_node()
    recording = Snapshot(path)

    async def record() -> Any:
        async with recording.async_client(
            URL, transport=node.transport, clock=AsyncFakeClock()
        ) as client:
            return await client.ledger_info()

    live = asyncio.run(record())
    recording.save()
    clock = AsyncVirtualClock()

    async def replay() -> Any:
        async with Snapshot.load(path).async_client(clock=clock) as client:
            return await client.ledger_info()

    assert asyncio.run(replay()) == live
    assert clock.slept == [2.0]


def _file_text(path: Path) -> bytes:
    """Everything a snapshot file holds, read by hand: a version 1 file decompressed; of
    a version 2 file every table's text and every body decompressed."""
    raw = path.read_bytes()
    if raw.startswith(b"\x1f\x8b"):
        return gzip.decompress(raw)
    with sqlite3.connect(path) as db:
        parts = [repr(row).encode() for row in db.execute("SELECT * FROM requests")]
        parts += [repr(row).encode() for row in db.execute("SELECT * FROM answers")]
        parts += [repr(row).encode() for row in db.execute("SELECT * FROM base_urls")]
        zstd = pa.Codec("zstd")  # the bodies' codec (meta.compression)
        assert db.execute("SELECT value FROM meta WHERE key = 'compression'").fetchone() == (
            "zstd",
        )
        parts += [
            zstd.decompress(data, decompressed_size=size, asbytes=True)
            for size, data in db.execute("SELECT size, data FROM bodies")
        ]
    db.close()
    return b"\n".join(parts)


# -- secrets -------------------------------------------------------------------------------


@pytest.mark.parametrize("version", [2, 1])
def test_no_key_token_or_secret_header_is_in_the_file(tmp_path: Path, version: int) -> None:
    key = "sk-live-" + secrets.token_hex(16)
    token = "hdr-" + secrets.token_hex(16)
    path_token = "pt" + secrets.token_hex(12)
    trace = "trace-" + secrets.token_hex(8)  # a header that is no secret, still not kept
    base = f"https://node.test/{path_token}/v1"

    def echo(request: httpx.Request) -> httpx.Response:
        # A proxy that quotes what it was sent, in the body and in a ledger header.
        quoted = f"{request.headers['authorization']} {request.headers['x-api-key']} {request.url}"
        return error(
            401, "web_framework_error", f"refused: {quoted}", headers={"X-Aptos-Echo": quoted}
        )

    node = FakeNode()
    node.on("GET", f"/{path_token}/v1/", lambda request: answer(LEDGER_INFO))
    node.on("GET", f"/{path_token}/v1/accounts/{ADDRESS}", echo)
    path = tmp_path / "a.snapshot"
    recording = Snapshot(path, version=version)
    with recording.client(
        base,
        api_key=key,
        headers={"X-Api-Key": token, "X-Trace": trace},
        transport=node.transport,
    ) as client:
        live = client.ledger_info()
        with pytest.raises(NodeAPIError) as refused:
            client.account(ADDRESS)
    assert recording.save() == path
    assert refused.value.status == 401
    raw = path.read_bytes()
    text = _file_text(path)
    for secret in (key, token, path_token, trace):
        assert secret.encode() not in raw
        assert secret.encode() not in text
    assert b"https://node.test/***/v1/accounts/" in text
    assert b"Bearer ***" in text
    # What the snapshot shows of the node is what the client's logs show.
    with ledgerkit.connect(replay=path) as replayed:
        assert replayed.base_url == "https://node.test/***/v1"
        assert replayed.ledger_info() == live
        with pytest.raises(NodeAPIError, match=r"refused: Bearer \*\*\* \*\*\* https://node"):
            replayed.account(ADDRESS)


def test_only_the_headers_a_client_reads_are_kept(tmp_path: Path) -> None:
    node = FakeNode()
    node.on(
        "GET",
        "/",
        answer(LEDGER_INFO, headers={"Set-Cookie": "sid=abc123", "Server": "edge-7"}),
    )
    path = tmp_path / "a.snapshot"
    with ledgerkit.connect(URL, record=path, transport=node.transport) as client:
        client.ledger_info()
    with sqlite3.connect(path) as db:
        (exchange,) = db.execute("SELECT method, url, accept FROM requests").fetchall()
        ((headers,),) = db.execute("SELECT headers FROM answers").fetchall()
    db.close()
    assert sorted(name for name, _ in json.loads(headers)) == [
        "content-type",
        "x-node-block-height",
        "x-node-chain-id",
        "x-node-epoch",
        "x-node-ledger-oldest-version",
        "x-node-ledger-timestampusec",
        "x-node-ledger-version",
        "x-node-oldest-block-height",
    ]
    assert exchange == ("GET", f"{URL}/", "application/json")


# -- the file ------------------------------------------------------------------------------


def test_save_writes_the_answers_so_far_and_close_writes_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "a.snapshot"
    with ledgerkit.connect(URL, record=path, transport=_counting_node().transport) as client:
        client.ledger_info()
        assert client.snapshot is not None
        client.snapshot.save()
        assert len(Snapshot.load(path)) == 1
        client.ledger_info()
    assert len(Snapshot.load(path)) == 2


def _valid(tmp_path: Path) -> bytes:
    """A version 1 file of one answer."""
    path = tmp_path / "valid.snapshot"
    recording = Snapshot(path, version=1)
    with recording.client(URL, transport=_counting_node().transport) as client:
        client.ledger_info()
    recording.save()
    assert path.read_bytes()[:2] == b"\x1f\x8b"  # gzip
    return path.read_bytes()


def _document(**changes: Any) -> bytes:
    document = {"format": "ledgerkit-snapshot", "version": 1, "recorded_at": 0.0}
    document.update({"base_urls": [URL], "exchanges": []}, **changes)
    return gzip.compress(json.dumps(document).encode())


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda valid: b"", "truncated"),
        (lambda valid: b"plain text, not a snapshot", "not a gzip-compressed snapshot"),
        (lambda valid: valid[: len(valid) // 2], "truncated"),
        (lambda valid: valid + b"tail", "after the end"),
        (lambda valid: valid[:12] + bytes(64) + valid[76:], "corrupt"),
        (lambda valid: gzip.compress(b"{not json"), "bad JSON"),
        (lambda valid: gzip.compress(b'{"format": "other"}'), "not a ledgerkit snapshot"),
        (lambda valid: _document(version=99), "format version 99"),
        (lambda valid: _document(exchanges=[{"method": "GET"}]), r"exchanges\[0\]\.url"),
        (
            lambda valid: _document(
                exchanges=[
                    {
                        "method": "GET",
                        "url": URL,
                        "accept": "application/json",
                        "answers": [{"status": 200, "headers": {}, "base64": "%%"}],
                    }
                ]
            ),
            "not base64",
        ),
    ],
    ids=[
        "empty",
        "not-gzip",
        "truncated",
        "trailing",
        "corrupt",
        "bad-json",
        "other-format",
        "newer",
        "missing-field",
        "bad-base64",
    ],
)
def test_a_damaged_file_is_a_snapshot_error(tmp_path: Path, damage: Any, message: str) -> None:
    path = tmp_path / "damaged.snapshot"
    path.write_bytes(damage(_valid(tmp_path)))
    with pytest.raises(SnapshotError, match=message):
        ledgerkit.connect(replay=path)


def test_a_missing_or_oversized_file_is_a_snapshot_error(tmp_path: Path) -> None:
    with pytest.raises(SnapshotError, match="cannot be read"):
        Snapshot.load(tmp_path / "nowhere.snapshot")
    path = tmp_path / "a.snapshot"
    path.write_bytes(_valid(tmp_path))
    with pytest.raises(SnapshotError, match="more than the 64 bytes allowed"):
        Snapshot.load(path, max_bytes=64)


# -- connect() -----------------------------------------------------------------------------


def test_connect_refuses_what_a_snapshot_cannot_do(tmp_path: Path) -> None:
    path = tmp_path / "a.snapshot"
    path.write_bytes(_valid(tmp_path))
    with pytest.raises(InputError, match="exclude each other"):
        ledgerkit.connect(URL, record=tmp_path / "b.snapshot", replay=path)
    with pytest.raises(InputError, match="not a node this snapshot was recorded from"):
        ledgerkit.connect("http://other.test/v1", replay=path)
    with pytest.raises(InputError, match="cache stays off"):
        ledgerkit.connect(URL, record=tmp_path / "c.snapshot", cache=True)
    with pytest.raises(InputError, match="sends nothing"):
        ledgerkit.connect(replay=path, transport=httpx.MockTransport(lambda r: answer({})))
    with ledgerkit.connect(URL + "/", replay=path) as same:
        assert same.ledger_info().value.ledger_version == 5_000


def test_a_replay_ignores_the_node_named_by_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.snapshot"
    path.write_bytes(_valid(tmp_path))
    monkeypatch.setenv("LEDGERKIT_NODE_URL", "http://elsewhere.test/v1")
    with ledgerkit.connect(replay=path) as client:
        assert client.base_url == URL


def test_dask_extraction_refuses_a_recording_or_replaying_client(tmp_path: Path) -> None:
    pytest.importorskip("dask.dataframe")
    from ledgerkit.extract import transactions_dask

    path = tmp_path / "a.snapshot"
    path.write_bytes(_valid(tmp_path))
    with (
        ledgerkit.connect(replay=path) as client,
        pytest.raises(InputError, match="do not record or replay"),
    ):
        transactions_dask(client, 0, 10)
