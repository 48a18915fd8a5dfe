"""``ledgerkit.connect``: a client for a node, starting the embedded one when none is named.

The one place that knows both the client and the embedded node: the client neither starts
nor owns a server; the client ``connect()`` returns owns the node it started, and stops it
when closed. With ``record=`` it records every answer into a snapshot file, written when
it is closed; with ``replay=`` it answers from such a file and sends nothing (see
:mod:`ledgerkit.client.snapshot`).
"""

from __future__ import annotations

import atexit
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, cast

from ledgerkit._errors import InputError
from ledgerkit._public import publish as _publish
from ledgerkit.client import AsyncClient, Client
from ledgerkit.client.snapshot import Snapshot, snapshot_of
from ledgerkit.faucet import FaucetClient, TokenProvider

if TYPE_CHECKING:
    from ledgerkit.localnet import LocalNode

__all__ = ["NODE_URL_ENV", "ConnectedClient", "connect"]

#: Environment variable naming the node ``connect()`` uses when given no URL.
NODE_URL_ENV: Final = "LEDGERKIT_NODE_URL"

_log = logging.getLogger("ledgerkit")


class ConnectedClient(Client):
    """A :class:`~ledgerkit.Client` from :func:`connect`: owns the embedded node it
    started, if any, and stops it when closed.

    Attributes
    ----------
    node : LocalNode or None
        The embedded node :func:`connect` started for this client (stopped by
        :meth:`close`, or when the process exits at the latest); ``None`` when
        :func:`connect` was given a node's URL.
    snapshot : Snapshot or None
        The :class:`~ledgerkit.client.snapshot.Snapshot` it records into (written by
        :meth:`close`, or when the process exits at the latest; ``snapshot.save()``
        writes it at any time) or replays from; ``None`` for neither.
    """

    def __init__(self, base_url: str, *, node: LocalNode | None = None, **options: Any) -> None:
        super().__init__(base_url, **options)
        self.node = node
        if node is not None:
            # Kept alive for the process: stopped with the client, or at exit at the latest.
            atexit.register(node.stop)

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
        """Close the connections and the cache, write the snapshot it records, and stop
        the embedded node it started."""
        node, self.node = self.node, None
        snapshot = self.snapshot
        try:
            if snapshot is not None and not snapshot.replaying:
                atexit.unregister(snapshot.save)
                snapshot.save()
        finally:
            try:
                super().close()
            finally:
                if node is not None:
                    atexit.unregister(node.stop)
                    node.stop()


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
        :func:`~ledgerkit.extract.extract` runs given it) into this snapshot file,
        written when the client is closed (or when the process exits); a file safe to
        commit: no api key, token or other secret is in it.
    replay : path, optional
        Answer from this snapshot file, sending nothing: the same requests get the same
        answers, in the order they came, and waits take no time. ``url`` is not needed
        (the file names the node); given, it must be the node the file was recorded from.
    **options
        Any :class:`~ledgerkit.Client` option (``api_key``, ``timeout``, ``retries``,
        ``max_rps``, ``max_concurrency``, ``cache``...).

    Returns
    -------
    ConnectedClient
        A :class:`~ledgerkit.Client`. When it started the embedded node,
        ``client.node`` is that :class:`~ledgerkit.LocalNode` (its ``dev_accounts`` are
        funded); it stops when the client is closed, or when the process exits. The
        embedded node's ledger is a temporary file, so the persistent cache stays off for
        it unless ``cache=`` says otherwise. ``client.snapshot`` is the snapshot it
        records into or replays from.

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
            return ConnectedClient(url, **options)
        return _made(recording, url, options)
    from ledgerkit.localnet import LocalNode  # heavy: only when the embedded node is wanted

    node = LocalNode().start()
    _log.info("connect(): started the embedded node at %s", node.url)
    try:
        if recording is None:
            return ConnectedClient(node.url, node=node, **options)
        return _made(recording, node.url, {**options, "node": node})
    except BaseException:
        node.stop()
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
