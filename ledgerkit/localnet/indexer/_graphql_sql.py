"""GraphQL selections to SQL over the indexer's tables: the resolvers of the schema
(``_graphql_schema``).

Every value reaches SQLite as a parameter; names in the SQL text are only the tables'
and columns' own (from ``_tables``, checked against the schema before any resolver
runs). Each read is bounded: at most :data:`MAX_ROWS` rows per field (``limit`` larger
is refused), and a budget of SQLite steps shared by the whole query
(:class:`QueryBudget`); past it the query fails with an error instead of running on.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import orjson
from graphql import GraphQLResolveInfo as _GraphQLResolveInfo

from ledgerkit._errors import InputError
from ledgerkit.localnet.indexer._graphql_schema import ORDER_BY, Resolvers
from ledgerkit.localnet.indexer._indexer_db import Reads
from ledgerkit.localnet.indexer._numeric import numeric_key
from ledgerkit.localnet.indexer._tables import TABLES, Column, Table

#: The resolvers' ``info``: its context is the request's :class:`QueryBudget`.
Info = _GraphQLResolveInfo["QueryBudget"]

__all__ = [
    "MAX_PARAMS",
    "MAX_PATTERN_BYTES",
    "MAX_ROWS",
    "QueryBudget",
    "QueryRefusedError",
    "resolvers",
]

#: Rows one field answers with at most (and what ``limit`` may ask for).
MAX_ROWS: Final = 1000
#: ``_in``/``_nin`` lists and ``_and``/``_or`` lists hold at most this many items.
MAX_LIST: Final = 1000
_STRING_OPS: Final = {
    "_like": "GLOB",
    "_nlike": "NOT GLOB",
    "_ilike": "LIKE",
    "_nilike": "NOT LIKE",
}
#: Values one SQL statement may carry (nested ``_in`` lists reach past SQLite's own cap).
MAX_PARAMS: Final = 10_000
#: Bytes of a ``_like``/``_ilike`` pattern (as SQLite gets it), well within SQLite's own
#: cap (50,000), past which it fails the statement as "too complex".
MAX_PATTERN_BYTES: Final = 10_000
#: SQLite's refusals of a statement too large for it: the query's doing, not the indexer's.
_TOO_LARGE: Final = (
    "too many SQL variables",
    "too many terms",
    "Expression tree is too large",
    "parser stack overflow",
    "too many columns",
    "string or blob too big",
    "pattern too complex",
)
_COMPARE: Final = {"_eq": "=", "_neq": "<>", "_gt": ">", "_gte": ">=", "_lt": "<", "_lte": "<="}


class QueryRefusedError(InputError):
    """A query the indexer does not run (too large, too long); ``code`` is Hasura's."""

    def __init__(self, message: str, code: str = "validation-failed") -> None:
        super().__init__(message)
        self.code = code


