"""The node's neighbours, emulated offline: the faucet, its identity provider and the
docs host, each an ASGI app the local node serves on its own loopback port.

Their routes are their services' rows of the endpoint table (``ledgerkit._endpoints``).

* the identity provider (:class:`IdentityProvider`): two OpenID Connect issuers whose
  local sign-in gives signed ID tokens;
* the faucet (:func:`create_faucet_app`): funds an address through real transactions on
  the node for a token its :class:`TokenVerifier` accepts;
* the docs host (:func:`create_docs_app`): ledgerkit's own pages (:class:`PageStore`) as
  HTML and Markdown, ``llms.txt`` and the OAuth discovery documents, and the built docs
  site (:class:`BuiltSite`) when there is one.
"""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.localnet.services._docs_host import CACHE_CONTROL, create_docs_app, wants_markdown
from ledgerkit.localnet.services._faucet import FaucetSettings, LedgerFunder, create_faucet_app
from ledgerkit.localnet.services._identity_provider import IdentityProvider, Issuer
from ledgerkit.localnet.services._pages import Page, PageStore, bundled_pages
from ledgerkit.localnet.services._site import SITE_ENV, BuiltSite, SiteFile
from ledgerkit.localnet.services._token_checks import (
    TokenRejected,
    TokenVerifier,
    TrustedIssuer,
    bearer_token,
)

__all__ = [
    "CACHE_CONTROL",
    "SITE_ENV",
    "BuiltSite",
    "FaucetSettings",
    "IdentityProvider",
    "Issuer",
    "LedgerFunder",
    "Page",
    "PageStore",
    "SiteFile",
    "TokenRejected",
    "TokenVerifier",
    "TrustedIssuer",
    "bearer_token",
    "bundled_pages",
    "create_docs_app",
    "create_faucet_app",
    "wants_markdown",
]

# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)
