"""A fake ``ReadClient`` for what the embedded node cannot answer: hand-written answers in
a public node's JSON shape, decoded by ``ledgerkit.models`` as the real client decodes
them, and a log of every call made.

Everything else the explorers' headless tests read comes from the embedded node itself,
recorded and replayed (``recorded_chain``). This fake stays for four kinds of answer no
chain of the embedded node holds:

* **pages smaller than asked**: the node serves ``RESOURCES_PAGE`` (two) resources a
  page whatever the limit, as a public node caps its pages; the embedded node serves up
  to 9,999, so an account's overview always reads its resources in one page there;
* **values past a float's reach**: ``ALICE`` holds 2**64 - 1 base units of LDT and a
  ``0x1::ledger_demo::Counter`` of 2**128 - 1; the embedded node's supplies are far
  smaller, and its framework has no ``Counter``;
* **a ``FeeStatement`` event with a storage refund**: the embedded node sends a
  statement with every user transaction too, but refunds only for deleted state, which
  the recorded chain's transactions do not delete;
* **a secondary signer**: the embedded node's framework has no entry function taking two
  signers, so it commits no multi-agent transaction.

The answers, pinned at ledger version 25:

* ``ALICE``'s account (sequence number 3), five resources (two a page) and her holdings,
  APT and 2**64 - 1 of LDT; ``0x1::ledger_demo``'s ABI types her resources; any other
  address has no account and holds nothing;
* version 12 (for the transaction inspector): ``CAROL`` sent ``BOB`` 2.5 APT and 1.5 LDT
  with ``DAVE`` as secondary signer and ``SPONSOR`` as fee payer, fee 15,100 octas of
  which 1,100 were refunded for storage (its ``FeeStatement``); its block holds versions
  12 to 14. ``0x1::fungible_asset``'s ABI types its events and changes;
  ``0x1::transaction_fee`` is not published by this fake, so its ``FeeStatement`` stays
  untyped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from ledgerkit import (
    AccountNotFoundError,
    LedgerMeta,
    MoveModuleNotFoundError,
    ResourceNotFoundError,
    Result,
    TransactionNotFoundError,
)
from ledgerkit.client import Holding
from ledgerkit.models import (
    decode_account,
    decode_block,
    decode_ledger_info,
    decode_module,
    decode_resource,
    decode_resources,
    decode_transaction,
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
BASE_TIME = 1_748_736_000_000_000

#: APT's key: its fungible-asset metadata address, long form.
APT_KEY = "0x" + "00" * 31 + "0a"

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
        ledger_timestamp_usec=BASE_TIME,
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

#: The part of ``0x1::ledger_demo``'s ABI that types ALICE's resources.
LEDGER_DEMO = {
    "bytecode": "0xa11ceb0b",
    "abi": {
        "address": "0x1",
        "name": "ledger_demo",
        "friends": [],
        "exposed_functions": [],
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


# -- what the transaction inspector reads -------------------------------------------------

CAROL = "0x" + "c0" * 32
DAVE = "0x" + "d0" * 32
SPONSOR = "0x" + "fe" * 32
APT_METADATA = "0xa"
#: The fungible stores the inspected transfer moves: (store, owner, metadata).
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


_KEY = {"type": "ed25519_signature", "public_key": "0x" + "01" * 32, "signature": "0x" + "02" * 64}

SPONSORED = {
    "type": "user_transaction",
    "version": "12",
    "hash": "0x" + "5b" * 32,
    "state_change_hash": "0x" + "22" * 32,
    "event_root_hash": "0x" + "33" * 32,
    "gas_used": "151",
    "success": True,
    "vm_status": "Executed successfully",
    "accumulator_root_hash": "0x" + "44" * 32,
    "changes": _store_writes([750_000_000, 250_000_000, 500_000, 1_500_000]),
    "sender": CAROL,
    "sequence_number": "4",
    "max_gas_amount": "2000",
    "gas_unit_price": "100",
    "expiration_timestamp_secs": "1748739600",
    "payload": {
        "type": "entry_function_payload",
        "function": "0x1::ledger_demo::pay",
        "type_arguments": [],
        "arguments": [BOB, "250000000"],
    },
    "signature": {
        "type": "fee_payer_signature",
        "sender": _KEY,
        "secondary_signer_addresses": [DAVE],
        "secondary_signers": [_KEY],
        "fee_payer_address": SPONSOR,
        "fee_payer_signer": _KEY,
    },
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


class FakeReadClient:
    """Answers the reads above; ``calls`` logs each method called, with its arguments,
    in order. A read of anything else is not one of its answers."""

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

    # -- ALICE's account -----------------------------------------------------------------

    def ledger_info(self) -> Result[Any]:
        self._log("ledger_info")
        info = {
            "chain_id": 4,
            "epoch": "1",
            "ledger_version": str(LEDGER_VERSION),
            "oldest_ledger_version": "0",
            "ledger_timestamp": str(BASE_TIME),
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
        held = RESOURCES if Address.parse(str(address)).long == ALICE else []
        first = int(start or 0)
        last = first + min(limit or RESOURCES_PAGE, RESOURCES_PAGE)
        cursor = str(last) if last < len(held) else None
        return Result(decode_resources(_body(held[first:last])), _meta(cursor))

    def account_module(
        self, address: str | Address, module_name: str, *, ledger_version: int | None = None
    ) -> Result[Any]:
        self._log("account_module", address, module_name)
        published = {"ledger_demo": LEDGER_DEMO, "fungible_asset": FUNGIBLE_ASSET}
        if Address.parse(str(address)).short == "0x1" and module_name in published:
            return Result(decode_module(_body(published[module_name])), _meta())
        raise MoveModuleNotFoundError(
            f"Module not found: {address}::{module_name}",
            status=404,
            error_code="module_not_found",
            ledger=_meta(),
        )

    # -- the sponsored transfer ----------------------------------------------------------

    def transaction_by_version(self, version: int) -> Result[Any]:
        self._log("transaction_by_version", version)
        if version != int(SPONSORED["version"]):
            raise TransactionNotFoundError(
                f"Transaction not found by version({version})",
                status=404,
                error_code="transaction_not_found",
                ledger=_meta(),
            )
        return Result(decode_transaction(_body(SPONSORED)), _meta())

    def block_by_version(self, version: int, *, with_transactions: bool = False) -> Result[Any]:
        self._log("block_by_version", version)
        height, first = version // 3, version // 3 * 3
        block = {
            "block_height": str(height),
            "block_hash": "0x" + f"{height:02x}" * 32,
            "block_timestamp": str(BASE_TIME + first * 1_000_000),
            "first_version": str(first),
            "last_version": str(first + 2),
        }
        return Result(decode_block(_body(block)), _meta())

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
