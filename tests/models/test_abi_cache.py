"""``ledgerkit.AbiCache``, the one cache of module ABIs: a module's functions, struct layouts
for the BCS codec and event data as columns from the same records; and ``abi_requests``,
the flow that says which modules a set of types still needs, however its levels are read.
Event columns are tested at length in ``tests/frames/test_event_data.py``."""

from __future__ import annotations

import pickle
from collections.abc import Generator
from typing import Any, Final

import pytest

import ledgerkit
from ledgerkit import AbiCache, MoveValueError
from ledgerkit.bcs import MoveValueCodec
from ledgerkit.models import MoveFunction, MoveModule, MoveStruct, MoveStructField, abi_requests
from ledgerkit.types import ModuleId, PrimitiveType, StructTag

GEO: Final = ModuleId.parse("0x42::geo")
UNIT: Final = ModuleId.parse("0x43::unit")


def _struct(name: str, fields: list[tuple[str, str]]) -> MoveStruct:
    return MoveStruct(
        name=name,
        is_native=False,
        abilities=["copy", "drop"],
        generic_type_params=[],
        fields=[MoveStructField(name=n, type=t) for n, t in fields],
    )


def _geo(*fields: tuple[str, str]) -> MoveModule:
    take = MoveFunction(
        name="take",
        visibility="public",
        is_entry=True,
        is_view=False,
        generic_type_params=[],
        params=["&signer", "0x42::geo::Point"],
        return_=[],
    )
    point = _struct("Point", list(fields))
    return MoveModule(
        address="0x42", name="geo", friends=[], exposed_functions=[take], structs=[point]
    )


def _unit() -> MoveModule:
    metre = _struct("Metre", [("value", "u64")])
    return MoveModule(
        address="0x43", name="unit", friends=[], exposed_functions=[], structs=[metre]
    )


def test_one_cache_gives_functions_struct_layouts_and_columns() -> None:
    cache = AbiCache([_geo(("x", "u64"), ("y", "0x43::unit::Metre")), _unit()])
    take = cache.module("0x42::geo")
    assert take is not None
    assert take.function("take") == _geo(("x", "u64")).function("take")
    codec = MoveValueCodec(cache)
    point = codec.encode("0x42::geo::Point", {"x": "1", "y": {"value": "2"}})
    assert point.hex() == "0100000000000000" + "0200000000000000"
    assert cache.layout("0x42::geo::Point") == {
        "x": PrimitiveType("u64"),
        "y.value": PrimitiveType("u64"),
    }
    assert cache.module("0x44::other") is None
    assert "0x44::other" not in cache


def test_a_codec_reads_a_module_added_again_after_an_upgrade() -> None:
    cache = AbiCache([_geo(("x", "u64"))])
    codec = MoveValueCodec(cache)
    assert codec.encode("0x42::geo::Point", {"x": 1}).hex() == "0100000000000000"
    cache.add(_geo(("x", "u64"), ("z", "u8")))
    assert codec.encode("0x42::geo::Point", {"x": 1, "z": 3}).hex() == "0100000000000000" + "03"
    cache.forget(GEO)
    with pytest.raises(MoveValueError, match="no field layout known for struct 0x42::geo::Point"):
        codec.encode("0x42::geo::Point", {"x": 1, "z": 3})


def test_a_module_not_published_is_asked_again_for_values_not_for_columns() -> None:
    cache = AbiCache()
    cache.add_missing(UNIT)
    metre = ["0x43::unit::Metre"]
    assert cache.missing_modules(metre) == []
    assert cache.missing_modules(metre, bcs=True) == [UNIT]
    assert cache.missing_modules(metre, bcs=True, fresh=[UNIT]) == []
    # Values follow vectors to their elements; columns keep a vector as JSON text.
    cache.add(_geo(("units", "vector<0x43::unit::Metre>")))
    cache.forget(UNIT)
    assert cache.missing_modules(["0x42::geo::Point"]) == []
    assert cache.missing_modules(["0x42::geo::Point"], bcs=True) == [UNIT]


def test_the_flow_reads_each_level_however_its_reader_reads() -> None:
    cache = AbiCache()
    asked: list[Any] = []

    def fetch(needed: list[ModuleId]) -> Generator[str, Any, dict[ModuleId, MoveModule | None]]:
        asked.append(needed)
        found: dict[ModuleId, MoveModule | None] = {}
        for module_id in needed:
            found[module_id] = yield f"read {module_id}"
        return found

    flow = abi_requests(cache, [StructTag.parse("0x42::geo::Point")], fetch=fetch)
    steps = [next(flow), flow.send(_geo(("y", "0x43::unit::Metre")))]
    with pytest.raises(StopIteration) as done:
        flow.send(_unit())
    assert steps == ["read 0x42::geo", "read 0x43::unit"]
    assert asked == [[GEO], [UNIT]]
    assert done.value.value is cache
    assert cache.layout("0x42::geo::Point") == {"y.value": PrimitiveType("u64")}


def test_a_cache_pickles_with_what_it_holds() -> None:
    cache = AbiCache([_geo(("x", "u64"))], max_modules=3)
    cache.add_missing(UNIT)
    back = pickle.loads(pickle.dumps(cache))
    assert repr(back) == "AbiCache(2 modules, 1 missing, max_modules=3)"
    assert back.layout("0x42::geo::Point") == {"x": PrimitiveType("u64")}
    back.add(_unit())
    assert UNIT in back
    assert ledgerkit.AbiCache is type(back)


def test_the_names_it_had_in_frames_still_work_and_say_where_it_lives() -> None:
    import ledgerkit.frames

    with pytest.warns(
        DeprecationWarning, match=r"frames\.AbiCache is deprecated; use ledgerkit\.AbiCache"
    ):
        assert ledgerkit.frames.AbiCache is AbiCache
    with pytest.warns(DeprecationWarning, match=r"use ledgerkit\.models\.abi_requests"):
        assert ledgerkit.frames.abi_requests is abi_requests
    assert "AbiCache" not in ledgerkit.frames.__all__
