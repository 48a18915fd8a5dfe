"""Which history a kept answer depends on, and how a keeper checks it against a node.

Every committed transaction carries an ``accumulator_root_hash``: the root of the ledger's
accumulator after it, which commits to every transaction from the genesis up to its
version. Two nodes that show the same root at version V hold the same history up to V;
two chains that share a genesis (every embedded node started from one seed, a local
network restarted from its genesis) part at their first different transaction, and
every root from there on differs.

So whatever keeps answers for later (the answer cache, a dataset on disk) records
:class:`HistoryMark` s — a version and its root — as it keeps them, each at or past the
versions of what it keeps, and checks them against the node before using them again:

- :func:`reach` says which version an answer depends on (its newest transaction's, an
  event's, the version a state read was asked at, else the ledger's head when it
  answered), and the root there when the answer itself carries it;
- :class:`HistoryCheck` says which marks to ask the node about — the newest first, which
  is the only request when nothing changed, then by halves to find where the chains
  part — and what stands afterwards (:attr:`HistoryCheck.through`): everything kept that
  depends on no version after it; the rest is dropped and read again.

A mark the node no longer holds (pruned, 410) is trusted, as the node cannot show it: a
newer mark it still holds decides for it. A mark past the node's head (404) is taken to
differ: a node behind it cannot vouch for it.

This module does no I/O: the clients and the extraction ask the node, and
:meth:`HistoryMark.decode` reads its answer.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import msgspec

from ledgerkit._errors import DecodingError, InputError
from ledgerkit.bcs import TransactionData, TransactionOnChainData
from ledgerkit.models import Block, CommittedTransaction, Event
from ledgerkit.types import LedgerMeta

__all__ = ["HistoryCheck", "HistoryMark", "Seen", "reach", "seen"]


@dataclass(frozen=True, slots=True, order=True)
class HistoryMark:
    """A version and the accumulator root the node showed there (``0x`` and 64 lower-case
    hex digits): it commits to the whole history up to that version.

    Raises
    ------
    InputError
        A negative version, or a root that is not 32 bytes of hex.

    Examples
    --------
    >>> HistoryMark(7, "0x" + "AB" * 32).root[:6]
    '0xabab'
    """

    version: int
    root: str

    def __post_init__(self) -> None:
        if isinstance(self.version, bool) or not isinstance(self.version, int):
            raise InputError(f"a mark's version is an int, got {self.version!r}")
        if not 0 <= self.version < 1 << 64:
            raise InputError(f"a mark's version is a u64, got {self.version}")
        root = _root(self.root)
        if root is None:
            raise InputError(f"an accumulator root is 32 bytes of hex, got {self.root!r}")
        object.__setattr__(self, "root", root)

    @classmethod
    def decode(cls, body: bytes) -> HistoryMark:
        """The mark in an answer of ``GET /transactions/by_version/{version}``: its
        version and accumulator root (the rest of the transaction is skipped unread).
        A decoder for ``client.send(calls.transaction_by_version(v), decoder=...)``.

        Raises
        ------
        DecodingError
            Not a committed transaction.

        Examples
        --------
        >>> body = b'{"version": "3", "accumulator_root_hash": "0x' + b"cd" * 32 + b'"}'
        >>> HistoryMark.decode(body).version
        3
        """
        try:
            found = _DECODER.decode(body)
            return cls(int(found.version), found.accumulator_root_hash)
        except (msgspec.DecodeError, ValueError, InputError) as exc:
            raise DecodingError(f"not a committed transaction: {exc}") from None


class _Marked(msgspec.Struct):
    version: str
    accumulator_root_hash: str


_DECODER: Final = msgspec.json.Decoder(_Marked)


def _root(text: object) -> str | None:
    """``text`` as ``0x`` and 64 lower-case hex digits, or ``None`` when it is not one."""
    if isinstance(text, bytes | bytearray):
        return "0x" + bytes(text).hex() if len(text) == 32 else None
    if not isinstance(text, str):
        return None
    digest = text.lower()
    if len(digest) != 66 or not digest.startswith("0x"):
        return None
    try:
        bytes.fromhex(digest[2:])
    except ValueError:
        return None
    return digest


class Seen(enum.Enum):
    """What the node showed at a mark's version."""

    #: The same root: the same history up to the mark.
    SAME = "same"
    #: Another root: the chains part at or before the mark.
    OTHER = "other"
    #: No longer held (410): trusted, since the node cannot show it.
    PRUNED = "pruned"
    #: Past the node's head (404): it cannot vouch for the mark.
    MISSING = "missing"


