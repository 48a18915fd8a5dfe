"""``DocsClient`` (blocking, over ``httpx.Client``) and ``AsyncDocsClient`` (asyncio, over
``httpx.AsyncClient``): the same methods in the same order.

Every method is declared once for both (:class:`DocsMethods`, with the declarations of
:mod:`ledgerkit.client._declare`): it starts a flow of the core (``_core``,
``_discovery``), which says what to fetch and reads what came back. The two clients only
fetch and wait, and run the flows with the driver every client of ledgerkit shares
(:func:`~ledgerkit.client._driver.drive`, :func:`~ledgerkit.client._driver.adrive`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, TypeVar

import httpx

from ledgerkit._closing import AsyncClosing, Closing
from ledgerkit._errors import ClientClosedError
from ledgerkit.client._declare import flow
from ledgerkit.client._driver import adrive, drive
from ledgerkit.client.docsite._core import (
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
from ledgerkit.client.docsite._discovery import Discovery, discovery_flow
from ledgerkit.client.docsite._text import IndexEntry, SearchHit

__all__ = ["AsyncDocsClient", "DocsClient", "DocsMethods"]

T = TypeVar("T")


class DocsMethods(DocsCore):
    """The methods of both docs clients, each declared once as a flow of the core; the
    host's origin is what each declaration is handed first."""

    @property
    def _state(self) -> str:
        return self.origin

    @flow
    def page(origin: str, path: str) -> Flow[str]:
        """A page's Markdown.

        Parameters
        ----------
        path : str
            The page's path (``/network/faucet``), its ``.md`` path, ``/`` for the home
            page, or its full URL on this host.

        Raises
        ------
        PageNotFoundError
            The host has no such page.
        DocsError
            Any other answer but the page's Markdown.
        """
        return page_flow(origin, path)

    @flow
    def show(origin: str, path: str) -> Flow[Any]:
        """A page rendered in a notebook: ``IPython.display.Markdown`` of :meth:`page`."""
        from IPython.display import Markdown

        return Markdown((yield from page_flow(origin, path)))  # type: ignore[no-untyped-call]

    @flow
    def index(origin: str) -> Flow[list[IndexEntry]]:
        """The host's ``llms.txt``: one record per link, in file order.

        Each :class:`IndexEntry` has ``section, title, url, path, description``
        (strings): ``path`` is the page's path on this host (what :meth:`page` takes),
        ``""`` for a link elsewhere. ``ledgerkit.frames.docs_index_to_frame`` makes
        them a frame.
        """
        return index_flow(origin)

    @flow
    def search(origin: str, query: str, *, limit: int = 10) -> Flow[list[SearchHit]]:
        """Search the host's pages here, locally (docs hosts have no search API).

        The texts are the host's ``llms-full.txt``, or, when it has none, the pages its
        ``llms.txt`` lists (at most 200). The scoring is a plain TF-IDF sum, title words
        weighted up, the same every time (``ledgerkit.client.docsite`` says how).

        Returns
        -------
        list of SearchHit
            ``title, url, score, snippet`` each, best first, at most ``limit`` of them
            (``ledgerkit.frames.search_hits_to_frame`` makes them a frame).
        """
        return search_flow(origin, query, limit)

    @flow
    def discovery(origin: str) -> Flow[Discovery]:
        """The host's OAuth metadata documents and a report of what holds of them."""
        return discovery_flow(origin)


class DocsClient(DocsMethods, Closing):
    """A client of a docs host: its pages as Markdown, its index, a local search, and its
    OAuth discovery documents, checked.

    Parameters
    ----------
    url : str
        The docs host's origin, ``http(s)://host[:port]`` (``https://aptos.dev``, or the
        URL of the local docs host).
    timeout : float or None
        Seconds to wait for each request (None: no limit).
    transport : httpx.BaseTransport, optional
        The transport to send through (``httpx.MockTransport`` in tests).
    headers : mapping of str to str, optional
        Sent with every request.
    cache : bool
        Keep answers in memory, per client, for their ``Cache-Control: max-age``.

    Notes
    -----
    A request that gets no answer raises :class:`~ledgerkit.TransportError`
    (:class:`~ledgerkit.RequestTimeoutError` when it timed out); an answer that is not
    what was asked raises :class:`~ledgerkit.DocsError` (:class:`~ledgerkit.PageNotFoundError`
    for a 404), as does one larger than 8 MiB. No raw httpx error leaves the client.

    Examples
    --------
    >>> with DocsClient("https://aptos.dev") as docs:  # doctest: +SKIP
    ...     print(docs.page("/network/faucet")[:40])
    """

    def __init__(
        self,
        url: str,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
        transport: httpx.BaseTransport | None = None,
        headers: Mapping[str, str] | None = None,
        cache: bool = True,
    ) -> None:
        super().__init__(url, headers=headers, cache=cache)
        self._http = httpx.Client(
            transport=transport, timeout=httpx.Timeout(timeout), follow_redirects=True
        )

    # -- plumbing ------------------------------------------------------------------------

    def _drive(self, flow: Flow[T]) -> T:
        return drive(flow, self._fetch)

    def _fetch(self, fetch: Fetch) -> Answer:
        if self._http.is_closed:
            raise ClientClosedError(f"DocsClient is closed: make a new one [GET {fetch.url}]")
        hit = self._cached(fetch, time.monotonic())
        if hit is not None:
            return hit
        try:
            with self._http.stream("GET", fetch.url, headers=self._headers_for(fetch)) as response:
                limit = BodyLimit(fetch, response)
                for chunk in response.iter_bytes():
                    limit.add(chunk)
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            raise transport_error(fetch, exc) from exc
        answer = Answer(str(response.url), response.status_code, response.headers, limit.body())
        self._keep(fetch, answer, time.monotonic())
        return answer

    def close(self) -> None:
        """Close the connections."""
        self._http.close()


class AsyncDocsClient(DocsMethods, AsyncClosing):
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
    ...     entries = await docs.index()
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

    # -- plumbing ------------------------------------------------------------------------

    async def _drive(self, flow: Flow[T]) -> T:
        return await adrive(flow, self._fetch)

    async def _fetch(self, fetch: Fetch) -> Answer:
        if self._http.is_closed:
            raise ClientClosedError(f"AsyncDocsClient is closed: make a new one [GET {fetch.url}]")
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
