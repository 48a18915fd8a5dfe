"""``AsyncDocsClient``: the docs client for asyncio, over ``httpx.AsyncClient``.

The twin of ``DocsClient``: the same methods in the same order, awaited. It only sends
and waits; each method drives a flow of the core (``_core``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

import httpx

from ledgerkit._errors import LedgerError
from ledgerkit.docsite._core import (
    DEFAULT_TIMEOUT,
    Answer,
    BodyLimit,
    DocsCore,
    Fetch,
    Flow,
    index_flow,
    page_flow,
    search_flow,
    transport_error,
)
from ledgerkit.docsite._discovery import Discovery, discovery_flow
from ledgerkit.docsite._text import index_frame, search_frame

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["AsyncDocsClient"]

T = TypeVar("T")


class AsyncDocsClient(DocsCore):
    """A client of a docs host for asyncio: :class:`~ledgerkit.DocsClient`, awaited.

    Parameters
    ----------
    url : str
        The docs host's origin, ``http(s)://host[:port]``.
    timeout : float or None
        Seconds to wait for each request (None: no limit).
    transport : httpx.AsyncBaseTransport, optional
        The transport to send through (``httpx.ASGITransport(app)`` or
        ``httpx.MockTransport`` in tests).
    headers : mapping of str to str, optional
        Sent with every request.
    cache : bool
        Keep answers in memory, per client, for their ``Cache-Control: max-age``.

    Examples
    --------
    >>> async with AsyncDocsClient("https://aptos.dev") as docs:  # doctest: +SKIP
    ...     frame = await docs.index()
    """

    def __init__(
        self,
        url: str,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        transport: httpx.AsyncBaseTransport | None = None,
        headers: Mapping[str, str] | None = None,
        cache: bool = True,
    ) -> None:
        super().__init__(url, headers=headers, cache=cache)
        self._http = httpx.AsyncClient(
            transport=transport, timeout=httpx.Timeout(timeout), follow_redirects=True
        )

    # -- the API -------------------------------------------------------------------------

    async def page(self, path: str) -> str:
        """A page's Markdown (see :meth:`ledgerkit.DocsClient.page`)."""
        return await self._run(page_flow(self.origin, path))

    async def show(self, path: str) -> Any:
        """A page rendered in a notebook: ``IPython.display.Markdown`` of :meth:`page`."""
        from IPython.display import Markdown

        return Markdown(await self.page(path))  # type: ignore[no-untyped-call]

    async def index(self) -> pd.DataFrame:
        """The host's ``llms.txt`` as a DataFrame (see :meth:`ledgerkit.DocsClient.index`)."""
        return index_frame(await self._run(index_flow(self.origin)))

    async def search(self, query: str, *, limit: int = 10) -> pd.DataFrame:
        """Search the host's pages locally (see :meth:`ledgerkit.DocsClient.search`)."""
        return search_frame(await self._run(search_flow(self.origin, query, limit)))

    async def discovery(self) -> Discovery:
        """The host's OAuth metadata documents and a report of what holds of them."""
        return await self._run(discovery_flow(self.origin))

    # -- plumbing ------------------------------------------------------------------------

    async def _run(self, flow: Flow[T]) -> T:
        try:
            fetch = next(flow)
            while True:
                try:
                    answer = await self._fetch(fetch)
                except LedgerError as error:
                    fetch = flow.throw(error)
                else:
                    fetch = flow.send(answer)
        except StopIteration as done:
            result: T = done.value
            return result

    async def _fetch(self, fetch: Fetch) -> Answer:
        hit = self._cached(fetch, time.monotonic())
        if hit is not None:
            return hit
        try:
            async with self._http.stream(
                "GET", fetch.url, headers=self._headers_for(fetch)
            ) as response:
                limit = BodyLimit(fetch, response)
                async for chunk in response.aiter_bytes():
                    limit.add(chunk)
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            raise transport_error(fetch, exc) from exc
        answer = Answer(str(response.url), response.status_code, response.headers, limit.body())
        self._keep(fetch, answer, time.monotonic())
        return answer

    async def aclose(self) -> None:
        """Close the connections."""
        await self._http.aclose()

    async def __aenter__(self) -> AsyncDocsClient:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()
