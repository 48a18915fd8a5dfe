"""Clients of a docs host, where they were first imported from: :class:`DocsClient`,
:class:`AsyncDocsClient`, :class:`Discovery`, :class:`Check`, the records they answer
and their fields. They live in :mod:`ledgerkit.client.docsite`, beside the node client;
this module names the same objects. See ``docs/docsite.md``.
"""

from __future__ import annotations

from ledgerkit.client.docsite import *  # noqa: F403 (the same names, listed there)
from ledgerkit.client.docsite import __all__ as __all__
