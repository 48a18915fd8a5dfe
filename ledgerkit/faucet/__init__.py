"""Clients of a faucet, where they were first imported from: :class:`FaucetClient`,
:class:`AsyncFaucetClient`, :class:`TokenProvider`, :class:`Funding` and
:data:`TokenSource`. They live in :mod:`ledgerkit.client.faucet`, beside the node
client; this module names the same objects. See ``docs/faucet.md``.
"""

from __future__ import annotations

from ledgerkit.client.faucet import (
    AsyncFaucetClient,
    FaucetClient,
    Funding,
    TokenProvider,
    TokenSource,
)

__all__ = ["AsyncFaucetClient", "FaucetClient", "Funding", "TokenProvider", "TokenSource"]
