"""The two apps of the public profile over one ledger: the pruned fullnode behind its
gateway, and the archive with all of history behind its gate."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace

from starlette.applications import Starlette
from starlette.middleware import Middleware

from ledgerkit.localnet.app import create_app
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.localnet.public._archive_gate import ArchiveGate, RequestLog
from ledgerkit.localnet.public._fullnode_gateway import FullnodeGateway
from ledgerkit.localnet.public._pruned_ledger import PrunedLedger
from ledgerkit.localnet.public._public_settings import PublicSettings, default_prune_window

__all__ = ["PublicApps", "new_api_key", "public_apps"]


def new_api_key() -> str:
    """A fresh random API key (a new one each time a node starts)."""
    return "lk_" + secrets.token_urlsafe(24)


@dataclass(frozen=True, slots=True, repr=False)
class PublicApps:
    """What :func:`public_apps` builds.

    Attributes
    ----------
    settings : PublicSettings
        The settings, ``prune_window`` resolved to the versions the fullnode keeps.
    fullnode_ledger : PrunedLedger
        The fullnode's view of the ledger.
    fullnode : Starlette
        The fullnode's app, its gateway inside.
    archive : Starlette
        The archive's app, its gate inside.
    archive_received : RequestLog
        What the archive received.
    api_key : str
        The key the fullnode issues.
    """

    settings: PublicSettings
    fullnode_ledger: PrunedLedger
    fullnode: Starlette
    archive: Starlette
    archive_received: RequestLog
    api_key: str

    def __repr__(self) -> str:  # the key stays out of reprs
        return f"PublicApps(prune_window={self.settings.prune_window})"


def public_apps(
    ledger: Ledger,
    settings: PublicSettings,
    *,
    archive_url: str,
    on_submit: Callable[[], None] | None = None,
    api_key: str | None = None,
) -> PublicApps:
    """The public profile's fullnode and archive over ``ledger``.

    Parameters
    ----------
    ledger : Ledger
        The shared ledger, keeping all of history.
    settings : PublicSettings
        The profile's settings; without a ``prune_window``, the fullnode keeps the newest
        40% of the versions ``ledger`` holds now.
    archive_url : str
        Where the archive's ``/v1`` is served, named in the fullnode's pruned answers.
    on_submit : callable, optional
        Called after each accepted submission, on either node.
    api_key : str, optional
        The fullnode's key; by default a new random one.
    """
    window = settings.prune_window
    if window is None:
        window = default_prune_window(ledger.reads.head.version + 1)
    resolved = replace(settings, prune_window=window)
    key = api_key if api_key is not None else new_api_key()
    seed = resolved.seed if resolved.seed is not None else ledger.config.seed
    fullnode_ledger = PrunedLedger(ledger, window)
    gateway = Middleware(
        FullnodeGateway, settings=resolved, api_key=key, archive_url=archive_url, seed=seed
    )
    fullnode = create_app(fullnode_ledger, on_submit=on_submit, middleware=[gateway])
    received = RequestLog(resolved.max_recorded)
    gate = Middleware(ArchiveGate, settings=resolved, received=received)
    archive = create_app(ledger, on_submit=on_submit, middleware=[gate])
    return PublicApps(
        settings=resolved,
        fullnode_ledger=fullnode_ledger,
        fullnode=fullnode,
        archive=archive,
        archive_received=received,
        api_key=key,
    )
