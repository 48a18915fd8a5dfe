"""The account explorer's Transactions tab: every transaction that touched the account
(sent, received, paid for, co-signed, written to), newest first, each with the
account's roles and its exact change per asset, named.

The node lists only what an account sent; the rest is found by scanning the ledger
(``account_activity``). On a real node that costs a request per hundred versions, so
the scan goes backwards from the view's version in windows, only as far as the page
asked for needs (at most :data:`MAX_SCAN_VERSIONS` a page): the tab says which versions
it has scanned, and the next page scans older ones.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import pandas as pd

from ledgerkit._errors import LedgerError
from ledgerkit.frames import ACTIVITY_COLUMNS, empty_frame
from ledgerkit.types import Address
from ledgerkit.widgets._grid import Column, GridPage
from ledgerkit.widgets._names import amount_text, grouped, short, short_type
from ledgerkit.widgets._read_client import ReadClient
from ledgerkit.widgets._sources import Row

__all__ = [
    "ACTIVITY_COLUMNS_SHOWN",
    "FIRST_WINDOW",
    "MAX_SCAN_VERSIONS",
    "ActivityScan",
    "AssetNames",
    "activity_row",
]

#: Most versions one page of the tab scans.
MAX_SCAN_VERSIONS: Final = 20_000
#: The versions the first window scans; each next window twice as many (up to the page's
#: budget): an active account fills a page from the newest versions alone.
FIRST_WINDOW: Final = 1_000
#: Resources read at an asset's metadata address to find its name (its ``Metadata`` is
#: among the few resources of its object).
_METADATA_PAGE: Final = 25
_METADATA: Final = "0x1::fungible_asset::Metadata"
_TOKEN: Final = "0x4::token::Token"
_TOKEN_IDENTIFIERS: Final = "0x4::token::TokenIdentifiers"
#: How each role reads in the tab, in the order ``roles`` lists them.
ROLE_WORDS: Final = {
    "sender": "sent",
    "secondary_signer": "co-signed",
    "fee_payer": "paid the fee",
    "recipient": "received",
    "write_set": "state written",
}
ACTIVITY_COLUMNS_SHOWN = [
    Column("version", "Version", "version"),
    Column("timestamp", "Time (UTC)", "time"),
    Column("role", "Role", keep=True),
    Column("change", "Change", keep=True),
    Column("function_shown", "Function", keep=True),
    Column("success", "OK", "bool"),
    Column("fee_shown", "Fee paid (octas)", "int"),
    Column("hash", "Hash", "hash"),
]


class AssetNames:
    """An asset's symbol and decimals by its key: those of the assets held (read with
    the overview), else its fungible-asset ``Metadata``, read once at the view's
    version; a token's name (whole units); else its short address, in base units."""

    def __init__(self, client: ReadClient, version: int, held: Sequence[Any]) -> None:
        self._client = client
        self._version = version
        self._held = held  # filled by the overview, maybe after this is made
        self._read: dict[str, tuple[str, int | None]] = {}

    def __call__(self, key: str) -> tuple[str, int | None]:
        """``(name, decimals)`` of the asset ``key`` (a metadata address)."""
        try:
            long = Address.parse(key).long
        except LedgerError:  # "unknown": an asset the transaction does not name
            return key, None
        for holding in self._held:
            if _long(holding.asset) == long:
                if holding.kind == "token":
                    return holding.name or short(long), 0
                coin_type = getattr(holding, "coin_type", None)
                return self._name(holding.symbol, coin_type, long), holding.decimals
        if long not in self._read:
            self._read[long] = self._metadata(long)
        return self._read[long]

    @staticmethod
    def _name(symbol: str | None, coin_type: str | None, long: str) -> str:
        if symbol:
            return str(symbol)
        return short_type(coin_type) if coin_type else short(long)

    def _metadata(self, long: str) -> tuple[str, int | None]:
        try:
            page = self._client.account_resources(
                long, ledger_version=self._version, limit=_METADATA_PAGE
            )
        except LedgerError:
            return short(long), None
        token: str | None = None
        for resource in page.value:
            data = resource.data
            if resource.type in (_TOKEN, _TOKEN_IDENTIFIERS) and isinstance(data, dict):
                named = data.get("name")
                text = named.get("value") if isinstance(named, dict) else named
                token = text if isinstance(text, str) and text else token
            if resource.type == _METADATA and isinstance(data, dict):
                try:
                    decimals = int(data["decimals"])
                except (KeyError, TypeError, ValueError):
                    decimals = None
                symbol = data.get("symbol")
                return self._name(symbol if isinstance(symbol, str) else None, None, long), (
                    decimals
                )
        if token is not None or any(r.type == _TOKEN for r in page.value):
            return token or short(long), 0  # a token: counted whole
        return short(long), None


def _long(address: Any) -> str | None:
    try:
        return Address.parse(str(address)).long
    except LedgerError:
        return None


def _changes(text: Any) -> dict[str, int]:
    """The ``changes`` JSON of an activity row as asset key -> exact signed change."""
    if not isinstance(text, str) or not text:
        return {}
    try:
        found = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(found, dict):
        return {}
    out: dict[str, int] = {}
    for key, value in found.items():
        try:
            out[str(key)] = int(value)
        except (TypeError, ValueError):
            continue
    return out


