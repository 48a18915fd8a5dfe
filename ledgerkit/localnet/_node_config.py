"""Settings of the embedded node, fixed when it starts."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Final

from ledgerkit.localnet._node_errors import NodeConfigError

__all__ = ["CLOCKS", "DEFAULT_BLOCKS", "ENDPOINT_GROUPS", "NodeConfig", "anchor_usec"]

#: The chain's clocks (``NodeConfig.clock``): ``chain``, the anchor's time at the node's
#: pace, waiting while the node is idle; ``wall``, the wall clock, with idle blocks.
CLOCKS: Final = ("chain", "wall")
#: Blocks of the default chain: a day sampled in runs of consecutive blocks.
DEFAULT_BLOCKS: Final = 360
#: An anchor must leave room for a day of history after the Unix epoch.
_MIN_ANCHOR_USEC: Final = 2 * 86_400_000_000

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
    anchor : str, int, float, datetime or None
        When the generated history ends. ``None``: the generator's fixed default, so a
        seed gives the same chain everywhere. ``"now"``: the wall clock, so the chain
        lines up with it (generated anew each time). Else an ISO 8601 time (UTC unless
        it says otherwise) or Unix seconds. The chain clock carries on from it.
    clock : {"chain", "wall"}
        The chain's time after the history. ``"chain"`` (the default, for notebooks and
        tests): from the anchor (or the last block) at the node's pace, waiting while the
        node is idle, so a chain and its hashes stay reproducible. ``"wall"`` (what
        ``ledgerkit node`` runs): the wall clock, with an empty block whenever the node
        is idle for a second, as a public chain keeps making blocks; clients may count
        expirations from their own clock.
    idle_interval : float
        On the wall clock, the seconds an idle node waits before it makes an empty block
        (1.0; each one adds some 4.4 KB to the ledger's file).

    Raises
    ------
    NodeConfigError
        A setting out of range or malformed (also a :class:`ValueError`).
    """

    seed: int = 0
    blocks: int = DEFAULT_BLOCKS
    chain_id: int = 4
    dev_accounts: int = 8
    block_interval: float | None = None
    prune_window: int | None = None
    disabled: frozenset[str] = field(default_factory=frozenset)
    max_body_bytes: int = 8 * 1024 * 1024
    mempool_capacity: int = 1000
    anchor: str | int | float | datetime.datetime | None = None
    clock: str = "chain"
    idle_interval: float = 1.0

    def __post_init__(self) -> None:
        unknown = set(self.disabled) - ENDPOINT_GROUPS
        if unknown:
            raise NodeConfigError(
                f"unknown endpoint group(s) {sorted(unknown)}; known: {sorted(ENDPOINT_GROUPS)}"
            )
        if not 0 <= self.chain_id <= 255:
            raise NodeConfigError(f"chain_id is a u8, got {self.chain_id}")
        if self.blocks < 0 or self.dev_accounts < 1:
            raise NodeConfigError("blocks must be >= 0 and dev_accounts >= 1")
        if self.prune_window is not None and self.prune_window < 1:
            raise NodeConfigError("prune_window must be at least 1 version")
        if self.block_interval is not None and self.block_interval <= 0:
            raise NodeConfigError("block_interval must be positive")
        if self.clock not in CLOCKS:
            raise NodeConfigError(f"clock must be 'chain' or 'wall', got {str(self.clock)[:32]!r}")
        if not 0.001 <= self.idle_interval <= 86_400:
            raise NodeConfigError("idle_interval must be from 0.001 to 86400 seconds")
        if self.anchor is not None and self.anchor != "now":
            anchor_usec(self.anchor)  # refuse a bad anchor before anything starts
        object.__setattr__(self, "disabled", frozenset(self.disabled))


def anchor_usec(anchor: str | int | float | datetime.datetime) -> int:
    """Microseconds since the Unix epoch of an ``anchor`` (``"now"`` is the wall clock).

    Raises
    ------
    NodeConfigError
        Not ``"now"``, Unix seconds or an ISO 8601 time, or earlier than 1970-01-03.
    """
    when: datetime.datetime | None = None
    seconds: float | None = None
    if isinstance(anchor, datetime.datetime):
        when = anchor
    elif isinstance(anchor, bool):
        seconds = None
    elif isinstance(anchor, int | float):
        seconds = float(anchor)
    elif isinstance(anchor, str):
        text = anchor.strip()
        if text.lower() == "now":
            when = datetime.datetime.now(datetime.UTC)
        else:
            try:
                seconds = float(text)
            except ValueError:
                try:
                    when = datetime.datetime.fromisoformat(text)
                except ValueError:
                    seconds = None
    if when is not None:
        if when.tzinfo is None:
            when = when.replace(tzinfo=datetime.UTC)
        value = (when - datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)) // datetime.timedelta(
            microseconds=1
        )
    elif seconds is not None and seconds == seconds and abs(seconds) < 1e13:
        value = round(seconds * 1_000_000)
    else:
        raise NodeConfigError(
            f"anchor must be 'now', Unix seconds or an ISO 8601 time, got {str(anchor)[:64]!r}"
        )
    if value < _MIN_ANCHOR_USEC:
        raise NodeConfigError(f"anchor {str(anchor)[:64]!r} is before 1970-01-03")
    return value
