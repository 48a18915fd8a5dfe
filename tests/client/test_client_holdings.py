"""Every asset of an account from the node API alone: ``Client.account_assets``,
``AsyncClient.account_assets`` and ``ledgerkit.account_balances``.

Against the local node, whose genesis gives each dev account 1,000,000 APT (8 decimals)
and 1,000,000 of the demo token LDT (6 decimals, a fungible asset without a coin); and
against a scripted public node holding a coin (``CoinStore``) with no paired asset, whose
genesis transaction is pruned.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable

import httpx
import pytest
from client_fakes import FakeNode, answer, error

import ledgerkit
from ledgerkit import Account, AsyncClient, Client, InputError
from ledgerkit.frames import HOLDING_COLUMNS, holdings_to_frame
from ledgerkit.localnet import LocalNode

APT = "0x1::aptos_coin::AptosCoin"
APT_METADATA = "0x" + "00" * 31 + "0a"
#: The demo token's metadata: the named object of 0x1 with seed "ledgerkit::demo_token".
LDT_METADATA = "0x" + hashlib.sha3_256(bytes(31) + b"\x01ledgerkit::demo_token\xfe").hexdigest()


@pytest.fixture(scope="module")
def node(make_node: Callable[..., LocalNode]) -> LocalNode:
    """A node of this module's own: its dev accounts hold what genesis gave them."""
    return make_node(seed=21, blocks=3, services=False)


def test_a_dev_account_holds_apt_and_the_demo_token(node: LocalNode) -> None:
    with Client(node.url) as client:
        held = client.account_assets(node.dev_accounts[0].address)
    # APT is named by its key, the metadata 0xa, with its coin type beside it.
    assert [(h.asset, h.coin_type, h.kind, h.symbol, h.decimals, h.balance) for h in held] == [
        (APT_METADATA, APT, "coin", "APT", 8, 1_000_000 * 10**8),
        (LDT_METADATA, None, "fungible_asset", "LDT", 6, 1_000_000 * 10**6),
    ]
    assert [h.metadata for h in held] == [APT_METADATA, LDT_METADATA]


def test_the_frame_holds_exact_balances_and_display_amounts(node: LocalNode) -> None:
    with Client(node.url) as client:
        frame = ledgerkit.account_balances(client, node.dev_accounts[1].address)
    assert list(frame.columns) == list(HOLDING_COLUMNS)
    assert {str(c): str(t) for c, t in frame.dtypes.items()} == {
        c: str(t) for c, t in HOLDING_COLUMNS.items()
    }
    assert frame["balance"].tolist() == [100_000_000_000_000, 1_000_000_000_000]
    assert frame["amount"].tolist() == ["1,000,000", "1,000,000"]
    assert frame["symbol"].tolist() == ["APT", "LDT"]


def test_a_new_account_holds_what_it_was_sent(node: LocalNode) -> None:
    newcomer = Account.generate()
    with Client(node.url) as client:
        sent = client.transfer(node.dev_accounts[2], newcomer.address, 123_456_789)
        assert sent.value.success
        held = client.account_assets(newcomer.address)
        assert [(h.asset, h.coin_type, h.balance) for h in held] == [
            (APT_METADATA, APT, 123_456_789)
        ]
        assert holdings_to_frame(held)["amount"].tolist() == ["1.23456789"]
        before = client.account_assets(newcomer.address, ledger_version=sent.value.version - 1)
        assert before == []
    with Client(node.url) as client:
        assert client.account_assets("0x" + "ee" * 32) == []


def test_the_async_client_finds_the_same(node: LocalNode) -> None:
    async def main() -> list[tuple[str, int]]:
        async with AsyncClient(node.url) as client:
            held = await client.account_assets(node.dev_accounts[0].address)
            with pytest.raises(InputError, match="AsyncClient"):
                ledgerkit.account_balances(client, "0x1")  # type: ignore[arg-type]
            return [(h.symbol or "", h.balance) for h in held]

    assert asyncio.run(main()) == [("APT", 10**14), ("LDT", 10**12)]


# -- a public node's shapes -------------------------------------------------------------------

