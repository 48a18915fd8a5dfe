"""The node REST API client: :class:`Client` (sync), :class:`AsyncClient` (asyncio) and
:func:`connect`, over an I/O-free core.

Every method answers a :class:`Result` (``.value``, ``.ledger``); transport failures,
node errors and undecodable answers raise the classes of :mod:`ledgerkit`'s one error
tree. See ``docs/client.md``.
"""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.client._async import AsyncClient
from ledgerkit.client._base import ClientConfig, Result
from ledgerkit.client._connect import connect
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
    "connect",
]

# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)
_publish(globals(), ("AsyncClient", "Client", "connect"), "ledgerkit")  # the front door's
