"""Running the embedded node: ``LocalNode``, a background server for Python and Jupyter
(``serve``, the foreground server behind ``ledgerkit node``, runs one).

Beside the node API, each on its own loopback port, run its neighbours: the faucet, the
identity provider whose ID tokens the faucet asks for, and the docs host
(``ledgerkit.localnet.services``). In the public profile (``ledgerkit.localnet.public``)
an archive node over the same ledger runs beside them. All the servers share one thread
and one event loop.

The HTTP server is uvicorn; a block producer thread makes a block shortly after each
submission, or every ``block_interval`` seconds with a background workload in live mode,
and drops expired transactions from the mempool every :data:`SWEEP_SECONDS` in any mode.
Requests that do not even parse as HTTP are answered by the protocol itself, with the
node's error record and ledger headers rather than uvicorn's plain-text page.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, Final, Protocol

import httptools
import orjson
import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ledgerkit._errors import ErrorCode
from ledgerkit.localnet._node_config import NodeConfig
from ledgerkit.localnet._node_errors import NodeConfigError, NodeError
from ledgerkit.localnet.app import MAX_ECHO_CHARS, create_app, meta_headers
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.localnet.public import PublicApps, PublicSettings, RequestLog, public_apps
from ledgerkit.localnet.services import (
    BuiltSite,
    FaucetSettings,
    IdentityProvider,
    LedgerFunder,
    TokenVerifier,
    TrustedIssuer,
    create_docs_app,
    create_faucet_app,
)
from ledgerkit.types import LedgerMeta

__all__ = ["PROFILES", "LocalNode"]

_log = logging.getLogger("ledgerkit.localnet")

#: How long the producer waits after a submission for more to batch into one block.
BATCH_SECONDS: Final = 0.02
#: How often the producer drops expired transactions from the mempool.
SWEEP_SECONDS: Final = 1.0
#: How long an idle keep-alive connection stays open (longer than any common client keeps one).
KEEP_ALIVE_SECONDS: Final = 75
START_TIMEOUT_SECONDS: Final = 60.0
#: The node's profiles: ``local`` (one node, the default) and ``public`` (a pruned
#: fullnode behind a public gateway, and an archive node).
PROFILES: Final = ("local", "public")


class _Positioned(Protocol):
    """A ledger that knows its position (what a refusal's headers carry)."""

    def meta(self) -> LedgerMeta: ...


class BlockProducer:
    """Makes blocks: promptly after submissions, and on a timer in live mode."""

    def __init__(self, ledger: Ledger, interval: float | None) -> None:
        self._ledger = ledger
        self._interval = interval
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name="ledgerkit-block-producer", daemon=True
        )

    def start(self) -> None:
        if len(self._ledger.mempool):  # accepted before a restart: carry on with them
            self._wake.set()
        self._thread.start()

    def nudge(self) -> None:
        """A transaction was submitted: make a block soon."""
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.ident is not None:  # a node stopped while starting never started it
            self._thread.join(timeout=10)

    def _run(self) -> None:
        interval = self._interval
        tick = None if interval is None else time.monotonic() + interval
        while not self._stop.is_set():
            wait = SWEEP_SECONDS if tick is None else min(SWEEP_SECONDS, tick - time.monotonic())
            woke = self._wake.wait(timeout=max(0.0, wait))
            if self._stop.is_set():
                return
            try:
                if woke:
                    self._wake.clear()
                    time.sleep(BATCH_SECONDS)
                    while self._ledger.produce_block() is not None:
                        pass  # drain what the block gas limit left over
                elif tick is not None and interval is not None and time.monotonic() >= tick:
                    tick = time.monotonic() + interval  # live mode tick
                    self._ledger.live_tick()
                self._ledger.expire_pending()
            except Exception:  # keep producing; a bad block must not stop the node
                _log.exception("block production failed")


class NodeHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, answering unparsable requests as the node answers.

    A method the parser does not know, bytes that are not ASCII in the path, a malformed
    ``Content-Length`` or an overlong request line never reach the app: uvicorn writes a
    plain-text 400 for them. This protocol writes the node's error record
    (``web_framework_error``, saying what the parser refused; 414 for a URL over 64 KiB,
    400 otherwise) with the ledger headers.
    ``ledger`` is bound per node by :func:`protocol_for`.
    """

    ledger: ClassVar[_Positioned | None] = None
    _refusal = ""
    _status = 400

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            super().data_received(b"")  # uvicorn's own upgrade handling (none is served)
        except httptools.HttpParserError as exc:
            # A callback's own error (the URL parser's, for one) says more than the wrapper.
            cause = exc.__context__ if exc.__context__ is not None else exc
            self._refusal = str(cause)
            if isinstance(cause, httptools.HttpParserInvalidURLError) and "too long" in str(cause):
                self._status = 414
            self.logger.warning("Invalid HTTP request received: %s", self._refusal)
            self.send_400_response("Invalid HTTP request received.")

    def send_400_response(self, msg: str) -> None:
        reason = self._refusal.encode("ascii", "replace").decode()[:MAX_ECHO_CHARS]
        message = "the request is not valid HTTP/1.1" + (f" ({reason})" if reason else "")
        error = NodeError(ErrorCode.WEB_FRAMEWORK_ERROR, message, status=self._status)
        try:
            headers = meta_headers(self.ledger.meta()) if self.ledger is not None else {}
        except Exception:  # a closed ledger still gets the record, without the position
            headers = {}
        body = orjson.dumps(error.record())
        status = b"400 Bad Request" if self._status == 400 else b"414 URI Too Long"
        lines = [b"HTTP/1.1 " + status]
        lines += [name + b": " + value for name, value in self.server_state.default_headers]
        lines += [f"{name}: {value}".encode("ascii") for name, value in headers.items()]
        lines += [
            b"content-type: application/json",
            b"content-length: " + str(len(body)).encode("ascii"),
            b"connection: close",
        ]
        self.transport.write(b"\r\n".join(lines) + b"\r\n\r\n" + body)
        self.transport.close()


def _serve_together(
    plan: list[tuple[uvicorn.Server, socket.socket]],
    closers: Sequence[Callable[[], Awaitable[None]]] = (),
) -> None:
    """Run every server of ``plan`` on its socket, in this thread's one event loop; then
    run ``closers`` in that loop (clients the apps opened in it)."""

    async def all_of() -> None:
        try:
            await asyncio.gather(*(server.serve(sockets=[sock]) for server, sock in plan))
        finally:
            for close in closers:
                await close()

    loop_factory = plan[0][0].config.get_loop_factory()
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        runner.run(all_of())


def protocol_for(ledger: _Positioned) -> type[NodeHttpProtocol]:
    """A :class:`NodeHttpProtocol` whose refusals carry ``ledger``'s position."""
    return type("NodeHttpProtocol", (NodeHttpProtocol,), {"ledger": ledger})


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted connections inherit this: without it, small answers written in two parts
    # (headers, then body) wait on delayed ACKs for tens of milliseconds.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.setblocking(False)
    return sock


