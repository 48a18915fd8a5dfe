"""The client and the extraction against the embedded node in its public profile, over
HTTP: a pruned fullnode whose 410 names its archive, an archive that refuses the fullnode's
key, a rate limit, and load shedding. What a researcher pointing ledgerkit at a public
network meets, offline."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from extract_helpers import VERSIONS

import ledgerkit
from ledgerkit import Client
from ledgerkit.extract import extract
from ledgerkit.localnet import LocalNode, PublicSettings

#: The extraction tests' chain (seed 7, 120 blocks: versions 0..913).
SEED, BLOCKS = 7, 120
#: Versions the fullnode keeps: about the newest 400 (it prunes whole blocks). On this chain
#: its ``GET /v1`` says oldest_ledger_version 536: 914 - 400 = 514 falls in block 81
#: (507..535), so it keeps from block 82 (536..567) on.
WINDOW = 400

MakeNode = Callable[..., LocalNode]


@pytest.fixture(scope="module")
def public(make_node: MakeNode) -> LocalNode:
    settings = PublicSettings(prune_window=WINDOW, budget=1_000_000, key_budget=1_000_000)
    return make_node(seed=SEED, blocks=BLOCKS, profile="public", public=settings, services=False)


@pytest.fixture(scope="module")
def oldest(public: LocalNode) -> int:
    """The oldest version the fullnode keeps, as its ``GET /v1`` says (plain HTTP)."""
    import httpx

    value = int(httpx.get(public.url).json()["oldest_ledger_version"])
    assert VERSIONS - WINDOW - 50 <= value <= VERSIONS - WINDOW + 50
    return value


def _without_authorization(node: LocalNode) -> None:
    received = list(node.archive_received)
    assert received, "the archive was asked nothing"
    for _method, _path, headers in received:
        assert "authorization" not in headers
        assert node.api_key not in json.dumps(headers)


def test_a_pruned_read_succeeds_through_the_archive_and_says_so(
    public: LocalNode, oldest: int
) -> None:
    with Client(public.url, api_key=public.api_key, cache=False) as client:
        assert client.ledger_info().value.oldest_ledger_version == oldest
        with pytest.raises(ledgerkit.VersionPrunedError) as direct:
            _bare_410(public)  # what the gateway sends, read with a plain HTTP client
        assert direct.value.archival_endpoint == public.archive_url
        old = client.transaction_by_version(3)
        fresh = client.transaction_by_version(VERSIONS - 1)
        assert old.value.version == 3
        assert old.ledger.answered_by == public.archive_url
        assert old.ledger.oldest_ledger_version == 0
        assert fresh.ledger.answered_by == public.url
        assert client.archive_url == public.archive_url
        # A hash of a pruned version: 404 on the fullnode, found on the archive.
        found = client.transaction_by_hash(old.value.hash)
        assert found.value.version == 3
        assert found.ledger.answered_by == public.archive_url
    _without_authorization(public)


def _bare_410(node: LocalNode) -> None:
    import httpx

    answer = httpx.get(f"{node.url}/transactions/by_version/3")
    assert answer.status_code == 410
    record = answer.json()
    raise ledgerkit._errors.error_from_record(410, record)


def test_an_extraction_straddling_the_window_equals_one_from_an_unpruned_node(
    public: LocalNode, oldest: int, node: LocalNode, tmp_path: Path
) -> None:
    # ``node`` is the same chain (seed 7, 120 blocks) with its whole history.
    start, stop = 400, VERSIONS
    with Client(public.url, api_key=public.api_key, cache=False) as keyed:
        summary = extract(
            "transactions", keyed, tmp_path / "public", start=start, stop=stop,
            partition_size=200, progress=False,
        )  # fmt: skip
    extract(
        "transactions", node.url, tmp_path / "whole", start=start, stop=stop,
        partition_size=200, progress=False,
    )  # fmt: skip
    for name in sorted(p.name for p in (tmp_path / "whole" / "transactions").iterdir()):
        ours = pq.read_table(tmp_path / "public" / "transactions" / name)
        theirs = pq.read_table(tmp_path / "whole" / "transactions" / name)
        assert ours.equals(theirs)  # every column, value for value
    assert summary.rows_written == stop - start
    assert summary.served_by == {public.archive_url: oldest - start, public.url: stop - oldest}
    manifest = json.loads((tmp_path / "public" / "manifest.json").read_text())
    by_partition = {e["first"]: e["served_by"] for e in manifest["partitions"]}
    # [400, 600), [600, 800), [800, 914): the window begins inside the first partition.
    assert 400 < oldest < 600
    assert by_partition == {
        400: {public.archive_url: oldest - 400, public.url: 600 - oldest},
        600: {public.url: 200},
        800: {public.url: stop - 800},
    }
    _without_authorization(public)


def test_oldest_and_head_are_read_once_and_recorded(
    public: LocalNode, oldest: int, tmp_path: Path
) -> None:
    summary = extract(
        "transactions", public.url, tmp_path, start="oldest", stop="head", progress=False
    )
    assert (summary.start, summary.stop) == (oldest, VERSIONS)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    (ends,) = manifest["resolved_ends"]
    assert ends["start"] == "oldest"
    assert ends["stop"] == "head"
    assert (ends["first"], ends["end"]) == (oldest, VERSIONS)
    assert ends["at_ledger_version"] == VERSIONS - 1
    frame = pq.read_table(tmp_path / "transactions").to_pandas()
    assert frame["version"].tolist() == list(range(oldest, VERSIONS))


def test_an_extraction_under_a_rate_limit_ends_with_every_row(
    make_node: MakeNode, tmp_path: Path
) -> None:
    # A budget of 20 units a second, 5 a page: the ceil(800 / 100) = 8 pages of [114, 914)
    # need 40.
    settings = PublicSettings(prune_window=900, budget=20, page_cost=5, window_seconds=1.0)
    limited = make_node(seed=SEED, blocks=BLOCKS, profile="public", public=settings, services=False)
    summary = extract(
        "transactions", limited.url, tmp_path, start=114, stop=VERSIONS,
        concurrency=4, progress=False,
    )  # fmt: skip
    assert summary.rows_written == VERSIONS - 114
    assert summary.waited_seconds > 0
    frame = pq.read_table(tmp_path / "transactions").to_pandas()
    assert frame["version"].tolist() == list(range(114, VERSIONS))


def test_overloaded_answers_are_typed_and_retried(make_node: MakeNode) -> None:
    settings = PublicSettings(overload_rate=0.5, seed=3)
    shedding = make_node(
        seed=SEED, blocks=BLOCKS, profile="public", public=settings, services=False
    )
    patient = ledgerkit.client.Retry(total=30, backoff=0.0)
    with Client(shedding.url, cache=False, retries=patient) as client:
        versions = [client.transaction_by_version(v).value.version for v in range(800, 820)]
    assert versions == list(range(800, 820))
    with Client(shedding.url, cache=False, retries=0) as impatient:
        errors = []
        for v in range(800, 840):
            try:
                impatient.transaction_by_version(v)
            except ledgerkit.ServiceUnavailableError as exc:
                errors.append(exc)
    assert errors, "half the answers shed, none seen"
    assert {(e.status, e.error_code) for e in errors} == {(503, "overloaded")}


@pytest.mark.parametrize(
    ("kind", "ends", "says"),
    [
        ("transactions", {"start": "latest", "stop": 10}, "start must be an integer or 'oldest'"),
        ("blocks", {"start": 0, "stop": "newest"}, "stop must be an integer or 'head'"),
        ("events", {"start": "oldest", "stop": 10}, "an event stream's range"),
        ("transactions", {"start": -1, "stop": "head"}, "start must be a non-negative"),
    ],
)
def test_range_ends_other_than_oldest_and_head_are_refused_before_sending(
    kind: str, ends: dict[str, object], says: str, tmp_path: Path
) -> None:
    stream = {"address": "0x1", "creation_number": 0} if kind == "events" else {}
    # An address nothing listens on: nothing may be sent.
    with pytest.raises(ledgerkit.InputError, match=says):
        extract(kind, "http://127.0.0.1:9/v1", tmp_path, **ends, **stream, progress=False)  # type: ignore[arg-type]
    assert not (tmp_path / "manifest.json").exists()
