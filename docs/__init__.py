"""ledgerkit's documentation pages (the Markdown files beside this module).

Installed, this directory is the package data ``ledgerkit._docs`` that the local docs
host serves (``ledgerkit.localnet.services.PageStore``).
"""
