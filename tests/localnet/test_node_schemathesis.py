"""Property-based API testing of the running node against its own ``/spec.json``.

schemathesis generates requests from the node's OpenAPI document, requests that fit it
(positive) and requests that break it (negative), and runs every check it has on each
answer: no 5xx, documented status codes, content types and headers, bodies that fit
their schemas, valid requests accepted and invalid ones refused.

CI runs ``SCHEMATHESIS_EXAMPLES`` (default 200) examples per operation and mode; a local
run does 25 unless told otherwise.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode, checks

from ledgerkit.localnet import LocalNode
from ledgerkit.localnet.app.openapi import openapi_document

pytestmark = [pytest.mark.schemathesis, pytest.mark.timeout(1200)]

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "200" if IN_CI else "25"))

_PATHS = openapi_document()["paths"]
OPERATIONS = sorted(
    (method.upper(), path, mode)
    for path, item in _PATHS.items()
    for method, operation in item.items()
    if method in {"get", "post"}
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    # Only what takes input can be sent invalid input.
    if mode is GenerationMode.POSITIVE or "parameters" in operation or "requestBody" in operation
)


#: Schema-valid requests the node may still refuse with 400 for what the ledger holds,
#: not for how they are written: a start past the latest version, a cursor that is not
#: of this listing, a module or function that does not exist, a key that does not fit
#: the key type sent beside it (a relation no schema states). By operation: the words
#: such a refusal uses.
REFUSED_FOR_STATE: dict[tuple[str, str], str] = {
    ("GET", "/transactions"): "beyond the latest ledger version",
    ("GET", "/transactions/auxiliary_info"): "beyond the latest ledger version",
    ("GET", "/accounts/{address}/resources"): "not a cursor of this listing",
    ("GET", "/accounts/{address}/modules"): "not a cursor of this listing",
    ("POST", "/view"): " not found",
    ("POST", "/tables/{table_handle}/item"): "does not fit",
    ("POST", "/transactions"): " not found",
    ("POST", "/transactions/batch"): " not found",
    ("POST", "/transactions/simulate"): " not found",
    ("POST", "/transactions/encode_submission"): " not found",
}
#: More such refusals: a script's arguments that do not fit the ABI sent beside them.
ALSO_REFUSED: dict[tuple[str, str], str] = {
    ("POST", "/transactions/encode_submission"): "does not fit the script's ABI",
}
LEDGER_REFUSALS = {"invalid_input"}


def accepted_unless_the_ledger_refuses(ctx: Any, response: Any, case: Any) -> bool | None:
    """``positive_data_acceptance``, except for refusals listed in ``REFUSED_FOR_STATE``."""
    if case.meta is not None and case.meta.generation.mode.is_positive:
        key = (case.method.upper(), case.path)
        phrases = [p for p in (REFUSED_FOR_STATE.get(key), ALSO_REFUSED.get(key)) if p]
        if response.status_code == 400 and phrases:
            record = response.json()
            message = record.get("message", "")
            if record.get("error_code") in LEDGER_REFUSALS and any(p in message for p in phrases):
                return None
    return checks.positive_data_acceptance(ctx, response, case)


def excluded(path: str) -> list[Any]:
    """Checks replaced or not applicable. The health check answers 503 by contract when
    the ledger is behind (a generated chain's blocks are in the past)."""
    out = [checks.positive_data_acceptance]
    if path == "/-/healthy":
        out.append(checks.not_a_server_error)
    return out


@pytest.fixture(scope="module")
def api_schema(node: LocalNode) -> Any:
    return schemathesis.openapi.from_url(node.url + "/spec.json")


def test_ci_runs_at_least_200_examples() -> None:
    if IN_CI:
        assert EXAMPLES >= 200


@pytest.mark.parametrize(
    ("method", "path", "mode"), OPERATIONS, ids=[f"{m} {p} {g.value}" for m, p, g in OPERATIONS]
)
def test_node_keeps_its_own_contract(
    api_schema: Any, method: str, path: str, mode: GenerationMode
) -> None:
    operation = api_schema[path][method]

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def run(case: Any) -> None:
        case.call_and_validate(
            excluded_checks=excluded(path), additional_checks=[accepted_unless_the_ledger_refuses]
        )

    run()
