"""The endpoint table holds: every row is served by the local node, documented in its
OpenAPI document, and reachable from both clients, each method's request built by the
function of its name in ``ledgerkit.client.calls``.

A running local node answers real requests: one per row sent as raw HTTP, and one per
client method from a ``Client`` and an ``AsyncClient`` whose transport records what
they send. A request reached its handler when the node did not answer with the router's
own refusals (404 ``web_framework_error`` "no such endpoint", or 405).
"""

from __future__ import annotations

import asyncio
import inspect
import re
import urllib.parse
from collections.abc import Callable
from typing import Any, Final

import httpx
import pytest

from ledgerkit import AsyncClient, Client, LedgerError
from ledgerkit._endpoints import OPERATIONS, PARAMETERS, SERVICES, Operation, operations_of
from ledgerkit.bcs import Ed25519Authenticator, EntryFunction, RawTransaction, SignedTransaction
from ledgerkit.client import calls
from ledgerkit.client._declare import endpoint, flow, paged
from ledgerkit.client._flows import Flows
from ledgerkit.client._methods import Endpoints
from ledgerkit.localnet import LocalNode
from ledgerkit.localnet.app import create_app
from ledgerkit.types import Address

NODE_ROWS: Final = operations_of("node")
BASE: Final = SERVICES["node"].base_path

#: What the node serves beyond the table: ``/v1`` itself, the ledger info as ``/v1/``.
#: (Starlette adds HEAD to every GET; the CORS middleware answers OPTIONS preflights.)
EXTRA_ROUTES: Final = {("GET", "/v1")}

#: Rows no client method asks, and why.
NOT_IN_CLIENTS: Final = {
    "get_openapi_document": "a document for tools, not a ledger query",
    "info": "how the node syncs, stores and indexes, not a ledger query",
}

#: The answer headers a row may name, as sent.
HEADERS: Final = {
    "GasUsed": "X-NODE-GAS-USED",
    "Cursor": "X-NODE-CURSOR",
    "TxnEncryptionKey": "X-NODE-TXN-ENCRYPTION-KEY",
}

#: Path segments that parse, by path parameter name (the hash is filled in from the chain).
SEGMENTS: Final = {
    "address": "0x1",
    "resource_type": urllib.parse.quote("0x1::account::Account", safe=""),
    "module_name": "coin",
    "asset_type": urllib.parse.quote("0x1::aptos_coin::AptosCoin", safe=""),
    "creation_number": "0",
    "event_handle": urllib.parse.quote("0x1::account::Account", safe=""),
    "field_name": "coin_register_events",
    "txn_version": "0",
    "table_handle": "0x1",
    "block_height": "0",
    "version": "0",
}

_RAW = RawTransaction(Address.parse("0x1"), 0, EntryFunction.build("0x1::m::f"), 10, 100, 1, 4)
_SIGNED = SignedTransaction(_RAW, Ed25519Authenticator(bytes(32), bytes(64)))
_COIN = "0x1::aptos_coin::AptosCoin"

