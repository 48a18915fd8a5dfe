"""The node's transaction reads in BCS (``Accept: application/x-bcs``): by version, by
hash, waiting, the listing and an account's transactions, checked against the JSON of the
same transactions, the ledger's hashing rule and the official SDK's deserializer."""

from __future__ import annotations

import hashlib
from typing import Any, Final

import httpx
import pytest
from aptos_sdk.bcs import Deserializer as SdkDeserializer
from aptos_sdk.transactions import SignedTransaction as SdkSignedTransaction
from node_http_helpers import (
    assert_error,
    ok,
    ok_bcs,
    raw_transaction,
    sequence_number,
    submit,
    transfer,
    txn_hash,
    wait,
)

from ledgerkit.bcs import (
    BlockEpilogue,
    BlockMetadata,
    GenesisTransaction,
    SignedTransaction,
    TransactionData,
    TransactionOnChainData,
)
from ledgerkit.localnet import LocalNode
from ledgerkit.types import Address

BCS: Final = {"Accept": "application/x-bcs"}
#: SHA3-256 of "APTOS::Transaction": the salt of every transaction hash.
TXN_SALT: Final = hashlib.sha3_256(b"APTOS::Transaction").digest()
KINDS: Final = {
    "genesis_transaction": GenesisTransaction,
    "block_metadata_transaction": BlockMetadata,
    "user_transaction": SignedTransaction,
    "block_epilogue_transaction": BlockEpilogue,
}


def page(http: httpx.Client, start: int, limit: int) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = ok(
        http.get("/transactions", params={"start": start, "limit": limit})
    )
    return found


def by_version(http: httpx.Client, version: int | str) -> TransactionData:
    return TransactionData.from_bcs(
        ok_bcs(http.get(f"/transactions/by_version/{version}", headers=BCS))
    )


def test_every_kind_of_transaction_reads_as_bcs_with_its_json_fields(http: httpx.Client) -> None:
    seen = set()
    for txn in page(http, 0, 60):
        data = by_version(http, txn["version"])
        assert not data.is_pending
        assert data.onchain is not None
        onchain = data.onchain
        assert type(onchain.transaction) is KINDS[txn["type"]]
        seen.add(txn["type"])
        assert onchain.version == int(txn["version"])
        assert "0x" + onchain.info.transaction_hash.hex() == txn["hash"]
        assert "0x" + onchain.info.state_change_hash.hex() == txn["state_change_hash"]
        assert "0x" + onchain.info.event_root_hash.hex() == txn["event_root_hash"]
        assert "0x" + onchain.accumulator_root_hash.hex() == txn["accumulator_root_hash"]
        assert onchain.info.gas_used == int(txn["gas_used"])
        assert onchain.info.status.success is txn["success"]
        checkpoint = txn.get("state_checkpoint_hash")
        assert onchain.info.state_checkpoint_hash == (
            None if checkpoint is None else bytes.fromhex(checkpoint[2:])
        )
        events = (
            txn["payload"]["write_set"]["events"]
            if "payload" in txn and txn["type"] == "genesis_transaction"
            else txn.get("events", [])
        )
        assert [str(e.type) for e in onchain.events] == [e["type"] for e in events]
        # One write per state item: an object's resource group is one, whose members the
        # JSON lists one by one under the group's state key hash.
        deleted = {c["state_key_hash"]: c["type"].startswith("delete") for c in txn["changes"]}
        assert len(onchain.changes.changes) == len(deleted)
        ops = sorted(op.is_deletion for _, op in onchain.changes.changes)
        assert ops == sorted(deleted.values())
    assert seen == set(KINDS)


def test_block_transactions_hash_to_their_json_hash(http: httpx.Client) -> None:
    # The ledger hashes a transaction as SHA3-256(salt, variant, BCS of the variant's body).
    checked = 0
    for txn in page(http, 0, 30):
        if txn["type"] not in ("block_metadata_transaction", "block_epilogue_transaction"):
            continue
        body = ok_bcs(http.get(f"/transactions/by_version/{txn['version']}", headers=BCS))
        data = TransactionData.from_bcs(body)
        assert data.onchain is not None
        # OnChain variant (1 byte) and version (8 bytes), then the Transaction enum.
        variant_and_body = body[9 : 9 + len(_transaction_bytes(data))]
        assert "0x" + hashlib.sha3_256(TXN_SALT + variant_and_body).hexdigest() == txn["hash"]
        checked += 1
    assert checked >= 4


def _transaction_bytes(data: TransactionData) -> bytes:
    assert data.onchain is not None
    info_start = TransactionData(onchain=data.onchain).to_bcs().index(data.onchain.info.to_bcs())
    return data.to_bcs()[9:info_start]