def seen(mark: HistoryMark, found: HistoryMark) -> Seen:
    """What the node's own mark ``found`` at ``mark``'s version says of ``mark``."""
    if found.version != mark.version:
        raise DecodingError(f"asked for version {mark.version}, the node answered {found.version}")
    return Seen.SAME if found.root == mark.root else Seen.OTHER


class HistoryCheck:
    """Which marks to ask a node about, and what stands once it has answered.

    Agreement is a prefix: when the node shows a mark's root, it holds the same history
    up to it, so every older mark agrees too; when it shows another, every newer mark
    differs. The newest mark is asked first (one request when nothing changed); after a
    difference, the rest by halves (one request more per halving).

    Parameters
    ----------
    marks : iterable of HistoryMark
        The marks recorded for what is kept (in any order).

    Examples
    --------
    >>> marks = [HistoryMark(v, "0x" + f"{v:064x}") for v in (10, 20, 30)]
    >>> check = HistoryCheck(marks)
    >>> check.ask().version
    30
    >>> check.tell(check.ask(), Seen.OTHER)
    >>> check.ask().version
    20
    >>> check.tell(check.ask(), Seen.SAME)
    >>> check.ask() is None, check.through, check.parted
    (True, 20, True)
    """

    def __init__(self, marks: Iterable[HistoryMark]) -> None:
        self._marks: Sequence[HistoryMark] = sorted(set(marks))
        self._low = 0  # marks[:low] agree
        self._high = len(self._marks)  # marks[high:] differ
        self._asked = False

    def ask(self) -> HistoryMark | None:
        """The next mark to ask the node about, or ``None`` when the check is done."""
        if self._low >= self._high:
            return None
        if not self._asked:
            return self._marks[self._high - 1]
        return self._marks[(self._low + self._high) // 2]

    def tell(self, mark: HistoryMark, what: Seen) -> None:
        """What the node showed at ``mark`` (the one :meth:`ask` gave)."""
        if mark != self.ask():
            raise InputError(f"{mark} is not the mark asked about")
        self._asked = True
        index = self._marks.index(mark)
        if what in (Seen.SAME, Seen.PRUNED):
            self._low = index + 1
        else:
            self._high = index

    @property
    def through(self) -> int:
        """The newest version whose history the node confirmed (``-1``: none): what is
        kept stands when it depends on no version after it."""
        return self._marks[self._low - 1].version if self._low else -1

    @property
    def parted(self) -> bool:
        """Whether a mark differed: what depends on a version after :attr:`through` is
        of another history, and goes."""
        return self._high < len(self._marks)


# -- what an answer depends on ---------------------------------------------------------------


def reach(value: Any, ledger: LedgerMeta, at_version: int | None = None) -> tuple[int, str | None]:
    """The newest version an answer depends on, and the root there when the answer
    carries it.

    A transaction (JSON or BCS) depends on its version and carries its root; a page of
    them on its newest; a block on its last version (the root, when its transactions are
    all listed); events on their newest version; a read ``at_version`` on that version.
    Anything else on the ledger's head when it answered.

    Examples
    --------
    >>> from ledgerkit.types import LedgerMeta
    >>> reach(None, LedgerMeta(4, 0, 9, 0, 0, 0, 0), at_version=5)
    (5, None)
    """
    found = _reach_of(value)
    if found is not None:
        return found
    return (at_version if at_version is not None else ledger.ledger_version), None


def _reach_of(value: Any) -> tuple[int, str | None] | None:
    if isinstance(value, CommittedTransaction):
        return int(value.version), _root(value.accumulator_root_hash)
    if isinstance(value, TransactionData):
        return None if value.onchain is None else _reach_of(value.onchain)
    if isinstance(value, TransactionOnChainData):
        return value.version, _root(value.accumulator_root_hash)
    if isinstance(value, Block):
        listed = value.transactions or []
        last = _reach_of(listed[-1]) if listed else None
        if last is not None and last[0] == value.last_version:
            return last
        return int(value.last_version), None
    if isinstance(value, Event):
        return None if value.version is None else (int(value.version), None)
    if isinstance(value, list) and value:
        found = [r for r in map(_reach_of, value) if r is not None]
        if len(found) == len(value):
            return max(found, key=lambda r: r[0])
    return None