#: Every endpoint method of both clients: (method, positional args, keyword args, row id).
#: ``HASH`` is replaced by a committed transaction's hash.
HASH: Final = "HASH"
CASES: Final[list[tuple[str, tuple[Any, ...], dict[str, Any], str]]] = [
    ("ledger_info", (), {}, "get_ledger_info"),
    ("health", (), {"duration_secs": 10**6}, "healthy"),
    ("account", ("0x1",), {}, "get_account"),
    ("account_resources", ("0x1",), {"limit": 2}, "get_account_resources"),
    ("iter_account_resources", ("0x1",), {"limit": 2}, "get_account_resources"),
    ("account_resource", ("0x1", "0x1::account::Account"), {}, "get_account_resource"),
    ("account_resource_bcs", ("0x1", "0x1::account::Account"), {}, "get_account_resource"),
    ("account_modules", ("0x1",), {"limit": 2}, "get_account_modules"),
    ("iter_account_modules", ("0x1",), {"limit": 2}, "get_account_modules"),
    ("account_module", ("0x1", "coin"), {}, "get_account_module"),
    ("account_module_bytecode", ("0x1", "coin"), {}, "get_account_module"),
    ("account_balance", ("0x1", _COIN), {}, "get_account_balance"),
    ("account_transactions", ("0x1",), {"limit": 2}, "get_account_transactions"),
    ("account_transactions_bcs", ("0x1",), {"limit": 2}, "get_account_transactions"),
    (
        "account_transaction_summaries",
        ("0x1",),
        {"start_version": 0, "limit": 2},
        "get_account_transaction_summaries",
    ),
    (
        "iter_account_transaction_summaries",
        ("0x1", 0, 2),
        {"limit": 2},
        "get_account_transaction_summaries",
    ),
    ("events_by_creation_number", ("0x1", 0), {"limit": 2}, "get_events_by_creation_number"),
    (
        "events_by_handle",
        ("0x1", "0x1::account::Account", "coin_register_events"),
        {"limit": 2},
        "get_events_by_event_handle",
    ),
    ("iter_events", ("0x1", 0), {"limit": 2, "forward": True}, "get_events_by_creation_number"),
    ("transactions", (), {"start": 0, "limit": 2}, "get_transactions"),
    ("iter_transactions", (0, 2), {"limit": 2}, "get_transactions"),
    ("transaction_by_version", (0,), {}, "get_transaction_by_version"),
    ("transaction_by_hash", (HASH,), {}, "get_transaction_by_hash"),
    ("transactions_bcs", (), {"start": 0, "limit": 2}, "get_transactions"),
    ("transaction_by_version_bcs", (0,), {}, "get_transaction_by_version"),
    ("transaction_by_hash_bcs", (HASH,), {}, "get_transaction_by_hash"),
    ("wait_transaction_by_hash", (HASH,), {}, "wait_transaction_by_hash"),
    ("wait_for_transaction", (HASH,), {}, "wait_transaction_by_hash"),
    ("transactions_auxiliary_info", (0,), {"limit": 2}, "get_transactions_auxiliary_info"),
    ("submit_transaction", (_SIGNED,), {}, "submit_transaction"),
    ("submit_batch_transactions", ([_SIGNED],), {}, "submit_batch_transactions"),
    ("simulate_transaction", (_SIGNED,), {}, "simulate_transaction"),
    ("encode_submission", ({"sender": "0x1"},), {}, "encode_submission"),
    ("table_item", ("0x1", "u64", "u64", "1"), {}, "get_table_item"),
    ("raw_table_item", ("0x1", b"\x01"), {}, "get_raw_table_item"),
    ("estimate_gas_price", (), {}, "estimate_gas_price"),
    ("view_json", ("0x1::chain_id::get",), {}, "view"),
    ("view_bcs", ("0x1::chain_id::get",), {}, "view"),
    ("block_by_height", (0,), {}, "get_block_by_height"),
    ("block_by_version", (0,), {}, "get_block_by_version"),
    ("iter_blocks", (0, 2), {}, "get_block_by_height"),
]


@pytest.fixture(scope="module")
def committed_hash(node: LocalNode) -> str:
    answer = httpx.get(f"{node.url}/transactions", params={"start": "0", "limit": "1"})
    digest: str = answer.json()[0]["hash"]
    return digest


def _template(op: Operation) -> re.Pattern[str]:
    """The row's full path as a pattern: each ``{name}`` one non-empty segment."""
    parts = (r"[^/]+" if p.startswith("{") else re.escape(p) for p in op.path.split("/"))
    return re.compile(re.escape(BASE) + "/".join(parts))


def _row_of(method: str, path: str) -> str | None:
    """The id of the node row that serves ``method`` at the full ``path``, if any."""
    hits = [op.id for op in NODE_ROWS if op.method == method and _template(op).fullmatch(path)]
    assert len(hits) <= 1, f"{method} {path} matches several rows: {hits}"
    return hits[0] if hits else None


