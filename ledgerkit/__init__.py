"""ledgerkit: study a Move-based ledger node from Python.

The front door. Everything public is importable from here; heavy parts (the embedded
node, widgets, charts, Dask) load when first used, so ``import ledgerkit`` stays fast.
"""

from __future__ import annotations

import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

from ledgerkit._errors import (
    AccountNotFoundError,
    APIDisabledError,
    ArgumentError,
    AuthTokenInvalidError,
    BCSDecodeError,
    BCSEncodeError,
    BCSError,
    BCSNotSupportedError,
    BlockNotFoundError,
    BlockPrunedError,
    ChainMismatchError,
    ClientClosedError,
    DatasetMismatchError,
    DecodingError,
    DocsError,
    ErrorCode,
    ExtractionError,
    FaucetError,
    FaucetRateLimitedError,
    FaucetRejectedError,
    FaucetUnavailableError,
    HealthCheckFailedError,
    HistoryMismatchError,
    IncompleteExtractionError,
    InputError,
    InvalidAddressError,
    InvalidHexError,
    InvalidInputError,
    InvalidIntegerError,
    InvalidKeyError,
    InvalidTransactionUpdateError,
    LedgerError,
    MempoolFullError,
    MissingExtraError,
    MoveModuleNotFoundError,
    MoveTypeSyntaxError,
    MoveValueError,
    NodeAPIError,
    NotFoundError,
    PageNotFoundError,
    PrunedError,
    RangeBeyondLedgerError,
    RateLimitedError,
    RejectedByFilterError,
    RequestTimeoutError,
    ResourceNotFoundError,
    SequenceNumberTooOldError,
    ServerError,
    ServiceUnavailableError,
    SigningError,
    SnapshotError,
    SnapshotMissError,
    StateValueNotFoundError,
    StructFieldNotFoundError,
    TableItemNotFoundError,
    TransactionNotFoundError,
    TransactionRejectedError,
    TransportError,
    UnknownStructError,
    VersionNotFoundError,
    VersionPrunedError,
    VMError,
    WebFrameworkError,
)
from ledgerkit._public import publish as _publish
from ledgerkit._version import __version__
from ledgerkit.bcs import MoveValueCodec
from ledgerkit.keys import (
    Account,
    Ed25519PrivateKey,
    Ed25519PublicKey,
    Secp256k1PrivateKey,
    Secp256k1PublicKey,
)
from ledgerkit.types import (
    U8,
    U16,
    U32,
    U64,
    U128,
    U256,
    Address,
    EntryFunctionId,
    HexBytes,
    LedgerMeta,
    ModuleId,
    MoveStructTag,
    MoveType,
    Result,
    StructTag,
)

if _TYPE_CHECKING:
    from ledgerkit._assets import account_balances
    from ledgerkit._connect import ConnectedClient, connect
    from ledgerkit._explain import explain
    from ledgerkit._typed_events import atyped_events, typed_events
    from ledgerkit.client import AsyncClient, Client
    from ledgerkit.docsite import AsyncDocsClient, DocsClient
    from ledgerkit.extract import aaccount_activity, account_activity, events_of_type
    from ledgerkit.faucet import AsyncFaucetClient, FaucetClient, TokenProvider
    from ledgerkit.frames import (
        balances_to_frame,
        blocks_to_frame,
        changes_to_frame,
        events_to_frame,
        functions_to_frame,
        gas_estimates_to_frame,
        modules_to_frame,
        payloads_to_frame,
        resources_to_frame,
        structs_to_frame,
        transactions_to_frame,
    )
    from ledgerkit.models import AbiCache

