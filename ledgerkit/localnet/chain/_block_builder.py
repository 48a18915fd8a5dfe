"""Making one block: the metadata transaction, user transactions from the mempool, the epilogue.

A block is ``block_metadata_transaction`` (the prologue: height, clock, ``NewBlockEvent``),
then user transactions in mempool order until the block gas limit or the transaction
cap is reached, then ``block_epilogue_transaction`` with ``block_end_info`` and the state
checkpoint hash. Each user transaction is re-validated against the state as the block
stands; one that no longer passes (expired, out of funds...) is dropped from the mempool
and not committed, as a node discards it.

Hashes are computed the ledger's way where the ledger's input is at hand (user
transactions: ``SignedTransaction.hash()``; block metadata and epilogue: SHA3-256 of the
``APTOS::Transaction`` salt, the variant byte and their BCS). The accumulator, state and
event roots are hash chains, not Merkle trees (no proofs are served): each transaction's
info hash folds into ``accumulator_root_hash``; each block's writes fold into the state
checkpoint hash; a transaction without events has the ledger's placeholder event root.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

from ledgerkit.bcs import TRANSACTION_PREFIX, Serializer
from ledgerkit.localnet.chain._seeded_accounts import validator_addresses
from ledgerkit.localnet.mempool import Mempool, Pending
from ledgerkit.localnet.store import BlockRecord, BlockWrite, Store
from ledgerkit.localnet.vm import (
    BLOCK_GAS_LIMIT,
    MAX_BLOCK_USER_TRANSACTIONS,
    SUCCESS,
    PrologueError,
    StateChange,
    TxnOutput,
    execute,
    finalize,
    validate,
)
from ledgerkit.localnet.vm.framework import (
    ACCOUNT,
    FRAMEWORK,
    BlockFacts,
    Context,
    block_prologue,
    resource_key,
)
from ledgerkit.localnet.wire import info_json, module_abi_reader, user_fields
from ledgerkit.types import Address

__all__ = [
    "EPOCH_INTERVAL_USEC",
    "BlockBuilder",
    "BuiltBlock",
    "TxnRecorder",
    "change_hash",
    "salted",
]

#: An epoch lasts this long (the first block past it starts the next one).
EPOCH_INTERVAL_USEC: Final = 1_800_000_000
ZERO_HASH: Final = "0x" + "00" * 32
#: The ledger's hash of an empty accumulator ("ACCUMULATOR_PLACEHOLDER_HASH").
PLACEHOLDER_HASH: Final = "0x" + b"ACCUMULATOR_PLACEHOLDER_HASH".ljust(32, b"\x00").hex()


def salted(name: bytes, *parts: bytes) -> bytes:
    """SHA3-256 of ``SHA3-256("APTOS::" + name)`` and the parts."""
    digest = hashlib.sha3_256(hashlib.sha3_256(b"APTOS::" + name).digest())
    for part in parts:
        digest.update(part)
    return digest.digest()


def _hex(data: bytes) -> str:
    return "0x" + data.hex()


def change_hash(changes: list[StateChange]) -> bytes:
    parts = [
        bytes.fromhex(c.change["state_key_hash"][2:]) + hashlib.sha3_256(c.bcs or b"").digest()
        for c in changes
        if c.change is not None
    ]
    return salted(b"WriteSet", *parts)


def event_root(events: list[dict[str, Any]]) -> str:
    if not events:
        return PLACEHOLDER_HASH
    return _hex(
        salted(b"EventAccumulator", *(hashlib.sha3_256(orjson.dumps(e)).digest() for e in events))
    )


@dataclass(slots=True)
class TxnRecorder:
    """Collects a block's transactions into store rows, chaining the accumulator."""

    height: int
    version: int
    accumulator: bytes
    write: BlockWrite
    overlay: dict[bytes, tuple[bytes, bytes] | None] = field(default_factory=dict)
    change_hashes: list[bytes] = field(default_factory=list)

    def record(
        self,
        txn_hash: bytes,
        output: TxnOutput,
        fields: dict[str, Any],
        *,
        sender: bytes | None = None,
        sequence_number: int | None = None,
        checkpoint: str | None = None,
    ) -> dict[str, Any]:
        """Add one transaction at the next version; returns its JSON."""
        version = self.version
        changes_hash = change_hash(output.changes)
        events_hash = event_root(output.events)
        info = salted(
            b"TransactionInfo",
            txn_hash,
            changes_hash,
            events_hash.encode(),
            output.gas_used.to_bytes(8, "little"),
            bytes([output.success]),
        )
        self.accumulator = salted(b"TransactionAccumulator", self.accumulator, info)
        self.change_hashes.append(changes_hash)
        body = info_json(
            version=version,
            txn_hash=txn_hash,
            state_change_hash=_hex(changes_hash),
            event_root_hash=events_hash,
            gas_used=output.gas_used,
            success=output.success,
            vm_status=output.vm_status,
            accumulator_root_hash=_hex(self.accumulator),
            changes=StateChange.listed(output.changes),
        )
        if checkpoint is not None:  # the node leaves the field out, it never sends null
            body["state_checkpoint_hash"] = checkpoint
        body.update(fields)
        index = version - self.write.block.first_version
        self.write.transactions.append(
            (version, txn_hash, self.height, index, sender, sequence_number, orjson.dumps(body))
        )
        for c in output.changes:
            self.write.state.append((c.skey, version, c.json, c.bcs))
            self.overlay[c.skey] = None if c.json is None else (c.json, c.bcs or b"")
        for account, number, sequence, event in output.handle_events:
            versioned = {"version": str(version), **event}
            self.write.events.append((account, number, sequence, version, orjson.dumps(versioned)))
        self.version += 1
        return body


