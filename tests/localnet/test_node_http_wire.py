"""The node over raw sockets: requests that do not parse as HTTP still get the node's
error record and ledger headers, not the server's plain-text page."""

from __future__ import annotations

import json
import socket
import time
from typing import Any
from urllib.parse import urlsplit

import pytest

from ledgerkit.localnet import LocalNode

LEDGER = (
    "CHAIN-ID",
    "LEDGER-VERSION",
    "LEDGER-OLDEST-VERSION",
    "LEDGER-TIMESTAMPUSEC",
    "EPOCH",
    "BLOCK-HEIGHT",
    "OLDEST-BLOCK-HEIGHT",
)
#: Most bytes read back from one answer.
_MAX_ANSWER = 1 << 20


def exchange(node: LocalNode, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` as is; the status, headers (lower-cased names) and body."""
    address = urlsplit(node.url)
    assert address.hostname is not None
    assert address.port is not None
    with socket.create_connection((address.hostname, address.port), timeout=30) as sock:
        sock.sendall(request)
        received = b""
        while len(received) < _MAX_ANSWER:
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), headers, body


def assert_record(status: int, headers: dict[str, str], body: bytes, expected: int) -> Any:
    assert status == expected, body[:300]
    assert headers["content-type"].startswith("application/json")
    record = json.loads(body)
    assert record["error_code"] == "web_framework_error"
    assert record["message"].strip()
    for name in LEDGER:
        assert headers[f"x-node-{name.lower()}"].isdigit(), name
        assert headers[f"x-aptos-{name.lower()}"] == headers[f"x-node-{name.lower()}"]
    return record


UNPARSABLE = [
    pytest.param(b"GET /v1/\xc3\xa9 HTTP/1.1\r\nHost: x\r\n\r\n", "path", id="non-ascii path"),
    pytest.param(b"GET /v1/?x=\xff HTTP/1.1\r\nHost: x\r\n\r\n", "query", id="non-ascii query"),
    pytest.param(b"BREW /v1/ HTTP/1.1\r\nHost: x\r\n\r\n", "method", id="unknown method"),
    pytest.param(
        b"POST /v1/view HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
        "content-length",
        id="negative content-length",
    ),
    pytest.param(b"GARBAGE\r\n\r\n", "method", id="no request line"),
]


@pytest.mark.parametrize(("request_bytes", "says"), UNPARSABLE)
def test_unparsable_requests_get_the_error_record(
    node: LocalNode, request_bytes: bytes, says: str
) -> None:
    record = assert_record(*exchange(node, request_bytes), expected=400)
    assert says in record["message"].lower()


def test_a_request_line_over_64_kib_gets_the_error_record(node: LocalNode) -> None:
    request = b"GET /v1/" + b"a" * 70_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    record = assert_record(*exchange(node, request), expected=414)
    assert "too long" in record["message"]
    assert len(record["message"]) < 500


def test_the_node_answers_normally_after_a_refusal(node: LocalNode) -> None:
    exchange(node, b"BREW / HTTP/1.1\r\n\r\n")
    status, headers, body = exchange(
        node, b"GET /v1/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    assert status == 200
    assert json.loads(body)["chain_id"] == int(headers["x-aptos-chain-id"])


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        (b"PUT", b"/v1/transactions", {"GET", "HEAD", "POST"}),
        (b"DELETE", b"/v1/view", {"POST"}),
        (b"PATCH", b"/v1/accounts/0x1", {"GET", "HEAD"}),
    ],
)
def test_405_over_the_wire_carries_allow(
    node: LocalNode, method: bytes, path: bytes, allowed: set[str]
) -> None:
    request = method + b" " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    status, headers, body = exchange(node, request)
    assert_record(status, headers, body, expected=405)
    assert {m.strip() for m in headers["allow"].split(",")} == allowed


def test_an_idle_keep_alive_connection_outlives_a_clients_own_expiry(node: LocalNode) -> None:
    """httpx drops an idle connection after 5 s; had the node closed it first, a request sent
    on it at that moment would be answered by a connection reset."""
    address = urlsplit(node.url)
    assert address.hostname is not None
    assert address.port is not None
    request = b"GET /v1/ HTTP/1.1\r\nHost: x\r\n\r\n"
    with socket.create_connection((address.hostname, address.port), timeout=30) as sock:
        for _ in range(2):
            sock.sendall(request)
            received = b""
            while b"\r\n\r\n" not in received:
                chunk = sock.recv(65536)
                assert chunk, "the node closed the idle connection"
                received += chunk
            head, _, body = received.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200"), head
            length = next(
                int(line.split(b":")[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length:")
            )
            while len(body) < length:
                body += sock.recv(65536)
            assert json.loads(body)["chain_id"] >= 1
            time.sleep(6)  # longer than httpx's keep-alive expiry


def test_bytes_that_are_not_http_are_answered_and_print_nothing(
    node: LocalNode, caplog: pytest.LogCaptureFixture
) -> None:
    """A ZeroMQ socket left reconnecting to a port the node now holds (a notebook kernel's
    client, for one) sends its greeting several times a second: each gets the record, and
    none reaches the notebook or terminal running the node as a warning."""
    zmtp_greeting = b"\xff\x00\x00\x00\x00\x00\x00\x00\x01\x7f"
    with caplog.at_level("WARNING"):
        for _ in range(5):
            assert_record(*exchange(node, zmtp_greeting), expected=400)
    assert [record.getMessage() for record in caplog.records] == []
