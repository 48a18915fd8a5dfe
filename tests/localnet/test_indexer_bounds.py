"""Bounds of the indexer's GraphQL API that hold whatever the query: values too large
to be a number of the chain, fragments spread many times, work spread over aliases,
and counts past the rows one field answers. Each is run on a small table of its own."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ledgerkit.localnet.indexer import IndexerDb, QueryBudget, QueryRefusedError, run_query


@pytest.fixture
def db() -> Iterator[IndexerDb]:
    made = IndexerDb(":memory:")
    yield made
    made.close()


@pytest.fixture
def filed(tmp_path: Path) -> Iterator[tuple[IndexerDb, sqlite3.Connection]]:
    """An indexer's file, and a connection of its own to write rows into its tables."""
    path = tmp_path / "indexer"
    made = IndexerDb(path)
    writer = sqlite3.connect(path, isolation_level=None)
    yield made, writer
    writer.close()
    made.close()


def _code(answer: dict[str, Any]) -> str:
    assert set(answer) == {"errors"}, answer
    code: str = answer["errors"][0]["extensions"]["code"]
    return code


@pytest.mark.parametrize("value", ['"1e1000000"', '"1e100"', "1e1000000", "1" + "0" * 81])
def test_a_numeric_past_a_u256_is_refused_before_it_is_read(db: IndexerDb, value: str) -> None:
    query = (
        f"{{ current_fungible_asset_balances(where: {{amount: {{_eq: {value}}}}}) {{ amount }} }}"
    )
    assert _code(run_query(db, {"query": query})) == "validation-failed"
    variables = {"m": value.strip('"')}
    query = (
        "query q($m: numeric) { current_fungible_asset_balances(where: {amount: {_eq: $m}}) "
        "{ amount } }"
    )
    assert _code(run_query(db, {"query": query, "variables": variables})) == "validation-failed"


def test_a_numeric_of_a_u256_is_a_value(db: IndexerDb) -> None:
    u256 = str(2**256 - 1)
    for value in (f'"{u256}"', '"1e77"', '"12.5"'):
        where = f"{{amount: {{_gt: {value}}}}}"
        query = f"{{ current_fungible_asset_balances(where: {where}) {{ amount }} }}"
        assert run_query(db, {"query": query}) == {"data": {"current_fungible_asset_balances": []}}


def _doubling(levels: int, last: str) -> str:
    """Fragments each spreading the next twice: ``2**levels`` spreads of the last one."""
    fragments = [
        f"fragment F{i} on query_root {{ ...F{i + 1} ...F{i + 1} }}" for i in range(levels)
    ]
    fragments.append(f"fragment F{levels} on query_root {{ {last} }}")
    return "{ ...F0 }\n" + "\n".join(fragments)


def test_fragments_spread_twice_at_every_level_are_answered_once(db: IndexerDb) -> None:
    """40 levels: 2**40 spreads if each were walked again; the answer is one table's."""
    answer = run_query(db, {"query": _doubling(40, "ledger_infos { chain_id }")})
    assert answer == {"data": {"ledger_infos": []}}


def test_depth_through_fragments_spread_twice_is_still_bounded(db: IndexerDb) -> None:
    deep = "__schema { types { fields { type { " + "ofType { " * 12 + "name" + " }" * 16
    assert _code(run_query(db, {"query": _doubling(30, deep)})) == "validation-failed"
    shallow = "__schema { types { name } }"
    assert set(run_query(db, {"query": _doubling(30, shallow)})) == {"data"}


_COUNTING = (
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000) "
    "SELECT COUNT(*) FROM c"
)


