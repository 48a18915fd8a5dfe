"""Records about the node and the ledger as a whole: ledger info, health, gas estimate,
auxiliary transaction info, transaction summaries and batch submission results."""

from __future__ import annotations

from typing import Any

from ledgerkit._errors import ErrorCode, NodeAPIError, error_from_record
from ledgerkit.models._base import Record, U8Int, U32Int, U64Int, check_u64

__all__ = [
    "AuxiliaryInfo",
    "BatchSubmitFailure",
    "BatchSubmitResult",
    "GasEstimate",
    "HealthStatus",
    "LedgerInfo",
    "TransactionSummary",
]


class LedgerInfo(Record, frozen=True, kw_only=True):
    """Where the ledger stands (``GET /``).

    Attributes
    ----------
    chain_id : int
        A u8, sent as a JSON number.
    epoch, ledger_version, oldest_ledger_version, ledger_timestamp, oldest_block_height, block_height : int
        ``ledger_timestamp`` is in microseconds.
    node_role : str
        ``"validator"`` or ``"full_node"``.
    git_hash : str or None
        The node's build.
    encryption_key : str or None
        The per-epoch transaction encryption key (hex), on the newest nodes.
    """  # noqa: E501

    chain_id: U8Int
    epoch: U64Int
    ledger_version: U64Int
    oldest_ledger_version: U64Int
    ledger_timestamp: U64Int
    node_role: str
    oldest_block_height: U64Int
    block_height: U64Int
    git_hash: str | None = None
    encryption_key: str | None = None

    def __post_init__(self) -> None:
        check_u64(
            self.epoch,
            self.ledger_version,
            self.oldest_ledger_version,
            self.ledger_timestamp,
            self.oldest_block_height,
            self.block_height,
        )


class HealthStatus(Record, frozen=True, kw_only=True):
    """The answer of ``GET /-/healthy`` (for example ``"aptos-node:ok"``)."""

    message: str


class GasEstimate(Record, frozen=True, kw_only=True):
    """Gas unit prices from ``GET /estimate_gas_price`` (JSON numbers, not strings)."""

    gas_estimate: U64Int
    deprioritized_gas_estimate: U64Int | None = None
    prioritized_gas_estimate: U64Int | None = None

    def __post_init__(self) -> None:
        check_u64(self.gas_estimate, self.deprioritized_gas_estimate, self.prioritized_gas_estimate)


class AuxiliaryInfo(Record, frozen=True, kw_only=True):
    """One item of ``GET /transactions/auxiliary_info``.

    ``transaction_index`` is the position of the transaction in its block, or None when
    the node holds no auxiliary info for it.
    """

    transaction_index: U32Int | None = None


class TransactionSummary(Record, frozen=True, kw_only=True):
    """One item of ``GET /accounts/{address}/transaction_summaries``.

    ``replay_protector`` is kept as the node sends it (a sequence number or a nonce,
    tagged by ``type``).
    """

    sender: str
    version: U64Int
    transaction_hash: str
    replay_protector: Any

    def __post_init__(self) -> None:
        check_u64(self.version)


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
