"""What the node says of itself and of the ledger as a whole: where the ledger stands
(``GET /``), its health, and its gas price estimate."""

from __future__ import annotations

from ledgerkit.models._base import Record, U8Int, U64Int, check_u64

__all__ = ["GasEstimate", "HealthStatus", "LedgerInfo"]


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
