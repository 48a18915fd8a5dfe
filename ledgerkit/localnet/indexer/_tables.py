"""The indexer's tables: one definition of each table's columns, from which the SQLite
tables (:func:`create_statements`) and the GraphQL schema (``_graphql_schema``) are made.

Where the facts come from: the column names, their SQL types and which are nullable are
those of the Postgres tables of aptos-labs/aptos-indexer-processors (the Diesel schema
``rust/processor/src/db/postgres/schema.rs``), with Hasura's mapping of SQL types to
GraphQL scalars (``int8`` -> ``bigint``, ``numeric`` -> ``numeric``, ``timestamp`` ->
``timestamp``, ``jsonb`` -> ``jsonb``, ``int4`` -> ``Int``, ``varchar``/``text`` ->
``String``, ``bool`` -> ``Boolean``). The object relationships are those the hosted
indexer API declares and the TypeScript SDK's queries follow (``metadata`` of a balance
or an activity, ``current_token_data`` of an ownership, ``current_collection`` of a
token); the queries are in aptos-labs/aptos-ts-sdk, ``src/internal/queries``.

Columns are stored as SQLite sees fit: ``bigint``/``Int``/``Boolean`` as INTEGER,
``numeric`` as INTEGER (TEXT beyond 64 bits), ``timestamp`` as ISO text with six
fraction digits (so text order is time order), ``jsonb`` as JSON text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = [
    "SCALARS",
    "TABLES",
    "Column",
    "Relationship",
    "Table",
    "create_statements",
]

#: The GraphQL scalar of each column kind (Hasura's names).
SCALARS: Final = ("bigint", "numeric", "String", "Boolean", "timestamp", "jsonb", "Int")


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    scalar: str
    nullable: bool = False


@dataclass(frozen=True, slots=True)
class Relationship:
    """An object relationship: ``name`` is the row of ``table`` whose ``remote`` column
    equals this row's ``local`` column (or null)."""

    name: str
    table: str
    local: str
    remote: str


