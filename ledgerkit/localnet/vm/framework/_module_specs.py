"""The framework's modules at ``0x1``, declared: structs, functions and their ABIs.

Names, fields and abilities follow the Aptos framework where a module of the same name
exists there (``account``, ``coin``, ``fungible_asset``, ``object``...), trimmed to what
the embedded node executes. ``transaction_fee::BurnedFees`` and ``ledger_demo`` are this
node's own: the first keeps the running total of burned fees (so supply accounting can be
checked at any version), the second is a demo app with tables and events.
"""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.vm.framework._abi import FunctionSpec, ModuleSpec, StructSpec
from ledgerkit.localnet.vm.framework._account_specs import ACCOUNT
from ledgerkit.localnet.vm.framework._asset_api_specs import (
    APTOS_ACCOUNT_API,
    COIN_API,
    DISPATCHABLE_FUNGIBLE_ASSET,
    FUNGIBLE_ASSET_API,
    FUNGIBLE_ASSET_STRUCTS,
    PRIMARY_FUNGIBLE_STORE_API,
)
from ledgerkit.localnet.vm.framework._code_specs import CODE_MODULES
from ledgerkit.localnet.vm.framework._coin_specs import (
    AGGREGATOR,
    MANAGED_COIN,
    OPTIONAL_AGGREGATOR,
)
from ledgerkit.localnet.vm.framework._multisig_specs import MULTISIG_ACCOUNT
from ledgerkit.localnet.vm.framework._public_specs import (
    EVENT_PUBLIC,
    GUID_PUBLIC,
    OBJECT_PUBLIC,
    TRANSACTION_CONTEXT,
    TYPE_INFO_PUBLIC,
    merged,
)
from ledgerkit.localnet.vm.framework._system_specs import (
    COMMIT_HISTORY_STRUCT,
    RANDOMNESS,
    STAKE,
    STATE_STORAGE,
    TABLE_WITH_LENGTH,
)
from ledgerkit.localnet.vm.framework._token_objects_specs import TOKEN_OBJECT_MODULES
from ledgerkit.localnet.vm.framework._token_v1_specs import TOKEN_V1_MODULES

__all__ = ["MODULES"]

KEY: Final = ("key",)
STORE: Final = ("store",)
DROP_STORE: Final = ("drop", "store")
COPY_DROP_STORE: Final = ("copy", "drop", "store")
ANY: Final = ((),)  # one generic parameter without constraints
KEYED: Final = (("key",),)  # one generic parameter with `key`

S = StructSpec


def F(  # noqa: N802 - a constructor-like shorthand for the declarations below
    name: str,
    params: tuple[str, ...] = (),
    returns: tuple[str, ...] = (),
    *,
    generics: tuple[tuple[str, ...], ...] = (),
    entry: bool = False,
    view: bool = False,
    visibility: str = "public",
) -> FunctionSpec:
    return FunctionSpec(name, params, returns, generics, entry, view, visibility)


def by_name(*functions: FunctionSpec) -> tuple[FunctionSpec, ...]:
    """Functions in the order an ABI lists them (by name)."""
    return tuple(sorted(functions, key=lambda f: f.name))


def by_struct_name(*structs: StructSpec) -> tuple[StructSpec, ...]:
    return tuple(sorted(structs, key=lambda s: s.name))


def handle(event: str) -> str:
    return f"0x1::event::EventHandle<{event}>"


def entry(name: str, *params: str, generics: tuple[tuple[str, ...], ...] = ()) -> FunctionSpec:
    return F(name, params, generics=generics, entry=True)


def view(
    name: str, params: tuple[str, ...], returns: str, generics: tuple[tuple[str, ...], ...] = ()
) -> FunctionSpec:
    return F(name, params, (returns,), generics=generics, view=True)


APTOS_ACCOUNT = ModuleSpec(
    "aptos_account",
    functions=by_name(
        entry("batch_transfer", "&signer", "vector<address>", "vector<u64>"),
        entry("create_account", "address"),
        entry("transfer", "&signer", "address", "u64"),
        entry("transfer_coins", "&signer", "address", "u64", generics=ANY),
        *APTOS_ACCOUNT_API,
    ),
)

