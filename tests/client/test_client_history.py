"""The history check's pure core: which marks a node is asked about, what stands after
its answers, and which version an answer depends on. Roots are written out."""

from __future__ import annotations

import pytest

from ledgerkit import DecodingError, InputError
from ledgerkit.client import HistoryCheck, HistoryMark, Seen
from ledgerkit.client._cache._history import reach, seen
from ledgerkit.models import decode_transaction
from ledgerkit.types import LedgerMeta

META = LedgerMeta(4, 900, 0, 1_700_000_000_000_000, 1, 80, 0)


def _mark(version: int, byte: str = "aa") -> HistoryMark:
    return HistoryMark(version, "0x" + byte * 32)


def _run(marks: list[HistoryMark], parted_after: int | None) -> tuple[list[int], int, bool]:
    """Check ``marks`` against a node that agrees up to ``parted_after`` (``None``: all)."""
    check = HistoryCheck(marks)
    asked = []
    while (mark := check.ask()) is not None:
        asked.append(mark.version)
        same = parted_after is None or mark.version <= parted_after
        check.tell(mark, Seen.SAME if same else Seen.OTHER)
    return asked, check.through, check.parted


MARKS = [_mark(v) for v in (10, 20, 30, 40, 50, 60, 70)]


def test_an_unchanged_history_costs_one_request() -> None:
    assert _run(MARKS, None) == ([70], 70, False)


def test_the_parting_point_is_found_by_halves() -> None:
    assert _run(MARKS, 35) == ([70, 40, 20, 30], 30, True)
    assert _run(MARKS, 65) == ([70, 40, 60], 60, True)


def test_a_history_parted_before_every_mark_keeps_nothing() -> None:
    assert _run(MARKS, 5) == ([70, 40, 20, 10], -1, True)


def test_no_marks_ask_nothing_and_confirm_nothing() -> None:
    assert _run([], None) == ([], -1, False)


def test_pruned_marks_are_trusted_and_missing_ones_differ() -> None:
    check = HistoryCheck([_mark(10), _mark(20)])
    check.tell(_mark(20), Seen.PRUNED)
    assert (check.ask(), check.through, check.parted) == (None, 20, False)
    check = HistoryCheck([_mark(10), _mark(20)])
    check.tell(_mark(20), Seen.MISSING)  # the node's head is before 20
    check.tell(_mark(10), Seen.SAME)
    assert (check.through, check.parted) == (10, True)


def test_only_the_mark_asked_about_is_told() -> None:
    check = HistoryCheck([_mark(10), _mark(20)])
    with pytest.raises(InputError):
        check.tell(_mark(10), Seen.SAME)


def test_marks_are_checked_when_made_and_read() -> None:
    assert HistoryMark(3, "0x" + "AB" * 32).root == "0x" + "ab" * 32
    for version, root in ((-1, "0x" + "ab" * 32), (1, "0xab"), (1, "0x" + "zz" * 32)):
        with pytest.raises(InputError):
            HistoryMark(version, root)
    body = b'{"version": "12", "accumulator_root_hash": "0x' + b"cd" * 32 + b'", "x": 1}'
    assert HistoryMark.decode(body) == HistoryMark(12, "0x" + "cd" * 32)
    with pytest.raises(DecodingError):
        HistoryMark.decode(b'{"version": "12"}')
    assert seen(_mark(5), _mark(5)) is Seen.SAME
    assert seen(_mark(5), _mark(5, "bb")) is Seen.OTHER
    with pytest.raises(DecodingError):
        seen(_mark(5), _mark(6))


def test_what_an_answer_depends_on() -> None:
    txn = decode_transaction(
        b'{"type": "block_metadata_transaction", "version": "41", "hash": "0x'
        + b"11" * 32
        + b'", "state_change_hash": "0x'
        + b"22" * 32
        + b'", "event_root_hash": "0x'
        + b"33" * 32
        + b'", "gas_used": "0", "success": true, "vm_status": "Executed successfully",'
        b' "accumulator_root_hash": "0x'
        + b"44" * 32
        + b'", "changes": [], "id": "0x'
        + b"55" * 32
        + b'", "epoch": "1", "round": "2", "events": [], "previous_block_votes_bitvec": [],'
        b' "proposer": "0x1", "failed_proposer_indices": [], "timestamp": "7"}'
    )
    assert reach(txn, META) == (41, "0x" + "44" * 32)
    assert reach([txn], META) == (41, "0x" + "44" * 32)
    assert reach({"any": "resource"}, META, at_version=7) == (7, None)
    assert reach({"any": "resource"}, META) == (900, None)  # the head when it answered