def test_a_committed_user_transaction_is_the_signed_transaction_sent(
    node: LocalNode, http: httpx.Client
) -> None:
    dev = node.dev_accounts[2]
    to = node.dev_accounts[3].address
    signed = transfer(http, dev, to, 1_234_567).sign(dev.private_key)
    committed = wait(http, submit(http, signed)["hash"])
    for path in (
        f"/transactions/by_version/{committed['version']}",
        f"/transactions/by_hash/{txn_hash(signed)}",
        f"/transactions/wait_by_hash/{txn_hash(signed)}",
    ):
        body = ok_bcs(http.get(path, headers=BCS))
        data = TransactionData.from_bcs(body)
        assert data.signed == signed
        assert data.onchain is not None
        assert data.onchain.transaction == signed
        assert data.bytes == body
        # The signed transaction's bytes sit after the OnChain tag, the version and the
        # UserTransaction tag, exactly as sent; the official SDK reads them back.
        sent = signed.to_bcs()
        assert body[0] == 0
        assert body[9] == 0
        assert body[10 : 10 + len(sent)] == sent
        sdk = SdkSignedTransaction.deserialize(SdkDeserializer(body[10 : 10 + len(sent)]))
        assert sdk.bytes() == sent
        assert str(sdk.transaction.sender) == to_text(dev.address)
        assert sdk.transaction.sequence_number == int(committed["sequence_number"])
        assert sdk.transaction.max_gas_amount == int(committed["max_gas_amount"])


def to_text(address: Address) -> str:
    return address.long


def test_a_pending_transaction_reads_as_pending(tmp_path: Any) -> None:
    with LocalNode(seed=11, blocks=3) as node, httpx.Client(base_url=node.url, timeout=30) as http:
        dev = node.dev_accounts[0]
        gap = sequence_number(http, dev.address) + 1  # waits for the one before it
        parked = transfer(http, dev, node.dev_accounts[1].address, 5, sequence=gap).sign(
            dev.private_key
        )
        submit(http, parked)
        data = TransactionData.from_bcs(
            ok_bcs(http.get(f"/transactions/by_hash/{txn_hash(parked)}", headers=BCS))
        )
        assert data.is_pending
        assert data.onchain is None
        assert data.pending == parked
        body = data.to_bcs()
        assert body[0] == 1
        assert body[1:] == parked.to_bcs()


def test_listings_are_bcs_sequences_of_committed_transactions(
    node: LocalNode, http: httpx.Client
) -> None:
    json_page = page(http, 3, 12)
    body = ok_bcs(http.get("/transactions", params={"start": 3, "limit": 12}, headers=BCS))
    listed = TransactionOnChainData.list_from_bcs(body)
    assert [t.version for t in listed] == [int(t["version"]) for t in json_page]
    for item, txn in zip(listed, json_page, strict=True):
        assert "0x" + item.info.transaction_hash.hex() == txn["hash"]

    sender = next(t["sender"] for t in page(http, 0, 60) if t["type"] == "user_transaction")
    path = f"/accounts/{sender}/transactions"
    json_txns = ok(http.get(path, params={"limit": 5}))
    bcs_txns = TransactionOnChainData.list_from_bcs(
        ok_bcs(http.get(path, params={"limit": 5}, headers=BCS))
    )
    assert [t.version for t in bcs_txns] == [int(t["version"]) for t in json_txns]
    assert all(isinstance(t.transaction, SignedTransaction) for t in bcs_txns)
    assert [
        t.transaction.raw.sequence_number
        for t in bcs_txns
        if isinstance(t.transaction, SignedTransaction)
    ] == [int(t["sequence_number"]) for t in json_txns]


def test_a_failed_transaction_carries_its_move_abort(http: httpx.Client) -> None:
    failed = next(
        t
        for t in page(http, 0, 100)
        if not t["success"] and t["vm_status"].startswith("Move abort")
    )
    status = by_version(http, failed["version"]).onchain.info.status  # type: ignore[union-attr]
    assert status.kind == "MoveAbort"
    # "Move abort in 0x1::module: NAME(0xcode): description"
    where, rest = failed["vm_status"].removeprefix("Move abort in ").split(": ", 1)
    assert status.location is not None
    assert f"0x1::{status.location.name}" == where
    name, rest = rest.split("(", 1)
    code, description = rest.split("): ", 1)
    assert (status.reason_name, status.code, status.description) == (
        name,
        int(code, 16),
        description,
    )


@pytest.mark.parametrize(
    "path",
    ["/transactions/by_version/99999999", f"/transactions/by_hash/0x{'ab' * 32}"],
)
def test_missing_transactions_answer_the_json_error_record(http: httpx.Client, path: str) -> None:
    assert_error(http.get(path, headers=BCS), 404, "transaction_not_found")


def test_the_signed_transaction_of_a_json_submission_is_read_back(
    node: LocalNode, http: httpx.Client
) -> None:
    dev = node.dev_accounts[4]
    raw = raw_transaction(
        http,
        dev,
        "0x1::coin::transfer",
        [("address", node.dev_accounts[5].address), ("u64", 77)],
        type_args=["0x1::aptos_coin::AptosCoin"],
    )
    signed = raw.sign(dev.private_key)
    committed = wait(http, submit(http, signed)["hash"])
    assert by_version(http, committed["version"]).signed == signed