def _function_shown(function: str | None) -> str | None:
    if not function:
        return function
    address, sep, rest = function.partition("::")
    return short(address) + sep + rest if sep else function


def activity_row(record: Mapping[str, Any], names: Callable[[str], tuple[str, int | None]]) -> Row:
    """One row of the tab from one row of ``account_activity``: the exact values
    (``changes`` as asset key -> int, ``fee`` in octas, ``roles`` as the frame names
    them) and what is shown (``role``, ``change``, ``function_shown``, ``fee_shown``)."""
    changes = _changes(record.get("changes"))
    parts = []
    for key, delta in changes.items():
        if delta == 0:
            continue
        name, decimals = names(key)
        parts.append(f"{amount_text(delta, decimals, signed=True)} {name}")
    roles = str(record.get("roles") or "")
    fee = record.get("fee")
    return {
        "version": record.get("version"),
        "timestamp": record.get("timestamp"),
        "roles": roles,
        "role": ", ".join(ROLE_WORDS.get(role, role) for role in roles.split(",") if role),
        "changes": changes,
        "change": "; ".join(parts),
        "function": record.get("function"),
        "function_shown": _function_shown(record.get("function")),
        "success": record.get("success"),
        "fee": fee,
        "fee_shown": grouped(fee) if isinstance(fee, int) and fee else None,
        "hash": record.get("hash"),
        "type": record.get("type"),
    }


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A frame's rows as Python values (missing: ``None``), timestamps as datetimes."""
    records: list[dict[str, Any]] = (
        frame.astype(object).where(frame.notna(), None).to_dict("records")
    )
    for record in records:
        stamp = record.get("timestamp")
        if isinstance(stamp, pd.Timestamp):
            record["timestamp"] = stamp.to_pydatetime()
    return records


class ActivityScan:
    """Pages of the transactions that touched an account, newest first, scanned from
    ``newest`` back to ``oldest`` (see the module docstring).

    ``fetch(first, last)`` gives the ``account_activity`` frame of versions ``first``
    .. ``last``; ``names`` names the assets of each row's changes.
    """

    def __init__(
        self,
        fetch: Callable[[int, int], pd.DataFrame],
        names: Callable[[str], tuple[str, int | None]],
        newest: int,
        oldest: int = 0,
        *,
        budget: int = MAX_SCAN_VERSIONS,
    ) -> None:
        self._fetch = fetch
        self._names = names
        self.newest = newest
        self.oldest = oldest
        self._budget = max(1, budget)
        self._next = newest  # the newest version not yet scanned
        self._window = FIRST_WINDOW
        self._rows: list[Row] = []
        self._frames: list[pd.DataFrame] = []

    @property
    def exhausted(self) -> bool:
        """Whether every version from ``oldest`` to ``newest`` was scanned."""
        return self._next < self.oldest

    @property
    def scanned_from(self) -> int | None:
        """The oldest version scanned so far (``None``: none yet)."""
        return None if self._next == self.newest else self._next + 1

    @property
    def found(self) -> int:
        """How many transactions were found so far."""
        return len(self._rows)

    def describe(self) -> str:
        """What was scanned and found, in a line (the grid's title)."""
        found = f"{grouped(self.found)} transaction{'s' if self.found != 1 else ''}"
        if self.scanned_from is None:
            return f"Transactions touching the account: versions up to {grouped(self.newest)}"
        span = f"versions {grouped(self.scanned_from)} to {grouped(self.newest)}"
        if self.exhausted:
            return f"{found} touched the account ({span}, all scanned)"
        return f"{found} touched the account in {span} (older versions: next page)"

    def _scan(self, budget: int) -> None:
        """Scan windows back from the newest version not yet scanned, ``budget`` at most."""
        while budget > 0 and not self.exhausted:
            size = min(self._window, budget)
            first = max(self.oldest, self._next - size + 1)
            frame = self._fetch(first, self._next)
            self._frames.append(frame)
            records = _records(frame)
            records.sort(key=lambda r: r.get("version") or 0, reverse=True)
            self._rows.extend(activity_row(record, self._names) for record in records)
            budget -= self._next - first + 1
            self._next = first - 1
            self._window = min(self._window * 2, MAX_SCAN_VERSIONS)

    def __call__(self, page: int, size: int, query: str) -> GridPage:
        want = (page + 1) * size
        if len(self._rows) < want:
            self._scan(self._budget)
        rows = self._rows[page * size : want]
        if self.exhausted:
            return GridPage(rows, total=len(self._rows))
        return GridPage(rows, more=True)

    def frame(self, rows: Sequence[Row]) -> pd.DataFrame:
        """The ``account_activity`` rows of ``rows``' versions, newest first, exact."""
        if not self._frames:
            return empty_frame(ACTIVITY_COLUMNS)
        every = pd.concat(self._frames, ignore_index=True)
        # Categories of different windows concatenate to objects: make them categories again.
        categories = {
            name: "category"
            for name, dtype in self._frames[0].dtypes.items()
            if isinstance(dtype, pd.CategoricalDtype)
        }
        every = every.astype(categories)
        versions = [row.get("version") for row in rows]
        shown = every[every["version"].isin([v for v in versions if v is not None])]
        return shown.sort_values("version", ascending=False, kind="stable").reset_index(drop=True)
