"""Which chain a node serves: its chain id and the hash of its genesis transaction. No I/O.

A chain id alone does not name a chain: every local node is chain 4, and a dev chain is
recreated at will under the same id. The genesis transaction (version 0) is different for
each chain made (its hash covers the chain's accounts and start time), so the pair
:class:`ChainIdentity` names a chain. The answer cache files its entries under it, and a
dataset's manifest records it.

Asking for the genesis costs a request (and a local node's genesis is about a megabyte),
so a client asks once, and again only when something says the node may have changed:

- an answer's metadata contradicts the chain it confirmed: another chain id, or a ledger
  (version or timestamp) older than when it confirmed it — a ledger only grows;
- for a node on a loopback address, whose chains are replaced by restarting a process on
  the same port: a new connection was opened (the old node closed its own when it
  stopped), or the node was last heard from more than :data:`LOOPBACK_RECHECK_AFTER`
  seconds ago (then a small ``GET /`` goes first, on a connection that may be new).

A node that no longer holds version 0 (pruned: 410, or 404) answers ``genesis_hash=None``;
its identity is the chain id alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import msgspec

from ledgerkit._endpoints import OPERATIONS
from ledgerkit._errors import DecodingError
from ledgerkit.types import LedgerMeta

__all__ = [
    "GENESIS_PATH",
    "LOOPBACK_RECHECK_AFTER",
    "ChainIdentity",
    "contradicts",
    "genesis_hash",
]

#: Where the genesis transaction is read.
GENESIS_PATH: Final = OPERATIONS["get_transaction_by_version"].url_path(txn_version=0)

#: Seconds of silence from a loopback node after which a cache hit is preceded by a
#: ``GET /``: stopping a local node and starting another on its port takes longer, and a
#: stream of hits then costs one small request every so often (about 2 ms on loopback).
LOOPBACK_RECHECK_AFTER: Final = 0.1


@dataclass(frozen=True, slots=True)
class ChainIdentity:
    """A chain, as precisely as a node lets it be named.

    Attributes
    ----------
    chain_id : int
        The chain id (1 mainnet, 2 testnet, 4 every local node...).
    genesis_hash : str or None
        Hash of the genesis transaction (version 0), ``0x`` and 64 hex digits; ``None``
        when the node no longer holds version 0 (a pruned node).

    Examples
    --------
    >>> str(ChainIdentity(4, "0x" + "ab" * 32))[:20]
    'chain 4 (genesis 0xa'
    """

    chain_id: int
    genesis_hash: str | None

    def __str__(self) -> str:
        genesis = "not held" if self.genesis_hash is None else self.genesis_hash
        return f"chain {self.chain_id} (genesis {genesis})"


class _Hashed(msgspec.Struct):
    version: str
    hash: str


_DECODER: Final = msgspec.json.Decoder(_Hashed)


def genesis_hash(body: bytes) -> str:
    """The ``hash`` of the transaction at version 0 in a ``by_version/0`` answer (the
    rest of the body, a megabyte of write set, is skipped unread)."""
    try:
        found = _DECODER.decode(body)
    except msgspec.DecodeError as exc:
        raise DecodingError(f"not a transaction: {exc}") from None
    digest = found.hash.lower()
    if found.version != "0":
        raise DecodingError(f"asked for version 0, the node answered version {found.version!r}")
    if len(digest) != 66 or not digest.startswith("0x"):
        raise DecodingError(f"the genesis hash is not 32 bytes of hex: {found.hash!r}")
    try:
        bytes.fromhex(digest[2:])
    except ValueError:
        raise DecodingError(f"the genesis hash is not hex: {found.hash!r}") from None
    return digest


def contradicts(meta: LedgerMeta, floor: LedgerMeta) -> bool:
    """Whether an answer's ``meta`` cannot come from the chain that stood at ``floor`` when
    its identity was confirmed: another chain id, or a ledger that went backwards."""
    return (
        meta.chain_id != floor.chain_id
        or meta.ledger_version < floor.ledger_version
        or meta.ledger_timestamp_usec < floor.ledger_timestamp_usec
    )
