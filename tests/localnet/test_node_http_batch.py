"""``POST /transactions/batch``: several signed transactions in one request, each admitted
as a single submission is; 202 when all are taken, 206 listing the refused ones, 400 past
the batch limit, 413 past the body limit, 507 when the mempool takes none.

The node is served in-process with no block producer, so accepted transactions stay
pending and the mempool fills as the tests ask.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ledgerkit.bcs import EntryFunction, RawTransaction, SignedTransaction
from ledgerkit.localnet import NodeConfig
from ledgerkit.localnet.app import create_app
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.types import Address

SIGNED_TXN_BCS = "application/x.aptos.signed_transaction+bcs"
RECIPIENT = Address.parse("0x" + "b7" * 32)


@pytest.fixture
def ledger() -> Iterator[Ledger]:
    opened = Ledger.open(None, NodeConfig(seed=31, blocks=1, mempool_capacity=3))
    try:
        yield opened
    finally:
        opened.close()


class InProcess:
    """Requests to the app in this process, without a server (nothing else runs)."""

    def __init__(self, ledger: Ledger) -> None:
        self._transport = httpx.ASGITransport(app=create_app(ledger))

    def request(self, method: str, path: str, **options: Any) -> httpx.Response:
        async def send() -> httpx.Response:
            async with httpx.AsyncClient(
                transport=self._transport, base_url="http://127.0.0.1/v1"
            ) as client:
                response = await client.request(method, path, **options)
                await response.aread()
                return response

        return asyncio.run(send())

    def get(self, path: str) -> httpx.Response:
        return self.request("GET", path)

    def post(self, path: str, **options: Any) -> httpx.Response:
        return self.request("POST", path, **options)


@pytest.fixture
def http(ledger: Ledger) -> InProcess:
    return InProcess(ledger)


def signed(ledger: Ledger, account: int, sequence: int, *, chain_id: int = 4) -> SignedTransaction:
    dev = ledger.dev_accounts[account]
    payload = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", RECIPIENT), ("u64", 5)]
    )
    expires = int(time.time()) + 600
    raw = RawTransaction(dev.address, sequence, payload, 200_000, 100, expires, chain_id)
    return raw.sign(dev.private_key)


def as_json(txn: SignedTransaction) -> dict[str, Any]:
    """The SubmitTransactionRequest of ``txn`` (an Ed25519 transfer)."""
    raw, auth = txn.raw, txn.authenticator
    return {
        "sender": raw.sender.standard,
        "sequence_number": str(raw.sequence_number),
        "max_gas_amount": str(raw.max_gas_amount),
        "gas_unit_price": str(raw.gas_unit_price),
        "expiration_timestamp_secs": str(raw.expiration_timestamp_secs),
        "payload": {
            "type": "entry_function_payload",
            "function": "0x1::aptos_account::transfer",
            "type_arguments": [],
            "arguments": [RECIPIENT.standard, "5"],
        },
        "signature": {
            "type": "ed25519_signature",
            "public_key": "0x" + auth.public_key.hex(),  # type: ignore[attr-defined]
            "signature": "0x" + auth.signature.hex(),  # type: ignore[attr-defined]
        },
    }


def bcs_batch(*txns: SignedTransaction) -> bytes:
    assert len(txns) < 128  # a one-byte ULEB128 count
    return bytes([len(txns)]) + b"".join(t.to_bcs() for t in txns)


def post_bcs(http: InProcess, body: bytes) -> httpx.Response:
    return http.post("/transactions/batch", content=body, headers={"Content-Type": SIGNED_TXN_BCS})


def pending_type(http: InProcess, txn: SignedTransaction) -> str:
    found: dict[str, Any] = http.get(f"/transactions/by_hash/{txn.hash()}").json()
    return str(found.get("type") or found.get("error_code"))


def test_a_json_batch_all_accepted_answers_202_with_no_failures(
    ledger: Ledger, http: InProcess
) -> None:
    first, second = signed(ledger, 0, 0), signed(ledger, 0, 1)
    response = http.post("/transactions/batch", json=[as_json(first), as_json(second)])
    assert response.status_code == 202, response.text
    assert response.json() == {"transaction_failures": []}
    assert "X-NODE-LEDGER-VERSION" in response.headers
    assert pending_type(http, first) == pending_type(http, second) == "pending_transaction"


def test_a_bcs_batch_with_refused_transactions_answers_206_listing_them(
    ledger: Ledger, http: InProcess
) -> None:
    good = signed(ledger, 1, 0)
    other_chain = signed(ledger, 1, 1, chain_id=5)
    again = signed(ledger, 2, 0)
    response = post_bcs(http, bcs_batch(good, other_chain, again, other_chain))
    assert response.status_code == 206, response.text
    failures = response.json()["transaction_failures"]
    assert [f["transaction_index"] for f in failures] == [1, 3]
    for failure in failures:
        assert failure["error"]["error_code"] == "vm_error"
        assert isinstance(failure["error"]["message"], str)
        assert failure["error"]["vm_error_code"] == 23  # BAD_CHAIN_ID
    assert pending_type(http, good) == pending_type(http, again) == "pending_transaction"
    assert pending_type(http, other_chain) == "transaction_not_found"


def test_every_transaction_refused_is_still_206(ledger: Ledger, http: InProcess) -> None:
    response = post_bcs(http, bcs_batch(signed(ledger, 3, 0, chain_id=9)))
    assert response.status_code == 206
    [failure] = response.json()["transaction_failures"]
    assert failure["transaction_index"] == 0


def test_more_than_ten_transactions_are_refused_whole(ledger: Ledger, http: InProcess) -> None:
    txns = [signed(ledger, 4, n) for n in range(11)]
    for response in (
        post_bcs(http, bcs_batch(*txns)),
        http.post("/transactions/batch", json=[as_json(t) for t in txns]),
    ):
        assert response.status_code == 400, response.text
        assert response.json()["error_code"] == "invalid_input"
        assert "limit is 10" in response.json()["message"]
    assert pending_type(http, txns[0]) == "transaction_not_found"


def test_a_bcs_batch_claiming_a_huge_count_is_refused_by_its_count(http: InProcess) -> None:
    response = post_bcs(http, b"\xff\xff\xff\xff\x07" + bytes(64))
    assert response.status_code == 400, response.text
    assert "while limit is 10" in response.json()["message"]


@pytest.mark.parametrize(
    ("body", "kind", "needle"),
    [
        (b"\x02\x00", SIGNED_TXN_BCS, "BCS"),
        (b"\x01" + bytes(40), SIGNED_TXN_BCS, "BCS"),
        (b'{"sender": "0x1"}', "application/json", "array"),
        (b"[1, 2]", "application/json", "transaction 0"),
    ],
)
def test_a_batch_that_does_not_parse_is_a_400(
    http: InProcess, body: bytes, kind: str, needle: str
) -> None:
    response = http.post("/transactions/batch", content=body, headers={"Content-Type": kind})
    assert response.status_code == 400, response.text
    assert response.json()["error_code"] == "invalid_input"
    assert needle in response.json()["message"]


def test_a_body_past_the_limit_is_a_413() -> None:
    small = Ledger.open(None, NodeConfig(seed=31, blocks=1, max_body_bytes=300))
    try:
        txns = [signed(small, 0, n) for n in range(3)]
        response = post_bcs(InProcess(small), bcs_batch(*txns))
        assert response.status_code == 413
        assert response.json()["error_code"] == "web_framework_error"
    finally:
        small.close()


def test_a_full_mempool_that_takes_none_is_a_507(ledger: Ledger, http: InProcess) -> None:
    filling = [signed(ledger, 5, n) for n in range(3)]
    assert post_bcs(http, bcs_batch(*filling)).status_code == 202
    response = post_bcs(http, bcs_batch(signed(ledger, 6, 0), signed(ledger, 6, 1)))
    assert response.status_code == 507, response.text
    assert response.json()["error_code"] == "mempool_is_full"


def test_a_batch_partly_taken_by_a_filling_mempool_is_206(ledger: Ledger, http: InProcess) -> None:
    response = post_bcs(http, bcs_batch(*[signed(ledger, 7, n) for n in range(5)]))
    assert response.status_code == 206, response.text
    failures = response.json()["transaction_failures"]
    assert [(f["transaction_index"], f["error"]["error_code"]) for f in failures] == [
        (3, "mempool_is_full"),
        (4, "mempool_is_full"),
    ]


def test_batch_submission_is_switched_off_with_submission() -> None:
    config = NodeConfig(seed=31, blocks=1, disabled=frozenset({"submit"}))
    off = Ledger.open(None, config)
    try:
        response = post_bcs(InProcess(off), bcs_batch(signed(off, 0, 0)))
        assert response.status_code == 403
        assert response.json()["error_code"] == "api_disabled"
    finally:
        off.close()
