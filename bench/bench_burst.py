"""A burst of transfers on the embedded node: ledgerkit beside aptos-sdk, in one run.

Ten accounts send 100 transfers each (1,000 in all: within the node's mempool limits of
100 pending per account and 1,000 in all), built, signed, submitted and waited for until
every one is committed and successful. Each side gets ten fresh accounts funded before
the clock starts, on the same node; gas fields are given on both sides (2,000 units at
100 octas), as a burst would.

* ledgerkit: ``Client.build_transaction`` (ABI-checked arguments, sequence numbers read
  once per sender and then counted), ``Account.sign``, ``submit_batch_transactions`` ten
  at a time, then ``wait_for_transaction`` (long polls) on each account's last one and a
  check of every result;
* aptos-sdk: its async ``RestClient`` as its documentation uses it for a burst: BCS
  transactions built with explicit sequence numbers, ``submit_bcs_transaction`` for each
  (concurrently, 50 at a time), then ``wait_for_transaction`` on each account's last one
  and a read of every result. Its wait polls once a second: the script prints the time to
  submit apart from the time to commit, so that the two can be compared either way.

Goal: ledgerkit at least 3x faster end to end. Run with ``make bench`` or
``.venv/bin/python bench/bench_burst.py``.
"""

from __future__ import annotations

import asyncio
import time

from aptos_sdk.account import Account as SdkAccount
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.async_client import ClientConfig, RestClient
from aptos_sdk.bcs import Serializer as SdkSerializer
from aptos_sdk.transactions import EntryFunction as SdkEntryFunction
from aptos_sdk.transactions import TransactionArgument, TransactionPayload

from ledgerkit import Account, Client, LocalNode

SENDERS = 10
PER_SENDER = 100
GAS = {"max_gas_amount": 2_000, "gas_unit_price": 100}
FUNDING = 10**8
FUNCTION = "0x1::aptos_account::transfer"
RECIPIENT = "0x" + "77" * 32


def fund(client: Client, funder: Account, addresses: list[str]) -> None:
    for address in addresses:
        txn = client.transfer(funder, address, FUNDING, **GAS).value
        assert txn.success, txn.vm_status


def run_ledgerkit(client: Client, senders: list[Account]) -> tuple[float, float]:
    start = time.perf_counter()
    signed = [
        sender.sign(client.build_transaction(sender, FUNCTION, [RECIPIENT, 1 + i], **GAS))
        for i in range(PER_SENDER)
        for sender in senders
    ]
    for at in range(0, len(signed), 10):
        failures = client.submit_batch_transactions(signed[at : at + 10]).value
        assert not failures.transaction_failures, failures
    submitted = time.perf_counter() - start
    for txn in signed[-len(senders) :]:
        client.wait_for_transaction(txn.hash(), timeout=120)
    for txn in signed:
        assert client.transaction_by_hash(txn.hash()).value.success
    return submitted, time.perf_counter() - start


async def run_sdk(url: str, senders: list[SdkAccount]) -> tuple[float, float]:
    client = RestClient(url, ClientConfig(http2=False, **GAS))
    try:
        start = time.perf_counter()
        numbers = await asyncio.gather(
            *(client.account_sequence_number(s.address()) for s in senders)
        )
        recipient = AccountAddress.from_str(RECIPIENT)
        jobs = []
        for i in range(PER_SENDER):
            for sender, first in zip(senders, numbers, strict=True):
                payload = SdkEntryFunction.natural(
                    "0x1::aptos_account",
                    "transfer",
                    [],
                    [
                        TransactionArgument(recipient, SdkSerializer.struct),
                        TransactionArgument(1 + i, SdkSerializer.u64),
                    ],
                )
                jobs.append((sender, TransactionPayload(payload), first + i))
        signed = [await client.create_bcs_signed_transaction(*job) for job in jobs]
        hashes: list[str] = []
        for at in range(0, len(signed), 50):
            hashes += await asyncio.gather(
                *(client.submit_bcs_transaction(txn) for txn in signed[at : at + 50])
            )
        submitted = time.perf_counter() - start
        for txn_hash in hashes[-len(senders) :]:
            await client.wait_for_transaction(txn_hash)
        for txn_hash in hashes:
            assert (await client.transaction_by_hash(txn_hash))["success"]
        return submitted, time.perf_counter() - start
    finally:
        await client.close()


def main() -> None:
    ours = [Account.generate() for _ in range(SENDERS)]
    theirs = [SdkAccount.generate() for _ in range(SENDERS)]
    with LocalNode(seed=0, blocks=2) as node, Client(node.url, cache=False) as client:
        funder = node.dev_accounts[0]
        fund(client, funder, [str(a.address) for a in ours])
        fund(client, funder, [str(a.address()) for a in theirs])
        lk_submit, lk_total = run_ledgerkit(client, ours)
        sdk_submit, sdk_total = asyncio.run(run_sdk(node.url, theirs))

    n = SENDERS * PER_SENDER
    print(f"{n} transfers from {SENDERS} accounts, built, signed, submitted, all committed")
    print(
        f"  ledgerkit   submit {lk_submit:6.2f} s   committed {lk_total:6.2f} s   "
        f"{n / lk_total:8,.0f} txn/s"
    )
    print(
        f"  aptos-sdk   submit {sdk_submit:6.2f} s   committed {sdk_total:6.2f} s   "
        f"{n / sdk_total:8,.0f} txn/s"
    )
    print(f"  ledgerkit / aptos-sdk speed, end to end: {sdk_total / lk_total:5.2f}x (goal >= 3x)")
    print(f"  ledgerkit / aptos-sdk speed, to submit:  {sdk_submit / lk_submit:5.2f}x")


if __name__ == "__main__":
    main()