def _reached_handler(response: httpx.Response) -> bool:
    if response.status_code == 405:
        return False
    if response.status_code == 404:
        return bool(response.json().get("error_code") != "web_framework_error")
    return True


# -- the table itself -------------------------------------------------------------------------


def test_every_row_is_well_formed() -> None:
    seen: set[tuple[str, str, str]] = set()
    for op in OPERATIONS.values():
        assert op.service in SERVICES, op.id
        assert op.method in {"GET", "POST", "PUT", "DELETE"}, op.id
        assert (op.service, op.method, op.path) not in seen, f"{op.id} repeats a route"
        seen.add((op.service, op.method, op.path))
        errors = SERVICES[op.service].errors
        assert set(op.errors) <= set(errors), f"{op.id}: undocumented error status"
        named = [PARAMETERS[key] for key in op.params]  # every key names a parameter
        in_path = [p.name for p in named if p.where == "path"]
        assert sorted(in_path) == sorted(op.path_params), op.id
        assert all(p.required for p in named if p.where == "path"), op.id
        # A row that answers nothing says what its success means (the faucet's is_eligible).
        assert op.answer_types or op.success[0][1], f"{op.id} answers nothing"
        assert bool(op.body) or op.body_bcs is None, op.id
        assert all(200 <= status < 300 for status, _ in op.success), op.id


def test_url_path_fills_every_segment_and_only_those() -> None:
    op = OPERATIONS["get_events_by_event_handle"]
    path = op.url_path(address="0x1", event_handle="0x1%3A%3Aa%3A%3AB", field_name="f")
    assert path == "/accounts/0x1/events/0x1%3A%3Aa%3A%3AB/f"
    with pytest.raises(KeyError):
        op.url_path(address="0x1")
    with pytest.raises(KeyError):
        OPERATIONS["get_ledger_info"].url_path(address="0x1")


# -- served by the node -----------------------------------------------------------------------


def test_the_node_routes_are_the_table_rows_and_the_listed_extras(node: LocalNode) -> None:
    from starlette.routing import Mount, Route

    app = create_app(node.ledger)
    served: set[tuple[str, str]] = set()
    for route in app.routes:
        inner = route.routes if isinstance(route, Mount) else [route]
        prefix = route.path if isinstance(route, Mount) else ""
        for child in inner:
            assert isinstance(child, Route)
            served |= {(m, prefix + child.path) for m in child.methods or () if m != "HEAD"}
    rows = {(op.method, BASE + op.path) for op in NODE_ROWS}
    assert served == rows | EXTRA_ROUTES


@pytest.mark.parametrize("op", NODE_ROWS, ids=lambda op: op.id)
def test_a_request_per_row_reaches_its_handler(
    op: Operation, node: LocalNode, committed_hash: str
) -> None:
    segments = {**SEGMENTS, "txn_hash": committed_hash}
    path = op.url_path(**{name: segments[name] for name in op.path_params})
    content, headers = (b"{}", {"content-type": "application/json"}) if op.body else (None, {})
    url = node.url + path  # the node's URL ends with the base path
    response = httpx.request(op.method, url, content=content, headers=headers, timeout=30.0)
    assert _reached_handler(response), (op.id, response.status_code, response.text)
    assert response.headers["X-NODE-CHAIN-ID"]


def test_a_path_outside_the_table_is_refused_by_the_router(node: LocalNode) -> None:
    missing = httpx.get(f"{node.url}/accounts/0x1/nothing_here")
    assert missing.status_code == 404
    assert not _reached_handler(missing)
    wrong_method = httpx.delete(f"{node.url}/transactions")
    assert wrong_method.status_code == 405
    assert not _reached_handler(wrong_method)


# -- documented in the OpenAPI document -------------------------------------------------------


