"""The public fullnode's ledger: the shared chain seen through a rolling window.

Both nodes of the public profile serve one ledger file. The archive answers from the
:class:`~ledgerkit.localnet.ledger.Ledger` itself (all of history); the fullnode from a
:class:`PrunedLedger` over it, whose reads, views and position stop at the oldest version
the window keeps. Submissions, simulation and gas go to the shared ledger.

Where a pruned fullnode differs from the default node's ``prune_window`` it answers as
public fullnodes do, after aptos-core's sources:

* an event range whose first event is pruned while a later one of the stream is kept
  answers 410 ``version_pruned`` (``EventStore::lookup_events_by_key`` fails with "First
  requested event is probably pruned", which ``api/src/events.rs`` answers as an error);
  when none of the stream's events from there on is kept, the index has nothing for the
  key and the answer is 200 ``[]``. The newest page (no ``start``) is read from the newest
  kept sequence number minus ``limit`` + 1 (``AptosDB::get_events_by_event_key``,
  ``get_first_seq_num_and_limit``), so it too answers 410 when that one is pruned (the
  default node leaves pruned events out);
* an account's transactions are the ones kept from ``start`` on, 200 and no error: the
  pruner drops the account index of pruned transactions
  (``TransactionStore::prune_transaction_by_account``) and the reader starts at the first
  entry at or past ``start`` (``get_account_ordered_transactions_iter``); without
  ``start`` the page is the newest one, from the account's sequence number minus
  ``limit`` (``Context::get_account_ordered_transactions``);
* an account's transaction summaries are the ones kept, 200 and no error, whatever the
  range (``AptosDB::get_account_transaction_summaries`` has no ``error_if_ledger_pruned``
  and the pruner drops their index, ``prune_transaction_summaries_by_account``): a pruned
  ``start_version`` reads on from the oldest kept one, a page read backward stops there.
  The shared reads answer so already (they never read below the window's oldest
  version), so :class:`PrunedReads` leaves them as they are;
* a transaction looked up by the hash of a pruned version answers 404
  ``transaction_not_found`` (its version is not known any more).
"""

from __future__ import annotations

from typing import Any

import orjson

from ledgerkit._errors import ErrorCode
from ledgerkit.bcs import SignedTransaction, TransactionData
from ledgerkit.localnet._node_config import NodeConfig
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.ledger import (
    MAX_EVENTS_PAGE,
    MAX_TRANSACTIONS_PAGE,
    Head,
    Ledger,
    LedgerReads,
    LedgerViews,
)
from ledgerkit.types import Address, LedgerMeta

__all__ = ["PrunedLedger", "PrunedReads"]


class PrunedReads(LedgerReads):
    """A ledger's reads as a pruned fullnode answers lists by sequence number."""

    def events_by_creation_number(
        self, address: Address, creation_number: int, start: int | None, limit: int
    ) -> list[dict[str, Any]]:
        """Events of one stream from ``start`` (the newest page without it); 410
        ``version_pruned`` when the first one asked is pruned and a later one is kept,
        ``[]`` when none from there on is kept."""
        if limit <= 0:  # refused below, as everywhere
            return super().events_by_creation_number(address, creation_number, start, limit)
        account = bytes(address)
        last = self.store.reads.last_event_sequence(account, creation_number)
        if last is None or self._pruned(account, creation_number, last):
            return []  # nothing of the stream kept: the index has nothing for it
        first = start if start is not None else max(0, last - min(limit, MAX_EVENTS_PAGE) + 1)
        if first <= last and self._pruned(account, creation_number, first):
            oldest = self.head.oldest_version
            raise NodeError(
                ErrorCode.VERSION_PRUNED,
                f"First requested event is probably pruned: sequence number {first} is older "
                f"than the oldest version kept ({oldest})",
            )
        return super().events_by_creation_number(address, creation_number, first, limit)

    def account_transactions(
        self, address: Address, start: int | None, limit: int
    ) -> list[dict[str, Any]]:
        """The account's transactions kept from ``start`` on; without it the newest page,
        from the account's sequence number minus ``limit``."""
        if start is None and limit > 0:
            found = self.account(address, self.head.version)
            next_sequence = int(found["sequence_number"])
            start = max(0, next_sequence - min(limit, MAX_TRANSACTIONS_PAGE))
        return super().account_transactions(address, start, limit)

    def _pruned(self, account: bytes, creation_number: int, sequence: int) -> bool:
        """Whether event ``sequence`` of the stream is older than the window."""
        rows = self.store.reads.events(account, creation_number, sequence, 1)
        if not rows:
            return False
        return int(orjson.loads(rows[0])["version"]) < self.head.oldest_version


