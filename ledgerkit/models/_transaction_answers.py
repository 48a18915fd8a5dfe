"""Answers about transactions beside the transactions themselves: auxiliary info, an
account's transaction summaries, and the result of a batch submission."""

from __future__ import annotations

from typing import Any, Final

from ledgerkit._errors import ErrorCode, NodeAPIError, error_from_record
from ledgerkit.models._base import Record, U32Int, U64Int, check_u64

__all__ = ["AuxiliaryInfo", "BatchSubmitFailure", "BatchSubmitResult", "TransactionSummary"]


class AuxiliaryInfo(Record, frozen=True, kw_only=True):
    """One item of ``GET /transactions/auxiliary_info``.

    ``transaction_index`` is the position of the transaction in its block, or None when
    the node holds no auxiliary info for it.
    """

    transaction_index: U32Int | None = None


class TransactionSummary(Record, frozen=True, kw_only=True):
    """One item of ``GET /accounts/{address}/transaction_summaries``.

    ``replay_protector`` is kept as the node sends it (a sequence number or a nonce,
    tagged by ``type``); :attr:`sequence_number` and :attr:`nonce` read it.
    """

    sender: str
    version: U64Int
    transaction_hash: str
    replay_protector: Any

    def __post_init__(self) -> None:
        check_u64(self.version)

    @property
    def sequence_number(self) -> int | None:
        """The sequence number; None for an orderless transaction (or a form not known)."""
        return _replay_value(self.replay_protector, "sequence_number")

    @property
    def nonce(self) -> int | None:
        """The nonce of an orderless transaction; None for one by sequence number."""
        return _replay_value(self.replay_protector, "nonce")


#: The externally tagged names of the replay protector's variants (aptos-core's Rust
#: enum as serde writes it without a tag attribute).
_RUST_NAMES: Final = {"sequence_number": "SequenceNumber", "nonce": "Nonce"}


def _replay_value(protector: Any, kind: str) -> int | None:
    """The number of ``protector`` if it is of ``kind``: ``{"type": kind, "value": n}``
    (``n`` also under ``kind`` itself), or ``{"SequenceNumber": n}`` / ``{"Nonce": n}``."""
    if not isinstance(protector, dict):
        return None
    if protector.get("type") == kind:
        value = protector.get("value", protector.get(kind))
    else:
        value = protector.get(_RUST_NAMES[kind])
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 20:
        value = int(value)
    return value if isinstance(value, int) and 0 <= value < 2**64 else None


class BatchSubmitFailure(Record, frozen=True, kw_only=True):
    """A transaction of a batch the node refused.

    Attributes
    ----------
    error : dict
        Its error record as the node sent it (``message``, ``error_code``, and
        ``vm_error_code`` when the VM refused it).
    transaction_index : int
        Its position in the batch, from 0.
    """

    error: dict[str, Any]
    transaction_index: U64Int

    def __post_init__(self) -> None:
        check_u64(self.transaction_index)

    @property
    def exception(self) -> NodeAPIError:
        """The error record as the exception a single submission would have raised
        (``SequenceNumberTooOldError``, ``VMError``...), its status the code's usual one."""
        code = str(self.error.get("error_code") or "")
        try:
            status = ErrorCode(code).status
        except ValueError:
            status = 400
        return error_from_record(status, self.error)


class BatchSubmitResult(Record, frozen=True, kw_only=True):
    """The answer of ``POST /transactions/batch`` (the reference's
    ``TransactionsBatchSubmissionResult``): the transactions the node refused, by
    position; empty when it accepted them all (202 rather than 206)."""

    transaction_failures: list[BatchSubmitFailure]
