"""The node's own records in its OpenAPI document: ledger info, health, gas, errors."""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.app.openapi._notation import Schema, _records

# name: (description, required fields, optional fields[, fields absent but never null])
_RECORDS: Final[dict[str, tuple[str, ...]]] = {
    "IndexResponse": (
        "Where the ledger stands, and which node answers.",
        "chain_id:u8 epoch:U64 ledger_version:U64 oldest_ledger_version:U64 "
        "ledger_timestamp:U64 node_role:validator|full_node oldest_block_height:U64 "
        "block_height:U64",
        "git_hash:str",
    ),
    "HealthCheckSuccess": ("The node is healthy.", "message:str"),
    "GasEstimation": (
        "Gas unit prices from recent blocks; the minimum price while blocks are not full.",
        "gas_estimate:u64",
        "deprioritized_gas_estimate:u64 prioritized_gas_estimate:u64",
    ),
    "Error": (
        "The record a failed request answers with.",
        "message:str error_code:ErrorCode",
        "vm_error_code:u64",
    ),
}


def _general_schemas() -> dict[str, Schema]:
    """What the node says about itself and its failures."""
    return _records(_RECORDS)
