"""The ``ledgerkit demo`` job: build, sign and hash a transfer, then explain its bytes."""

from __future__ import annotations

from typing import TextIO

from ledgerkit.bcs import (
    EntryFunction,
    RawTransaction,
    SignedTransaction,
    explain,
    format_explanation,
)
from ledgerkit.tx import Ed25519PrivateKey

__all__ = ["run_demo"]


def run_demo(out: TextIO) -> None:
    """Print a real transaction, signed and hashed, with its bytes annotated field by field."""
    sender_key = Ed25519PrivateKey.from_seed(b"ledgerkit demo: alice")
    recipient = Ed25519PrivateKey.from_seed(b"ledgerkit demo: bob").address()
    payload = EntryFunction.build(
        "0x1::aptos_account::transfer",
        [],
        [("address", recipient), ("u64", "1500000000")],
    )
    raw = RawTransaction(
        sender=sender_key.address(),
        sequence_number=7,
        payload=payload,
        max_gas_amount=2_000,
        gas_unit_price=100,
        expiration_timestamp_secs=1_800_000_000,
        chain_id=4,
    )
    signed = sender_key.sign_transaction(raw)
    data = signed.to_bcs()
    decoded = SignedTransaction.from_bcs(data)

    def line(label: str, value: object) -> None:
        out.write(f"{label:<22}{value}\n")

    out.write("A transfer of 15 APT (1,500,000,000 octas), built, signed and hashed offline.\n\n")
    line("sender", raw.sender)
    line("sender public key", sender_key.public_key)
    line("recipient", recipient)
    line("function", payload.function_id)
    line("signing message", f"{len(raw.signing_message())} bytes (32-byte salt + raw transaction)")
    line("signature verifies", "yes" if decoded.verify() else "NO")
    line("decodes to the same", "yes" if decoded == signed else "NO")
    line("transaction hash", signed.hash())
    out.write(f"\nSignedTransaction, {len(data)} bytes, field by field:\n")
    out.write(f"{'offset':>5}  {'bytes':<58}field = value\n")
    out.write(format_explanation(data, explain(data, SignedTransaction)) + "\n")
