"""Queries of every shape the indexer's schema allows (hypothesis-graphql draws them from
the schema's own SDL, arguments and all): each is answered with data or with a GraphQL
error the indexer meant to give, never with a failure of its own."""

from __future__ import annotations

from collections.abc import Iterator

import graphql
import hypothesis_graphql
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledgerkit.localnet import LocalNode
from ledgerkit.localnet.indexer import IndexerDb, build_schema_sdl, run_query

#: Literals of the custom scalars: whole numbers past 64 bits and below zero, timestamps
#: with and without fraction and zone, and some that are not timestamps at all.
SCALARS = {
    "bigint": st.integers(-(2**70), 2**70).map(lambda i: graphql.IntValueNode(value=str(i))),
    "numeric": st.integers(-(2**130), 2**130).map(lambda i: graphql.IntValueNode(value=str(i))),
    "timestamp": st.sampled_from(
        ["2025-01-01T00:00:00", "2025-06-01T03:25:40.319478Z", "1970-01-01", "soon", ""]
    ).map(lambda text: graphql.StringValueNode(value=text)),
    "jsonb": st.just(graphql.StringValueNode(value="{}")),
}


@pytest.fixture(scope="module")
def db(node: LocalNode) -> Iterator[IndexerDb]:
    made = IndexerDb(":memory:")
    made.catch_up(node.ledger)
    yield made
    made.close()


def test_every_query_of_the_schema_is_answered_or_refused_on_purpose(db: IndexerDb) -> None:
    @settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
    @given(hypothesis_graphql.queries(build_schema_sdl(), custom_scalars=SCALARS))
    def answered(query: str) -> None:
        answer = run_query(db, {"query": query})
        assert set(answer) in ({"data"}, {"errors"}), answer
        for error in answer.get("errors", []):
            assert error["extensions"]["code"] == "validation-failed", (query, error)

    answered()
