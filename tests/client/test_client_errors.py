"""Failures become the right class of ledgerkit's error tree, with everything the node said.

One test per ``error_code``; pruning; bodies that are not what was promised; transport
failures; bad input refused before anything is sent; the API key kept out of sight.
"""

from __future__ import annotations

import logging
from pathlib import Path

import httpx
import pytest
from client_fakes import (
    ACCOUNT,
    ADDRESS,
    LEDGER_INFO,
    META,
    FakeClock,
    FakeNode,
    answer,
    error,
)

from ledgerkit import (
    BlockPrunedError,
    DecodingError,
    ErrorCode,
    InputError,
    InvalidAddressError,
    InvalidHexError,
    InvalidIntegerError,
    MoveTypeSyntaxError,
    NodeAPIError,
    PrunedError,
    RequestTimeoutError,
    ServerError,
    TransportError,
    VersionPrunedError,
    VMError,
)
from ledgerkit.bcs import EntryFunction, RawTransaction
from ledgerkit.client import Client
from ledgerkit.tx import Ed25519PrivateKey

ACCOUNT_PATH = f"/accounts/{ADDRESS}"
ACCOUNT_URL = f"GET http://node.test/v1{ACCOUNT_PATH}"


@pytest.mark.parametrize("code", list(ErrorCode))
@pytest.mark.parametrize("prefix", ["X-NODE-", "X-APTOS-"])
def test_each_error_code_becomes_its_class_with_everything_the_node_said(
    code: ErrorCode, prefix: str
) -> None:
    node = FakeNode()
    vm = 4016 if code is ErrorCode.VM_ERROR else None
    message = f"the node says {code.value}"
    node.on("GET", ACCOUNT_PATH, error(code.status, code.value, message, vm_error_code=vm,
                                       prefix=prefix))  # fmt: skip
    with pytest.raises(NodeAPIError) as info:
        node.client(retries=0).account(ADDRESS)
    err = info.value
    assert type(err) is code.error_class
    assert (err.status, err.error_code, err.vm_error_code) == (code.status, code.value, vm)
    assert err.message == message
    assert err.ledger == META
    assert err.request == ACCOUNT_URL
    assert message in str(err)
    assert ACCOUNT_URL in str(err)


def test_a_rejected_submission_keeps_the_vm_error_code() -> None:
    node = FakeNode()
    node.on(
        "POST", "/transactions", error(400, "vm_error", "INSUFFICIENT_BALANCE", vm_error_code=5)
    )
    key = Ed25519PrivateKey.from_seed(b"errors")
    raw = RawTransaction(key.address(), 0, EntryFunction.build("0x1::m::f"), 10, 100, 1, 4)
    with pytest.raises(VMError) as info:
        node.client().submit_transaction(key.sign_transaction(raw))
    assert info.value.vm_error_code == 5
    assert "(vm_error_code 5)" in str(info.value)


@pytest.mark.parametrize(
    ("code", "cls"), [("version_pruned", VersionPrunedError), ("block_pruned", BlockPrunedError)]
)
def test_410_is_pruned_and_says_what_is_still_held(code: str, cls: type[PrunedError]) -> None:
    node = FakeNode()
    node.on("GET", "/blocks/by_height/3", error(410, code, "pruned"))
    node.on("GET", "/transactions/by_version/3", error(410, code, "pruned"))
    client = node.client()
    for call in (lambda: client.block_by_height(3), lambda: client.transaction_by_version(3)):
        with pytest.raises(cls) as info:
            call()
        assert isinstance(info.value, PrunedError)
        assert info.value.oldest_version == META.oldest_ledger_version == 100
        assert info.value.oldest_block_height == META.oldest_block_height == 20


def test_a_410_with_an_unknown_code_is_still_pruned() -> None:
    node = FakeNode()
    node.on("GET", "/transactions/by_version/3", error(410, "data_gone", "gone"))
    with pytest.raises(PrunedError) as info:
        node.client().transaction_by_version(3)
    assert info.value.error_code == "data_gone"
    assert info.value.oldest_version == 100


def test_an_error_without_headers_or_record_keeps_the_status() -> None:
    node = FakeNode()
    html = b"<html><body>502 Bad Gateway</body></html>"
    node.on("GET", "/", answer(None, status=502, raw=html, meta=None, content_type="text/html"))
    with pytest.raises(ServerError) as info:
        node.client(retries=0).ledger_info()
    assert info.value.status == 502
    assert info.value.ledger is None
    assert "502 Bad Gateway" in info.value.message