COIN = ModuleSpec(
    "coin",
    structs=(
        S("BurnCapability", ("copy", "store"), (("dummy_field", "bool"),), ANY),
        S("Coin", STORE, (("value", "u64"),), ANY),
        S(
            "CoinInfo",
            KEY,
            (
                ("name", "0x1::string::String"),
                ("symbol", "0x1::string::String"),
                ("decimals", "u8"),
                ("supply", "0x1::option::Option<0x1::optional_aggregator::OptionalAggregator>"),
            ),
            ANY,
        ),
        S(
            "CoinStore",
            KEY,
            (
                ("coin", "0x1::coin::Coin<T0>"),
                ("frozen", "bool"),
                ("deposit_events", handle("0x1::coin::DepositEvent")),
                ("withdraw_events", handle("0x1::coin::WithdrawEvent")),
            ),
            ANY,
        ),
        S("DepositEvent", DROP_STORE, (("amount", "u64"),)),
        S("FreezeCapability", ("copy", "store"), (("dummy_field", "bool"),), ANY),
        S("MintCapability", ("copy", "store"), (("dummy_field", "bool"),), ANY),
        S(
            "PairCreation",
            DROP_STORE,
            (
                ("coin_type", "0x1::type_info::TypeInfo"),
                ("fungible_asset_metadata_address", "address"),
            ),
            is_event=True,
        ),
        S("PairedCoinType", KEY, (("type", "0x1::type_info::TypeInfo"),)),
        S("WithdrawEvent", DROP_STORE, (("amount", "u64"),)),
    ),
    functions=by_name(
        view("balance", ("address",), "u64", ANY),
        view("coin_supply", (), "0x1::option::Option<u128>", ANY),
        view("decimals", (), "u8", ANY),
        view("is_account_registered", ("address",), "bool", ANY),
        view("name", (), "0x1::string::String", ANY),
        view(
            "paired_coin",
            ("0x1::object::Object<0x1::fungible_asset::Metadata>",),
            "0x1::option::Option<0x1::type_info::TypeInfo>",
        ),
        view(
            "paired_metadata",
            (),
            "0x1::option::Option<0x1::object::Object<0x1::fungible_asset::Metadata>>",
            ANY,
        ),
        view("supply", (), "0x1::option::Option<u128>", ANY),
        view("symbol", (), "0x1::string::String", ANY),
        entry("transfer", "&signer", "address", "u64", generics=ANY),
        *COIN_API,
    ),
    friends=("0x1::aptos_account",),
)

APTOS_COIN = ModuleSpec("aptos_coin", structs=(S("AptosCoin", KEY, (("dummy_field", "bool"),)),))

FUNGIBLE_ASSET = ModuleSpec(
    "fungible_asset",
    structs=by_struct_name(
        S(
            "ConcurrentSupply",
            KEY,
            (("current", "0x1::aggregator_v2::Aggregator<u128>"),),
        ),
        S("Deposit", DROP_STORE, (("store", "address"), ("amount", "u64")), is_event=True),
        S(
            "FungibleStore",
            KEY,
            (
                ("metadata", "0x1::object::Object<0x1::fungible_asset::Metadata>"),
                ("balance", "u64"),
                ("frozen", "bool"),
            ),
        ),
        S(
            "Metadata",
            KEY,
            (
                ("name", "0x1::string::String"),
                ("symbol", "0x1::string::String"),
                ("decimals", "u8"),
                ("icon_uri", "0x1::string::String"),
                ("project_uri", "0x1::string::String"),
            ),
        ),
        S("Supply", KEY, (("current", "u128"), ("maximum", "0x1::option::Option<u128>"))),
        S("Withdraw", DROP_STORE, (("store", "address"), ("amount", "u64")), is_event=True),
        *FUNGIBLE_ASSET_STRUCTS,
    ),
    functions=by_name(
        view("balance", ("0x1::object::Object<T0>",), "u64", KEYED),
        view("decimals", ("0x1::object::Object<T0>",), "u8", KEYED),
        view("is_frozen", ("0x1::object::Object<T0>",), "bool", KEYED),
        view("maximum", ("0x1::object::Object<T0>",), "0x1::option::Option<u128>", KEYED),
        view("name", ("0x1::object::Object<T0>",), "0x1::string::String", KEYED),
        view(
            "store_metadata",
            ("0x1::object::Object<T0>",),
            "0x1::object::Object<0x1::fungible_asset::Metadata>",
            KEYED,
        ),
        view("supply", ("0x1::object::Object<T0>",), "0x1::option::Option<u128>", KEYED),
        view("symbol", ("0x1::object::Object<T0>",), "0x1::string::String", KEYED),
        *FUNGIBLE_ASSET_API,
    ),
    friends=("0x1::coin", "0x1::primary_fungible_store"),
)

