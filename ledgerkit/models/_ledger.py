"""Records about the node and the ledger as a whole: ledger info, health, gas estimate,
auxiliary transaction info, transaction summaries and batch submission results."""

from __future__ import annotations

from typing import Any

from ledgerkit.models._base import U8, U32, U64, Record, check_u64

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

    chain_id: U8
    epoch: U64
    ledger_version: U64
    oldest_ledger_version: U64
    ledger_timestamp: U64
    node_role: str
    oldest_block_height: U64
    block_height: U64
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

    gas_estimate: U64
    deprioritized_gas_estimate: U64 | None = None
    prioritized_gas_estimate: U64 | None = None

    def __post_init__(self) -> None:
        check_u64(self.gas_estimate, self.deprioritized_gas_estimate, self.prioritized_gas_estimate)


class AuxiliaryInfo(Record, frozen=True, kw_only=True):
    """One item of ``GET /transactions/auxiliary_info``.

    ``transaction_index`` is the position of the transaction in its block, or None when
    the node holds no auxiliary info for it.
    """

    transaction_index: U32 | None = None


class TransactionSummary(Record, frozen=True, kw_only=True):
    """One item of ``GET /accounts/{address}/transaction_summaries``.

    ``replay_protector`` is kept as the node sends it (a sequence number or a nonce,
    tagged by ``type``).
    """

    sender: str
    version: U64
    transaction_hash: str
    replay_protector: Any

    def __post_init__(self) -> None:
        check_u64(self.version)


class BatchSubmitFailure(Record, frozen=True, kw_only=True):
    """A transaction of a batch the node refused; ``error`` is its error record."""

    error: dict[str, Any]
    transaction_index: U64


class BatchSubmitResult(Record, frozen=True, kw_only=True):
    """The 206 answer of ``POST /transactions/batch``: the transactions that failed."""

    transaction_failures: list[BatchSubmitFailure]
