"""An account's transaction summaries on the node, over HTTP.

The chain: seed 17, 4 blocks, then from the first dev account three transfers (sequence
numbers 0, 1, 2), an orderless transfer with nonce 0xC0FFEE, and a fourth transfer
(sequence number 3), one block each (3 versions: metadata, the transaction, the
epilogue), so at versions 19, 22, 25, 28 and 31. As aptos-core's storage reads them, the
summaries come ascending by version: from ``start_version`` forward (``end_version`` is
then not read), else the last ``limit`` up to ``end_version`` (or the newest); without
``limit`` a page is the node's largest (100).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from typing import Any, Final

import httpx
import pytest
from node_http_helpers import assert_error, ok, ok_bcs

from ledgerkit import Client
from ledgerkit.localnet import LocalNode

MakeNode = Callable[..., LocalNode]
VERSIONS: Final = [19, 22, 25, 28, 31]
NONCE: Final = 0xC0FFEE
#: (type, value) of each summary's replay protector, in version order.
PROTECTORS: Final = [
    ("sequence_number", "0"),
    ("sequence_number", "1"),
    ("sequence_number", "2"),
    ("nonce", str(NONCE)),
    ("sequence_number", "3"),
]


@pytest.fixture(scope="module")
def node(make_node: MakeNode) -> LocalNode:
    running = make_node(seed=17, blocks=4, services=False)
    dev, to = running.dev_accounts[0], running.dev_accounts[1].address
    with Client(running.url, api_key=running.api_key, cache=False) as client:
        for _ in range(3):
            assert client.transfer(dev, to, 100).value.success
        raw = client.build_transaction(
            dev, "0x1::aptos_account::transfer", [to, 5], replay_protection_nonce=NONCE
        )
        assert client.submit_and_wait(dev.sign(raw)).value.success
        assert client.transfer(dev, to, 100).value.success
    return running


@pytest.fixture(scope="module")
def http(node: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=node.url, timeout=30.0) as client:
        yield client


def _path(node: LocalNode) -> str:
    return f"/accounts/{node.dev_accounts[0].address}/transaction_summaries"


def _versions(items: list[dict[str, Any]]) -> list[int]:
    return [int(item["version"]) for item in items]


def test_every_transaction_the_account_sent_orderless_included(
    node: LocalNode, http: httpx.Client
) -> None:
    dev = str(node.dev_accounts[0].address)
    items = ok(http.get(_path(node)))
    assert _versions(items) == VERSIONS
    assert {item["sender"] for item in items} == {dev}
    protectors = [(i["replay_protector"]["type"], i["replay_protector"]["value"]) for i in items]
    assert protectors == PROTECTORS
    # The hashes are those the other reads give: by sequence number, and by version for
    # the orderless one (the account's transactions leave it out).
    by_sequence = ok(http.get(f"/accounts/{dev}/transactions"))
    assert [int(t["version"]) for t in by_sequence] == [19, 22, 25, 31]
    orderless = ok(http.get("/transactions/by_version/28"))
    assert orderless["replay_protection_nonce"] == str(NONCE)
    expected = [t["hash"] for t in by_sequence]
    expected.insert(3, orderless["hash"])
    assert [item["transaction_hash"] for item in items] == expected


@pytest.mark.parametrize(
    ("params", "versions"),
    [
        ({"start_version": 22}, [22, 25, 28, 31]),
        ({"start_version": 23}, [25, 28, 31]),
        ({"start_version": 0, "limit": 2}, [19, 22]),
        ({"start_version": 22, "end_version": 25}, [22, 25, 28, 31]),  # end not read
        ({"start_version": 32}, []),
        ({"end_version": 28, "limit": 2}, [25, 28]),
        ({"end_version": 27}, [19, 22, 25]),
        ({"end_version": 18}, []),
        ({"limit": 2}, [28, 31]),
        ({"limit": 1000}, VERSIONS),
    ],
)
def test_start_end_and_limit(
    node: LocalNode, http: httpx.Client, params: dict[str, int], versions: list[int]
) -> None:
    assert _versions(ok(http.get(_path(node), params=params))) == versions


def test_an_account_that_sent_nothing_has_no_summaries(http: httpx.Client) -> None:
    assert ok(http.get(f"/accounts/0x{'ab' * 32}/transaction_summaries")) == []


def test_the_bcs_answer_is_a_sequence_of_indexed_summaries(
    node: LocalNode, http: httpx.Client
) -> None:
    items = ok(http.get(_path(node), params={"end_version": 28, "limit": 2}))
    body = ok_bcs(
        http.get(
            _path(node),
            params={"end_version": 28, "limit": 2},
            headers={"Accept": "application/x-bcs"},
        )
    )
    sender = bytes(node.dev_accounts[0].address)
    # ULEB128 count; each: variant V1 (0), sender, version (u64 LE), the hash's 32 bytes,
    # the replay protector's variant (SequenceNumber 1, Nonce 0) and its u64.
    expected = bytes([2])
    expected += b"\x00" + sender + struct.pack("<Q", 25)
    expected += bytes.fromhex(items[0]["transaction_hash"][2:]) + b"\x01" + struct.pack("<Q", 2)
    expected += b"\x00" + sender + struct.pack("<Q", 28)
    expected += bytes.fromhex(items[1]["transaction_hash"][2:]) + b"\x00"
    expected += struct.pack("<Q", NONCE)
    assert body == expected


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"start_version": "x"}, "start_version must be a decimal string of digits, got 'x'"),
        ({"end_version": "-1"}, "end_version must be a decimal string of digits, got '-1'"),
        ({"start_version": str(2**64)}, "start_version"),
        ({"limit": "0"}, "limit must not be zero"),
        ({"limit": "70000"}, "limit must be an integer from 1 to 65535"),
    ],
)
def test_bad_parameters_get_the_error_record(
    node: LocalNode, http: httpx.Client, params: dict[str, str], message: str
) -> None:
    record = assert_error(http.get(_path(node), params=params), 400, "invalid_input")
    assert message in record["message"]


def test_a_bad_address_gets_the_error_record(http: httpx.Client) -> None:
    assert_error(http.get("/accounts/0xzz/transaction_summaries"), 400, "invalid_input")
