"""``ledgerkit.account_activity`` and ``ledgerkit.aaccount_activity``: what happened to an
account, reconciled (and the clients' deprecated ``account_activity``, which forwards).

On a node of this module's own, four fresh accounts are funded (received transfers of
APT and of the demo token LDT), then send to each other: plain transfers, one paid by a
fee payer, and one that aborts and still pays its gas. For each account and both assets,
the balance read from the node over plain HTTP at the end version must be the balance at
the start version plus the sum of the account's rows.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import httpx
import pandas as pd
import pytest

import ledgerkit
from ledgerkit import AsyncClient, Client, Ed25519PrivateKey, InputError
from ledgerkit.frames import ACTIVITY_COLUMNS, schema_of
from ledgerkit.localnet import LocalNode
from ledgerkit.models import FeePayerSignature
from ledgerkit.tx import sign_transaction

APT: Final = "0x1::aptos_coin::AptosCoin"
APT_KEY: Final = "0x" + "00" * 31 + "0a"
#: The demo token's metadata object: SHA3-256(0x1 ‖ "ledgerkit::demo_token" ‖ 0xFE).
LDT: Final = "0x" + hashlib.sha3_256(bytes(31) + b"\x01ledgerkit::demo_token\xfe").hexdigest()
#: The asset as the balance endpoint is asked for it, and its key in ``changes``.
ASSETS: Final = {APT: APT_KEY, LDT: LDT}


class Story:
    """What happened on the node: who, and between which versions."""

    def __init__(self, node: LocalNode) -> None:
        self.node = node
        self.keys: dict[str, Ed25519PrivateKey] = {}
        self.start = 0
        self.end = 0
        self.fee_payer_version = 0
        self.failed_version = 0


def _commit(client: Client, built: Any, sender: Any, **signers: Any) -> Any:
    return client.submit_and_wait(sign_transaction(built, sender, **signers)).value


@pytest.fixture(scope="module")
def story(make_node: Callable[..., LocalNode]) -> Story:
    node = make_node(seed=31, blocks=5, services=False)
    told = Story(node)
    names = ("alice", "bob", "carol", "dave")
    told.keys = {name: Ed25519PrivateKey.generate() for name in names}
    alice, bob, carol, dave = (told.keys[n] for n in names)
    funder = node.dev_accounts[3]
    with Client(node.url, cache=False) as client:
        # Received before the range: the balances at the start are not zero.
        for key in (alice, bob, carol):
            assert client.transfer(funder, key.address(), 5 * 10**8).value.success
            assert client.transfer(funder, key.address(), 70_000, asset=LDT).value.success
        told.start = client.ledger_info().value.ledger_version
        # Received inside the range, from a dev account and from each other.
        assert client.transfer(funder, dave.address(), 10**8).value.success
        assert client.transfer(alice, bob.address(), 1_234_567).value.success
        assert client.transfer(alice, carol.address(), 4_000, asset=LDT).value.success
        assert client.transfer(carol, dave.address(), 1_500, asset=LDT).value.success
        # Bob sends; Carol pays the gas.
        built = client.build_transaction(
            bob, "0x1::aptos_account::transfer", [dave.address(), 777], fee_payer=carol
        )
        paid = _commit(client, built, bob, fee_payer=carol)
        assert paid.success
        assert isinstance(paid.signature, FeePayerSignature)
        told.fee_payer_version = paid.version
        # Alice's transaction aborts: nothing moves but her gas.
        built = client.build_transaction(alice, "0x1::ledger_demo::fail_if", [7])
        failed = _commit(client, built, alice)
        assert not failed.success
        told.failed_version = failed.version
        assert client.transfer(dave, alice.address(), 99).value.success
        told.end = client.ledger_info().value.ledger_version
        # After the range: not counted.
        assert client.transfer(bob, alice.address(), 5).value.success
    return told


def _balance(node: LocalNode, address: object, asset: str, version: int) -> int:
    answer = httpx.get(
        f"{node.url}/accounts/{address}/balance/{asset}", params={"ledger_version": version}
    )
    assert answer.status_code == 200, answer.text
    return int(answer.json())


def _summed(rows: pd.DataFrame, key: str) -> int:
    return sum(int(json.loads(text).get(key, "0")) for text in rows["changes"])


def test_each_accounts_rows_reconcile_its_balances(story: Story, tmp_path: Path) -> None:
    with Client(story.node.url, cache=False) as client:
        for name, key in story.keys.items():
            rows = ledgerkit.account_activity(
                client,
                key.address(),
                start_version=story.start,
                end_version=story.end,
                dataset=tmp_path / "activity",
                progress=False,
            )
            assert schema_of(rows) == {c: str(t) for c, t in ACTIVITY_COLUMNS.items()}
            versions = rows["version"].tolist()
            assert versions == sorted(versions)
            assert len(set(versions)) == len(versions)
            assert all(story.start < v <= story.end for v in versions), name
            for asset, changes_key in ASSETS.items():
                before = _balance(story.node, key.address(), asset, story.start)
                after = _balance(story.node, key.address(), asset, story.end)
                assert after == before + _summed(rows, changes_key), (name, asset)


def test_roles_fees_and_the_failed_transaction(story: Story, tmp_path: Path) -> None:
    keys = story.keys
    with Client(story.node.url, cache=False) as client:

        def rows_of(name: str) -> pd.DataFrame:
            found = ledgerkit.account_activity(
                client,
                keys[name].address(),
                start_version=story.start,
                end_version=story.end,
                dataset=tmp_path,
                progress=False,
            )
            return found.set_index("version")

        paid = client.transaction_by_version(story.fee_payer_version).value
        failed = client.transaction_by_version(story.failed_version).value
    carol, bob, dave, alice = rows_of("carol"), rows_of("bob"), rows_of("dave"), rows_of("alice")
    fee = paid.gas_used * paid.gas_unit_price
    # The fee payer is charged the fee, the sender is not; the recipient received. The
    # payer's store is written (the fee), its group listed whole: its ObjectCore names
    # the payer as the owner.
    assert carol.loc[story.fee_payer_version, "roles"] == "fee_payer,write_set"
    assert carol.loc[story.fee_payer_version, "fee"] == fee
    assert json.loads(carol.loc[story.fee_payer_version, "changes"]) == {APT_KEY: str(-fee)}
    assert bob.loc[story.fee_payer_version, "roles"] == "sender,write_set"
    assert bob.loc[story.fee_payer_version, "fee"] == 0
    assert json.loads(bob.loc[story.fee_payer_version, "changes"]) == {APT_KEY: "-777"}
    assert "recipient" in dave.loc[story.fee_payer_version, "roles"]
    assert json.loads(dave.loc[story.fee_payer_version, "changes"]) == {APT_KEY: "777"}
    # A failed transaction still charges its sender the gas.
    gas = failed.gas_used * failed.gas_unit_price
    row = alice.loc[story.failed_version]
    assert (row["success"], row["function"], row["fee"]) == (
        False,
        "0x1::ledger_demo::fail_if",
        gas,
    )
    assert json.loads(row["changes"]) == {APT_KEY: str(-gas)}
    # Dave sent nothing before the range's last transfer: every other row is received.
    assert set(dave["roles"]) <= {"recipient,write_set", "sender,write_set"}


def test_the_async_client_and_a_dataset_give_the_same_rows(story: Story, tmp_path: Path) -> None:
    dave = story.keys["dave"].address()
    window = {"start_version": story.start, "end_version": story.end}

    async def main() -> pd.DataFrame:
        async with AsyncClient(story.node.url, cache=False) as client:
            return await ledgerkit.aaccount_activity(
                client, dave, dataset=tmp_path / "scan", progress=False, **window
            )

    scanned = asyncio.run(main())
    assert len(scanned) >= 4
    # The dataset the scan left is an input of its own: no node needed.
    read = ledgerkit.account_activity(tmp_path / "scan", dave, **window)
    pd.testing.assert_frame_equal(read, scanned)
    manifest = json.loads((tmp_path / "scan" / "manifest.json").read_text())
    assert manifest["kind"] == "activity"
    with pytest.raises(InputError, match="does not hold"):
        ledgerkit.account_activity(tmp_path / "scan", dave, start_version=0)


def test_without_a_range_it_reads_from_genesis_to_the_head(
    story: Story, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEDGERKIT_CACHE_DIR", str(tmp_path))
    alice = story.keys["alice"].address()
    with Client(story.node.url, cache=False) as client:
        rows = ledgerkit.account_activity(client, alice, progress=False)
        head = client.ledger_info().value.ledger_version
    assert rows["version"].iloc[0] > 0
    assert rows["version"].iloc[-1] <= head
    # The scan is kept under the cache directory, per chain.
    assert list((tmp_path / "activity").iterdir())
    # All of it: the balance from nothing at genesis.
    assert _summed(rows, APT_KEY) == _balance(story.node, alice, APT, int(rows["version"].max()))


def test_bad_arguments_are_refused_before_anything_is_scanned(story: Story) -> None:
    with Client(story.node.url, cache=False) as client:
        with pytest.raises(InputError, match="before start_version"):
            ledgerkit.account_activity(client, "0x1", start_version=10, end_version=5)
        with pytest.raises(InputError, match="start_version"):
            ledgerkit.account_activity(client, "0x1", start_version=-1)
        with pytest.raises(InputError, match="Client or the path"):
            ledgerkit.account_activity(42, "0x1")  # type: ignore[arg-type]
        empty = ledgerkit.account_activity(client, "0x1", start_version=5, end_version=5)
        assert len(empty) == 0
        assert list(empty.columns) == list(ACTIVITY_COLUMNS)
    aclient = AsyncClient(story.node.url, cache=False)
    try:
        with pytest.raises(InputError, match="aaccount_activity"):
            ledgerkit.account_activity(aclient, "0x1")  # type: ignore[arg-type]
    finally:
        asyncio.run(aclient.aclose())
    with (
        Client(story.node.url, cache=False) as client,
        pytest.raises(InputError, match="takes an AsyncClient"),
    ):
        asyncio.run(ledgerkit.aaccount_activity(client, "0x1"))  # type: ignore[arg-type]


def test_the_clients_old_method_warns_and_answers_the_same_rows(
    story: Story, tmp_path: Path
) -> None:
    dave = story.keys["dave"].address()
    window = {"start_version": story.start, "end_version": story.end, "progress": False}
    with Client(story.node.url, cache=False) as client:
        with pytest.warns(DeprecationWarning, match=r"use ledgerkit\.account_activity"):
            old = client.account_activity(dave, dataset=tmp_path / "old", **window)
        new = ledgerkit.account_activity(client, dave, dataset=tmp_path / "new", **window)
    pd.testing.assert_frame_equal(old, new)

    async def main() -> pd.DataFrame:
        async with AsyncClient(story.node.url, cache=False) as aclient:
            with pytest.warns(DeprecationWarning, match=r"await ledgerkit\.aaccount_activity"):
                return await aclient.account_activity(dave, dataset=tmp_path / "old", **window)

    pd.testing.assert_frame_equal(asyncio.run(main()), new)
