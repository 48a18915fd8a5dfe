"""Ledger position metadata carried by every node response in its headers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from ledgerkit.types._ints import parse_u64

__all__ = ["HEADER_PREFIXES", "LedgerMeta"]

#: The (lowercase) prefixes of the ledger headers :class:`LedgerMeta` reads. Our spec names
#: them ``X-NODE-*``; public nodes of this family send ``X-APTOS-*``.
HEADER_PREFIXES: Final = ("x-node-", "x-aptos-")
#: How every such header begins, in either case.
_X: Final = frozenset({"x-", "X-"})


def _header_u64(text: str) -> int:
    """A header's decimal u64; every answer carries seven of them, so the usual short
    digit string is read straight away and anything else goes through the full check."""
    if len(text) < 20 and text.isascii() and text.isdigit():
        return int(text)  # at most 19 digits: below 2^64
    return parse_u64(text)


@dataclass(frozen=True, slots=True)
class LedgerMeta:
    """Where the ledger stood when the node answered (the ``X-NODE-*`` headers).

    Attributes
    ----------
    chain_id, ledger_version, oldest_ledger_version, ledger_timestamp_usec, epoch,
    block_height, oldest_block_height : int
        Required on every successful response.
    gas_used : int or None
        Gas a view or simulation cost.
    cursor : str or None
        Opaque cursor for the next page of resources or modules.
    txn_encryption_key : str or None
        Per-epoch transaction encryption key (hex), when the node publishes one.
    answered_by : str or None
        The API root of the node that answered, as the client shows it (the node asked,
        or the archive a pruned read was sent on to); ``None`` when not known. Not part
        of the position: two metadata that differ only here are equal.
    """

    chain_id: int
    ledger_version: int
    oldest_ledger_version: int
    ledger_timestamp_usec: int
    epoch: int
    block_height: int
    oldest_block_height: int
    gas_used: int | None = None
    cursor: str | None = None
    txn_encryption_key: str | None = None
    answered_by: str | None = field(default=None, compare=False)

    @classmethod
    def from_headers(
        cls, headers: Mapping[str, str], *, answered_by: str | None = None
    ) -> LedgerMeta | None:
        """Read the metadata from response headers, ``X-NODE-*`` or ``X-APTOS-*`` (the
        first one of a name counts), noting the node that ``answered_by``.

        Returns ``None`` when a required header is missing or not a decimal u64 (error
        responses may carry none of them).
        """
        found: dict[str, str] = {}
        for key, value in headers.items():
            if key[:2] not in _X:  # most headers, passed over without lower-casing
                continue
            lower = key.lower()
            for prefix in HEADER_PREFIXES:
                if lower.startswith(prefix):
                    found.setdefault(lower[len(prefix) :], value)
                    break
        try:
            gas_used = found.get("gas-used")
            return cls(
                chain_id=_header_u64(found["chain-id"]),
                ledger_version=_header_u64(found["ledger-version"]),
                oldest_ledger_version=_header_u64(found["ledger-oldest-version"]),
                ledger_timestamp_usec=_header_u64(found["ledger-timestampusec"]),
                epoch=_header_u64(found["epoch"]),
                block_height=_header_u64(found["block-height"]),
                oldest_block_height=_header_u64(found["oldest-block-height"]),
                gas_used=None if gas_used is None else _header_u64(gas_used),
                cursor=found.get("cursor"),
                txn_encryption_key=found.get("txn-encryption-key"),
                answered_by=answered_by,
            )
        except (KeyError, ValueError):  # InvalidIntegerError is a ValueError
            return None

    def to_headers(self, prefix: str = "X-NODE-") -> dict[str, str]:
        """The headers a node sends for this position (what the embedded node writes)."""
        headers = {
            f"{prefix}CHAIN-ID": str(self.chain_id),
            f"{prefix}LEDGER-VERSION": str(self.ledger_version),
            f"{prefix}LEDGER-OLDEST-VERSION": str(self.oldest_ledger_version),
            f"{prefix}LEDGER-TIMESTAMPUSEC": str(self.ledger_timestamp_usec),
            f"{prefix}EPOCH": str(self.epoch),
            f"{prefix}BLOCK-HEIGHT": str(self.block_height),
            f"{prefix}OLDEST-BLOCK-HEIGHT": str(self.oldest_block_height),
        }
        if self.gas_used is not None:
            headers[f"{prefix}GAS-USED"] = str(self.gas_used)
        if self.cursor is not None:
            headers[f"{prefix}CURSOR"] = self.cursor
        if self.txn_encryption_key is not None:
            headers[f"{prefix}TXN-ENCRYPTION-KEY"] = self.txn_encryption_key
        return headers
