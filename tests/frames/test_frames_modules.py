"""Modules and their ABIs as frames: one row per module, per function, per struct."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import pytest

from ledgerkit import InputError, frames
from ledgerkit.models import MoveModule, decode_modules

LONG_1 = "0x" + "0" * 63 + "1"

ABI: dict[str, Any] = {
    "address": "0x1",
    "name": "option_like",
    "friends": ["0x1::coin"],
    "exposed_functions": [
        {
            "name": "borrow_mut",
            "visibility": "friend",
            "is_entry": False,
            "is_view": False,
            "generic_type_params": [{"constraints": []}],
            "params": ["&mut 0x1::option_like::Holder<T0>"],
            "return": ["&mut T0"],
        },
        {
            "name": "is_some",
            "visibility": "public",
            "is_entry": True,
            "is_view": True,
            "generic_type_params": [{"constraints": ["copy", "drop"]}, {"constraints": []}],
            "params": ["address", "u64"],
            "return": ["bool"],
        },
    ],
    "structs": [
        {
            "name": "Holder",
            "is_native": False,
            "is_event": False,
            "is_enum": False,
            "abilities": ["store", "key"],
            "generic_type_params": [{"constraints": ["store"]}],
            "fields": [{"name": "value", "type": "0x1::option::Option<T0>"}],
            "variants": [],
        },
        {
            "name": "Choice",
            "is_native": False,
            "is_event": True,
            "is_enum": True,
            "abilities": ["copy", "drop", "store"],
            "generic_type_params": [],
            "fields": [],
            "variants": [
                {"name": "Left", "fields": [{"name": "l", "type": "u64"}]},
                {"name": "Right", "fields": []},
            ],
        },
    ],
}
# 16 bytes of bytecode
MODULE: dict[str, Any] = {"bytecode": "0xa11ceb0b0700000a0c01000202020403", "abi": ABI}
NO_ABI: dict[str, Any] = {"bytecode": "0xa11ceb0b0700"}


def _records() -> list[Any]:
    return list(decode_modules(json.dumps([MODULE, NO_ABI]).encode()))


def test_one_row_per_module() -> None:
    frame = frames.modules_to_frame(_records())
    assert frame["address"].tolist()[0] == LONG_1
    assert frame["name"].tolist()[0] == "option_like"
    assert frame["bytecode_size"].tolist() == [16, 6]
    assert frame["friend_count"].tolist()[0] == 1
    assert frame["function_count"].tolist()[0] == 2
    assert frame["struct_count"].tolist()[0] == 2
    # A module sent without its ABI: only its size is known.
    assert frame.iloc[1][["address", "name", "function_count", "struct_count"]].isna().all()


def test_one_row_per_function() -> None:
    frame = frames.functions_to_frame(_records())
    assert frame.to_dict("records") == [
        {
            "module": f"{LONG_1}::option_like",
            "name": "borrow_mut",
            "visibility": "friend",
            "is_entry": False,
            "is_view": False,
            "type_param_count": 1,
            "type_param_abilities": "[[]]",
            "params": '["&mut 0x1::option_like::Holder<T0>"]',
            "returns": '["&mut T0"]',
        },
        {
            "module": f"{LONG_1}::option_like",
            "name": "is_some",
            "visibility": "public",
            "is_entry": True,
            "is_view": True,
            "type_param_count": 2,
            "type_param_abilities": '[["copy","drop"],[]]',
            "params": '["address","u64"]',
            "returns": '["bool"]',
        },
    ]


def test_one_row_per_struct() -> None:
    frame = frames.structs_to_frame(_records())
    holder, choice = frame.to_dict("records")
    assert holder == {
        "module": f"{LONG_1}::option_like",
        "name": "Holder",
        "abilities": '["store","key"]',
        "is_native": False,
        "is_event": False,
        "is_enum": False,
        "type_param_count": 1,
        "type_param_abilities": '[["store"]]',
        "fields": '[{"name":"value","type":"0x1::option::Option<T0>"}]',
        "variants": None,
    }
    assert choice["is_event"] is True
    assert choice["is_enum"] is True
    assert json.loads(choice["variants"]) == [
        {"name": "Left", "fields": [{"name": "l", "type": "u64"}]},
        {"name": "Right", "fields": []},
    ]


def test_records_raw_json_bytes_and_bare_abis_give_the_same_rows() -> None:
    records = _records()
    expected = frames.functions_to_frame(records)
    for given in (
        [MODULE, NO_ABI],
        json.dumps([MODULE, NO_ABI]).encode(),
        [records[0].abi],
        [ABI],
        records[0],
    ):
        pd.testing.assert_frame_equal(frames.functions_to_frame(given), expected)
    assert isinstance(records[0].abi, MoveModule)
    bare = frames.modules_to_frame([records[0].abi])
    assert bare["bytecode_size"].isna().all()
    assert bare["function_count"].tolist() == [2]


@pytest.mark.parametrize(
    "convert", [frames.modules_to_frame, frames.functions_to_frame, frames.structs_to_frame]
)
@pytest.mark.parametrize("bad", [7, "0x1", [1, 2], [{"x": 1}.keys()], None])
def test_bad_input_is_an_input_error_naming_modules(convert: Any, bad: Any) -> None:
    with pytest.raises(InputError, match=r"_to_frame expects modules"):
        convert(bad)
