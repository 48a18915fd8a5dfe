"""The local indexer: how fast it indexes a generated chain, and what a GraphQL query of
the SDKs costs beside the node API's answer to the same question.

For each chain size it prints the CPU seconds of indexing every version in one pass
(what a node's first start adds to its start), as versions per second, and the mean
wall time of the TypeScript SDK's ``getAccountCoinsData`` query over HTTP beside a
``GET /accounts/{address}/balance/...`` of the node (a ratio, no goal).

Run with ``.venv/bin/python bench/bench_indexer.py [BLOCKS ...]`` (default 360 2000).
"""

from __future__ import annotations

import sys
import time

import httpx

from ledgerkit.localnet import LocalNode
from ledgerkit.localnet.indexer import IndexerDb

QUERY = """query ($where_condition: current_fungible_asset_balances_bool_exp!) {
  current_fungible_asset_balances(where: $where_condition) {
    amount asset_type metadata { symbol decimals }
  }
}"""
ROUNDS = 200


def main(sizes: list[int]) -> None:
    for blocks in sizes:
        with LocalNode(seed=0, blocks=blocks) as node:
            versions = node.ledger.head_within(None).version + 1
            db = IndexerDb(":memory:")
            start = time.process_time()
            db.catch_up(node.ledger)
            spent = time.process_time() - start
            db.close()
            address = node.dev_accounts[0].address
            assert node.indexer_url is not None
            body = {
                "query": QUERY,
                "variables": {"where_condition": {"owner_address": {"_eq": address.long}}},
            }
            with httpx.Client(timeout=30) as client:
                start = time.perf_counter()
                for _ in range(ROUNDS):
                    client.post(node.indexer_url, json=body).raise_for_status()
                graphql = (time.perf_counter() - start) / ROUNDS
                url = f"{node.url}/accounts/{address}/balance/0x1::aptos_coin::AptosCoin"
                start = time.perf_counter()
                for _ in range(ROUNDS):
                    client.get(url).raise_for_status()
                rest = (time.perf_counter() - start) / ROUNDS
            print(
                f"{blocks:>6} blocks, {versions:>7} versions: indexed in {spent:.2f} CPU s "
                f"({versions / spent:,.0f} versions/s); getAccountCoinsData "
                f"{graphql * 1e3:.2f} ms, the node's balance {rest * 1e3:.2f} ms "
                f"(ratio {graphql / rest:.1f})"
            )


if __name__ == "__main__":
    main([int(arg) for arg in sys.argv[1:]] or [360, 2000])