PRIMARY_FUNGIBLE_STORE = ModuleSpec(
    "primary_fungible_store",
    structs=by_struct_name(
        S("DeriveRefPod", KEY, (("metadata_derive_ref", "0x1::object::DeriveRef"),)),
    ),
    functions=by_name(
        view("balance", ("address", "0x1::object::Object<T0>"), "u64", KEYED),
        view("primary_store_address", ("address", "0x1::object::Object<T0>"), "address", KEYED),
        view("primary_store_exists", ("address", "0x1::object::Object<T0>"), "bool", KEYED),
        entry("transfer", "&signer", "0x1::object::Object<T0>", "address", "u64", generics=KEYED),
        *PRIMARY_FUNGIBLE_STORE_API,
    ),
)

OBJECT_REFS: Final = ("DeleteRef", "ExtendRef", "TransferRef", "DeriveRef")
TRANSFER_FIELDS: Final = (("object", "address"), ("from", "address"), ("to", "address"))

OBJECT = ModuleSpec(
    "object",
    structs=(
        S("Object", ("copy", "drop", "store"), (("inner", "address"),), ANY),
        S(
            "ObjectCore",
            KEY,
            (
                ("guid_creation_num", "u64"),
                ("owner", "address"),
                ("allow_ungated_transfer", "bool"),
                ("transfer_events", handle("0x1::object::TransferEvent")),
            ),
        ),
        S("TombStone", KEY, (("original_owner", "address"),)),
        S("Untransferable", KEY, (("dummy_field", "bool"),)),
        S("ObjectGroup", (), (("dummy_field", "bool"),)),
        S("ConstructorRef", ("drop",), (("self", "address"), ("can_delete", "bool"))),
        *(S(ref, DROP_STORE, (("self", "address"),)) for ref in OBJECT_REFS),
        S("LinearTransferRef", ("drop",), (("self", "address"), ("owner", "address"))),
        S("TransferEvent", DROP_STORE, TRANSFER_FIELDS),
        S("Transfer", DROP_STORE, TRANSFER_FIELDS, is_event=True),
    ),
    functions=merged(
        OBJECT_PUBLIC,
        entry("burn", "&signer", "0x1::object::Object<T0>", generics=KEYED),
        view("is_burnt", ("0x1::object::Object<T0>",), "bool", KEYED),
        F("is_object", ("address",), ("bool",)),
        view("is_owner", ("0x1::object::Object<T0>", "address"), "bool", KEYED),
        view("is_untransferable", ("0x1::object::Object<T0>",), "bool", KEYED),
        view("owner", ("0x1::object::Object<T0>",), "address", KEYED),
        view("owns", ("0x1::object::Object<T0>", "address"), "bool", KEYED),
        view("root_owner", ("0x1::object::Object<T0>",), "address", KEYED),
        entry("transfer", "&signer", "0x1::object::Object<T0>", "address", generics=KEYED),
        entry("transfer_call", "&signer", "address", "address"),
        entry(
            "transfer_to_object",
            "&signer",
            "0x1::object::Object<T0>",
            "0x1::object::Object<T1>",
            generics=(("key",), ("key",)),
        ),
        entry("unburn", "&signer", "0x1::object::Object<T0>", generics=KEYED),
    ),
)

EVENT = ModuleSpec(
    "event",
    structs=(S("EventHandle", STORE, (("counter", "u64"), ("guid", "0x1::guid::GUID")), ANY),),
    functions=merged(
        EVENT_PUBLIC,
        F("counter", ("&0x1::event::EventHandle<T0>",), ("u64",), generics=(("drop", "store"),)),
    ),
)

GUID = ModuleSpec(
    "guid",
    structs=(
        S("GUID", DROP_STORE, (("id", "0x1::guid::ID"),)),
        S("ID", COPY_DROP_STORE, (("creation_num", "u64"), ("addr", "address"))),
    ),
    functions=merged(GUID_PUBLIC, F("creation_num", ("&0x1::guid::GUID",), ("u64",))),
)

