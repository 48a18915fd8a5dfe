"""``FaucetClient`` and ``AsyncFaucetClient``: the I/O half over httpx.

Every method is declared once for both (:class:`FaucetMethods`, with the declarations of
:mod:`ledgerkit.client._declare`): it starts a flow of the core (``_core``), which says
what to ask the faucet or the node and reads what came back. The two clients only send
and wait, and run the flows with the driver every client of ledgerkit shares
(:func:`~ledgerkit.client._driver.drive`, :func:`~ledgerkit.client._driver.adrive`)."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, Final, TypeVar

import httpx

from ledgerkit._closing import AsyncClosing, Closing
from ledgerkit._errors import (
    ClientClosedError,
    FaucetRejectedError,
    InputError,
    RequestTimeoutError,
    TransportError,
)
from ledgerkit.client._declare import flow
from ledgerkit.client._driver import Flow, adrive, drive
from ledgerkit.client.faucet._core import (
    MAX_ANSWER_BYTES,
    FaucetAnswer,
    FaucetRequest,
    Funding,
    NodeStep,
    faucet_error,
    fund_flow,
    fund_request,
)
from ledgerkit.client.faucet._tokens import TokenProvider, TokenSource
from ledgerkit.keys import Account
from ledgerkit.types import Address

__all__ = ["AsyncFaucetClient", "FaucetClient", "FaucetMethods"]

T = TypeVar("T")
DEFAULT_TIMEOUT: Final = 30.0
#: How long ``fund(wait=True)`` waits for each funding transaction.
WAIT_TIMEOUT: Final = 60.0


class FaucetMethods:
    """What both faucet clients share: the URL, the token provider, request labels, and
    every method, each declared once as a flow of the core."""

    def __init__(self, url: str, token: TokenSource | TokenProvider | None) -> None:
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise InputError(f"the faucet URL must be http(s)://..., got {str(url)[:100]!r}")
        self.url = url.rstrip("/")
        if token is None or isinstance(token, TokenProvider):
            self.tokens = token
        else:
            self.tokens = TokenProvider(token)

    def _label(self, request: FaucetRequest) -> str:
        return f"{request.method} {self.url}{request.path}"

    def _headers(self, token: str | None) -> dict[str, str]:
        if token is None:
            return {}
        return {"Authorization": f"Bearer {token}", "x-is-jwt": "true"}

    @staticmethod
    def _transport_error(request: str, exc: httpx.HTTPError) -> TransportError:
        if isinstance(exc, httpx.TimeoutException):
            return RequestTimeoutError(f"the faucet did not answer in time [{request}]")
        return TransportError(f"the faucet could not be reached: {type(exc).__name__} [{request}]")

    def _answer(self, response: httpx.Response, body: bytes) -> FaucetAnswer:
        headers = {k.lower(): v for k, v in response.headers.items()}
        if response.status_code == 403 and b"AuthTokenInvalid" in body and self.tokens:
            self.tokens.forget()  # refused: the next request asks the source again
        return FaucetAnswer(response.status_code, headers, body)

    def __repr__(self) -> str:
        token = "no token" if self.tokens is None else "token set"
        return f"{type(self).__name__}({self.url!r}, {token})"

    @property
    def _state(self) -> str:
        """What each declaration below is handed first: the faucet's URL."""
        return self.url

    @flow
    def fund(
        url: str,
        address: str | Address | Account,
        amount: int | None = None,
        *,
        wait: bool = True,
        timeout: float = WAIT_TIMEOUT,
    ) -> Flow[Funding]:
        """Ask the faucet to fund ``address`` with ``amount`` octas (its maximum if ``None``).

        With ``wait`` (the default), the balance is read before, every transaction the
        faucet sent is waited for on the node, and the balance is read after.

        Raises
        ------
        AuthTokenInvalidError
            No token, or one the faucet refused.
        FaucetRateLimitedError
            The day's quota is spent; ``retry_after`` says for how long.
        FaucetRejectedError, FaucetUnavailableError, FaucetError
            Other refusals; a funding transaction that failed on chain
            (``error_code`` ``TransactionFailed``).
        TransportError
            No answer.
        """
        target = address.address if isinstance(address, Account) else address
        return fund_flow(target, amount, wait=wait, timeout=timeout, request=f"POST {url}/fund")

    @flow
    def is_eligible(
        url: str, address: str | Address | Account, amount: int | None = None
    ) -> Flow[bool]:
        """Whether the faucet would fund ``address`` now (it sends nothing).

        ``False`` when it refuses the request (a spent quota included); an invalid token
        or an unreachable faucet still raise.
        """
        target = address.address if isinstance(address, Account) else address
        _, request = fund_request(target, amount, path="/is_eligible")
        answer: FaucetAnswer = yield request
        if answer.status == 200:
            return True
        error = faucet_error(answer, f"{request.method} {url}{request.path}")
        if isinstance(error, FaucetRejectedError):
            return False
        raise error

    @flow
    def healthy(url: str) -> Flow[bool]:
        """Whether the faucet answers ``GET /`` with ``tap:ok``."""
        try:
            answer: FaucetAnswer = yield FaucetRequest("GET", "/", token=False)
        except TransportError:
            return False
        return answer.status == 200 and answer.body.strip() == b"tap:ok"

    @flow
    def new_funded_account(url: str, amount: int | None = None) -> Flow[Account]:
        """A new account (a fresh Ed25519 key), funded and waited for."""
        account = Account.generate()
        label = f"POST {url}/fund"
        yield from fund_flow(
            account.address, amount, wait=True, timeout=WAIT_TIMEOUT, request=label
        )
        return account