class LocalNode:
    """The embedded node in a background thread: ``with LocalNode() as node: node.url``.

    Parameters
    ----------
    db : path, optional
        SQLite file of the ledger. Reopening a file carries on from its last block.
        Without one, the node uses a temporary file removed when it stops.
    host, port : str, int
        Where to listen; port 0 picks a free port. Only loopback unless told otherwise.
    profile : {"local", "public"}
        ``"local"``: one node keeping what ``prune_window`` says. ``"public"``: the node as
        public networks show themselves (see ``docs/localnet.md``): at ``url`` a pruned
        fullnode behind a gateway (API keys, compute-unit rate limits, load shedding),
        and at ``archive_url`` an archive node over the same ledger with all of history.
    public : PublicSettings, optional
        The public profile's settings (its default ones when omitted). A ``prune_window``
        option is then the fullnode's window, the archive keeping everything.
    **options
        Any :class:`NodeConfig` field: ``seed``, ``blocks``, ``anchor``, ``chain_id``,
        ``dev_accounts``, ``block_interval``, ``prune_window``, ``disabled`` ...
        A new ledger is a copy of the cached chain of these options when there is one.

    Examples
    --------
    >>> with LocalNode(seed=1, blocks=5) as node:  # doctest: +SKIP
    ...     print(node.url, node.dev_accounts[0].address)
    >>> with LocalNode(profile="public", blocks=20) as node:  # doctest: +SKIP
    ...     print(node.url, node.archive_url)  # a key raises the budget: node.api_key
    """

    def __init__(
        self,
        *,
        db: str | Path | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        log_level: str = "warning",
        services: bool = True,
        faucet: FaucetSettings | None = None,
        profile: str = "local",
        public: PublicSettings | None = None,
        **options: Any,
    ) -> None:
        if profile not in PROFILES:
            raise NodeConfigError(f"profile must be one of {list(PROFILES)}, got {profile!r}")
        if profile != "public" and public is not None:
            raise NodeConfigError("public settings are for profile='public'")
        if profile == "public":
            public = _fullnode_window(public or PublicSettings(), options.pop("prune_window", None))
        self.config = NodeConfig(**options)
        self.profile = profile
        #: The public profile's settings (``prune_window`` resolved once started); else None.
        self.public = public
        self._public_given = public
        #: The archive node's ``/v1`` URL in the public profile ("" otherwise or until started).
        self.archive_url = ""
        #: The key the public fullnode issues, sent as ``Authorization: Bearer <key>``; a new
        #: one at each start. ``None`` outside the public profile or until started.
        self.api_key: str | None = None
        self._archive_log: RequestLog | None = None
        self._services = services
        self._faucet_settings = faucet or FaucetSettings()
        #: The identity provider (its issuers sign ID tokens); ``None`` without services.
        self.identity: IdentityProvider | None = None
        #: Root URLs of the faucet and the docs host ("" until started, or without services).
        self.faucet_url = ""
        self.docs_url = ""
        self._db = Path(db) if db is not None else None
        self._host = host
        self._port = port
        self._log_level = log_level
        self._tmpdir: str | None = None
        self._servers: list[uvicorn.Server] = []
        self._thread: threading.Thread | None = None
        self._producer: BlockProducer | None = None
        self.ledger: Ledger | None = None
        self.url = ""
        #: Run in the servers' loop once they stop: the faucet's client of the issuers' keys.
        self._closers: list[Callable[[], Awaitable[None]]] = []

    def start(self) -> LocalNode:
        """Open (or generate) the ledger and serve it; returns when ``url`` answers."""
        if self._servers:
            return self
        if self._db is None:
            self._tmpdir = tempfile.mkdtemp(prefix="ledgerkit-node-")
            path = Path(self._tmpdir) / "ledger.sqlite3"
        else:
            path = self._db
            path.parent.mkdir(parents=True, exist_ok=True)
        self.ledger = Ledger.open(path, self.config)
        self._producer = BlockProducer(self.ledger, self.config.block_interval)
        sock = _bind(self._host, self._port)
        port = sock.getsockname()[1]
        if self._public_given is None:
            app = create_app(self.ledger, on_submit=self._producer.nudge)
            plan = [(self._uvicorn(app, protocol_for(self.ledger)), sock)]
        else:  # the default window is taken anew from the chain at each start
            plan = self._public_plan(self.ledger, self._public_given, sock)
        if self._services:
            plan += self._service_plan(self.ledger)
        self._servers = [server for server, _ in plan]
        self._thread = threading.Thread(
            target=_serve_together,
            args=(plan, self._closers),
            name="ledgerkit-node",
            daemon=True,
        )
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while not all(server.started for server in self._servers):
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the local node did not start; see the ledgerkit log")
            time.sleep(0.01)
        self._producer.start()
        self.url = f"{self._origin(port)}/v1"
        _log.info("local node at %s (ledger %s)", self.url, path)
        if self.archive_url:
            _log.info("archive node at %s", self.archive_url)
        return self

    def _public_plan(
        self, ledger: Ledger, settings: PublicSettings, sock: socket.socket
    ) -> list[tuple[uvicorn.Server, socket.socket]]:
        """The pruned fullnode on ``sock`` and the archive on a port of its own."""
        archive_sock = _bind(self._host, 0)
        archive_url = f"{self._origin(archive_sock.getsockname()[1])}/v1"
        assert self._producer is not None
        apps: PublicApps = public_apps(
            ledger, settings, archive_url=archive_url, on_submit=self._producer.nudge
        )
        self.public, self.api_key = apps.settings, apps.api_key
        self.archive_url, self._archive_log = archive_url, apps.archive_received
        return [
            (self._uvicorn(apps.fullnode, protocol_for(apps.fullnode_ledger)), sock),
            (self._uvicorn(apps.archive, protocol_for(ledger)), archive_sock),
        ]

    @property
    def archive_received(self) -> list[tuple[str, str, dict[str, str]]]:
        """What the public profile's archive received, oldest first (the newest
        ``PublicSettings.max_recorded``): ``(method, path and query, headers)``, header
        names lower-cased. Empty outside the public profile."""
        log = self._archive_log
        return [] if log is None else log.snapshot()

    def _origin(self, port: int) -> str:
        host = f"[{self._host}]" if ":" in self._host else self._host
        return f"http://{host}:{port}"

    def _uvicorn(self, app: Any, protocol: Any = "auto") -> uvicorn.Server:
        config = uvicorn.Config(
            app,
            http=protocol,
            log_level=self._log_level,
            access_log=False,
            lifespan="off",
            loop="auto",
            # Idle keep-alive connections outlive the clients' own expiry (httpx 5 s, aiohttp
            # 15 s): closed by the server first, a connection reused at that moment would
            # answer a request with a reset instead of a response.
            timeout_keep_alive=KEEP_ALIVE_SECONDS,
        )
        return uvicorn.Server(config)

    def _service_plan(self, ledger: Ledger) -> list[tuple[uvicorn.Server, socket.socket]]:
        """The faucet, the identity provider and the docs host, each on a free port."""
        socks = [_bind(self._host, 0) for _ in range(3)]
        faucet_origin, identity_origin, docs_origin = (
            self._origin(sock.getsockname()[1]) for sock in socks
        )
        identity = IdentityProvider()
        identity.bind(identity_origin)
        issuers = identity.issuers
        verifier = TokenVerifier(
            [
                TrustedIssuer(issuer.url, issuer.audience, issuer.url + "/jwks")
                for issuer in issuers.values()
            ]
        )
        assert self._producer is not None
        funder = LedgerFunder(ledger, on_submit=self._producer.nudge)
        faucet = create_faucet_app(funder, verifier, settings=self._faucet_settings)
        docs = create_docs_app(
            authorization_servers=[issuer.url for issuer in issuers.values()],
            project_issuer_metadata=issuers["project"].discovery,
            site=BuiltSite.found(),
        )
        self.identity = identity
        self._closers = [verifier.aclose]
        self.faucet_url, self.docs_url = faucet_origin, docs_origin
        apps = (faucet, identity.app(), docs)
        return [(self._uvicorn(app), sock) for app, sock in zip(apps, socks, strict=True)]

    @property
    def issuers(self) -> dict[str, str]:
        """The identity provider's issuer URLs: ``project`` and ``accounts``."""
        if self.identity is None:
            return {}
        return {name: issuer.url for name, issuer in self.identity.issuers.items()}

    def sign_in(
        self,
        email: str,
        *,
        name: str | None = None,
        issuer: str = "project",
        email_verified: bool = True,
    ) -> str:
        """A person signs in (scopes openid, email, profile): a signed ID token of the
        issuer, carrying the claims the real ones carry. Keep it out of notebook outputs.

        Raises
        ------
        RuntimeError
            The node runs without its services, or is not running.
        """
        if self.identity is None:
            raise RuntimeError("this node runs without its identity provider (services=False)")
        return self.identity.sign_in(email, name=name, issuer=issuer, email_verified=email_verified)

    def stop(self) -> None:
        """Stop serving, finish the block in progress, close the ledger."""
        if self._producer is not None:
            self._producer.stop()
            self._producer = None
        if self._servers:
            for server in self._servers:
                server.should_exit = True
            if self._thread is not None:
                self._thread.join(timeout=10)
            self._servers = []
            self.identity = None
            self.faucet_url = self.docs_url = self.archive_url = ""
            self.api_key = None
        if self.ledger is not None:
            self.ledger.close()
            self.ledger = None
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None

    @property
    def dev_accounts(self) -> list[Any]:
        """The funded accounts (address and private key) derived from the seed."""
        if self.ledger is None:
            raise RuntimeError("the node is not running; use it as a context manager")
        return list(self.ledger.dev_accounts)

    def __enter__(self) -> LocalNode:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = self.url or "stopped"
        return f"LocalNode(seed={self.config.seed}, {state})"


def _fullnode_window(settings: PublicSettings, prune_window: int | None) -> PublicSettings:
    """``settings`` with a node option ``prune_window`` as the fullnode's window."""
    if prune_window is None or prune_window == settings.prune_window:
        return settings
    if settings.prune_window is not None:
        raise NodeConfigError(
            f"two prune windows: {prune_window} and PublicSettings.prune_window="
            f"{settings.prune_window}; give one"
        )
    return replace(settings, prune_window=prune_window)
