"""``ledgerkit.connect``: a client for a node, starting the embedded one when none is named.

The one place that knows both the client and the embedded node: the client neither starts
nor owns a server. A process has at most one embedded node of ``connect()``'s: the first
``connect()`` without a URL starts it, later ones give clients of the same node (a
notebook cell run again gets the chain it had, not a second node), and it stops when the
last client using it is closed, or when the process exits. With ``record=`` a client
records every answer into a snapshot file as it arrives, completed when it is closed;
with ``replay=`` it answers from such a file and sends nothing (see
:mod:`ledgerkit.client.snapshot`).
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, cast

from ledgerkit._errors import InputError
from ledgerkit._public import publish as _publish
from ledgerkit.client import AsyncClient, Client, known_indexer_url
from ledgerkit.client.snapshot import Snapshot, snapshot_of
from ledgerkit.faucet import FaucetClient, TokenProvider

if TYPE_CHECKING:
    from ledgerkit.localnet import LocalNode

__all__ = ["NODE_URL_ENV", "ConnectedClient", "connect"]

#: Environment variable naming the node ``connect()`` uses when given no URL.
NODE_URL_ENV: Final = "LEDGERKIT_NODE_URL"

_log = logging.getLogger("ledgerkit")


class _SharedNode:
    """The process's embedded node of :func:`connect`: started on first use, shared by
    every client that uses it, stopped when the last of them lets it go (or at exit)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._node: LocalNode | None = None
        self._users = 0

    def take(self) -> LocalNode:
        """The running embedded node, started now if there is none; one more user."""
        with self._lock:
            node = self._node
            if node is None or not node.running:  # none yet, or stopped by hand
                from ledgerkit.localnet import LocalNode  # heavy: only when wanted

                node = LocalNode().start()
                atexit.register(node.stop)
                self._node, self._users = node, 0
                _log.info("connect(): started the embedded node at %s", node.url)
            else:
                _log.info("connect(): the embedded node at %s, already running", node.url)
            self._users += 1
            return node

    def give_back(self, node: LocalNode) -> None:
        """One user fewer; the last one stops the node."""
        with self._lock:
            if node is not self._node:
                return  # replaced after being stopped by hand: not ours to count
            self._users -= 1
            if self._users > 0:
                return
            self._node = None
        atexit.unregister(node.stop)
        node.stop()


_SHARED: Final = _SharedNode()


class ConnectedClient(Client):
    """A :class:`~ledgerkit.Client` from :func:`connect`: uses the embedded node, if
    :func:`connect` gave it one, and lets it go when closed.

    Attributes
    ----------
    node : LocalNode or None
        The embedded node this client uses: the process's one, started by the first
        :func:`connect` without a URL and shared by later ones, stopped when the last
        client using it is closed (or when the process exits); ``None`` when
        :func:`connect` was given a node's URL, and once this client is closed.
    snapshot : Snapshot or None
        The :class:`~ledgerkit.client.snapshot.Snapshot` it records into (the answers
        appended as they arrive, committed in chunks; completed by :meth:`close`, or
        when the process exits at the latest; ``snapshot.save()`` commits at any time)
        or replays from; ``None`` for neither.
    """

    def __init__(self, base_url: str, *, node: LocalNode | None = None, **options: Any) -> None:
        super().__init__(base_url, **options)
        self.node = node

    @property
    def snapshot(self) -> Snapshot | None:
        return snapshot_of(self)

    def async_client(self, *, bulk: bool = False, **options: Any) -> AsyncClient:
        """An :class:`~ledgerkit.AsyncClient` of the same node, with the same settings
        (api key, headers, timeout, retries, limits), that records into this client's
        snapshot or replays from it, if any.

        Parameters
        ----------
        bulk : bool
            Over an :class:`~ledgerkit.client.AiohttpTransport` (HTTP parsed in C, for
            many reads at once); a replaying client sends nothing either way.
        **options
            Any :class:`~ledgerkit.AsyncClient` option, replacing this client's.

        Examples
        --------
        >>> async with client.async_client(bulk=True) as aclient:  # doctest: +SKIP
        ...     blocks = await asyncio.gather(*(aclient.block_by_height(h) for h in range(9)))
        """
        config = self.config
        settings: dict[str, Any] = {
            "api_key": config.api_key,
            "headers": dict(config.headers),
            "timeout": config.timeout,
            "retries": config.retry,
            "max_rps": config.max_rps,
            "max_concurrency": config.max_concurrency,
            "cache": False if self.snapshot is not None else config.cache or False,
            "indexer_url": config.indexer_url,
            **options,
        }
        snapshot = self.snapshot
        if snapshot is not None:
            return snapshot.async_client(config.base_url, bulk=bulk, **settings)
        if bulk and settings.get("transport") is None:
            from ledgerkit.client import AiohttpTransport

            settings["transport"] = AiohttpTransport(
                max_connections=settings["max_concurrency"] or 100
            )
        return AsyncClient(config.base_url, **settings)

    def __enter__(self) -> ConnectedClient:
        return self

    def faucet(
        self, email: str = "learner@example.com", *, name: str | None = None
    ) -> FaucetClient:
        """A :class:`~ledgerkit.FaucetClient` of the embedded node's faucet, signed in to
        its identity provider as ``email`` (a token refreshed before it expires), waiting
        on this client.

        Raises
        ------
        InputError
            This client talks to a node it did not start: build a
            :class:`~ledgerkit.FaucetClient` with that network's faucet URL and a token.
        """
        node = self.node
        if node is None or not node.faucet_url:
            raise InputError(
                "this client did not start the embedded node; use "
                "ledgerkit.FaucetClient(<faucet url>, token=..., node=client)"
            )
        tokens = TokenProvider(lambda: node.sign_in(email, name=name))
        return FaucetClient(node.faucet_url, token=tokens, node=self)

    def close(self) -> None:
        """Close the connections and the cache, write the snapshot it records, and let
        the embedded node go (stopped when no other client uses it)."""
        node, self.node = self.node, None
        snapshot = self.snapshot
        try:
            if snapshot is not None and not snapshot.replaying:
                atexit.unregister(snapshot.save)
                snapshot.save()
            elif snapshot is not None:
                snapshot.close()
        finally:
            try:
                super().close()
            finally:
                if node is not None:
                    _SHARED.give_back(node)


