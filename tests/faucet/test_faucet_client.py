"""The faucet clients against recorded answers of the real faucet's shapes.

The answers are written out here as the real faucet sends them (hashes without ``0x``;
the error record ``message`` / ``error_code`` / ``rejection_reasons`` / ``txn_hashes``;
429 with ``Retry-After``; ``/mint``'s plain-text errors), served by an
``httpx.MockTransport``, so the clients are held to the real service and not only to the
local one.
"""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from ledgerkit import (
    Account,
    AsyncFaucetClient,
    AuthTokenInvalidError,
    DecodingError,
    FaucetClient,
    FaucetError,
    FaucetRateLimitedError,
    FaucetRejectedError,
    FaucetUnavailableError,
    InputError,
    LedgerError,
    RequestTimeoutError,
    TokenProvider,
    TransportError,
)

URL = "https://faucet.testnet.example"
HASH = "a3f1" * 16
ADDRESS = "0x" + "ab" * 32
TOKEN = "header.payload.signature-secret-7f3a"


def _record(message: str, code: str, reasons: list[dict[str, str]] | None = None) -> bytes:
    return json.dumps(
        {"message": message, "error_code": code, "rejection_reasons": reasons or [],
         "txn_hashes": []}
    ).encode()  # fmt: skip


class Recorder:
    """A MockTransport handler answering one fixed answer and keeping the requests."""

    def __init__(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.status, self.body, self.headers = status, body, headers or {}
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(self.status, content=self.body, headers=self.headers)


def _client(handler: Callable[[httpx.Request], httpx.Response], **kw: Any) -> FaucetClient:
    return FaucetClient(URL, token=TOKEN, transport=httpx.MockTransport(handler), **kw)


def test_fund_sends_the_real_request_and_reads_hashes_without_0x() -> None:
    recorder = Recorder(200, json.dumps({"txn_hashes": [HASH]}).encode())
    with _client(recorder) as faucet:
        funding = faucet.fund(ADDRESS, 5_000, wait=False)
    assert funding.txn_hashes == ("0x" + HASH,)
    assert funding.balance_before is None
    assert funding.transactions == ()
    (request,) = recorder.requests
    assert (request.method, str(request.url)) == ("POST", URL + "/fund")
    assert request.headers["authorization"] == "Bearer " + TOKEN
    assert request.headers["x-is-jwt"] == "true"
    assert json.loads(request.content) == {"address": ADDRESS, "amount": 5000}


def test_fund_without_an_amount_leaves_it_to_the_faucet() -> None:
    recorder = Recorder(200, json.dumps({"txn_hashes": [HASH]}).encode())
    _client(recorder).fund("0x1", wait=False)
    assert json.loads(recorder.requests[0].content) == {"address": "0x" + "00" * 31 + "01"}


@pytest.mark.parametrize(
    ("status", "body", "headers", "cls", "code"),
    [
        (403, _record("Failed to verify JWT token", "AuthTokenInvalid"), {},
         AuthTokenInvalidError, "AuthTokenInvalid"),
        (403, _record("The JWT token is not verified", "AuthTokenInvalid"), {},
         AuthTokenInvalidError, "AuthTokenInvalid"),
        (400, _record("Invalid address", "InvalidRequest"), {}, FaucetRejectedError,
         "InvalidRequest"),
        (403, _record("Request rejected by a checker", "Rejected",
                      [{"reason": "IP is blocklisted", "code": "IpInBlocklist"}]), {},
         FaucetRejectedError, "Rejected"),
        (503, _record("Funder account has insufficient funds", "FunderAccountProblem"), {},
         FaucetUnavailableError, "FunderAccountProblem"),
        (500, _record("storage error", "StorageError"), {}, FaucetError, "StorageError"),
        (400, b"Endpoint not enabled", {"content-type": "text/plain"}, FaucetRejectedError,
         "http_400"),
    ],
)  # fmt: skip
def test_each_refusal_becomes_its_class(
    status: int, body: bytes, headers: dict[str, str], cls: type[FaucetError], code: str
) -> None:
    with pytest.raises(cls) as info:
        _client(Recorder(status, body, headers)).fund(ADDRESS, wait=False)
    error = info.value
    assert type(error) is cls
    assert (error.status, error.error_code) == (status, code)
    assert isinstance(error, LedgerError)
    assert TOKEN not in str(error)
    assert TOKEN not in repr(error)


def test_a_spent_quota_is_a_429_with_retry_after() -> None:
    reasons = [{"reason": "Exceeded daily limit of 3 requests", "code": "UsageLimitExhausted"}]
    answer = Recorder(429, _record("Rejected", "Rejected", reasons), {"Retry-After": "5400"})
    with pytest.raises(FaucetRateLimitedError) as info:
        _client(answer).fund(ADDRESS, wait=False)
    assert info.value.retry_after == 5400.0
    assert info.value.rejection_reasons == (
        ("Exceeded daily limit of 3 requests", "UsageLimitExhausted"),
    )
    assert isinstance(info.value, FaucetRejectedError)


@pytest.mark.parametrize(
    "body",
    [b"not json", b'{"txn_hashes": []}', b'{"txn_hashes": ["abc"]}', b'{"txn_hashes": [7]}',
     b'{"txn_hashes": ["' + b"zz" * 32 + b'"]}'],
)  # fmt: skip
def test_a_malformed_success_answer_is_a_decoding_error(body: bytes) -> None:
    with pytest.raises(DecodingError):
        _client(Recorder(200, body)).fund(ADDRESS, wait=False)


def test_bad_input_is_refused_before_anything_is_sent() -> None:
    recorder = Recorder(200, b"{}")
    faucet = _client(recorder)
    for address, amount in [("0xnothex", None), (ADDRESS, 0), (ADDRESS, -5), (ADDRESS, 2**64)]:
        with pytest.raises(InputError):
            faucet.fund(address, amount, wait=False)
    assert recorder.requests == []
    with pytest.raises(InputError):
        FaucetClient("faucet.example")


def test_healthy_reads_tap_ok() -> None:
    assert _client(Recorder(200, b"tap:ok")).healthy() is True
    assert _client(Recorder(503, b"unhealthy")).healthy() is False

    def unreachable(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    assert _client(unreachable).healthy() is False


def test_is_eligible_is_a_bool_for_refusals_and_raises_for_a_bad_token() -> None:
    assert _client(Recorder(200, b"")).is_eligible(ADDRESS) is True
    limited = Recorder(429, _record("Rejected", "Rejected"), {"Retry-After": "10"})
    assert _client(limited).is_eligible(ADDRESS) is False
    with pytest.raises(AuthTokenInvalidError):
        _client(Recorder(403, _record("Failed", "AuthTokenInvalid"))).is_eligible(ADDRESS)
    recorder = Recorder(200, b"")
    _client(recorder).is_eligible(ADDRESS)
    assert recorder.requests[0].url.path == "/is_eligible"


def test_no_answer_is_a_transport_error_without_the_token() -> None:
    def timeout(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    with pytest.raises(RequestTimeoutError) as info:
        _client(timeout).fund(ADDRESS, wait=False)
    assert isinstance(info.value, TransportError)
    assert TOKEN not in str(info.value)


def test_the_token_is_in_no_repr() -> None:
    faucet = _client(Recorder(200, b""))
    assert TOKEN not in repr(faucet)
    assert TOKEN not in str(vars(faucet).get("tokens"))
    assert TOKEN not in repr(TokenProvider(TOKEN))


# -- waiting on the node ----------------------------------------------------------------------


class FakeNode:
    """The node client's two methods the flow calls, answering like ``Client``."""

    def __init__(self, balances: list[int], success: bool = True) -> None:
        self.balances = balances
        self.success = success
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def account_balance(self, address: Any, asset: str) -> Any:
        self.calls.append(("account_balance", (str(address), asset)))
        return SimpleNamespace(value=self.balances.pop(0))

    def wait_for_transaction(self, txn_hash: str, *, timeout: float) -> Any:
        self.calls.append(("wait_for_transaction", (txn_hash,)))
        status = "Executed successfully" if self.success else "Move abort: EINSUFFICIENT"
        return SimpleNamespace(value=SimpleNamespace(success=self.success, vm_status=status))


def test_fund_and_wait_reads_the_balances_around_the_committed_transaction() -> None:
    node = FakeNode([10, 100_000_010])
    recorder = Recorder(200, json.dumps({"txn_hashes": [HASH]}).encode())
    funding = _client(recorder, node=node).fund(ADDRESS)
    assert (funding.balance_before, funding.balance_after) == (10, 100_000_010)
    assert funding.received == 100_000_000
    assert len(funding.transactions) == 1
    assert node.calls == [
        ("account_balance", (ADDRESS, "0x1::aptos_coin::AptosCoin")),
        ("wait_for_transaction", ("0x" + HASH,)),
        ("account_balance", (ADDRESS, "0x1::aptos_coin::AptosCoin")),
    ]
    assert "10 -> 100000010" in repr(funding)


def test_a_funding_transaction_that_failed_on_chain_is_an_error() -> None:
    recorder = Recorder(200, json.dumps({"txn_hashes": [HASH]}).encode())
    with pytest.raises(FaucetRejectedError) as info:
        _client(recorder, node=FakeNode([0, 0], success=False)).fund(ADDRESS)
    assert info.value.error_code == "TransactionFailed"


def test_waiting_without_a_node_says_what_is_missing() -> None:
    with pytest.raises(InputError, match="node"):
        _client(Recorder(200, b"")).fund(ADDRESS)


def test_new_funded_account_funds_a_fresh_key() -> None:
    recorder = Recorder(200, json.dumps({"txn_hashes": [HASH]}).encode())
    account = _client(recorder, node=FakeNode([0, 7])).new_funded_account()
    assert isinstance(account, Account)
    assert json.loads(recorder.requests[0].content) == {"address": account.address.long}


# -- the token provider -----------------------------------------------------------------------


def _jwt(exp: int) -> str:
    """An unsigned-looking JWT with ``exp``: the provider only reads it."""

    def part(value: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()

    return f"{part({'alg': 'RS256', 'typ': 'JWT'})}.{part({'exp': exp, 'sub': 'u'})}.c2ln"


def test_the_provider_refreshes_before_expiry() -> None:
    now = [1_000.0]
    issued: list[str] = []

    def source() -> str:
        issued.append(_jwt(int(now[0]) + 3600))
        return issued[-1]

    provider = TokenProvider(source, refresh_margin=60, clock=lambda: now[0])
    first = provider.token()
    now[0] += 3000  # 600 s left: still fresh
    assert provider.token() == first
    assert len(issued) == 1
    now[0] += 560  # 40 s left: inside the margin
    second = provider.token()
    assert second != first
    assert len(issued) == 2
    assert provider.expires_at == now[0] + 3600
    assert "expires in 3600 s" in repr(provider)
    assert second not in repr(provider)


def test_a_source_giving_nothing_usable_is_refused() -> None:
    with pytest.raises(AuthTokenInvalidError):
        TokenProvider(lambda: "").token()
    with pytest.raises(AuthTokenInvalidError):
        TokenProvider(lambda: "x" * 10_000).token()


def test_each_request_asks_the_provider() -> None:
    tokens = iter(["first-token", "second-token"])
    recorder = Recorder(200, json.dumps({"txn_hashes": [HASH]}).encode())
    faucet = FaucetClient(URL, token=lambda: next(tokens), transport=httpx.MockTransport(recorder))
    faucet.fund(ADDRESS, wait=False)
    faucet.fund(ADDRESS, wait=False)
    # A token whose expiry cannot be read is kept until the faucet refuses it ...
    assert [r.headers["authorization"] for r in recorder.requests] == ["Bearer first-token"] * 2
    # ... and then the next request asks the source for a new one.
    recorder.status, recorder.body = 403, _record("Failed to verify JWT token", "AuthTokenInvalid")
    with pytest.raises(AuthTokenInvalidError):
        faucet.fund(ADDRESS, wait=False)
    recorder.status, recorder.body = 200, json.dumps({"txn_hashes": [HASH]}).encode()
    faucet.fund(ADDRESS, wait=False)
    assert recorder.requests[-1].headers["authorization"] == "Bearer second-token"


# -- the async twin ---------------------------------------------------------------------------


class AsyncFakeNode(FakeNode):
    async def account_balance(self, address: Any, asset: str) -> Any:  # type: ignore[override]
        return FakeNode.account_balance(self, address, asset)

    async def wait_for_transaction(self, txn_hash: str, *, timeout: float) -> Any:  # type: ignore[override]
        return FakeNode.wait_for_transaction(self, txn_hash, timeout=timeout)


def test_the_async_client_does_the_same() -> None:
    async def main() -> None:
        recorder = Recorder(200, json.dumps({"txn_hashes": [HASH]}).encode())

        async def source() -> str:
            return TOKEN

        async with AsyncFaucetClient(
            URL, token=source, node=AsyncFakeNode([1, 2]), transport=httpx.MockTransport(recorder)
        ) as faucet:
            funding = await faucet.fund(ADDRESS)
            assert (funding.balance_before, funding.balance_after) == (1, 2)
            assert recorder.requests[0].headers["x-is-jwt"] == "true"
            assert await faucet.is_eligible(ADDRESS) is True
        limited = Recorder(429, _record("Rejected", "Rejected"), {"Retry-After": "7"})
        async with AsyncFaucetClient(
            URL, token=TOKEN, transport=httpx.MockTransport(limited)
        ) as faucet:
            with pytest.raises(FaucetRateLimitedError) as info:
                await faucet.fund(ADDRESS, wait=False)
            assert info.value.retry_after == 7.0

    asyncio.run(main())
