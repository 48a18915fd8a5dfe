"""Bodies that are not what was promised: truncated JSON, HTML error pages, empty bodies
and wrong shapes all raise DecodingError (a LedgerError) quoting the start of the body."""

from __future__ import annotations

import json
from typing import Any

import pytest
from model_samples import LEDGER_INFO, STATE_CHECKPOINT, user_transaction

from ledgerkit import DecodingError, LedgerError
from ledgerkit import models as m

NGINX_502 = (
    b"<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    b"<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n"
    b"</body>\r\n</html>\r\n"
)
PAGE = json.dumps([STATE_CHECKPOINT, user_transaction()]).encode()

DECODERS = [
    m.decode_transactions,
    m.decode_transaction,
    m.decode_block,
    m.decode_events,
    m.decode_resources,
    m.decode_resource,
    m.decode_modules,
    m.decode_module,
    m.decode_account,
    m.decode_ledger_info,
    m.decode_gas_estimate,
    m.decode_view,
    m.decode_balance,
]


def _assert_not_json(decoder: Any, body: bytes) -> None:
    with pytest.raises(DecodingError) as caught:
        decoder(body)
    error = caught.value
    assert isinstance(error, LedgerError)
    assert "not JSON" in str(error)
    start = body[:20].decode("utf-8", "replace")
    assert start in error.snippet
    assert repr(error.snippet) in str(error)


@pytest.mark.parametrize("decoder", DECODERS, ids=lambda d: d.__name__)
@pytest.mark.parametrize(
    "body",
    [NGINX_502, b"Internal Server Error", b"\xff\xfe{not utf-8"],
    ids=["html", "plain-text", "binary"],
)
def test_bodies_that_are_not_json(decoder: Any, body: bytes) -> None:
    _assert_not_json(decoder, body)


@pytest.mark.parametrize(
    ("decoder", "whole"),
    [
        (m.decode_transactions, PAGE),
        (m.decode_transaction, json.dumps(user_transaction()).encode()),
        (m.decode_ledger_info, json.dumps(LEDGER_INFO).encode()),
        (m.decode_view, b'["1", {"vec": ["340282366920938463463374607431768211455"]}]'),
    ],
    ids=lambda v: getattr(v, "__name__", "body"),
)
@pytest.mark.parametrize("keep", [0.1, 0.5, 0.99])
def test_truncated_bodies(decoder: Any, whole: bytes, keep: float) -> None:
    _assert_not_json(decoder, whole[: int(len(whole) * keep)])


def test_the_message_says_what_was_expected_and_what_came_back() -> None:
    with pytest.raises(DecodingError) as caught:
        m.decode_transactions(NGINX_502)
    message = str(caught.value)
    assert message.startswith("expected list[Transaction]: the body is not JSON")
    assert "<html>" in message
    assert "502 Bad Gateway" in message
    with pytest.raises(
        DecodingError,
        match=r"expected Transaction: the body is not JSON \(Input data was truncated\)",
    ):
        m.decode_transaction(json.dumps(user_transaction())[:-1])


@pytest.mark.parametrize("body", [b"", b"   \n"])
def test_an_empty_body(body: bytes) -> None:
    with pytest.raises(DecodingError, match="got an empty body"):
        m.decode_ledger_info(body)


def test_a_long_body_is_quoted_only_at_its_start() -> None:
    body = b"<html>" + b"x" * 100_000
    with pytest.raises(DecodingError) as caught:
        m.decode_block(body)
    assert len(caught.value.snippet) == m._decode.SNIPPET_CHARS
    assert len(str(caught.value)) < 600


@pytest.mark.parametrize(
    ("decoder", "body", "problem"),
    [
        (m.decode_transactions, b'{"type": "user_transaction"}', "Expected `array`, got `object`"),
        (m.decode_ledger_info, b"[]", "Expected `object`, got `array`"),
        (
            m.decode_ledger_info,
            json.dumps({**LEDGER_INFO, "node_role": 3}).encode(),
            r"`\$\.node_role`",
        ),
        (
            m.decode_ledger_info,
            json.dumps({k: v for k, v in LEDGER_INFO.items() if k != "epoch"}).encode(),
            "missing required field `epoch`",
        ),
        (
            m.decode_transactions,
            json.dumps([STATE_CHECKPOINT, {**user_transaction(), "hash": 5}]).encode(),
            r"`\$\[1\]\.hash`",
        ),
        (m.decode_transactions, json.dumps([STATE_CHECKPOINT, None]).encode(), "string `type`"),
        (m.decode_transaction, b'"0x1"', "string `type`"),
        (
            m.decode_events,
            b'[{"guid": {}, "sequence_number": "1", "type": "t", "data": 1}]',
            "creation_number",
        ),
        (m.decode_block, b'{"block_height": "1"}', "missing required field"),
        (
            m.decode_account,
            b'{"sequence_number": "12.5x", "authentication_key": "0x"}',
            "sequence_number",
        ),
        (m.decode_view, b'{"0": 1}', "Expected `array`"),
    ],
)
def test_wrong_shapes(decoder: Any, body: bytes, problem: str) -> None:
    with pytest.raises(DecodingError, match=problem) as caught:
        decoder(body)
    assert "the JSON does not fit" in str(caught.value)
    assert caught.value.snippet == body[:160].decode()


def test_decoding_takes_text_and_buffers_too() -> None:
    text = json.dumps(LEDGER_INFO)
    expected = m.decode_ledger_info(text.encode())
    assert m.decode_ledger_info(text) == expected
    assert m.decode_ledger_info(bytearray(text.encode())) == expected
    assert m.decode_ledger_info(memoryview(text.encode())) == expected
