"""The indexer's GraphQL schema, made from the table definitions (``_tables``) the way
Hasura makes one over Postgres tables: per table ``<table>`` (rows, with ``where``,
``order_by``, ``limit``, ``offset``, ``distinct_on``), ``<table>_aggregate``
(``aggregate { count sum max min avg }`` and ``nodes``) and ``<table>_by_pk``; input
types ``<table>_bool_exp`` (``_and``/``_or``/``_not``, a ``<scalar>_comparison_exp`` per
column, a relationship's own ``_bool_exp``), ``<table>_order_by`` (the ``order_by``
enum) and ``<table>_select_column``.

Scalars come back as Hasura sends them by default: ``bigint`` and ``numeric`` as JSON
numbers, ``timestamp`` as ISO text without a zone, ``jsonb`` as JSON. Variables and
literals of ``bigint``/``numeric`` are taken as numbers or as decimal text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import Any, Final

from graphql import (
    GraphQLArgument,
    GraphQLBoolean,
    GraphQLEnumType,
    GraphQLEnumValue,
    GraphQLField,
    GraphQLFloat,
    GraphQLInputField,
    GraphQLInputObjectType,
    GraphQLInt,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLScalarType,
    GraphQLSchema,
    GraphQLString,
    ValueNode,
    value_from_ast_untyped,
)
from graphql.language import FloatValueNode, IntValueNode, StringValueNode

from ledgerkit.localnet.indexer._tables import TABLES, Column, Table

__all__ = ["MAX_NUMERIC_DIGITS", "ORDER_BY", "Resolvers", "build_schema"]

_INTEGER: Final = re.compile(r"-?[0-9]{1,80}")
#: Integer digits a ``numeric`` value may have: a u256 has 78.
MAX_NUMERIC_DIGITS: Final = 80
_NUMERIC_BOUND: Final = 10**MAX_NUMERIC_DIGITS
#: Hasura's ``order_by`` enum: direction and where nulls go (``asc``: last, ``desc``: first).
ORDER_BY: Final = {
    "asc": "ASC NULLS LAST",
    "asc_nulls_first": "ASC NULLS FIRST",
    "asc_nulls_last": "ASC NULLS LAST",
    "desc": "DESC NULLS FIRST",
    "desc_nulls_first": "DESC NULLS FIRST",
    "desc_nulls_last": "DESC NULLS LAST",
}
_NUMERIC_KINDS: Final = ("bigint", "numeric", "Int")
_ORDERED_KINDS: Final = (*_NUMERIC_KINDS, "String", "timestamp")


def _integer(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError("a bigint is a whole number or its decimal text")
    if isinstance(value, int):
        return value
    if isinstance(value, str) and _INTEGER.fullmatch(value):
        return int(value)
    raise ValueError("a bigint is a whole number or its decimal text")


def _number(value: Any) -> int | float:
    if isinstance(value, bool):
        raise ValueError("a numeric is a number or its decimal text")
    if isinstance(value, int):
        if abs(value) >= _NUMERIC_BOUND:
            raise ValueError(f"a numeric has at most {MAX_NUMERIC_DIGITS} integer digits")
        return value
    if isinstance(value, float):
        return value
    if isinstance(value, str) and len(value) <= 100:
        try:
            parsed = Decimal(value)
        except InvalidOperation:
            pass
        else:
            # Checked before any conversion: int(Decimal("1e1000000")) runs for minutes.
            if parsed.is_finite() and parsed.adjusted() >= MAX_NUMERIC_DIGITS:
                raise ValueError(f"a numeric has at most {MAX_NUMERIC_DIGITS} integer digits")
            if parsed.is_finite():
                return int(parsed) if parsed == parsed.to_integral_value() else float(parsed)
    raise ValueError("a numeric is a number or its decimal text")


def _timestamp(value: Any) -> str:
    """ISO text as stored (six fraction digits, UTC, no zone)."""
    if not isinstance(value, str) or len(value) > 40:
        raise ValueError("a timestamp is ISO 8601 text")
    moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")


def _literal(parse: Callable[[Any], Any]) -> Callable[..., Any]:
    def parse_literal(node: ValueNode, _variables: Any = None) -> Any:
        if isinstance(node, IntValueNode):
            return parse(int(node.value))
        if isinstance(node, FloatValueNode):
            return parse(node.value)
        if isinstance(node, StringValueNode):
            return parse(node.value)
        raise ValueError("not a value of this scalar")

    return parse_literal


def _jsonb_literal(node: ValueNode, variables: Any = None) -> Any:
    return value_from_ast_untyped(node, variables)


def _scalars() -> dict[str, Any]:
    return {
        "bigint": GraphQLScalarType(
            "bigint", parse_value=_integer, parse_literal=_literal(_integer)
        ),
        "numeric": GraphQLScalarType(
            "numeric", parse_value=_number, parse_literal=_literal(_number)
        ),
        "timestamp": GraphQLScalarType(
            "timestamp", parse_value=_timestamp, parse_literal=_literal(_timestamp)
        ),
        "jsonb": GraphQLScalarType(
            "jsonb",
            parse_value=lambda value: value,
            parse_literal=_jsonb_literal,
        ),
        "String": GraphQLString,
        "Boolean": GraphQLBoolean,
        "Int": GraphQLInt,
    }


class Resolvers:
    """What the schema's fields call (``_graphql_sql`` provides them)."""

    def __init__(
        self,
        rows: Callable[..., Any],
        aggregate: Callable[..., Any],
        nodes: Callable[..., Any],
        by_pk: Callable[..., Any],
        related: Callable[[str, str, str], Callable[..., Any]],
        count: Callable[..., Any],
        fold: Callable[[str], Callable[..., Any]],
    ) -> None:
        self.rows = rows
        self.aggregate = aggregate
        self.nodes = nodes
        self.by_pk = by_pk
        self.related = related
        self.count = count
        self.fold = fold