@pytest.fixture(scope="module")
def document(node: LocalNode) -> dict[str, Any]:
    doc: dict[str, Any] = httpx.get(f"{node.url}/spec.json").json()
    return doc


def test_the_document_holds_exactly_the_rows(document: dict[str, Any]) -> None:
    documented = {
        (method.upper(), path) for path, methods in document["paths"].items() for method in methods
    }
    assert documented == {(op.method, op.path) for op in NODE_ROWS}
    assert document["servers"][0]["url"] == BASE


@pytest.mark.parametrize("op", NODE_ROWS, ids=lambda op: op.id)
def test_each_row_is_documented_as_the_table_says(op: Operation, document: dict[str, Any]) -> None:
    entry = document["paths"][op.path][op.method.lower()]
    assert entry["operationId"] == op.id
    assert entry["tags"] == [op.tag]
    components = document["components"]["parameters"]
    params = [components[ref["$ref"].rsplit("/", 1)[1]] for ref in entry.get("parameters", [])]
    expected = [PARAMETERS[key] for key in op.params]
    assert [(p["name"], p["in"], p["required"]) for p in params] == [
        (p.name, p.where, p.required) for p in expected
    ]
    body = entry.get("requestBody", {}).get("content", {})
    assert tuple(body) == op.body_types
    responses = entry["responses"]
    assert set(responses) == {str(s) for s, _ in op.success} | {str(s) for s in op.errors}
    for status, _ in op.success:
        assert tuple(responses[str(status)]["content"]) == op.answer_types
        headers = responses[str(status)]["headers"]
        for name in op.headers:
            assert HEADERS[name] in headers, (op.id, name)


# -- reachable from both clients --------------------------------------------------------------


def test_every_endpoint_method_of_both_clients_is_listed() -> None:
    declarations = {
        name: value
        for kind in (Endpoints, Flows)
        for name, value in vars(kind).items()
        if isinstance(value, endpoint | paged | flow)
    }
    declared = {name for name, value in declarations.items() if not isinstance(value, flow)}
    listed = {name for name, *_ in CASES}
    assert {name for name in vars(Endpoints) if not name.startswith("_")} == declared
    # Every endpoint method is listed, and so are the flows that ask one row (the waits
    # and encodings); every one listed is declared.
    assert declared <= listed <= set(declarations)
    assert listed - declared == {"wait_for_transaction", "encode_submission"}
    # Declared once: both clients inherit each one, and neither has one of its own.
    for client in (Client, AsyncClient):
        assert all(inspect.getattr_static(client, n) is declarations[n] for n in declarations)


def test_every_row_is_asked_by_a_client_method() -> None:
    asked = {row for *_, row in CASES}
    assert asked | set(NOT_IN_CLIENTS) == {op.id for op in NODE_ROWS}
    assert not asked & set(NOT_IN_CLIENTS)


class _Recording(httpx.HTTPTransport):
    def __init__(self, log: list[tuple[httpx.Request, httpx.Response]]) -> None:
        super().__init__()
        self.log = log

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        response.read()
        self.log.append((request, response))
        return response


class _AsyncRecording(httpx.AsyncHTTPTransport):
    def __init__(self, log: list[tuple[httpx.Request, httpx.Response]]) -> None:
        super().__init__()
        self.log = log

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        await response.aread()
        self.log.append((request, response))
        return response


