"""The client's indexer: ``indexer_url=``, ``graphql``, and the tokens ``account_assets``
lists from it, against a scripted indexer behind ``httpx.MockTransport``: where the
query goes and with which headers, GraphQL ``errors`` as ``IndexerError``, pages of 100
rows, token v1 rows, and the indexer URLs ``connect()`` fills for public networks.

The rows are shaped as the Aptos indexer's Hasura API writes them
(``current_token_ownerships_v2`` with ``current_token_data`` and its
``current_collection`` joined in; ``amount`` and ``property_version_v1`` numeric).
"""

from __future__ import annotations

import asyncio
import json
import pickle
from typing import Any

import httpx
import pytest
from client_fakes import META, answer, error

import ledgerkit
from ledgerkit import AsyncClient, Client, IndexerError, InputError
from ledgerkit.client import Holding, known_indexer_url

NODE = "https://api.testnet.aptoslabs.com/v1"
INDEXER = "https://api.testnet.aptoslabs.com/v1/graphql"
ELSEWHERE = "https://indexer.example.org/v1/graphql"
OWNER = "0x" + "ab" * 32
TOKEN = "0x" + "0c" * 32
COLLECTION = "0x" + "c0" * 32
#: A token v1 data id, as the indexer writes it (a hash, not an address).
V1_ID = "0x" + "9f" * 32
#: A fungible asset issued by a published module: its metadata object.
ISSUED = "0x" + "1d" * 32


def _row(token: str, n: int = 0, **over: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "token_data_id": token,
        "property_version_v1": 0,
        "amount": 1,
        "token_standard": "v2",
        "is_fungible_v2": False,
        "current_token_data": {
            "token_name": f"Shell #{n}",
            "token_uri": f"https://ex.org/{n}",
            "token_properties": {"size": "3"},
            "collection_id": COLLECTION,
            "current_collection": {"collection_name": "Shells"},
        },
    }
    row.update(over)
    return row


class Indexer:
    """A node with no coins for OWNER, and an indexer answering from ``pages``."""

    def __init__(self, pages: list[Any], assets: Any = ()) -> None:
        self.pages = pages
        self.asked: list[httpx.Request] = []
        #: The fungible-asset rows it lists for OWNER (``current_fungible_asset_balances``).
        self.assets = assets if isinstance(assets, httpx.Response) else list(assets)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        url = str(request.url)
        if url.endswith("/graphql") and b"current_fungible_asset_balances" in request.content:
            if isinstance(self.assets, httpx.Response):
                return self.assets
            return httpx.Response(
                200, json={"data": {"current_fungible_asset_balances": self.assets}}
            )
        if url.endswith("/graphql"):
            self.asked.append(request)
            page = self.pages[min(len(self.asked), len(self.pages)) - 1]
            if isinstance(page, httpx.Response):
                return page
            body = {"data": {"current_token_ownerships_v2": page}}
            return httpx.Response(200, json=body)
        path = request.url.path.removeprefix("/v1")
        if path == "/":
            return answer({"chain_id": 2, "ledger_version": str(META.ledger_version)})
        if path == f"/accounts/{OWNER}/resources":
            return answer([])
        if path == f"/accounts/{OWNER}/balance/{ISSUED}":
            return answer("1250000")
        if path.startswith(f"/accounts/{OWNER}/balance/"):
            return answer("0")
        if path == f"/accounts/{ISSUED}/resource/0x1::fungible_asset::Metadata":
            data = {"name": "Ledger USD", "symbol": "LUSD", "decimals": 6}
            return answer({"type": "0x1::fungible_asset::Metadata", "data": data})
        if path.startswith("/accounts/"):
            return error(404, "account_not_found")
        if path.startswith("/view"):
            return answer([{"vec": []}])
        return error(404, "transaction_not_found")


def _client(handler: Indexer, **options: Any) -> Client:
    options.setdefault("indexer_url", INDEXER)
    return Client(NODE, transport=httpx.MockTransport(handler), cache=False, **options)


def _query(request: httpx.Request) -> str:
    query: str = json.loads(request.content)["query"]
    return query


def _variables(request: httpx.Request) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(request.content)
    variables: dict[str, Any] = body["variables"]
    return variables


def test_tokens_the_indexer_lists_are_holdings_of_kind_token() -> None:
    indexer = Indexer([[_row(TOKEN, 1)]])
    with _client(indexer) as client:
        held = client.account_assets(OWNER)
    assert held == [
        Holding(
            TOKEN,
            "token",
            1,
            0,
            None,
            "Shell #1",
            collection="Shells",
            collection_id=COLLECTION,
            token_standard="v2",
            uri="https://ex.org/1",
            property_version=None,
        )
    ]
    assert held[0].properties == {"size": "3"}
    (request,) = indexer.asked
    assert request.method == "POST"
    assert str(request.url) == INDEXER
    assert _variables(request) == {"owner": OWNER, "limit": 100, "offset": 0}


