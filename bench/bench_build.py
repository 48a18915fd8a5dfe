"""Build and sign entry-function transactions from Python values: ledgerkit's ABI-driven
builder beside aptos-sdk's BCS builders and bare pynacl.

Each run builds the same transfers (``0x1::aptos_account::transfer(address, u64)``) both
ways and checks that the signed bytes agree, then times:

* ledgerkit: ``client.build_transaction(sender, function, [to, amount], ...)`` with every
  field given (sequence number, gas, expiry) and the function's ABI already kept by the
  client, so that no request is made while timing (a counting transport proves it), then
  ``Account.sign`` and the signed bytes. The arguments are checked against the ABI's Move
  types and encoded on every call;
* aptos-sdk: as in ``bench_sign.py``, ``EntryFunction.natural`` with typed
  ``TransactionArgument``s -> ``RawTransaction`` -> ``sign_transaction`` ->
  ``SignedTransaction`` bytes (the caller writes each argument's encoder by hand);
* pynacl alone: signing the very same signing messages (the floor).

Goal: ledgerkit at least 2x faster than aptos-sdk. Run with ``make bench`` or
``.venv/bin/python bench/bench_build.py [N]``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import httpx
import nacl.signing
from aptos_sdk.account import Account as SdkAccount
from aptos_sdk.account_address import AccountAddress
from bench_sign import CHAIN_ID, EXPIRATION, Item, run_sdk, workload

from ledgerkit import Account, Client, LocalNode
from ledgerkit.types import Address

FUNCTION = "0x1::aptos_account::transfer"
EXPIRES_IN = 600
#: The client's clock, fixed so that both sides sign the same expiration.
NOW = float(EXPIRATION - EXPIRES_IN)
GAS = {"max_gas_amount": 2_000, "gas_unit_price": 100}


class FixedClock:
    """The client's clock standing still (only ``time()`` is read by the builder)."""

    def monotonic(self) -> float:
        return time.monotonic()

    def time(self) -> float:
        return NOW

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


class Counting(httpx.HTTPTransport):
    def __init__(self) -> None:
        super().__init__()
        self.requests = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.requests += 1
        return super().handle_request(request)


def run_ledgerkit(client: Client, account: Account, items: list[Item]) -> list[bytes]:
    out = []
    for recipient, amount, seq in items:
        raw = client.build_transaction(
            account,
            FUNCTION,
            [recipient, amount],
            sequence_number=seq,
            expires_in=EXPIRES_IN,
            **GAS,
        )
        out.append(account.sign(raw).to_bcs())
    return out


def best_rate(fn: Callable[[], object], n: int, repeats: int = 5) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return n / best


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    secret = bytes(range(1, 33))
    account = Account.from_key(secret)
    sdk_account = SdkAccount.load_key("0x" + secret.hex())
    text_items = workload(n)
    ours_items: list[Item] = [(Address.parse(r), a, s) for r, a, s in text_items]
    sdk_items: list[Item] = [(AccountAddress.from_str(r), a, s) for r, a, s in text_items]
    counting = Counting()
    with (
        LocalNode(seed=0, blocks=2) as node,
        Client(node.url, cache=False, transport=counting, clock=FixedClock()) as client,
    ):
        if client.ledger_info().value.chain_id != CHAIN_ID:
            raise SystemExit("the embedded node's chain id is not the one aptos-sdk signs for")
        run_ledgerkit(client, account, ours_items[:1])  # keeps the ABI and the chain id
        before = counting.requests
        ours = run_ledgerkit(client, account, ours_items)
        if counting.requests != before:
            raise SystemExit(f"the builder sent {counting.requests - before} requests")
        theirs = run_sdk(sdk_account, sdk_items)
        if ours != theirs:
            raise SystemExit("ledgerkit and aptos-sdk disagree on the signed bytes")
        messages = [
            client.build_transaction(
                account, FUNCTION, [r, a], sequence_number=s, expires_in=EXPIRES_IN, **GAS
            ).signing_message()
            for r, a, s in ours_items
        ]
        signing_key = nacl.signing.SigningKey(secret)

        def bare() -> None:
            for message in messages:
                signing_key.sign(message)

        lk = best_rate(lambda: run_ledgerkit(client, account, ours_items), n)
        sdk = best_rate(lambda: run_sdk(sdk_account, sdk_items), n)
        floor = best_rate(bare, n)

    print(
        f"build + sign {n} entry-function transfers from Python values (best of 5); "
        "signed bytes identical; no request while timing"
    )
    print(f"  ledgerkit (ABI-checked)  {lk:10,.0f} txn/s")
    print(f"  aptos-sdk (hand-typed)   {sdk:10,.0f} txn/s")
    print(f"  pynacl alone             {floor:10,.0f} sign/s  (same signing messages)")
    print(f"  ledgerkit / aptos-sdk speed: {lk / sdk:5.2f}x   (goal >= 2x)")
    print(f"  pynacl / ledgerkit time:     {floor / lk:5.2f}x   (the signature is the floor)")


if __name__ == "__main__":
    main()
