"""Settings of the embedded node, fixed when it starts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

__all__ = ["ENDPOINT_GROUPS", "NodeConfig"]

#: Endpoint groups that can be switched off (they then answer 403 ``api_disabled``).
#: ``json`` and ``bcs`` switch off an output format everywhere.
ENDPOINT_GROUPS: Final = frozenset(
    {
        "accounts",
        "events",
        "transactions",
        "submit",
        "simulate",
        "encode_submission",
        "tables",
        "blocks",
        "view",
        "gas",
        "json",
        "bcs",
    }
)


@dataclass(frozen=True, slots=True)
class NodeConfig:
    """How the embedded node builds its chain and answers requests.

    The same ``seed`` and generation options give the same chain, byte for byte.

    Attributes
    ----------
    seed : int
        Seed of the chain generator and of the dev accounts.
    blocks : int
        Blocks the generator writes after genesis when the database is new.
    chain_id : int
        Chain id (u8) in headers and transactions.
    dev_accounts : int
        Funded accounts handed out to users, derived from the seed.
    block_interval : float or None
        Live mode: a new block every this many seconds from a background workload.
        ``None``: blocks are made only when transactions are submitted.
    prune_window : int or None
        Versions kept; older state, transactions, blocks and ranges answer 410.
    disabled : frozenset of str
        Endpoint groups switched off (see ``ENDPOINT_GROUPS``).
    max_body_bytes : int
        Largest request body; a larger one answers 413.
    mempool_capacity : int
        Pending transactions held at most; past it submissions answer 507.
    """

    seed: int = 0
    blocks: int = 200
    chain_id: int = 4
    dev_accounts: int = 8
    block_interval: float | None = None
    prune_window: int | None = None
    disabled: frozenset[str] = field(default_factory=frozenset)
    max_body_bytes: int = 8 * 1024 * 1024
    mempool_capacity: int = 1000

    def __post_init__(self) -> None:
        unknown = set(self.disabled) - ENDPOINT_GROUPS
        if unknown:
            raise ValueError(
                f"unknown endpoint group(s) {sorted(unknown)}; known: {sorted(ENDPOINT_GROUPS)}"
            )
        if not 0 <= self.chain_id <= 255:
            raise ValueError(f"chain_id is a u8, got {self.chain_id}")
        if self.blocks < 0 or self.dev_accounts < 1:
            raise ValueError("blocks must be >= 0 and dev_accounts >= 1")
        if self.prune_window is not None and self.prune_window < 1:
            raise ValueError("prune_window must be at least 1 version")
        if self.block_interval is not None and self.block_interval <= 0:
            raise ValueError("block_interval must be positive")
        object.__setattr__(self, "disabled", frozenset(self.disabled))
