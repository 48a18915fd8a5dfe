"""The node's neighbours wired to its ledger: the faucet, the identity provider whose ID
tokens the faucet asks for, the docs host, and the indexer (its tables in a file beside
the ledger's, kept up by a thread, and its GraphQL API), each an app for its own socket."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ledgerkit._errors import LocalNodeError
from ledgerkit.localnet.indexer import IndexerDb, IndexerThread, create_indexer_app
from ledgerkit.localnet.ledger import Ledger
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

__all__ = ["SERVICES", "Indexer", "ServiceApps", "indexer_for", "service_apps"]

#: The services, in the order of the origins :func:`service_apps` takes.
SERVICES = ("faucet", "identity", "docs")


@dataclass(frozen=True, slots=True)
class ServiceApps:
    """The apps of the services (in the order of :data:`SERVICES`), what to close once
    they stop (in their loop), and where they answer."""

    apps: tuple[Any, Any, Any]
    closers: list[Callable[[], Awaitable[None]]]
    faucet_url: str
    docs_url: str
    issuers: dict[str, str]


def service_apps(
    ledger: Ledger,
    origins: Sequence[str],
    identity: IdentityProvider,
    *,
    on_submit: Callable[[], None],
    faucet: FaucetSettings,
) -> ServiceApps:
    """The faucet, the identity provider and the docs host at ``origins`` (one each, in
    the order of :data:`SERVICES`); ``identity`` is bound to its origin."""
    faucet_origin, identity_origin, docs_origin = origins
    identity.bind(identity_origin)
    issuers = identity.issuers
    verifier = TokenVerifier(
        [
            TrustedIssuer(issuer.url, issuer.audience, issuer.url + "/jwks")
            for issuer in issuers.values()
        ]
    )
    funder = LedgerFunder(ledger, on_submit=on_submit)
    docs = create_docs_app(
        authorization_servers=[issuer.url for issuer in issuers.values()],
        project_issuer_metadata=issuers["project"].discovery,
        site=BuiltSite.found(),
    )
    return ServiceApps(
        apps=(create_faucet_app(funder, verifier, settings=faucet), identity.app(), docs),
        closers=[verifier.aclose],
        faucet_url=faucet_origin,
        docs_url=docs_origin,
        issuers={name: issuer.url for name, issuer in issuers.items()},
    )


@dataclass(frozen=True, slots=True)
class Indexer:
    """The indexer of a running node: its app, and what to stop and close with the node."""

    app: Any
    db: IndexerDb
    thread: IndexerThread

    def stop(self) -> None:
        self.thread.stop()  # returns once the thread has ended: its file may close
        self.db.close()


def indexer_for(ledger: Ledger, ledger_path: Path) -> Indexer:
    """The indexer of ``ledger`` in its file beside the ledger's (``<ledger file>.indexer``),
    caught up with the ledger (so its first answers hold every committed block) and kept
    up by its thread once started.

    Raises
    ------
    LocalNodeError
        Its file is one the indexer cannot read (not SQLite).
    """
    path = ledger_path.with_name(ledger_path.name + ".indexer")
    try:
        db = IndexerDb(path)
    except sqlite3.DatabaseError as exc:
        raise LocalNodeError(
            f"the indexer's file {path} is not one it can read ({exc}); remove it and the "
            "node indexes its ledger again"
        ) from exc
    try:
        db.catch_up(ledger)
    except BaseException:
        db.close()
        raise
    return Indexer(create_indexer_app(db), db, IndexerThread(db, ledger))
