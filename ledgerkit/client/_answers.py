"""How the client reads what the node answered, operation by operation. No I/O.

- **Decoders**: a JSON answer is read by its public decoder of :mod:`ledgerkit.models`
  (``decode_account``...), which the request builders of :mod:`ledgerkit.client.calls`
  name directly; a record of the models needs no decoder of its own (:func:`reader`).
  Here are the client's own: BCS answers (:func:`transaction_data`,
  :func:`onchain_transactions`, :func:`bcs_bytes`).
- **Cache policies**: when an answer may be kept. An answer is stored only when it can
  never change: committed transactions (by version, by hash), complete blocks, pages of
  a version range or an event stream that are full, and anything asked at an explicit
  ``ledger_version`` the ledger has reached. Questions about the latest state have no
  policy and are never looked up. The few questions a policy or a walk asks of a decoded
  value (is this transaction still pending? which version is it?) are answered here, so
  the rest of the client never looks inside a model.
- **Answers and errors**: a 2xx answer becomes a :class:`Result` or a
  :class:`~ledgerkit.DecodingError`; any other answer, and any failure of the HTTP stack,
  becomes the right class of the one error tree.

The request builders attach a decoder and a policy to each
:class:`~ledgerkit.client.Call`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final, TypeVar

import httpx

from ledgerkit._errors import (
    BCSError,
    DecodingError,
    InputError,
    LedgerError,
    NodeAPIError,
    RequestTimeoutError,
    TransportError,
    error_from_record,
)
from ledgerkit.bcs import TransactionData, TransactionOnChainData
from ledgerkit.client._config import redact
from ledgerkit.models import (
    Block,
    Event,
    PendingTransaction,
    Transaction,
    UnknownVariant,
    decode,
)
from ledgerkit.types import LedgerMeta, Result

if TYPE_CHECKING:
    from ledgerkit.client._call import Call

__all__ = [
    "at_version",
    "bcs_bytes",
    "block_is_complete",
    "committed",
    "complete_block",
    "event_sequence_number",
    "full_page",
    "is_pending",
    "last_transaction_version",
    "node_error",
    "onchain_transactions",
    "parse_answer",
    "reader",
    "snippet",
    "transaction_data",
    "transaction_version",
    "transport_error",
    "version_page",
]

T = TypeVar("T")

_SNIPPET: Final = 200

# -- decoders of the client's own ----------------------------------------------------------


def reader(type_: type[T]) -> Callable[[bytes], T]:
    """The decoder of an answer that is a record of :mod:`ledgerkit.models`, a union of
    them or a list (``reader(list[Thing])``), by :func:`ledgerkit.models.decode`: a new
    record needs no decoder function of its own."""

    def read(data: bytes) -> T:
        return decode(data, type_)

    return read


def transaction_data(data: bytes) -> TransactionData:
    """A BCS transaction read: ``TransactionData`` (committed or pending)."""
    try:
        return TransactionData.from_bcs(data)
    except BCSError as exc:
        raise DecodingError(f"the answer is not a BCS TransactionData: {exc}") from None


def onchain_transactions(data: bytes) -> list[TransactionOnChainData]:
    """A BCS transaction listing: a sequence of committed transactions."""
    try:
        return TransactionOnChainData.list_from_bcs(data)
    except BCSError as exc:
        raise DecodingError(f"the answer is not a BCS transaction listing: {exc}") from None


def bcs_bytes(data: bytes) -> bytes:
    """A BCS answer, handed out as the bytes it is."""
    return bytes(data)


# -- what the cache policy and the walks ask of decoded values ---------------------------------


def is_pending(txn: Transaction) -> bool:
    """True while the transaction waits in the mempool."""
    if isinstance(txn, UnknownVariant):
        return txn.type == "pending_transaction" or "version" not in txn.raw
    return isinstance(txn, PendingTransaction)


def transaction_version(txn: Transaction) -> int | None:
    """The version of a committed transaction (``None`` when pending)."""
    if isinstance(txn, PendingTransaction):
        return None
    if isinstance(txn, UnknownVariant):
        raw = txn.raw.get("version")
        return int(raw) if isinstance(raw, str | int) and str(raw).isdigit() else None
    return txn.version


def event_sequence_number(event: Event) -> int:
    return event.sequence_number


def block_is_complete(value: Block) -> bool:
    """True unless transactions were asked for and the node sent only some of them."""
    return value.transactions is None or len(value.transactions) == value.transaction_count


# -- cache policies ------------------------------------------------------------------------


def at_version(version: int | None) -> Callable[[Any, LedgerMeta], bool] | None:
    """Anything asked at a version the ledger has reached is fixed forever."""
    if version is None:
        return None
    return lambda _value, ledger: version <= ledger.ledger_version


def committed(txn: Transaction, _ledger: LedgerMeta) -> bool:
    return not is_pending(txn)


def full_page(
    start: int | None, limit: int | None
) -> Callable[[list[Any], LedgerMeta], bool] | None:
    """A page of a sequence-numbered stream, from a given start, that holds all it asked for."""
    if start is None or limit is None:
        return None
    return lambda items, _ledger: len(items) == limit


def version_page(
    start: int | None, limit: int | None, versions: Callable[[list[Any]], int | None]
) -> Callable[[list[Any], LedgerMeta], bool] | None:
    """A page of a version range that ended before the ledger's head (or is full)."""
    if start is None:
        return None

    def storable(items: list[Any], ledger: LedgerMeta) -> bool:
        if not items:
            return False
        last = versions(items)
        return len(items) == limit or (last is not None and last < ledger.ledger_version)

    return storable


