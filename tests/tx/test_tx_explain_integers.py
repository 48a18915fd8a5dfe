"""Integer arguments of every Move width, explained at their extremes: the dump shows the
number and the frame holds it as an exact Python ``int``, signed widths as well as
unsigned ones."""

from __future__ import annotations

import json

import pytest

from ledgerkit.bcs import EntryFunction, MoveValueCodec, RawTransaction
from ledgerkit.models import AbiCache, MoveModule, decode
from ledgerkit.tx import explain_transaction
from ledgerkit.types import Address

FIELD = "RawTransaction.payload.entry_function.args.arg[0]"

EXTREMES = [
    ("u8", 0),
    ("u8", 255),
    ("u16", 0),
    ("u16", 65_535),
    ("u32", 0),
    ("u32", 4_294_967_295),
    ("u64", 0),
    ("u64", 18_446_744_073_709_551_615),
    ("u128", 0),
    ("u128", 2**128 - 1),
    ("u256", 0),
    ("u256", 2**256 - 1),
    ("i8", -128),
    ("i8", 127),
    ("i16", -32_768),
    ("i16", 32_767),
    ("i32", -2_147_483_648),
    ("i32", 2_147_483_647),
    ("i64", -9_223_372_036_854_775_808),
    ("i64", 9_223_372_036_854_775_807),
    ("i128", -(2**127)),
    ("i128", 2**127 - 1),
    ("i256", -(2**255)),
    ("i256", 2**255 - 1),
]


def _abis(width: str) -> AbiCache:
    """ABIs of ``0xcafe::numbers::take(&signer, <width>)``."""
    module = {
        "address": "0xcafe",
        "name": "numbers",
        "friends": [],
        "structs": [],
        "exposed_functions": [
            {
                "name": "take",
                "visibility": "public",
                "is_entry": True,
                "is_view": False,
                "generic_type_params": [],
                "params": ["&signer", width],
                "return": [],
            }
        ],
    }
    return AbiCache([decode(json.dumps(module).encode(), MoveModule)])


@pytest.mark.parametrize(("width", "value"), EXTREMES, ids=[f"{w}={v}" for w, v in EXTREMES])
def test_an_integer_argument_is_an_exact_int_in_the_frame(width: str, value: int) -> None:
    ef = EntryFunction.build("0xcafe::numbers::take", [], [(width, value)], codec=MoveValueCodec())
    raw = RawTransaction(Address.parse("0x7"), 3, ef, 10, 1, 2, 4)
    explanation = explain_transaction(raw, abis=_abis(width))
    assert explanation.typed
    assert f"arg[0] = {width} {value}" in str(explanation)
    exact = explanation.to_frame().set_index("field")["value"][FIELD]
    assert exact == value
    assert type(exact) is int
