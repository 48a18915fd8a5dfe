"""The identity provider's HTTP app: its routes, the sign-in body and the OAuth error record.

The routes are the identity rows of the endpoint table (``ledgerkit._endpoints``), each
paired by operation id with a handler here; the app refuses to be built when a row lacks
a handler or a handler its row. Failures answer as OAuth servers do,
``{"error": "invalid_request", "error_description": ...}``, and never quote the request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Final, NoReturn
from urllib.parse import urlsplit

import orjson
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ledgerkit._endpoints import JSON, operations_of
from ledgerkit._errors import InputError
from ledgerkit.localnet.services._strict_json import strict_json

if TYPE_CHECKING:
    from ledgerkit.localnet.services._identity_provider import IdentityProvider, Issuer

__all__ = ["MAX_SIGN_IN_BYTES", "identity_app"]

#: Largest sign-in body taken.
MAX_SIGN_IN_BYTES: Final = 4096

_SIGN_IN_FIELDS: Final = frozenset({"email", "name", "email_verified"})
_LOOPBACK_NAMES: Final = frozenset({"localhost", "127.0.0.1", "::1"})

Handler = Callable[[Request], Awaitable[Response]]


def identity_app(provider: IdentityProvider) -> Starlette:
    """``provider``'s HTTP app: discovery, JWKS and sign-in of each of its issuers."""

    async def discovery(request: Request) -> Response:
        document = _issuer_of(provider, request).discovery()
        return _json(document, cache="public, max-age=3600")

    async def jwks(request: Request) -> Response:
        keys = _issuer_of(provider, request).jwks()
        return _json(keys, cache=f"public, max-age={provider.jwks_max_age}")

    async def sign_in(request: Request) -> Response:
        issuer = _issuer_of(provider, request)
        _check_host(request, issuer)
        body = await _read_sign_in(request)
        try:
            token = provider.sign_in(
                body["email"],
                name=body.get("name"),
                issuer=issuer.name,
                email_verified=body.get("email_verified", True),
            )
        except InputError as error:
            raise _OAuthError(400, str(error)) from None
        answer = {"id_token": token, "token_type": "Bearer", "expires_in": provider.lifetime}
        # A token answer is never cached (RFC 6749 section 5.1).
        return _json(answer, cache="no-store", pragma="no-cache")

    by_id: dict[str, Handler] = {
        "get_openid_configuration": discovery,
        "get_jwks": jwks,
        "sign_in": sign_in,
    }
    rows = operations_of("identity")
    unpaired = sorted({op.id for op in rows} ^ set(by_id))
    if unpaired:  # a row without a handler, or a handler without a row
        raise RuntimeError(f"endpoint table and identity handlers disagree on {unpaired}")
    return Starlette(
        routes=[Route(op.path, by_id[op.id], methods=[op.method]) for op in rows],
        exception_handlers={_OAuthError: _refused, HTTPException: _http_error},
    )


def _issuer_of(provider: IdentityProvider, request: Request) -> Issuer:
    found = provider.issuers.get(request.path_params["issuer"])
    if found is None:
        raise _OAuthError(404, f"no such issuer; known: {', '.join(provider.issuers)}")
    return found


def _check_host(request: Request, issuer: Issuer) -> None:
    """Refuse a sign-in addressed to another host than the provider's (or a loopback name
    on its port): a web page that rebinds its own name to this address gets no token."""
    bound = urlsplit(issuer.url)
    names = {bound.hostname} | (_LOOPBACK_NAMES if bound.hostname in _LOOPBACK_NAMES else set())
    try:
        asked = urlsplit(f"//{request.headers.get('host', '')}")
        known = asked.port == bound.port and asked.hostname in names
    except ValueError:
        known = False
    if not known:
        _bad("the request is addressed to another host")


async def _read_sign_in(request: Request) -> dict[str, Any]:
    """The sign-in body: a JSON object of the known fields, at most 4 KiB."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != JSON:
        _bad(f"the body must be {JSON}")
    declared = request.headers.get("content-length", "0")
    if not declared.isdigit() or int(declared) > MAX_SIGN_IN_BYTES:
        _bad(f"the body must be at most {MAX_SIGN_IN_BYTES} bytes")
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_SIGN_IN_BYTES:
            _bad(f"the body must be at most {MAX_SIGN_IN_BYTES} bytes")
    try:
        body = strict_json(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        _bad("the body is not JSON")
    if not isinstance(body, dict):
        _bad("the body must be a JSON object")
    unknown = set(body) - _SIGN_IN_FIELDS
    if unknown:
        _bad(f"the body takes only {', '.join(sorted(_SIGN_IN_FIELDS))}")
    if "email" not in body:
        _bad("email is required")
    return body


class _OAuthError(Exception):
    """A request answered with the OAuth error record."""

    def __init__(self, status: int, description: str) -> None:
        super().__init__(description)
        self.status = status
        self.description = description


def _bad(description: str) -> NoReturn:
    raise _OAuthError(400, description)


def _json(body: Any, *, cache: str, pragma: str | None = None) -> Response:
    headers = {"Cache-Control": cache}
    if pragma is not None:
        headers["Pragma"] = pragma
    return Response(orjson.dumps(body), media_type=JSON, headers=headers)


def _error(status: int, description: str, headers: Mapping[str, str] | None = None) -> Response:
    record = {"error": "invalid_request", "error_description": description}
    fields = {"Cache-Control": "no-store", **(headers or {})}
    return Response(orjson.dumps(record), status_code=status, media_type=JSON, headers=fields)


async def _refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, _OAuthError)
    return _error(exc.status, exc.description)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    description = {404: "no such endpoint", 405: "method not allowed"}.get(
        exc.status_code, "request refused"
    )
    return _error(exc.status_code, description, exc.headers)
