"""Clients of a faucet: :class:`FaucetClient` and :class:`AsyncFaucetClient`, with
:class:`TokenProvider` for the ID token a token-protected faucet asks for.

They speak the real faucet's API (``POST /fund`` with ``Authorization: Bearer`` and
``x-is-jwt: true``; ``/is_eligible``; ``GET /``) and so work unchanged against the local
node's faucet and a public one. See ``docs/faucet.md``.
"""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.client.faucet._clients import AsyncFaucetClient, FaucetClient
from ledgerkit.client.faucet._core import Funding
from ledgerkit.client.faucet._tokens import TokenProvider, TokenSource

__all__ = ["AsyncFaucetClient", "FaucetClient", "Funding", "TokenProvider", "TokenSource"]

_publish(globals(), __all__, "ledgerkit.faucet")  # where users import them from
_publish(globals(), ("AsyncFaucetClient", "FaucetClient", "TokenProvider"), "ledgerkit")
