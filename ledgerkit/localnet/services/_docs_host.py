"""The local docs host: ledgerkit's own pages, their index, and the OAuth metadata that
names the project's identity provider, answered as the real docs host answers.

``create_docs_app(...)`` returns a Starlette app whose routes are the docs service's rows
of the endpoint table (``ledgerkit._endpoints``), each paired by operation id with its
handler here. What it serves, by plain GET or HEAD, never asking for a token (an
``Authorization`` header is ignored):

- ``/<page>``: the page as HTML; ``/<page>.md`` its Markdown; ``/`` and ``/index.md`` the
  home page. A request that accepts ``text/markdown`` by name (with ``q`` > 0) gets the
  Markdown at the page's own path; wildcards (``*/*``, ``text/*``) do not count, so
  browsers and generic clients keep getting HTML. Every answer at such a negotiable path
  carries ``Vary: Accept``. Paths under ``/.well-known/``, ``/api/``, ``/_``, the
  ``/rest-api`` reference and paths with a file extension are never negotiated.
- ``/llms.txt`` and ``/llms-full.txt``: the index of the pages and all of them.
- With a built docs site (``site=``, a :class:`BuiltSite`): a page's HTML is the site's
  (``/client`` answers the site's ``client.html``; ``/client/`` redirects to ``/client``,
  where the site's relative links resolve), and any other path names a file of the site
  (``/_static/...``, ``/api/index.html``). Markdown and ``llms.txt`` are unchanged; a page
  the site lacks keeps its rendered HTML.
- ``/.well-known/oauth-protected-resource`` (RFC 9728): the docs origin as ``resource``
  and the given authorization servers;
  ``/.well-known/oauth-authorization-server`` (RFC 8414) and
  ``/.well-known/openid-configuration``: the project issuer's metadata (the first without
  ``userinfo_endpoint`` and ``claims_supported``, as the real host has it).

Pages and documents are cacheable for an hour (``Cache-Control: public, max-age=3600``).
An unknown page is ``404`` with the plain-text body ``Not found``; a method other than
GET or HEAD is ``405`` in plain text with ``Allow``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Final

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from ledgerkit._endpoints import HTML, MARKDOWN, PARAMETERS, TEXT, operations_of
from ledgerkit.localnet.services._pages import INDEX_PAGE, MAX_PAGE_PATH, PageStore
from ledgerkit.localnet.services._site import BuiltSite

__all__ = ["CACHE_CONTROL", "PROTECTED_RESOURCE_SCOPES", "create_docs_app", "wants_markdown"]

Endpoint = Callable[[Request], Awaitable[Response]]

#: How long pages and documents may be kept, as the real host says it.
CACHE_CONTROL: Final = "public, max-age=3600"
#: The scopes a sign-in for the docs host's project asks for.
PROTECTED_RESOURCE_SCOPES: Final = ("openid", "email", "profile")
#: Fields of the issuer's metadata that only its OpenID Connect document carries.
_OPENID_ONLY: Final = frozenset({"userinfo_endpoint", "claims_supported"})
#: Path prefixes never negotiated (nor is ``/rest-api``, nor a path with an extension).
_NOT_NEGOTIATED: Final = ("/.well-known/", "/api/", "/_", "/rest-api/")
#: Media ranges of an ``Accept`` header looked at; the rest are ignored.
_MAX_RANGES: Final = 32
_NOT_FOUND: Final = "Not found"


def create_docs_app(
    *,
    authorization_servers: Sequence[str],
    project_issuer_metadata: Callable[[], Mapping[str, Any]],
    pages: PageStore | None = None,
    site: BuiltSite | None = None,
) -> Starlette:
    """The docs host as an ASGI app.

    Parameters
    ----------
    authorization_servers : sequence of str
        Issuer URLs listed as the protected resource's ``authorization_servers``: the
        project issuer, and any other issuer whose ID tokens are accepted.
    project_issuer_metadata : callable
        Returns the project issuer's OpenID Connect metadata (``issuer``,
        ``authorization_endpoint``, ``token_endpoint``, ``jwks_uri``,
        ``response_types_supported``, ``subject_types_supported``,
        ``id_token_signing_alg_values_supported``, ...); called for each request, so the
        documents follow the issuer.
    pages : PageStore, optional
        The pages to serve; ledgerkit's own (:meth:`PageStore.bundled`) by default.
    site : BuiltSite, optional
        A built docs site whose HTML browsers get instead of the pages rendered here, and
        whose files are served at their paths. None (the default): no site.

    Returns
    -------
    starlette.applications.Starlette
    """
    servers = list(authorization_servers)
    if not all(isinstance(server, str) and server for server in servers):
        raise ValueError(f"authorization servers must be URLs, got {servers!r}")
    store = pages if pages is not None else PageStore.bundled()

    async def get_llms_txt(request: Request) -> Response:
        return _answer(request, store.llms_txt(_origin(request)), TEXT)

    async def get_llms_full_txt(request: Request) -> Response:
        return _answer(request, store.llms_full_txt(), TEXT)

    async def get_oauth_protected_resource(request: Request) -> Response:
        origin = _origin(request)
        return _json(
            request,
            {
                "resource": origin,
                "authorization_servers": servers,
                "scopes_supported": list(PROTECTED_RESOURCE_SCOPES),
                "bearer_methods_supported": ["header"],
                "resource_name": f"{store.site_name} documentation",
                "resource_documentation": f"{origin}/",
                "resource_signing_alg_values_supported": ["RS256"],
            },
        )

    async def get_oauth_authorization_server(request: Request) -> Response:
        metadata = project_issuer_metadata()
        return _json(request, {k: v for k, v in metadata.items() if k not in _OPENID_ONLY})

    async def get_docs_openid_configuration(request: Request) -> Response:
        return _json(request, dict(project_issuer_metadata()))

    async def get_docs_page(request: Request) -> Response:
        return _page_answer(request, store, site)

    handlers: dict[str, Endpoint] = {
        "get_llms_txt": get_llms_txt,
        "get_llms_full_txt": get_llms_full_txt,
        "get_oauth_protected_resource": get_oauth_protected_resource,
        "get_oauth_authorization_server": get_oauth_authorization_server,
        "get_docs_openid_configuration": get_docs_openid_configuration,
        "get_docs_page": get_docs_page,
    }
    app = Starlette(routes=_routes(handlers), exception_handlers={HTTPException: _http_error})
    app.router.redirect_slashes = False
    app.state.pages = store
    app.state.site = site
    return app


def _routes(by_id: Mapping[str, Endpoint]) -> list[Route]:
    """The docs service's rows of the endpoint table, each with its handler.

    A ``pagepath`` parameter takes the rest of the path (Starlette's ``path``
    convertor), so its row must come last: any route after it would never be reached.
    """
    rows = operations_of("docs")
    unpaired = sorted({op.id for op in rows} ^ set(by_id))
    if unpaired:  # a row without a handler, or a handler without a row
        raise RuntimeError(f"endpoint table and docs handlers disagree on {unpaired}")
    routes = []
    for number, op in enumerate(rows):
        path = op.path
        for key in op.params:
            param = PARAMETERS[key]
            if param.where == "path" and param.type == "pagepath":
                if number != len(rows) - 1:
                    raise RuntimeError(f"{op.id} takes the rest of the path: it must be last")
                path = path.replace(f"{{{param.name}}}", f"{{{param.name}:path}}")
        routes.append(Route(path, by_id[op.id], methods=[op.method]))
    return routes


# -- answers -----------------------------------------------------------------------------


def _origin(request: Request) -> str:
    """The docs origin as the request reached it: ``scheme://host[:port]``."""
    return f"{request.url.scheme}://{request.url.netloc}"


