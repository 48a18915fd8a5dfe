"""The requests of the node API: what to send for each operation, and how its answer is
read and kept. No I/O.

One function per operation returns a :class:`Call`: the method and path (from the
operation's row in ``ledgerkit._endpoints``, by operation id), the query parameters and
body, checked and made canonical first (long addresses, canonical type tags
percent-encoded in paths, sorted parameters), the decoder of its answer (a ``decode_*``
of :mod:`ledgerkit.models`), whether it may be retried, and when its answer may be cached
(a policy of ``_answers``). So everything an operation sends is read in its function
here; a bad input fails before anything is sent, and two spellings of one question share
a cache entry.

Each function takes the arguments of the client method of its name, keyword-only options
included, and its docstring is that method's: the method of :class:`~ledgerkit.Client`
and :class:`~ledgerkit.AsyncClient` *is* the function (``@endpoint``), sent. A call is
named after the function that made it (``Call.name``).

They are what :meth:`Client.send <ledgerkit.Client.send>` and
:meth:`AsyncClient.send <ledgerkit.AsyncClient.send>` take, to ask what an endpoint
method asks but read the answer some other way::

    from ledgerkit.client import calls

    page = client.send(calls.transactions(start=0, limit=100), decoder=decode_transaction_rows)

The builders are written by concept in the modules of ``_calls/`` (an account's state
and history, reading transactions, sending them, tables and view functions, blocks and
events) and published here, where they say they live; the node-wide questions (ledger
info, health, gas price) are written here.
"""

from __future__ import annotations

import types
import warnings
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

from ledgerkit import models
from ledgerkit._endpoints import BCS, JSON, SIGNED_TXN_BCS, VIEW_BCS
from ledgerkit.client._call import Call, _call, _params, _route, json_body
from ledgerkit.client._calls._accounts import (
    account,
    account_balance,
    account_module,
    account_module_bytecode,
    account_modules,
    account_resource,
    account_resource_bcs,
    account_resources,
    account_transaction_summaries,
    account_transactions,
    account_transactions_bcs,
)
from ledgerkit.client._calls._blocks_events import (
    block_by_height,
    block_by_version,
    events_by_creation_number,
    events_by_handle,
)
from ledgerkit.client._calls._submit import (
    encode_submission,
    simulate_transaction,
    submit_batch_transactions,
    submit_transaction,
)
from ledgerkit.client._calls._tables_view import raw_table_item, table_item, view_bcs, view_json
from ledgerkit.client._calls._transactions import (
    transaction_by_hash,
    transaction_by_hash_bcs,
    transaction_by_version,
    transaction_by_version_bcs,
    transactions,
    transactions_auxiliary_info,
    transactions_bcs,
    wait_transaction_by_hash,
)
from ledgerkit.client._declare import endpoint
from ledgerkit.models import GasEstimate, HealthStatus, LedgerInfo

# The client methods' return annotations read ``Result[...]`` (see _declare): imported
# here, where typing.get_type_hints looks them up.
from ledgerkit.types import Result as Result
from ledgerkit.types import parse_uint

__all__ = [
    "BCS",
    "JSON",
    "SIGNED_TXN_BCS",
    "VIEW_BCS",
    "Call",
    "account",
    "account_balance",
    "account_module",
    "account_module_bytecode",
    "account_modules",
    "account_resource",
    "account_resource_bcs",
    "account_resources",
    "account_transaction_summaries",
    "account_transactions",
    "account_transactions_bcs",
    "block_by_height",
    "block_by_version",
    "encode_submission",
    "estimate_gas_price",
    "events_by_creation_number",
    "events_by_handle",
    "health",
    "json_body",
    "ledger_info",
    "raw_table_item",
    "simulate_transaction",
    "submit_batch_transactions",
    "submit_transaction",
    "table_item",
    "transaction_by_hash",
    "transaction_by_hash_bcs",
    "transaction_by_version",
    "transaction_by_version_bcs",
    "transactions",
    "transactions_auxiliary_info",
    "transactions_bcs",
    "view_bcs",
    "view_json",
    "wait_transaction_by_hash",
]


# -- the node as a whole ---------------------------------------------------------------------


@endpoint
def ledger_info() -> Call[LedgerInfo]:
    """The ledger's current position: chain id, epoch, versions, block heights, role.

    Returns
    -------
    Result[LedgerInfo]
        Never served from the cache.
    """
    return _call(_route("get_ledger_info"), models.decode_ledger_info)


@endpoint
def health(duration_secs: int | None = None) -> Call[HealthStatus]:
    """Check the node is alive; with ``duration_secs``, that its ledger is fresh.

    Parameters
    ----------
    duration_secs : int, optional
        Fail unless the latest ledger timestamp is at most this many seconds old.

    Raises
    ------
    HealthCheckFailedError
        503: the ledger is older than that (never retried).
    """
    duration = None if duration_secs is None else parse_uint(duration_secs, 32, what="duration")
    return _call(_route("healthy"), models.decode_health, _params(duration_secs=duration))


@endpoint
def estimate_gas_price() -> Call[GasEstimate]:
    """The node's gas unit price estimates (deprioritized, regular, prioritized)."""
    return _call(_route("estimate_gas_price"), models.decode_gas_estimate)


# -- where the builders say they live --------------------------------------------------------


def _publish(namespace: Mapping[str, Any], names: Iterable[str]) -> None:
    """Name this module as the home of the builders of ``names`` written beside it, and of
    the client methods an endpoint makes: ``repr``, ``help()`` and the API reference show
    ``ledgerkit.client.calls``, where users import them from."""
    for name in names:
        value = namespace.get(name)
        if not str(getattr(value, "__module__", "")).startswith(f"{__package__}._calls."):
            continue  # written here, or re-exported from elsewhere (json_body)
        if isinstance(value, endpoint):
            for part in (value, value.build, value._sync, value._async):
                part.__module__ = __name__
        elif isinstance(value, types.FunctionType):  # a @builder, and what it wraps
            value.__module__ = __name__
            wrapped = getattr(value, "__wrapped__", None)
            if isinstance(wrapped, types.FunctionType):
                wrapped.__module__ = __name__


_publish(globals(), __all__)


# -- old names -------------------------------------------------------------------------------

#: Old names of builders, and the ones they stand for now (to be removed in 0.3).
_DEPRECATED: Final = {
    "view": "view_json",
    "wait_by_hash": "wait_transaction_by_hash",
}


# Hidden from type checkers: to them an old name, or a misspelt one, stays an error.
if not TYPE_CHECKING:

    def __getattr__(name: str) -> Any:
        if name == "event_stream":
            # The page maker of ``iter_events``, no request of its own.
            from ledgerkit.client._methods import _event_stream

            warnings.warn(
                "ledgerkit.client.calls.event_stream is deprecated; use client.iter_events(...)",
                DeprecationWarning,
                stacklevel=2,
            )
            return _event_stream
        new = _DEPRECATED.get(name)
        if new is None:
            raise AttributeError(f"module 'ledgerkit.client.calls' has no attribute {name!r}")
        warnings.warn(
            f"ledgerkit.client.calls.{name} is deprecated; use calls.{new}",
            DeprecationWarning,
            stacklevel=2,
        )
        return globals()[new]