# Heavy parts load on first use, so ``import ledgerkit`` stays fast.
_LAZY = {
    "AsyncClient": "ledgerkit.client",
    "Client": "ledgerkit.client",
    "LocalNode": "ledgerkit.localnet",
    "NodeConfig": "ledgerkit.localnet",
    "ConnectedClient": "ledgerkit._connect",
    "connect": "ledgerkit._connect",
    "explain": "ledgerkit._explain",
    "account_activity": "ledgerkit.extract",
    "aaccount_activity": "ledgerkit.extract",
    "account_balances": "ledgerkit._assets",
    "typed_events": "ledgerkit._typed_events",
    "atyped_events": "ledgerkit._typed_events",
    "events_of_type": "ledgerkit.extract",
    "AbiCache": "ledgerkit.models",
    "FaucetClient": "ledgerkit.faucet",
    "AsyncFaucetClient": "ledgerkit.faucet",
    "TokenProvider": "ledgerkit.faucet",
    "DocsClient": "ledgerkit.docsite",
    "AsyncDocsClient": "ledgerkit.docsite",
    "balances_to_frame": "ledgerkit.frames",
    "blocks_to_frame": "ledgerkit.frames",
    "changes_to_frame": "ledgerkit.frames",
    "events_to_frame": "ledgerkit.frames",
    "gas_estimates_to_frame": "ledgerkit.frames",
    "payloads_to_frame": "ledgerkit.frames",
    "resources_to_frame": "ledgerkit.frames",
    "transactions_to_frame": "ledgerkit.frames",
    "functions_to_frame": "ledgerkit.frames",
    "modules_to_frame": "ledgerkit.frames",
    "structs_to_frame": "ledgerkit.frames",
}


def __getattr__(name: str) -> _Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ledgerkit' has no attribute {name!r}")
    value = getattr(_importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "U8",
    "U16",
    "U32",
    "U64",
    "U128",
    "U256",
    "APIDisabledError",
    "AbiCache",
    "Account",
    "AccountNotFoundError",
    "Address",
    "ArgumentError",
    "AsyncClient",
    "AsyncDocsClient",
    "AsyncFaucetClient",
    "AuthTokenInvalidError",
    "BCSDecodeError",
    "BCSEncodeError",
    "BCSError",
    "BCSNotSupportedError",
    "BlockNotFoundError",
    "BlockPrunedError",
    "ChainMismatchError",
    "Client",
    "ClientClosedError",
    "ConnectedClient",
    "DatasetMismatchError",
    "DecodingError",
    "DocsClient",
    "DocsError",
    "Ed25519PrivateKey",
    "Ed25519PublicKey",
    "EntryFunctionId",
    "ErrorCode",
    "ExtractionError",
    "FaucetClient",
    "FaucetError",
    "FaucetRateLimitedError",
    "FaucetRejectedError",
    "FaucetUnavailableError",
    "HealthCheckFailedError",
    "HexBytes",
    "HistoryMismatchError",
    "IncompleteExtractionError",
    "InputError",
    "InvalidAddressError",
    "InvalidHexError",
    "InvalidInputError",
    "InvalidIntegerError",
    "InvalidKeyError",
    "InvalidTransactionUpdateError",
    "LedgerError",
    "LedgerMeta",
    "LocalNode",
    "MempoolFullError",
    "MissingExtraError",
    "ModuleId",
    "MoveModuleNotFoundError",
    "MoveStructTag",
    "MoveType",
    "MoveTypeSyntaxError",
    "MoveValueCodec",
    "MoveValueError",
    "NodeAPIError",
    "NodeConfig",
    "NotFoundError",
    "PageNotFoundError",
    "PrunedError",
    "RangeBeyondLedgerError",
    "RateLimitedError",
    "RejectedByFilterError",
    "RequestTimeoutError",
    "ResourceNotFoundError",
    "Result",
    "Secp256k1PrivateKey",
    "Secp256k1PublicKey",
    "SequenceNumberTooOldError",
    "ServerError",
    "ServiceUnavailableError",
    "SigningError",
    "SnapshotError",
    "SnapshotMissError",
    "StateValueNotFoundError",
    "StructFieldNotFoundError",
    "StructTag",
    "TableItemNotFoundError",
    "TokenProvider",
    "TransactionNotFoundError",
    "TransactionRejectedError",
    "TransportError",
    "UnknownStructError",
    "VMError",
    "VersionNotFoundError",
    "VersionPrunedError",
    "WebFrameworkError",
    "__version__",
    "aaccount_activity",
    "account_activity",
    "account_balances",
    "atyped_events",
    "balances_to_frame",
    "blocks_to_frame",
    "changes_to_frame",
    "connect",
    "events_of_type",
    "events_to_frame",
    "explain",
    "functions_to_frame",
    "gas_estimates_to_frame",
    "modules_to_frame",
    "payloads_to_frame",
    "resources_to_frame",
    "structs_to_frame",
    "transactions_to_frame",
    "typed_events",
]

# Public names report ``ledgerkit`` as their module (as httpx does), so reprs, tracebacks and
# help() show ``ledgerkit.Client``; the lazy ones are published by their own packages.
_publish(globals(), [name for name in __all__ if name not in _LAZY], __name__)
