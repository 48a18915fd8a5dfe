"""An httpx transport on aiohttp, for bulk reads (:mod:`ledgerkit.extract` uses it).

httpx's own transport (httpcore over h11) parses HTTP/1.1 in pure Python: about 1 ms of
CPU for each 280 KB page of transactions, more than decoding the page, so a bulk read
from a fast node is bound by the HTTP client. aiohttp parses in C, at a third of that.
Requests and responses pass through this adapter unchanged; every aiohttp failure
becomes the httpx exception that names it (a dropped connection a
``RemoteProtocolError``, a node that stalls a ``ReadTimeout``), so the client's retries
and its error tree work the same over either transport. (The ``httpx-aiohttp`` package
does the same adapting but reports a dropped connection as a connect timeout.)

An :class:`~ledgerkit.AsyncClient` made with this transport does not go through httpx at
all: it hands each request to :meth:`AiohttpTransport.exchange`, which sends it and reads
the answer whole in one go, with no httpx request or response objects and no cookie
handling in between (a third of the client's CPU for a page, measured on bulk reads).
Failures are the same httpx exceptions either way.

Sessions keep no cookies and follow no redirects, as the httpx client does here.
Proxies (and ``.netrc``) are taken from the environment as httpx does, when the
environment names any: aiohttp then looks them up again for every request, in a thread,
which costs a tenth of a bulk read's time, so it is not asked to when there is nothing
to find.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any, Final

import aiohttp
import httpx

__all__ = ["AiohttpTransport"]

#: (aiohttp failure, the httpx exception for it), most specific first.
_FAILURES: Final[tuple[tuple[type[BaseException], type[httpx.TransportError]], ...]] = (
    (aiohttp.ConnectionTimeoutError, httpx.ConnectTimeout),
    (aiohttp.SocketTimeoutError, httpx.ReadTimeout),
    (aiohttp.ServerTimeoutError, httpx.ReadTimeout),
    (asyncio.TimeoutError, httpx.PoolTimeout),
    (aiohttp.ClientConnectorError, httpx.ConnectError),
    (aiohttp.ServerDisconnectedError, httpx.RemoteProtocolError),
    (aiohttp.ClientPayloadError, httpx.RemoteProtocolError),
    (aiohttp.ClientResponseError, httpx.RemoteProtocolError),
    (aiohttp.InvalidURL, httpx.UnsupportedProtocol),
    (aiohttp.ClientOSError, httpx.ReadError),
    (OSError, httpx.ReadError),
    (aiohttp.ClientError, httpx.TransportError),
)


def _timeouts(connect_pool: float | None, connect: float | None, read: float | None) -> Any:
    """aiohttp's timeouts for httpx's: waiting for a connection of the pool, making one,
    and each read of the answer; no limit on the whole."""
    return aiohttp.ClientTimeout(
        total=None, connect=connect_pool, sock_connect=connect, sock_read=read
    )


def _as_httpx(exc: BaseException, request: httpx.Request) -> httpx.TransportError:
    """The httpx exception for an aiohttp failure. It is raised ``from None``: aiohttp's
    exception quotes the whole URL, which may carry an access token in its path."""
    for failure, mapped in _FAILURES:
        if isinstance(exc, failure):
            return mapped(_message(exc, request), request=request)
    raise exc  # not a transport failure (a bug, a cancellation): let it through


def _message(exc: BaseException, request: httpx.Request) -> str:
    """What went wrong, without the request's path and query (httpx's own transport
    errors do not name the URL either)."""
    if isinstance(exc, aiohttp.ClientResponseError):
        text = f"{exc.status}, message={exc.message!r}"
    elif isinstance(exc, aiohttp.InvalidURL):
        text = "invalid URL"
    else:
        text = str(exc) or type(exc).__name__
    url = request.url
    origin = f"{url.scheme}://{url.netloc.decode('ascii')}"
    for written in (str(url), str(url.copy_with(query=None))):
        text = text.replace(written, f"{origin}/...")
    path = url.raw_path.decode("ascii").split("?", 1)[0]
    if len(path) > 1:
        text = text.replace(path, "/...")
    return text


def _environment_has_proxies() -> bool:
    """Whether the environment names a proxy or a ``.netrc`` file for aiohttp to read."""
    names = {name.lower() for name in os.environ}
    if names & {"http_proxy", "https_proxy", "all_proxy", "ws_proxy", "wss_proxy", "netrc"}:
        return True
    return (Path.home() / ".netrc").exists()


class _Body(httpx.AsyncByteStream):
    """The body of an aiohttp response, chunk by chunk as it arrives."""

    def __init__(self, response: aiohttp.ClientResponse, request: httpx.Request) -> None:
        self._response = response
        self._request = request

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self._response.content.iter_any():
                yield chunk
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            raise _as_httpx(exc, self._request) from None

    async def aclose(self) -> None:
        self._response.release()


class AiohttpTransport(httpx.AsyncBaseTransport):
    """An ``httpx.AsyncBaseTransport`` sending over one aiohttp session.

    Parameters
    ----------
    max_connections : int
        Connections open at once (aiohttp's connector limit).
    """

    def __init__(self, *, max_connections: int = 100) -> None:
        self._max_connections = max_connections
        self._session: aiohttp.ClientSession | None = None

    def _open(self) -> aiohttp.ClientSession:
        # Made on first use, inside the event loop that will run it.
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._max_connections),
                cookie_jar=aiohttp.DummyCookieJar(),
                auto_decompress=False,  # httpx decodes Content-Encoding itself
                trust_env=_environment_has_proxies(),
                skip_auto_headers=("User-Agent", "Accept", "Accept-Encoding"),
            )
        return self._session

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        timeout: dict[str, Any] = request.extensions.get("timeout", {})
        body = await request.aread()
        try:
            response = await self._open().request(
                request.method,
                str(request.url),
                headers=request.headers.multi_items(),
                data=body or None,
                allow_redirects=False,
                timeout=_timeouts(timeout.get("pool"), timeout.get("connect"), timeout.get("read")),
            )
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            raise _as_httpx(exc, request) from None
        extensions: dict[str, Any] = {"http_version": b"HTTP/1.1"}
        if response.reason:
            extensions["reason_phrase"] = response.reason.encode("latin-1", "replace")
        return httpx.Response(
            status_code=response.status,
            headers=response.raw_headers,
            stream=_Body(response, request),
            request=request,
            extensions=extensions,
        )

    async def exchange(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str],
        body: bytes | None,
        timeout: float | None,
    ) -> tuple[int, Mapping[str, str], bytes]:
        """Send one request and read its answer whole: ``(status, headers, body)``.

        The bulk path of the client: the body is read in one go (a body cut short is a
        failure, never a short answer) and decoded from its ``Content-Encoding``; no
        httpx object is made unless something fails.

        Parameters
        ----------
        method, url : str
            The request line; ``url`` is absolute and already percent-encoded.
        headers : mapping
            Sent as they are (aiohttp adds ``Host`` and ``Content-Length`` only).
        body : bytes or None
            The request body.
        timeout : float or None
            Seconds each step may take (a connection of the pool, connecting, each read),
            as httpx counts them; ``None``: no limit.

        Raises
        ------
        httpx.TransportError
            The httpx exception that names the failure (see the module's docstring).
        """
        try:
            async with self._open().request(
                method,
                url,
                headers=headers,
                data=body,
                allow_redirects=False,
                auto_decompress=True,
                timeout=_timeouts(timeout, timeout, timeout),
            ) as response:
                return response.status, response.headers, await response.read()
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            raise _as_httpx(exc, httpx.Request(method, url)) from None

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