def _answer(
    request: Request, body: str, media: str, headers: Mapping[str, str] | None = None
) -> Response:
    """A cacheable answer; to HEAD, its headers alone (the length of the body it would be)."""
    return _answer_bytes(request, body.encode("utf-8"), media, headers)


def _answer_bytes(
    request: Request, data: bytes, media: str, headers: Mapping[str, str] | None = None
) -> Response:
    all_headers = {"Cache-Control": CACHE_CONTROL, **(headers or {})}
    if request.method == "HEAD":
        all_headers["Content-Length"] = str(len(data))
        return Response(b"", media_type=media, headers=all_headers)
    return Response(data, media_type=media, headers=all_headers)


def _json(request: Request, document: Mapping[str, Any]) -> Response:
    rendered = JSONResponse(document).body
    return _answer(request, bytes(rendered).decode("utf-8"), "application/json")


def _not_found(headers: Mapping[str, str] | None = None) -> Response:
    return PlainTextResponse(_NOT_FOUND, status_code=404, headers=headers)


def _page_answer(request: Request, store: PageStore, site: BuiltSite | None) -> Response:
    path = request.url.path
    if len(path) > MAX_PAGE_PATH:
        return _not_found()
    negotiable = _negotiable(path)
    vary = {"Vary": "Accept"} if negotiable else {}
    name, markdown = _page_name(path)
    page = store.get(name) if name else None
    if page is None:
        found = site.file(path[1:]) if site is not None else None
        if found is None:
            return _not_found(vary)
        return _answer_bytes(request, found.path.read_bytes(), found.media_type, vary)
    if markdown or (negotiable and wants_markdown(request.headers.get("accept", ""))):
        return _answer(request, page.markdown, MARKDOWN, vary)
    built = site.page(page.name) if site is not None else None
    if built is None:
        return _answer(request, store.html(page.name), HTML, vary)
    if path.endswith("/") and path != "/":
        # The site's links are relative: from /client/ they would miss.
        return RedirectResponse(path.rstrip("/"), status_code=308, headers=vary)
    return _answer_bytes(request, built.path.read_bytes(), built.media_type, vary)


