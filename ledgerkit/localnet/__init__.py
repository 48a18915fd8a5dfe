"""The embedded local node: a real HTTP server over a persistent, deterministic ledger.

``LocalNode`` runs it in the background (``with LocalNode(seed=1) as node: node.url``);
``ledgerkit node`` runs it from the shell. It implements the node API under ``/v1`` over
SQLite, filled by a seeded chain generator and driven by a Python executor for a set of
framework functions, so every notebook and test runs offline and reproducibly.

Inside, by concept (each folder's docstring says what it holds and exports):

* ``ledger``: the ledger the app calls, with its reads and its views;
* ``store``: the SQLite file, its reads and its mempool table;
* ``chain``: the deterministic generator, its workload and the block builder;
* ``vm``: the executor, the gas schedule and the framework at ``0x1``;
* ``mempool``: accepted transactions waiting for a block, and their journal;
* ``wire``: transactions in the API's JSON and as BCS records;
* ``app``: the HTTP app, one module per REST tag, and its OpenAPI document;
* ``services``: the faucet, the identity provider and the docs host;
* ``public``: the public profile, a pruned fullnode behind a public gateway and an
  archive node over the same ledger (settings: :class:`PublicSettings`);

and at the root the server (``_server``), the foreground command (``_foreground``), the
settings (``_node_config``) and the node's errors (``_node_errors``).
"""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.localnet._foreground import serve
from ledgerkit.localnet._node_config import ENDPOINT_GROUPS, NodeConfig
from ledgerkit.localnet._node_errors import (
    IncompleteChainError,
    NodeConfigError,
    PortInUseError,
)
from ledgerkit.localnet._server import PROFILES, LocalNode
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.localnet.public import PublicSettings
from ledgerkit.localnet.services import FaucetSettings, IdentityProvider

__all__ = [
    "ENDPOINT_GROUPS",
    "PROFILES",
    "FaucetSettings",
    "IdentityProvider",
    "IncompleteChainError",
    "Ledger",
    "LocalNode",
    "NodeConfig",
    "NodeConfigError",
    "PortInUseError",
    "PublicSettings",
    "serve",
]

# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)
_publish(globals(), ("LocalNode", "NodeConfig"), "ledgerkit")  # the front door's