@dataclass
class QueryBudget:
    """What one GraphQL request may still spend: SQLite steps (thousands) and rows;
    ``db`` runs its reads (an :class:`~ledgerkit.localnet.indexer.IndexerDb`, or the
    request's :class:`~ledgerkit.localnet.indexer.Snapshot`)."""

    db: Reads
    steps: int
    rows: int
    spent: list[int] = field(default_factory=lambda: [0])

    def run(self, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
        if self.steps <= 0:
            raise QueryRefusedError("the query needs more work than the indexer allows")
        if len(params) > MAX_PARAMS:
            raise QueryRefusedError(f"the query carries more than {MAX_PARAMS} values in one read")
        used = [0]
        try:
            found = self.db.query(sql, params, steps=self.steps, spent=used)
        except sqlite3.OperationalError as exc:
            if "interrupt" in str(exc):
                raise QueryRefusedError(
                    "the query needs more work than the indexer allows"
                ) from exc
            if any(reason in str(exc) for reason in _TOO_LARGE):
                raise QueryRefusedError(f"the query is too large for the indexer: {exc}") from exc
            if "integer overflow" in str(exc):
                raise QueryRefusedError(f"the query's sum is past 64 bits: {exc}") from exc
            raise
        finally:
            # What the statement ran comes off the request's budget, finished or not.
            self.spent[0] += used[0]
            self.steps -= max(1, used[0])
        self.rows -= len(found)
        if self.rows < 0:
            raise QueryRefusedError("the query's answer has more rows than the indexer sends")
        return found


def _like_to_glob(pattern: str) -> str:
    """A case-sensitive ``LIKE`` pattern (``%``, ``_``, ``\\`` escapes) as a GLOB one."""
    out = []
    chars = iter(pattern)
    for char in chars:
        if char == "\\":
            char = next(chars, "\\")
            out.append(f"[{char}]" if char in "*?[" else char)
        elif char == "%":
            out.append("*")
        elif char == "_":
            out.append("?")
        elif char in "*?[":
            out.append(f"[{char}]")
        else:
            out.append(char)
    return "".join(out)


def _stored(column: Column, value: Any) -> Any:
    if column.scalar == "numeric":
        return numeric_key(value)
    if column.scalar == "Boolean":
        return int(bool(value))
    if column.scalar == "jsonb":
        try:
            return orjson.dumps(value).decode()
        except orjson.JSONEncodeError as exc:  # integers past 64 bits, nesting past 254
            raise QueryRefusedError(f"a jsonb value the indexer does not compare: {exc}") from exc
    if isinstance(value, int) and not -(2**63) <= value < 2**63:
        return str(value)
    return value


def _listed(items: Any, what: str) -> list[Any]:
    listed: list[Any] = items if isinstance(items, list) else [items]
    if len(listed) > MAX_LIST:
        raise QueryRefusedError(f"{what} holds more than {MAX_LIST} items")
    return listed


def where_sql(table: Table, exp: dict[str, Any] | None, alias: str, params: list[Any]) -> str:
    """The SQL condition of a ``<table>_bool_exp`` on rows named ``alias``."""
    if not exp:
        return "1"
    parts = []
    for key, value in exp.items():
        if value is None:
            continue
        if key in ("_and", "_or"):
            inner = [where_sql(table, item, alias, params) for item in _listed(value, key)]
            if inner:
                parts.append("(" + (" AND " if key == "_and" else " OR ").join(inner) + ")")
        elif key == "_not":
            parts.append(f"NOT ({where_sql(table, value, alias, params)})")
        elif (column := table.column(key)) is not None:
            parts.extend(_compare(column, f'{alias}."{key}"', value, params))
        else:
            relation = next(r for r in table.relationships if r.name == key)
            remote = TABLES[relation.table]
            inner_alias = f"{alias}_{len(params)}_{relation.name}"
            condition = where_sql(remote, value, inner_alias, params)
            parts.append(
                f'EXISTS (SELECT 1 FROM "{remote.name}" AS {inner_alias} WHERE '
                f'{inner_alias}."{relation.remote}" = {alias}."{relation.local}" AND {condition})'
            )
    return " AND ".join(parts) if parts else "1"


def _compare(column: Column, name: str, ops: dict[str, Any], params: list[Any]) -> list[str]:
    parts = []
    raw = name
    if column.scalar == "numeric":  # compared by exact value, past 64 bits too
        name = f"lk_numkey({name})"
    for op, value in ops.items():
        if value is None:
            continue  # Hasura: a null comparison holds for every row
        if op in _COMPARE:
            params.append(_stored(column, value))
            parts.append(f"{name} {_COMPARE[op]} ?")
        elif op in ("_in", "_nin"):
            values = _listed(value, op)
            if not values:
                parts.append("0" if op == "_in" else "1")
                continue
            params.extend(_stored(column, v) for v in values)
            marks = ", ".join("?" for _ in values)
            parts.append(f"{name} {'IN' if op == '_in' else 'NOT IN'} ({marks})")
        elif op == "_is_null":
            parts.append(f"{raw} IS {'' if value else 'NOT '}NULL")
        elif op in _STRING_OPS:
            pattern = _like_to_glob(value) if "GLOB" in _STRING_OPS[op] else value
            if len(pattern.encode("utf-8", "surrogatepass")) > MAX_PATTERN_BYTES:
                raise QueryRefusedError(f"a {op} pattern is longer than {MAX_PATTERN_BYTES} bytes")
            params.append(pattern)
            parts.append(
                f"{name} {_STRING_OPS[op]} ?"
                + (" ESCAPE '\\'" if "LIKE" in _STRING_OPS[op] else "")
            )
    return parts


def rows_sql(table: Table, args: dict[str, Any], *, cap: bool = True) -> tuple[str, list[Any]]:
    """``SELECT`` of a table's rows under ``where``/``order_by``/``distinct_on``/
    ``limit``/``offset``, every column in ``_tables`` order; at most :data:`MAX_ROWS`
    of them unless ``cap`` is false (what an aggregate folds: every row, or ``limit``)."""
    params: list[Any] = []
    condition = where_sql(table, args.get("where"), "r", params)
    order = []
    ordered = []
    for item in _listed(args.get("order_by") or [], "order_by"):
        for name, direction in item.items():
            if direction is not None:
                column = table.column(name)
                key = (
                    f'lk_numkey("{name}")' if column and column.scalar == "numeric" else f'"{name}"'
                )
                order.append(f"{key} {ORDER_BY[direction]}")
                ordered.append(name)
    distinct = args.get("distinct_on")
    if distinct and ordered and set(ordered[: len(distinct)]) != set(distinct):
        # Hasura's rule: the rows kept are the first of each group in the query's order.
        raise QueryRefusedError('"distinct_on" columns must match initial "order_by" columns')
    columns = ", ".join(f'r."{c.name}"' for c in table.columns)
    sql = f'SELECT {columns} FROM "{table.name}" AS r WHERE {condition}'
    if distinct:
        partition = ", ".join(f'"{name}"' for name in distinct)
        within = ", ".join(order) or partition
        sql = (
            f"SELECT {', '.join(chr(34) + c.name + chr(34) for c in table.columns)} FROM "
            f"(SELECT *, ROW_NUMBER() OVER (PARTITION BY {partition} ORDER BY {within}) AS _n "
            f"FROM ({sql})) AS r WHERE _n = 1"
        )
    if order:
        sql += " ORDER BY " + ", ".join(order)
    limit = args.get("limit")
    offset = args.get("offset") or 0
    if limit is not None and not 0 <= limit <= MAX_ROWS:
        raise QueryRefusedError(f"limit must be between 0 and {MAX_ROWS}, got {limit}")
    if offset < 0:
        raise QueryRefusedError(f"offset must not be negative, got {offset}")
    if limit is not None or offset or cap:
        sql += " LIMIT ? OFFSET ?"
        params += [(MAX_ROWS if cap else -1) if limit is None else limit, offset]
    return sql, params


def _row(table: Table, values: tuple[Any, ...]) -> dict[str, Any]:
    return {c.name: _output(c, v) for c, v in zip(table.columns, values, strict=True)}


def _output(column: Column, value: Any) -> Any:
    if value is None:
        return None
    kind = column.scalar
    if kind == "Boolean":
        return bool(value)
    if kind == "numeric" or kind == "bigint":
        return int(value)
    if kind == "timestamp":
        text = str(value)
        return text.rstrip("0").rstrip(".") if "." in text else text
    if kind == "jsonb":
        return orjson.loads(value)
    return value


def _table_of(info: Info) -> Table:
    name = info.field_name.removesuffix("_aggregate").removesuffix("_by_pk")
    return TABLES[name]


def _rows(_root: Any, info: Info, **args: Any) -> list[dict[str, Any]]:
    table = _table_of(info)
    sql, params = rows_sql(table, args)
    return [_row(table, values) for values in info.context.run(sql, params)]


def _by_pk(_root: Any, info: Info, **keys: Any) -> dict[str, Any] | None:
    table = _table_of(info)
    where = {name: {"_eq": value} for name, value in keys.items()}
    sql, params = rows_sql(table, {"where": where, "limit": 1})
    found = info.context.run(sql, params)
    return _row(table, found[0]) if found else None


@dataclass(frozen=True)
class _Aggregate:
    table: Table
    sql: str
    params: list[Any]
    args: dict[str, Any]


def _aggregate(_root: Any, info: Info, **args: Any) -> _Aggregate:
    """The filtered rows, read only by what the selection asks (``aggregate``, ``nodes``)."""
    table = _table_of(info)
    sql, params = rows_sql(table, args, cap=False)
    return _Aggregate(table, sql, params, args)


def _nodes(parent: _Aggregate, info: Info) -> list[dict[str, Any]]:
    # The aggregate folds every row (as Hasura's does); its nodes are at most MAX_ROWS.
    sql, params = rows_sql(parent.table, parent.args)
    return [_row(parent.table, values) for values in info.context.run(sql, params)]


def _count(
    parent: _Aggregate,
    info: Info,
    columns: list[str] | None = None,
    distinct: bool | None = None,
) -> int:
    if columns:
        listed = ", ".join(f'"{name}"' for name in columns)
        counted = f"COUNT({'DISTINCT ' if distinct else ''}{listed})"
        if len(columns) > 1:  # a row of several columns counts when none is null
            nulls = " AND ".join(f'"{name}" IS NOT NULL' for name in columns)
            inner = f"SELECT DISTINCT {listed}" if distinct else f"SELECT {listed}"
            sql = f"SELECT COUNT(*) FROM ({inner} FROM ({parent.sql}) WHERE {nulls})"
            return int(info.context.run(sql, parent.params)[0][0])
    else:
        counted = "COUNT(*)"
    sql = f"SELECT {counted} FROM ({parent.sql})"
    return int(info.context.run(sql, parent.params)[0][0])


def _fold(name: str) -> Callable[..., dict[str, Any]]:
    def function(column: Column) -> str:
        # Exact over Python's integers: SQLite's SUM overflows past 64 bits, adds TEXT as
        # REAL and orders TEXT by characters.
        if name in ("sum", "avg") or column.scalar == "numeric":
            return f"lk_{name}"
        return name.upper()

    def fold(parent: _Aggregate, info: Info) -> dict[str, Any]:
        # Every column the fold's type has (fragments and aliases need no reading).
        offered = getattr(info.return_type, "fields", {})
        columns = [c for c in parent.table.columns if c.name in offered]
        folded = ", ".join(f'{function(c)}("{c.name}")' for c in columns)
        values = info.context.run(f"SELECT {folded} FROM ({parent.sql})", parent.params)[0]
        if name == "avg":
            return {c.name: v for c, v in zip(columns, values, strict=True)}
        return {c.name: _output(c, v) for c, v in zip(columns, values, strict=True)}

    return fold


def _related(table_name: str, local: str, remote: str) -> Callable[..., dict[str, Any] | None]:
    table = TABLES[table_name]

    def related(parent: dict[str, Any], info: Info) -> dict[str, Any] | None:
        value = parent.get(local)
        if value is None:
            return None
        sql, params = rows_sql(table, {"where": {remote: {"_eq": value}}, "limit": 1})
        found = info.context.run(sql, params)
        return _row(table, found[0]) if found else None

    return related


def resolvers() -> Resolvers:
    """The resolvers the schema is built with; each expects a :class:`QueryBudget` as
    the execution context."""
    return Resolvers(
        rows=_rows,
        aggregate=_aggregate,
        nodes=_nodes,
        by_pk=_by_pk,
        related=_related,
        count=_count,
        fold=_fold,
    )
