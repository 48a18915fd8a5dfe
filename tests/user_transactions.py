"""Hand-written committed user transactions, as the reference schema writes them (u64 as
decimal strings), for the tests of the frames and of the transaction toolkit that need
changes and events a generated chain does not have."""

from __future__ import annotations

import json
from typing import Any, Final

from ledgerkit.models import decode_transaction

APT: Final = "0x1::aptos_coin::AptosCoin"
SENDER: Final = "0x" + "a1" * 32
RECIPIENT: Final = "0x" + "b2" * 32


def coin_event(kind: str, account: str, amount: int, coin: str = APT) -> dict[str, Any]:
    """A ``0x1::coin::Coin{kind}`` event (``Deposit`` or ``Withdraw``) of ``amount``."""
    return {
        "guid": {"creation_number": "0", "account_address": "0x0"},
        "sequence_number": "0",
        "type": f"0x1::coin::Coin{kind}",
        "data": {"coin_type": coin, "account": account, "amount": str(amount)},
    }


def transfer(coin: str = APT, arguments: list[Any] | None = None) -> dict[str, Any]:
    """A ``0x1::coin::transfer`` payload (by default of 1 unit to :data:`RECIPIENT`)."""
    return {
        "type": "entry_function_payload",
        "function": "0x1::coin::transfer",
        "type_arguments": [coin],
        "arguments": arguments if arguments is not None else [RECIPIENT, "1"],
    }


def user_transaction(
    events: list[dict[str, Any]], *, gas_used: int = 0, **fields: Any
) -> dict[str, Any]:
    """A successful transaction of :data:`SENDER` at version 9 that emitted ``events``
    and charged ``gas_used`` units at 100 octas; ``fields`` replace any other field, as
    the API writes it."""
    body: dict[str, Any] = {
        "type": "user_transaction",
        "version": "9",
        "hash": "0x" + "11" * 32,
        "state_change_hash": "0x" + "00" * 32,
        "event_root_hash": "0x" + "00" * 32,
        "state_checkpoint_hash": None,
        "gas_used": str(gas_used),
        "success": True,
        "vm_status": "Executed successfully",
        "accumulator_root_hash": "0x" + "00" * 32,
        "changes": [],
        "sender": SENDER,
        "sequence_number": "0",
        "max_gas_amount": "2000",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": "1700000600",
        "payload": transfer(),
        "signature": {
            "type": "ed25519_signature",
            "public_key": "0x" + "ed" * 32,
            "signature": "0x" + "00" * 64,
        },
        "events": events,
        "timestamp": "1700000000000000",
    }
    body.update(fields)
    return body


def decoded(body: dict[str, Any]) -> Any:
    """``body`` read as the client reads the node's bytes."""
    return decode_transaction(json.dumps(body).encode())
