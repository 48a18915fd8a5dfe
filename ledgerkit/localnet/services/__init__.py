"""The node's neighbours, emulated offline: the faucet, its identity provider and the
docs host, each an ASGI app the local node serves on its own loopback port.

Their routes are their services' rows of the endpoint table (``ledgerkit._endpoints``).
The docs host (``create_docs_app``) serves ledgerkit's own pages (``PageStore``).
"""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.localnet.services._docs_host import CACHE_CONTROL, create_docs_app, wants_markdown
from ledgerkit.localnet.services._pages import Page, PageStore, bundled_pages

__all__ = [
    "CACHE_CONTROL",
    "Page",
    "PageStore",
    "bundled_pages",
    "create_docs_app",
    "wants_markdown",
]

# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)
