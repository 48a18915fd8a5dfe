"""The fingerprints of two default chains (seeds 0 and 3), written out.

Notebooks, tests, datasets and caches rely on a seed giving the same chain everywhere.
Any change to what the generator makes changes these values: when the change is meant,
bump the generator version (``ledgerkit.localnet.chain._generator.GENERATOR_VERSION``)
and write the new values here.

Seed 0's day has one congestion episode, seed 3's has two (the afternoon one and a
shorter one in the morning), so between them the pins cover every draw of the day.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import orjson
import pytest

from ledgerkit.localnet import NodeConfig
from ledgerkit.localnet.ledger import Ledger

HEAD_TIMESTAMP_USEC = 1_748_822_400_000_000  # 2025-06-02T00:00:00Z, the default anchor


@dataclass(frozen=True)
class Fingerprint:
    ledger_version: int
    block_height: int
    block_180: dict[str, Any]
    genesis_hash: str
    #: SHA-256 of every transaction's JSON (keys sorted), read in pages of 100.
    pages_digest: str


SEED_0 = Fingerprint(
    ledger_version=2505,
    block_height=360,
    block_180={
        "block_height": "180",
        "block_hash": "0xffd5797e24f0c3373401223278fba359313b1ed2bf9b46cdd1124999365ffd99",
        "block_timestamp": "1748779200000000",  # 2025-06-01T12:00:00Z
        "first_version": "785",
        "last_version": "793",
    },
    genesis_hash="0x31be5fbbbcf6ce6a20bbbafc8f792d3ce93436758aecce9b22f938001f675fa2",
    pages_digest="124f22c96d84a4b80ed3225ccfe0ab241d55433cee91224075170af5f0afaa98",
)

SEED_3 = Fingerprint(
    ledger_version=3390,
    block_height=360,
    block_180={
        "block_height": "180",
        "block_hash": "0x583edef033c8e071788e9747c57918572288b15fd1e7c678eb17d9e2a431557b",
        "block_timestamp": "1748779200000000",  # 2025-06-01T12:00:00Z
        "first_version": "1245",
        "last_version": "1255",
    },
    genesis_hash="0x7878d50394402773a9ddb5f5a2c0c32fbf80909ce86b0b4fe95be279f78c2984",
    pages_digest="a96928ad154e0717ceb6c07beb133ba2fa504ab8746aadce1dce638fb2ce70f7",
)


@pytest.mark.parametrize(("seed", "pinned"), [(0, SEED_0), (3, SEED_3)], ids=["seed-0", "seed-3"])
def test_the_default_chain_of_a_seed_has_its_pinned_fingerprint(
    seed: int, pinned: Fingerprint
) -> None:
    ledger = Ledger.open(None, NodeConfig(seed=seed))
    try:
        meta = ledger.meta()
        assert (meta.ledger_version, meta.block_height) == (
            pinned.ledger_version,
            pinned.block_height,
        )
        assert meta.ledger_timestamp_usec == HEAD_TIMESTAMP_USEC
        assert ledger.reads.block_by_height(180, with_transactions=False) == pinned.block_180
        assert ledger.reads.transaction_by_version(0)["hash"] == pinned.genesis_hash
        digest = hashlib.sha256()
        for start in range(0, pinned.ledger_version + 1, 100):
            page = ledger.reads.transactions(start, 100)
            assert len(page) == min(100, pinned.ledger_version + 1 - start)
            for txn in page:
                digest.update(orjson.dumps(txn, option=orjson.OPT_SORT_KEYS))
        assert digest.hexdigest() == pinned.pages_digest
    finally:
        ledger.close()
