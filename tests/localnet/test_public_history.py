"""The public profile's two nodes over one chain, over HTTP: the pruned fullnode answers
old reads 410 with the gateway's pointer to the archive, the archive answers them 200,
refuses the fullnode's key, and records what it received."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from node_http_helpers import assert_error, assert_headers, ok

from ledgerkit import Client
from ledgerkit.localnet import LocalNode, PublicSettings

MakeNode = Callable[..., LocalNode]
SEED = 17
BLOCKS = 10


@dataclass(frozen=True)
class Pair:
    """The two nodes of one public profile and a plain client of each."""

    node: LocalNode
    fullnode: httpx.Client
    archive: httpx.Client
    oldest: int  # the fullnode's oldest version, as its GET /v1 says
    oldest_block: int
    latest: int


@pytest.fixture(scope="module")
def pair(make_node: MakeNode) -> Iterator[Pair]:
    # The default window: the newest 40% of the versions at start.
    node = make_node(seed=SEED, blocks=BLOCKS, profile="public", services=False)
    with (
        httpx.Client(base_url=node.url, timeout=30.0) as fullnode,
        httpx.Client(base_url=node.archive_url, timeout=30.0) as archive,
    ):
        info = ok(fullnode.get("/"))
        yield Pair(
            node,
            fullnode,
            archive,
            int(info["oldest_ledger_version"]),
            int(info["oldest_block_height"]),
            int(info["ledger_version"]),
        )


def test_get_v1_reports_the_window_on_the_fullnode_and_all_history_on_the_archive(
    pair: Pair,
) -> None:
    full = ok(pair.fullnode.get(""))
    archive = ok(pair.archive.get(""))
    versions = int(archive["ledger_version"]) + 1
    window = versions * 2 // 5  # 40% of the chain's versions, rounded down
    assert pair.node.public is not None
    assert pair.node.public.prune_window == window
    assert archive["oldest_ledger_version"] == "0"
    assert archive["oldest_block_height"] == "0"
    assert archive["chain_id"] == full["chain_id"] == pair.node.config.chain_id
    assert archive["ledger_version"] == full["ledger_version"]
    oldest = int(full["oldest_ledger_version"])
    assert oldest > 0
    assert pair.latest - oldest + 1 <= window
    # The oldest version opens the oldest block the fullnode holds (the archive says so).
    block = ok(pair.archive.get(f"/blocks/by_height/{full['oldest_block_height']}"))
    assert int(block["first_version"]) == oldest
    # The block before it reaches beyond the window.
    before = ok(pair.archive.get(f"/blocks/by_height/{int(full['oldest_block_height']) - 1}"))
    assert pair.latest - int(before["first_version"]) + 1 > window


def test_the_ledger_headers_carry_each_nodes_history(pair: Pair) -> None:
    full = assert_headers(pair.fullnode.get("/transactions", params={"limit": 1}))
    assert full["X-NODE-LEDGER-OLDEST-VERSION"] == pair.oldest
    assert full["X-NODE-OLDEST-BLOCK-HEIGHT"] == pair.oldest_block
    archive = assert_headers(pair.archive.get("/transactions", params={"limit": 1}))
    assert archive["X-NODE-LEDGER-OLDEST-VERSION"] == 0
    assert archive["X-NODE-OLDEST-BLOCK-HEIGHT"] == 0
    assert archive["X-NODE-LEDGER-VERSION"] == full["X-NODE-LEDGER-VERSION"] == pair.latest


def _dev(pair: Pair) -> str:
    return str(pair.node.dev_accounts[0].address)


#: Reads of history the fullnode no longer holds; ``{old}`` is a pruned version.
PRUNED_READS = [
    pytest.param("/transactions/by_version/{old}", "version_pruned", id="txn-by-version"),
    pytest.param("/transactions?start={old}&limit=2", "version_pruned", id="txn-list"),
    pytest.param(
        "/transactions/auxiliary_info?start_version={old}&limit=2", "version_pruned", id="aux"
    ),
    pytest.param("/accounts/{dev}?ledger_version={old}", "version_pruned", id="account"),
    pytest.param(
        "/accounts/{dev}/resources?ledger_version={old}", "version_pruned", id="resources"
    ),
    pytest.param(
        "/accounts/0x1/resource/0x1::block::BlockResource?ledger_version={old}",
        "version_pruned",
        id="resource",
    ),
    pytest.param("/blocks/by_height/0", "block_pruned", id="block-by-height"),
    pytest.param("/blocks/by_version/{old}", "block_pruned", id="block-by-version"),
    pytest.param("/accounts/0x1/events/2?start=0&limit=2", "version_pruned", id="events"),
    pytest.param(
        "/accounts/0x1/events/0x1::block::BlockResource/new_block_events?start=0&limit=2",
        "version_pruned",
        id="events-by-handle",
    ),
]


@pytest.mark.parametrize(("path", "code"), PRUNED_READS)
def test_pruned_reads_answer_410_naming_the_archive_which_answers_them(
    pair: Pair, path: str, code: str
) -> None:
    url = path.format(old=pair.oldest - 1, dev=_dev(pair))
    response = pair.fullnode.get(url)
    body = assert_error(response, 410, code)
    assert body["archival_endpoint"] == pair.node.archive_url
    assert body["oldest_ledger_version"] == str(pair.oldest)
    assert isinstance(body["hint"], str)
    assert pair.node.archive_url in body["hint"]
    assert assert_headers(response)["X-NODE-LEDGER-OLDEST-VERSION"] == pair.oldest
    answer = ok(pair.archive.get(url))
    assert answer  # the archive holds it


def test_an_event_range_inside_the_window_is_served_by_the_fullnode(pair: Pair) -> None:
    # The block stream of 0x1 has one event per block: those of the blocks the window
    # holds are readable, from the oldest block's on.
    events = ok(pair.archive.get("/accounts/0x1/events/2", params={"start": 0, "limit": 100}))
    held = [e for e in events if int(e["version"]) >= pair.oldest]
    assert held
    assert len(held) < len(events)
    first = held[0]["sequence_number"]
    got = ok(pair.fullnode.get("/accounts/0x1/events/2", params={"start": first, "limit": 100}))
    assert got == held
    # Without a start, the newest page starts at the newest one minus the limit, as
    # aptos-core reads it: inside the window it is served, reaching past it it is 410.
    newest = pair.fullnode.get("/accounts/0x1/events/2", params={"limit": len(held)})
    assert ok(newest) == held
    past = pair.fullnode.get("/accounts/0x1/events/2", params={"limit": len(held) + 1})
    assert assert_error(past, 410, "version_pruned")["archival_endpoint"] == pair.node.archive_url


def test_the_hash_of_a_pruned_transaction_is_not_found_there_and_found_in_the_archive(
    pair: Pair,
) -> None:
    old = ok(pair.archive.get(f"/transactions/by_version/{pair.oldest - 1}"))
    path = f"/transactions/by_hash/{old['hash']}"
    body = assert_error(pair.fullnode.get(path), 404, "transaction_not_found")
    assert {"hint", "archival_endpoint", "oldest_ledger_version"}.isdisjoint(body)
    assert ok(pair.archive.get(path)) == old
    recent = ok(pair.archive.get(f"/transactions/by_version/{pair.oldest}"))
    assert ok(pair.fullnode.get(f"/transactions/by_hash/{recent['hash']}")) == recent


def test_the_archive_refuses_the_fullnodes_key_and_serves_anonymous_reads(pair: Pair) -> None:
    key = pair.node.api_key
    assert key
    # The fullnode takes its own key.
    ok(pair.fullnode.get("/", headers={"Authorization": f"Bearer {key}"}))
    path = f"/transactions/by_version/{pair.oldest - 2}"
    response = pair.archive.get(path, headers={"Authorization": f"Bearer {key}"})
    body = response.json()
    assert response.status_code == 401
    assert set(body) == {"message", "error_code"}
    assert body["message"]
    anonymous = ok(pair.archive.get(path))
    assert anonymous["version"] == str(pair.oldest - 2)
    seen = [
        (method, target, headers.get("authorization"))
        for method, target, headers in pair.node.archive_received
        if target == "/v1" + path
    ]
    assert seen[-2:] == [("GET", "/v1" + path, f"Bearer {key}"), ("GET", "/v1" + path, None)]


def test_the_archive_records_headers_with_lower_case_names_and_the_query(pair: Pair) -> None:
    pair.archive.get("/transactions", params={"start": 1, "limit": 3}, headers={"X-Probe": "A1"})
    method, target, headers = pair.node.archive_received[-1]
    assert (method, target) == ("GET", "/v1/transactions?start=1&limit=3")
    assert headers["x-probe"] == "A1"
    assert all(name == name.lower() for name in headers)


def test_both_nodes_serve_one_chain(pair: Pair) -> None:
    newest: list[dict[str, Any]] = ok(pair.fullnode.get("/transactions", params={"limit": 3}))
    start = newest[0]["version"]
    assert ok(pair.archive.get("/transactions", params={"start": start, "limit": 3})) == newest


def test_the_key_stays_out_of_the_log_and_the_repr(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("DEBUG", logger="ledgerkit")
    with LocalNode(seed=SEED, blocks=3, profile="public", services=False) as node:
        key = node.api_key
        assert key
        assert key not in repr(node)
        assert key not in caplog.text
        assert node.archive_url in caplog.text  # the log does name the archive
    assert node.api_key == key  # kept once stopped, and still out of the repr
    assert key not in repr(node)


def test_the_default_profile_has_no_archive_and_no_key(node: LocalNode) -> None:
    assert node.profile == "local"
    assert node.archive_url is None
    assert node.api_key is None
    assert node.public is None
    assert node.archive_received == []


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"public": PublicSettings()}, "profile='public'"),
        ({"profile": "mainnet"}, "profile must be one of"),
        ({"profile": "public", "prune_window": 5, "public": PublicSettings(prune_window=6)},
         "two prune windows"),
    ],
)  # fmt: skip
def test_profile_settings_that_do_not_fit_are_refused(options: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        LocalNode(**options)


@pytest.mark.parametrize(
    "settings",
    [
        {"budget": 0},
        {"page_cost": 0},
        {"window_seconds": 0},
        {"window_seconds": float("nan")},
        {"overload_rate": 1.5},
        {"prune_window": 0},
        {"archive_budget": 0},
    ],
)
def test_public_settings_out_of_range_are_refused(settings: dict[str, Any]) -> None:
    (name,) = settings
    with pytest.raises(ValueError, match=name):
        PublicSettings(**settings)


def test_a_node_prune_window_is_the_fullnodes_window(make_node: MakeNode) -> None:
    node = make_node(seed=SEED, blocks=BLOCKS, profile="public", services=False, prune_window=9)
    assert node.public is not None
    assert node.public.prune_window == 9
    with httpx.Client(base_url=node.url, timeout=30.0) as fullnode:
        info = ok(fullnode.get(""))
    assert int(info["ledger_version"]) - int(info["oldest_ledger_version"]) + 1 <= 9
    with httpx.Client(base_url=node.archive_url, timeout=30.0) as archive:
        assert ok(archive.get(""))["oldest_ledger_version"] == "0"


def test_the_fullnode_simulates_with_the_gas_estimates_asked(pair: Pair) -> None:
    dev = pair.node.dev_accounts[0]
    with Client(pair.node.url, cache=False) as client:
        estimate = client.estimate_gas_price().value.gas_estimate
        txn = client.build_transaction(
            dev.address,
            "0x1::aptos_account::transfer",
            [dev.address, 1],
            gas_unit_price=estimate + 7,
        )
        plain = client.simulate(txn, signer=dev.private_key)
        priced = client.simulate(txn, signer=dev.private_key, estimate_gas_unit_price=True)
    assert plain.success
    assert priced.success
    # The built price, unless the node is asked to price it at its own estimate.
    assert plain.transaction.gas_unit_price == estimate + 7
    assert priced.transaction.gas_unit_price == estimate
