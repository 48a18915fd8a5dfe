"""Exact pandas DataFrames from ledger records: ``<thing>_to_frame`` converters, their
column schemas, and derivations (fees, per-block, per-time and activity tables).

Pure functions, no I/O: they take what the client returns (a result, the records of
:mod:`ledgerkit.models`, a page's bytes or the API's raw JSON; ``transactions_to_frame``
reads a page's bytes field by field) and refuse anything else with an
:class:`~ledgerkit.InputError`; they give
frames whose columns and dtypes are the module constants ``*_COLUMNS``, the same for
empty input. Integers stay exact: u64 is ``UInt64``, u128
and u256 fixed-width decimal text, a signed amount (a balance change) an Arrow
``decimal128(20, 0)`` (:data:`SIGNED_AMOUNT`); see ``docs/frames.md`` for the whole contract.
Importing this package registers the ``DataFrame.ledger`` accessor.

Examples
--------
>>> from ledgerkit.frames import transactions_to_frame
>>> frame = transactions_to_frame(client.transactions(start=0, limit=100))  # doctest: +SKIP
>>> frame.ledger.blocks()  # doctest: +SKIP
"""

from __future__ import annotations

from ledgerkit import models as _models
from ledgerkit._public import moved_names as _moved_names
from ledgerkit._public import publish as _publish
from ledgerkit.frames._activity import (
    ACTIVITY_COLUMNS,
    BALANCE_CHANGE_COLUMNS,
    ROLES,
    activity_to_frame,
    balance_changes_to_frame,
)
from ledgerkit.frames._asset_keys import (
    APT_COIN,
    APT_METADATA,
    AssetKey,
    asset_key,
)
from ledgerkit.frames._derive import (
    APT_DECIMALS,
    LedgerAccessor,
    block_stats,
    fee_payers,
    fees,
    fees_in_units,
    function_activity,
    payer_activity,
    register_accessor,
    sender_activity,
    time_stats,
    version_stats,
)
from ledgerkit.frames._docs import (
    DOCS_INDEX_COLUMNS,
    SEARCH_HIT_COLUMNS,
    docs_index_to_frame,
    search_hits_to_frame,
)
from ledgerkit.frames._dtypes import (
    BOOL,
    CATEGORY,
    COUNT,
    SIGNED_AMOUNT,
    SIGNED_AMOUNT_MAX,
    STRING,
    TIMESTAMP,
    U128,
    U128_WIDTH,
    U256,
    U256_WIDTH,
    UINT64,
    empty_frame,
    ints_to_wide,
    schema_of,
    wide_sum,
    wide_to_ints,
)
from ledgerkit.frames._event_data import (
    EVENT_KEY_COLUMNS,
    event_type_matches,
    expand_event_data,
)
from ledgerkit.frames._events_blocks import (
    BLOCK_COLUMNS,
    EVENT_COLUMNS,
    blocks_to_frame,
    events_to_frame,
)
from ledgerkit.frames._modules import (
    FUNCTION_COLUMNS,
    MODULE_COLUMNS,
    STRUCT_COLUMNS,
    functions_to_frame,
    modules_to_frame,
    structs_to_frame,
)
from ledgerkit.frames._payloads_changes import (
    CHANGE_COLUMNS,
    PAYLOAD_COLUMNS,
    changes_to_frame,
    payloads_to_frame,
)
from ledgerkit.frames._state import (
    BALANCE_COLUMNS,
    GAS_ESTIMATE_COLUMNS,
    HOLDING_COLUMNS,
    RESOURCE_COLUMNS,
    balances_to_frame,
    gas_estimates_to_frame,
    holdings_to_frame,
    move_column,
    move_dtype,
    resources_to_frame,
    view_results_to_frame,
)
from ledgerkit.frames._summaries import (
    TRANSACTION_SUMMARY_COLUMNS,
    transaction_summaries_to_frame,
)
from ledgerkit.frames._transactions import (
    TRANSACTION_COLUMNS,
    TRANSACTION_ROOT_COLUMNS,
    transactions_to_frame,
)

