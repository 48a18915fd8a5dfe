"""Event data typed from module ABIs (hand-made here, the independent source of the
expected types): nested structs flattened to dotted names through their own modules'
ABIs, generic parameters filled from the event's type arguments, integers exact at every
width's edges, addresses long, options, objects and vectors in their documented forms;
the ABI cache bounded; unknown structs a typed error."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pandas as pd
import pytest

import ledgerkit
from ledgerkit.frames import (
    EVENT_COLUMNS,
    EVENT_KEY_COLUMNS,
    events_to_frame,
    expand_event_data,
    schema_of,
)
from ledgerkit.models import (
    AbiCache,
    Event,
    EventGuid,
    MoveGenericTypeParam,
    MoveModule,
    MoveModuleBytecode,
    MoveStruct,
    MoveStructField,
    TransactionEvents,
    abi_requests,
)
from ledgerkit.types import ModuleId, PrimitiveType

U64_MAX, U128_MAX, U256_MAX = 2**64 - 1, 2**128 - 1, 2**256 - 1
SHOP = "0x" + "ca" * 32
MONEY = "0xbeef"


def _long(address: str) -> str:
    return "0x" + address[2:].rjust(64, "0")


def struct(name: str, fields: list[tuple[str, str]], generics: int = 0) -> MoveStruct:
    return MoveStruct(
        name=name,
        is_native=False,
        is_event=True,
        abilities=["drop", "store"],
        generic_type_params=[MoveGenericTypeParam(constraints=[]) for _ in range(generics)],
        fields=[MoveStructField(name=n, type=t) for n, t in fields],
    )


def module(address: str, name: str, *structs: MoveStruct) -> MoveModule:
    return MoveModule(
        address=address, name=name, friends=[], exposed_functions=[], structs=list(structs)
    )


#: ``shop::Sold<T0, T1>`` holds an ``Item<T0>`` of its own module and a ``Price<T1>`` of
#: another, an optional string, an object and a byte vector.
SHOP_ABI = module(
    SHOP,
    "shop",
    struct(
        "Sold",
        [
            ("item", f"{SHOP}::shop::Item<T0>"),
            ("buyer", "address"),
            ("note", "0x1::option::Option<0x1::string::String>"),
            ("price", f"{MONEY}::money::Price<T1>"),
            ("receipt", "vector<u8>"),
            ("asset", "0x1::object::Object<0x1::fungible_asset::Metadata>"),
        ],
        generics=2,
    ),
    struct("Item", [("id", "u64"), ("extra", "T0"), ("tags", "vector<u64>")], generics=1),
)
MONEY_ABI = module(
    MONEY,
    "money",
    struct("Price", [("amount", "u128"), ("unit", "T0"), ("tier", "0x1::option::Option<T0>")], 1),
    struct("Unit", [("decimals", "u8"), ("big", "u256")]),
)
SOLD = f"{SHOP}::shop::Sold<{MONEY}::money::Unit, u64>"


def events(*items: tuple[int, str, dict[str, Any]]) -> pd.DataFrame:
    """An events frame of module events: (version, type, data) each in a transaction of
    its own."""
    records = [
        TransactionEvents(
            version=version,
            events=[
                Event(
                    guid=EventGuid(creation_number=0, account_address="0x0"),
                    sequence_number=0,
                    type=kind,
                    data=data,
                )
            ],
        )
        for version, kind, data in items
    ]
    return events_to_frame(records)


def sold(
    *, item_id: int, decimals: int, big: int, amount: int, unit: int, note: str | None
) -> dict[str, Any]:
    return {
        "item": {
            "id": str(item_id),
            "extra": {"decimals": decimals, "big": str(big)},
            "tags": [str(U64_MAX), "1"],
        },
        "buyer": "0x7",
        "note": {"vec": [] if note is None else [note]},
        "price": {"amount": str(amount), "unit": str(unit), "tier": {"vec": [str(unit)]}},
        "receipt": "0x00ff",
        "asset": {"inner": "0xa"},
    }


def test_nested_generic_structs_flatten_to_exact_typed_columns() -> None:
    edge = sold(
        item_id=2**53 + 1, decimals=8, big=U256_MAX, amount=U128_MAX, unit=U64_MAX, note="gift"
    )
    frame = events(
        (5, SOLD, edge),
        (9, SOLD, sold(item_id=0, decimals=0, big=0, amount=0, unit=0, note=None)),
        (9, "0x1::other::Event", {"x": "1"}),
    )
    typed = expand_event_data(frame, SOLD, modules=[SHOP_ABI, MONEY_ABI])
    assert list(typed.columns) == [
        *EVENT_KEY_COLUMNS,
        "item.id",
        "item.extra.decimals",
        "item.extra.big",
        "item.tags",
        "buyer",
        "note",
        "price.amount",
        "price.unit",
        "price.tier",
        "receipt",
        "asset",
    ]
    assert typed["version"].tolist() == [5, 9]
    assert typed["item.id"].tolist() == [2**53 + 1, 0]
    assert str(typed["item.id"].dtype) == "UInt64"
    assert typed["item.extra.decimals"].tolist() == [8, 0]
    assert typed["item.extra.big"].tolist() == [str(U256_MAX), "0" * 78]
    assert typed["price.amount"].tolist() == [str(U128_MAX), "0" * 39]
    assert typed["price.unit"].tolist() == [U64_MAX, 0]  # T1 = u64
    assert typed["price.tier"].tolist() == [U64_MAX, 0]  # Option<T1>, some
    assert [json.loads(t) for t in typed["item.tags"]] == [[str(U64_MAX), "1"]] * 2
    assert typed["buyer"].tolist() == [_long("0x7")] * 2
    assert isinstance(typed["buyer"].dtype, pd.CategoricalDtype)
    assert typed["note"].tolist() == ["gift", pd.NA]  # Option<String>: none is missing
    assert typed["receipt"].tolist() == ["0x00ff"] * 2
    assert typed["asset"].tolist() == [_long("0xa")] * 2  # Object<T>: its address


def test_the_layout_says_each_columns_move_type() -> None:
    cache = AbiCache([SHOP_ABI, MONEY_ABI])
    layout = cache.layout(SOLD)
    assert layout["price.unit"] == PrimitiveType("u64")
    assert layout["item.extra.big"] == PrimitiveType("u256")
    assert layout["item.tags"] is None  # JSON text
    assert str(layout["note"]) == "0x1::string::String"


def test_no_event_of_the_type_gives_the_same_columns_and_dtypes() -> None:
    full = events((5, SOLD, sold(item_id=1, decimals=1, big=1, amount=1, unit=1, note=None)))
    empty = events((5, "0x1::other::Event", {}))
    modules = [SHOP_ABI, MONEY_ABI]
    one = expand_event_data(full, SOLD, modules=modules)
    none = expand_event_data(empty, SOLD, modules=modules)
    assert len(one) == 1
    assert len(none) == 0
    assert schema_of(one) == schema_of(none)


def test_without_type_arguments_every_instantiation_is_kept() -> None:
    other = f"{SHOP}::shop::Sold<{MONEY}::money::Unit, bool>"
    data = sold(item_id=1, decimals=1, big=1, amount=1, unit=1, note=None)
    flag = {**data, "price": {"amount": "3", "unit": True, "tier": {"vec": []}}}
    frame = events((1, SOLD, data), (2, other, flag))
    modules = AbiCache([SHOP_ABI, MONEY_ABI])
    base = expand_event_data(frame, f"{SHOP}::shop::Sold", modules=modules)
    assert base["version"].tolist() == [1, 2]
    assert base["type"].tolist() == [SOLD, other]
    # T1 is u64 in one, bool in the other: that column is JSON text.
    assert base["price.unit"].tolist() == ['"1"', "true"]
    assert base["price.amount"].tolist() == ["1".zfill(39), "3".zfill(39)]
    exact = expand_event_data(frame, other, modules=modules)
    assert exact["version"].tolist() == [2]
    assert exact["price.unit"].tolist() == [True]
    # Addresses in any form name the same struct.
    short = f"0x{SHOP[2:]}::shop::Sold<0x000beef::money::Unit, bool>"
    assert expand_event_data(frame, short, modules=modules)["version"].tolist() == [2]


def test_hand_written_types_still_work_and_read_dotted_names() -> None:
    frame = events((4, "0x1::m::E", {"version": "7", "inner": {"who": "0x1"}, "n": "3"}))
    typed = expand_event_data(
        frame, "0x1::m::E", {"n": "u64", "inner.who": "address", "version": "u64"}
    )
    assert list(typed.columns) == [*EVENT_KEY_COLUMNS, "n", "inner.who", "data.version"]
    assert typed["n"].tolist() == [3]
    assert typed["inner.who"].tolist() == [_long("0x1")]
    assert typed["version"].tolist() == [4]  # the event's, not the field
    assert typed["data.version"].tolist() == [7]


def test_fields_or_modules_one_of_them() -> None:
    frame = events((1, "0x1::m::E", {}))
    with pytest.raises(ledgerkit.InputError, match=r"\(fields=\) or modules="):
        expand_event_data(frame, "0x1::m::E")
    with pytest.raises(ledgerkit.InputError, match=r"\(fields=\) or modules="):
        expand_event_data(frame, "0x1::m::E", {"a": "u8"}, modules=[])


def test_an_unknown_module_or_struct_is_a_typed_error() -> None:
    frame = events((1, SOLD, {}))
    with pytest.raises(ledgerkit.UnknownStructError) as caught:
        expand_event_data(frame, SOLD, modules=[SHOP_ABI])  # money's ABI missing
    assert ModuleId.parse(caught.value.module) == ModuleId.parse(f"{MONEY}::money")
    assert caught.value.module_found is False
    assert str(caught.value).endswith(f"the ABI of module {caught.value.module} is not at hand")
    with pytest.raises(ledgerkit.UnknownStructError) as caught:
        expand_event_data(events((1, f"{MONEY}::money::Nope", {})), f"{MONEY}::money::Nope",
                          modules=[MONEY_ABI])  # fmt: skip
    assert caught.value.module_found is True
    assert str(caught.value).endswith(f"module {caught.value.module} declares no struct Nope")
    cache = AbiCache()
    cache.add_missing("0x1::gone")
    with pytest.raises(ledgerkit.UnknownStructError, match="0x1::gone is not published"):
        cache.layout("0x1::gone::Event")
    back = pickle.loads(pickle.dumps(caught.value))
    assert type(back) is ledgerkit.UnknownStructError
    assert (str(back), back.struct, back.module, back.module_found) == (
        str(caught.value),
        caught.value.struct,
        caught.value.module,
        True,
    )
    assert isinstance(caught.value, ledgerkit.InputError)


def test_the_flow_asks_for_one_nesting_level_at_a_time() -> None:
    cache = AbiCache()
    flow = abi_requests(cache, [SOLD])
    asked = [next(flow)]
    asked.append(flow.send({ModuleId.parse(f"{SHOP}::shop"): SHOP_ABI}))
    with pytest.raises(StopIteration):
        flow.send({ModuleId.parse(f"{MONEY}::money"): MONEY_ABI})
    assert asked == [[ModuleId.parse(f"{SHOP}::shop")], [ModuleId.parse(f"{MONEY}::money")]]
    assert cache.missing_modules([SOLD]) == []
    # A module the node does not publish is remembered, and not asked for again.
    flow = abi_requests(cache, ["0x9::gone::E"])
    assert next(flow) == [ModuleId.parse("0x9::gone")]
    with pytest.raises(StopIteration):
        flow.send({})
    assert list(abi_requests(cache, ["0x9::gone::E"])) == []


def test_the_cache_is_bounded_dropping_the_least_recently_used() -> None:
    one, two, three = (module(f"0x{n}", "m", struct("E", [("a", "u8")])) for n in (21, 22, 23))
    cache = AbiCache([one, two], max_modules=2)
    cache.layout("0x21::m::E")  # 0x21 used last
    cache.add(three)
    assert len(cache) == 2
    assert "0x21::m" in cache
    assert "0x23::m" in cache
    assert "0x22::m" not in cache
    assert cache.missing_modules(["0x22::m::E"]) == [ModuleId.parse("0x22::m")]
    with pytest.raises(ledgerkit.InputError):
        AbiCache(max_modules=0)
    # A module as the client returns it (bytecode and ABI) is taken too.
    cache.add(MoveModuleBytecode(bytecode="0x00", abi=MONEY_ABI))
    assert "0xbeef::money" in cache


def test_events_frame_of_transaction_events_matches_the_transactions() -> None:
    frame = events((3, "0x1::a::B", {"x": "1"}))
    assert list(frame.columns) == list(EVENT_COLUMNS)
    assert frame[["version", "event_index", "creation_number"]].iloc[0].tolist() == [3, 0, 0]
    assert frame["account_address"].tolist() == [_long("0x0")]
