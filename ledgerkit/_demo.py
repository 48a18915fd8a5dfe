"""The ``ledgerkit demo`` job: start the embedded node, then build, sign, explain,
submit and follow a transfer between two of its dev accounts through the client."""

from __future__ import annotations

from typing import Any, Final, TextIO

from ledgerkit.bcs import (
    EntryFunction,
    RawTransaction,
    SignedTransaction,
    explain_spans,
    format_explanation,
)
from ledgerkit.client import Client
from ledgerkit.localnet import LocalNode
from ledgerkit.models import UserTransaction

__all__ = ["run_demo"]

APT: Final = "0x1::aptos_coin::AptosCoin"
OCTAS_PER_APT = 100_000_000


#: How long the demo's transaction stays valid, counted on the ledger's clock.
EXPIRATION_SECS: Final = 600


def run_demo(out: TextIO, *, seed: int = 0, blocks: int | None = None) -> None:
    """Print a real transfer on the embedded node, with its bytes annotated field by field."""

    def line(label: str, value: object) -> None:
        out.write(f"  {label:<24}{value}\n")

    options: dict[str, Any] = {} if blocks is None else {"blocks": blocks}
    with LocalNode(seed=seed, **options) as node, Client(node.url, cache=False) as client:
        info = client.ledger_info().value
        out.write(f"Embedded node at {node.url} (seed {seed})\n")
        line("chain id", info.chain_id)
        line("ledger version", info.ledger_version)
        line("block height", info.block_height)
        line("gas estimate", client.estimate_gas_price().value.gas_estimate)

        alice, bob = node.dev_accounts[0], node.dev_accounts[1]

        def balance(address: object) -> int:
            return client.account_balance(str(address), APT).value

        before = balance(alice.address), balance(bob.address)
        account = client.account(alice.address)
        sequence = account.value.sequence_number
        amount = 15 * OCTAS_PER_APT
        raw = RawTransaction(
            sender=alice.address,
            sequence_number=sequence,
            payload=EntryFunction.build(
                "0x1::aptos_account::transfer", [], [("address", bob.address), ("u64", amount)]
            ),
            max_gas_amount=2_000,
            gas_unit_price=100,
            # Expiry is checked against the chain's clock, not ours: count from the
            # ledger time of the latest answer, which holds on any node.
            expiration_timestamp_secs=account.ledger.ledger_timestamp_usec // 1_000_000
            + EXPIRATION_SECS,
            chain_id=info.chain_id,
        )
        signed = alice.private_key.sign_transaction(raw)
        data = signed.to_bcs()

        out.write("\nA transfer of 15 APT from dev account 0 to dev account 1:\n")
        line("sender", alice.address)
        line("recipient", bob.address)
        line("signature verifies", "yes" if signed.verify() else "NO")
        line("transaction hash", signed.hash())
        out.write(f"\nSignedTransaction, {len(data)} bytes, field by field:\n")
        out.write(f"{'offset':>5}  {'bytes':<58}field = value\n")
        out.write(format_explanation(data, explain_spans(data, SignedTransaction)) + "\n")

        pending = client.submit_transaction(signed).value
        committed = client.wait_for_transaction(pending.hash).value
        if not isinstance(committed, UserTransaction):
            raise TypeError(f"expected a user transaction, got {type(committed).__name__}")
        after = balance(alice.address), balance(bob.address)
        fee = committed.gas_used * committed.gas_unit_price

        out.write("\nSubmitted and committed:\n")
        line("version", committed.version)
        line("success", committed.success)
        line("vm status", committed.vm_status)
        line("gas used", committed.gas_used)
        line("fee (octas)", fee)
        line("sender balance", f"{before[0]} -> {after[0]} (-{before[0] - after[0]})")
        line("recipient balance", f"{before[1]} -> {after[1]} (+{after[1] - before[1]})")
        line("amount + fee", f"{amount + fee} (matches the sender's loss)")