@dataclass(slots=True)
class BuiltBlock:
    """A block ready to write, and what it did to the mempool."""

    write: BlockWrite
    included: list[Pending]
    discarded: list[tuple[Pending, str]]


class BlockBuilder:
    """Builds blocks on top of a store's latest state."""

    def __init__(self, store: Store, *, chain_id: int, seed: int) -> None:
        self.store = store
        self.chain_id = chain_id
        self.seed = seed
        self.validators = validator_addresses(seed)

    def build(
        self,
        prev: BlockRecord,
        mempool: Mempool,
        timestamp_usec: int,
        *,
        meta: dict[str, str] | None = None,
    ) -> BuiltBlock:
        """The block after ``prev`` at ``timestamp_usec`` (which must be later than ``prev``'s)."""
        height = prev.height + 1
        rng = random.Random(f"ledgerkit-block:{self.seed}:{height}")
        if prev.epoch == 0 or timestamp_usec - prev.epoch_start >= EPOCH_INTERVAL_USEC:
            epoch, epoch_start, round_ = prev.epoch + 1, timestamp_usec, 0
        else:
            epoch, epoch_start, round_ = prev.epoch, prev.epoch_start, prev.round
        failed = [rng.randrange(len(self.validators))] if rng.random() < 0.02 else []
        round_ += 1 + len(failed)
        proposer = self.validators[round_ % len(self.validators)]
        votes = bytes([0xF0 ^ (0x80 >> rng.randrange(4)) if rng.random() < 0.1 else 0xF0])
        block_id = salted(
            b"BlockInfo",
            prev.hash,
            height.to_bytes(8, "little"),
            timestamp_usec.to_bytes(8, "little"),
        )
        record = BlockRecord(
            height, prev.last_version + 1, 0, block_id, timestamp_usec, epoch, round_,
            epoch_start, 0, 0, False, None, b"", b"",
        )  # fmt: skip
        write = BlockWrite(record, meta=dict(meta or {}))
        rec = TxnRecorder(height, record.first_version, prev.accumulator, write)
        store = self.store

        def read(skey: bytes) -> tuple[bytes, bytes] | None:
            if skey in rec.overlay:
                return rec.overlay[skey]
            return store.reads.state(skey)

        # The state's size when the epoch begins: after the previous block.
        usage = store.reads.usage(prev.last_version) if epoch != prev.epoch else None
        facts = BlockFacts(round_ % len(self.validators), block_id, usage)
        self._metadata_transaction(
            rec, read, block_id, epoch, round_, proposer, votes, failed, timestamp_usec, facts
        )
        included, discarded, gas, size, full = self._user_transactions(
            rec, read, mempool, timestamp_usec
        )
        prices = [p.gas_unit_price for p in included]
        limit_reached = full and gas >= BLOCK_GAS_LIMIT
        state_root = salted(b"StateCheckpoint", prev.state_root, *rec.change_hashes)
        self._epilogue_transaction(
            rec, block_id, timestamp_usec, gas, size, limit_reached, state_root
        )
        write.block = BlockRecord(
            height, record.first_version, rec.version - 1, block_id, timestamp_usec, epoch,
            round_, epoch_start, len(included), gas, full, min(prices) if prices else None,
            rec.accumulator, state_root,
        )  # fmt: skip
        return BuiltBlock(write, included, discarded)

    def _metadata_transaction(
        self,
        rec: TxnRecorder,
        read: Callable[[bytes], tuple[bytes, bytes] | None],
        block_id: bytes,
        epoch: int,
        round_: int,
        proposer: Address,
        votes: bytes,
        failed: list[int],
        timestamp_usec: int,
        facts: BlockFacts,
    ) -> None:
        """Record the block's ``block_metadata_transaction`` (the block prologue)."""
        ctx = Context(read, FRAMEWORK.codec, timestamp_usec=timestamp_usec, chain_id=self.chain_id)
        block_prologue(
            ctx,
            block_id=block_id,
            epoch=epoch,
            round_=round_,
            proposer=proposer,
            votes=votes,
            failed_proposers=failed,
            timestamp_usec=timestamp_usec,
            facts=facts,
        )
        output = TxnOutput(True, SUCCESS, 0, finalize(ctx), ctx.events, ctx.handle_events)
        s = Serializer()  # BlockMetadata, for its hash
        s.fixed_bytes(block_id)
        s.u64(epoch)
        s.u64(round_)
        s.address(proposer)
        s.var_bytes(votes)
        s.sequence(failed, s.u32)
        s.u64(timestamp_usec)
        rec.record(
            hashlib.sha3_256(TRANSACTION_PREFIX + b"\x02" + s.output()).digest(),
            output,
            {
                "id": _hex(block_id),
                "epoch": str(epoch),
                "round": str(round_),
                "events": output.events,
                "previous_block_votes_bitvec": list(votes),
                "proposer": proposer.standard,
                "failed_proposer_indices": failed,
                "timestamp": str(timestamp_usec),
                "type": "block_metadata_transaction",
            },
        )

    @staticmethod
    def _epilogue_transaction(
        rec: TxnRecorder,
        block_id: bytes,
        timestamp_usec: int,
        gas: int,
        size: int,
        limit_reached: bool,
        state_root: bytes,
    ) -> None:
        """Record the block's ``block_epilogue_transaction`` with its state checkpoint."""
        end = Serializer()  # BlockEpiloguePayload::V0 {block_id, BlockEndInfo::V0 {...}}
        end.uleb128(0)
        end.fixed_bytes(block_id)
        end.uleb128(0)
        end.boolean(limit_reached)
        end.boolean(False)
        end.u64(gas)
        end.u64(size)
        rec.record(
            hashlib.sha3_256(TRANSACTION_PREFIX + b"\x06" + end.output()).digest(),
            TxnOutput(True, SUCCESS, 0, []),
            {
                "timestamp": str(timestamp_usec),
                "block_end_info": {
                    "block_gas_limit_reached": limit_reached,
                    "block_output_limit_reached": False,
                    "block_effective_block_gas_units": gas,
                    "block_approx_output_size": size,
                },
                "type": "block_epilogue_transaction",
            },
            checkpoint=_hex(state_root),
        )

    def _user_transactions(
        self,
        rec: TxnRecorder,
        read: Callable[[bytes], tuple[bytes, bytes] | None],
        mempool: Mempool,
        timestamp_usec: int,
    ) -> tuple[list[Pending], list[tuple[Pending, str]], int, int, bool]:
        now_secs = timestamp_usec // 1_000_000

        sequences: dict[bytes, int] = {}  # only a sender's own transactions move its number

        def sequence_of(sender: bytes) -> int:
            number = sequences.get(sender)
            if number is None:
                found = read(resource_key(sender, ACCOUNT))
                data = None if found is None else orjson.loads(found[0])["data"]
                number = sequences[sender] = 0 if data is None else int(data["sequence_number"])
            return number

        mempool.prune(sequence_of, now_secs)
        included: list[Pending] = []
        discarded: list[tuple[Pending, str]] = []
        gas = size = 0
        full = False
        for pending in mempool.ready(sequence_of):
            signed = pending.signed
            check = Context(read, FRAMEWORK.codec, timestamp_usec=timestamp_usec)
            try:
                validate(
                    signed,
                    pending.size,
                    check,
                    chain_id=self.chain_id,
                    now_secs=now_secs,
                    mode="execute",
                )
            except PrologueError as rejection:
                mempool.remove(pending)
                discarded.append((pending, rejection.status))
                continue
            if not mempool.take(pending):
                continue  # replaced or expired since it was offered: its successor waits
            output = execute(
                signed,
                pending.size,
                read,
                chain_id=self.chain_id,
                timestamp_usec=timestamp_usec,
                arguments=pending.arguments,
            )
            raw = signed.raw
            # A call the pending JSON could not read by an ABI (a published module's) reads
            # by the module as the block has it now: published in this block, it is there.
            fields = user_fields(
                signed,
                output.events,
                timestamp_usec,
                payload=None if pending.arguments is None else pending.json["payload"],
                signature=pending.json["signature"],
                abi_of=module_abi_reader(read),
            )
            rec.record(
                pending.hash,
                output,
                fields,
                sender=bytes(raw.sender),
                # An orderless transaction has no place among its sender's numbered ones.
                sequence_number=raw.sequence_number if pending.nonce is None else None,
            )
            if pending.nonce is None:
                sequences[pending.sender] = raw.sequence_number + 1
            included.append(pending)
            gas += output.effective_gas
            size += sum(len(c.bcs or b"") for c in output.changes)
            if gas >= BLOCK_GAS_LIMIT or len(included) >= MAX_BLOCK_USER_TRANSACTIONS:
                full = True
                break
        return included, discarded, gas, size, full
