"""``with`` and ``async with`` for the clients: each closes what it holds on the way out.

Every client of ledgerkit (the node's, the faucet's, the docs host's, sync and asyncio)
is a context manager the same way; the way is written here once.
"""

from __future__ import annotations

from typing import Self

__all__ = ["AsyncClosing", "Closing"]


class Closing:
    """``with thing:`` gives the thing and calls its ``close()`` at the end."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class AsyncClosing:
    """``async with thing:`` gives the thing and awaits its ``aclose()`` at the end."""

    async def aclose(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
