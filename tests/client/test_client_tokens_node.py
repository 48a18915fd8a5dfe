"""The digital assets of an account on the embedded node: ``account_assets`` lists the
tokens its indexer finds and those named by address (read from the node alone), and
``account_balances`` shows them as frame rows.

The tokens are made here: a collection "Shells" by a dev account, "Conch" minted with a
property map (``size`` a u64 3, ``name`` a string "conch") and sent to a new account,
"Cowrie" kept. Addresses are derived by hand from the framework's rules: a collection
at ``SHA3-256(creator ‖ name ‖ 0xFE)``, the token a mint creates at
``SHA3-256(txn hash ‖ u64 1 ‖ 0xFB)`` (the transaction's first unique address).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from digital_assets import collection_address, run, token_address, wait_for_token_indexer

import ledgerkit
from ledgerkit import Client, Ed25519PrivateKey, IndexerError
from ledgerkit.client import Holding
from ledgerkit.frames import HOLDING_COLUMNS, holdings_to_frame
from ledgerkit.localnet import LocalNode

S = "0x1::string::String"


@dataclass
class Shells:
    node: LocalNode
    holder: str
    creator: str
    collection: str
    conch: str
    cowrie: str
    before_transfer: int


@pytest.fixture(scope="module")
def shells(make_node: Callable[..., LocalNode]) -> Shells:
    node = make_node(seed=43, blocks=3)
    assert node.indexer_url is not None
    creator = node.dev_accounts[6]
    holder = Ed25519PrivateKey.generate()
    with Client(node.url, indexer_url=node.indexer_url, cache=False) as client:
        flags = [True, True, False, True, True, True, False, True, True]
        run(
            client,
            creator,
            "0x4::aptos_token::create_collection",
            ["About Shells", 10, "Shells", "https://ex.org/c", *flags, 5, 100],
        )
        props = [["size", "name"], ["u64", S], [(3).to_bytes(8, "little"), b"\x05conch"]]
        minted = run(
            client,
            creator,
            "0x4::aptos_token::mint",
            ["Shells", "A Conch", "Conch", "https://ex.org/Conch", *props],
        )
        second = run(
            client,
            creator,
            "0x4::aptos_token::mint",
            ["Shells", "A Cowrie", "Cowrie", "https://ex.org/Cowrie", [], [], []],
        )
        conch = token_address(str(minted.hash))
        before = int(second.version)
        moved = run(client, creator, "0x1::object::transfer_call", [conch, holder.address()])
        wait_for_token_indexer(client, int(moved.version))
    return Shells(
        node,
        holder.address().long,
        creator.address.long,
        collection_address(creator.address, "Shells"),
        conch,
        token_address(str(second.hash)),
        before,
    )


def _conch(shells: Shells) -> Holding:
    return Holding(
        shells.conch,
        "token",
        1,
        0,
        None,
        "Conch",
        collection="Shells",
        collection_id=shells.collection,
        token_standard="v2",
        uri="https://ex.org/Conch",
    )


def test_the_indexer_lists_the_tokens_each_account_owns(shells: Shells) -> None:
    node = shells.node
    with Client(node.url, indexer_url=node.indexer_url, cache=False) as client:
        held = client.account_assets(shells.holder)
        kept = client.account_assets(shells.creator)
    tokens = [h for h in held if h.kind == "token"]
    assert tokens == [_conch(shells)]
    assert tokens[0].properties == {"size": "3", "name": "conch"}
    # The creator still holds APT (a coin) and the token it did not send.
    assert [(h.asset, h.name, h.collection) for h in kept if h.kind == "token"] == [
        (shells.cowrie, "Cowrie", "Shells")
    ]


def test_named_tokens_are_read_from_the_node_without_an_indexer(shells: Shells) -> None:
    with Client(shells.node.url, cache=False) as client:
        assert client.indexer_url is None
        held = client.account_assets(shells.holder, tokens=[shells.conch, shells.cowrie])
        earlier = client.account_assets(
            shells.creator, tokens=[shells.conch], ledger_version=shells.before_transfer
        )
    tokens = [h for h in held if h.kind == "token"]
    assert tokens == [_conch(shells)]  # the Cowrie is not the holder's
    assert tokens[0].properties == {"size": "3", "name": "conch"}
    # Before the transfer the Conch was the creator's.
    assert [(h.asset, h.name) for h in earlier if h.kind == "token"] == [(shells.conch, "Conch")]


def test_connect_knows_the_embedded_nodes_indexer(shells: Shells) -> None:
    # A client of connect() for the node's URL knows no indexer; the embedded node's does.
    with ledgerkit.connect(shells.node.url, cache=False) as client:
        assert client.indexer_url is None
    with ledgerkit.connect(
        shells.node.url, cache=False, indexer_url=shells.node.indexer_url
    ) as client:
        frame = ledgerkit.account_balances(client, shells.holder)
    assert list(frame.columns) == list(HOLDING_COLUMNS)
    assert {c: str(t) for c, t in frame.dtypes.items()} == {
        c: str(t) for c, t in HOLDING_COLUMNS.items()
    }
    row = frame[frame["kind"] == "token"].iloc[0]
    assert (row["asset"], row["name"], row["collection"], row["token_standard"]) == (
        shells.conch,
        "Conch",
        "Shells",
        "v2",
    )
    assert (row["balance"], row["amount"], row["uri"]) == (1, "1", "https://ex.org/Conch")
    assert json.loads(row["properties"]) == {"size": "3", "name": "conch"}
    assert frame[frame["kind"] == "coin"]["collection"].isna().all()


def test_an_empty_list_has_the_token_columns() -> None:
    frame = holdings_to_frame([])
    assert {c: str(t) for c, t in frame.dtypes.items()} == {
        c: str(t) for c, t in HOLDING_COLUMNS.items()
    }


def test_a_query_the_indexer_refuses_is_an_indexer_error(shells: Shells) -> None:
    node = shells.node
    client = Client(node.url, indexer_url=node.indexer_url, cache=False)
    with client, pytest.raises(IndexerError) as raised:
        client.graphql("{ no_such_table { id } }")
    assert raised.value.errors == ("Cannot query field 'no_such_table' on type 'query_root'.",)
