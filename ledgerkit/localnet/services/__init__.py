"""The node's neighbours, emulated offline: the faucet, its identity provider and the
docs host, each an ASGI app the local node serves on its own loopback port.

Their routes are their services' rows of the endpoint table (``ledgerkit._endpoints``).
"""
