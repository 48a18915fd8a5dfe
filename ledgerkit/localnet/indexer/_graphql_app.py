"""The indexer's GraphQL API as a Starlette app: ``POST /v1/graphql`` with a JSON body
``{"query", "variables", "operationName"}`` (and ``GET`` with them as query parameters),
answered as Hasura answers: ``{"data": ...}``, or ``{"errors": [{"message",
"extensions": {"path", "code"}}]}`` with status 200 for any query it does not run.

Every request is bounded before it runs: the body (:data:`MAX_BODY_BYTES`), the query
text (:data:`MAX_QUERY_CHARS`, :data:`MAX_TOKENS`), its depth (:data:`MAX_DEPTH`, fragments
followed), then the rows and SQLite work it may spend (``_graphql_sql``). Cross-origin
requests are granted to any origin (echoed, with credentials).
"""

from __future__ import annotations

import json
import logging
from typing import Any, Final

from graphql import (
    ExecutionResult,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLSchema,
    InlineFragmentNode,
    OperationDefinitionNode,
    SelectionSetNode,
    execute,
    parse,
    print_schema,
    validate,
)
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ledgerkit.localnet.indexer._graphql_schema import build_schema
from ledgerkit.localnet.indexer._graphql_sql import (
    MAX_ROWS,
    QueryBudget,
    QueryRefusedError,
    resolvers,
)
from ledgerkit.localnet.indexer._indexer_db import IndexerDb

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_DEPTH",
    "MAX_QUERY_CHARS",
    "MAX_TOKENS",
    "build_schema_sdl",
    "create_indexer_app",
    "run_query",
]

_log = logging.getLogger("ledgerkit.localnet")

MAX_BODY_BYTES: Final = 256 * 1024
MAX_QUERY_CHARS: Final = 32 * 1024
MAX_TOKENS: Final = 4000
#: Nesting of selections (a table's rows are depth 1, a relationship of them 2 ...): the
#: tables go 5 deep at most, the standard introspection query 15.
MAX_DEPTH: Final = 15
#: SQLite work one request may spend, in thousands of VM steps.
MAX_STEPS: Final = 50_000
#: Rows one request may read in all.
MAX_TOTAL_ROWS: Final = 20 * MAX_ROWS

_SCHEMA: GraphQLSchema | None = None


def _schema() -> GraphQLSchema:
    global _SCHEMA
    if _SCHEMA is None:
        _SCHEMA = build_schema(resolvers())
    return _SCHEMA


def build_schema_sdl() -> str:
    """The schema the API serves, as SDL (what introspection describes)."""
    return print_schema(_schema())


def _error(message: str, code: str, path: str = "$") -> dict[str, Any]:
    return {"errors": [{"message": message, "extensions": {"path": path, "code": code}}]}


def _depth(
    selections: SelectionSetNode | None,
    fragments: dict[str, FragmentDefinitionNode],
    memo: dict[str, int],
) -> int:
    """How deep ``selections`` nest, fragments followed; each fragment's depth is worked
    out once (``memo``), so a fragment spread many times costs one walk. ``validate``
    has refused fragment cycles already."""
    if selections is None:
        return 0
    deepest = 0
    for selection in selections.selections:
        if isinstance(selection, FieldNode):
            deepest = max(deepest, 1 + _depth(selection.selection_set, fragments, memo))
        elif isinstance(selection, InlineFragmentNode):
            deepest = max(deepest, _depth(selection.selection_set, fragments, memo))
        elif isinstance(selection, FragmentSpreadNode):
            name = selection.name.value
            if name not in memo and name in fragments:
                memo[name] = 0  # a cycle (refused by validate) ends here
                memo[name] = _depth(fragments[name].selection_set, fragments, memo)
            deepest = max(deepest, memo.get(name, 0))
    return deepest


def _path(error: GraphQLError) -> str:
    if not error.path:
        return "$"
    return "$" + "".join(
        f".selectionSet.{part}" if isinstance(part, str) else f"[{part}]" for part in error.path
    )


