"""The open faucet of a local network (``FaucetSettings.local()``, ``ledgerkit node``'s
default): ``POST /mint`` and ``POST /fund`` without a token, as the SDKs call it.

Expected shapes are the real local faucet's: ``/mint`` answers a JSON list of hashes (64
hex, no ``0x``) and refuses in plain text; ``/fund`` answers ``{"txn_hashes": [...]}`` and
refuses with the faucet's record (400 ``InvalidRequest``). Amounts are written out in
octas (1 APT = 100,000,000).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, Final

import httpx
import pytest

from ledgerkit import Account, Client, FaucetClient
from ledgerkit.localnet import LocalNode, NodeConfigError
from ledgerkit.localnet.services import FaucetSettings

APT: Final = "0x1::aptos_coin::AptosCoin"
#: The limit of this module's faucet: 5,000 APT.
LIMIT: Final = 500_000_000_000
#: A quota the open faucet does not count (the testnet faucet's would refuse the third).
PER_DAY: Final = 2
HASH: Final = re.compile(r"^[0-9a-f]{64}$")


@pytest.fixture(scope="module")
def node(make_node: Callable[..., LocalNode]) -> LocalNode:
    settings = replace(FaucetSettings.local(max_amount=LIMIT), requests_per_day=PER_DAY)
    return make_node(seed=13, blocks=3, faucet=settings)


@pytest.fixture(scope="module")
def faucet(node: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=node.faucet_url, timeout=30) as http:
        yield http


@pytest.fixture(scope="module")
def client(node: LocalNode) -> Iterator[Client]:
    with Client(node.url) as running:
        yield running


def committed_balance(client: Client, txn_hash: str, address: str) -> int:
    client.wait_for_transaction("0x" + txn_hash)
    return client.account_balance(address, APT).value


def assert_invalid(response: httpx.Response, message: str) -> None:
    assert response.status_code == 400, response.text
    assert response.json() == {
        "message": message,
        "error_code": "InvalidRequest",
        "rejection_reasons": [],
        "txn_hashes": [],
    }


def test_the_local_settings_are_open_with_no_limit_but_a_u64s() -> None:
    """aptos-core's faucet of a local network (``RunConfig::build_for_cli``) sets no
    ``maximum_amount``."""
    settings = FaucetSettings.local()
    assert (settings.open, settings.devnet) == (True, True)
    assert settings.max_amount == 18_446_744_073_709_551_615
    assert FaucetSettings().open is False  # LocalNode's default faucet stays the testnet's


@pytest.mark.parametrize("amount", [0, -1, 2**64, True, "5"])
def test_a_limit_is_octas_of_a_u64(amount: Any) -> None:
    with pytest.raises(NodeConfigError, match="max_amount must be octas from 1 to 2"):
        FaucetSettings.local(max_amount=amount)


def test_mint_creates_the_account_and_gives_the_amount_asked(
    faucet: httpx.Client, client: Client
) -> None:
    target = str(Account.generate().address)
    # 2,000 APT: more than the testnet's 1 APT, less than this faucet's limit.
    answer = faucet.post("/mint", params={"amount": "200000000000", "address": target})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    (txn_hash,) = answer.json()
    assert HASH.match(txn_hash)
    assert committed_balance(client, txn_hash, target) == 200_000_000_000
    assert client.account(target).value.sequence_number == 0


def test_an_amount_of_0_creates_an_account_that_has_none_and_only_that(
    faucet: httpx.Client, client: Client
) -> None:
    """As the real faucet: 0 octas creates the account, empty; for an account that exists
    it is refused (400), on ``/mint`` in plain text and on ``/fund`` with the record."""
    minted, funded = str(Account.generate().address), str(Account.generate().address)
    answer = faucet.post("/mint", params={"amount": "0", "address": minted})
    assert answer.status_code == 200, answer.text
    (txn_hash,) = answer.json()
    assert committed_balance(client, txn_hash, minted) == 0
    assert client.account(minted).value.sequence_number == 0
    answer = faucet.post("/fund", json={"amount": 0, "address": funded})
    assert answer.status_code == 200, answer.text
    (txn_hash,) = answer.json()["txn_hashes"]
    assert committed_balance(client, txn_hash, funded) == 0
    again = faucet.post("/mint", params={"amount": "0", "address": minted})
    assert (again.status_code, again.text) == (
        400,
        f"Account {minted} already exists and amount asked for is 0",
    )
    assert_invalid(
        faucet.post("/fund", json={"amount": 0, "address": funded}),
        f"Account {funded} already exists and amount asked for is 0",
    )
    assert_invalid(
        faucet.post("/is_eligible", json={"amount": 0, "address": funded}),
        f"Account {funded} already exists and amount asked for is 0",
    )


def test_fund_answers_the_hashes_and_adds_to_the_balance(
    faucet: httpx.Client, client: Client
) -> None:
    target = Account.generate()
    first = faucet.post("/fund", json={"address": str(target.address), "amount": 250_000_000})
    assert first.status_code == 200, first.text
    assert list(first.json()) == ["txn_hashes"]
    (txn_hash,) = first.json()["txn_hashes"]
    assert HASH.match(txn_hash)
    assert committed_balance(client, txn_hash, str(target.address)) == 250_000_000
    # By public key, without an amount: 1,000 APT more (aptos-core's amount_to_fund).
    public_key = str(target.public_key)
    second = faucet.post("/fund", json={"pub_key": public_key})
    (txn_hash,) = second.json()["txn_hashes"]
    assert committed_balance(client, txn_hash, str(target.address)) == 100_250_000_000


def test_no_token_no_quota_and_eligibility_without_one(faucet: httpx.Client) -> None:
    target = str(Account.generate().address)
    for _ in range(PER_DAY + 2):
        assert faucet.post("/fund", json={"address": target, "amount": 1}).status_code == 200
    eligible = faucet.post("/is_eligible", json={"address": target, "amount": 5})
    assert (eligible.status_code, eligible.content) == (200, b"")
    assert faucet.get("/").text == "tap:ok"


def test_fund_refuses_bad_input_with_its_record(faucet: httpx.Client) -> None:
    over = faucet.post("/fund", json={"address": "0x1", "amount": LIMIT + 1})
    assert_invalid(over, "`amount` 500000000001 is over this faucet's limit of 500000000000 "
                         "octas a request")  # fmt: skip
    not_u64 = faucet.post("/fund", json={"address": "0x1", "amount": 2**64})
    assert_invalid(not_u64, "`amount` must be a positive integer of octas (a u64)")
    negative = faucet.post("/fund", json={"address": "0x1", "amount": -1})
    assert_invalid(negative, "`amount` must be a positive integer of octas (a u64)")
    zero = faucet.post("/fund", json={"address": "0x1", "amount": 0})
    assert_invalid(zero, "Account 0x1 already exists and amount asked for is 0")
    nobody = faucet.post("/fund", json={"amount": 5})
    assert_invalid(nobody, "name the account to fund: `address`, `auth_key` or `pub_key`")
    not_json = faucet.post("/fund", content=b"address=0x1")
    assert_invalid(not_json, "the body is not JSON")
    huge = faucet.post("/fund", content=b'{"address": "0x1", "pad": "' + b"x" * 5000 + b'"}')
    assert_invalid(huge, "the body is over 4096 bytes")
    bad = faucet.post("/fund", json={"address": "0xzz"})
    assert bad.status_code == 400
    assert bad.json()["message"].startswith("the account to fund does not parse: ")


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"address": "0x1", "amount": str(LIMIT + 1)},
         "`amount` 500000000001 is over this faucet's limit of 500000000000 octas a request"),
        ({"address": "0x1", "amount": "18446744073709551616"},
         "`amount` must be a positive integer of octas (a u64)"),
        ({"address": "0x1", "amount": "1e9"},
         "`amount` must be a positive integer of octas (a u64)"),
        ({"amount": "5"}, "name the account to fund: `address`, `auth_key` or `pub_key`"),
    ],
)  # fmt: skip
def test_mint_refuses_bad_input_in_plain_text(
    faucet: httpx.Client, params: dict[str, str], message: str
) -> None:
    refused = faucet.post("/mint", params=params)
    assert refused.status_code == 400
    assert refused.headers["content-type"].startswith("text/plain")
    assert refused.text == message


def test_ledgerkits_faucet_client_funds_on_it_without_a_token(
    node: LocalNode, client: Client
) -> None:
    target = Account.generate()
    with FaucetClient(node.faucet_url or "", node=client) as faucet:
        funding = faucet.fund(target, 300_000_000)
    assert (funding.balance_before, funding.balance_after) == (0, 300_000_000)
    assert funding.received == 300_000_000


def test_an_open_faucet_serves_mint_even_when_not_called_a_devnet_one() -> None:
    with LocalNode(seed=13, blocks=1, faucet=FaucetSettings(open=True)) as node:
        target = str(Account.generate().address)
        answer = httpx.post(
            f"{node.faucet_url}/mint", params={"address": target, "amount": "7"}, timeout=30
        )
        assert answer.status_code == 200, answer.text
        assert HASH.match(answer.json()[0])


def test_the_default_local_faucet_gives_any_amount_it_can_pay_and_1000_apt_unasked() -> None:
    """The chain's faucet account holds 1,000,000,000 APT (10^17 octas): 10,000,000 APT
    are given; 2^64 - 1 octas are a u64 it cannot pay (503, as the real faucet's funder
    when it cannot)."""
    with (
        LocalNode(seed=13, blocks=1, faucet=FaucetSettings.local()) as node,
        Client(node.url) as client,
    ):
        faucet_url = node.faucet_url or ""
        target = str(Account.generate().address)
        big = httpx.post(
            f"{faucet_url}/fund",
            json={"address": target, "amount": 1_000_000_000_000_000},
            timeout=30,
        )
        assert big.status_code == 200, big.text
        (txn_hash,) = big.json()["txn_hashes"]
        assert committed_balance(client, txn_hash, target) == 1_000_000_000_000_000
        other = str(Account.generate().address)
        (txn_hash,) = httpx.post(f"{faucet_url}/mint", params={"address": other}, timeout=30).json()
        assert committed_balance(client, txn_hash, other) == 100_000_000_000
        too_much = httpx.post(
            f"{faucet_url}/fund",
            json={"address": other, "amount": 18_446_744_073_709_551_615},
            timeout=30,
        )
        assert too_much.status_code == 503
        assert too_much.json()["error_code"] == "FunderAccountProblem"


def test_a_limit_under_1000_apt_is_what_a_request_without_an_amount_gets() -> None:
    with (
        LocalNode(seed=13, blocks=1, faucet=FaucetSettings.local(max_amount=7)) as node,
        Client(node.url) as client,
    ):
        target = str(Account.generate().address)
        answer = httpx.post(f"{node.faucet_url}/mint", params={"address": target}, timeout=30)
        assert answer.status_code == 200, answer.text
        assert committed_balance(client, answer.json()[0], target) == 7
