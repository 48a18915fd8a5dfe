"""The token standard v1 at ``0x3`` (``aptos-token``), declared.

Modules ``token``, ``token_transfers``, ``property_map`` and ``token_event_store`` with
their structs in the framework's shapes and field order (``TokenStore``, ``Collections``,
``CollectionData``, ``TokenData``, ``Token``, ``TokenId``, ``PendingClaims``, the property
map of ``0x3``, the event structs) and the functions the embedded node runs: the entry
functions, the one view, and the public functions a caller may want to see. The event
structs the framework emits today as module events carry ``is_event``; the structs of the
event handles (``DepositEvent``...) do not, and nothing is emitted to those handles.
The property map is built on ``0x1::simple_map`` (declared with the ``0x1`` modules).
"""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.vm.framework._abi import FunctionSpec, ModuleSpec, StructSpec
from ledgerkit.types import Address

__all__ = ["TOKEN_V1_MODULES"]

_AT3: Final = Address.from_int(3)
_STR: Final = "0x1::string::String"
_TOKEN_ID: Final = "0x3::token::TokenId"
_DATA_ID: Final = "0x3::token::TokenDataId"
_PROPERTY_MAP: Final = "0x3::property_map::PropertyMap"
_TOKEN_MUT: Final = "0x3::token::TokenMutabilityConfig"
_KEY: Final = ("key",)
_STORE: Final = ("store",)
_DROP_STORE: Final = ("drop", "store")
_COPY_DROP_STORE: Final = ("copy", "drop", "store")


def _handle(event: str) -> str:
    return f"0x1::event::EventHandle<{event}>"


def _table(key: str, value: str) -> str:
    return f"0x1::table::Table<{key}, {value}>"


def _event(name: str, fields: tuple[tuple[str, str], ...], *, module_event: bool) -> StructSpec:
    return StructSpec(name, _DROP_STORE, fields, is_event=module_event)


def _entry(name: str, *params: str) -> FunctionSpec:
    return FunctionSpec(name, params, entry=True)


def _public(name: str, params: tuple[str, ...], returns: tuple[str, ...] = ()) -> FunctionSpec:
    return FunctionSpec(name, params, returns)


_ID_AMOUNT: Final = (("id", _TOKEN_ID), ("amount", "u64"))
_ACCOUNT_ID_AMOUNT: Final = (("account", "address"), *_ID_AMOUNT)
_TOKEN_DATA_FIELDS: Final = (
    ("id", _DATA_ID),
    ("description", _STR),
    ("maximum", "u64"),
    ("uri", _STR),
    ("royalty_payee_address", "address"),
    ("royalty_points_denominator", "u64"),
    ("royalty_points_numerator", "u64"),
    ("name", _STR),
    ("mutability_config", _TOKEN_MUT),
    ("property_keys", f"vector<{_STR}>"),
    ("property_values", "vector<vector<u8>>"),
    ("property_types", f"vector<{_STR}>"),
)
_MUTATE_FIELDS: Final = (
    ("old_id", _TOKEN_ID),
    ("new_id", _TOKEN_ID),
    ("keys", f"vector<{_STR}>"),
    ("values", "vector<vector<u8>>"),
    ("types", f"vector<{_STR}>"),
)
_COLLECTION_EVENT_FIELDS: Final = (
    ("creator", "address"),
    ("collection_name", _STR),
    ("uri", _STR),
    ("description", _STR),
    ("maximum", "u64"),
)

