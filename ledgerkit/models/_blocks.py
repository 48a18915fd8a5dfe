"""Blocks: a height, its hash and time, the range of versions, maybe its transactions."""

from __future__ import annotations

from ledgerkit.models._base import Record, U64Int, check_u64
from ledgerkit.models._transactions import TransactionField

__all__ = ["Block"]


class Block(Record, frozen=True, kw_only=True):
    """A block (``GET /blocks/by_height/{h}`` or ``/blocks/by_version/{v}``).

    ``transactions`` is None unless asked for (``with_transactions=true``); a block with
    more transactions than the node's page holds lists only the first ones, and the rest
    are read from ``first_version`` + the count up to ``last_version``.
    """

    block_height: U64Int
    block_hash: str
    block_timestamp: U64Int
    first_version: U64Int
    last_version: U64Int
    transactions: list[TransactionField] | None = None

    def __post_init__(self) -> None:
        check_u64(self.block_height, self.block_timestamp, self.first_version, self.last_version)

    @property
    def transaction_count(self) -> int:
        """How many transactions the block holds (``last_version - first_version + 1``)."""
        return self.last_version - self.first_version + 1
