"""``ledgerkit.connect``: a client for a node, starting the embedded one when none is named.

The one place that knows both the client and the embedded node: the client neither starts
nor owns a server; the client ``connect()`` returns owns the node it started, and stops it
when closed.
"""

from __future__ import annotations

import atexit
import logging
import os
from typing import TYPE_CHECKING, Any, Final

from ledgerkit._errors import InputError
from ledgerkit._public import publish as _publish
from ledgerkit.client import Client
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
    """

    def __init__(self, base_url: str, *, node: LocalNode | None = None, **options: Any) -> None:
        super().__init__(base_url, **options)
        self.node = node
        if node is not None:
            # Kept alive for the process: stopped with the client, or at exit at the latest.
            atexit.register(node.stop)

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
        """Close the connections and the cache, and stop the embedded node it started."""
        node, self.node = self.node, None
        try:
            super().close()
        finally:
            if node is not None:
                atexit.unregister(node.stop)
                node.stop()


def connect(url: str | None = None, **options: Any) -> ConnectedClient:
    """A :class:`~ledgerkit.Client` for a node: ``url``, else ``$LEDGERKIT_NODE_URL``,
    else the embedded local node, started now.

    Parameters
    ----------
    url : str, optional
        The node's API root, e.g. ``"https://fullnode.testnet.aptoslabs.com/v1"``.
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
        it unless ``cache=`` says otherwise.

    Examples
    --------
    >>> client = ledgerkit.connect()  # doctest: +SKIP
    >>> client.ledger_info().value.chain_id  # doctest: +SKIP
    4
    """
    url = url or os.environ.get(NODE_URL_ENV) or None
    if url is not None:
        return ConnectedClient(url, **options)
    from ledgerkit.localnet import LocalNode  # heavy: only when the embedded node is wanted

    node = LocalNode().start()
    _log.info("connect(): started the embedded node at %s", node.url)
    try:
        return ConnectedClient(node.url, node=node, **options)
    except BaseException:
        node.stop()
        raise


# Front-door names (see ledgerkit._public).
_publish(globals(), ("ConnectedClient", "connect"), "ledgerkit")