def _negotiable(path: str) -> bool:
    """Whether ``Accept`` may turn the HTML at ``path`` into Markdown."""
    if path.startswith(_NOT_NEGOTIATED) or path == "/rest-api":
        return False
    return "." not in path.rsplit("/", 1)[-1]


def _page_name(path: str) -> tuple[str, bool]:
    """The page ``path`` names (``""`` for none) and whether it asks for the Markdown.

    ``/`` is the home page; one trailing slash is allowed (``/client/``); a name is a
    single segment of letters, digits, ``-`` and ``_``, so no path reaches a file.
    """
    if path == "/":
        return INDEX_PAGE, False
    name = path[1:].removesuffix("/")
    markdown = name.endswith(".md")
    name = name.removesuffix(".md")
    return (name, markdown) if name and "/" not in name and "." not in name else ("", False)


def wants_markdown(accept: str) -> bool:
    """Whether an ``Accept`` header names ``text/markdown`` with a ``q`` above 0.

    Only the exact media range counts: ``*/*`` and ``text/*`` do not (a browser sends
    them, and wants HTML); a ``q`` that is not a number makes the range not count.

    Examples
    --------
    >>> wants_markdown("text/markdown"), wants_markdown("text/html, text/markdown;q=0.5")
    (True, True)
    >>> wants_markdown("*/*"), wants_markdown("text/*"), wants_markdown("text/markdown;q=0")
    (False, False, False)
    """
    for media_range in accept.split(",")[:_MAX_RANGES]:
        media, *params = (part.strip() for part in media_range.split(";"))
        if media.lower() != MARKDOWN:
            continue
        quality = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value.strip())
                except ValueError:
                    quality = 0.0
        if quality > 0:
            return True
    return False


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's refusals (405) in plain text, ``Allow`` in a stable order."""
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    detail = exc.detail if isinstance(exc, HTTPException) else "Internal Server Error"
    headers = dict(exc.headers or {}) if isinstance(exc, HTTPException) else {}
    if "Allow" in headers:
        methods = {method.strip() for method in headers["Allow"].split(",")}
        headers["Allow"] = ", ".join(sorted(methods))
    return PlainTextResponse(detail, status_code=status, headers=headers)
