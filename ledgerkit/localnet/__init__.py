"""The embedded local node: a real HTTP server over a persistent, deterministic ledger.

``LocalNode`` runs it in the background (``with LocalNode(seed=1) as node: node.url``);
``ledgerkit node`` runs it from the shell. It implements the node API under ``/v1`` over
SQLite, filled by a seeded chain generator and driven by a Python executor for a set of
framework functions, so every notebook and test runs offline and reproducibly.
"""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.localnet._node_config import ENDPOINT_GROUPS, NodeConfig
from ledgerkit.localnet._node_errors import IncompleteChainError, NodeConfigError
from ledgerkit.localnet._server import LocalNode, serve
from ledgerkit.localnet.services import FaucetSettings

__all__ = [
    "ENDPOINT_GROUPS",
    "FaucetSettings",
    "IncompleteChainError",
    "LocalNode",
    "NodeConfig",
    "NodeConfigError",
    "serve",
]

# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)
_publish(globals(), ("LocalNode", "NodeConfig"), "ledgerkit")  # the front door's