_TOKEN_STRUCTS: Final = (
    _event("Burn", _ACCOUNT_ID_AMOUNT, module_event=True),
    _event("BurnToken", _ID_AMOUNT, module_event=True),
    _event("BurnTokenEvent", _ID_AMOUNT, module_event=False),
    _event("CreateCollection", _COLLECTION_EVENT_FIELDS, module_event=True),
    _event("CreateCollectionEvent", _COLLECTION_EVENT_FIELDS, module_event=False),
    _event("CreateTokenData", _TOKEN_DATA_FIELDS, module_event=True),
    _event("CreateTokenDataEvent", _TOKEN_DATA_FIELDS, module_event=False),
    StructSpec(
        "CollectionData",
        _STORE,
        (
            ("description", _STR),
            ("name", _STR),
            ("uri", _STR),
            ("supply", "u64"),
            ("maximum", "u64"),
            ("mutability_config", "0x3::token::CollectionMutabilityConfig"),
        ),
    ),
    StructSpec(
        "CollectionMutabilityConfig",
        _COPY_DROP_STORE,
        (("description", "bool"), ("uri", "bool"), ("maximum", "bool")),
    ),
    StructSpec(
        "Collections",
        _KEY,
        (
            ("collection_data", _table(_STR, "0x3::token::CollectionData")),
            ("token_data", _table(_DATA_ID, "0x3::token::TokenData")),
            ("create_collection_events", _handle("0x3::token::CreateCollectionEvent")),
            ("create_token_data_events", _handle("0x3::token::CreateTokenDataEvent")),
            ("mint_token_events", _handle("0x3::token::MintTokenEvent")),
        ),
    ),
    _event("Deposit", _ID_AMOUNT, module_event=True),
    _event("DepositEvent", _ID_AMOUNT, module_event=False),
    _event(
        "Mint", (("creator", "address"), ("id", _DATA_ID), ("amount", "u64")), module_event=True
    ),
    _event("MintToken", (("id", _DATA_ID), ("amount", "u64")), module_event=True),
    _event("MintTokenEvent", (("id", _DATA_ID), ("amount", "u64")), module_event=False),
    _event("MutatePropertyMap", (("account", "address"), *_MUTATE_FIELDS), module_event=True),
    _event("MutateTokenPropertyMap", _MUTATE_FIELDS, module_event=True),
    _event("MutateTokenPropertyMapEvent", _MUTATE_FIELDS, module_event=False),
    StructSpec(
        "Royalty",
        _COPY_DROP_STORE,
        (
            ("royalty_points_numerator", "u64"),
            ("royalty_points_denominator", "u64"),
            ("payee_address", "address"),
        ),
    ),
    StructSpec(
        "Token",
        _STORE,
        (("id", _TOKEN_ID), ("amount", "u64"), ("token_properties", _PROPERTY_MAP)),
    ),
    StructSpec(
        "TokenData",
        _STORE,
        (
            ("maximum", "u64"),
            ("largest_property_version", "u64"),
            ("supply", "u64"),
            ("uri", _STR),
            ("royalty", "0x3::token::Royalty"),
            ("name", _STR),
            ("description", _STR),
            ("default_properties", _PROPERTY_MAP),
            ("mutability_config", _TOKEN_MUT),
        ),
    ),
    _event("TokenDataCreation", (("creator", "address"), *_TOKEN_DATA_FIELDS), module_event=True),
    StructSpec(
        "TokenDataId",
        _COPY_DROP_STORE,
        (("creator", "address"), ("collection", _STR), ("name", _STR)),
    ),
    _event("TokenDeposit", _ACCOUNT_ID_AMOUNT, module_event=True),
    StructSpec(
        "TokenId",
        ("copy", "drop", "store"),
        (("token_data_id", _DATA_ID), ("property_version", "u64")),
    ),
    StructSpec(
        "TokenMutabilityConfig",
        _COPY_DROP_STORE,
        (
            ("maximum", "bool"),
            ("uri", "bool"),
            ("royalty", "bool"),
            ("description", "bool"),
            ("properties", "bool"),
        ),
    ),
    StructSpec(
        "TokenStore",
        _KEY,
        (
            ("tokens", _table(_TOKEN_ID, "0x3::token::Token")),
            ("direct_transfer", "bool"),
            ("deposit_events", _handle("0x3::token::DepositEvent")),
            ("withdraw_events", _handle("0x3::token::WithdrawEvent")),
            ("burn_events", _handle("0x3::token::BurnTokenEvent")),
            ("mutate_token_property_events", _handle("0x3::token::MutateTokenPropertyMapEvent")),
        ),
    ),
    _event("TokenWithdraw", _ACCOUNT_ID_AMOUNT, module_event=True),
    _event("Withdraw", _ID_AMOUNT, module_event=True),
    StructSpec(
        "WithdrawCapability",
        _DROP_STORE,
        (
            ("token_owner", "address"),
            ("token_id", _TOKEN_ID),
            ("amount", "u64"),
            ("expiration_sec", "u64"),
        ),
    ),
    _event("WithdrawEvent", _ID_AMOUNT, module_event=False),
)

_TOKEN_FUNCTIONS: Final = (
    _public("balance_of", ("address", _TOKEN_ID), ("u64",)),
    _entry("burn", "&signer", "address", _STR, _STR, "u64", "u64"),
    _entry("burn_by_creator", "&signer", "address", _STR, _STR, "u64", "u64"),
    _entry("create_collection_script", "&signer", _STR, _STR, _STR, "u64", "vector<bool>"),
    _public("create_token_data_id", ("address", _STR, _STR), (_DATA_ID,)),
    _public("create_token_id_raw", ("address", _STR, _STR, "u64"), (_TOKEN_ID,)),
    _entry(
        "create_token_script",
        "&signer",
        _STR,
        _STR,
        _STR,
        "u64",
        "u64",
        _STR,
        "address",
        "u64",
        "u64",
        "vector<bool>",
        f"vector<{_STR}>",
        "vector<vector<u8>>",
        f"vector<{_STR}>",
    ),
    _entry("direct_transfer_script", "&signer", "&signer", "address", _STR, _STR, "u64", "u64"),
    FunctionSpec(
        "get_collection_mutability_config",
        ("address", _STR),
        ("0x3::token::CollectionMutabilityConfig",),
        view=True,
    ),
    _public("get_direct_transfer", ("address",), ("bool",)),
    _public("has_token_store", ("address",), ("bool",)),
    _entry("initialize_token_script", "&signer"),
    _entry("mint_script", "&signer", "address", _STR, _STR, "u64"),
    _entry(
        "mutate_token_properties",
        "&signer",
        "address",
        "address",
        _STR,
        _STR,
        "u64",
        "u64",
        f"vector<{_STR}>",
        "vector<vector<u8>>",
        f"vector<{_STR}>",
    ),
    _entry("opt_in_direct_transfer", "&signer", "bool"),
    _entry("transfer_with_opt_in", "&signer", "address", _STR, _STR, "u64", "address", "u64"),
)

