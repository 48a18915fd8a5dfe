"""The Dask paths on a cluster of two worker processes (so every task is pickled) equal
the local extractions: every kind of ``extract_dask`` (transactions, blocks, an event
stream, the events transactions carry, activity), its aliases the same; from a node that wants an
api key too, the key reaching the workers but no task repr, graph key or log record; and
without Dask installed, a MissingExtraError naming the extra."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from distributed import Client, LocalCluster
from extract_helpers import API_KEY, VERSIONS, KeyedNode, as_read_back

from ledgerkit import (
    AsyncClient,
    IncompleteExtractionError,
    InputError,
    LedgerError,
    MissingExtraError,
    NodeAPIError,
)
from ledgerkit.extract import (
    blocks_dask,
    events_dask,
    extract,
    extract_blocks,
    extract_dask,
    extract_events,
    extract_transactions,
    transactions_dask,
)
from ledgerkit.extract._convert import empty_frame
from ledgerkit.localnet import LocalNode

HEIGHTS = 121  # 120 blocks after genesis
BLOCK_EVENTS = ("0x1", 2)  # 0x1::block::NewBlockEvent, one a block


@pytest.fixture(scope="module")
def cluster() -> Iterator[Client]:
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            protocol="tcp",
            host="127.0.0.1",
            dashboard_address=None,
        ) as local,
        Client(local) as client,
    ):
        assert len(client.scheduler_info()["workers"]) == 2
        yield client


def test_the_dask_frame_equals_the_parquet_dataset(
    node: LocalNode, tmp_path: Path, cluster: Client
) -> None:
    extract_transactions(node.url, tmp_path, start=0, stop=VERSIONS, partition_size=200)
    local = pd.read_parquet(tmp_path / "transactions")

    lazy = transactions_dask(node.url, 0, VERSIONS, partition_size=200)
    assert lazy.npartitions == 5  # ceil(914 / 200)
    pd.testing.assert_frame_equal(lazy._meta, empty_frame("transactions"))
    computed = lazy.compute().reset_index(drop=True)
    pd.testing.assert_frame_equal(as_read_back(computed), local)


def test_blocks_on_dask_equal_the_blocks_dataset(
    node: LocalNode, tmp_path: Path, cluster: Client
) -> None:
    extract_blocks(node.url, tmp_path, start=0, stop=HEIGHTS, partition_size=20, progress=False)
    local = pd.read_parquet(tmp_path / "blocks")

    lazy = blocks_dask(node.url, 0, HEIGHTS, partition_size=20)
    assert lazy.npartitions == 7
    pd.testing.assert_frame_equal(lazy._meta, empty_frame("blocks"))
    computed = lazy.compute().reset_index(drop=True)
    pd.testing.assert_frame_equal(as_read_back(computed), local)
    assert computed["block_height"].tolist() == list(range(HEIGHTS))


def test_events_on_dask_equal_the_events_dataset(
    node: LocalNode, tmp_path: Path, cluster: Client
) -> None:
    address, number = BLOCK_EVENTS
    extract_events(
        node.url, tmp_path, address, number, start=0, stop=50, partition_size=20, progress=False
    )
    local = pd.read_parquet(tmp_path / "events")

    lazy = events_dask(node.url, address, number, 0, 50, partition_size=20)
    assert lazy.npartitions == 3
    pd.testing.assert_frame_equal(lazy._meta, empty_frame("events"))
    computed = lazy.compute().reset_index(drop=True)
    pd.testing.assert_frame_equal(as_read_back(computed), local)
    assert computed["sequence_number"].tolist() == list(range(50))
    assert set(computed["type"]) == {"0x1::block::NewBlockEvent"}


@pytest.mark.parametrize(
    ("kind", "key"), [("transaction_events", "version"), ("activity", "version")]
)
def test_every_kind_on_dask_equals_its_dataset(
    kind: str, key: str, node: LocalNode, tmp_path: Path, cluster: Client
) -> None:
    extract(kind, node.url, tmp_path, start=0, stop=VERSIONS, partition_size=300, progress=False)  # type: ignore[arg-type]
    local = pd.read_parquet(tmp_path / kind)

    lazy = extract_dask(kind, node.url, 0, VERSIONS, partition_size=300)  # type: ignore[arg-type]
    assert lazy.npartitions == -(-VERSIONS // 300)
    pd.testing.assert_frame_equal(lazy._meta, empty_frame(kind))
    computed = lazy.compute().reset_index(drop=True)
    pd.testing.assert_frame_equal(as_read_back(computed), local)
    assert len(computed) > 0
    assert computed[key].is_monotonic_increasing
    assert computed[key].between(0, VERSIONS - 1).all()


def test_the_aliases_are_the_entry_point_for_their_kinds(node: LocalNode) -> None:
    # Same graph, partition for partition: the old names give the kind's frame.
    by_kind = extract_dask("blocks", node.url, 0, 40, partition_size=20)
    by_alias = blocks_dask(node.url, 0, 40, partition_size=20)
    assert by_kind.npartitions == by_alias.npartitions == 2
    pd.testing.assert_frame_equal(by_kind._meta, by_alias._meta)
    stream = extract_dask("events", node.url, 0, 10, address="0x1", creation_number=2)
    pd.testing.assert_frame_equal(stream._meta, empty_frame("events"))


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        ({"kind": "ledger"}, "unknown extraction kind 'ledger'"),
        ({"kind": "events"}, "give address= and creation_number="),
        ({"kind": "blocks", "address": "0x1", "creation_number": 2}, "blocks have none"),
    ],
)
def test_extract_dask_refuses_a_bad_kind_before_any_task(
    arguments: dict[str, Any], says: str, node: LocalNode
) -> None:
    kind = arguments.pop("kind")
    with pytest.raises(InputError, match=says):
        extract_dask(kind, node.url, 0, 10, **arguments)


def test_an_event_range_past_the_stream_fails_when_computed(
    node: LocalNode, cluster: Client
) -> None:
    address, number = BLOCK_EVENTS
    lazy = events_dask(node.url, address, number, 0, 10_000, partition_size=5_000)
    with pytest.raises(IncompleteExtractionError, match="events"):
        lazy.compute()


def _shown(lazy: Any) -> str:
    """Everything a lazy frame shows of itself: its repr, its expression tree and operands,
    its graph's repr and keys, and every task's repr, function and arguments."""
    expr = lazy.expr
    parts = [repr(lazy), expr.tree_repr(), str(lazy.__dask_keys__())]
    parts += [repr(list(node.operands)) for node in expr.walk()]
    graph = lazy.__dask_graph__()
    parts.append(repr(graph))
    for key, task in dict(graph).items():
        parts.append(f"{key!r}: {task!r}")
        parts += [repr(getattr(task, name, None)) for name in ("func", "args", "kwargs")]
    return "\n".join(parts)


def _logged(cluster: Client, caplog: pytest.LogCaptureFixture) -> str:
    """This process's log records and the scheduler's and workers' logs."""
    here = [record.getMessage() for record in caplog.records]
    scheduler = [message for _, message in cluster.get_scheduler_logs()]
    workers = [message for logs in cluster.get_worker_logs().values() for _, message in logs]
    return "\n".join(here + scheduler + workers)


