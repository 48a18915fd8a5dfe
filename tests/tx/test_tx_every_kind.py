"""Every Move type kind an argument can be: Python value -> BCS -> node -> JSON, and back.

``0x1::ledger_demo::record`` (entry) and ``echo`` (view) take one parameter of every kind
(the last one generic); the node reads the client's BCS by the function's ABI and renders
the committed payload's arguments, and the view's results, as JSON. The JSON expected
here is written out by hand from the API's rules (u64 and wider as decimal strings,
vectors of u8 as hex, options as ``{"vec": [...]}``, objects as ``{"inner": address}``,
structs as objects of their fields).
"""

from __future__ import annotations

from typing import Any, Final

import httpx
import pytest

from ledgerkit import Address, Client
from ledgerkit.tx import sign_transaction

RECIPIENT: Final = Address.parse("0x" + "5e" * 32)
U64_MAX: Final = 2**64 - 1
U128_MAX: Final = 2**128 - 1
U256_MAX: Final = 2**256 - 1

#: (Python arguments, the type argument of T0, the JSON the node must render).
CASES: Final[dict[str, tuple[list[Any], str, list[Any]]]] = {
    "smallest": (
        [0, 0, 0, 0, 0, 0, False, "0x1", b"", "", None, [], "0xa", {"x": 0, "y": 0}, 0],
        "u8",
        [
            0, 0, 0, "0", "0", "0", False, "0x1", "0x", "", {"vec": []}, [],
            {"inner": "0xa"}, {"x": "0", "y": "0"}, 0,
        ],
    ),
    "largest": (
        [
            255, 65535, 2**32 - 1, U64_MAX, U128_MAX, U256_MAX, True, RECIPIENT,
            bytes(range(256)), "héllo, wörld ✓", 7, [[1, 2], [], [U64_MAX]],
            Address.parse("0xa"), {"x": U64_MAX, "y": 1}, U128_MAX,
        ],
        "u128",
        [
            255, 65535, 4294967295, "18446744073709551615",
            "340282366920938463463374607431768211455",
            "115792089237316195423570985008687907853269984665640564039457584007913129639935",
            True, RECIPIENT.standard, "0x" + bytes(range(256)).hex(), "héllo, wörld ✓",
            {"vec": ["7"]}, [["1", "2"], [], ["18446744073709551615"]], {"inner": "0xa"},
            {"x": "18446744073709551615", "y": "1"},
            "340282366920938463463374607431768211455",
        ],
    ),
    "other spellings": (
        [
            7, 8, 9, 10, 11, 12, True, "5e" * 32, "0x00ff", "abc", 3, [[4]],
            "0x" + "0" * 63 + "a", {"y": 2, "x": 1}, [1, 2, 3],
        ],
        "vector<u8>",
        [
            7, 8, 9, "10", "11", "12", True, RECIPIENT.standard, "0x00ff", "abc",
            {"vec": ["3"]}, [["4"]], {"inner": "0xa"}, {"x": "1", "y": "2"}, "0x010203",
        ],
    ),
}  # fmt: skip

#: The Python values the same arguments come back as from ``view``.
AS_PYTHON: Final[dict[str, list[Any]]] = {
    "smallest": [
        0, 0, 0, 0, 0, 0, False, Address.parse("0x1"), b"", "", None, [],
        Address.parse("0xa"), {"x": 0, "y": 0}, 0,
    ],
    "largest": [
        255, 65535, 2**32 - 1, U64_MAX, U128_MAX, U256_MAX, True, RECIPIENT,
        bytes(range(256)), "héllo, wörld ✓", 7, [[1, 2], [], [U64_MAX]],
        Address.parse("0xa"), {"x": U64_MAX, "y": 1}, U128_MAX,
    ],
    "other spellings": [
        7, 8, 9, 10, 11, 12, True, RECIPIENT, b"\x00\xff", "abc", 3, [[4]],
        Address.parse("0xa"), {"x": 1, "y": 2}, b"\x01\x02\x03",
    ],
}  # fmt: skip

SIGNED: Final = {
    "smallest": (
        [-(2**7), -(2**15), -(2**31), -(2**63), -(2**127), -(2**255)],
        [-128, -32768, -2147483648, "-9223372036854775808",
         "-170141183460469231731687303715884105728",
         "-57896044618658097711785492504343953926634992332820282019728792003956564819968"],
    ),
    "largest": (
        [2**7 - 1, 2**15 - 1, 2**31 - 1, 2**63 - 1, 2**127 - 1, 2**255 - 1],
        [127, 32767, 2147483647, "9223372036854775807",
         "170141183460469231731687303715884105727",
         "57896044618658097711785492504343953926634992332820282019728792003956564819967"],
    ),
    "around zero": ([-1, 0, 1, -1, 0, 1], [-1, 0, 1, "-1", "0", "1"]),
}  # fmt: skip


@pytest.fixture
def sender(fund: Any) -> Any:
    return fund(10**8)


def commit(client: Client, sender: Any, function: str, args: list[Any], **kw: Any) -> Any:
    raw = client.build_transaction(sender, function, args, **kw)
    txn = client.submit_and_wait(sign_transaction(raw, sender)).value
    assert txn.success, txn.vm_status
    return txn


@pytest.mark.parametrize("case", list(CASES))
def test_every_kind_committed_comes_back_as_json(
    client: Client, http: httpx.Client, sender: Any, case: str
) -> None:
    args, type_arg, expected = CASES[case]
    txn = commit(client, sender, "0x1::ledger_demo::record", args, type_arguments=[type_arg])
    # Read back over plain HTTP, as any other client would see it.
    seen = http.get(f"/transactions/by_hash/{txn.hash}").json()
    assert seen["payload"]["function"] == "0x1::ledger_demo::record"
    assert seen["payload"]["type_arguments"] == [type_arg]
    assert seen["payload"]["arguments"] == expected


@pytest.mark.parametrize("case", list(CASES))
def test_every_kind_viewed_comes_back_as_json_and_as_python(
    client: Client, http: httpx.Client, case: str
) -> None:
    args, type_arg, expected = CASES[case]
    assert (
        client.view("0x1::ledger_demo::echo", args, type_arguments=[type_arg]).value
        == (AS_PYTHON[case])
    )
    # The same function called over plain HTTP with the JSON arguments answers that JSON.
    answer = http.post(
        "/view",
        json={
            "function": "0x1::ledger_demo::echo",
            "type_arguments": [type_arg],
            "arguments": expected,
        },
    )
    assert answer.status_code == 200, answer.text
    assert answer.json() == expected


@pytest.mark.parametrize("case", list(SIGNED))
def test_signed_integers(client: Client, http: httpx.Client, sender: Any, case: str) -> None:
    args, expected = SIGNED[case]
    txn = commit(client, sender, "0x1::ledger_demo::record_signed", args)
    seen = http.get(f"/transactions/by_hash/{txn.hash}").json()
    assert seen["payload"]["arguments"] == expected
    assert client.view("0x1::ledger_demo::echo_signed", args).value == args