def test_pages_of_100_rows_are_followed_until_a_short_one() -> None:
    first = [_row("0x" + f"{i:064x}", i) for i in range(1, 101)]
    indexer = Indexer([first, [_row(TOKEN, 101)]])
    with _client(indexer) as client:
        held = client.account_assets(OWNER)
    assert len(held) == 101
    assert [_variables(r)["offset"] for r in indexer.asked] == [0, 100]


def test_the_list_stops_at_2000_tokens_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    full = [_row("0x" + f"{i:064x}", i) for i in range(1, 101)]
    indexer = Indexer([full])  # every page full
    with _client(indexer) as client, caplog.at_level("WARNING", logger="ledgerkit"):
        held = client.account_assets(OWNER)
    assert len(indexer.asked) == 20
    assert len(held) == 2000
    assert "more than 2000 tokens" in caplog.text


def test_token_v1_rows_keep_their_property_version_and_fungible_tokens_are_left_out() -> None:
    v1 = _row(V1_ID, 7, token_standard="v1", property_version_v1=2, amount=5)
    v1["current_token_data"]["collection_id"] = "0x" + "77" * 32
    fungible = _row(TOKEN, 8, is_fungible_v2=True, amount=250)
    indexer = Indexer([[v1, fungible]])
    with _client(indexer) as client:
        held = client.account_assets(OWNER)
    assert [
        (h.asset, h.kind, h.balance, h.token_standard, h.property_version, h.collection_id)
        for h in held
    ] == [(V1_ID, "token", 5, "v1", 2, "0x" + "77" * 32)]


def test_a_token_v1_past_version_0_has_its_own_properties() -> None:
    # A hosted indexer's rows: version 0 carries no map of its own (the token data's
    # default properties are the token's), version 3 the map changed for it alone.
    first = _row(V1_ID, 7, token_standard="v1", token_properties_mutated_v1={})
    later = _row(
        V1_ID,
        7,
        token_standard="v1",
        property_version_v1=3,
        token_properties_mutated_v1={"size": "9", "kind": "rare"},
    )
    indexer = Indexer([[first, later]])
    with _client(indexer) as client:
        held = client.account_assets(OWNER)
    assert [(h.property_version, h.properties) for h in held] == [
        (0, {"size": "3"}),
        (3, {"size": "9", "kind": "rare"}),
    ]
    assert "token_properties_mutated_v1" in _query(indexer.asked[0])


def test_graphql_errors_are_an_indexer_error_with_their_messages() -> None:
    refused = httpx.Response(
        200,
        json={
            "errors": [
                {"message": "field 'nope' not found in type: 'query_root'"},
                {"message": "second"},
            ]
        },
    )
    indexer = Indexer([refused])
    with _client(indexer) as client, pytest.raises(IndexerError) as raised:
        client.account_assets(OWNER)
    assert raised.value.errors == ("field 'nope' not found in type: 'query_root'", "second")
    assert "(and 1 more)" in str(raised.value)
    again = pickle.loads(pickle.dumps(raised.value))
    assert (type(again), again.errors) == (IndexerError, raised.value.errors)


@pytest.mark.parametrize(
    "body",
    [b"<html>busy</html>", b"[1, 2]", b'{"data": null}'],
    ids=["not-json", "not-an-object", "no-data"],
)
def test_an_answer_that_is_not_graphql_is_an_indexer_error(body: bytes) -> None:
    indexer = Indexer([httpx.Response(200, content=body)])
    with _client(indexer) as client, pytest.raises(IndexerError):
        client.graphql("query { processor_status { processor } }")


def test_graphql_gives_the_data() -> None:
    indexer = Indexer([[_row(TOKEN)]])
    with _client(indexer) as client:
        data = client.graphql("query q($a: Int) { x }", {"a": 1})
    assert data == {"current_token_ownerships_v2": [_row(TOKEN)]}
    assert json.loads(indexer.asked[0].content) == {
        "query": "query q($a: Int) { x }",
        "variables": {"a": 1},
    }


def test_without_an_indexer_graphql_is_refused_and_assets_skip_the_tokens() -> None:
    indexer = Indexer([[_row(TOKEN)]])
    with _client(indexer, indexer_url=None) as client:
        assert client.indexer_url is None
        with pytest.raises(InputError, match="indexer_url="):
            client.graphql("query { x }")
        assert client.account_assets(OWNER) == []
    assert indexer.asked == []


@pytest.mark.parametrize(
    "query", ["", "   ", "q" * (32 * 1024 + 1)], ids=["empty", "blank", "too-long"]
)
def test_a_query_is_bounded_text(query: str) -> None:
    indexer = Indexer([[]])
    with _client(indexer) as client, pytest.raises(InputError):
        client.graphql(query)
    assert indexer.asked == []


@pytest.mark.parametrize(
    "url", ["ftp://x.org/graphql", "https://user:pw@x.org/graphql", "https://x.org/g?a=1", ""]
)
def test_a_bad_indexer_url_is_refused(url: str) -> None:
    with pytest.raises(InputError):
        Client(NODE, indexer_url=url, cache=False)