def build_schema(resolvers: Resolvers) -> GraphQLSchema:
    """The schema over every table of ``_tables``."""
    scalars = _scalars()
    order_by = GraphQLEnumType("order_by", {name: GraphQLEnumValue(name) for name in ORDER_BY})
    comparisons = {kind: _comparison(kind, scalar) for kind, scalar in scalars.items()}
    objects: dict[str, GraphQLObjectType] = {}
    bool_exps: dict[str, GraphQLInputObjectType] = {}

    def bool_exp(table: Table) -> GraphQLInputObjectType:
        def fields() -> dict[str, GraphQLInputField]:
            made = {
                "_and": GraphQLInputField(GraphQLList(GraphQLNonNull(bool_exps[table.name]))),
                "_not": GraphQLInputField(bool_exps[table.name]),
                "_or": GraphQLInputField(GraphQLList(GraphQLNonNull(bool_exps[table.name]))),
            }
            for column in table.columns:
                made[column.name] = GraphQLInputField(comparisons[column.scalar])
            for relation in table.relationships:
                made[relation.name] = GraphQLInputField(bool_exps[relation.table])
            return made

        return GraphQLInputObjectType(f"{table.name}_bool_exp", fields)

    for table in TABLES.values():
        bool_exps[table.name] = bool_exp(table)

    def object_type(table: Table) -> GraphQLObjectType:
        def fields() -> dict[str, GraphQLField]:
            made = {c.name: GraphQLField(_output(scalars, c)) for c in table.columns}
            for relation in table.relationships:
                made[relation.name] = GraphQLField(
                    objects[relation.table],
                    resolve=resolvers.related(relation.table, relation.local, relation.remote),
                )
            return made

        return GraphQLObjectType(table.name, fields)

    for table in TABLES.values():
        objects[table.name] = object_type(table)

    query: dict[str, GraphQLField] = {}
    for table in TABLES.values():
        select_column = GraphQLEnumType(
            f"{table.name}_select_column", {c.name: GraphQLEnumValue(c.name) for c in table.columns}
        )
        order_type = GraphQLInputObjectType(
            f"{table.name}_order_by",
            {c.name: GraphQLInputField(order_by) for c in table.columns},
        )
        args = {
            "distinct_on": GraphQLArgument(GraphQLList(GraphQLNonNull(select_column))),
            "limit": GraphQLArgument(GraphQLInt),
            "offset": GraphQLArgument(GraphQLInt),
            "order_by": GraphQLArgument(GraphQLList(GraphQLNonNull(order_type))),
            "where": GraphQLArgument(bool_exps[table.name]),
        }
        rows_type = GraphQLNonNull(GraphQLList(GraphQLNonNull(objects[table.name])))
        query[table.name] = GraphQLField(rows_type, args=args, resolve=resolvers.rows)
        query[f"{table.name}_aggregate"] = GraphQLField(
            GraphQLNonNull(_aggregate_type(table, scalars, select_column, rows_type, resolvers)),
            args=args,
            resolve=resolvers.aggregate,
        )
        keys = {
            name: GraphQLArgument(GraphQLNonNull(_input(scalars, table.column(name))))
            for name in table.primary_key
        }
        query[f"{table.name}_by_pk"] = GraphQLField(
            objects[table.name], args=keys, resolve=resolvers.by_pk
        )
    return GraphQLSchema(GraphQLObjectType("query_root", query))