# -- answers that are not what was promised ----------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "content_type", "says"),
    [
        (b"<html>maintenance</html>", "text/html", "text/html"),
        (b'{"chain_id": 2, "epoch": "7", "ledger_ver', "application/json", "ledger_ver"),
        (b"", "application/json", "empty body"),
        (b'{"chain_id": 2}', "application/json", "does not fit"),
        (b'{"chain_id": "two"}', "application/json", "does not fit"),
    ],
)
def test_a_bad_success_body_is_a_decoding_error_saying_what_came_back(
    raw: bytes, content_type: str, says: str
) -> None:
    node = FakeNode()
    node.on("GET", "/", answer(None, raw=raw, content_type=content_type))
    with pytest.raises(DecodingError) as info:
        node.client().ledger_info()
    text = str(info.value)
    assert says in text
    assert "GET http://node.test/v1/" in text
    assert info.value.status == 200


def test_a_success_without_ledger_headers_is_a_decoding_error() -> None:
    node = FakeNode()
    node.on("GET", "/", answer(LEDGER_INFO, meta=None))
    with pytest.raises(DecodingError, match="no ledger headers"):
        node.client().ledger_info()


def test_json_where_bcs_was_asked_is_a_decoding_error() -> None:
    node = FakeNode()
    node.on("GET", f"{ACCOUNT_PATH}/module/coin", answer({"bytecode": "0x00"}))
    with pytest.raises(DecodingError, match="expected application/x-bcs"):
        node.client().account_module_bytecode(ADDRESS, "coin")


def test_a_submission_answered_with_a_committed_transaction_is_a_decoding_error() -> None:
    from client_fakes import user_transaction

    node = FakeNode()
    node.on("POST", "/transactions", answer(user_transaction(5), status=202))
    key = Ed25519PrivateKey.from_seed(b"errors")
    raw = RawTransaction(key.address(), 0, EntryFunction.build("0x1::m::f"), 10, 100, 1, 4)
    with pytest.raises(DecodingError, match=r"PendingTransaction.*user_transaction"):
        node.client().submit_transaction(key.sign_transaction(raw))


# -- transport failures ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raised", "expected"),
    [
        (httpx.ConnectError("connection refused"), TransportError),
        (httpx.ReadError("connection reset by peer"), TransportError),
        (httpx.RemoteProtocolError("peer closed connection"), TransportError),
        (httpx.ReadTimeout("timed out"), RequestTimeoutError),
        (httpx.ConnectTimeout("timed out"), RequestTimeoutError),
    ],
)
def test_transport_failures_are_ours_never_httpx(
    raised: httpx.HTTPError, expected: type[TransportError]
) -> None:
    def fail(request: httpx.Request) -> httpx.Response:
        raise raised

    client = Client("http://node.test/v1", transport=httpx.MockTransport(fail), retries=0)
    with pytest.raises(expected) as info:
        client.ledger_info()
    assert not isinstance(info.value, httpx.HTTPError)
    assert "GET http://node.test/v1/" in str(info.value)


# -- bad input, refused before sending ---------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda c: c.account("0xnothex"), InvalidAddressError),
        (lambda c: c.account(ADDRESS, ledger_version=-1), InvalidIntegerError),
        (lambda c: c.account(ADDRESS, ledger_version=1.5), InvalidIntegerError),
        (lambda c: c.account_resources(ADDRESS, limit=0), InvalidIntegerError),
        (lambda c: c.account_resources(ADDRESS, limit=70000), InvalidIntegerError),
        (lambda c: c.account_resource(ADDRESS, "u64"), MoveTypeSyntaxError),
        (lambda c: c.account_resource(ADDRESS, "0x1::coin::"), MoveTypeSyntaxError),
        (lambda c: c.account_module(ADDRESS, "no-such name"), InputError),
        (lambda c: c.events_by_handle(ADDRESS, "0x1::a::B", "bad field"), InputError),
        (lambda c: c.transaction_by_hash("0x1234"), InvalidHexError),
        (lambda c: c.transaction_by_hash("zz" * 32), InvalidHexError),
        (lambda c: c.transaction_by_version(2**64), InvalidIntegerError),
        (lambda c: c.health(duration_secs=2**32), InvalidIntegerError),
        (lambda c: c.view_json("0x1::coin", [], []), MoveTypeSyntaxError),
        (lambda c: c.view_json("0x1::coin::balance", [], "0x1"), InputError),
        (lambda c: c.view_json("0x1::coin::balance", [], [object()]), InputError),
        (lambda c: c.table_item("0x1", "u8", "not a type!", 1), MoveTypeSyntaxError),
        (lambda c: c.raw_table_item("0x1", "0xabc"), InvalidHexError),
        (lambda c: c.iter_events(ADDRESS), InputError),
        (lambda c: c.iter_events(ADDRESS, 1, event_handle="0x1::a::B", field_name="f"),
         InputError),
        (lambda c: c.iter_events(ADDRESS, event_handle="0x1::a::B"), InputError),
        (lambda c: c.iter_account_resources("nope"), InvalidAddressError),
        (lambda c: c.submit_transaction(b"\x00"), InputError),
        (lambda c: c.submit_transaction({"sender": "0x1"}), InputError),
        (lambda c: c.encode_submission(b"\x00"), InputError),
        (lambda c: c.simulate_transaction(_raw()), InputError),
        (lambda c: c.simulate_transaction(_raw(), public_key=b"short"), InputError),
        (lambda c: c.encode_submission([1, 2]), InputError),
        (lambda c: c.block_by_height(1, with_transactions="yes"), InputError),
    ],
)  # fmt: skip
def test_bad_input_is_refused_before_anything_is_sent(call: object, expected: type) -> None:
    node = FakeNode()
    client = node.client()
    with pytest.raises(expected):
        call(client)  # type: ignore[operator]
    assert node.requests == []