STRING = ModuleSpec(
    "string",
    structs=(S("String", COPY_DROP_STORE, (("bytes", "vector<u8>"),)),),
    functions=(
        F("length", ("&0x1::string::String",), ("u64",)),
        F("utf8", ("vector<u8>",), ("0x1::string::String",)),
    ),
)

OPTION = ModuleSpec(
    "option",
    structs=(S("Option", COPY_DROP_STORE, (("vec", "vector<T0>"),), ANY),),
    functions=(F("is_some", ("&0x1::option::Option<T0>",), ("bool",), generics=ANY),),
)

TABLE = ModuleSpec(
    "table",
    structs=(S("Table", STORE, (("handle", "address"),), (("copy", "drop"), ())),),
    functions=(
        F(
            "contains",
            ("&0x1::table::Table<T0, T1>", "T0"),
            ("bool",),
            generics=(("copy", "drop"), ()),
        ),
    ),
)

AGGREGATOR_V2 = ModuleSpec(
    "aggregator_v2",
    structs=(
        S("Aggregator", DROP_STORE, (("value", "T0"), ("max_value", "T0")), (("drop",),)),
        S("AggregatorSnapshot", DROP_STORE, (("value", "T0"),), ANY),
        S(
            "DerivedStringSnapshot",
            DROP_STORE,
            (("value", "0x1::string::String"), ("padding", "vector<u8>")),
        ),
    ),
)

TYPE_INFO = ModuleSpec(
    "type_info",
    structs=(
        S(
            "TypeInfo",
            COPY_DROP_STORE,
            (
                ("account_address", "address"),
                ("module_name", "vector<u8>"),
                ("struct_name", "vector<u8>"),
            ),
        ),
    ),
    functions=TYPE_INFO_PUBLIC,
)

TIMESTAMP = ModuleSpec(
    "timestamp",
    structs=(S("CurrentTimeMicroseconds", KEY, (("microseconds", "u64"),)),),
    functions=(view("now_microseconds", (), "u64"), view("now_seconds", (), "u64")),
)

BLOCK = ModuleSpec(
    "block",
    structs=(
        S(
            "BlockResource",
            KEY,
            (
                ("height", "u64"),
                ("epoch_interval", "u64"),
                ("new_block_events", handle("0x1::block::NewBlockEvent")),
                ("update_epoch_interval_events", handle("0x1::block::UpdateEpochIntervalEvent")),
            ),
        ),
        COMMIT_HISTORY_STRUCT,
        S(
            "NewBlockEvent",
            COPY_DROP_STORE,
            (
                ("hash", "address"),
                ("epoch", "u64"),
                ("round", "u64"),
                ("height", "u64"),
                ("previous_block_votes_bitvec", "vector<u8>"),
                ("proposer", "address"),
                ("failed_proposer_indices", "vector<u64>"),
                ("time_microseconds", "u64"),
            ),
        ),
        S(
            "UpdateEpochIntervalEvent",
            DROP_STORE,
            (("old_epoch_interval", "u64"), ("new_epoch_interval", "u64")),
        ),
    ),
    functions=(
        view("get_current_block_height", (), "u64"),
        view("get_epoch_interval_secs", (), "u64"),
    ),
)

CHAIN_ID = ModuleSpec(
    "chain_id",
    structs=(S("ChainId", KEY, (("id", "u8"),)),),
    functions=(view("get", (), "u8"),),
)

TRANSACTION_FEE = ModuleSpec(
    "transaction_fee",
    structs=(
        S("BurnedFees", KEY, (("total", "u64"),)),
        S(
            "FeeStatement",
            DROP_STORE,
            (
                ("total_charge_gas_units", "u64"),
                ("execution_gas_units", "u64"),
                ("io_gas_units", "u64"),
                ("storage_fee_octas", "u64"),
                ("storage_fee_refund_octas", "u64"),
            ),
            is_event=True,
        ),
    ),
    functions=(view("burned", (), "u64"),),
)

#: One parameter of every kind a transaction or view argument can be, the last generic.
EVERY_KIND: Final = (
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "u256",
    "bool",
    "address",
    "vector<u8>",
    "0x1::string::String",
    "0x1::option::Option<u64>",
    "vector<vector<u64>>",
    "0x1::object::Object<0x1::fungible_asset::Metadata>",
    "0x1::ledger_demo::Point",
    "T0",
)
#: The signed integers of Move 2.
SIGNED_KINDS: Final = ("i8", "i16", "i32", "i64", "i128", "i256")