class FaucetClient(FaucetMethods, Closing):
    """A client of a faucet: the local node's, or a real testnet or devnet faucet.

    Parameters
    ----------
    url : str
        The faucet's root, e.g. ``node.faucet_url``.
    token : str, callable or TokenProvider, optional
        The ID token to send as ``Authorization: Bearer`` with ``x-is-jwt: true``: a
        token, a function returning a fresh one, or a :class:`TokenProvider`. Never shown
        in a repr, a log line or an error. A devnet faucet needs none.
    node : Client, optional
        The node the faucet pays on: ``fund(wait=True)`` waits for the transactions there
        and reads the balances. Without one, only ``wait=False`` works.
    timeout : float
        Seconds per request.
    transport : httpx.BaseTransport, optional
        For tests (an ``httpx.MockTransport``).

    Examples
    --------
    >>> faucet = FaucetClient(node.faucet_url, token=lambda: node.sign_in("ada@example.com"),
    ...                       node=client)  # doctest: +SKIP
    >>> faucet.fund("0xcafe").received  # doctest: +SKIP
    100000000
    """

    def __init__(
        self,
        url: str,
        *,
        token: TokenSource | TokenProvider | None = None,
        node: Any = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        super().__init__(url, token)
        self.node = node
        self._http = httpx.Client(timeout=timeout, transport=transport, follow_redirects=False)

    # -- plumbing --------------------------------------------------------------------------

    def _send(self, request: FaucetRequest) -> FaucetAnswer:
        label = self._label(request)
        if self._http.is_closed:
            raise ClientClosedError(f"FaucetClient is closed: make a new one [{label}]")
        token = self.tokens.token() if request.token and self.tokens is not None else None
        try:
            with self._http.stream(
                request.method,
                self.url + request.path,
                json=request.json,
                params=dict(request.params),
                headers=self._headers(token),
            ) as response:
                body = b""
                for chunk in response.iter_bytes():
                    body += chunk
                    if len(body) > MAX_ANSWER_BYTES:
                        raise TransportError(f"the faucet's answer is too large [{label}]")
        except httpx.HTTPError as exc:
            raise self._transport_error(label, exc) from None
        return self._answer(response, body)

    def _drive(self, flow: Generator[Any, Any, T]) -> T:
        return drive(flow, self._step)

    def _step(self, step: FaucetRequest | NodeStep) -> Any:
        """One step of a flow: a request to the faucet, or a question for the node."""
        if isinstance(step, FaucetRequest):
            return self._send(step)
        if self.node is None:
            raise InputError("waiting for a funding needs the node: FaucetClient(node=...)")
        return getattr(self.node, step.name)(*step.args, **step.kwargs)

    def close(self) -> None:
        """Close the connections (the node client is the caller's)."""
        self._http.close()


class AsyncFaucetClient(FaucetMethods, AsyncClosing):
    """:class:`FaucetClient` for asyncio: the same methods, awaited; ``node`` is an
    :class:`~ledgerkit.AsyncClient`."""

    def __init__(
        self,
        url: str,
        *,
        token: TokenSource | TokenProvider | None = None,
        node: Any = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        super().__init__(url, token)
        self.node = node
        self._http = httpx.AsyncClient(timeout=timeout, transport=transport, follow_redirects=False)

    async def _send(self, request: FaucetRequest) -> FaucetAnswer:
        label = self._label(request)
        if self._http.is_closed:
            raise ClientClosedError(f"AsyncFaucetClient is closed: make a new one [{label}]")
        token = None
        if request.token and self.tokens is not None:
            token = await self.tokens.atoken()
        try:
            async with self._http.stream(
                request.method,
                self.url + request.path,
                json=request.json,
                params=dict(request.params),
                headers=self._headers(token),
            ) as response:
                body = b""
                async for chunk in response.aiter_bytes():
                    body += chunk
                    if len(body) > MAX_ANSWER_BYTES:
                        raise TransportError(f"the faucet's answer is too large [{label}]")
        except httpx.HTTPError as exc:
            raise self._transport_error(label, exc) from None
        return self._answer(response, body)

    async def _drive(self, flow: Generator[Any, Any, T]) -> T:
        return await adrive(flow, self._step)

    async def _step(self, step: FaucetRequest | NodeStep) -> Any:
        """One step of a flow: a request to the faucet, or a question for the node."""
        if isinstance(step, FaucetRequest):
            return await self._send(step)
        if self.node is None:
            raise InputError("waiting for a funding needs the node: AsyncFaucetClient(node=...)")
        return await getattr(self.node, step.name)(*step.args, **step.kwargs)

    async def aclose(self) -> None:
        """Close the connections (the node client is the caller's)."""
        await self._http.aclose()
