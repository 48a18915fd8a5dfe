"""The node REST API client: :class:`Client` (sync) and :class:`AsyncClient` (asyncio),
over an I/O-free core. :func:`ledgerkit.connect` is at the front door: it alone starts the
embedded node.

Every method answers a :class:`Result` (``.value``, ``.ledger``); transport failures,
node errors and undecodable answers raise the classes of :mod:`ledgerkit`'s one error
tree. See ``docs/client.md``.

:meth:`Client.send` sends any request the core describes (a :class:`Call`, one per
endpoint in :mod:`ledgerkit.client.calls`) and reads its answer with a chosen decoder.
:class:`AiohttpTransport` (``transport=`` of :class:`AsyncClient`) parses HTTP in C, for
bulk reads: an ``AsyncClient`` made with it sends straight to aiohttp, past httpx. It loads
aiohttp when first named.

The clients of the other services sit beside it: :mod:`ledgerkit.client.faucet`
(``FaucetClient``, ``TokenProvider``) and :mod:`ledgerkit.client.docsite`
(``DocsClient``); each runs its flows with the same driver, :func:`drive`, which runs an
I/O-free flow for anything that performs its steps (an explorer reading module ABIs with
:func:`ledgerkit.models.abi_requests`).
"""

from __future__ import annotations

import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

from ledgerkit._public import publish as _publish
from ledgerkit.client import calls
from ledgerkit.client._cache import ChainIdentity, default_cache_dir
from ledgerkit.client._cache._history import HistoryCheck, HistoryMark, Seen
from ledgerkit.client._client import AsyncClient, Client
from ledgerkit.client._config import ClientConfig, known_indexer_url
from ledgerkit.client._driver import drive
from ledgerkit.client._flows._holdings import Holding
from ledgerkit.client._pacing import AsyncClock, Clock, Retry, Waited
from ledgerkit.client.calls import Call
from ledgerkit.types import Result

if _TYPE_CHECKING:
    from ledgerkit.client._aiohttp import AiohttpTransport


__all__ = [
    "AiohttpTransport",
    "AsyncClient",
    "AsyncClock",
    "Call",
    "ChainIdentity",
    "Client",
    "ClientConfig",
    "Clock",
    "HistoryCheck",
    "HistoryMark",
    "Holding",
    "Result",
    "Retry",
    "Seen",
    "Waited",
    "calls",
    "default_cache_dir",
    "drive",
    "known_indexer_url",
]


def __getattr__(name: str) -> _Any:
    # aiohttp takes a tenth of a second to import: only when its transport is named.
    if name == "AiohttpTransport":
        value = _importlib.import_module("ledgerkit.client._aiohttp").AiohttpTransport
        globals()[name] = value
        _publish(globals(), (name,), __name__)
        return value
    # ``ledgerkit.client.connect`` was its home once; the front door's is the one.
    if name == "connect":
        import ledgerkit

        return ledgerkit.connect
    raise AttributeError(f"module 'ledgerkit.client' has no attribute {name!r}")


# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)
_publish(globals(), ("AsyncClient", "Client", "Result"), "ledgerkit")  # the front door's
