"""``Client.load_abis`` and ``AsyncClient.load_abis``: the module ABIs a set of types needs,
read into one cache a nesting level at a time, each module once, against a scripted node;
and the client's own cache, which its explanations read too."""

from __future__ import annotations

import asyncio
from typing import Any, Final

import pytest
from client_fakes import FakeNode, answer, error

from ledgerkit import AbiCache, InputError, UnknownStructError
from ledgerkit.bcs import EntryFunction, MoveValueCodec, RawTransaction
from ledgerkit.types import Address, PrimitiveType

SOLD: Final = "0x42::shop::Sold"
LOST: Final = "0x42::shop::Lost"
U64: Final = PrimitiveType("u64")


def _long(short: str) -> str:
    return "0x" + short.removeprefix("0x").rjust(64, "0")


def _path(address: str, name: str) -> str:
    return f"/accounts/{_long(address)}/module/{name}"


def _struct(name: str, fields: list[tuple[str, str]], generics: int = 0) -> dict[str, Any]:
    return {
        "name": name,
        "is_native": False,
        "abilities": ["drop", "store"],
        "generic_type_params": [{"constraints": []}] * generics,
        "fields": [{"name": n, "type": t} for n, t in fields],
    }


def _module(address: str, name: str, *structs: dict[str, Any], functions: Any = ()) -> Any:
    abi = {
        "address": address,
        "name": name,
        "friends": [],
        "exposed_functions": list(functions),
        "structs": list(structs),
    }
    return {"bytecode": "0x00", "abi": abi}


BUY: Final = {
    "name": "buy",
    "visibility": "public",
    "is_entry": True,
    "is_view": False,
    "generic_type_params": [],
    "params": ["&signer", "u64"],
    "return": [],
}

MODULES: Final = {
    _path("0x42", "shop"): _module(
        "0x42",
        "shop",
        _struct(
            "Sold",
            [
                ("item", "0x43::goods::Item"),
                ("price", "0x44::money::Coin<u64>"),
                ("buyer", "address"),
            ],
        ),
        _struct("Lost", [("what", "0x46::gone::Thing")]),
        functions=[BUY],
    ),
    # A vector of structs is one JSON column: 0x47::tag is never needed.
    _path("0x43", "goods"): _module(
        "0x43", "goods", _struct("Item", [("id", "u64"), ("tags", "vector<0x47::tag::Tag>")])
    ),
    _path("0x44", "money"): _module("0x44", "money", _struct("Coin", [("value", "T0")], 1)),
}

SOLD_LAYOUT: Final = {
    "item.id": U64,
    "item.tags": None,
    "price.value": U64,
    "buyer": PrimitiveType("address"),
}


def _node() -> FakeNode:
    node = FakeNode()
    for path, body in MODULES.items():
        node.on("GET", path, answer(body))
    node.on("GET", _path("0x46", "gone"), error(404, "module_not_found", "Module not found"))
    return node


def _reads(node: FakeNode) -> list[str]:
    return [r.url.path.removeprefix("/v1") for r in node.sent()]


def test_the_modules_a_type_needs_are_read_once_a_level_at_a_time() -> None:
    node = _node()
    with node.client() as client:
        cache = client.load_abis(SOLD)
        assert cache.layout(SOLD) == SOLD_LAYOUT
        reads = _reads(node)
        assert reads[0] == _path("0x42", "shop")
        assert sorted(reads[1:]) == [_path("0x43", "goods"), _path("0x44", "money")]
        # The client's own cache: asked again, it holds them all and reads nothing.
        assert client.load_abis([SOLD, "0x43::goods::Item"]) is cache
    assert len(node.sent()) == 3


def test_a_module_the_node_does_not_publish_is_remembered() -> None:
    node = _node()
    with node.client() as client:
        cache = client.load_abis([LOST])
        with pytest.raises(UnknownStructError, match="module 0x46::gone is not published"):
            cache.layout(LOST)
        client.load_abis([LOST])
    assert _reads(node) == [_path("0x42", "shop"), _path("0x46", "gone")]


def test_both_clients_read_the_same_into_a_cache_of_ones_own() -> None:
    node = _node()
    mine = AbiCache()

    async def read() -> AbiCache:
        async with node.async_client() as client:
            return await client.load_abis([SOLD], cache=mine)

    assert asyncio.run(read()) is mine
    assert mine.layout(SOLD) == SOLD_LAYOUT
    concurrent = sorted(_reads(node))
    node.requests.clear()
    with node.client() as client:
        theirs = AbiCache()
        assert client.load_abis([SOLD], cache=theirs).layout(SOLD) == SOLD_LAYOUT
        assert sorted(_reads(node)) == concurrent
        # A cache given is filled, not the client's own.
        assert len(client.load_abis([])) == 0
    assert len(mine) == len(theirs) == 3


def test_the_clients_own_cache_serves_its_explanations() -> None:
    node = _node()
    buy = EntryFunction.build("0x42::shop::buy", [], [("u64", 2**64 - 1)], codec=MoveValueCodec())
    raw = RawTransaction(Address.parse("0x7"), 0, buy, 10, 1, 2, 4)
    with node.client() as client:
        client.load_abis(SOLD)
        sent = len(node.sent())
        explanation = client.explain(raw)
        assert len(node.sent()) == sent  # shop's ABI was read already
    assert f"arg[0] = u64 {2**64 - 1}" in str(explanation)


def test_a_cache_must_be_an_abi_cache() -> None:
    node = _node()
    with node.client() as client, pytest.raises(InputError, match="cache must be an AbiCache"):
        client.load_abis(SOLD, cache={})  # type: ignore[arg-type]
    assert node.sent() == []


def test_encoding_a_transaction_reads_its_functions_abi_once() -> None:
    node = _node()
    buy = EntryFunction.build("0x42::shop::buy", [], [("u64", 7)], codec=MoveValueCodec())
    raw = RawTransaction(Address.parse("0x7"), 0, buy, 10, 1, 2, 4)
    message = "0x" + raw.signing_message().hex()
    node.on("POST", "/transactions/encode_submission", answer(message))
    with node.client() as client:
        first = client.encode_submission(raw).value
        again = client.encode_submission(raw).value
    assert first.request["payload"]["arguments"] == ["7"]
    assert again.raw == raw
    assert _reads(node) == [_path("0x42", "shop")] + ["/transactions/encode_submission"] * 2
