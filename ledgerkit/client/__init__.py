"""The node REST API client: :class:`Client` (sync) and :class:`AsyncClient` (asyncio),
over an I/O-free core. :func:`ledgerkit.connect` is at the front door: it alone starts the
embedded node.

Every method answers a :class:`Result` (``.value``, ``.ledger``); transport failures,
node errors and undecodable answers raise the classes of :mod:`ledgerkit`'s one error
tree. See ``docs/client.md``.
"""

from __future__ import annotations

from typing import Any

from ledgerkit.client._async import AsyncClient
from ledgerkit.client._base import ClientConfig, Result
from ledgerkit.client._identity import ChainIdentity
from ledgerkit.client._limits import AsyncClock, Clock
from ledgerkit.client._retry import Retry
from ledgerkit.client._sync import Client

__all__ = [
    "AsyncClient",
    "AsyncClock",
    "ChainIdentity",
    "Client",
    "ClientConfig",
    "Clock",
    "Result",
    "Retry",
]


def __getattr__(name: str) -> Any:
    # ``ledgerkit.client.connect`` was its home once; the front door's is the one.
    if name == "connect":
        import ledgerkit

        return ledgerkit.connect
    raise AttributeError(f"module 'ledgerkit.client' has no attribute {name!r}")