LEDGER_DEMO = ModuleSpec(
    "ledger_demo",
    structs=(
        S(
            "Board",
            KEY,
            (
                ("scores", "0x1::table::Table<address, u64>"),
                ("names", "0x1::table::Table<0x1::string::String, 0x1::ledger_demo::Profile>"),
                ("cells", "0x1::table::Table<0x1::ledger_demo::Point, u64>"),
                ("score_events", handle("0x1::ledger_demo::ScoreChanged")),
            ),
        ),
        S(
            "CellChanged",
            DROP_STORE,
            (("owner", "address"), ("x", "u64"), ("y", "u64"), ("value", "u64")),
            is_event=True,
        ),
        S("Point", COPY_DROP_STORE, (("x", "u64"), ("y", "u64"))),
        S(
            "Profile",
            COPY_DROP_STORE,
            (
                ("name", "0x1::string::String"),
                ("level", "u8"),
                ("tags", "vector<0x1::string::String>"),
            ),
        ),
        S(
            "ScoreChanged",
            DROP_STORE,
            (("player", "address"), ("old", "u64"), ("new", "u64")),
            is_event=True,
        ),
    ),
    functions=(
        entry("add_score", "&signer", "address", "u64"),
        view("board_exists", ("address",), "bool"),
        F("echo", EVERY_KIND, EVERY_KIND, generics=ANY, view=True),
        F("echo_signed", SIGNED_KINDS, SIGNED_KINDS, view=True),
        view("cell", ("address", "u64", "u64"), "u64"),
        entry("fail_if", "&signer", "u64"),
        view(
            "profile",
            ("address", "0x1::string::String"),
            "0x1::option::Option<0x1::ledger_demo::Profile>",
        ),
        view("score", ("address", "address"), "u64"),
        entry("record", "&signer", *EVERY_KIND, generics=ANY),
        entry("record_signed", "&signer", *SIGNED_KINDS),
        entry("set_cell", "&signer", "u64", "u64", "u64"),
        entry("set_profile", "&signer", "0x1::string::String", "u8", "vector<0x1::string::String>"),
        entry("set_score", "&signer", "address", "u64"),
    ),
)

NONCE_VALIDATION = ModuleSpec(
    "nonce_validation",
    structs=(
        S(
            "AccountNonces",
            KEY,
            (("entries", "vector<0x1::nonce_validation::NonceEntry>"),),
        ),
        S("NonceEntry", COPY_DROP_STORE, (("nonce", "u64"), ("expiration_time", "u64"))),
    ),
)

#: The map token v1's property maps and multisig accounts' metadata are built on.
SIMPLE_MAP: Final = ModuleSpec(
    "simple_map",
    structs=(
        S("Element", COPY_DROP_STORE, (("key", "T0"), ("value", "T1")), ((), ())),
        S(
            "SimpleMap",
            COPY_DROP_STORE,
            (("data", "vector<0x1::simple_map::Element<T0, T1>>"),),
            ((), ()),
        ),
    ),
)

#: Every framework module, in the order genesis writes them.
MODULES: Final = (
    ACCOUNT,
    AGGREGATOR,
    AGGREGATOR_V2,
    APTOS_ACCOUNT,
    APTOS_COIN,
    BLOCK,
    CHAIN_ID,
    COIN,
    DISPATCHABLE_FUNGIBLE_ASSET,
    EVENT,
    FUNGIBLE_ASSET,
    GUID,
    LEDGER_DEMO,
    MANAGED_COIN,
    MULTISIG_ACCOUNT,
    NONCE_VALIDATION,
    OBJECT,
    OPTION,
    OPTIONAL_AGGREGATOR,
    PRIMARY_FUNGIBLE_STORE,
    RANDOMNESS,
    SIMPLE_MAP,
    STAKE,
    STATE_STORAGE,
    STRING,
    TABLE,
    TABLE_WITH_LENGTH,
    TIMESTAMP,
    TRANSACTION_CONTEXT,
    TRANSACTION_FEE,
    TYPE_INFO,
    *TOKEN_V1_MODULES,
    *TOKEN_OBJECT_MODULES,
    *CODE_MODULES,
)