def test_transactions_from_a_keyed_node_keep_the_key_out_of_the_graph_and_logs(
    keyed: KeyedNode, node: LocalNode, cluster: Client, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    lazy = transactions_dask(keyed.url, 0, 300, partition_size=100, api_key=API_KEY)
    assert lazy.npartitions == 3
    assert "api_key=<redacted>" in _shown(lazy)
    assert API_KEY not in _shown(lazy)
    passed = keyed.passed
    computed = lazy.compute().reset_index(drop=True)
    assert computed["version"].tolist() == list(range(300))
    open_node = transactions_dask(node.url, 0, 300, partition_size=100).compute()
    pd.testing.assert_frame_equal(computed, open_node.reset_index(drop=True))
    assert keyed.passed > passed  # the workers sent the key
    assert API_KEY not in _logged(cluster, caplog)


def test_blocks_and_events_from_a_keyed_node_through_a_client(
    keyed: KeyedNode, cluster: Client, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    client = AsyncClient(keyed.url, api_key=API_KEY)  # only its settings are used
    blocks = blocks_dask(client, 0, 40, partition_size=20)
    address, number = BLOCK_EVENTS
    events = events_dask(client, address, number, 0, 30, partition_size=10)
    assert API_KEY not in _shown(blocks) + _shown(events)
    assert blocks.compute()["block_height"].tolist() == list(range(40))
    assert events.compute()["sequence_number"].tolist() == list(range(30))
    assert API_KEY not in _logged(cluster, caplog)


def test_a_keyed_node_refuses_the_workers_without_the_key(
    keyed: KeyedNode, cluster: Client, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    lazy = blocks_dask(keyed.url, 0, 10, partition_size=10)
    with pytest.raises(NodeAPIError) as caught:
        lazy.compute()
    assert caught.value.status == 401


def test_without_dask_a_missing_extra_error_names_the_extra(
    node: LocalNode, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("dask", "dask.dataframe"):
        monkeypatch.setitem(sys.modules, name, None)
    for make in (
        lambda: transactions_dask(node.url, 0, 10),
        lambda: blocks_dask(node.url, 0, 10),
        lambda: events_dask(node.url, *BLOCK_EVENTS, 0, 10),
    ):
        with pytest.raises(MissingExtraError) as caught:
            make()
        assert "pip install 'ledgerkit[dask]'" in str(caught.value)
        assert caught.value.extra == "dask"
        assert isinstance(caught.value, ImportError)
        assert isinstance(caught.value, LedgerError)


def test_importing_the_extractions_loads_no_dask() -> None:
    probe = (
        "import json, sys, ledgerkit.extract; "
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('dask', 'distributed'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(done.stdout) == []
