"""LedgerMeta: the ledger position every response carries in its headers."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledgerkit import LedgerMeta
from ledgerkit.types import U64_MAX

REQUIRED = {
    "CHAIN-ID": "4",
    "LEDGER-VERSION": "123456",
    "LEDGER-OLDEST-VERSION": "1000",
    "LEDGER-TIMESTAMPUSEC": "1700000000000000",
    "EPOCH": "12",
    "BLOCK-HEIGHT": "4567",
    "OLDEST-BLOCK-HEIGHT": "89",
}
EXPECTED = LedgerMeta(
    chain_id=4,
    ledger_version=123456,
    oldest_ledger_version=1000,
    ledger_timestamp_usec=1700000000000000,
    epoch=12,
    block_height=4567,
    oldest_block_height=89,
)


def headers(prefix: str = "X-NODE-", **extra: str) -> dict[str, str]:
    found = {prefix + name: value for name, value in REQUIRED.items()}
    found.update({prefix + name.replace("_", "-"): value for name, value in extra.items()})
    return found


@pytest.mark.parametrize(
    "prefix", ["X-NODE-", "X-APTOS-", "x-node-", "x-aptos-", "X-Node-", "x-Aptos-"]
)
def test_reads_node_and_aptos_headers_in_any_case(prefix: str) -> None:
    assert LedgerMeta.from_headers(headers(prefix)) == EXPECTED


def test_key_case_may_differ_header_by_header() -> None:
    mixed = {
        (key.lower() if i % 2 else key): value for i, (key, value) in enumerate(headers().items())
    }
    assert LedgerMeta.from_headers(mixed) == EXPECTED


def test_optional_headers_default_to_none() -> None:
    meta = LedgerMeta.from_headers(headers())
    assert meta is not None
    assert meta.gas_used is None
    assert meta.cursor is None
    assert meta.txn_encryption_key is None


def test_optional_headers_are_read() -> None:
    meta = LedgerMeta.from_headers(
        headers(GAS_USED="17", CURSOR="0x0a0b", TXN_ENCRYPTION_KEY="0xdeadbeef")
    )
    assert meta == dataclasses.replace(
        EXPECTED, gas_used=17, cursor="0x0a0b", txn_encryption_key="0xdeadbeef"
    )


def test_unrelated_headers_are_ignored() -> None:
    found = headers()
    found.update({"Content-Type": "application/json", "X-Request-Id": "abc", "X-NODE": "1"})
    assert LedgerMeta.from_headers(found) == EXPECTED


@pytest.mark.parametrize("missing", sorted(REQUIRED))
def test_a_missing_required_header_gives_none(missing: str) -> None:
    found = headers()
    del found["X-NODE-" + missing]
    assert LedgerMeta.from_headers(found) is None


def test_no_headers_gives_none() -> None:
    assert LedgerMeta.from_headers({}) is None
    assert LedgerMeta.from_headers({"Content-Type": "application/json"}) is None


@pytest.mark.parametrize("name", sorted(REQUIRED))
@pytest.mark.parametrize(
    "bad", ["", "abc", "1.5", "1e3", "-1", "+1", " 1", "1_0", "0x10", "\u0661", "9" * 5000]
)
def test_a_required_header_that_is_not_a_decimal_u64_gives_none(name: str, bad: str) -> None:
    found = headers()
    found["X-NODE-" + name] = bad
    assert LedgerMeta.from_headers(found) is None


def test_a_bad_gas_used_header_gives_none() -> None:
    assert LedgerMeta.from_headers(headers(GAS_USED="lots")) is None


def test_values_are_exact_u64() -> None:
    found = headers(GAS_USED=str(U64_MAX))
    found["X-NODE-LEDGER-VERSION"] = str(U64_MAX)
    found["X-NODE-LEDGER-TIMESTAMPUSEC"] = "9007199254740993"  # 2^53 + 1
    meta = LedgerMeta.from_headers(found)
    assert meta is not None
    assert meta.ledger_version == 18446744073709551615
    assert meta.ledger_timestamp_usec == 9007199254740993
    assert meta.gas_used == U64_MAX
    assert meta.to_headers()["X-NODE-LEDGER-VERSION"] == "18446744073709551615"


def test_to_headers_writes_the_spec_names() -> None:
    assert EXPECTED.to_headers() == headers()
    assert EXPECTED.to_headers("X-APTOS-") == headers("X-APTOS-")


def test_to_headers_round_trips_with_optional_fields() -> None:
    meta = dataclasses.replace(EXPECTED, gas_used=0, cursor="0x00", txn_encryption_key="0x01")
    written = meta.to_headers()
    assert written["X-NODE-GAS-USED"] == "0"
    assert written["X-NODE-CURSOR"] == "0x00"
    assert written["X-NODE-TXN-ENCRYPTION-KEY"] == "0x01"
    assert LedgerMeta.from_headers(written) == meta


def test_ledger_meta_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        EXPECTED.ledger_version = 1  # type: ignore[misc]


u64 = st.integers(min_value=0, max_value=U64_MAX)
optional_text = st.none() | st.text(alphabet="0123456789abcdef", min_size=1, max_size=40).map(
    lambda digits: "0x" + digits
)


@settings(max_examples=200, deadline=None)
@given(
    meta=st.builds(
        LedgerMeta,
        chain_id=st.integers(min_value=0, max_value=255),
        ledger_version=u64,
        oldest_ledger_version=u64,
        ledger_timestamp_usec=u64,
        epoch=u64,
        block_height=u64,
        oldest_block_height=u64,
        gas_used=st.none() | u64,
        cursor=optional_text,
        txn_encryption_key=optional_text,
    ),
    prefix=st.sampled_from(["X-NODE-", "X-APTOS-", "x-node-", "x-aptos-"]),
)
def test_any_meta_round_trips_through_its_headers(meta: LedgerMeta, prefix: str) -> None:
    assert LedgerMeta.from_headers(meta.to_headers(prefix)) == meta
