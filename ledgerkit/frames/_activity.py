"""Converters for what transactions do to accounts: the exact balance changes of each
transaction (:func:`balance_changes_to_frame`) and, per transaction and account touched,
its roles, fee and net changes (:func:`activity_to_frame`, the rows of an account's
activity and of the ``"activity"`` extraction kind).

Changes are signed and exact. A balance change's ``delta`` is a number of
:data:`~ledgerkit.frames.SIGNED_AMOUNT` (an Arrow ``decimal128(20, 0)``): one transaction's
change to one balance is a sum of u64 amounts, of either sign, beyond the range of
``Int64``; the decimal holds ``±(10**20 - 1)``, sums (``.sum()``, ``groupby().sum()``)
exactly and compares with Python ints. The per-asset changes of :func:`activity_to_frame`
are one JSON object per row, their values exact decimal text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

from ledgerkit._errors import LedgerError
from ledgerkit.frames._asset_keys import APT_COIN, APT_METADATA
from ledgerkit.frames._dtypes import (
    BOOL,
    CATEGORY,
    SIGNED_AMOUNT,
    STRING,
    TIMESTAMP,
    UINT64,
    build_frame,
)
from ledgerkit.frames._inputs import json_text
from ledgerkit.frames._transactions import _entry, _transactions
from ledgerkit.models import (
    DeleteModule,
    DeleteResource,
    FeePayerSignature,
    MultiAgentSignature,
    StoreFacts,
    Transaction,
    UserTransaction,
    WriteModule,
    WriteResource,
    balance_deltas,
    coin_types_named,
    gas_payer,
    resolved_stores,
    storage_fee_refund,
    token_moves,
)
from ledgerkit.types import Address

if TYPE_CHECKING:
    import pandas as pd

    from ledgerkit.types import Result

__all__ = [
    "ACTIVITY_COLUMNS",
    "BALANCE_CHANGE_COLUMNS",
    "ROLES",
    "activity_to_frame",
    "balance_change_rows",
    "balance_changes_to_frame",
]

#: One row per transaction, account and asset whose balance it changed. ``asset`` is the
#: asset's key (its fungible-asset metadata address; a coin's paired one), ``coin_type``
#: the coin paired with it when known, ``metadata`` the metadata address; ``delta`` the
#: signed change, an exact number (:data:`SIGNED_AMOUNT`).
BALANCE_CHANGE_COLUMNS: Final = {
    "version": UINT64,
    "address": CATEGORY,
    "asset": CATEGORY,
    "coin_type": CATEGORY,
    "metadata": CATEGORY,
    "delta": SIGNED_AMOUNT,
}

#: One row per transaction and address it touched (:func:`activity_to_frame`).
ACTIVITY_COLUMNS: Final = {
    "version": UINT64,
    "address": CATEGORY,
    "timestamp": TIMESTAMP,
    "hash": STRING,
    "type": CATEGORY,
    "roles": CATEGORY,
    "function": CATEGORY,
    "success": BOOL,
    "fee": UINT64,
    "storage_refund": UINT64,
    "changes": STRING,
}

#: The roles of an address in a transaction, in the order ``roles`` lists them.
ROLES: Final = ("sender", "secondary_signer", "fee_payer", "recipient", "write_set")
#: The key of the ``changes`` object for an asset the transaction does not name.
UNKNOWN_ASSET: Final = "unknown"


def balance_change_rows(
    txs: Iterable[Any], stores: Mapping[str, StoreFacts] | None = None
) -> tuple[list[tuple[int | None, str, str | None, int]], dict[str, str]]:
    """``(version, address, asset, delta)`` of each balance change of ``txs``, in order,
    and ``asset -> coin type`` of the coins they name (APT's pair included)."""
    rows: list[tuple[int | None, str, str | None, int]] = []
    coins: dict[str, str] = {APT_METADATA: APT_COIN}
    for tx in txs:
        version = getattr(tx, "version", None)
        for (address, asset), delta in balance_deltas(tx, stores).items():
            rows.append((version, address, asset, delta))
        for asset, coin in coin_types_named(tx).items():
            coins.setdefault(asset, coin)
    return rows, coins


def balance_changes_to_frame(
    records: bytes
    | Result[list[Transaction]]
    | Result[Transaction]
    | Transaction
    | Iterable[Transaction | dict[str, Any]],
    *,
    stores: Mapping[str, StoreFacts] | None = None,
) -> pd.DataFrame:
    """One row per transaction, account and asset whose balance it changed
    (:data:`BALANCE_CHANGE_COLUMNS`), with the exact signed change.

    Parameters
    ----------
    records : bytes, Result, Transaction or iterable of Transaction
        What the client returns (``client.transactions(start=0, limit=100)``, its
        ``.value`` or one transaction), page bytes, or the API's JSON objects.
    stores : mapping, optional
        Fungible store address -> ``(owner, metadata address)`` read from the chain, for
        stores whose owner or asset a transaction does not tell
        (:func:`stores_to_look_up`).

    Returns
    -------
    pandas.DataFrame
        ``address`` the account (long form; a fungible store whose owner the
        transaction does not tell, by its own address); ``asset`` the asset's key, its
        fungible-asset metadata address (a coin's paired one: APT is ``0x…0a``), the
        same key as :data:`HOLDING_COLUMNS` and ``Simulation.balance_changes``;
        ``coin_type`` the coin paired with it when known (APT's, or a coin the given
        transactions name); ``metadata`` the metadata address; ``delta`` the signed
        change, an exact integer of :data:`SIGNED_AMOUNT` (``decimal128(20, 0)``): it
        sums exactly (``.sum()``, ``groupby(...).sum()``), compares with Python ints and
        gives ``Decimal`` values (``int(value)`` is exact).

    Raises
    ------
    DecodingError
        A change beyond ``±(10**20 - 1)`` (more than five times a u64: no chain's).

    Notes
    -----
    Deposits and withdrawals are read from the coin and fungible asset events; the gas
    fee, less the storage refund, is charged to the fee payer (the sender when there is
    none); the genesis transaction's funded stores count as deposits. Summed from
    genesis, the rows of an account and asset give its balance (a write-set transaction
    after genesis that sets balances without events is not seen).

    Examples
    --------
    >>> changes = balance_changes_to_frame(client.transactions(start=0, limit=100))
    ... # doctest: +SKIP
    >>> changes.groupby(["address", "asset"], observed=True)["delta"].sum()
    ... # doctest: +SKIP
    >>> raw = client.build_transaction(
    ...     alice, "0x1::aptos_account::transfer", [bob.address, 1_000]
    ... )  # doctest: +SKIP
    >>> sim = client.simulate(raw, signer=alice)  # doctest: +SKIP
    >>> delta = sim.balance_changes.set_index("address")["delta"]  # doctest: +SKIP
    >>> delta[alice.address.long] == -(1_000 + sim.gas_used * sim.gas_unit_price)
    ... # doctest: +SKIP
    True
    """
    rows, coins = balance_change_rows(_transactions(records, "balance_changes_to_frame"), stores)
    return _balance_frame(rows, coins)


def _balance_frame(
    rows: list[tuple[int | None, str, str | None, int]], coins: dict[str, str]
) -> pd.DataFrame:
    assets = [asset for _, _, asset, _ in rows]
    return build_frame(
        BALANCE_CHANGE_COLUMNS,
        {
            "version": [version for version, _, _, _ in rows],
            "address": [address for _, address, _, _ in rows],
            "asset": assets,
            "coin_type": [None if a is None else coins.get(a) for a in assets],
            "metadata": assets,
            "delta": [delta for _, _, _, delta in rows],
        },
    )


def _long(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    try:
        return Address.parse(value).long
    except LedgerError:  # a malformed address names no account
        return None


def _touched(tx: Any, deltas: dict[tuple[str, str | None], int]) -> dict[str, list[str]]:
    """Each address the transaction touched -> its roles, in the order first met."""
    roles: dict[str, list[str]] = {}

    def add(address: str | None, role: str) -> None:
        if address is not None:
            held = roles.setdefault(address, [])
            if role not in held:
                held.append(role)

    if isinstance(tx, UserTransaction):
        add(_long(tx.sender), "sender")
        signature = tx.signature
        if isinstance(signature, MultiAgentSignature | FeePayerSignature):
            for signer in signature.secondary_signer_addresses:
                add(_long(signer), "secondary_signer")
        if isinstance(signature, FeePayerSignature):
            payer = _long(signature.fee_payer_address)
            if payer is not None and payer != Address.from_int(0).long:
                add(payer, "fee_payer")
    stores = resolved_stores(tx)
    owners = {store: owner for store, (owner, _) in stores.items() if owner is not None}
    for change in getattr(tx, "changes", None) or ():
        if isinstance(change, WriteResource) and change.data.type == "0x1::object::ObjectCore":
            data = change.data.data
            owner = _long(data.get("owner")) if isinstance(data, dict) else None
            address = _long(change.address)
            if owner is not None and address is not None:
                owners.setdefault(address, owner)
    for (address, _), delta in deltas.items():
        if delta > 0:
            add(address, "recipient")
    for change in getattr(tx, "changes", None) or ():
        if isinstance(change, WriteResource | DeleteResource | WriteModule | DeleteModule):
            address = _long(change.address)
            if address is not None:
                add(owners.get(address, address), "write_set")
    for address, _ in deltas:
        if address not in roles:
            add(address, "write_set")
    return roles


def activity_to_frame(
    records: bytes
    | Result[list[Transaction]]
    | Result[Transaction]
    | Transaction
    | Iterable[Transaction | dict[str, Any]],
) -> pd.DataFrame:
    """One row per transaction and address it touched (:data:`ACTIVITY_COLUMNS`).

    An address is touched as ``sender``, ``secondary_signer``, ``fee_payer``,
    ``recipient`` (its balance of an asset rose: a coin or fungible-asset deposit, or a
    funded store at genesis) or ``write_set`` (the write set writes or deletes a resource
    or module at its address, or at an object or fungible store it owns, or its balance
    fell). ``roles`` lists them, comma-separated, in that order.

    ``fee`` is the gas fee (``gas_used * gas_unit_price``, exact) and ``storage_refund``
    the refund of its ``FeeStatement``, on the fee payer's row (0 on the other rows of a
    user transaction, missing for other transaction types); ``changes`` is a JSON object
    of the address's net change per asset key, exact decimal text
    (``{"0x…0a": "-2400"}``; ``"unknown"`` for an asset the transaction does not name),
    the fee and refund included; a digital asset (token) received, minted, sent or burnt
    counts there too, keyed as ``account_assets`` keys it (a token v2 or other object by
    its address, a token v1 by its token data id), ``"1"`` or ``"-1"`` (a token v1's
    amount), and one received makes its receiver a ``recipient``
    (:func:`ledgerkit.models.token_moves`). ``function`` is the entry function called.

    ``records`` is read as by :func:`balance_changes_to_frame`.
    """
    txs = _transactions(records, "activity_to_frame")
    cols: dict[str, list[Any]] = {name: [] for name in ACTIVITY_COLUMNS}
    for tx in txs:
        deltas: dict[tuple[str, str | None], int] = dict(balance_deltas(tx))
        for key, count in token_moves(tx).items():  # a token is an asset too
            deltas[key] = deltas.get(key, 0) + count
        user = isinstance(tx, UserTransaction)
        payer = gas_payer(tx) if user else None
        fee = tx.gas_used * tx.gas_unit_price if user else None
        refund = storage_fee_refund(tx) if user else None
        entry = _entry(getattr(tx, "payload", None))
        function = None if entry is None else entry.function
        for address, roles in _touched(tx, deltas).items():
            changes = {
                UNKNOWN_ASSET if asset is None else asset: str(delta)
                for (account, asset), delta in sorted(
                    deltas.items(), key=lambda item: (item[0][0], item[0][1] or "")
                )
                if account == address
            }
            paying = user and address == payer
            cols["version"].append(getattr(tx, "version", None))
            cols["address"].append(address)
            cols["timestamp"].append(getattr(tx, "timestamp", None))
            cols["hash"].append(getattr(tx, "hash", None))
            cols["type"].append(_tag(tx))
            cols["roles"].append(",".join(r for r in ROLES if r in roles))
            cols["function"].append(function)
            cols["success"].append(getattr(tx, "success", None))
            cols["fee"].append((fee if paying else 0) if user else None)
            cols["storage_refund"].append((refund if paying else 0) if user else None)
            cols["changes"].append(json_text(changes))
    return build_frame(ACTIVITY_COLUMNS, cols)


def _tag(record: Any) -> str:
    tag = getattr(getattr(record, "__struct_config__", None), "tag", None)
    return tag if isinstance(tag, str) else str(getattr(record, "type", type(record).__name__))
