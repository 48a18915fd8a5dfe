"""What the tests of digital assets through the client share: calls signed and waited
for with the client's own builder, token addresses derived by hand, and a wait for the
indexer's token processor.

A token minted by ``0x4::aptos_token::mint`` is the transaction's first unique address:
``SHA3-256(txn hash ‖ u64 1 ‖ 0xFB)``; a collection is the named object
``SHA3-256(creator ‖ name ‖ 0xFE)``.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from ledgerkit import Client
from ledgerkit.tx import sign_transaction

TOKEN = "0x4::token::Token"


def token_address(txn_hash: str) -> str:
    seed = bytes.fromhex(txn_hash[2:]) + (1).to_bytes(8, "little") + b"\xfb"
    return "0x" + hashlib.sha3_256(seed).hexdigest()


def collection_address(creator: Any, name: str) -> str:
    return "0x" + hashlib.sha3_256(bytes(creator) + name.encode() + b"\xfe").hexdigest()


def run(client: Client, sender: Any, function: str, args: list[Any], **options: Any) -> Any:
    """Build, sign, submit and wait for a call by ``sender``; the committed transaction,
    checked to have succeeded."""
    built = client.build_transaction(sender, function, args, **options)
    done = client.submit_and_wait(sign_transaction(built, sender)).value
    assert done.success, (function, done.vm_status)
    return done


def wait_for_token_indexer(client: Client, version: int) -> None:
    """Until the indexer's token processor has reached ``version`` (its
    ``processor_status``, as the SDKs poll it)."""
    query = (
        'query { processor_status(where: {processor: {_eq: "token_v2_processor"}}) '
        "{ last_success_version } }"
    )
    for _ in range(300):
        rows = client.graphql(query)["processor_status"]
        if rows and rows[0]["last_success_version"] >= version:
            return
        time.sleep(0.1)
    raise AssertionError(f"the indexer did not reach version {version}")