class PrunedLedger:
    """The ledger as a fullnode keeping the newest ``window`` versions serves it.

    Parameters
    ----------
    ledger : Ledger
        The shared ledger (all of history).
    window : int
        Versions kept; the oldest readable position is the first block wholly inside them.

    Attributes
    ----------
    window : int
        Versions kept.
    reads : PrunedReads
        Reads that stop at the window.
    views : LedgerViews
        View functions over those reads.
    """

    def __init__(self, ledger: Ledger, window: int) -> None:
        self._ledger = ledger
        self.window = window
        self._cached: tuple[int, Head] | None = None
        self.reads = PrunedReads(ledger.store, self.head)
        self.views = LedgerViews(self.reads, chain_id=ledger.config.chain_id)

    @property
    def config(self) -> NodeConfig:
        """The shared ledger's settings."""
        return self._ledger.config

    def head(self) -> Head:
        """The shared ledger's head, with the oldest position this window leaves."""
        block = self._ledger.reads.head.block
        cached = self._cached
        if cached is not None and cached[0] == block.height:
            return cached[1]
        head = self._ledger.head_within(self.window)
        self._cached = (head.block.height, head)
        return head

    # -- position and health -------------------------------------------------------------

    def meta(self, *, gas_used: int | None = None, cursor: str | None = None) -> LedgerMeta:
        """The ledger position for the headers, reporting the window."""
        return self._ledger.meta(gas_used=gas_used, cursor=cursor, head=self.head())

    def index(self) -> dict[str, Any]:
        """The body of ``GET /``, reporting the window."""
        return self._ledger.index(head=self.head())

    def now_usec(self) -> int:
        """The chain's time now."""
        return self._ledger.now_usec()

    def health(self, duration_secs: int | None, now_usec: int) -> None:
        """Raise ``health_check_failed`` when the last block is too old."""
        self._ledger.health(duration_secs, now_usec)

    # -- transactions ---------------------------------------------------------------------

    def transaction_by_hash(self, txn_hash: bytes) -> dict[str, Any]:
        """The transaction, pending or committed inside the window; a pruned one is not
        found (404), as public fullnodes answer."""
        found = self._ledger.transaction_by_hash(txn_hash)
        pending = found.get("type") == "pending_transaction"
        if not pending and int(found["version"]) < self.head().oldest_version:
            raise NodeError(
                ErrorCode.TRANSACTION_NOT_FOUND,
                f"Transaction not found by Transaction hash({'0x' + txn_hash.hex()})",
            )
        return found

    def transaction_data(self, txn: dict[str, Any]) -> TransactionData:
        """The BCS ``TransactionData`` of a transaction's JSON."""
        return self._ledger.transaction_data(txn)

    def transactions_bcs(self, txns: list[dict[str, Any]]) -> bytes:
        """A BCS sequence of committed transactions."""
        return self._ledger.transactions_bcs(txns)

    def signed_from_json(self, request: dict[str, Any], *, simulation: bool) -> SignedTransaction:
        """The signed transaction of a JSON submit (or simulate) request."""
        return self._ledger.signed_from_json(request, simulation=simulation)

    def submit(self, signed: SignedTransaction) -> dict[str, Any]:
        """Queue a signed transaction on the shared ledger."""
        return self._ledger.submit(signed)

    def simulate(
        self, signed: SignedTransaction, **estimates: bool
    ) -> tuple[list[dict[str, Any]], int]:
        """Execute against the latest state without committing (``estimates``: the
        ``estimate_*`` flags of the node's own ``simulate``)."""
        return self._ledger.simulate(signed, **estimates)

    def encode_submission(self, request: dict[str, Any]) -> bytes:
        """The signing message of a JSON transaction request."""
        return self._ledger.encode_submission(request)

    def estimate_gas_price(self) -> dict[str, int]:
        """The gas price estimates."""
        return self._ledger.estimate_gas_price()
