"""Replay protection of orderless transactions: the nonces an account has used.

An orderless transaction carries a nonce instead of a sequence number, and may run once
while it could still be valid. Each account that sends one keeps a
``0x1::nonce_validation::AccountNonces`` resource listing the nonces it used with their
expiration times; entries whose time has passed are dropped whenever the list is written
(an expired transaction is refused anyway), so the list holds at most what the expiry
window allows. Public nodes keep one table for all accounts under the framework address;
a resource per account says the same thing and shows in each transaction's changes.
"""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.vm.framework._context import Context
from ledgerkit.types import Address

__all__ = ["ACCOUNT_NONCES", "nonce_used", "record_nonce"]

ACCOUNT_NONCES: Final = "0x1::nonce_validation::AccountNonces"


def nonce_used(ctx: Context, sender: Address, nonce: int, now_secs: int) -> bool:
    """Whether ``sender`` ran an orderless transaction with ``nonce`` that has not expired."""
    found = ctx.resource(sender, ACCOUNT_NONCES)
    if found is None:
        return False
    return any(
        int(e["nonce"]) == nonce and int(e["expiration_time"]) > now_secs for e in found["entries"]
    )


def record_nonce(ctx: Context, sender: Address, nonce: int, expiration: int, now_secs: int) -> None:
    """Remember that ``sender`` used ``nonce`` until ``expiration``; forget expired ones."""
    found = ctx.resource(sender, ACCOUNT_NONCES)
    entries = [] if found is None else found["entries"]
    kept = [e for e in entries if int(e["expiration_time"]) > now_secs]
    kept.append({"nonce": str(nonce), "expiration_time": str(expiration)})
    ctx.put(sender, ACCOUNT_NONCES, {"entries": kept})
