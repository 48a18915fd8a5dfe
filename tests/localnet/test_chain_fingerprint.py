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
    ledger_version=2553,
    block_height=360,
    block_180={
        "block_height": "180",
        "block_hash": "0xffd5797e24f0c3373401223278fba359313b1ed2bf9b46cdd1124999365ffd99",
        "block_timestamp": "1748779200000000",  # 2025-06-01T12:00:00Z
        "first_version": "812",
        "last_version": "820",
    },
    genesis_hash="0x7d9229b2662a36c53314c0c848839757cf0088baf36605ba2561e4f217f8e1a9",
    pages_digest="83981d4b39f520caa436fca9d64ac59e90f1effbc93083c61dcf9c739976a598",
)

SEED_3 = Fingerprint(
    ledger_version=3444,
    block_height=360,
    block_180={
        "block_height": "180",
        "block_hash": "0x583edef033c8e071788e9747c57918572288b15fd1e7c678eb17d9e2a431557b",
        "block_timestamp": "1748779200000000",  # 2025-06-01T12:00:00Z
        "first_version": "1277",
        "last_version": "1287",
    },
    genesis_hash="0x1897ceefe712974ce64213f6fea4e6d8f12a37474de93bde32879f2bbc6d5351",
    pages_digest="46005b7e6a7c078d5e860d0ce1013e049114cefdaa513186b4c46504e6dd0bf3",
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
