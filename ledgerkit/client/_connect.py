"""``ledgerkit.connect``: a client for a node, starting the embedded one when none is named."""

from __future__ import annotations

import atexit
import logging
import os
from typing import Any, Final

from ledgerkit.client._sync import Client

__all__ = ["NODE_URL_ENV", "connect"]

#: Environment variable naming the node ``connect()`` uses when given no URL.
NODE_URL_ENV: Final = "LEDGERKIT_NODE_URL"

_log = logging.getLogger("ledgerkit.client")


def connect(url: str | None = None, **options: Any) -> Client:
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
    Client
        When it started the embedded node, ``client.node`` is that
        :class:`~ledgerkit.LocalNode` (its ``dev_accounts`` are funded); it stops when
        the client is closed, or when the process exits. The embedded node's ledger is a
        temporary file, so the persistent cache stays off for it unless ``cache=`` says
        otherwise.

    Examples
    --------
    >>> client = ledgerkit.connect()  # doctest: +SKIP
    >>> client.ledger_info().value.chain_id  # doctest: +SKIP
    4
    """
    url = url or os.environ.get(NODE_URL_ENV) or None
    if url is not None:
        return Client(url, **options)
    from ledgerkit.localnet import LocalNode  # heavy: only when the embedded node is wanted

    node = LocalNode().start()
    _log.info("connect(): started the embedded node at %s", node.url)
    try:
        client = Client(node.url, **options)
    except BaseException:
        node.stop()
        raise
    client.node = node
    # Kept alive for the process: stopped with the client, or at exit at the latest.
    atexit.register(node.stop)
    return client
