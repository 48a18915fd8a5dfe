"""What a ``LocalNode`` learns at its start and keeps once stopped, and what it derives it
from: the record of its URLs, key and dev accounts (:class:`Known`), the origin of a
server on a port, a listening socket on the port a server had before (a restart serves at
the same URLs), and the public profile's settings given the node's ``prune_window``
option.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass, field, replace
from typing import Final

import uvicorn

from ledgerkit._errors import LocalNodeError
from ledgerkit.keys import Account
from ledgerkit.localnet._node_errors import NodeConfigError
from ledgerkit.localnet._serving import bind
from ledgerkit.localnet.public import PublicSettings

__all__ = ["REBIND_SECONDS", "Known", "Plan", "fullnode_window", "origin", "socket_for"]

#: How long a restart waits for a port the node itself gave up (the system may hold it a
#: moment after the last connection closes).
REBIND_SECONDS: Final = 5.0

#: Every server of a node on the socket it listens on.
Plan = list[tuple[uvicorn.Server, socket.socket]]


@dataclass(frozen=True, slots=True)
class Known:
    """What a node learnt when it started and keeps once stopped: its URLs (a restart
    listens on the same ports), its key and its dev accounts."""

    url: str
    archive_url: str | None
    faucet_url: str | None
    docs_url: str | None
    issuers: dict[str, str]
    api_key: str | None = field(repr=False)  # a secret: never in a repr
    dev_accounts: tuple[Account, ...]
    indexer_url: str | None = None


def origin(host: str, port: int) -> str:
    """``http://<host>:<port>``, an IPv6 host in brackets."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def socket_for(host: str, name: str, port: int, had: int | None) -> socket.socket:
    """A socket for server ``name``: on the port it ``had``, if the node ran before."""
    if had is None:
        return bind(host, port)
    try:
        return bind(host, had, wait=REBIND_SECONDS)
    except OSError as exc:
        raise LocalNodeError(
            f"the node cannot serve its {name} again at {origin(host, had)}: "
            f"the port is taken ({exc.strerror or exc})"
        ) from exc


def fullnode_window(settings: PublicSettings, prune_window: int | None) -> PublicSettings:
    """``settings`` with a node option ``prune_window`` as the fullnode's window."""
    if prune_window is None or prune_window == settings.prune_window:
        return settings
    if settings.prune_window is not None:
        raise NodeConfigError(
            f"two prune windows: {prune_window} and PublicSettings.prune_window="
            f"{settings.prune_window}; give one"
        )
    return replace(settings, prune_window=prune_window)