def _ask_sync(url: str, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    log: list[tuple[httpx.Request, httpx.Response]] = []
    with Client(url, transport=_Recording(log), retries=0, cache=False) as client:
        try:
            result = getattr(client, name)(*args, **kwargs)
            if hasattr(result, "__next__"):
                next(result, None)  # the first page is asked for at once
        except LedgerError:
            pass  # a refusal by the handler still proves the request reached it
    return log


def _ask_async(url: str, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    log: list[tuple[httpx.Request, httpx.Response]] = []

    async def main() -> None:
        transport = _AsyncRecording(log)
        async with AsyncClient(url, transport=transport, retries=0, cache=False) as client:
            try:
                result = getattr(client, name)(*args, **kwargs)
                if hasattr(result, "__anext__"):
                    await anext(result, None)
                else:
                    await result
            except LedgerError:
                pass

    asyncio.run(main())
    return log


ASK: Final[dict[str, Callable[..., list[Any]]]] = {"sync": _ask_sync, "async": _ask_async}


@pytest.mark.parametrize("kind", sorted(ASK))
@pytest.mark.parametrize(("name", "args", "kwargs", "row"), CASES, ids=[c[0] for c in CASES])
def test_a_client_method_asks_its_row_and_reaches_the_handler(
    kind: str,
    name: str,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    row: str,
    node: LocalNode,
    committed_hash: str,
) -> None:
    args = tuple(committed_hash if arg == HASH else arg for arg in args)
    log = ASK[kind](node.url, name, args, kwargs)
    assert log, f"{kind} {name} sent nothing"
    rows = [_row_of(request.method, request.url.path) for request, _ in log]
    assert row in rows, (name, [(r.method, r.url.path) for r, _ in log])
    for request, response in log:
        assert _reached_handler(response), (request.method, request.url.path, response.text)


def test_the_node_refuses_a_row_without_handler_and_a_handler_without_row() -> None:
    from ledgerkit.localnet.app import _routes, handlers

    every = handlers()
    with pytest.raises(RuntimeError, match="get_account"):
        _routes({k: v for k, v in every.items() if k != "get_account"})
    with pytest.raises(RuntimeError, match="no_such_row"):
        _routes({**every, "no_such_row": every["get_account"]})


# -- written once, in ``calls`` ---------------------------------------------------------------

#: A transaction hash that parses, for the builders (which send nothing).
SAMPLE_HASH: Final = "0x" + "ab" * 32


def _builders() -> dict[str, Callable[..., Any]]:
    """The public request builders of ``calls``: what it defines that returns a ``Call``."""
    found = {}
    for name, value in vars(calls).items():
        if name.startswith("_") or isinstance(value, type) or not callable(value):
            continue
        if str(inspect.signature(value).return_annotation).startswith("Call["):
            found[name] = value
    return found


def test_calls_builds_every_row_the_clients_ask_each_call_named_after_its_builder() -> None:
    builders = _builders()
    samples = {name: (args, kwargs, row) for name, args, kwargs, row in CASES}
    assert set(builders) <= set(samples), "a builder without a line in CASES"
    asked: set[str] = set()
    for name, build in builders.items():
        args, kwargs, row = samples[name]
        call = build(*(SAMPLE_HASH if arg == HASH else arg for arg in args), **kwargs)
        assert isinstance(call, calls.Call), name
        assert call.name == name == build.__name__
        assert call.operation == row, name
        asked.add(row)
    assert asked == {op.id for op in NODE_ROWS} - set(NOT_IN_CLIENTS)


def test_calls_lists_every_builder() -> None:
    assert set(_builders()) <= set(calls.__all__)
    assert {"encode_submission", "view_json", "wait_transaction_by_hash"} <= set(_builders())


def test_the_endpoint_methods_are_the_endpoints_of_calls() -> None:
    in_calls = {name: value for name, value in vars(calls).items() if isinstance(value, endpoint)}
    in_methods = {
        name: value for name, value in vars(Endpoints).items() if isinstance(value, endpoint)
    }
    assert set(in_methods) == set(in_calls)
    for name, value in in_calls.items():
        assert in_methods[name] is value, name
        assert value.__name__ == name


# -- the faucet, the identity provider and the docs host --------------------------------------

SERVICE_ROWS: Final = tuple(
    op for service in ("faucet", "identity", "docs") for op in operations_of(service)
)
#: Path segments of the other services' rows.
SERVICE_SEGMENTS: Final = {"issuer": "project", "page": "client"}
#: What each row answers a plain request (no token, a small valid body): its handler's
#: answer, not the router's. ``fund`` and ``is_eligible`` refuse the missing token.
SERVICE_ANSWERS: Final = {
    "faucet_status": 200,
    "fund": 403,
    "is_eligible": 403,
    "mint": 400,
    "get_openid_configuration": 200,
    "get_jwks": 200,
    "sign_in": 200,
    "get_llms_txt": 200,
    "get_llms_full_txt": 200,
    "get_oauth_protected_resource": 200,
    "get_oauth_authorization_server": 200,
    "get_docs_openid_configuration": 200,
    "get_docs_page": 200,
}
#: Rows of these services no client asks, and why.
SERVICE_ROWS_NOT_IN_CLIENTS: Final = {
    "mint": "the devnet faucet's legacy tokenless mint of command-line tools; "
    "FaucetClient funds through /fund, with or without a token",
}


def _service_origin(node: LocalNode, service: str) -> str:
    if service == "identity":
        return node.issuers["project"].rsplit("/", 1)[0]
    return {"faucet": node.faucet_url, "docs": node.docs_url}[service]


def _service_row_of(service: str, method: str, path: str) -> str | None:
    """The row of ``service`` a request's method and path match."""
    for op in operations_of(service):
        pattern = re.sub(
            r"\{page\}", ".+", re.escape(op.path).replace(r"\{", "{").replace(r"\}", "}")
        )
        pattern = re.sub(r"\{[a-z_]+\}", "[^/]+", pattern)
        if op.method == method and re.fullmatch(pattern, path):
            return op.id
    return None


@pytest.mark.parametrize("op", SERVICE_ROWS, ids=lambda op: op.id)
def test_a_request_per_service_row_reaches_its_handler(op: Operation, node: LocalNode) -> None:
    assert set(SERVICE_ANSWERS) == {row.id for row in SERVICE_ROWS}
    path = op.url_path(**{name: SERVICE_SEGMENTS[name] for name in op.path_params})
    body = {"address": "0x1"} if op.service == "faucet" else {"email": "row@example.com"}
    url = _service_origin(node, op.service) + path
    response = httpx.request(op.method, url, json=body if op.body else None, timeout=30.0)
    assert response.status_code == SERVICE_ANSWERS[op.id], (op.id, response.text)
    media = response.headers["content-type"].split(";")[0]
    if response.status_code == 200:
        assert media in op.answer_types or not op.answer_types, (op.id, media)
    else:  # the service's own error shape, as its row says
        assert media == SERVICES[op.service].error_media
        assert set(response.json()) == {"message", "error_code", "rejection_reasons", "txn_hashes"}


def test_every_service_row_is_asked_by_a_client(node: LocalNode) -> None:
    from ledgerkit import DocsClient, FaucetClient, TokenProvider

    log: list[tuple[httpx.Request, httpx.Response]] = []
    issuer = node.issuers["project"]
    tokens = TokenProvider.sign_in(issuer, "rows@example.com", transport=_Recording(log))
    with FaucetClient(node.faucet_url, token=tokens, transport=_Recording(log)) as faucet:
        faucet.healthy()
        faucet.is_eligible("0x1")
        faucet.fund("0x1", 1, wait=False)
    with DocsClient(node.docs_url, transport=_Recording(log)) as docs:
        docs.page("/client")
        docs.index()
        docs.search("faucet")
        docs.discovery()
    origins = {
        _service_origin(node, service).split("//")[1]: service
        for service in ("faucet", "identity", "docs")
    }
    asked = set()
    for request, _ in log:
        service = origins[f"{request.url.host}:{request.url.port}"]
        row = _service_row_of(service, request.method, request.url.path)
        assert row is not None, (request.method, str(request.url))
        asked.add(row)
    rows = {op.id for op in SERVICE_ROWS}
    assert asked | set(SERVICE_ROWS_NOT_IN_CLIENTS) == rows
    assert not asked & set(SERVICE_ROWS_NOT_IN_CLIENTS)