@dataclass(frozen=True, slots=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    primary_key: tuple[str, ...]
    relationships: tuple[Relationship, ...] = ()

    def column(self, name: str) -> Column | None:
        for column in self.columns:
            if column.name == name:
                return column
        return None


def _columns(spec: str) -> tuple[Column, ...]:
    """``"name scalar [?]"`` per line; ``?`` marks a nullable column."""
    made = []
    for line in spec.strip().splitlines():
        parts = line.split()
        made.append(Column(parts[0], parts[1], len(parts) > 2 and parts[2] == "?"))
    return tuple(made)


_TABLES: Final = (
    Table(
        "processor_status",
        _columns("""
            processor String
            last_success_version bigint
            last_updated timestamp
            last_transaction_timestamp timestamp ?
        """),
        ("processor",),
    ),
    Table("ledger_infos", _columns("chain_id bigint"), ("chain_id",)),
    Table(
        "account_transactions",
        _columns("""
            transaction_version bigint
            account_address String
            inserted_at timestamp
        """),
        ("account_address", "transaction_version"),
    ),
    Table(
        "user_transactions",
        _columns("""
            version bigint
            block_height bigint
            parent_signature_type String
            sender String
            sequence_number bigint
            max_gas_amount numeric
            expiration_timestamp_secs timestamp
            gas_unit_price numeric
            timestamp timestamp
            entry_function_id_str String
            inserted_at timestamp
            epoch bigint
            entry_function_contract_address String ?
            entry_function_module_name String ?
            entry_function_function_name String ?
        """),
        ("version",),
    ),
    Table(
        "fungible_asset_activities",
        _columns("""
            transaction_version bigint
            event_index bigint
            owner_address String ?
            storage_id String
            asset_type String ?
            is_frozen Boolean ?
            amount numeric ?
            type String
            is_gas_fee Boolean
            gas_fee_payer_address String ?
            is_transaction_success Boolean
            entry_function_id_str String ?
            block_height bigint
            token_standard String
            transaction_timestamp timestamp
            inserted_at timestamp
            storage_refund_amount numeric
        """),
        ("transaction_version", "event_index"),
        (Relationship("metadata", "fungible_asset_metadata", "asset_type", "asset_type"),),
    ),
    Table(
        "current_fungible_asset_balances",
        _columns("""
            storage_id String
            owner_address String
            asset_type_v2 String ?
            asset_type_v1 String ?
            is_primary Boolean
            is_frozen Boolean
            amount_v1 numeric ?
            amount_v2 numeric ?
            amount numeric
            last_transaction_version_v1 bigint ?
            last_transaction_version_v2 bigint ?
            last_transaction_version bigint ?
            last_transaction_timestamp_v1 timestamp ?
            last_transaction_timestamp_v2 timestamp ?
            last_transaction_timestamp timestamp ?
            inserted_at timestamp
            asset_type String
            token_standard String
        """),
        ("storage_id",),
        (Relationship("metadata", "fungible_asset_metadata", "asset_type", "asset_type"),),
    ),
    Table(
        "fungible_asset_metadata",
        _columns("""
            asset_type String
            creator_address String
            name String
            symbol String
            decimals Int
            icon_uri String ?
            project_uri String ?
            last_transaction_version bigint
            last_transaction_timestamp timestamp
            supply_aggregator_table_handle_v1 String ?
            supply_aggregator_table_key_v1 String ?
            token_standard String
            inserted_at timestamp
            is_token_v2 Boolean ?
            supply_v2 numeric ?
            maximum_v2 numeric ?
        """),
        ("asset_type",),
    ),
    Table(
        "current_objects",
        _columns("""
            object_address String
            owner_address String
            state_key_hash String
            allow_ungated_transfer Boolean
            last_guid_creation_num numeric
            last_transaction_version bigint
            is_deleted Boolean
            inserted_at timestamp
            untransferrable Boolean
        """),
        ("object_address",),
    ),
    Table(
        "events",
        _columns("""
            sequence_number bigint
            creation_number bigint
            account_address String
            transaction_version bigint
            transaction_block_height bigint
            type String
            data jsonb
            inserted_at timestamp
            event_index bigint
            indexed_type String
        """),
        ("transaction_version", "event_index"),
    ),
    Table(
        "current_token_ownerships_v2",
        _columns("""
            token_data_id String
            property_version_v1 numeric
            owner_address String
            storage_id String
            amount numeric
            table_type_v1 String ?
            token_properties_mutated_v1 jsonb ?
            is_soulbound_v2 Boolean ?
            token_standard String
            is_fungible_v2 Boolean ?
            last_transaction_version bigint
            last_transaction_timestamp timestamp
            inserted_at timestamp
            non_transferrable_by_owner Boolean ?
        """),
        ("token_data_id", "property_version_v1", "owner_address", "storage_id"),
        (
            Relationship(
                "current_token_data", "current_token_datas_v2", "token_data_id", "token_data_id"
            ),
        ),
    ),
    Table(
        "current_token_datas_v2",
        _columns("""
            token_data_id String
            collection_id String
            token_name String
            maximum numeric ?
            supply numeric ?
            largest_property_version_v1 numeric ?
            token_uri String
            description String
            token_properties jsonb
            token_standard String
            is_fungible_v2 Boolean ?
            last_transaction_version bigint
            last_transaction_timestamp timestamp
            inserted_at timestamp
            decimals bigint ?
            is_deleted_v2 Boolean ?
        """),
        ("token_data_id",),
        (
            Relationship(
                "current_collection", "current_collections_v2", "collection_id", "collection_id"
            ),
        ),
    ),
    Table(
        "current_collections_v2",
        _columns("""
            collection_id String
            creator_address String
            collection_name String
            description String
            uri String
            current_supply numeric
            max_supply numeric ?
            total_minted_v2 numeric ?
            mutable_description Boolean ?
            mutable_uri Boolean ?
            table_handle_v1 String ?
            token_standard String
            last_transaction_version bigint
            last_transaction_timestamp timestamp
            inserted_at timestamp
            collection_properties jsonb ?
        """),
        ("collection_id",),
    ),
    Table(
        "token_activities_v2",
        _columns("""
            transaction_version bigint
            event_index bigint
            event_account_address String
            token_data_id String
            property_version_v1 numeric
            type String
            from_address String ?
            to_address String ?
            token_amount numeric
            before_value String ?
            after_value String ?
            entry_function_id_str String ?
            token_standard String
            is_fungible_v2 Boolean ?
            transaction_timestamp timestamp
            inserted_at timestamp
        """),
        ("transaction_version", "event_index"),
        (
            Relationship(
                "current_token_data", "current_token_datas_v2", "token_data_id", "token_data_id"
            ),
        ),
    ),
    Table(
        "current_token_pending_claims",
        _columns("""
            token_data_id_hash String
            property_version numeric
            from_address String
            to_address String
            collection_data_id_hash String
            creator_address String
            collection_name String
            name String
            amount numeric
            table_handle String
            last_transaction_version bigint
            inserted_at timestamp
            last_transaction_timestamp timestamp
            token_data_id String
            collection_id String
        """),
        ("token_data_id_hash", "property_version", "from_address", "to_address"),
        (
            Relationship(
                "current_token_data_v2", "current_token_datas_v2", "token_data_id", "token_data_id"
            ),
            Relationship(
                "current_collection_v2", "current_collections_v2", "collection_id", "collection_id"
            ),
        ),
    ),
)

#: The tables by name, in the order above.
TABLES: Final = {table.name: table for table in _TABLES}

_SQLITE_TYPES: Final = {
    "bigint": "INTEGER",
    "Int": "INTEGER",
    "Boolean": "INTEGER",
    "numeric": "",  # INTEGER, or TEXT beyond 64 bits (no affinity: kept as given)
    "String": "TEXT",
    "timestamp": "TEXT",
    "jsonb": "TEXT",
}

#: Extra indexes for the lookups the SDKs make (by owner, by account).
_INDEXES: Final = (
    ("account_transactions", ("account_address", "transaction_version")),
    ("fungible_asset_activities", ("owner_address", "transaction_version")),
    ("current_fungible_asset_balances", ("owner_address",)),
    ("current_objects", ("owner_address",)),
    ("events", ("account_address", "creation_number", "sequence_number")),
    ("current_token_ownerships_v2", ("owner_address",)),
    ("current_token_pending_claims", ("to_address",)),
)


def create_statements() -> list[str]:
    """The ``CREATE TABLE IF NOT EXISTS`` (and index) statements of every table."""
    statements = []
    for table in _TABLES:
        columns = [
            f'"{c.name}" {_SQLITE_TYPES[c.scalar]}{"" if c.nullable else " NOT NULL"}'.replace(
                "  ", " "
            )
            for c in table.columns
        ]
        key = ", ".join(f'"{name}"' for name in table.primary_key)
        statements.append(
            f'CREATE TABLE IF NOT EXISTS "{table.name}" ({", ".join(columns)}, PRIMARY KEY ({key}))'
        )
    for name, indexed in _INDEXES:
        listed = ", ".join(f'"{c}"' for c in indexed)
        statements.append(
            f'CREATE INDEX IF NOT EXISTS "{name}_by_{"_".join(indexed)}" ON "{name}" ({listed})'
        )
    return statements
