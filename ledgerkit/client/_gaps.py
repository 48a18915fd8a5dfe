"""Lists by sequence number that a pruned node cuts short, and how the client completes
them. No I/O: :func:`completed` is a flow both clients drive (``_driver``).

What a pruned node answers for a list reaching into the history it no longer holds, as
aptos-core's sources have it:

* an account's transactions (``GET /accounts/{a}/transactions?start=``): 200 with only
  the transactions it keeps, from the oldest kept sequence number on, and no error. The
  ledger pruner deletes the account index entries of pruned transactions
  (``storage/aptosdb`` ``TransactionStore::prune_transaction_by_account``); the reader
  seeks the index at ``(address, start)`` and checks that sequence numbers follow each
  other only from the second one on (``get_account_ordered_transactions_iter``,
  ``AccountOrderedTransactionsIter``), so a pruned ``start`` moves silently to the first
  kept one. aptos-core chose this ("return the available transactions", PR #1433),
  whatever the endpoint's doc comment in ``api/src/transactions.rs`` says of a 410;
  ``Context::get_account_ordered_transactions`` adds no check. Without ``start`` the page
  is the newest one: ``start`` = the account's sequence number minus ``limit``.
* an account's transaction summaries (``GET /accounts/{a}/transaction_summaries``), a
  list by *version*: the same, 200 with what is kept
  (``AptosDB::get_account_transaction_summaries`` has no ``error_if_ledger_pruned``;
  ``prune_transaction_summaries_by_account`` drops the index). With ``start_version`` the
  storage reads forward from it, so a pruned ``start_version`` moves silently to the
  first kept summary; without it, it reads backward from ``end_version`` (or the newest)
  and stops at the oldest kept one, leaving the page short.
* an event stream (``GET /accounts/{a}/events/{creation_number}``, and by handle):
  ``EventStore::lookup_events_by_key`` fails when the first event found is past the first
  asked ("First requested event is probably pruned. expected: S, actual: K"), which the
  API answers as an error (``EventsApi::list`` in ``api/src/events.rs`` maps it to 500
  ``internal_error``; public networks answer 410 ``version_pruned`` since aptos-core PR
  #20332); the client routes that 410 to the archive. When
  none of the stream's events from ``start`` on is kept, the index has nothing for the key
  and the answer is 200 ``[]``. The newest page (no ``start``) starts at the newest kept
  sequence number minus ``limit`` + 1 and fails the same way when that one is pruned.

A page of summaries reaches into what the node dropped when ``start_version`` is older
than the oldest version it keeps (the versions from there to that oldest one), or, read
backward, when the page is shorter than asked (every version below the oldest kept, up to
``end_version``): whether anything of the account's is there only an archive can tell. So
the whole page is read from the archive, or :class:`~ledgerkit.PrunedRangeError` names
those versions.

For the lists by sequence number, the client looks at each such page a pruned node
answers (its ledger headers say the oldest version is past 0): sequence numbers starting
past the one asked (or, for the newest page, a page shorter than asked that does not
start at 0) leave a gap; an empty page of an account's transactions is weighed against
the account's sequence number. A gap is read again from the archive, whole; without an
archive it raises :class:`~ledgerkit.PrunedRangeError` naming the sequence numbers left
out. An empty event page is asked of the archive when there is one (the node cannot tell
"nothing there" from "all pruned"), and handed out as it is otherwise.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Final

import orjson

from ledgerkit._endpoints import JSON
from ledgerkit._errors import ErrorCode, PrunedRangeError
from ledgerkit.bcs import SignedTransaction
from ledgerkit.client import calls
from ledgerkit.client._call import Call
from ledgerkit.client._driver import Flow
from ledgerkit.types import Result

__all__ = ["FromArchive", "FromNode", "ListPage", "completed", "list_page", "summaries_missing"]

_log = logging.getLogger("ledgerkit.client")

_TRANSACTIONS: Final = "get_account_transactions"
_SUMMARIES: Final = "get_account_transaction_summaries"
#: The node's page of summaries without ``limit``, and the most it serves.
_SUMMARIES_LIMIT: Final = 100
#: Operations answering a list by sequence number: what the list is, to name it.
_LISTS: Final = {
    _TRANSACTIONS: "transactions",
    "get_events_by_creation_number": "events",
    "get_events_by_event_handle": "events",
}
#: The node's page size without ``limit``, and the most it serves (both lists).
_DEFAULT_LIMIT: Final = 25
_MAX_LIMIT: Final = 100


@dataclass(frozen=True, slots=True)
class FromNode:
    """A step of :func:`completed`: ``call`` asked of the node itself."""

    call: Call[Any]


@dataclass(frozen=True, slots=True)
class FromArchive:
    """A step of :func:`completed`: ``call`` asked of the archive."""

    call: Call[Any]


@dataclass(frozen=True, slots=True)
class ListPage:
    """A page of a list by sequence number, as asked and as answered."""

    operation: str
    address: str
    start: int | None
    limit: int
    sequences: tuple[int, ...]

    def missing(self) -> range | None:
        """The sequence numbers the page should begin with and does not hold."""
        if not self.sequences:
            return None
        first, last = self.sequences[0], self.sequences[-1]
        if self.start is not None:
            expected = self.start
        elif self.operation != _TRANSACTIONS:
            return None  # a newest event page reaching past the window is refused (410)
        elif len(self.sequences) < self.limit:
            expected = 0  # a short newest page holds the stream's first one
        else:
            expected = max(0, last + 1 - self.limit)
        return range(expected, first) if first > expected else None

    def missing_before(self, next_sequence: int) -> range | None:
        """For an empty page of an account's transactions: the ones it should hold, given
        the account's next sequence number."""
        start = self.start if self.start is not None else max(0, next_sequence - self.limit)
        end = min(next_sequence, start + self.limit)
        return range(start, end) if start < end else None


