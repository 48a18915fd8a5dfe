"""What a block's prologue writes besides the block resource and the clock, as the
framework's ``0x1::block::block_prologue_ext`` writes it (block.move, stake.move,
randomness.move, state_storage.move):

* ``0x1::block::CommitHistory`` ``{max_capacity: 2000, next_idx, table}``: the block's
  ``NewBlockEvent`` under ``next_idx`` (a u32 key) of a ``TableWithLength``, then
  ``next_idx = (next_idx + 1) % max_capacity``; genesis puts its own block event at 0
  (``emit_genesis_block_event``: hash, proposer ``0x0``, everything else 0 or empty);
* ``0x1::stake::ValidatorPerformance``: the proposer's ``successful_proposals`` + 1, each
  failed proposer's ``failed_proposals`` + 1;
* ``0x1::randomness::PerBlockRandomness`` ``{epoch, round, seed}`` of the block (this
  node's seed: ``SHA3-256("ledgerkit::randomness" ‖ block id)``, as its docs say);
* ``0x1::state_storage::StateStorageUsage`` only when the epoch changes.

The aptos-core golden of a block metadata transaction (commit d8227862) lists the writes
these make and writes the first block's history item under the key ``0x01000000``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any, Final

import httpx
import pytest
from node_http_helpers import ok

from ledgerkit.localnet import LocalNode

HISTORY: Final = "0x1::block::CommitHistory"
PERFORMANCE: Final = "0x1::stake::ValidatorPerformance"
RANDOMNESS: Final = "0x1::randomness::PerBlockRandomness"
USAGE: Final = "0x1::state_storage::StateStorageUsage"
NEW_BLOCK: Final = "0x1::block::NewBlockEvent"
BLOCKS: Final = 6


class Chain:
    def __init__(self, http: httpx.Client) -> None:
        self.http = http
        self.genesis = ok(http.get("/transactions/by_version/0"))
        self.blocks = [ok(http.get(f"/blocks/by_height/{h}")) for h in range(1, BLOCKS + 1)]
        self.prologues = [
            ok(http.get(f"/transactions/by_version/{b['first_version']}")) for b in self.blocks
        ]

    def resource(self, tag: str, version: Any) -> Any:
        found = ok(
            self.http.get(f"/accounts/0x1/resource/{tag}", params={"ledger_version": version})
        )
        return found["data"]


@pytest.fixture(scope="module")
def chain(make_node: Any) -> Iterator[Chain]:
    node: LocalNode = make_node(seed=53, blocks=BLOCKS, services=False)
    with httpx.Client(base_url=node.url, timeout=30.0) as http:
        yield Chain(http)


def _writes(txn: dict[str, Any]) -> dict[str, Any]:
    return {
        c["data"]["type"]: c["data"]["data"]
        for c in txn["changes"]
        if c["type"] == "write_resource" and c["address"] == "0x1"
    }


def test_genesis_makes_the_resources_as_genesis_move_does(chain: Chain) -> None:
    made = _writes(chain.genesis)
    history = made[HISTORY]
    assert (history["max_capacity"], history["next_idx"]) == (2000, 1)  # u32: numbers
    assert history["table"]["length"] == "1"
    assert made[RANDOMNESS] == {"epoch": "0", "round": "0", "seed": {"vec": []}}
    assert made[USAGE] == {"epoch": "0", "usage": {"bytes": "0", "items": "0"}}
    validators = made[PERFORMANCE]["validators"]
    assert len(validators) == 4  # the chain's validator set
    assert all(v == {"failed_proposals": "0", "successful_proposals": "0"} for v in validators)
    (item,) = [c for c in chain.genesis["changes"] if c["type"] == "write_table_item"
               and c["handle"] == history["table"]["inner"]["handle"]]  # fmt: skip
    assert item["key"] == "0x00000000"
    assert item["data"]["value"] == {
        "epoch": "0",
        "failed_proposer_indices": [],
        "hash": "0x0",
        "height": "0",
        "previous_block_votes_bitvec": "0x",
        "proposer": "0x0",
        "round": "0",
        "time_microseconds": "0",
    }


def test_each_block_writes_the_golden_s_resources(chain: Chain) -> None:
    first = chain.prologues[0]
    assert set(_writes(first)) == {
        "0x1::block::BlockResource",
        HISTORY,
        PERFORMANCE,
        "0x1::timestamp::CurrentTimeMicroseconds",
        RANDOMNESS,
        USAGE,  # the first block starts epoch 1
    }
    (item,) = [c for c in first["changes"] if c["type"] == "write_table_item"]
    assert item["key"] == "0x01000000"  # as in the golden
    for prologue in chain.prologues[1:]:
        if prologue["epoch"] == first["epoch"]:
            assert USAGE not in _writes(prologue)  # only on a new epoch


def test_the_history_holds_each_block_s_event(chain: Chain) -> None:
    handle = _writes(chain.genesis)[HISTORY]["table"]["inner"]["handle"]
    for prologue in chain.prologues:
        (event,) = prologue["events"]
        height = int(event["data"]["height"])
        history = _writes(prologue)[HISTORY]
        assert history["next_idx"] == height + 1
        assert history["table"]["length"] == str(height + 1)
        (item,) = [c for c in prologue["changes"] if c["type"] == "write_table_item"]
        assert (item["handle"], item["key"]) == (handle, "0x" + height.to_bytes(4, "little").hex())
        assert item["data"]["key"] == height
        assert (item["data"]["key_type"], item["data"]["value_type"]) == ("u32", NEW_BLOCK)
        assert item["data"]["value"] == event["data"]
        body = {"key_type": "u32", "value_type": NEW_BLOCK, "key": height}
        assert ok(chain.http.post(f"/tables/{handle}/item", json=body)) == event["data"]


def test_the_proposer_and_failed_proposers_are_counted(chain: Chain) -> None:
    for prologue in chain.prologues:
        version = int(prologue["version"])
        before = chain.resource(PERFORMANCE, version - 1)["validators"]
        after = _writes(prologue)[PERFORMANCE]["validators"]
        if USAGE in _writes(prologue):  # a new epoch: the counts start again
            before = [{"failed_proposals": "0", "successful_proposals": "0"}] * len(after)
        delta = [
            (
                int(a["successful_proposals"]) - int(b["successful_proposals"]),
                int(a["failed_proposals"]) - int(b["failed_proposals"]),
            )
            for a, b in zip(after, before, strict=True)
        ]
        assert sum(s for s, _ in delta) == 1  # one proposer
        assert sum(f for _, f in delta) == len(prologue["failed_proposer_indices"])
        for index in prologue["failed_proposer_indices"]:
            assert delta[index][1] >= 1


def test_the_randomness_is_the_block_s(chain: Chain) -> None:
    for prologue in chain.prologues:
        seed = hashlib.sha3_256(b"ledgerkit::randomness" + bytes.fromhex(prologue["id"][2:]))
        assert _writes(prologue)[RANDOMNESS] == {
            "epoch": prologue["epoch"],
            "round": prologue["round"],
            "seed": {"vec": ["0x" + seed.hexdigest()]},
        }


def test_a_new_epoch_records_the_state_s_size_at_its_beginning(chain: Chain) -> None:
    """At the first block, the state is genesis's: one item per genesis write."""
    usage = _writes(chain.prologues[0])[USAGE]
    assert usage["epoch"] == chain.prologues[0]["epoch"]
    assert usage["usage"]["items"] == str(len(chain.genesis["changes"]))
    assert int(usage["usage"]["bytes"]) > 0
