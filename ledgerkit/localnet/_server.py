"""Running the embedded node: ``LocalNode``, a background server for Python and Jupyter
(``serve``, the foreground server behind ``ledgerkit node``, runs one).

Beside the node API, each on its own loopback port, run its neighbours: the faucet, the
identity provider whose ID tokens the faucet asks for, and the docs host
(``ledgerkit.localnet.services``). In the public profile (``ledgerkit.localnet.public``)
an archive node over the same ledger runs beside them. All the servers share one thread
and one event loop; how they run (the block producer, the HTTP protocol, the sockets) is
in ``_serving``.

A node keeps what it learnt at its first start (its URLs, the public profile's key, its
dev accounts) once stopped, and a restart serves again at the same URLs: that record, and
the URLs and sockets it is made of, and the servers a start runs, each on its socket, are
in ``_node_plan``.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Any, Final

import uvicorn

from ledgerkit._errors import LocalNodeError, NodeStoppedError
from ledgerkit.keys import Account
from ledgerkit.localnet._node_config import NodeConfig
from ledgerkit.localnet._node_errors import NodeConfigError
from ledgerkit.localnet._node_plan import Known, Wanted, fullnode_window, plan_servers
from ledgerkit.localnet._node_services import Indexer, indexer_for
from ledgerkit.localnet._serving import BlockProducer, serve_together
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.localnet.public import PublicSettings, RequestLog
from ledgerkit.localnet.services import FaucetSettings, IdentityProvider

__all__ = ["PROFILES", "LocalNode"]

_log = logging.getLogger("ledgerkit.localnet")

START_TIMEOUT_SECONDS: Final = 60.0
#: The node's profiles: ``local`` (one node, the default) and ``public`` (a pruned
#: fullnode behind a public gateway, and an archive node).
PROFILES: Final = ("local", "public")


class LocalNode:
    """The embedded node in a background thread: ``with LocalNode() as node: node.url``.

    Parameters
    ----------
    db : path, optional
        SQLite file of the ledger. Reopening a file carries on from its last block.
        Without one, the node uses a temporary file removed when it stops.
    host, port : str, int
        Where to listen; port 0 picks a free port. Only loopback unless told otherwise.
    faucet_port : int
        The faucet's port; 0 (the default) picks a free one. The identity provider and
        the docs host always take free ones.
    log_level : str
        uvicorn's log level (``"warning"``).
    services : bool
        Also run the faucet, the identity provider, the docs host and the indexer (each
        on a port of its own).
    indexer_port : int
        The indexer's port (0, the default: a free one); with ``services=True``.
    faucet : FaucetSettings, optional
        The faucet's settings: the token-protected testnet faucet when omitted;
        ``FaucetSettings.local()`` for the open faucet of a local network.
    profile : {"local", "public"}
        ``"local"``: one node keeping what ``prune_window`` says. ``"public"``: the node as
        public networks show themselves (see ``docs/localnet.md``): at ``url`` a pruned
        fullnode behind a gateway (API keys, compute-unit rate limits, load shedding),
        and at ``archive_url`` an archive node over the same ledger with all of history.
    public : PublicSettings, optional
        The public profile's settings (its default ones when omitted). A ``prune_window``
        option is then the fullnode's window, the archive keeping everything.
    time_source : callable, optional
        The wall clock a node with ``clock="wall"`` reads: a function of no arguments
        answering microseconds since the Unix epoch (by default this machine's clock;
        tests pass a fake one to move the chain's time without waiting).
    **options
        Any :class:`NodeConfig` field: ``seed``, ``blocks``, ``anchor``, ``chain_id``,
        ``dev_accounts``, ``block_interval``, ``prune_window``, ``disabled``, ``clock``
        (``"chain"`` by default; ``"wall"``: the chain's time follows the wall clock,
        with an empty block whenever the node is idle a second) ...
        A new ledger is a copy of the cached chain of these options when there is one.

    Attributes
    ----------
    url : str
        The node API's root, ``http://127.0.0.1:<port>/v1`` (in the public profile, the
        pruned fullnode behind its gateway).
    archive_url : str or None
        The public profile's archive node, ``http://127.0.0.1:<port>/v1`` on a port of
        its own; ``None`` in the local profile (known from the start).
    api_key : str or None
        The key the public fullnode issues, sent as ``Authorization: Bearer <key>``: one
        per node, kept across restarts, never shown by ``repr``. ``None`` in the local
        profile (known from the start).
    faucet_url, docs_url : str or None
        Roots of the faucet and the docs host, ``http://127.0.0.1:<port>``; ``None``
        with ``services=False`` (known from the start).
    indexer_url : str or None
        The indexer's GraphQL API, ``http://127.0.0.1:<port>/v1/graphql`` (tables in
        ``<db>.indexer``); ``None`` with ``services=False``.
    issuers : dict of str to str
        The identity provider's issuer URLs, ``{"project": "<root>/project",
        "accounts": "<root>/accounts"}``; empty with ``services=False``.
    identity : IdentityProvider or None
        The identity provider, whose issuers sign the ID tokens of :meth:`sign_in`; the
        same one (the same signing keys) across restarts. ``None`` with ``services=False``.
    dev_accounts : list of Account
        The funded accounts (address and private key) derived from the seed: the same
        at every start on the same ledger file, and of a new temporary one.
    ledger : Ledger
        The ledger being served (the node's own object, for its tests and tools).
    running : bool
        Whether it serves now.
    archive_received : list of tuple
        What the public profile's archive received (see the property).
    config : NodeConfig
        The settings of the chain and the node (``**options``).
    profile : str
        ``"local"`` or ``"public"``.
    public : PublicSettings or None
        The public profile's settings, its ``prune_window`` resolved from the chain at
        each start; ``None`` in the local profile.

    Before the first :meth:`start`, reading ``url``, a public node's ``archive_url`` and
    ``api_key``, a node with services' ``faucet_url``, ``docs_url``, ``indexer_url``,
    ``issuers`` and ``identity``, or ``dev_accounts`` raises
    :class:`~ledgerkit.NodeStoppedError`: the node does not know them yet. Once started
    they keep their values after :meth:`stop`. ``ledger`` needs the running node and
    raises it whenever stopped.

    ``start()`` on a running node and ``stop()`` on a stopped (or never started) one do
    nothing. ``start()`` after ``stop()`` serves again at the same URLs (the same ports),
    with the same key and identity provider: on the same ledger file with ``db=``,
    carrying on from its last block, else on a new temporary ledger of the same options
    (the same generated chain and dev accounts; what was submitted before is gone).
    ``with node:`` starts it unless it runs, and stops it at the end of the block only
    if that ``with`` started it.

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
        faucet_port: int = 0,
        log_level: str = "warning",
        services: bool = True,
        indexer_port: int = 0,
        faucet: FaucetSettings | None = None,
        profile: str = "local",
        public: PublicSettings | None = None,
        time_source: Callable[[], int] | None = None,
        **options: Any,
    ) -> None:
        if profile not in PROFILES:
            raise NodeConfigError(f"profile must be one of {list(PROFILES)}, got {profile!r}")
        if profile != "public" and public is not None:
            raise NodeConfigError("public settings are for profile='public'")
        if profile == "public":
            public = fullnode_window(public or PublicSettings(), options.pop("prune_window", None))
        self.config = NodeConfig(**options)
        self.profile = profile
        self.public = public
        self._public_given = public
        self._services = services
        self._indexer: Indexer | None = None
        self._faucet_settings = faucet or FaucetSettings()
        self._db = Path(db) if db is not None else None
        self._host = host
        #: The port asked for each server by name (the others take free ones).
        self._asked = {"node": port, "faucet": faucet_port, "indexer": indexer_port}
        self._log_level = log_level
        self._time_source = time_source
        #: What the node learnt when it started; the port of each server, for a restart.
        self._known: Known | None = None
        self._ports: dict[str, int] = {}
        self._identity: IdentityProvider | None = None
        self._archive_log: RequestLog | None = None
        self._ledger: Ledger | None = None
        self._tmpdir: str | None = None
        self._servers: list[uvicorn.Server] = []
        self._thread: threading.Thread | None = None
        self._producer: BlockProducer | None = None
        #: Run in the servers' loop once they stop: the faucet's client of the issuers' keys.
        self._closers: list[Callable[[], Awaitable[None]]] = []
        #: For each ``with`` block open on the node, whether its entry started it.
        self._entered: list[bool] = []

    # -- what the node knows ---------------------------------------------------------------

    def _learnt(self, what: str) -> Known:
        if self._known is None:
            raise NodeStoppedError(
                f"LocalNode.{what} is not known yet: the node is stopped (never started); "
                "call start() or use it in a with block"
            )
        return self._known

    @property
    def url(self) -> str:
        """The node API's root, ``http://127.0.0.1:<port>/v1``, once started."""
        return self._learnt("url").url

    @property
    def archive_url(self) -> str | None:
        """The public profile's archive node, ``http://127.0.0.1:<port>/v1``, once
        started; ``None`` in the local profile."""
        if self._public_given is None:
            return None
        return self._learnt("archive_url").archive_url

    @property
    def api_key(self) -> str | None:
        """The public fullnode's key, once started; ``None`` in the local profile."""
        if self._public_given is None:
            return None
        return self._learnt("api_key").api_key

    @property
    def faucet_url(self) -> str | None:
        """The faucet's root, ``http://127.0.0.1:<port>``, once started; ``None`` with
        ``services=False``."""
        return self._learnt("faucet_url").faucet_url if self._services else None

    @property
    def faucet_settings(self) -> FaucetSettings | None:
        """How the faucet funds (open or token-protected, its limit); ``None`` with
        ``services=False``."""
        return self._faucet_settings if self._services else None

    @property
    def docs_url(self) -> str | None:
        """The docs host's root, ``http://127.0.0.1:<port>``, once started; ``None`` with
        ``services=False``."""
        return self._learnt("docs_url").docs_url if self._services else None

    @property
    def indexer_url(self) -> str | None:
        """The indexer's GraphQL API, ``http://127.0.0.1:<port>/v1/graphql``, once
        started; ``None`` with ``services=False``."""
        return self._learnt("indexer_url").indexer_url if self._services else None

    @property
    def issuers(self) -> dict[str, str]:
        """The identity provider's issuer URLs: ``project`` and ``accounts`` (none with
        ``services=False``)."""
        return dict(self._learnt("issuers").issuers) if self._services else {}

    @property
    def identity(self) -> IdentityProvider | None:
        """The identity provider, once started; ``None`` with ``services=False``."""
        if not self._services:
            return None
        self._learnt("identity")
        return self._identity

    @property
    def dev_accounts(self) -> list[Account]:
        """The funded accounts (address and private key) derived from the seed, once started."""
        return list(self._learnt("dev_accounts").dev_accounts)

    @property
    def ledger(self) -> Ledger:
        """The ledger being served, while the node runs."""
        if self._ledger is None:
            raise NodeStoppedError(
                "LocalNode.ledger needs the running node, and the node is stopped; "
                "call start() or use it in a with block"
            )
        return self._ledger

    @property
    def running(self) -> bool:
        """Whether the node serves now."""
        return bool(self._servers)

    @property
    def archive_received(self) -> list[tuple[str, str, dict[str, str]]]:
        """What the public profile's archive received, oldest first (the newest
        ``PublicSettings.max_recorded``): ``(method, path and query, headers)``, header
        names lower-cased; of the last start once stopped. Empty outside the public
        profile, and before the first start."""
        log = self._archive_log
        return [] if log is None else log.snapshot()

    # -- starting and stopping -------------------------------------------------------------

    def start(self) -> LocalNode:
        """Open (or generate) the ledger and serve it; returns when ``url`` answers.

        On a running node it does nothing; after :meth:`stop` it serves again at the same
        URLs (see the class).

        Raises
        ------
        LocalNodeError
            The servers did not start, or a restart cannot listen again on a port it had.
        PortInUseError
            A port asked for (``port``, ``faucet_port``) is taken.
        """
        if self._servers:
            return self
        path = self._ledger_path()
        try:
            ledger = self._ledger = Ledger.open(path, self.config, time_source=self._time_source)
            ledger.idle_tick()  # on the wall clock, the chain's time is now's from the start
            producer = self._producer = BlockProducer(ledger, self.config.block_interval)
            identity = None
            if self._services:
                self._indexer = indexer_for(ledger, path)
                identity = self._identity or IdentityProvider()  # its keys outlive a restart
            planned = plan_servers(
                ledger,
                Wanted(
                    host=self._host,
                    asked=self._asked,
                    had=self._ports,
                    log_level=self._log_level,
                    on_submit=producer.nudge,
                    public=self._public_given,
                    api_key=self._known.api_key if self._known is not None else None,
                    identity=identity,
                    indexer_app=None if self._indexer is None else self._indexer.app,
                    faucet=self._faucet_settings,
                ),
            )
        except BaseException:
            self.stop()  # the temporary ledger removed, the sockets made closed
            raise
        known, plan = planned.known, planned.plan
        self._identity, self._closers = identity or self._identity, planned.closers
        if planned.public is not None:
            self.public, self._archive_log = planned.public, planned.archive_log
        self._servers = [server for server, _ in plan]
        self._thread = threading.Thread(
            target=serve_together,
            args=(plan, self._closers),
            name="ledgerkit-node",
            daemon=True,
        )
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while not all(server.started for server in self._servers):
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise LocalNodeError("the local node did not start; see the ledgerkit log")
            time.sleep(0.01)
        producer.start()
        if self._indexer is not None:
            self._indexer.thread.start()
        self._ports = planned.ports
        self._known = replace(known, dev_accounts=tuple(ledger.dev_accounts))
        _log.info("local node at %s (ledger %s)", known.url, path)
        if known.archive_url:
            _log.info("archive node at %s", known.archive_url)
        return self

    def _ledger_path(self) -> Path:
        if self._db is None:
            self._tmpdir = tempfile.mkdtemp(prefix="ledgerkit-node-")
            return Path(self._tmpdir) / "ledger.sqlite3"
        self._db.parent.mkdir(parents=True, exist_ok=True)
        return self._db

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

        The identity provider outlives a stop: a token signed while the node is stopped
        is good once it runs again.

        Raises
        ------
        NodeStoppedError
            The node never started (its identity provider does not exist yet).
        LocalNodeError
            The node runs without its services.
        """
        identity = self.identity
        if identity is None:
            raise LocalNodeError("this node runs without its identity provider (services=False)")
        return identity.sign_in(email, name=name, issuer=issuer, email_verified=email_verified)

    def stop(self) -> None:
        """Stop serving, finish the block in progress, close the ledger (a temporary one
        is removed). What the node learnt at its start stays readable (see the class);
        on a stopped node it does nothing."""
        if self._producer is not None:
            self._producer.stop()
            self._producer = None
        if self._servers:
            for server in self._servers:
                server.should_exit = True
            if self._thread is not None:
                self._thread.join(timeout=10)
            self._servers = []
        if self._indexer is not None:
            self._indexer.stop()
            self._indexer = None
        if self._ledger is not None:
            self._ledger.close()
            self._ledger = None
        if self._tmpdir is not None:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None

    def __enter__(self) -> LocalNode:
        started_here = not self.running
        self.start()
        self._entered.append(started_here)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if not self._entered or self._entered.pop():
            self.stop()

    def __repr__(self) -> str:
        known = self._known
        if known is None:
            state = "not started"
        elif self.running:
            state = f"running at {known.url}"
        else:
            state = f"stopped, was at {known.url}"
        profile = f", profile={self.profile!r}" if self.profile != "local" else ""
        clock = f", clock={self.config.clock!r}" if self.config.clock != "chain" else ""
        return f"LocalNode(seed={self.config.seed}{profile}{clock}, {state})"