# Also named here, where they were first published (``as`` marks them re-exported): the
# readers of what a transaction moved, at home in ledgerkit.models (read without pandas),
# and a coin type's paired metadata address, at home in ledgerkit.types.
from ledgerkit.models import FeeStatement as FeeStatement
from ledgerkit.models import balance_deltas as balance_deltas
from ledgerkit.models import fee_statement as fee_statement
from ledgerkit.models import gas_payer as gas_payer
from ledgerkit.models import primary_store_address as primary_store_address
from ledgerkit.models import storage_fee_refund as storage_fee_refund
from ledgerkit.models import stores_to_look_up as stores_to_look_up
from ledgerkit.types import paired_metadata_address as paired_metadata_address

register_accessor()

__all__ = [
    "ACTIVITY_COLUMNS",
    "APT_COIN",
    "APT_DECIMALS",
    "APT_METADATA",
    "BALANCE_CHANGE_COLUMNS",
    "BALANCE_COLUMNS",
    "BLOCK_COLUMNS",
    "BOOL",
    "CATEGORY",
    "CHANGE_COLUMNS",
    "COUNT",
    "DOCS_INDEX_COLUMNS",
    "EVENT_COLUMNS",
    "EVENT_KEY_COLUMNS",
    "FUNCTION_COLUMNS",
    "GAS_ESTIMATE_COLUMNS",
    "HOLDING_COLUMNS",
    "MODULE_COLUMNS",
    "PAYLOAD_COLUMNS",
    "RESOURCE_COLUMNS",
    "ROLES",
    "SEARCH_HIT_COLUMNS",
    "SIGNED_AMOUNT",
    "SIGNED_AMOUNT_MAX",
    "STRING",
    "STRUCT_COLUMNS",
    "TIMESTAMP",
    "TRANSACTION_COLUMNS",
    "TRANSACTION_ROOT_COLUMNS",
    "TRANSACTION_SUMMARY_COLUMNS",
    "U128",
    "U128_WIDTH",
    "U256",
    "U256_WIDTH",
    "UINT64",
    "AssetKey",
    "LedgerAccessor",
    "activity_to_frame",
    "asset_key",
    "balance_changes_to_frame",
    "balances_to_frame",
    "block_stats",
    "blocks_to_frame",
    "changes_to_frame",
    "docs_index_to_frame",
    "empty_frame",
    "event_type_matches",
    "events_to_frame",
    "expand_event_data",
    "fee_payers",
    "fees",
    "fees_in_units",
    "function_activity",
    "functions_to_frame",
    "gas_estimates_to_frame",
    "holdings_to_frame",
    "ints_to_wide",
    "modules_to_frame",
    "move_column",
    "move_dtype",
    "payer_activity",
    "payloads_to_frame",
    "resources_to_frame",
    "schema_of",
    "search_hits_to_frame",
    "sender_activity",
    "structs_to_frame",
    "time_stats",
    "transaction_summaries_to_frame",
    "transactions_to_frame",
    "version_stats",
    "view_results_to_frame",
    "wide_sum",
    "wide_to_ints",
]

# The converters the front door re-exports report it as their home.
_FRONT_DOOR = (
    "balances_to_frame",
    "blocks_to_frame",
    "changes_to_frame",
    "events_to_frame",
    "functions_to_frame",
    "gas_estimates_to_frame",
    "modules_to_frame",
    "payloads_to_frame",
    "resources_to_frame",
    "structs_to_frame",
    "transactions_to_frame",
)

# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)
_publish(globals(), _FRONT_DOOR, "ledgerkit")

# Names that lived here before the ABI cache moved below the client, and their homes.
__getattr__ = _moved_names(
    __name__,
    {
        "AbiCache": ("ledgerkit.AbiCache", lambda: _models.AbiCache),
        "abi_requests": ("ledgerkit.models.abi_requests", lambda: _models.abi_requests),
    },
)
