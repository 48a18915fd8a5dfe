"""``balance_changes_to_frame``: the exact balance change of every account and asset in
every transaction, genesis included, one asset key with the holdings.

On the default embedded chain (seed 0, 360 blocks: APT, the demo token LDT and four
assets of issuers that publish their modules) the changes summed from genesis are
checked against balances read from the node at the head, one ``/balance`` request per
account and asset; hand-written transactions check what that chain does not have
(changes beyond ``Int64`` and ``UInt64``, unknown stores)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from typing import Any, Final

import httpx
import pandas as pd
import pytest
from user_transactions import APT, RECIPIENT, SENDER, coin_event, decoded, user_transaction

import ledgerkit
from ledgerkit import InputError
from ledgerkit.frames import (
    balance_changes_to_frame,
    holdings_to_frame,
    schema_of,
    wide_to_ints,
)
from ledgerkit.keys import Ed25519PrivateKey
from ledgerkit.localnet import LocalNode
from ledgerkit.models import decode_transactions

APT_KEY: Final = "0x" + "00" * 31 + "0a"
#: The demo token: a named object of 0x1, SHA3-256(0x1 ‖ "ledgerkit::demo_token" ‖ 0xFE).
LDT_KEY: Final = "0x" + hashlib.sha3_256(bytes(31) + b"\x01ledgerkit::demo_token\xfe").hexdigest()
#: The day's issuers' assets: each the named object of its issuer (workload accounts
#: 14..17, whose addresses are their keys' authentication keys) whose seed is the symbol.
ISSUED_KEYS: Final = {
    "0x"
    + hashlib.sha3_256(
        hashlib.sha3_256(
            Ed25519PrivateKey.from_seed(f"ledgerkit-localnet:workload:0:{index}").public_key_bytes
            + b"\x00"
        ).digest()
        + symbol
        + b"\xfe"
    ).hexdigest()
    for index, symbol in ((14, b"LUSD"), (15, b"GEM"), (16, b"ORBIT"), (17, b"QRTZ"))
}
ALICE: Final = SENDER
BOB: Final = RECIPIENT


@pytest.fixture(scope="module")
def chain(make_node: Callable[..., LocalNode]) -> Iterator[tuple[ledgerkit.Client, list[Any]]]:
    """The default chain, on a node of this module's own, and all its transactions."""
    node = make_node(services=False)
    with ledgerkit.Client(node.url, cache=False) as client:
        head = client.ledger_info().value.ledger_version
        txs: list[Any] = []
        while len(txs) <= head:
            txs += client.transactions(start=len(txs), limit=100).value
        yield client, txs[: head + 1]


def test_from_genesis_every_account_and_asset_sums_to_its_balance_at_the_head(
    chain: tuple[ledgerkit.Client, list[Any]],
) -> None:
    client, txs = chain
    head = txs[-1].version
    frame = balance_changes_to_frame(txs)
    assert schema_of(frame) == schema_of(balance_changes_to_frame([]))
    # Every change is named: an account and one of the chain's assets (APT, LDT and the
    # four assets its issuers publish modules for).
    assert set(frame["asset"]) == {APT_KEY, LDT_KEY, *ISSUED_KEYS}
    assert frame["asset"].notna().all()
    assert frame.loc[frame["asset"] == APT_KEY, "coin_type"].unique().tolist() == [APT]
    assert frame.loc[frame["asset"] == LDT_KEY, "coin_type"].isna().all()
    assert (frame["metadata"].astype(str) == frame["asset"].astype(str)).all()
    # Genesis funds the accounts; every kind of transaction after it is seen.
    assert 0 in set(frame["version"])
    sums = frame.groupby(["address", "asset"], observed=True)["delta"].sum()
    assert len(sums) > 100
    for (address, asset), total in sums.items():
        named = APT if asset == APT_KEY else asset
        balance = client.account_balance(address, named, ledger_version=head).value
        assert total == balance, (address, asset)


def test_the_key_joins_the_holdings_of_an_account(
    chain: tuple[ledgerkit.Client, list[Any]],
) -> None:
    client, txs = chain
    head = txs[-1].version
    frame = balance_changes_to_frame(txs)
    account = frame["address"].iloc[-1]  # the last account a transaction paid or paid out
    held = holdings_to_frame(client.account_assets(account, ledger_version=head))
    mine = frame[frame["address"] == account]
    summed = mine.groupby("asset", observed=True)["delta"].sum().rename("summed")
    joined = held.set_index("asset").join(summed, how="inner")
    assert set(joined.index) == set(held["asset"])
    assert joined["balance"].tolist() == joined["summed"].tolist()


def test_it_takes_what_the_client_returns(chain: tuple[ledgerkit.Client, list[Any]]) -> None:
    client, _ = chain
    result = client.transactions(start=0, limit=100)
    frame = balance_changes_to_frame(result)
    pd.testing.assert_frame_equal(frame, balance_changes_to_frame(result.value))
    body = httpx.get(f"{client.config.base_url}/transactions?start=0&limit=100").content
    pd.testing.assert_frame_equal(frame, balance_changes_to_frame(body))
    pd.testing.assert_frame_equal(frame, balance_changes_to_frame(json.loads(body)))
    pd.testing.assert_frame_equal(frame, balance_changes_to_frame(decode_transactions(body)))
    with pytest.raises(InputError, match="balance_changes_to_frame"):
        balance_changes_to_frame(5)  # type: ignore[arg-type]


# -- hand-written transactions -------------------------------------------------------------


@pytest.mark.parametrize("amount", [2**53 + 1, 2**63, 2**64 - 1])
def test_changes_stay_exact_past_int64_and_uint64(amount: int) -> None:
    deposit = coin_event("Deposit", BOB, amount)
    txn = decoded(user_transaction([deposit, deposit], gas_used=2))
    frame = balance_changes_to_frame([txn])
    assert frame[["address", "asset", "coin_type", "delta"]].to_dict("records") == [
        {"address": BOB, "asset": APT_KEY, "coin_type": APT, "delta": 2 * amount},
        {"address": ALICE, "asset": APT_KEY, "coin_type": APT, "delta": -200},
    ]
    assert wide_to_ints(frame["delta"]) == [2 * amount, -200]
    assert frame["delta"].sum() == 2 * amount - 200
    assert int(frame["delta"].sum()) == 2 * amount - 200


def test_no_input_gives_the_same_columns() -> None:
    empty = balance_changes_to_frame([])
    assert len(empty) == 0
    assert schema_of(empty) == {
        "version": "UInt64",
        "address": "category",
        "asset": "category",
        "coin_type": "category",
        "metadata": "category",
        "delta": "decimal128(20, 0)[pyarrow]",
    }
