"""Scalar types of the node API: addresses, fixed-width unsigned integers, hex bytes,
Move types and ids, and the ledger metadata every response carries."""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.types._address import Address
from ledgerkit.types._assets import (
    APT_COIN,
    APT_METADATA,
    canonical_coin_type,
    paired_metadata_address,
)
from ledgerkit.types._hex import HexBytes
from ledgerkit.types._ints import (
    U8,
    U16,
    U32,
    U64,
    U64_MAX,
    U128,
    U128_MAX,
    U256,
    U256_MAX,
    parse_u64,
    parse_uint,
)
from ledgerkit.types._ledger_meta import HEADER_PREFIXES, LedgerMeta
from ledgerkit.types._movetype import (
    EntryFunctionId,
    GenericTypeParam,
    ModuleId,
    MoveStructTag,
    MoveType,
    PrimitiveType,
    ReferenceType,
    StructTag,
    VectorType,
    is_identifier,
)
from ledgerkit.types._result import Result

__all__ = [
    "APT_COIN",
    "APT_METADATA",
    "HEADER_PREFIXES",
    "U8",
    "U16",
    "U32",
    "U64",
    "U64_MAX",
    "U128",
    "U128_MAX",
    "U256",
    "U256_MAX",
    "Address",
    "EntryFunctionId",
    "GenericTypeParam",
    "HexBytes",
    "LedgerMeta",
    "ModuleId",
    "MoveStructTag",
    "MoveType",
    "PrimitiveType",
    "ReferenceType",
    "Result",
    "StructTag",
    "VectorType",
    "canonical_coin_type",
    "is_identifier",
    "paired_metadata_address",
    "parse_u64",
    "parse_uint",
]

# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)
