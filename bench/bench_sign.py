"""Encode and sign entry-function transactions: ledgerkit beside aptos-sdk and bare pynacl.

Every run builds the same transfers (``0x1::aptos_account::transfer(address, u64)``)
with both libraries, checks that the signed bytes agree, then times:

* ledgerkit: EntryFunction.build -> RawTransaction -> sign -> SignedTransaction bytes;
* aptos-sdk: EntryFunction.natural -> RawTransaction -> sign -> SignedTransaction bytes;
* pynacl alone: signing the very same signing messages (the floor).

Goals: ledgerkit at least 3x faster than aptos-sdk, and within 1.5x of bare pynacl.
Run with ``make bench`` or ``.venv/bin/python bench/bench_sign.py [N]``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import nacl.signing
from aptos_sdk.account import Account
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.bcs import Serializer as SdkSerializer
from aptos_sdk.transactions import (
    EntryFunction as SdkEntryFunction,
)
from aptos_sdk.transactions import (
    RawTransaction as SdkRawTransaction,
)
from aptos_sdk.transactions import (
    SignedTransaction as SdkSignedTransaction,
)
from aptos_sdk.transactions import (
    TransactionArgument,
    TransactionPayload,
)

from ledgerkit.bcs import EntryFunction, RawTransaction
from ledgerkit.keys import Ed25519PrivateKey
from ledgerkit.types import Address

CHAIN_ID = 4
EXPIRATION = 1_800_000_000


def workload(n: int) -> list[tuple[str, int, int]]:
    """(recipient hex, amount, sequence number) triples, deterministic."""
    return [(f"0x{(i * 7919 + 1):064x}", 1_000 + i * 37, i) for i in range(n)]


# Each library starts from its own address objects, as its users hold them (aptos-sdk's
# TransactionArgument takes an AccountAddress, not text); parsing text is not timed.
Item = tuple[object, int, int]


def run_ledgerkit(key: Ed25519PrivateKey, items: list[Item]) -> list[bytes]:
    sender = key.address()
    out = []
    for recipient, amount, seq in items:
        payload = EntryFunction.build(
            "0x1::aptos_account::transfer", (), (("address", recipient), ("u64", amount))
        )
        raw = RawTransaction(sender, seq, payload, 2_000, 100, EXPIRATION, CHAIN_ID)
        out.append(raw.sign(key).to_bcs())
    return out


def run_sdk(account: Account, items: list[Item]) -> list[bytes]:
    sender = account.address()
    out = []
    for recipient, amount, seq in items:
        payload = SdkEntryFunction.natural(
            "0x1::aptos_account",
            "transfer",
            [],
            [
                TransactionArgument(recipient, SdkSerializer.struct),
                TransactionArgument(amount, SdkSerializer.u64),
            ],
        )
        raw = SdkRawTransaction(
            sender, seq, TransactionPayload(payload), 2_000, 100, EXPIRATION, CHAIN_ID
        )
        signed = SdkSignedTransaction(raw, account.sign_transaction(raw))
        out.append(signed.bytes())
    return out


def best_rate(fn: Callable[[], object], n: int, repeats: int = 7) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return n / best


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3_000
    secret = bytes(range(1, 33))
    key = Ed25519PrivateKey(secret)
    account = Account.load_key("0x" + secret.hex())
    text_items = workload(n)
    ours_items: list[Item] = [(Address.parse(r), a, s) for r, a, s in text_items]
    sdk_items: list[Item] = [(AccountAddress.from_str(r), a, s) for r, a, s in text_items]

    ours = run_ledgerkit(key, ours_items)
    theirs = run_sdk(account, sdk_items)
    if ours != theirs:
        raise SystemExit("ledgerkit and aptos-sdk disagree on the signed bytes")

    sender = key.address()
    messages = [
        RawTransaction(
            sender,
            seq,
            EntryFunction.build("0x1::aptos_account::transfer", (), (("address", r), ("u64", a))),
            2_000,
            100,
            EXPIRATION,
            CHAIN_ID,
        ).signing_message()
        for r, a, seq in ours_items
    ]
    signing_key = nacl.signing.SigningKey(secret)

    def bare() -> None:
        for message in messages:
            signing_key.sign(message)

    lk = best_rate(lambda: run_ledgerkit(key, ours_items), n)
    sdk = best_rate(lambda: run_sdk(account, sdk_items), n)
    floor = best_rate(bare, n)

    print(f"encode + sign {n} entry-function transfers (best of 7), signed bytes identical")
    print(f"  ledgerkit      {lk:10,.0f} txn/s")
    print(f"  aptos-sdk      {sdk:10,.0f} txn/s")
    print(f"  pynacl alone   {floor:10,.0f} sign/s  (same signing messages)")
    print(f"  ledgerkit / aptos-sdk speed: {lk / sdk:5.2f}x   (goal >= 3x)")
    print(f"  pynacl / ledgerkit time:     {floor / lk:5.2f}x   (goal <= 1.5x)")


if __name__ == "__main__":
    main()