def test_the_api_key_goes_to_an_indexer_on_the_nodes_origin_only() -> None:
    for where, keyed in ((INDEXER, True), (ELSEWHERE, False)):
        indexer = Indexer([[]])
        options = {"indexer_url": where, "api_key": "k-123", "headers": {"X-Team": "t"}}
        with _client(indexer, **options) as client:
            client.graphql("query { x }")
        sent = indexer.asked[0].headers
        assert ("authorization" in sent, "x-team" in sent) == (keyed, keyed)
        if keyed:
            assert sent["authorization"] == "Bearer k-123"


def test_the_async_client_lists_the_same_tokens() -> None:
    async def main() -> list[Holding]:
        transport = httpx.MockTransport(Indexer([[_row(TOKEN, 1)]]))
        async with AsyncClient(
            NODE, transport=transport, cache=False, indexer_url=INDEXER
        ) as client:
            return await client.account_assets(OWNER)

    held = asyncio.run(main())
    assert [(h.asset, h.kind, h.name, h.collection) for h in held] == [
        (TOKEN, "token", "Shell #1", "Shells")
    ]


def test_known_public_networks_have_their_indexer() -> None:
    # The indexer URLs the official SDKs name for these networks.
    assert known_indexer_url("https://api.mainnet.aptoslabs.com/v1") == (
        "https://api.mainnet.aptoslabs.com/v1/graphql"
    )
    assert known_indexer_url("https://fullnode.devnet.aptoslabs.com/v1") == (
        "https://api.devnet.aptoslabs.com/v1/graphql"
    )
    assert known_indexer_url("https://fullnode.example.org/v1") is None
    assert known_indexer_url("http://api.mainnet.aptoslabs.com/v1") is None


def test_a_local_network_s_indexer_is_on_port_8090() -> None:
    # The TypeScript SDK's LOCAL network: node http://127.0.0.1:8080/v1, indexer
    # http://127.0.0.1:8090/v1/graphql.
    assert known_indexer_url("http://127.0.0.1:8080/v1") == "http://127.0.0.1:8090/v1/graphql"
    assert known_indexer_url("http://localhost:8080/v1") == "http://localhost:8090/v1/graphql"
    assert known_indexer_url("http://[::1]:8080/v1") == "http://[::1]:8090/v1/graphql"
    assert known_indexer_url("http://127.0.0.1:8081/v1") is None  # another port
    assert known_indexer_url("http://10.0.0.5:8080/v1") is None  # another machine
    assert known_indexer_url("https://127.0.0.1:8080/v1") is None
    assert known_indexer_url("http://127.0.0.1:99999/v1") is None  # no port at all


def test_connect_fills_the_indexer_of_a_public_network_unless_told() -> None:
    with ledgerkit.connect("https://fullnode.testnet.aptoslabs.com/v1", cache=False) as client:
        assert client.indexer_url == INDEXER
        twin = client.async_client()
        try:
            assert twin.indexer_url == INDEXER
        finally:
            asyncio.run(twin.aclose())
    with ledgerkit.connect(NODE, cache=False, indexer_url=None) as client:
        assert client.indexer_url is None
    with ledgerkit.connect("https://node.example.org/v1", cache=False) as client:
        assert client.indexer_url is None


def test_a_token_in_the_indexers_path_is_never_shown() -> None:
    secret = "tok-9f8e7d6c5b4a"
    url = f"https://indexer.example.org/{secret}/v1/graphql"
    refused = httpx.Response(200, json={"errors": [{"message": "no"}]})
    with _client(Indexer([refused]), indexer_url=url) as client:
        assert secret not in repr(client)
        with pytest.raises(IndexerError) as raised:
            client.graphql("query { x }")
    assert secret not in str(raised.value)
    assert raised.value.url == "https://indexer.example.org/***/graphql"


# -- fungible assets the indexer lists ----------------------------------------------------


def test_a_fungible_asset_the_indexer_lists_is_read_from_the_node() -> None:
    rows = [
        {"asset_type": "0x1::aptos_coin::AptosCoin"},  # a coin's row: found by its CoinStore
        {"asset_type": ISSUED},
        {"asset_type": 7},  # malformed: left out
        {"asset_type": "0x" + "ee" * 32},  # a zero balance on the node: not held
    ]
    indexer = Indexer([[]], assets=rows)
    with _client(indexer) as client:
        held = client.account_assets(OWNER)
    assert held == [
        Holding(ISSUED, "fungible_asset", 1_250_000, 6, "LUSD", "Ledger USD", ISSUED, None)
    ]


def test_without_an_indexer_a_fungible_asset_is_found_when_named() -> None:
    indexer = Indexer([[]], assets=[{"asset_type": ISSUED}])
    with _client(indexer, indexer_url=None) as client:
        assert client.account_assets(OWNER) == []
        named = client.account_assets(OWNER, assets=[ISSUED])
    assert [(h.asset, h.symbol, h.balance) for h in named] == [(ISSUED, "LUSD", 1_250_000)]


def test_an_indexer_without_fungible_asset_rows_is_an_input_error() -> None:
    broken = httpx.Response(200, json={"data": {"current_fungible_asset_balances": None}})
    indexer = Indexer([[]], assets=broken)
    with _client(indexer) as client, pytest.raises(InputError, match="no current_fungible"):
        client.account_assets(OWNER)
