"""A client's api key stays out of what the user sees: the log records of the HTTP
libraries under the client, and the error raised when a node echoes the bearer token.

Only public names are used: the key goes in through ``Client(api_key=...)``, the node is
an ``httpx.MockTransport``.
"""

from __future__ import annotations

import json
import logging
import pickle
import secrets

import httpx
import pytest

from ledgerkit import Client, LedgerError

URL = "https://node.test/v1"


def _key() -> str:
    """A key of this test's own, so no other client can have registered it."""
    return "sk-live-" + secrets.token_hex(16)


def _refusing_with_the_token(request: httpx.Request) -> httpx.Response:
    """A node that refuses the key, quoting the Authorization header it got."""
    record = {
        "message": f"invalid credentials: {request.headers['authorization']}",
        "error_code": "web_framework_error",
        "vm_error_code": None,
    }
    return httpx.Response(401, json=record)


@pytest.mark.parametrize("logger", ["httpx", "httpcore", "httpcore.http11"])
def test_a_record_quoting_the_key_is_emitted_without_it(
    caplog: pytest.LogCaptureFixture, logger: str
) -> None:
    key = _key()
    caplog.set_level(logging.DEBUG, logger=logger)
    with Client(URL, api_key=key, cache=False, retries=0):
        logging.getLogger(logger).debug("send_request_headers: Authorization: Bearer %s", key)
        logging.getLogger(logger).warning("refused %r", f"Bearer {key}")
    emitted = [record for record in caplog.records if record.name == logger]
    assert len(emitted) == 2
    for record in emitted:
        assert key not in record.getMessage()
        assert key not in caplog.handler.format(record)
    assert emitted[0].getMessage() == "send_request_headers: Authorization: Bearer ***"
    assert key not in caplog.text


def test_a_handler_of_the_users_own_sees_no_key() -> None:
    key = _key()
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(self.format(record))

    handler = Keep(logging.DEBUG)
    target = logging.getLogger("httpx")
    level = target.level
    target.addHandler(handler)
    target.setLevel(logging.DEBUG)
    try:
        with Client(URL, api_key=key, cache=False, retries=0):
            target.info("HTTP Request: GET %s?token=%s", URL, key)
    finally:
        target.removeHandler(handler)
        target.setLevel(level)
    assert seen == [f"HTTP Request: GET {URL}?token=***"]


def test_a_node_echoing_the_bearer_token_raises_an_error_without_it() -> None:
    key = _key()
    transport = httpx.MockTransport(_refusing_with_the_token)
    with (
        Client(URL, api_key=key, cache=False, retries=0, transport=transport) as client,
        pytest.raises(LedgerError) as raised,
    ):
        client.ledger_info()
    error = raised.value
    assert getattr(error, "status", None) == 401
    shown = [
        str(error),
        repr(error),
        repr(error.args),
        repr(getattr(error, "__notes__", [])),
        repr(vars(error)),
        repr(error.__reduce__()),
    ]
    for text in shown:
        assert key not in text
    assert "invalid credentials: Bearer ***" in str(error)
    assert key.encode() not in pickle.dumps(error)
    assert key not in json.dumps(vars(error), default=str)