def last_transaction_version(items: list[Transaction]) -> int | None:
    return transaction_version(items[-1])


def complete_block(block: Block, _ledger: LedgerMeta) -> bool:
    return block_is_complete(block)


# -- answers and errors --------------------------------------------------------------------


def snippet(body: bytes) -> str:
    """The start of a body, as text, for messages."""
    return body[:_SNIPPET].decode("utf-8", "replace")


def parse_answer(
    call: Call[T],
    label: str,
    status: int,
    headers: Mapping[str, str],
    body: bytes,
    answered_by: str | None = None,
) -> Result[T]:
    """A 2xx answer to ``call`` (written ``label`` in messages) as a :class:`Result`, its
    metadata naming the node that ``answered_by``; a body that is not what was promised is
    a :class:`DecodingError` saying what came back."""
    ledger = LedgerMeta.from_headers(headers, answered_by=answered_by)
    if ledger is None:
        raise DecodingError(
            f"{label}: the answer carries no ledger headers (X-NODE-* or X-APTOS-*)",
            status=status,
            snippet=snippet(body),
        )
    media = (headers.get("content-type") or "").split(";", 1)[0].strip().lower()
    if media and media != call.accept:
        raise DecodingError(
            f"{label}: expected {call.accept}, the node answered {media}",
            status=status,
            snippet=snippet(body),
        )
    try:
        value = call.decode(body)
    except DecodingError as exc:
        raise DecodingError(f"{label}: {exc}", status=status) from exc
    except RecursionError:
        # Nested past the interpreter's limit: hostile or broken, never a ledger value.
        raise DecodingError(
            f"{label}: the answer is nested too deeply to decode",
            status=status,
            snippet=snippet(body),
        ) from None
    except (ValueError, TypeError, KeyError, IndexError, LedgerError) as exc:
        raise DecodingError(
            f"{label}: the answer does not decode: {exc}", status=status, snippet=snippet(body)
        ) from exc
    return Result(value, ledger)


def node_error(
    label: str,
    status: int,
    headers: Mapping[str, str],
    body: bytes,
    secrets: Mapping[str, str],
) -> NodeAPIError:
    """The exception for a non-2xx answer to the request ``label``, from the node's error
    record, with the client's ``secrets`` redacted from it."""
    record: object
    try:
        record = json.loads(body)
    except (ValueError, RecursionError):
        text = snippet(body).strip()
        record = {"message": f"HTTP {status} without an error record: {text!r}"}
    if secrets and isinstance(record, dict):
        # A node (or a proxy before it) may echo the path it was asked, token and all.
        record = {k: redact(v, secrets) if isinstance(v, str) else v
                  for k, v in record.items()}  # fmt: skip
    return error_from_record(status, record, ledger=LedgerMeta.from_headers(headers), request=label)


def transport_error(label: str, exc: httpx.HTTPError, secrets: Mapping[str, str]) -> LedgerError:
    """Our exception for an httpx failure of the request ``label`` (no raw httpx
    exception leaves the client).

    A request the HTTP stack refuses to send (an unsendable header, say) is an
    :class:`InputError`, which is never retried; its detail may quote what was
    refused, so it is left out.
    """
    if isinstance(exc, httpx.LocalProtocolError | httpx.UnsupportedProtocol):
        return InputError(f"{label}: the request cannot be sent ({type(exc).__name__})")
    detail = redact(str(exc) or type(exc).__name__, secrets)
    if isinstance(exc, httpx.TimeoutException):
        return RequestTimeoutError(f"{label}: timed out ({type(exc).__name__}: {detail})")
    if isinstance(exc, httpx.DecodingError):
        return DecodingError(f"{label}: the body could not be decoded: {detail}")
    return TransportError(f"{label}: {type(exc).__name__}: {detail}")