TOKEN: Final = ModuleSpec("token", structs=_TOKEN_STRUCTS, functions=_TOKEN_FUNCTIONS, address=_AT3)

_TRANSFER_FIELDS: Final = (("to_address", "address"), ("token_id", _TOKEN_ID), ("amount", "u64"))
_ACCOUNT_TRANSFER_FIELDS: Final = (("account", "address"), *_TRANSFER_FIELDS)

TOKEN_TRANSFERS: Final = ModuleSpec(
    "token_transfers",
    structs=(
        _event("CancelOffer", _ACCOUNT_TRANSFER_FIELDS, module_event=True),
        _event("Claim", _ACCOUNT_TRANSFER_FIELDS, module_event=True),
        _event("Offer", _ACCOUNT_TRANSFER_FIELDS, module_event=True),
        StructSpec(
            "PendingClaims",
            _KEY,
            (
                (
                    "pending_claims",
                    _table("0x3::token_transfers::TokenOfferId", "0x3::token::Token"),
                ),
                ("offer_events", _handle("0x3::token_transfers::TokenOfferEvent")),
                ("cancel_offer_events", _handle("0x3::token_transfers::TokenCancelOfferEvent")),
                ("claim_events", _handle("0x3::token_transfers::TokenClaimEvent")),
            ),
        ),
        _event("TokenCancelOffer", _TRANSFER_FIELDS, module_event=True),
        _event("TokenCancelOfferEvent", _TRANSFER_FIELDS, module_event=True),
        _event("TokenClaim", _TRANSFER_FIELDS, module_event=True),
        _event("TokenClaimEvent", _TRANSFER_FIELDS, module_event=True),
        _event("TokenOffer", _TRANSFER_FIELDS, module_event=True),
        _event("TokenOfferEvent", _TRANSFER_FIELDS, module_event=True),
        StructSpec(
            "TokenOfferId",
            _COPY_DROP_STORE,
            (("to_addr", "address"), ("token_id", _TOKEN_ID)),
            is_event=True,
        ),
    ),
    functions=(
        _entry("cancel_offer_script", "signer", "address", "address", _STR, _STR, "u64"),
        _entry("claim_script", "signer", "address", "address", _STR, _STR, "u64"),
        _entry("offer_script", "signer", "address", "address", _STR, _STR, "u64", "u64"),
    ),
    address=_AT3,
)

PROPERTY_MAP: Final = ModuleSpec(
    "property_map",
    structs=(
        StructSpec(
            "PropertyMap",
            _COPY_DROP_STORE,
            (
                (
                    "map",
                    f"0x1::simple_map::SimpleMap<{_STR}, 0x3::property_map::PropertyValue>",
                ),
            ),
        ),
        StructSpec("PropertyValue", _COPY_DROP_STORE, (("value", "vector<u8>"), ("type", _STR))),
    ),
    functions=(
        _public("contains_key", (f"&{_PROPERTY_MAP}", f"&{_STR}"), ("bool",)),
        _public("empty", (), (_PROPERTY_MAP,)),
        _public("length", (f"&{_PROPERTY_MAP}",), ("u64",)),
        _public(
            "new",
            (f"vector<{_STR}>", "vector<vector<u8>>", f"vector<{_STR}>"),
            (_PROPERTY_MAP,),
        ),
        _public("read_bool", (f"&{_PROPERTY_MAP}", f"&{_STR}"), ("bool",)),
    ),
    address=_AT3,
)

TOKEN_EVENT_STORE: Final = ModuleSpec(
    "token_event_store",
    structs=(
        _event(
            "OptInTransfer", (("account_address", "address"), ("opt_in", "bool")), module_event=True
        ),
        _event("OptInTransferEvent", (("opt_in", "bool"),), module_event=False),
    ),
    friends=("0x3::token",),
    address=_AT3,
)


#: ``0x3``'s modules, in the order genesis writes them.
TOKEN_V1_MODULES: Final = (PROPERTY_MAP, TOKEN, TOKEN_EVENT_STORE, TOKEN_TRANSFERS)