def _raw() -> RawTransaction:
    key = Ed25519PrivateKey.from_seed(b"errors")
    return RawTransaction(key.address(), 0, EntryFunction.build("0x1::m::f"), 10, 100, 1, 4)


@pytest.mark.parametrize(
    "options",
    [
        {"timeout": 0},
        {"timeout": -1},
        {"max_rps": 0},
        {"max_concurrency": 0},
        {"retries": -1},
        {"api_key": ""},
        {"cache": 3},
    ],
)
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="must"):  # InputError is a ValueError, as is Retry's
        Client("http://node.test/v1", **options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "url",
    ["", "node.test/v1", "ftp://node.test/v1", "http://n/v1?x=1", "https://me:secret@n/v1"],
)
def test_bad_base_urls_are_refused(url: str) -> None:
    with pytest.raises(InputError):
        Client(url)


def test_a_base_url_without_a_path_gets_v1() -> None:
    assert Client("HTTP://Node.Test:8080/", cache=False).base_url == "http://node.test:8080/v1"


# -- the API key stays out of sight -----------------------------------------------------------

SECRET = "sk-live-do-not-print-0123456789"


def test_the_api_key_is_sent_as_a_bearer_token_and_never_shown(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="ledgerkit")
    node = FakeNode()
    node.on("GET", "/", answer(LEDGER_INFO))
    node.on("GET", ACCOUNT_PATH, error(404, "account_not_found", "no account"))
    node.on("GET", "/estimate_gas_price", error(503, "internal_error", "busy"))
    client = node.client(api_key=SECRET, retries=1, clock=FakeClock())
    client.ledger_info()
    assert node.requests[0].headers["authorization"] == f"Bearer {SECRET}"
    with pytest.raises(NodeAPIError) as not_found:
        client.account(ADDRESS)
    with pytest.raises(NodeAPIError) as busy:
        client.estimate_gas_price()
    shown = [repr(client), str(client), str(not_found.value), str(busy.value), caplog.text,
             repr(not_found.value.__reduce__()), repr(client.config)]  # fmt: skip
    assert caplog.text  # the retry was logged
    for text in shown:
        assert SECRET not in text
    assert "api_key=<redacted>" in repr(client)


def test_a_token_in_the_url_path_is_sent_but_never_shown(
    caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """Hosted nodes often take their access token as a path segment: it reaches the node,
    and no repr, log line, error or cache entry writes it."""
    caplog.set_level(logging.DEBUG, logger="ledgerkit")
    token = "tok-" + "7f" * 16
    sent: list[str] = []

    def node(request: httpx.Request) -> httpx.Response:
        sent.append(request.url.path)
        path = request.url.path.removeprefix(f"/{token}/v1")
        if path in ("", "/"):
            return answer(LEDGER_INFO)
        if path == ACCOUNT_PATH and request.url.params.get("ledger_version"):
            return answer(ACCOUNT)
        if path == ACCOUNT_PATH:
            return error(404, "account_not_found", "no account")
        return error(503, "internal_error", "busy")

    client = Client(
        f"https://node.test/{token}/v1",
        transport=httpx.MockTransport(node),
        retries=1,
        clock=FakeClock(),
        cache=tmp_path / "answers.sqlite3",
    )
    client.account(ADDRESS, ledger_version=1)  # cached
    with pytest.raises(NodeAPIError) as not_found:
        client.account(ADDRESS)
    with pytest.raises(NodeAPIError) as busy:
        client.estimate_gas_price()
    client.close()
    assert all(path.startswith(f"/{token}/v1") for path in sent)
    shown = [repr(client), str(not_found.value), str(busy.value), caplog.text,
             repr(client.config), not_found.value.request or ""]  # fmt: skip
    for text in shown:
        assert token not in text
    assert "https://node.test/***/v1" in repr(client)
    assert "GET https://node.test/***/v1/accounts/" in str(not_found.value)
    assert token.encode() not in (tmp_path / "answers.sqlite3").read_bytes()
    wal = tmp_path / "answers.sqlite3-wal"
    assert not wal.exists() or token.encode() not in wal.read_bytes()


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://fullnode.mainnet.example/v1", "https://fullnode.mainnet.example/v1"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080/v1"),
        ("https://x.example/abc/def/v1", "https://x.example/***/v1"),
    ],
)
def test_how_a_base_url_is_shown(url: str, shown: str) -> None:
    assert Client(url, cache=False).config.shown_base_url == shown