def list_page(call: Call[Any], value: Any, body: bytes) -> ListPage | None:
    """The page ``call`` asked for, when it is a list by sequence number whose answer
    tells its sequence numbers (``None`` otherwise)."""
    if call.operation not in _LISTS or call.method != "GET":
        return None
    params = dict(call.params)
    start = int(params["start"]) if "start" in params else None
    limit = min(int(params.get("limit", _DEFAULT_LIMIT)), _MAX_LIMIT)
    sequences = _sequences(call, value, body)
    if sequences is None:
        return None
    address = call.path.split("/")[2]
    return ListPage(call.operation, address, start, limit, sequences)


def _sequences(call: Call[Any], value: Any, body: bytes) -> tuple[int, ...] | None:
    """The sequence numbers of a page's items, from the JSON it came in (or the BCS
    transactions it was read into)."""
    if call.accept == JSON:
        try:
            items = orjson.loads(body)
        except orjson.JSONDecodeError:
            return None
        if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
            return None
        found = [item.get("sequence_number") for item in items]
        if not all(isinstance(s, str) and s.isascii() and s.isdigit() for s in found):
            return None
        return tuple(int(s) for s in found)
    if not isinstance(value, list):
        return None
    numbers: list[int] = []
    for item in value:
        txn = getattr(item, "transaction", None)
        if not isinstance(txn, SignedTransaction):
            return None
        numbers.append(txn.raw.sequence_number)
    return tuple(numbers)


def completed(
    call: Call[Any], answer: Result[Any], body: bytes, archive: str | None, request: str
) -> Flow[Result[Any]]:
    """``answer``, or the whole page from the archive when the pruned node that gave it
    left a gap; :class:`~ledgerkit.PrunedRangeError` when there is a gap and no archive.

    Steps: :class:`FromNode` (the account, when an empty page is weighed) and
    :class:`FromArchive`; each gives back the :class:`~ledgerkit.Result` of its call.
    """
    oldest = answer.ledger.oldest_ledger_version
    if oldest > 0 and call.operation == _SUMMARIES and call.method == "GET":
        versions = summaries_missing(call, answer)
        if versions is None:
            return answer
        address = call.path.split("/")[2]
        if archive is None:
            raise _gap_error(
                address, "transaction summaries", "versions", versions, answer, request
            )
        _log.info(
            "%s: the node left out versions %d..%d (pruned); read from the archive",
            request, versions.start, versions.stop - 1,
        )  # fmt: skip
        whole_page: Result[Any] = yield FromArchive(call)
        return whole_page
    page = list_page(call, answer.value, body) if oldest > 0 else None
    if page is None:
        return answer
    missing = page.missing()
    if not page.sequences:
        if page.operation != _TRANSACTIONS:
            if archive is None:
                return answer  # nothing kept from there, or nothing there: not to be told
            whole: Result[Any] = yield FromArchive(call)
            return whole
        account = (yield FromNode(calls.account(page.address))).value
        missing = page.missing_before(int(account.sequence_number))
    if missing is None:
        return answer
    what = _LISTS[page.operation]
    if archive is None:
        raise _gap_error(page.address, what, "sequence numbers", missing, answer, request)
    _log.info(
        "%s: the node left out %s %d..%d (pruned); read from the archive",
        request, what, missing.start, missing.stop - 1,
    )  # fmt: skip
    read: Result[Any] = yield FromArchive(call)
    return read


def summaries_missing(call: Call[Any], answer: Result[Any]) -> range | None:
    """The versions a page of transaction summaries reached and the node no longer keeps
    (``None`` when the page holds all it would have held on an archive)."""
    params = dict(call.params)
    oldest = answer.ledger.oldest_ledger_version
    if "start_version" in params:
        start = int(params["start_version"])
        return range(start, oldest) if start < oldest else None
    limit = min(int(params.get("limit", _SUMMARIES_LIMIT)), _SUMMARIES_LIMIT)
    items = answer.value
    if not isinstance(items, list) or len(items) >= limit:
        return None  # full: the page ended at or above the oldest kept version
    end = int(params.get("end_version", answer.ledger.ledger_version))
    stop = min(end + 1, oldest)
    return range(stop) if stop > 0 else None


def _gap_error(
    address: str, what: str, unit: str, missing: range, answer: Result[Any], request: str
) -> PrunedRangeError:
    oldest = answer.ledger.oldest_ledger_version
    message = (
        f"the node answered {what} of {address} without {unit} "
        f"{missing.start}..{missing.stop - 1}: they are older than the oldest version it "
        f"keeps ({oldest}); give archive_url= to have them read from an archive node"
    )
    details = {
        "missing_start": missing.start,
        "missing_end": missing.stop,
        "missing_unit": unit.replace(" ", "_")[:-1],
        "oldest_ledger_version": str(oldest),
    }
    return PrunedRangeError(
        message,
        status=200,
        error_code=ErrorCode.VERSION_PRUNED.value,
        ledger=answer.ledger,
        request=request,
        details=details,
    )