def _input(scalars: dict[str, Any], column: Column | None) -> Any:
    assert column is not None
    return scalars[column.scalar]


def _output(scalars: dict[str, Any], column: Column) -> Any:
    scalar = scalars[column.scalar]
    return scalar if column.nullable else GraphQLNonNull(scalar)


def _comparison(kind: str, scalar: Any) -> GraphQLInputObjectType:
    listed = GraphQLList(GraphQLNonNull(scalar))
    fields = {
        "_eq": GraphQLInputField(scalar),
        "_gt": GraphQLInputField(scalar),
        "_gte": GraphQLInputField(scalar),
        "_in": GraphQLInputField(listed),
        "_is_null": GraphQLInputField(GraphQLBoolean),
        "_lt": GraphQLInputField(scalar),
        "_lte": GraphQLInputField(scalar),
        "_neq": GraphQLInputField(scalar),
        "_nin": GraphQLInputField(listed),
    }
    if kind == "String":
        for name in ("_like", "_ilike", "_nlike", "_nilike"):
            fields[name] = GraphQLInputField(scalar)
    return GraphQLInputObjectType(f"{kind}_comparison_exp", fields)


def _aggregate_type(
    table: Table,
    scalars: dict[str, Any],
    select_column: GraphQLEnumType,
    rows_type: Any,
    resolvers: Resolvers,
) -> GraphQLObjectType:
    fields: dict[str, GraphQLField] = {
        "count": GraphQLField(
            GraphQLNonNull(GraphQLInt),
            args={
                "columns": GraphQLArgument(GraphQLList(GraphQLNonNull(select_column))),
                "distinct": GraphQLArgument(GraphQLBoolean),
            },
            resolve=resolvers.count,
        )
    }
    numeric = [c for c in table.columns if c.scalar in _NUMERIC_KINDS]
    ordered = [c for c in table.columns if c.scalar in _ORDERED_KINDS]
    folds = {"sum": numeric, "avg": numeric, "max": ordered, "min": ordered}
    for fold, columns in folds.items():
        if not columns:
            continue
        of = {c.name: GraphQLField(_fold_type(scalars, c, fold)) for c in columns}
        fields[fold] = GraphQLField(
            GraphQLObjectType(f"{table.name}_{fold}_fields", of), resolve=resolvers.fold(fold)
        )
    aggregate_fields = GraphQLObjectType(f"{table.name}_aggregate_fields", fields)
    return GraphQLObjectType(
        f"{table.name}_aggregate",
        {
            "aggregate": GraphQLField(aggregate_fields, resolve=_same),
            "nodes": GraphQLField(rows_type, resolve=resolvers.nodes),
        },
    )


def _same(parent: Any, _info: Any) -> Any:
    return parent


def _fold_type(scalars: dict[str, Any], column: Column, fold: str) -> Any:
    """Hasura's type of an aggregate of ``column``: ``Float`` for ``avg``, else its own."""
    return GraphQLFloat if fold == "avg" else scalars[column.scalar]