def connect(
    url: str | None = None,
    *,
    record: str | os.PathLike[str] | None = None,
    replay: str | os.PathLike[str] | None = None,
    **options: Any,
) -> ConnectedClient:
    """A :class:`~ledgerkit.Client` for a node: ``url``, else ``$LEDGERKIT_NODE_URL``,
    else the embedded local node, started now; or for the answers of a snapshot file.

    Parameters
    ----------
    url : str, optional
        The node's API root, e.g. ``"https://fullnode.testnet.aptoslabs.com/v1"``.
    record : path, optional
        Record every answer the client receives (and those of the
        :func:`~ledgerkit.extract.extract` runs given it) into this snapshot file
        (format version 2, replacing any file there): appended as they arrive, in
        chunks committed at least every second, with bounded memory; completed when the
        client is closed (or when the process exits). A file safe to commit: no api key,
        token or other secret is in it.
    replay : path, optional
        Answer from this snapshot file (either format version, or a recording that was
        killed: up to its last committed chunk), sending nothing: the same requests get the same
        answers, in the order they came, and waits take no time. ``url`` is not needed
        (the file names the node); given, it must be the node the file was recorded from.
    **options
        Any :class:`~ledgerkit.Client` option (``api_key``, ``timeout``, ``retries``,
        ``max_rps``, ``max_concurrency``, ``cache``, ``indexer_url``...). Unless given
        (``indexer_url=None`` for none), ``indexer_url`` is the embedded node's indexer,
        or that of a known public network's node (Aptos Labs' mainnet, testnet and
        devnet), or a local network's on port 8090 for a node on port 8080 of this
        machine; none while recording or replaying (a snapshot holds node answers).

    Returns
    -------
    ConnectedClient
        A :class:`~ledgerkit.Client`. Of the embedded node, ``client.node`` is that
        :class:`~ledgerkit.LocalNode` (its ``dev_accounts`` are funded). The process has
        one: ``connect()`` called again while it runs gives a client of the same node and
        the same chain (a notebook cell run twice does not start a second node), and it
        stops when the last client using it is closed, or when the process exits. Its
        ledger is a temporary file, so the persistent cache stays off for it unless
        ``cache=`` says otherwise. ``client.snapshot`` is the snapshot it records into or
        replays from.

    Raises
    ------
    InputError
        Both ``record`` and ``replay``; a ``url`` the replayed file was not recorded
        from; ``cache=`` asked for while recording or replaying (it stays off).
    SnapshotError
        The ``replay`` file is missing, truncated, corrupt or not a snapshot.

    Examples
    --------
    >>> client = ledgerkit.connect()  # doctest: +SKIP
    >>> client.ledger_info().value.chain_id  # doctest: +SKIP
    4
    >>> client = ledgerkit.connect(url, record="analysis.snapshot")  # doctest: +SKIP
    >>> client = ledgerkit.connect(replay="analysis.snapshot")  # doctest: +SKIP
    """
    if record is not None and replay is not None:
        raise InputError("record= and replay= exclude each other: a client does one or the other")
    if replay is not None:
        return _made(Snapshot.load(replay), url, options)
    url = url or os.environ.get(NODE_URL_ENV) or None
    recording = Snapshot(Path(record)) if record is not None else None
    if url is not None:
        if recording is None:
            return ConnectedClient(url, **{"indexer_url": known_indexer_url(url), **options})
        return _made(recording, url, options)
    node = _SHARED.take()
    try:
        if recording is None:
            indexed = {"indexer_url": node.indexer_url, **options}
            return ConnectedClient(node.url, node=node, **indexed)
        return _made(recording, node.url, {**options, "node": node})
    except BaseException:
        _SHARED.give_back(node)
        raise


def _made(snapshot: Snapshot, url: str | None, options: dict[str, Any]) -> ConnectedClient:
    """The client of ``url`` recording into or replaying from ``snapshot``."""
    made = cast("ConnectedClient", snapshot.client(url, factory=ConnectedClient, **options))
    if not snapshot.replaying:
        # Written when the client is closed, or at exit for a notebook that never closes it.
        atexit.register(snapshot.save)
    return made


# Front-door names (see ledgerkit._public).
_publish(globals(), ("ConnectedClient", "connect"), "ledgerkit")
