"""A fake ``ReadClient`` for the explorers' headless tests: hand-written answers in the
node's JSON shape, decoded by ``ledgerkit.models`` as the real client decodes them, and a
log of every call made.

The chain it describes, pinned at ledger version 25:

* ``ALICE`` sent three transactions (sequence numbers 0, 1 and 2, versions 17, 20 and
  23, the last one failed) and holds APT and a fungible asset of 2**64 - 1 base units;
* her resources (five, two to a page of the node) include a ``0x1::ledger_demo::Board``
  with a ``Table<address, u64>`` (``SCORES``) and an event handle of three events
  (creation number 4);
* version 17 called ``0x1::ledger_demo::set_score(PLAYER, 2**64 - 1)``, which wrote that
  table;
* for the transaction inspector (read by version or hash only): version 12, ``CAROL``
  sent ``BOB`` 2.5 APT and 1.5 LDT with ``DAVE`` as secondary signer and ``SPONSOR`` as
  fee payer (fee 15,100 octas, 1,100 refunded for storage); version 13, ``CAROL``'s
  transfer of 10,000 APT aborted (``EINSUFFICIENT_BALANCE``), fee 900 octas. Blocks hold
  three versions each (height 4: versions 12 to 14).
* others touched her too (:data:`ACTIVITY`, what ``account_activity`` answers): ``BOB``
  sent her 2.5 LDT at version 19 and 1,000,000 APT at version 21, she paid the fee of
  ``PLAYER``'s transaction at version 22, and received 123.45 of an asset she no longer
  holds (``OLD``, whose metadata is at ``OLD``) at version 24.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd

from ledgerkit import (
    AccountNotFoundError,
    BlockNotFoundError,
    LedgerMeta,
    MoveModuleNotFoundError,
    ResourceNotFoundError,
    Result,
    TableItemNotFoundError,
    TransactionNotFoundError,
)
from ledgerkit.client import Holding
from ledgerkit.frames import ACTIVITY_COLUMNS
from ledgerkit.models import (
    decode_account,
    decode_block,
    decode_events,
    decode_ledger_info,
    decode_module,
    decode_modules,
    decode_resource,
    decode_resources,
    decode_transaction,
    decode_transactions,
)
from ledgerkit.types import Address

LEDGER_VERSION = 25
ALICE = "0x" + "a1" * 32
BOB = "0x" + "b0" * 32
PLAYER = "0x" + "5a" * 32
SCORES = "0x" + "5c" * 32
LDT = "0x" + "e6" * 32
U64_MAX = 2**64 - 1
#: The node's page size for resources (small, so the explorers page through them).
RESOURCES_PAGE = 2

#: APT's key: its fungible-asset metadata address, long form.
APT_KEY = "0x" + "00" * 31 + "0a"
#: An asset ALICE once received and holds no more.
OLD = "0x" + "d0" * 32

APT_HOLDING = Holding(
    asset=APT_KEY,
    kind="coin",
    balance=10_000_081_973_700,
    decimals=8,
    symbol="APT",
    name="Aptos Coin",
    metadata=APT_KEY,
    coin_type="0x1::aptos_coin::AptosCoin",
)
LDT_HOLDING = Holding(
    asset=LDT,
    kind="fungible_asset",
    balance=U64_MAX,
    decimals=6,
    symbol="LDT",
    name="Demo Token",
    metadata=LDT,
)


def _meta(cursor: str | None = None) -> LedgerMeta:
    return LedgerMeta(
        chain_id=4,
        ledger_version=LEDGER_VERSION,
        oldest_ledger_version=0,
        ledger_timestamp_usec=1_748_736_000_000_000,
        epoch=1,
        block_height=9,
        oldest_block_height=0,
        cursor=cursor,
    )


def _body(value: Any) -> bytes:
    return json.dumps(value).encode()


def _handle(number: int, counter: int, address: str = ALICE) -> dict[str, Any]:
    return {
        "counter": str(counter),
        "guid": {"id": {"addr": address, "creation_num": str(number)}},
    }


RESOURCES = [
    {
        "type": "0x1::account::Account",
        "data": {
            "authentication_key": ALICE,
            "coin_register_events": _handle(0, 0),
            "sequence_number": "3",
        },
    },
    {
        "type": "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
        "data": {"coin": {"value": "10000081973700"}, "frozen": False},
    },
    {
        "type": "0x1::ledger_demo::Board",
        "data": {
            "owner": ALICE,
            "scores": {"handle": SCORES},
            "score_events": _handle(4, 3),
        },
    },
    {"type": "0x1::ledger_demo::Counter", "data": {"value": str(2**128 - 1)}},
    {"type": "0x1::object::ObjectCore", "data": {"owner": BOB, "allow_ungated_transfer": True}},
]


def _function(name: str, params: list[str], *, entry: bool = True) -> dict[str, Any]:
    return {
        "name": name,
        "visibility": "public",
        "is_entry": entry,
        "is_view": not entry,
        "generic_type_params": [],
        "params": params,
        "return": [] if entry else ["u64"],
    }


LEDGER_DEMO = {
    "bytecode": "0xa11ceb0b",
    "abi": {
        "address": "0x1",
        "name": "ledger_demo",
        "friends": [],
        "exposed_functions": [
            _function("set_score", ["&signer", "address", "u64"]),
            _function("score_of", ["address", "address"], entry=False),
        ],
        "structs": [
            {
                "name": "Board",
                "is_native": False,
                "abilities": ["key"],
                "generic_type_params": [],
                "fields": [
                    {"name": "owner", "type": "address"},
                    {"name": "scores", "type": "0x1::table::Table<address, u64>"},
                    {
                        "name": "score_events",
                        "type": "0x1::event::EventHandle<0x1::ledger_demo::ScoreChanged>",
                    },
                ],
            },
            {
                "name": "Counter",
                "is_native": False,
                "abilities": ["key"],
                "generic_type_params": [],
                "fields": [{"name": "value", "type": "u128"}],
            },
        ],
    },
}

EVENTS = [
    {
        "version": str(version),
        "guid": {"creation_number": "4", "account_address": ALICE},
        "sequence_number": str(number),
        "type": "0x1::ledger_demo::ScoreChanged",
        "data": {"player": PLAYER, "old": str(old), "new": str(new)},
    }
    for number, (version, old, new) in enumerate([(11, 0, 7), (14, 7, 9), (17, 9, U64_MAX)])
]


def _user_transaction(
    version: int, sequence: int, arguments: list[Any], *, success: bool, changes: list[Any]
) -> dict[str, Any]:
    return {
        "type": "user_transaction",
        "version": str(version),
        "hash": "0x" + f"{version:02x}" * 32,
        "state_change_hash": "0x" + "22" * 32,
        "event_root_hash": "0x" + "33" * 32,
        "gas_used": "612",
        "success": success,
        "vm_status": "Executed successfully" if success else "Move abort in 0x1::ledger_demo: 1",
        "accumulator_root_hash": "0x" + "44" * 32,
        "changes": changes,
        "sender": ALICE,
        "sequence_number": str(sequence),
        "max_gas_amount": "2000",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": "1748739600",
        "payload": {
            "type": "entry_function_payload",
            "function": "0x1::ledger_demo::set_score",
            "type_arguments": [],
            "arguments": arguments,
        },
        "events": [EVENTS[2]] if success else [],
        "timestamp": str(1_748_736_000_000_000 + version * 1_000_000),
    }


SCORE_WRITE = {
    "type": "write_table_item",
    "state_key_hash": "0x" + "55" * 32,
    "handle": SCORES,
    "key": "0x" + "5a" * 32,
    "value": "0xffffffffffffffff",
    "data": {"key": PLAYER, "key_type": "address", "value": str(U64_MAX), "value_type": "u64"},
}

TRANSACTIONS = [
    _user_transaction(17, 0, [PLAYER, str(U64_MAX)], success=True, changes=[SCORE_WRITE]),
    _user_transaction(20, 1, [BOB, "3"], success=True, changes=[]),
    _user_transaction(23, 2, [BOB, "4"], success=False, changes=[]),
]


# -- what the transaction inspector reads -------------------------------------------------

CAROL = "0x" + "c0" * 32
DAVE = "0x" + "d0" * 32
SPONSOR = "0x" + "fe" * 32
APT_METADATA = "0xa"
#: The fungible stores the inspected transfers move: (store, owner, metadata).
STORES = [
    ("0x" + "c1" * 32, CAROL, APT_METADATA),
    ("0x" + "b1" * 32, BOB, APT_METADATA),
    ("0x" + "c2" * 32, CAROL, LDT),
    ("0x" + "b2" * 32, BOB, LDT),
]
#: The ``0x1::fungible_asset::Metadata`` of LDT.
LDT_METADATA = {
    "type": "0x1::fungible_asset::Metadata",
    "data": {
        "name": "Demo Token",
        "symbol": "LDT",
        "decimals": 6,
        "icon_uri": "",
        "project_uri": "",
    },
}
BASE_TIME = 1_748_736_000_000_000


def _fa_event(kind: str, store: str, amount: int) -> dict[str, Any]:
    return {
        "guid": {"creation_number": "0", "account_address": "0x0"},
        "sequence_number": "0",
        "type": f"0x1::fungible_asset::{kind}",
        "data": {"store": store, "amount": str(amount)},
    }


def _store_writes(balances: list[int]) -> list[dict[str, Any]]:
    writes = []
    for (store, owner, metadata), balance in zip(STORES, balances, strict=True):
        writes.append(
            {
                "type": "write_resource",
                "address": store,
                "state_key_hash": "0x" + "66" * 32,
                "data": {
                    "type": "0x1::fungible_asset::FungibleStore",
                    "data": {
                        "metadata": {"inner": metadata},
                        "balance": str(balance),
                        "frozen": False,
                    },
                },
            }
        )
        writes.append(
            {
                "type": "write_resource",
                "address": store,
                "state_key_hash": "0x" + "77" * 32,
                "data": {
                    "type": "0x1::object::ObjectCore",
                    "data": {"owner": owner, "allow_ungated_transfer": False},
                },
            }
        )
    return writes


def _signature(kind: str, **more: Any) -> dict[str, Any]:
    key = {
        "type": "ed25519_signature",
        "public_key": "0x" + "01" * 32,
        "signature": "0x" + "02" * 64,
    }
    if kind == "fee_payer_signature":
        return {
            "type": kind,
            "sender": key,
            "secondary_signer_addresses": [DAVE],
            "secondary_signers": [key],
            "fee_payer_address": SPONSOR,
            "fee_payer_signer": key,
            **more,
        }
    return {**key, **more}


SPONSORED = {
    **_user_transaction(
        12,
        4,
        [BOB, "250000000"],
        success=True,
        changes=_store_writes([750_000_000, 250_000_000, 500_000, 1_500_000]),
    ),
    "hash": "0x" + "5b" * 32,
    "gas_used": "151",
    "max_gas_amount": "2000",
    "gas_unit_price": "100",
    "sender": CAROL,
    "payload": {
        "type": "entry_function_payload",
        "function": "0x1::ledger_demo::pay",
        "type_arguments": [],
        "arguments": [BOB, "250000000"],
    },
    "signature": _signature("fee_payer_signature"),
    "events": [
        _fa_event("Withdraw", STORES[0][0], 250_000_000),
        _fa_event("Deposit", STORES[1][0], 250_000_000),
        _fa_event("Withdraw", STORES[2][0], 1_500_000),
        _fa_event("Deposit", STORES[3][0], 1_500_000),
        {
            "guid": {"creation_number": "0", "account_address": "0x0"},
            "sequence_number": "0",
            "type": "0x1::transaction_fee::FeeStatement",
            "data": {
                "total_charge_gas_units": "151",
                "execution_gas_units": "100",
                "io_gas_units": "40",
                "storage_fee_octas": "1100",
                "storage_fee_refund_octas": "1100",
            },
        },
    ],
    "timestamp": str(BASE_TIME + 12_000_000),
}
ABORTED = {
    **_user_transaction(13, 5, [BOB, "1000000000000"], success=False, changes=[]),
    "hash": "0x" + "ab" * 32,
    "gas_used": "9",
    "sender": CAROL,
    "vm_status": (
        "Move abort in 0x1::fungible_asset: EINSUFFICIENT_BALANCE(0x10004): "
        "The store's balance is too small for the amount asked"
    ),
    "payload": {
        "type": "entry_function_payload",
        "function": "0x1::aptos_account::transfer",
        "type_arguments": [],
        "arguments": [BOB, "1000000000000"],
    },
    "signature": _signature("ed25519_signature"),
    "timestamp": str(BASE_TIME + 12_000_000),
}
#: The part of ``0x1::fungible_asset``'s ABI the inspected events and changes need
#: (``0x1::transaction_fee`` and ``0x1::object`` are not published here: untyped).
FUNGIBLE_ASSET = {
    "bytecode": "0xa11ceb0b",
    "abi": {
        "address": "0x1",
        "name": "fungible_asset",
        "friends": [],
        "exposed_functions": [],
        "structs": [
            {
                "name": name,
                "is_native": False,
                "is_event": True,
                "abilities": ["drop", "store"],
                "generic_type_params": [],
                "fields": [
                    {"name": "store", "type": "address"},
                    {"name": "amount", "type": "u64"},
                ],
            }
            for name in ("Withdraw", "Deposit")
        ]
        + [
            {
                "name": "FungibleStore",
                "is_native": False,
                "abilities": ["key"],
                "generic_type_params": [],
                "fields": [
                    {
                        "name": "metadata",
                        "type": "0x1::object::Object<0x1::fungible_asset::Metadata>",
                    },
                    {"name": "balance", "type": "u64"},
                    {"name": "frozen", "type": "bool"},
                ],
            }
        ],
    },
}
#: Transactions read by version or hash only (no account or page lists them).
INSPECTED = [SPONSORED, ABORTED]


# -- what else touched ALICE: the answers of account_activity --------------------------


def _other_transaction(
    version: int, sender: str, function: str, arguments: list[Any], signature: Any = None
) -> dict[str, Any]:
    txn = _user_transaction(version, 0, arguments, success=True, changes=[])
    txn.update(sender=sender, events=[])
    txn["payload"].update(function=function)
    if signature is not None:
        txn["signature"] = signature
    return txn


_KEY = {"type": "ed25519_signature", "public_key": "0x" + "01" * 32, "signature": "0x" + "02" * 64}

OTHER_TRANSACTIONS = [
    _other_transaction(19, BOB, "0x1::primary_fungible_store::transfer", [LDT, ALICE, "2500000"]),
    _other_transaction(21, BOB, "0x1::aptos_account::transfer", [ALICE, "100000000000000"]),
    _other_transaction(
        22,
        PLAYER,
        "0x1::ledger_demo::set_score",
        [PLAYER, "5"],
        {
            "type": "fee_payer_signature",
            "sender": _KEY,
            "secondary_signer_addresses": [],
            "secondary_signers": [],
            "fee_payer_address": ALICE,
            "fee_payer_signer": _KEY,
        },
    ),
    _other_transaction(24, BOB, "0x1::primary_fungible_store::transfer", [OLD, ALICE, "12345"]),
]

#: ``(version, roles, function, success, fee, changes)`` of ALICE's activity.
ACTIVITY: list[tuple[int, str, str, bool, int, dict[str, str]]] = [
    (17, "sender", "0x1::ledger_demo::set_score", True, 61_200, {APT_KEY: "-61200"}),
    (19, "recipient", "0x1::primary_fungible_store::transfer", True, 0, {LDT: "2500000"}),
    (20, "sender", "0x1::ledger_demo::set_score", True, 61_200, {APT_KEY: "-61200"}),
    (21, "recipient", "0x1::aptos_account::transfer", True, 0, {APT_KEY: "100000000000000"}),
    (22, "fee_payer", "0x1::ledger_demo::set_score", True, 61_200, {APT_KEY: "-61200"}),
    (23, "sender", "0x1::ledger_demo::set_score", False, 61_200, {APT_KEY: "-61200"}),
    (24, "recipient", "0x1::primary_fungible_store::transfer", True, 0, {OLD: "12345"}),
]

#: The metadata of ``OLD``, the one resource at its address.
OLD_METADATA = {
    "type": "0x1::fungible_asset::Metadata",
    "data": {
        "decimals": 2,
        "icon_uri": "",
        "name": "Old Token",
        "project_uri": "",
        "symbol": "OLD",
    },
}


def _activity_frame(rows: Sequence[tuple[int, str, str, bool, int, dict[str, str]]]) -> Any:
    """Rows of :data:`ACTIVITY` as ``account_activity`` answers them (its columns, dtypes)."""
    columns: dict[str, Any] = {
        "version": [version for version, *_ in rows],
        "address": [ALICE] * len(rows),
        "timestamp": pd.to_datetime(
            [1_748_736_000_000_000 + version * 1_000_000 for version, *_ in rows],
            unit="us",
            utc=True,
        ),
        "hash": ["0x" + f"{version:02x}" * 32 for version, *_ in rows],
        "type": ["user_transaction"] * len(rows),
        "roles": [row[1] for row in rows],
        "function": [row[2] for row in rows],
        "success": [row[3] for row in rows],
        "fee": [row[4] for row in rows],
        "storage_refund": [0] * len(rows),
        "changes": [json.dumps(row[5], separators=(",", ":")) for row in rows],
    }
    return pd.DataFrame(
        {
            # A category's values are its categories (the schema's dtype names none).
            name: pd.Series(
                list(columns[name]),
                dtype="category" if isinstance(dtype, pd.CategoricalDtype) else dtype,
            )
            for name, dtype in ACTIVITY_COLUMNS.items()
        }
    )


#: Every transaction of the chain, in version order.
_ALL = sorted(TRANSACTIONS + OTHER_TRANSACTIONS, key=lambda t: int(t["version"]))


class FakeExplanation:
    """What ``explain`` answers: its text is the dump."""

    def __init__(self, version: int) -> None:
        self.version = version

    def __str__(self) -> str:
        return f"transaction {self.version}: 0x00 (fake bytes)"


class FakeReadClient:
    """Answers the reads of the explorers from the chain above; ``calls`` logs each
    method called, with its arguments, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def _log(self, name: str, *args: Any, **kwargs: Any) -> None:
        self.calls.append((name, args, kwargs))

    def asked(self, name: str) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
        """The arguments of every call of method ``name``."""
        return [(args, kwargs) for called, args, kwargs in self.calls if called == name]

    @property
    def methods(self) -> list[str]:
        """The methods called, in order."""
        return [name for name, _, _ in self.calls]

    # -- the reads ---------------------------------------------------------------------

    def ledger_info(self) -> Result[Any]:
        self._log("ledger_info")
        info = {
            "chain_id": 4,
            "epoch": "1",
            "ledger_version": str(LEDGER_VERSION),
            "oldest_ledger_version": "0",
            "ledger_timestamp": "1748736000000000",
            "node_role": "full_node",
            "oldest_block_height": "0",
            "block_height": "9",
        }
        return Result(decode_ledger_info(_body(info)), _meta())

    def account(self, address: str | Address, *, ledger_version: int | None = None) -> Result[Any]:
        self._log("account", address, ledger_version=ledger_version)
        if Address.parse(str(address)).long != ALICE:
            raise AccountNotFoundError(
                "Account not found", status=404, error_code="account_not_found", ledger=_meta()
            )
        body = {"sequence_number": "3", "authentication_key": ALICE}
        return Result(decode_account(_body(body)), _meta())

    def account_assets(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        assets: Iterable[str | Address] = (),
        resources: Sequence[Any] | None = None,
    ) -> list[Holding]:
        if resources is None:
            self._log("account_assets", address, ledger_version=ledger_version)
        else:
            types = [r.type for r in resources]
            self._log("account_assets", address, ledger_version=ledger_version, resources=types)
        return [APT_HOLDING, LDT_HOLDING] if Address.parse(str(address)).long == ALICE else []

    def account_resources(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        start: str | None = None,
        limit: int | None = None,
    ) -> Result[Any]:
        self._log(
            "account_resources", address, ledger_version=ledger_version, start=start, limit=limit
        )
        held = {ALICE: RESOURCES, OLD: [OLD_METADATA]}.get(Address.parse(str(address)).long, [])
        first = int(start or 0)
        last = first + min(limit or RESOURCES_PAGE, RESOURCES_PAGE)
        cursor = str(last) if last < len(held) else None
        return Result(decode_resources(_body(held[first:last])), _meta(cursor))

    def account_modules(
        self,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        start: str | None = None,
        limit: int | None = None,
    ) -> Result[Any]:
        self._log(
            "account_modules", address, ledger_version=ledger_version, start=start, limit=limit
        )
        published = [LEDGER_DEMO] if Address.parse(str(address)).short == "0x1" else []
        return Result(decode_modules(_body(published)), _meta())

    def account_module(
        self, address: str | Address, module_name: str, *, ledger_version: int | None = None
    ) -> Result[Any]:
        self._log("account_module", address, module_name)
        if Address.parse(str(address)).short == "0x1" and module_name == "ledger_demo":
            return Result(decode_module(_body(LEDGER_DEMO)), _meta())
        if Address.parse(str(address)).short == "0x1" and module_name == "fungible_asset":
            return Result(decode_module(_body(FUNGIBLE_ASSET)), _meta())
        raise MoveModuleNotFoundError(
            f"Module not found: {address}::{module_name}",
            status=404,
            error_code="module_not_found",
            ledger=_meta(),
        )

    def account_transactions(
        self, address: str | Address, *, start: int | None = None, limit: int | None = None
    ) -> Result[Any]:
        self._log("account_transactions", address, start=start, limit=limit)
        first = start or 0
        sent = [t for t in TRANSACTIONS if first <= int(t["sequence_number"])]
        return Result(decode_transactions(_body(sent[: limit or 25])), _meta())

    def events_by_creation_number(
        self,
        address: str | Address,
        creation_number: int,
        *,
        start: int | None = None,
        limit: int | None = None,
    ) -> Result[Any]:
        self._log("events_by_creation_number", address, creation_number, start=start, limit=limit)
        stream = EVENTS if creation_number == 4 else []
        first = start or 0
        return Result(decode_events(_body(stream[first : first + (limit or 25)])), _meta())

    def transactions(self, *, start: int | None = None, limit: int | None = None) -> Result[Any]:
        self._log("transactions", start=start, limit=limit)
        first = start or 0
        last = first + (limit or 25)
        page = [t for t in _ALL if first <= int(t["version"]) < last]
        return Result(decode_transactions(_body(page)), _meta())

    def transaction_by_version(self, version: int) -> Result[Any]:
        self._log("transaction_by_version", version)
        for txn in _ALL + INSPECTED:
            if int(txn["version"]) == version:
                return Result(decode_transaction(_body(txn)), _meta())
        raise TransactionNotFoundError(
            f"Transaction not found by version({version})",
            status=404,
            error_code="transaction_not_found",
            ledger=_meta(),
        )

    def transaction_by_hash(self, txn_hash: str | bytes) -> Result[Any]:
        self._log("transaction_by_hash", txn_hash)
        for txn in _ALL + INSPECTED:
            if txn["hash"] == txn_hash:
                return Result(decode_transaction(_body(txn)), _meta())
        raise TransactionNotFoundError(
            f"Transaction not found by hash({txn_hash!r})",
            status=404,
            error_code="transaction_not_found",
            ledger=_meta(),
        )

    def table_item(
        self,
        handle: str | Address,
        key_type: Any,
        value_type: Any,
        key: Any,
        *,
        ledger_version: int | None = None,
    ) -> Result[Any]:
        self._log("table_item", handle, str(key_type), str(value_type), key)
        if Address.parse(str(handle)).long == SCORES and key == PLAYER:
            return Result(str(U64_MAX), _meta())
        raise TableItemNotFoundError(
            "Table item not found", status=404, error_code="table_item_not_found", ledger=_meta()
        )

    def raw_table_item(
        self, handle: str | Address, key: bytes | str, *, ledger_version: int | None = None
    ) -> Result[bytes]:
        self._log("raw_table_item", handle, key)
        if Address.parse(str(handle)).long == SCORES and str(key) == "0x" + "5a" * 32:
            return Result(b"\xff" * 8, _meta())
        raise TableItemNotFoundError(
            "Table item not found", status=404, error_code="table_item_not_found", ledger=_meta()
        )

    def explain(self, txn: Any) -> FakeExplanation:
        self._log("explain", txn)
        return FakeExplanation(int(txn))

    def account_resource(
        self, address: str | Address, resource_type: Any, *, ledger_version: int | None = None
    ) -> Result[Any]:
        self._log("account_resource", address, str(resource_type))
        if Address.parse(str(address)).long == LDT and str(resource_type) == LDT_METADATA["type"]:
            return Result(decode_resource(_body(LDT_METADATA)), _meta())
        raise ResourceNotFoundError(
            f"Resource not found: {resource_type}",
            status=404,
            error_code="resource_not_found",
            ledger=_meta(),
        )

    def block_by_version(self, version: int, *, with_transactions: bool = False) -> Result[Any]:
        self._log("block_by_version", version)
        if not 0 <= version <= LEDGER_VERSION:
            raise BlockNotFoundError(
                f"Block not found by version({version})",
                status=404,
                error_code="block_not_found",
                ledger=_meta(),
            )
        height, first = version // 3, version // 3 * 3
        block = {
            "block_height": str(height),
            "block_hash": "0x" + f"{height:02x}" * 32,
            "block_timestamp": str(BASE_TIME + first * 1_000_000),
            "first_version": str(first),
            "last_version": str(first + 2),
        }
        return Result(decode_block(_body(block)), _meta())

    # -- the activity ------------------------------------------------------------------

    def account_activity(
        self,
        address: str | Address,
        *,
        start_version: int | None = None,
        end_version: int | None = None,
        progress: bool | None = None,
    ) -> Any:
        self._log(
            "account_activity",
            address,
            start_version=start_version,
            end_version=end_version,
            progress=progress,
        )
        first = 0 if start_version is None else start_version + 1
        last = LEDGER_VERSION if end_version is None else end_version
        mine = ACTIVITY if Address.parse(str(address)).long == ALICE else []
        return _activity_frame([row for row in mine if first <= row[0] <= last])
