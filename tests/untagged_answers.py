"""Answers nodes send without ``type``: the aptos-core goldens (``models/untagged/``, see
its README), each body as the node sent it, and what the simulation goldens say; and a
hand-written pending transaction."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

GOLDENS = Path(__file__).parent / "models" / "untagged"
U64_MAX = 18446744073709551615
#: The sender of the move-abort simulations.
ALICE = "0x34bf7e2d17674feb234371a7ea58efd715f0e56ba20ebf13789480d9d643afaf"
COIN_ABORT = (
    "Move abort in 0x1::coin: EINSUFFICIENT_BALANCE(0x10006): "
    "Not enough coins to complete transaction"
)
FA_ABORT = (
    "Move abort in 0x1::fungible_asset: EINSUFFICIENT_BALANCE(0x10004): "
    "Insufficient balance to withdraw or transfer."
)
LINKER = (
    "LINKER_ERROR\nExecution failed with message: Linker Error: Module "
    "0000000000000000000000000000000000000000000000000000000000000001::MemeCoin doesn't exist"
)


class Simulated(NamedTuple):
    """What a simulation golden says of its one user transaction."""

    name: str
    version: int
    sender: str  # as the golden writes it
    sequence_number: int
    replay_protection_nonce: int | None
    expiration_timestamp_secs: int
    gas_used: int
    vm_status: str
    function: str
    change: str  # the type of each of its changes
    changes: int
    timestamp: int  # microseconds


SIMULATED = [
    Simulated(
        "simulation_failure_with_move_abort_error_rendering",
        0, ALICE, 0, None, U64_MAX, 11, COIN_ABORT,
        "0x1::aptos_account::transfer", "write_resource", 1, 0,
    ),
    Simulated(
        "simulation_failure_with_move_abort_error_rendering_payload_v2",
        3, ALICE, 0, None, 59, 10, FA_ABORT,
        "0x1::aptos_account::transfer", "write_resource", 1, 500000,
    ),
    Simulated(
        "simulation_failure_with_move_abort_error_rendering_orderless",
        3, ALICE, U64_MAX, 6860028705977903330, 59, 9, FA_ABORT,
        "0x1::aptos_account::transfer", "write_table_item", 11, 500000,
    ),
    Simulated(
        "simulation_failure_with_detail_error",
        0, "0xa550c18", 0, None, U64_MAX, 3, LINKER,
        "0x1::MemeCoin::transfer", "write_resource", 1, 0,
    ),
    Simulated(
        "simulation_failure_with_detail_error_payload_v2",
        0, "0xa550c18", 0, None, 60, 3, LINKER,
        "0x1::MemeCoin::transfer", "write_resource", 1, 0,
    ),
    Simulated(
        "simulation_failure_with_detail_error_orderless",
        0, "0xa550c18", U64_MAX, 12521492590937810661, 60, 3, LINKER,
        "0x1::MemeCoin::transfer", "write_table_item", 1, 0,
    ),
]  # fmt: skip


def golden(name: str) -> bytes:
    """A golden's body as the node sent it.

    The harness that wrote the goldens rewrites the ``data`` of every state change to
    strip large resources, and on a table item whose ``data`` is null that rewrite makes
    ``{"data": null}`` out of it; that one artefact is undone here (see the folder's
    README). Everything else is the file's bytes.
    """
    raw = (GOLDENS / f"{name}.json").read_bytes()
    body = json.loads(raw)
    transactions = body if isinstance(body, list) else []
    artefacts = [
        change
        for txn in transactions
        for change in txn.get("changes", [])
        if change.get("type") == "write_table_item" and change.get("data") == {"data": None}
    ]
    if not artefacts:
        return raw
    for change in artefacts:
        change["data"] = None
    return json.dumps(body).encode()


def pending(**fields: Any) -> dict[str, Any]:
    """A submission's pending transaction as the node answers it, without ``type``: of
    0x7, sequence number 2^53+1, expiring at u64's largest; ``fields`` replace any field."""
    return {
        "hash": "0x" + "ab" * 32,
        "sender": "0x" + "0" * 63 + "7",
        "sequence_number": str(2**53 + 1),
        "max_gas_amount": "200000",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": str(U64_MAX),
        "payload": {
            "type": "entry_function_payload",
            "function": "0x1::aptos_account::transfer",
            "type_arguments": [],
            "arguments": ["0x2", "1"],
        },
        "signature": {"type": "no_account_signature"},
        **fields,
    }
