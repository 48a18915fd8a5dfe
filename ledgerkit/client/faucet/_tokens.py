"""ID tokens for the faucet: given once, or fetched again before they expire.

A :class:`TokenProvider` holds the current token and asks its source for a new one when
the current one is within ``refresh_margin`` seconds of its ``exp``. The token is read,
never verified, here (the faucet verifies it); it never appears in a repr, a log line or
an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

import httpx
import jwt

from ledgerkit._endpoints import OPERATIONS
from ledgerkit._errors import AuthTokenInvalidError, RequestTimeoutError, TransportError

__all__ = ["TokenProvider", "TokenSource"]

#: Where a provider gets a token: a fixed string, or a callable (plain or async) returning one.
TokenSource = str | Callable[[], str] | Callable[[], Awaitable[str]]

#: Refresh this many seconds before ``exp`` by default.
REFRESH_MARGIN_SECONDS: Final = 60.0
#: Longest token accepted from a source (the faucet refuses anything over 8 KiB).
MAX_TOKEN_CHARS: Final = 8192


def _expiry(token: str) -> float | None:
    """The token's ``exp`` (unverified), or ``None`` when it has none or is no JWT."""
    try:
        claims = jwt.decode(token, options={"verify_signature": False})
    except jwt.PyJWTError:
        return None
    exp = claims.get("exp")
    return float(exp) if isinstance(exp, int | float) and not isinstance(exp, bool) else None


def _refused(message: str) -> AuthTokenInvalidError:
    return AuthTokenInvalidError(message, status=0, error_code="AuthTokenInvalid")


class TokenProvider:
    """The ID token to send, refreshed from ``source`` before it expires.

    Parameters
    ----------
    source : str or callable
        A token, or a function (plain or ``async``) returning a fresh one: a sign-in, a
        wallet's or a notebook's login helper. A fixed token cannot be refreshed.
    refresh_margin : float
        Ask for a new token when the current one expires within this many seconds.
    clock : callable
        Unix time now (for tests).

    Examples
    --------
    >>> provider = TokenProvider(lambda: node.sign_in("ada@example.com"))  # doctest: +SKIP
    >>> provider  # doctest: +SKIP
    TokenProvider(<lambda>, expires in 3599 s)
    """

    def __init__(
        self,
        source: TokenSource,
        *,
        refresh_margin: float = REFRESH_MARGIN_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._source = source
        self._margin = refresh_margin
        self._clock = clock
        self._token: str | None = source if isinstance(source, str) else None
        self._expires: float | None = _expiry(source) if isinstance(source, str) else None
        self._lock = threading.Lock()

    @property
    def expires_at(self) -> float | None:
        """Unix time the current token expires (``None``: unknown, or none held yet)."""
        return self._expires

    def _fresh(self) -> bool:
        if self._token is None:
            return False
        if self._expires is None or isinstance(self._source, str):
            return True
        return self._expires - self._margin > self._clock()

    def _keep(self, token: object) -> str:
        if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_CHARS:
            raise _refused("the token source gave no usable token")
        self._token, self._expires = token, _expiry(token)
        return token

    def token(self) -> str:
        """The current token, fetched again first when it is about to expire.

        Raises
        ------
        AuthTokenInvalidError
            The source gave nothing usable, or is async (use :meth:`atoken`).
        """
        with self._lock:
            if self._fresh():
                assert self._token is not None
                return self._token
            if inspect.iscoroutinefunction(self._source):
                raise _refused("this token source is async: ask it with atoken()")
            assert callable(self._source)
            return self._keep(self._source())

    async def atoken(self) -> str:
        """:meth:`token` for async code: an async source is awaited, a plain one runs in a
        worker thread."""
        if self._fresh():
            assert self._token is not None
            return self._token
        source = self._source
        assert callable(source)
        value: Any
        if inspect.iscoroutinefunction(source):
            value = await source()
        else:
            value = await asyncio.to_thread(source)
        with self._lock:
            return self._keep(value)

    @classmethod
    def sign_in(
        cls,
        issuer: str,
        email: str,
        *,
        name: str | None = None,
        email_verified: bool = True,
        timeout: float = 10.0,
        transport: httpx.BaseTransport | None = None,
    ) -> TokenProvider:
        """A provider whose tokens come from signing in to a local identity provider's
        ``issuer`` (``ledgerkit node`` prints their URLs; ``LocalNode.issuers`` holds
        them), as ``email``: for code running beside a node in another process.

        Raises
        ------
        AuthTokenInvalidError
            The provider refused the sign-in (when a token is asked for).
        TransportError
            It could not be reached (when a token is asked for).
        """
        base, _, which = issuer.rstrip("/").rpartition("/")
        url = base + OPERATIONS["sign_in"].url_path(issuer=which)
        body: dict[str, Any] = {"email": email, "email_verified": email_verified}
        if name is not None:
            body["name"] = name

        def fetch() -> str:
            try:
                with httpx.Client(timeout=timeout, transport=transport) as http:
                    answer = http.post(url, json=body)
            except httpx.HTTPError as exc:
                kind = RequestTimeoutError if isinstance(exc, httpx.TimeoutException) else None
                message = f"the identity provider could not be reached [POST {url}]"
                raise (kind or TransportError)(message) from None
            record: Any = None
            with contextlib.suppress(ValueError):
                record = answer.json()
            if answer.status_code == 200 and isinstance(record, dict):
                return str(record.get("id_token", ""))
            said = record.get("error_description") if isinstance(record, dict) else None
            raise AuthTokenInvalidError(
                f"the sign-in was refused: {str(said or answer.reason_phrase)[:300]}",
                status=answer.status_code,
                error_code=str(record.get("error", "")) if isinstance(record, dict) else "",
                request=f"POST {url}",
            )

        fetch.__qualname__ = f"sign_in({email!r} at {issuer})"
        return cls(fetch)

    def forget(self) -> None:
        """Drop the current token (the faucet refused it): the next request asks the source
        for a new one. A fixed token is kept: there is nothing else to send."""
        with self._lock:
            if not isinstance(self._source, str):
                self._token = self._expires = None

    def __repr__(self) -> str:
        name = "fixed token" if isinstance(self._source, str) else _name(self._source)
        if self._expires is None:
            return f"TokenProvider({name})"
        left = int(self._expires - self._clock())
        state = f"expires in {left} s" if left > 0 else "expired"
        return f"TokenProvider({name}, {state})"


def _name(source: object) -> str:
    return str(getattr(source, "__qualname__", None) or type(source).__name__)
