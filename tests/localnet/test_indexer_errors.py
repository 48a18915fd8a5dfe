"""What the indexer's GraphQL API answers to input it does not run: every bad request a
GraphQL error in Hasura's shape (``{"errors": [{"message", "extensions": {"path",
"code"}}]}``) with status 200, never a 500 or a hang; and its file carries on after a
restart without repeating or losing rows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from graphql import get_introspection_query
from indexer_helpers import GET_ACCOUNT_COINS_DATA, endpoint

from ledgerkit import LocalNodeError
from ledgerkit.localnet import LocalNode
from ledgerkit.localnet.indexer import IndexerDb, QueryBudget, QueryRefusedError, run_query

DEEP = "{ current_token_ownerships_v2 { current_token_data { current_collection { uri } } } }"


def _nested(depth: int) -> str:
    """An introspection selection ``depth`` levels deep, half of it through a fragment."""
    inner = "name " + "ofType { " * (depth - 5) + "name" + " }" * (depth - 5)
    return (
        "{ __schema { types { fields { type { ...T } } } } }\n"
        f"fragment T on __Type {{ {inner} }}"
    )


#: (what is wrong, the JSON body sent, the error code expected)
BAD: list[tuple[str, Any, str]] = [
    ("unknown table", {"query": "{ coin_balances { amount } }"}, "validation-failed"),
    ("unknown field", {"query": "{ events { nope } }"}, "validation-failed"),
    (
        "unknown where column",
        {"query": "{ events(where: {nope: {_eq: 1}}) { type } }"},
        "validation-failed",
    ),
    (
        "unknown operator",
        {"query": '{ events(where: {type: {_regex: "x"}}) { type } }'},
        "validation-failed",
    ),
    ("wrong argument type", {"query": '{ events(limit: "ten") { type } }'}, "validation-failed"),
    (
        "wrong scalar in where",
        {"query": '{ events(where: {sequence_number: {_eq: "x"}}) { type } }'},
        "validation-failed",
    ),
    (
        "a boolean for a bigint",
        {"query": "{ events(where: {sequence_number: {_eq: true}}) { type } }"},
        "validation-failed",
    ),
    (
        "bad order_by value",
        {"query": "{ events(order_by: {type: up}) { type } }"},
        "validation-failed",
    ),
    (
        "required variable missing",
        {
            "query": "query ($a: String!) { events(where: {type: {_eq: $a}}) { type } }",
            "variables": {},
        },
        "validation-failed",
    ),
    (
        "variable of the wrong type",
        {
            "query": "query ($n: Int) { events(limit: $n) { type } }",
            "variables": {"n": "many"},
        },
        "validation-failed",
    ),
    ("undeclared variable", {"query": "{ events(limit: $n) { type } }"}, "validation-failed"),
    ("malformed query", {"query": "{ events { type }"}, "validation-failed"),
    ("not GraphQL at all", {"query": "SELECT * FROM events"}, "validation-failed"),
    ("no query", {"variables": {}}, "parse-failed"),
    ("query not a string", {"query": 42}, "parse-failed"),
    ("variables not an object", {"query": "{ events { type } }", "variables": [1]}, "parse-failed"),
    ("body not an object", ["{ events { type } }"], "parse-failed"),
    ("a mutation", {"query": "mutation { delete_events { affected_rows } }"}, "validation-failed"),
    (
        "limit over the maximum",
        {"query": "{ events(limit: 100000) { type } }"},
        "validation-failed",
    ),
    (
        "distinct_on not leading order_by",
        {"query": "{ events(distinct_on: type, order_by: {event_index: asc}) { type } }"},
        "validation-failed",
    ),
    ("negative offset", {"query": "{ events(offset: -1) { type } }"}, "validation-failed"),
    ("too deep", {"query": _nested(16)}, "validation-failed"),
    (
        "huge query",
        {"query": "{ " + "ledger_infos { chain_id } " * 3000 + "}"},
        "validation-failed",
    ),
    (
        "too many tokens",
        {"query": "{ events(where: {_or: [" + '{type: {_eq: "x"}} ' * 800 + "]}) { type } }"},
        "validation-failed",
    ),
    (
        "unknown operation name",
        {"query": "query a { ledger_infos { chain_id } }", "operationName": "b"},
        "validation-failed",
    ),
]


@pytest.fixture(scope="module")
def gql(node: LocalNode) -> Iterator[httpx.Client]:
    assert node.indexer_url is not None
    with httpx.Client(base_url=node.indexer_url, timeout=30.0) as client:
        yield client


@pytest.mark.parametrize(("what", "body", "code"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_a_graphql_error_with_status_200(
    gql: httpx.Client, what: str, body: Any, code: str
) -> None:
    response = gql.post(endpoint(gql), json=body)
    assert response.status_code == 200
    answer = response.json()
    assert set(answer) == {"errors"}, (what, answer)
    for error in answer["errors"]:
        assert isinstance(error["message"], str)
        assert error["message"]
        assert error["extensions"]["path"].startswith("$")
    assert answer["errors"][0]["extensions"]["code"] == code


@pytest.mark.parametrize(
    "raw",
    [b"{not json", b"", b"\xff\xfe", b'{"query": "{ ledger_infos { chain_id } }"' + b" " * 300_000],
    ids=["malformed JSON", "empty body", "not UTF-8", "body too large"],
)
def test_a_body_that_is_not_a_json_request_is_a_graphql_error(
    gql: httpx.Client, raw: bytes
) -> None:
    response = gql.post(endpoint(gql), content=raw, headers={"content-type": "application/json"})
    assert response.status_code == 200
    assert set(response.json()) == {"errors"}


def test_get_with_variables_that_are_not_json_is_a_graphql_error(gql: httpx.Client) -> None:
    response = gql.get(
        endpoint(gql), params={"query": "{ ledger_infos { chain_id } }", "variables": "{x"}
    )
    assert response.status_code == 200
    assert response.json()["errors"][0]["extensions"]["code"] == "parse-failed"


def test_queries_within_the_depth_limit_answer(gql: httpx.Client) -> None:
    response = gql.post(endpoint(gql), json={"query": DEEP})
    assert response.json() == {"data": {"current_token_ownerships_v2": []}}
    nested = gql.post(endpoint(gql), json={"query": _nested(15)}).json()
    assert set(nested) == {"data"}
    introspection = gql.post(endpoint(gql), json={"query": get_introspection_query()}).json()
    names = {t["name"] for t in introspection["data"]["__schema"]["types"]}
    assert {"events_bool_exp", "bigint_comparison_exp", "order_by", "numeric"} <= names


def test_values_never_reach_sql_text(gql: httpx.Client) -> None:
    """A value that would end the SQL string if it were pasted in is only a value."""
    hostile = "x' OR '1'='1"
    body = {
        "query": GET_ACCOUNT_COINS_DATA,
        "variables": {"where_condition": {"owner_address": {"_eq": hostile}}},
    }
    response = gql.post(endpoint(gql), json=body)
    assert response.json() == {"data": {"current_fungible_asset_balances": []}}


def test_the_indexer_file_carries_on_after_a_restart(make_node: Any, tmp_path: Path) -> None:
    """Stopped and started on the same ledger file, the indexer neither repeats nor
    loses rows: its counts are those of an indexer that read the ledger in one pass."""
    path = tmp_path / "ledger.sqlite3"
    node: LocalNode = make_node(seed=7, blocks=12, db=path)
    assert (tmp_path / "ledger.sqlite3.indexer").exists()
    node.stop()
    node.start()
    query = {
        "query": "{ events_aggregate { aggregate { count } } "
        "account_transactions_aggregate { aggregate { count } } "
        "processor_status(limit: 1) { last_success_version } }"
    }
    assert node.indexer_url is not None
    answer = httpx.post(node.indexer_url, json=query, timeout=30).json()["data"]
    once = IndexerDb(":memory:")
    once.catch_up(node.ledger)
    fresh = run_query(once, query)["data"]
    node.stop()
    once.close()
    assert answer == fresh
    assert answer["processor_status"][0]["last_success_version"] >= 0


def test_a_read_past_its_budget_of_work_is_refused(node: LocalNode) -> None:
    """The budget of SQLite steps stops a read midway (a tiny budget here, on a table of
    a few hundred rows) with the indexer's refusal, not an answer cut short."""
    db = IndexerDb(":memory:")
    db.catch_up(node.ledger)
    try:
        with pytest.raises(QueryRefusedError, match="more work"):
            QueryBudget(db, steps=1, rows=10_000).run(
                "SELECT a.type FROM events AS a, events AS b, events AS c", []
            )
        with pytest.raises(QueryRefusedError, match="more rows"):
            QueryBudget(db, steps=10_000, rows=5).run("SELECT type FROM events", [])
    finally:
        db.close()


