"""Property-based API testing of the running node against its own ``/spec.json``.

schemathesis generates requests from the node's OpenAPI document (a bounded number per
operation) and checks every answer: no 5xx, documented status codes, content types and
headers, and bodies that fit their own schemas.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import checks

from ledgerkit.localnet import LocalNode
from ledgerkit.localnet.app._openapi import openapi_document

# What the node promises: never a 5xx, and every answer as its document describes it.
# (Whether a schema-valid request names an account or module that exists is the
# ledger's business, so "positive data acceptance" is not among them.)
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_headers_conformance,
    checks.response_schema_conformance,
]


def checks_for(path: str) -> list[Any]:
    """The health check answers 503 by contract when the ledger is behind (a generated
    chain's blocks are in the past), so there a 503 must be documented, not absent."""
    if path == "/-/healthy":
        return [check for check in CHECKS if check is not checks.not_a_server_error]
    return CHECKS


OPERATIONS = sorted(
    (method.upper(), path)
    for path, item in openapi_document()["paths"].items()
    for method in item
    if method in {"get", "post"}
)


@pytest.fixture(scope="module")
def api_schema(node: LocalNode) -> Any:
    return schemathesis.openapi.from_url(node.url + "/spec.json")


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_node_keeps_its_own_contract(api_schema: Any, method: str, path: str) -> None:
    operation = api_schema[path][method]

    @given(case=operation.as_strategy())
    @settings(
        max_examples=10,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any) -> None:
        case.call_and_validate(checks=checks_for(path))

    run()