USDC = "0x5e156f1207d0ebfa19a9eeff00d62a282278fb8719f4fab3a586a0a2c0fffbea::coin::T"
OWNER = "0x" + "42" * 32
USDC_KEY = "0x" + hashlib.sha3_256(bytes(31) + b"\x0a" + USDC.encode() + b"\xfe").hexdigest()


def _public_node() -> FakeNode:
    fake = FakeNode()
    resources = [
        {"type": "0x1::account::Account", "data": {"sequence_number": "3"}},
        {"type": f"0x1::coin::CoinStore<{USDC}>",
         "data": {"coin": {"value": "18446744073709551615"}, "frozen": False}},
    ]  # fmt: skip
    fake.on("GET", f"/accounts/{OWNER}/resources", answer(resources))

    def view(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if body["function"] == "0x1::coin::paired_metadata":
            return answer([{"vec": []}])
        return answer([{"vec": []}])

    fake.on("POST", "/view", view)
    fake.on("GET", f"/accounts/{OWNER}/balance/{USDC}", answer(18446744073709551615))
    fake.on("GET", f"/accounts/{OWNER}/balance/{APT_METADATA}", answer(0))
    issuer = USDC.split("::")[0]
    info = {"decimals": 6, "symbol": "USDC", "name": "USD Coin", "supply": {"vec": []}}
    fake.on(
        "GET",
        f"/accounts/{issuer}/resource/0x1::coin::CoinInfo<{USDC}>",
        answer({"type": f"0x1::coin::CoinInfo<{USDC}>", "data": info}),
    )
    fake.on("GET", "/transactions/by_version/0", error(410, "version_pruned", "pruned"))
    return fake


def test_a_coin_on_a_public_node_with_a_pruned_genesis() -> None:
    fake = _public_node()
    with fake.client() as client:
        held = client.account_assets(OWNER)
    assert len(held) == 1
    (usdc,) = held
    assert (usdc.coin_type, usdc.kind, usdc.symbol, usdc.decimals) == (USDC, "coin", "USDC", 6)
    assert usdc.balance == 2**64 - 1  # exact, never through a float
    # Not paired yet: its key is the address coin.move will pair it at, a named object of
    # 0xa whose seed is the coin's type name.
    assert usdc.asset == usdc.metadata == USDC_KEY
    frame = holdings_to_frame(held)
    assert frame["amount"].tolist() == ["18,446,744,073,709.551615"]
    # Every read is pinned to the version of the first answer.
    versions = {r.url.params.get("ledger_version") for r in fake.sent() if r.method == "GET"}
    assert versions <= {"5000", None}
    assert {r.url.params.get("ledger_version") for r in fake.sent("/view")} == {"5000"}


def test_holdings_to_frame_refuses_what_is_not_holdings() -> None:
    with pytest.raises(InputError, match="holdings_to_frame"):
        holdings_to_frame("0x1")
    with pytest.raises(InputError, match="Holding"):
        holdings_to_frame([{"asset": "x"}])
    empty = holdings_to_frame([])
    assert list(empty.columns) == list(HOLDING_COLUMNS)
    assert len(empty) == 0


def test_resources_already_read_are_not_read_again() -> None:
    fake = _public_node()
    with fake.client() as client:
        resources = client.account_resources(OWNER).value
        read = len(fake.sent(f"/accounts/{OWNER}/resources"))
        held = client.account_assets(OWNER, ledger_version=5000, resources=resources)
    assert read == 1
    assert len(fake.sent(f"/accounts/{OWNER}/resources")) == 1  # not asked a second time
    assert [(h.coin_type, h.symbol, h.balance) for h in held] == [(USDC, "USDC", 2**64 - 1)]


def test_resources_given_need_their_version_and_must_be_resources() -> None:
    fake = _public_node()
    with fake.client() as client:
        resources = client.account_resources(OWNER).value
        with pytest.raises(InputError, match="give that ledger_version too"):
            client.account_assets(OWNER, resources=resources)
        with pytest.raises(InputError, match="MoveResource records, got dict"):
            client.account_assets(
                OWNER,
                ledger_version=5000,
                resources=[{"type": "0x1::account::Account"}],  # type: ignore[list-item]
            )
    assert fake.sent(f"/accounts/{OWNER}/balance/{USDC}") == []
