"""The ledger facade the HTTP app calls: reads, submission, simulation, views, blocks.

:meth:`Ledger.open` opens a SQLite file (or a temporary one); a new file is a copy of
the cached chain of its options (generated once, see
:mod:`ledgerkit.localnet.chain._chain_cache`), a half-made one is finished, and an
existing one carries on from its last block.

The chain has its own clock (:meth:`Ledger.now_usec`, see
:mod:`ledgerkit.localnet.chain._chain_clock`): the anchor's time at the node's pace, or
the wall clock (``NodeConfig.clock``), on which :meth:`Ledger.idle_tick` makes an empty
block whenever the node is idle a second. Blocks,
expiration checks and the live workload read it. Simulation, view functions, JSON requests
and the mempool's record in the file live in modules of their own. Methods are synchronous
and thread-safe: any thread may read while one block producer writes. Every documented
failure is a :class:`~ledgerkit.localnet._node_errors.NodeError` with the node's error code.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any

import orjson

from ledgerkit._errors import ErrorCode
from ledgerkit.bcs import Serializer, SignedTransaction, TransactionData
from ledgerkit.localnet._node_config import NodeConfig
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.chain import (
    BlockBuilder,
    ChainClock,
    DevAccount,
    TimeSource,
    WallClock,
    Workload,
    copy_cached_chain,
    dev_accounts,
    faucet_account,
    generate,
    wall_time_usec,
)
from ledgerkit.localnet.ledger._file_identity import build_hash, check_identity
from ledgerkit.localnet.ledger._ledger_reads import Head, LedgerReads
from ledgerkit.localnet.ledger._ledger_views import LedgerViews
from ledgerkit.localnet.ledger._node_simulation import simulate
from ledgerkit.localnet.mempool import SYSTEM_TTL_SECS, Mempool, admit, restore_mempool
from ledgerkit.localnet.store import BlockRecord, Store
from ledgerkit.localnet.vm import AGGRESSIVE_BLOCK_HISTORY, BlockGas, estimate_gas_price
from ledgerkit.localnet.vm.framework import ACCOUNT, resource_key
from ledgerkit.localnet.wire import signed_from_json, signing_message_of, transaction_data
from ledgerkit.types import Address, LedgerMeta

__all__ = ["Ledger"]


class Ledger:
    """The embedded node's ledger. Open with :meth:`open`.

    Attributes
    ----------
    config : NodeConfig
        The node's settings.
    dev_accounts : list of DevAccount
        Accounts funded at genesis for users (address and key).
    faucet : DevAccount
        The account holding most of the supply, for a faucet to pay from.
    mempool : Mempool
        Transactions accepted and not yet in a block, kept in the ledger's file too.
    reads : LedgerReads
        Accounts, state, events, transactions, blocks and tables, at the ledger's head.
    views : LedgerViews
        Move view functions, run at a version.

    A ledger whose ``config.clock`` is ``"wall"`` reads the wall clock through
    ``time_source`` (microseconds since the Unix epoch; by default this machine's clock,
    tests pass a fake one).

    Examples
    --------
    >>> ledger = Ledger.open(None, NodeConfig(seed=1, blocks=3))  # doctest: +SKIP
    >>> ledger.index()["block_height"]  # doctest: +SKIP
    '3'
    """

    def __init__(
        self,
        store: Store,
        config: NodeConfig,
        *,
        temp_dir: str | None = None,
        time_source: TimeSource | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self._temp_dir = temp_dir
        # The system lifetime is counted on the wall clock only: the chain clock waits
        # while the node is idle, and its blocks may be stamped by hand (tests, tools).
        ttl = SYSTEM_TTL_SECS if config.clock == "wall" else None
        self.mempool = Mempool(config.mempool_capacity, public_updates=True, system_ttl=ttl)
        self._builder = BlockBuilder(store, chain_id=config.chain_id, seed=config.seed)
        self._produce_lock = threading.Lock()
        # Held by an admission from its checks to its record, and by a block's commit: an
        # admission sees the chain wholly before or wholly after a block, so it never
        # accepts a sequence number that block uses.
        self._commit_lock = threading.Lock()
        self.dev_accounts: list[DevAccount] = dev_accounts(
            config.seed, int(store.reads.meta("dev_accounts") or config.dev_accounts)
        )
        self.faucet: DevAccount = faucet_account(config.seed)
        workload_count = int(store.reads.meta("workload_accounts") or 0)
        self._workload = Workload(store, self.mempool, config.seed, config.chain_id, workload_count)
        self._git_hash = build_hash()
        self._estimate: tuple[int, dict[str, int]] | None = None
        last = store.reads.last_block()
        assert last is not None
        self._head = self._make_head(last)
        self._clock: ChainClock | WallClock
        if config.clock == "wall":
            self._clock = WallClock(last.timestamp, time_source or wall_time_usec)
        else:
            self._clock = ChainClock.of_store(store, last.timestamp, config.block_interval)
        self.reads = LedgerReads(store, lambda: self._head)
        self.views = LedgerViews(self.reads, chain_id=config.chain_id)

    @classmethod
    def open(
        cls, path: str | Path | None, config: NodeConfig, *, time_source: TimeSource | None = None
    ) -> Ledger:
        """Open the ledger in ``path`` (None: a temporary file), generating a new chain.

        ``time_source`` is the wall clock a ledger with ``config.clock == "wall"`` reads
        (microseconds since the Unix epoch; by default this machine's).

        Raises
        ------
        NodeConfigError
            The file holds a chain of another seed, chain id or anchor (a ``ValueError``).
        IncompleteChainError
            The file's generation stopped midway and this version cannot finish it.
        """
        temp_dir = None
        if path is None:
            temp_dir = tempfile.mkdtemp(prefix="ledgerkit-ledger-")
            path = Path(temp_dir) / "ledger.sqlite3"
        path = Path(path)
        if not path.exists() or path.stat().st_size == 0:
            copy_cached_chain(path, config)
        store = Store(path)
        try:
            if store.reads.last_block() is not None:
                check_identity(store, config)
            generate(store, config)  # a new chain, the rest of a half-made one, or nothing
            ledger = cls(store, config, temp_dir=temp_dir, time_source=time_source)
            ledger._restore_mempool()
        except BaseException:
            store.close()
            if temp_dir is not None:
                shutil.rmtree(temp_dir, ignore_errors=True)
            raise
        return ledger

    def _restore_mempool(self) -> None:
        """Take back the transactions the file holds as accepted.

        See :mod:`ledgerkit.localnet.mempool._journal`.
        """
        restore_mempool(self.store, self.mempool, self._now_secs(), self._sequence_of)

    def close(self) -> None:
        """Close the store (and remove a temporary ledger)."""
        with self._produce_lock:
            self.store.close()
            if self._temp_dir is not None:
                shutil.rmtree(self._temp_dir, ignore_errors=True)
                self._temp_dir = None

    # -- position -----------------------------------------------------------------------

    def _make_head(self, block: BlockRecord) -> Head:
        return self._head_within(block, self.config.prune_window)

    def head_within(self, window: int | None) -> Head:
        """The current head as a node keeping only the newest ``window`` versions sees it.

        The oldest version is the first of the oldest block wholly inside the window, and
        never older than this ledger's own (``None``: this ledger's own window).
        """
        head = self._head
        own = self.config.prune_window
        if window is None or (own is not None and own <= window):
            return head
        return self._head_within(head.block, window)

    def _head_within(self, block: BlockRecord, window: int | None) -> Head:
        if window is None:
            return Head(block, 0, 0)
        readable = max(0, block.last_version + 1 - window)
        first = self.store.reads.block_containing(readable)
        assert first is not None
        if first.first_version < readable:
            following = self.store.reads.block(first.height + 1)
            if following is not None:
                first = following
        return Head(block, first.first_version, first.height)

    def meta(
        self, *, gas_used: int | None = None, cursor: str | None = None, head: Head | None = None
    ) -> LedgerMeta:
        """The ledger position for the ``X-NODE-*`` headers (at ``head``: by default the
        current one)."""
        head = head if head is not None else self._head
        return LedgerMeta(
            chain_id=self.config.chain_id,
            ledger_version=head.version,
            oldest_ledger_version=head.oldest_version,
            ledger_timestamp_usec=head.block.timestamp,
            epoch=head.block.epoch,
            block_height=head.block.height,
            oldest_block_height=head.oldest_block_height,
            gas_used=gas_used,
            cursor=cursor,
        )

    def index(self, *, head: Head | None = None) -> dict[str, Any]:
        """The body of ``GET /`` (at ``head``: by default the current one)."""
        head = head if head is not None else self._head
        return {
            "chain_id": self.config.chain_id,
            "epoch": str(head.block.epoch),
            "ledger_version": str(head.version),
            "oldest_ledger_version": str(head.oldest_version),
            "ledger_timestamp": str(head.block.timestamp),
            "node_role": "full_node",
            "oldest_block_height": str(head.oldest_block_height),
            "block_height": str(head.block.height),
            "git_hash": self._git_hash,
        }

    def health(self, duration_secs: int | None, now_usec: int) -> None:
        """Raise ``health_check_failed`` when the last block is older than ``duration_secs``."""
        if duration_secs is None:
            return
        timestamp = self._head.block.timestamp
        if timestamp < now_usec - duration_secs * 1_000_000:
            raise NodeError(
                ErrorCode.HEALTH_CHECK_FAILED,
                f"The latest ledger info timestamp is {timestamp}, which is beyond the allowed "
                f"skew ({duration_secs}s).",
            )

    # -- submission ---------------------------------------------------------------------

    def now_usec(self) -> int:
        """The chain's time now, never before the head: anchor + time since the node
        started (waiting while idle), or the wall clock."""
        return self._clock.now_usec(self._head.block.timestamp)

    def _now_secs(self) -> int:
        """The chain's time now in whole seconds, what expiration is checked against."""
        return self.now_usec() // 1_000_000

    def submit(self, signed: SignedTransaction) -> dict[str, Any]:
        """Validate a signed transaction against the latest state and queue it.

        Returns
        -------
        dict
            Its pending JSON, the answer of a 202: a ``PendingTransaction`` without the
            ``type`` tag, as public nodes answer a submission (the tag belongs to the
            ``Transaction`` union of reads by hash).

        Raises
        ------
        NodeError
            ``vm_error`` with the ``vm_error_code`` of the failed check (1 for a signature
            that does not verify, 7 for an unknown sender, 23 for another chain id...),
            ``sequence_number_too_old``, ``invalid_transaction_update``,
            ``mempool_is_full`` (507), or ``invalid_input`` for a signature scheme that
            cannot be checked here or a payload this node does not run.
        """
        with self._commit_lock:
            pending = admit(
                signed,
                self.store.reads.state,
                self.mempool,
                chain_id=self.config.chain_id,
                now_secs=self._now_secs(),
            )
        answer = dict(pending.json)
        answer.pop("type", None)
        return answer

    def next_sequence_number(self, address: Address) -> int:
        """The sequence number the sender's next transaction takes: after its committed
        ones and those waiting in the mempool without a gap."""
        sender = bytes(address)
        return self.mempool.next_sequence(sender, self._sequence_of(sender))

    def expire_pending(self) -> int:
        """Drop the waiting transactions expired by the chain's time; how many left."""
        return self.mempool.expire(self._now_secs())

    def signed_from_json(self, request: dict[str, Any], *, simulation: bool) -> SignedTransaction:
        """The signed transaction of a JSON submit (or simulate) request."""
        return signed_from_json(
            request, self.config.chain_id, simulation=simulation, abi_of=self._module_abi
        )

    def encode_submission(self, request: dict[str, Any]) -> bytes:
        """The signing message of a JSON transaction request."""
        return signing_message_of(request, self.config.chain_id, self._module_abi)

    def _module_abi(self, address: Address, name: str) -> dict[str, Any] | None:
        """The ABI of a module published on chain (at the head), or None."""
        try:
            module = self.reads.module(address, name, None)
        except NodeError:
            return None
        abi: dict[str, Any] = orjson.loads(module.json)["abi"]
        return abi

    def transaction_by_hash(self, txn_hash: bytes) -> dict[str, Any]:
        """The committed transaction, or its ``pending_transaction`` JSON while waiting."""
        # Store, then mempool, then store again: a block committed between the first two
        # looks would otherwise hide the transaction. A version past the head is a block
        # still being committed; until the head moves it answers as pending. A waiting
        # transaction past its expiration is gone (unless its block is being committed).
        for _ in range(2):
            version = self.store.reads.version_of(txn_hash)
            if version is not None and version <= self._head.version:
                self.reads.checked_version(version)  # pruned: 410
                found: dict[str, Any] = orjson.loads(self.store.reads.transaction(version) or b"{}")
                return found
            pending = self.mempool.get(txn_hash, self._now_secs())
            if pending is not None:
                return dict(pending.json)
        raise NodeError(
            ErrorCode.TRANSACTION_NOT_FOUND,
            f"Transaction not found by Transaction hash({'0x' + txn_hash.hex()})",
        )

    def transaction_data(self, txn: dict[str, Any]) -> TransactionData:
        """The BCS ``TransactionData`` of a transaction's JSON (committed or pending)."""
        return transaction_data(
            txn,
            chain_id=self.config.chain_id,
            state_at=self.store.reads.state,
            block_id=self._block_id,
            head_abi_of=self._module_abi,
        )

    def _block_id(self, version: int) -> bytes:
        block = self.store.reads.block_containing(version)
        assert block is not None
        return block.hash

    def transactions_bcs(self, txns: list[dict[str, Any]]) -> bytes:
        """A BCS sequence of committed transactions, as a listing answers."""
        s = Serializer()
        s.uleb128(len(txns))
        for txn in txns:
            onchain = self.transaction_data(txn).onchain
            assert onchain is not None
            onchain.serialize(s)
        return s.output()

    # -- simulation ---------------------------------------------------------------------

    def simulate(
        self,
        signed: SignedTransaction,
        *,
        estimate_gas_unit_price: bool = False,
        estimate_max_gas_amount: bool = False,
        estimate_prioritized_gas_unit_price: bool = False,
    ) -> tuple[list[dict[str, Any]], int]:
        """Execute against the latest state without committing.

        Returns
        -------
        (list of dict, int)
            The one user transaction (state hashes zeroed, no ``version`` on its events,
            no ``type`` tag: public nodes answer a simulation with bare
            ``UserTransaction`` objects) and its gas used. A transaction the prologue
            refuses comes back with ``success`` false and the status name as ``vm_status``.

        Raises
        ------
        NodeError
            ``invalid_input`` when the signature verifies ("Simulated transactions must
            not have a valid signature"), for a payload this node does not run, or when
            ``estimate_max_gas_amount`` is asked for an account that does not exist.
        """
        price = None
        if estimate_prioritized_gas_unit_price:
            price = self.estimate_gas_price()["prioritized_gas_estimate"]
        elif estimate_gas_unit_price:
            price = self.estimate_gas_price()["gas_estimate"]
        return simulate(
            signed,
            self.store.reads.state,
            self._head,
            chain_id=self.config.chain_id,
            now_secs=self._now_secs(),
            gas_unit_price=price,
            estimate_max_gas_amount=estimate_max_gas_amount,
        )

    # -- gas ---------------------------------------------------------------------------

    def estimate_gas_price(self) -> dict[str, int]:
        """``{deprioritized_gas_estimate, gas_estimate, prioritized_gas_estimate}``."""
        height = self._head.block.height
        cached = self._estimate
        if cached is not None and cached[0] == height:
            return dict(cached[1])
        recent = [
            BlockGas(full, price)
            for full, price in self.store.reads.recent_blocks(AGGRESSIVE_BLOCK_HISTORY)
        ]
        estimate = estimate_gas_price(recent)
        self._estimate = (height, estimate)
        return dict(estimate)

    # -- block production ---------------------------------------------------------------

    def _sequence_of(self, sender: bytes) -> int:
        found = self.store.reads.state(resource_key(sender, ACCOUNT))
        return 0 if found is None else int(orjson.loads(found[0])["data"]["sequence_number"])

    def produce_block(self, now_usec: int | None = None, *, empty_ok: bool = False) -> int | None:
        """Make a block of waiting transactions; its height, or None when none was ready.

        Parameters
        ----------
        now_usec : int, optional
            The block's timestamp; by default the chain clock (:meth:`now_usec`). It
            is always at least one microsecond after the last block's.
        empty_ok : bool
            Make a block even when no transaction is ready (live mode keeps time moving).

        Notes
        -----
        Transactions expire against block time, which is chain time: an expiration
        computed from the ledger timestamp holds whatever the wall clock says.
        """
        with self._produce_lock:
            head = self._head
            if not empty_ok and not self.mempool.has_ready(self._sequence_of):
                return None
            clock = now_usec if now_usec is not None else self.now_usec()
            timestamp = max(clock, head.block.timestamp + 1)
            try:
                built = self._builder.build(
                    head.block,
                    self.mempool,
                    timestamp,
                    meta={"workload_accounts": str(self._workload.count)},
                )
                if not built.included and not empty_ok:
                    self.mempool.release()
                    return None
                # The block's transactions leave the file's mempool in the block's write.
                built.write.mempool_removed = [p.hash for p in built.included]
                with self._commit_lock:
                    self.store.write_block(built.write)
                    # The head moves before the mempool forgets the block's transactions, so
                    # a transaction is always findable: pending, then committed at or below
                    # the head.
                    self._head = self._make_head(built.write.block)
                    self.mempool.settle()
                # As a public node's mempool does on each commit: what the block's time
                # expired leaves (parked transactions too, which no block takes).
                self.mempool.expire(timestamp // 1_000_000)
            except BaseException:
                self.mempool.release()  # what the block took waits for the next one
                raise
            return built.write.block.height

    def idle_tick(self) -> int | None:
        """On the wall clock, make an empty block (or one of what is ready) once the
        chain's time is ``config.idle_interval`` (a second) past the head block; its
        height, else None.

        A public chain makes blocks continually, so its time follows the wall clock
        even when nobody submits: the node's block producer calls this while the node
        is idle. A ledger on the chain clock never makes one (its time waits instead).
        """
        if self.config.clock != "wall":
            return None
        now = self.now_usec()
        if now - self._head.block.timestamp < round(self.config.idle_interval * 1_000_000):
            return None
        return self.produce_block(now, empty_ok=True)

    def live_workload_transactions(self, n: int | None = None) -> list[SignedTransaction]:
        """Signed workload transactions for the next block (``n``, or the load curve's count)."""
        head = self._head
        return self._workload.transactions(head.block.height + 1, self.now_usec(), n)

    def live_tick(self, now_usec: int | None = None) -> int | None:
        """Live mode: submit the next block's workload, then make the block (even empty)."""
        for signed in self.live_workload_transactions():
            with contextlib.suppress(NodeError):  # users turned away try again later
                self.submit(signed)
        return self.produce_block(now_usec, empty_ok=True)