def test_the_budget_of_work_is_spent_across_the_statements_of_a_request(db: IndexerDb) -> None:
    """A budget half as large again as one statement's work runs it once, not twice."""
    cost = [0]
    assert db.query(_COUNTING, [], steps=10**6, spent=cost) == [(200000,)]
    assert cost[0] >= 100  # thousands of steps
    budget = QueryBudget(db, steps=cost[0] * 3 // 2, rows=10)
    assert budget.run(_COUNTING, []) == [(200000,)]
    with pytest.raises(QueryRefusedError, match="more work"):
        budget.run(_COUNTING, [])
    assert budget.steps <= 0


def test_an_aggregate_counts_every_matching_row_past_the_rows_a_field_answers(
    filed: tuple[IndexerDb, sqlite3.Connection],
) -> None:
    db, writer = filed
    rows = [(version, "0xa", "2026-01-01T00:00:00.000000") for version in range(1500)]
    rows += [(version, "0xb", "2026-01-01T00:00:00.000000") for version in range(3)]
    with writer:
        writer.execute("BEGIN")
        writer.executemany("INSERT INTO account_transactions VALUES (?, ?, ?)", rows)
    where = '(where: {account_address: {_eq: "0xa"}})'
    query = (
        f"{{ account_transactions_aggregate{where} {{ aggregate {{ count "
        "max { transaction_version } sum { transaction_version } } } }"
    )
    assert run_query(db, {"query": query}) == {
        "data": {
            "account_transactions_aggregate": {
                "aggregate": {
                    "count": 1500,
                    "max": {"transaction_version": 1499},
                    "sum": {"transaction_version": 1124250},
                }
            }
        }
    }
    # limit and offset (given) bound the rows folded, as Hasura's do; nodes stay capped.
    limited = (
        '{ account_transactions_aggregate(where: {account_address: {_eq: "0xa"}}, '
        "order_by: {transaction_version: asc}, limit: 10, offset: 1495) "
        "{ aggregate { count } nodes { transaction_version } } "
        'all: account_transactions_aggregate(where: {account_address: {_eq: "0xa"}}) '
        "{ nodes { transaction_version } } }"
    )
    data = run_query(db, {"query": limited})["data"]
    assert data["account_transactions_aggregate"] == {
        "aggregate": {"count": 5},
        "nodes": [{"transaction_version": v} for v in (1495, 1496, 1497, 1498, 1499)],
    }
    assert len(data["all"]["nodes"]) == 1000


def test_a_read_carrying_too_many_values_is_refused_and_not_logged_as_an_error(
    db: IndexerDb, caplog: pytest.LogCaptureFixture
) -> None:
    """11 lists of 1,000 values each (each list within its own bound) in one read."""
    where = {"_or": [{"sequence_number": {"_in": list(range(1000))}} for _ in range(11)]}
    query = "query q($w: events_bool_exp) { events(where: $w) { type } }"
    with caplog.at_level("WARNING", logger="ledgerkit.localnet"):
        answer = run_query(db, {"query": query, "variables": {"w": where}})
    assert _code(answer) == "validation-failed"
    assert "10000 values" in answer["errors"][0]["message"]
    assert [r for r in caplog.records if r.levelname == "ERROR"] == []
    # Nine lists are within the bound: an answer, here of no rows.
    where["_or"] = where["_or"][:9]
    answer = run_query(db, {"query": query, "variables": {"w": where}})
    assert answer == {"data": {"events": []}}


def _balances(writer: sqlite3.Connection, amounts: list[int | str]) -> None:
    """Balances of these amounts, stored as the indexer stores them (INTEGER up to 64
    bits, decimal text past it)."""
    rows = [
        (f"0x{i + 1:x}", "0x1", 1, 0, amount, "2026-01-01", "0xa", "v2")
        for i, amount in enumerate(amounts)
    ]
    with writer:
        writer.execute("BEGIN")
        writer.executemany(
            "INSERT INTO current_fungible_asset_balances (storage_id, owner_address, "
            "is_primary, is_frozen, amount, inserted_at, asset_type, token_standard) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )


def test_amounts_past_64_bits_compare_sort_and_add_exactly(
    filed: tuple[IndexerDb, sqlite3.Connection],
) -> None:
    db, writer = filed
    # 9e18, 2**64 - 1, 2**63, 10**20: the last three past SQLite's integers.
    _balances(
        writer,
        [
            9000000000000000000,
            "18446744073709551615",
            "9223372036854775808",
            "100000000000000000000",
        ],
    )
    query = """{
      ordered: current_fungible_asset_balances(order_by: {amount: desc}) { amount }
      above: current_fungible_asset_balances(
        where: {amount: {_gt: "10000000000000000000"}}, order_by: {amount: asc}) { amount }
      current_fungible_asset_balances_aggregate {
        aggregate { sum { amount } max { amount } min { amount } avg { amount } }
      }
    }"""
    assert run_query(db, {"query": query}) == {
        "data": {
            "ordered": [
                {"amount": 100000000000000000000},
                {"amount": 18446744073709551615},
                {"amount": 9223372036854775808},
                {"amount": 9000000000000000000},
            ],
            "above": [{"amount": 18446744073709551615}, {"amount": 100000000000000000000}],
            "current_fungible_asset_balances_aggregate": {
                "aggregate": {
                    "sum": {"amount": 136670116110564327423},
                    "max": {"amount": 100000000000000000000},
                    "min": {"amount": 9000000000000000000},
                    "avg": {"amount": 34167529027641081855.75},
                }
            },
        }
    }


def test_a_sum_past_64_bits_of_amounts_within_them_is_exact(
    filed: tuple[IndexerDb, sqlite3.Connection], caplog: pytest.LogCaptureFixture
) -> None:
    db, writer = filed
    _balances(writer, [5000000000000000000, 5000000000000000000])
    query = "{ current_fungible_asset_balances_aggregate { aggregate { sum { amount } } } }"
    with caplog.at_level("WARNING", logger="ledgerkit.localnet"):
        answer = run_query(db, {"query": query})
    assert answer == {
        "data": {
            "current_fungible_asset_balances_aggregate": {
                "aggregate": {"sum": {"amount": 10000000000000000000}}
            }
        }
    }
    assert caplog.records == []


def test_u128_amounts_add_and_match_to_the_last_digit(
    filed: tuple[IndexerDb, sqlite3.Connection],
) -> None:
    db, writer = filed
    _balances(writer, ["340282366920938463463374607431768211455", 1])
    query = """{
      current_fungible_asset_balances_aggregate {
        aggregate { sum { amount } max { amount } }
      }
      above: current_fungible_asset_balances(
        where: {amount: {_gte: "340282366920938463463374607431768211454"}}) { amount }
      beyond: current_fungible_asset_balances(
        where: {amount: {_gte: "340282366920938463463374607431768211456"}}) { amount }
    }"""
    assert run_query(db, {"query": query}) == {
        "data": {
            "current_fungible_asset_balances_aggregate": {
                "aggregate": {
                    "sum": {"amount": 340282366920938463463374607431768211456},
                    "max": {"amount": 340282366920938463463374607431768211455},
                }
            },
            "above": [{"amount": 340282366920938463463374607431768211455}],
            "beyond": [],
        }
    }


def _nested_list(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("value", [{"a": 2**70}, _nested_list(300)], ids=["u128", "deep"])
def test_a_jsonb_value_past_what_is_stored_is_refused_not_unexpected(
    db: IndexerDb, value: Any, caplog: pytest.LogCaptureFixture
) -> None:
    query = "query q($d: jsonb) { events(where: {data: {_eq: $d}}) { type } }"
    with caplog.at_level("WARNING", logger="ledgerkit.localnet"):
        answer = run_query(db, {"query": query, "variables": {"d": value}})
    assert _code(answer) == "validation-failed"
    assert caplog.records == []


def _event(writer: sqlite3.Connection, type_: str) -> None:
    writer.execute(
        "INSERT INTO events (sequence_number, creation_number, account_address, "
        "transaction_version, transaction_block_height, type, data, inserted_at, event_index, "
        "indexed_type) VALUES (0, 0, '0x1', 1, 1, ?, '{}', '2026-01-01T00:00:00', 0, ?)",
        (type_, type_),
    )


@pytest.mark.parametrize("op", ["_like", "_nlike", "_ilike", "_nilike"])
def test_a_pattern_past_10000_bytes_is_refused_and_not_logged_as_an_error(
    filed: tuple[IndexerDb, sqlite3.Connection], op: str, caplog: pytest.LogCaptureFixture
) -> None:
    """SQLite fails a pattern past 50,000 bytes ("too complex") once it meets a row."""
    db, writer = filed
    _event(writer, "0x1::coin::CoinDeposit")
    query = "query q($p: String) { events(where: {type: {" + op + ": $p}}) { type } }"
    with caplog.at_level("WARNING", logger="ledgerkit.localnet"):
        for pattern in ("%" * 60_000, "a" * 10_001, "\u20ac" * 3_334):  # 3 bytes each
            answer = run_query(db, {"query": query, "variables": {"p": pattern}})
            assert _code(answer) == "validation-failed"
            assert answer["errors"][0]["message"] == (f"a {op} pattern is longer than 10000 bytes")
    assert [r for r in caplog.records if r.levelname == "ERROR"] == []
    # 10,000 bytes are within the bound: an answer.
    kept = "%" * 9_999 + "t"
    matched = {"_like": 1, "_nlike": 0, "_ilike": 1, "_nilike": 0}[op]
    answer = run_query(db, {"query": query, "variables": {"p": kept}})
    assert answer == {"data": {"events": [{"type": "0x1::coin::CoinDeposit"}] * matched}}


def _nots(where: dict[str, Any], times: int) -> dict[str, Any]:
    for _ in range(times):
        where = {"_not": where}
    return where


@pytest.mark.parametrize(
    ("where", "said"),
    [
        # 1,000 terms under one _or: SQLite's expression tree is at most 1,000 deep.
        (
            {"_or": [{"sequence_number": {"_eq": n}} for n in range(1000)]},
            "the query is too large for the indexer: Expression tree is too large "
            "(maximum depth 1000)",
        ),
        (
            _nots({"type": {"_eq": "x"}}, 50),
            "the query is too large for the indexer: parser stack overflow",
        ),
    ],
    ids=["1000 terms", "50 nots"],
)
def test_a_where_too_large_for_sqlite_is_refused_and_not_logged_as_an_error(
    filed: tuple[IndexerDb, sqlite3.Connection],
    where: dict[str, Any],
    said: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    db, writer = filed
    _event(writer, "0x1::coin::CoinDeposit")
    query = "query q($w: events_bool_exp) { events(where: $w) { type } }"
    with caplog.at_level("WARNING", logger="ledgerkit.localnet"):
        answer = run_query(db, {"query": query, "variables": {"w": where}})
    assert _code(answer) == "validation-failed"
    assert answer["errors"][0]["message"] == said
    assert caplog.records == []
