"""The public profile: the embedded node as public networks show themselves.

``LocalNode(profile="public")`` serves one chain twice: a pruned fullnode behind a public
gateway, and an archive node with all of history at another origin.

* ``_public_settings``: :class:`PublicSettings`, the profile's settings;
* ``_pruned_ledger``: :class:`PrunedLedger`, the shared ledger through the fullnode's
  rolling window;
* ``_fullnode_gateway``: :class:`FullnodeGateway`, API keys, compute units, load shedding,
  chunked bodies and the archive's address on pruned answers;
* ``_archive_gate``: :class:`ArchiveGate`, the archive's front, refusing keys and recording
  what it received (:class:`RequestLog`);
* ``_compute_meter``: :class:`ComputeMeter`, budgets per caller and window;
* ``_gateway_answers``: what the gateways share (callers, costs, their error records);
* ``_public_apps``: :func:`public_apps`, both apps over one ledger.
"""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.localnet.public._archive_gate import ArchiveGate, RequestLog
from ledgerkit.localnet.public._compute_meter import ComputeMeter
from ledgerkit.localnet.public._fullnode_gateway import FullnodeGateway
from ledgerkit.localnet.public._gateway_answers import OVERLOADED, UNAUTHORIZED, is_page_read
from ledgerkit.localnet.public._pruned_ledger import PrunedLedger, PrunedReads
from ledgerkit.localnet.public._public_apps import PublicApps, new_api_key, public_apps
from ledgerkit.localnet.public._public_settings import (
    DEFAULT_PRUNE_SHARE,
    PublicSettings,
    default_prune_window,
)

__all__ = [
    "DEFAULT_PRUNE_SHARE",
    "OVERLOADED",
    "UNAUTHORIZED",
    "ArchiveGate",
    "ComputeMeter",
    "FullnodeGateway",
    "PrunedLedger",
    "PrunedReads",
    "PublicApps",
    "PublicSettings",
    "RequestLog",
    "default_prune_window",
    "is_page_read",
    "new_api_key",
    "public_apps",
]

# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)
