"""The fingerprint of the default chain (seed 0), written out.

Notebooks, tests, datasets and caches rely on a seed giving the same chain everywhere.
Any change to what the generator makes changes these values: when the change is meant,
bump the generator version (``ledgerkit.localnet.chain._generator.GENERATOR_VERSION``) and write
the new values here.
"""

from __future__ import annotations

import hashlib

import orjson

from ledgerkit.localnet._node_config import NodeConfig
from ledgerkit.localnet.ledger import Ledger

LEDGER_VERSION = 2373
BLOCK_HEIGHT = 360
HEAD_TIMESTAMP_USEC = 1_748_822_400_000_000  # 2025-06-02T00:00:00Z, the default anchor
BLOCK_180 = {
    "block_height": "180",
    "block_hash": "0xffd5797e24f0c3373401223278fba359313b1ed2bf9b46cdd1124999365ffd99",
    "block_timestamp": "1748779200000000",  # 2025-06-01T12:00:00Z
    "first_version": "734",
    "last_version": "742",
}
GENESIS_HASH = "0xc6311eb8618b6442fe1b474b1ef12c844ffd7fcb1192281f4ac29d409cd5febc"
#: SHA-256 of every transaction's JSON (keys sorted), read in pages of 100.
PAGES_DIGEST = "46b4b1ebbd4fa4b64b00c241b6b2803583e8cb96d152aac3eb0d34619490a243"


def test_the_default_chain_of_seed_0_has_its_pinned_fingerprint() -> None:
    ledger = Ledger.open(None, NodeConfig(seed=0))
    try:
        meta = ledger.meta()
        assert (meta.ledger_version, meta.block_height) == (LEDGER_VERSION, BLOCK_HEIGHT)
        assert meta.ledger_timestamp_usec == HEAD_TIMESTAMP_USEC
        assert ledger.reads.block_by_height(180, with_transactions=False) == BLOCK_180
        assert ledger.reads.transaction_by_version(0)["hash"] == GENESIS_HASH
        digest = hashlib.sha256()
        for start in range(0, LEDGER_VERSION + 1, 100):
            page = ledger.reads.transactions(start, 100)
            assert len(page) == min(100, LEDGER_VERSION + 1 - start)
            for txn in page:
                digest.update(orjson.dumps(txn, option=orjson.OPT_SORT_KEYS))
        assert digest.hexdigest() == PAGES_DIGEST
    finally:
        ledger.close()