def run_query(db: IndexerDb, body: Any) -> dict[str, Any]:
    """The answer to one request body (already decoded JSON)."""
    if not isinstance(body, dict):
        return _error("the request body must be a JSON object", "parse-failed")
    query = body.get("query")
    variables = body.get("variables")
    operation = body.get("operationName")
    if not isinstance(query, str):
        return _error("the key 'query' was not present or is not a string", "parse-failed")
    if len(query) > MAX_QUERY_CHARS:
        return _error(f"the query is longer than {MAX_QUERY_CHARS} characters", "validation-failed")
    if variables is not None and not isinstance(variables, dict):
        return _error("'variables' must be an object", "parse-failed", "$.variables")
    if operation is not None and not isinstance(operation, str):
        return _error("'operationName' must be a string", "parse-failed", "$.operationName")
    try:
        document = parse(query, max_tokens=MAX_TOKENS, no_location=True)
    except GraphQLError as exc:
        return _error(f"not a valid graphql query: {exc.message}", "validation-failed")
    schema = _schema()
    problems = validate(schema, document, max_errors=10)
    if problems:
        return {
            "errors": [
                {"message": p.message, "extensions": {"path": "$", "code": "validation-failed"}}
                for p in problems
            ]
        }
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    memo: dict[str, int] = {}
    for definition in document.definitions:
        if (
            isinstance(definition, OperationDefinitionNode)
            and _depth(definition.selection_set, fragments, memo) > MAX_DEPTH
        ):
            return _error(
                f"the query is nested deeper than {MAX_DEPTH} levels", "validation-failed"
            )
    # The request's reads are one snapshot: an aggregate's count and nodes agree even
    # while blocks are being indexed.
    with db.snapshot() as snapshot:
        budget = QueryBudget(snapshot, steps=MAX_STEPS, rows=MAX_TOTAL_ROWS)
        result = execute(
            schema,
            document,
            variable_values=variables,
            operation_name=operation,
            context_value=budget,
        )
    assert isinstance(result, ExecutionResult)  # the resolvers are synchronous
    if result.errors:
        return {"errors": [_execution_error(error) for error in result.errors[:10]]}
    return {"data": result.data}


def _execution_error(error: GraphQLError) -> dict[str, Any]:
    cause = error.original_error
    if cause is None or isinstance(cause, GraphQLError):  # variables missing or mistyped
        return {"message": error.message, "extensions": {"path": "$", "code": "validation-failed"}}
    if isinstance(cause, QueryRefusedError):
        return {"message": str(cause), "extensions": {"path": _path(error), "code": cause.code}}
    _log.error("indexer query failed: %r", cause)
    return {
        "message": "the indexer could not answer this query",
        "extensions": {"path": _path(error), "code": "unexpected"},
    }


def create_indexer_app(db: IndexerDb) -> Starlette:
    """The GraphQL API over ``db`` at ``/v1/graphql``."""

    async def graphql(request: Request) -> Response:
        if request.method == "GET":
            params = request.query_params
            body: Any = {"query": params.get("query"), "operationName": params.get("operationName")}
            if "variables" in params:
                try:
                    body["variables"] = _decoded(params["variables"])
                except ValueError:
                    return _answer(_error("'variables' is not JSON", "parse-failed"))
        else:
            raw = b""
            async for chunk in request.stream():
                raw += chunk
                if len(raw) > MAX_BODY_BYTES:
                    return _answer(_error("the request body is too large", "parse-failed"))
            try:
                body = _decoded(raw)
            except ValueError:
                return _answer(_error("the request body is not JSON", "invalid-json"))
        try:
            return _answer(await run_in_threadpool(run_query, db, body))
        except Exception as exc:  # an answer, never a 500
            _log.error("indexer query failed: %r", exc)
            return _answer(_error("the indexer could not answer this query", "unexpected"))

    # Browsers' SDK apps ask from their own origin, as of the hosted API (which echoes it).
    cors = Middleware(
        CORSMiddleware,
        allow_origin_regex=".*",
        allow_methods=["GET", "POST"],
        allow_headers=["*"],
        allow_credentials=True,
        max_age=86400,
    )
    return Starlette(
        routes=[Route("/v1/graphql", graphql, methods=["GET", "POST"])], middleware=[cors]
    )


def _decoded(raw: str | bytes) -> Any:
    """JSON as the standard decoder reads it: integers stay exact past 64 bits (a u128
    variable sent as a number), where orjson would make them floats; ``ValueError`` for
    text that is not JSON, nested too deep, or a number of over 4300 digits."""
    try:
        return json.loads(raw)
    except RecursionError as exc:
        raise ValueError("JSON nested too deep") from exc


def _answer(body: dict[str, Any]) -> Response:
    # The standard encoder: numbers past 64 bits (u128 supplies) stay JSON numbers.
    text = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    return Response(text.encode(), media_type="application/json")