def test_an_indexer_file_of_another_ledger_is_indexed_again(make_node: Any, tmp_path: Path) -> None:
    """A file ahead of the ledger it is given (another ledger put in its place) is
    emptied and indexed again: its answers are those of a fresh indexer."""
    longer: LocalNode = make_node(seed=7, blocks=12, services=False)
    shorter: LocalNode = make_node(seed=7, blocks=4, services=False)
    query = {"query": "{ events_aggregate { aggregate { count } } ledger_infos { chain_id } }"}
    db = IndexerDb(tmp_path / "indexer")
    fresh = IndexerDb(":memory:")
    try:
        db.catch_up(longer.ledger)
        before = run_query(db, query)["data"]
        assert db.catch_up(shorter.ledger) == shorter.ledger.head_within(None).version
        fresh.catch_up(shorter.ledger)
        after = run_query(db, query)["data"]
        assert after == run_query(fresh, query)["data"]
        assert after != before
    finally:
        db.close()
        fresh.close()


def test_an_indexer_file_that_is_not_sqlite_is_a_local_node_error(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    (tmp_path / "ledger.sqlite3.indexer").write_bytes(b"not a database at all" * 100)
    node = LocalNode(seed=7, blocks=2, db=path)
    with pytest.raises(LocalNodeError, match="indexer's file"):
        node.start()
    assert not node.running


def test_an_indexer_file_of_another_ledger_of_the_same_chain_id_is_indexed_again(
    make_node: Any, tmp_path: Path
) -> None:
    """Two ledgers of chain id 4 (seeds 1 and 2), the second longer: the file indexed
    from the first is emptied and answers as a fresh indexer of the second."""
    first: LocalNode = make_node(seed=1, blocks=3, services=False)
    second: LocalNode = make_node(seed=2, blocks=6, services=False)
    query = {
        "query": "{ events_aggregate { aggregate { count } } ledger_infos { chain_id } "
        "user_transactions(order_by: {version: asc}) { version sender } }"
    }
    db = IndexerDb(tmp_path / "indexer")
    fresh = IndexerDb(":memory:")
    try:
        db.catch_up(first.ledger)
        db.catch_up(second.ledger)
        fresh.catch_up(second.ledger)
        answer = run_query(db, query)["data"]
        assert answer == run_query(fresh, query)["data"]
        assert answer["ledger_infos"] == [{"chain_id": 4}]
    finally:
        db.close()
        fresh.close()
