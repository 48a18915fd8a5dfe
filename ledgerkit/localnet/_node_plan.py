"""What a ``LocalNode`` start plans and learns: the servers it runs, each on its socket
(the node API, or in the public profile the pruned fullnode and the archive, then the
faucet, the identity provider, the docs host and the indexer; :func:`plan_servers`), and
the record of what it learnt, kept once stopped (its URLs, key and dev accounts;
:class:`Known`), with what they come from: the origin of a server on a port, a listening
socket on the port a server had before (a restart serves at the same URLs), and the public
profile's settings given the node's ``prune_window`` option.

A socket is made for each server before any serves: a port in use fails the start with
:class:`PortInUseError`, every socket made so far closed.
"""

from __future__ import annotations

import errno
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, Final

import uvicorn

from ledgerkit._errors import LocalNodeError
from ledgerkit.keys import Account
from ledgerkit.localnet._node_errors import NodeConfigError, PortInUseError
from ledgerkit.localnet._node_services import SERVICES, service_apps
from ledgerkit.localnet._serving import bind, protocol_for, uvicorn_server
from ledgerkit.localnet.app import create_app
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.localnet.public import PublicApps, PublicSettings, RequestLog, public_apps
from ledgerkit.localnet.services import FaucetSettings, IdentityProvider

__all__ = [
    "REBIND_SECONDS",
    "Known",
    "Plan",
    "Planned",
    "Wanted",
    "fullnode_window",
    "origin",
    "plan_servers",
    "socket_for",
]

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


@dataclass(frozen=True, slots=True)
class Wanted:
    """What a start asks of its servers.

    ``asked`` is the port asked for each server by name (the others take free ones),
    ``had`` the port each had at a previous start; ``public`` the public profile's
    settings as given (``None``: the local profile), ``api_key`` the key a previous
    start made (kept across restarts); ``identity`` and ``indexer_app`` are the
    services' (``None`` without them).
    """

    host: str
    asked: dict[str, int]
    had: dict[str, int]
    log_level: str
    on_submit: Callable[[], None]
    public: PublicSettings | None
    api_key: str | None = field(repr=False)
    identity: IdentityProvider | None
    indexer_app: Any | None
    faucet: FaucetSettings


@dataclass(frozen=True, slots=True)
class Planned:
    """The servers on their sockets, the URLs they answer at (``known``, without dev
    accounts), the port of each, and what the node keeps of them: the public profile's
    settings as started and its archive's request log, and what to close in the
    servers' loop once they stop."""

    plan: Plan
    known: Known
    ports: dict[str, int]
    public: PublicSettings | None
    archive_log: RequestLog | None
    closers: list[Callable[[], Awaitable[None]]]


@dataclass
class _Sockets:
    """The sockets made so far, and the port of each server."""

    wanted: Wanted
    made: list[socket.socket] = field(default_factory=list)
    ports: dict[str, int] = field(default_factory=dict)

    def listen(self, name: str) -> socket.socket:
        port = self.wanted.asked.get(name, 0)
        try:
            sock = socket_for(self.wanted.host, name, port, self.wanted.had.get(name))
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
            raise PortInUseError(name, self.wanted.host, port, exc.strerror or "") from None
        self.made.append(sock)
        self.ports[name] = sock.getsockname()[1]
        return sock

    def url(self, sock: socket.socket, path: str) -> str:
        return f"{origin(self.wanted.host, sock.getsockname()[1])}{path}"


def _server(wanted: Wanted, app: Any, protocol: Any = "auto") -> uvicorn.Server:
    return uvicorn_server(app, log_level=wanted.log_level, protocol=protocol)


def plan_servers(ledger: Ledger, wanted: Wanted) -> Planned:
    """Every server of the node on its socket, and the URLs they answer at.

    Raises
    ------
    PortInUseError
        A port asked for is taken (every socket made is closed).
    LocalNodeError
        A restart cannot listen again on a port it had.
    """
    socks = _Sockets(wanted)
    try:
        sock = socks.listen("node")
        url = socks.url(sock, "/v1")
        archive_url = api_key = None
        public = archive_log = None
        if wanted.public is None:
            app = create_app(ledger, on_submit=wanted.on_submit)
            plan = [(_server(wanted, app, protocol_for(ledger)), sock)]
        else:  # the default window is taken anew from the chain at each start
            archive_sock = socks.listen("archive")
            archive_url = socks.url(archive_sock, "/v1")
            apps: PublicApps = public_apps(
                ledger,
                wanted.public,
                archive_url=archive_url,
                on_submit=wanted.on_submit,
                api_key=wanted.api_key,
            )
            public, archive_log, api_key = apps.settings, apps.archive_received, apps.api_key
            plan = [
                (_server(wanted, apps.fullnode, protocol_for(apps.fullnode_ledger)), sock),
                (_server(wanted, apps.archive, protocol_for(ledger)), archive_sock),
            ]
        services: tuple[str | None, str | None, dict[str, str]] = (None, None, {})
        indexer_url = None
        closers: list[Callable[[], Awaitable[None]]] = []
        if wanted.identity is not None:
            service_socks = [socks.listen(name) for name in SERVICES]
            made = service_apps(
                ledger,
                [socks.url(made_sock, "") for made_sock in service_socks],
                wanted.identity,
                on_submit=wanted.on_submit,
                faucet=wanted.faucet,
            )
            closers = made.closers
            plan += [
                (_server(wanted, app), made_sock)
                for app, made_sock in zip(made.apps, service_socks, strict=True)
            ]
            services = (made.faucet_url, made.docs_url, made.issuers)
        if wanted.indexer_app is not None:
            indexer_sock = socks.listen("indexer")
            plan.append((_server(wanted, wanted.indexer_app), indexer_sock))
            indexer_url = socks.url(indexer_sock, "/v1/graphql")
    except BaseException:
        for made_sock in socks.made:
            made_sock.close()
        raise
    faucet_url, docs_url, issuers = services
    known = Known(url, archive_url, faucet_url, docs_url, issuers, api_key, (), indexer_url)
    return Planned(plan, known, socks.ports, public, archive_log, closers)
