"""The Python SDK's example programs, flow by flow, against ``ledgerkit node`` started with
no flags: the URLs are the ones a user exports for the examples (``APTOS_NODE_URL``,
``APTOS_FAUCET_URL``, ``APTOS_INDEXER_URL``), and the SDK is called the way the examples
call it.

Flows: a transfer funded by the faucet (``transfer_coin.py``), a sponsored transaction
(``fee_payer_transfer_coin.py``), a 2-of-3 MultiKey account of ed25519 and secp256k1 keys
(``multikey.py``), simulation with and without the gas estimate flags
(``simulate_transfer_coin.py``), secp256k1 accounts (``secp256k1_ecdsa_transfer_coin.py``)
and many transactions in flight through ``TransactionWorker`` (``transaction_batching.py``).

Balances and transactions are read back over plain HTTP, independently of the SDK; the fee
of each transaction is its committed ``gas_used * gas_unit_price``, and every other amount
is written out.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, Final, TypeVar

import httpx
import pytest
from aptos_sdk import asymmetric_crypto_wrapper, ed25519, secp256k1_ecdsa
from aptos_sdk.account import Account
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.account_sequence_number import AccountSequenceNumber
from aptos_sdk.async_client import (
    ApiError,
    ClientConfig,
    FaucetClient,
    IndexerClient,
    RestClient,
)
from aptos_sdk.authenticator import (
    AccountAuthenticator,
    Authenticator,
    FeePayerAuthenticator,
    MultiKeyAuthenticator,
)
from aptos_sdk.bcs import Serializer
from aptos_sdk.transaction_worker import TransactionWorker
from aptos_sdk.transactions import (
    EntryFunction,
    FeePayerRawTransaction,
    SignedTransaction,
    TransactionArgument,
    TransactionPayload,
)
from aptos_sdk.type_tag import StructTag, TypeTag
from cli_node import CliNode

pytestmark = [pytest.mark.interop, pytest.mark.timeout(900)]

T = TypeVar("T")

#: What the examples' ``common.py`` reads from the environment for a local network.
NODE_URL: Final = "http://127.0.0.1:8080/v1"
FAUCET_URL: Final = "http://127.0.0.1:8081"
INDEXER_URL: Final = "http://127.0.0.1:8090/v1/graphql"

APT: Final = "0x1::aptos_coin::AptosCoin"
#: The examples' client settings (``CLIENT_CONFIG`` of ``common.py``): at most 100,000 gas
#: units, at the SDK's default price of 100 octas a unit.
MAX_GAS: Final = 100_000
GAS_PRICE: Final = 100


@pytest.fixture(scope="module")
def http(default_node: CliNode) -> Iterator[httpx.Client]:
    """Plain HTTP reads of the node the examples talk to (this module's own ``http``: the
    node of ``default_node``, not the in-process one of ``conftest.py``)."""
    assert (default_node.node_url, default_node.faucet_url, default_node.indexer_url) == (
        NODE_URL,
        FAUCET_URL,
        INDEXER_URL,
    )
    with httpx.Client(base_url=NODE_URL, timeout=30.0) as client:
        yield client


def run(scenario: Callable[[RestClient, FaucetClient], Awaitable[T]]) -> T:
    """Run ``scenario`` with the clients an example makes: ``RestClient(NODE_URL,
    client_config=CLIENT_CONFIG)`` and ``FaucetClient(FAUCET_URL, rest_client)``."""

    async def main() -> T:
        rest = RestClient(NODE_URL, client_config=ClientConfig(max_gas_amount=MAX_GAS))
        faucet = FaucetClient(FAUCET_URL, rest)
        try:
            return await asyncio.wait_for(scenario(rest, faucet), timeout=240)
        finally:
            await rest.close()

    return asyncio.run(main())


def get(http: httpx.Client, path: str, **params: Any) -> Any:
    answer = http.get(path, params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()


def balance(http: httpx.Client, address: object) -> int:
    return int(get(http, f"/accounts/{address}/balance/{APT}"))


def sequence_number(http: httpx.Client, address: object) -> int:
    return int(get(http, f"/accounts/{address}")["sequence_number"])


def committed(http: httpx.Client, txn_hash: str) -> dict[str, Any]:
    """The committed transaction, checked to have succeeded."""
    txn: dict[str, Any] = get(http, f"/transactions/by_hash/{txn_hash}")
    assert txn["type"] == "user_transaction", txn
    assert txn["success"] is True, txn["vm_status"]
    assert txn["vm_status"] == "Executed successfully"
    return txn


def fee(txn: dict[str, Any]) -> int:
    """Octas the payer gave for ``txn``: its gas used at its gas unit price."""
    return int(txn["gas_used"]) * int(txn["gas_unit_price"])


def transfer(recipient: AccountAddress, amount: int) -> TransactionPayload:
    """``0x1::aptos_account::transfer(recipient, amount)``, built as the examples build it."""
    return TransactionPayload(
        EntryFunction.natural(
            "0x1::aptos_account",
            "transfer",
            [],
            [
                TransactionArgument(recipient, Serializer.struct),
                TransactionArgument(amount, Serializer.u64),
            ],
        )
    )


# -- transfer_coin.py --------------------------------------------------------------------------


def test_transfer_coin(http: httpx.Client) -> None:
    alice, bob = Account.generate(), Account.generate()

    async def scenario(rest: RestClient, faucet: FaucetClient) -> dict[str, Any]:
        await asyncio.gather(
            faucet.fund_account(alice.address(), 1_000_000_000),
            faucet.fund_account(bob.address(), 1),
        )
        seen = {"initial": await balances(rest)}
        first = await rest.bcs_transfer(alice, bob.address(), 1_000)
        await rest.wait_for_transaction(first)
        seen["intermediate"] = await balances(rest)
        second = await rest.transfer_coins(alice, bob.address(), APT, 1_000)
        await rest.wait_for_transaction(second)
        seen["final"] = await balances(rest)
        return {"hashes": (first, second), "balances": seen}

    async def balances(rest: RestClient) -> list[int]:
        return list(
            await asyncio.gather(
                rest.account_balance(alice.address()), rest.account_balance(bob.address())
            )
        )

    got = run(scenario)

    first, second = (committed(http, h) for h in got["hashes"])
    assert [t["sender"] for t in (first, second)] == [str(alice.address())] * 2
    assert [t["sequence_number"] for t in (first, second)] == ["0", "1"]
    assert first["payload"]["function"] == "0x1::aptos_account::transfer"
    assert first["payload"]["arguments"] == [str(bob.address()), "1000"]
    assert second["payload"]["function"] == "0x1::aptos_account::transfer_coins"
    assert second["payload"]["type_arguments"] == [APT]
    assert second["payload"]["arguments"] == [str(bob.address()), "1000"]
    for txn in (first, second):
        assert (txn["max_gas_amount"], txn["gas_unit_price"]) == (str(MAX_GAS), str(GAS_PRICE))
        assert int(txn["gas_used"]) > 0
    assert got["balances"] == {
        "initial": [1_000_000_000, 1],
        "intermediate": [1_000_000_000 - 1_000 - fee(first), 1_001],
        "final": [1_000_000_000 - 2_000 - fee(first) - fee(second), 2_001],
    }
    assert balance(http, alice.address()) == 1_000_000_000 - 2_000 - fee(first) - fee(second)
    assert balance(http, bob.address()) == 2_001
    assert sequence_number(http, alice.address()) == 2
    assert sequence_number(http, bob.address()) == 0


def test_transfer_coin_shows_in_the_indexer(http: httpx.Client) -> None:
    """The example's closing query, ``account_transactions`` of an account, through the
    SDK's ``IndexerClient``: Bob's funding created his account, so it is his; the transfer
    is Alice's (she signed it) and his too: it writes his primary store's resource group,
    whose ``ObjectCore`` names him as the owner, and aptos-indexer-processors records an
    object's owner with the object (``AccountTransaction::get_accounts``)."""
    alice, bob = Account.generate(), Account.generate()
    query = """
        query TransactionsQuery($account: String) {
          account_transactions(
            limit: 20
            where: {account_address: {_eq: $account}}
          ) {
            transaction_version
          }
        }
    """

    async def versions(indexer: IndexerClient, account: AccountAddress) -> list[int]:
        data = await indexer.query(query, {"account": str(account)})
        return sorted(int(r["transaction_version"]) for r in data["data"]["account_transactions"])

    async def scenario(rest: RestClient, faucet: FaucetClient) -> dict[str, Any]:
        hashes = {
            "bob_funding": await faucet.fund_account(bob.address(), 1),
            "alice_funding": await faucet.fund_account(alice.address(), 1_000_000_000),
            "transfer": await rest.bcs_transfer(alice, bob.address(), 1_000),
        }
        await rest.wait_for_transaction(hashes["transfer"])
        version = {k: int(committed(http, h)["version"]) for k, h in hashes.items()}
        indexer = IndexerClient(INDEXER_URL)
        seen: dict[str, list[int]] = {}
        for _ in range(60):  # bounded: the indexer follows the node within a block or two
            seen = {
                "alice": await versions(indexer, alice.address()),
                "bob": await versions(indexer, bob.address()),
            }
            if version["transfer"] in seen["alice"]:
                break
            await asyncio.sleep(0.5)
        return {"version": version, "seen": seen}

    got = run(scenario)

    version = got["version"]
    assert got["seen"] == {
        "alice": [version["alice_funding"], version["transfer"]],
        "bob": [version["bob_funding"], version["transfer"]],
    }


def test_funding_0_creates_an_empty_account_as_the_older_examples_ask(
    http: httpx.Client,
) -> None:
    """Before 0.11 the examples created Bob with ``fund_account(bob.address(), 0)``: the
    faucet creates the account, empty, and refuses a second 0 for an account that exists."""
    bob = Account.generate()

    async def scenario(rest: RestClient, faucet: FaucetClient) -> dict[str, Any]:
        created = await faucet.fund_account(bob.address(), 0)
        with pytest.raises(ApiError) as again:
            await faucet.fund_account(bob.address(), 0)
        return {
            "hash": created,
            "balance": await rest.account_balance(bob.address()),
            "again": again.value,
        }

    got = run(scenario)

    txn = committed(http, got["hash"])
    assert txn["payload"]["arguments"] == [str(bob.address()), "0"]
    assert got["balance"] == 0
    assert sequence_number(http, bob.address()) == 0
    assert balance(http, bob.address()) == 0
    assert got["again"].status_code == 400
    assert str(got["again"]) == f"Account {bob.address()} already exists and amount asked for is 0"


# -- fee_payer_transfer_coin.py ---------------------------------------------------------------


def sponsored(raw: Any, sender: Account, sponsor: Account) -> SignedTransaction:
    """Signed as the example signs: the sender over a fee payer of 0x0, the sponsor over
    itself as the fee payer."""
    sender_auth = sender.sign_transaction(FeePayerRawTransaction(raw, [], None))
    sponsor_auth = sponsor.sign_transaction(FeePayerRawTransaction(raw, [], sponsor.address()))
    authenticator = FeePayerAuthenticator(sender_auth, [], (sponsor.address(), sponsor_auth))
    return SignedTransaction(raw, Authenticator(authenticator))


def test_fee_payer_creates_an_account_for_a_sender_with_none(http: httpx.Client) -> None:
    """The example's flow: Alice, who has no account yet, creates Bob's; the sponsor pays."""
    alice, bob, sponsor = Account.generate(), Account.generate(), Account.generate()

    async def scenario(rest: RestClient, faucet: FaucetClient) -> dict[str, Any]:
        await faucet.fund_account(sponsor.address(), 1_000_000_000)
        before = {
            "alice_sequence_number": await rest.account_sequence_number(alice.address()),
            "bob_balance": await rest.account_balance(bob.address()),
            "sponsor_balance": await rest.account_balance(sponsor.address()),
        }
        payload = EntryFunction.natural(
            "0x1::aptos_account",
            "create_account",
            [],
            [TransactionArgument(bob.address(), Serializer.struct)],
        )
        raw = await rest.create_bcs_transaction(
            alice, TransactionPayload(payload), before["alice_sequence_number"]
        )
        txn_hash = await rest.submit_bcs_transaction(sponsored(raw, alice, sponsor))
        await rest.wait_for_transaction(txn_hash)
        after = await asyncio.gather(
            rest.account_sequence_number(alice.address()),
            rest.account_balance(bob.address()),
            rest.account_balance(sponsor.address()),
        )
        return {"before": before, "after": list(after), "hash": txn_hash}

    got = run(scenario)

    assert got["before"] == {
        "alice_sequence_number": 0,
        "bob_balance": 0,
        "sponsor_balance": 1_000_000_000,
    }
    txn = committed(http, got["hash"])
    assert txn["sender"] == str(alice.address())
    assert txn["signature"]["type"] == "fee_payer_signature"
    assert txn["signature"]["fee_payer_address"] == str(sponsor.address())
    assert txn["payload"]["function"] == "0x1::aptos_account::create_account"
    assert got["after"] == [1, 0, 1_000_000_000 - fee(txn)]
    assert sequence_number(http, alice.address()) == 1
    assert sequence_number(http, bob.address()) == 0
    assert balance(http, alice.address()) == 0
    assert balance(http, sponsor.address()) == 1_000_000_000 - fee(txn)


def test_fee_payer_pays_the_gas_of_a_transfer(http: httpx.Client) -> None:
    """A funded sender moves coins and keeps all but the amount: the sponsor pays the gas."""
    alice, bob, sponsor = Account.generate(), Account.generate(), Account.generate()

    async def scenario(rest: RestClient, faucet: FaucetClient) -> str:
        await asyncio.gather(
            faucet.fund_account(alice.address(), 50_000_000),
            faucet.fund_account(bob.address(), 1),
            faucet.fund_account(sponsor.address(), 1_000_000_000),
        )
        raw = await rest.create_bcs_transaction(alice, transfer(bob.address(), 12_345))
        txn_hash = await rest.submit_bcs_transaction(sponsored(raw, alice, sponsor))
        await rest.wait_for_transaction(txn_hash)
        return txn_hash

    txn = committed(http, run(scenario))

    assert txn["signature"]["fee_payer_address"] == str(sponsor.address())
    assert fee(txn) > 0
    assert balance(http, alice.address()) == 50_000_000 - 12_345
    assert balance(http, bob.address()) == 1 + 12_345
    assert balance(http, sponsor.address()) == 1_000_000_000 - fee(txn)
    assert sequence_number(http, alice.address()) == 1
    assert sequence_number(http, sponsor.address()) == 0


# -- multikey.py -------------------------------------------------------------------------------


def test_multikey_two_of_three(http: httpx.Client) -> None:
    key1 = secp256k1_ecdsa.PrivateKey.random()
    key2 = ed25519.PrivateKey.random()
    key3 = secp256k1_ecdsa.PrivateKey.random()
    keys = [key1.public_key(), key2.public_key(), key3.public_key()]
    multi = asymmetric_crypto_wrapper.MultiPublicKey(keys, 2)
    alice = AccountAddress.from_key(multi)
    bob = Account.generate()

    def signed(raw: Any, signers: list[tuple[int, Any]]) -> SignedTransaction:
        """Signed by ``signers`` (index, key); the SDK verifies it when it meets the
        threshold, as the example does before submitting."""
        message = raw.keyed()
        signature = asymmetric_crypto_wrapper.MultiSignature(
            [(i, asymmetric_crypto_wrapper.Signature(key.sign(message))) for i, key in signers]
        )
        authenticator = AccountAuthenticator(MultiKeyAuthenticator(multi, signature))
        assert authenticator.verify(message) is (len(signers) >= 2)
        return SignedTransaction(raw, authenticator)

    async def scenario(rest: RestClient, faucet: FaucetClient) -> dict[str, Any]:
        await asyncio.gather(
            faucet.fund_account(alice, 1_000_000_000), faucet.fund_account(bob.address(), 1)
        )
        initial = [await rest.account_balance(alice), await rest.account_balance(bob.address())]
        # Keys 1 and 2 (a secp256k1 and an ed25519 signature), as the example signs.
        raw = await rest.create_bcs_transaction(alice, transfer(bob.address(), 1_000))
        first = await rest.submit_bcs_transaction(signed(raw, [(0, key1), (1, key2)]))
        await rest.wait_for_transaction(first)
        # Keys 2 and 3: any two of the three.
        raw = await rest.create_bcs_transaction(alice, transfer(bob.address(), 1_000))
        second = await rest.submit_bcs_transaction(signed(raw, [(1, key2), (2, key3)]))
        await rest.wait_for_transaction(second)
        # One signature is under the threshold: refused, nothing sent.
        raw = await rest.create_bcs_transaction(alice, transfer(bob.address(), 1_000))
        with pytest.raises(ApiError) as refused:
            await rest.submit_bcs_transaction(signed(raw, [(2, key3)]))
        return {"initial": initial, "hashes": (first, second), "refused": refused.value}

    got = run(scenario)

    assert got["initial"] == [1_000_000_000, 1]
    first, second = (committed(http, h) for h in got["hashes"])
    signature = first["signature"]
    assert signature["type"] == "single_sender"
    assert [k["type"] for k in signature["public_keys"]] == [
        "secp256k1_ecdsa",
        "ed25519",
        "secp256k1_ecdsa",
    ]
    assert signature["signatures_required"] == 2
    assert [s["index"] for s in signature["signatures"]] == [0, 1]
    assert [s["signature"]["type"] for s in signature["signatures"]] == [
        "secp256k1_ecdsa",
        "ed25519",
    ]
    assert [s["index"] for s in second["signature"]["signatures"]] == [1, 2]
    assert got["refused"].status_code == 400
    assert "INVALID_SIGNATURE" in str(got["refused"]) or "signature" in str(got["refused"])
    assert sequence_number(http, alice) == 2
    assert balance(http, alice) == 1_000_000_000 - 2_000 - fee(first) - fee(second)
    assert balance(http, bob.address()) == 2_001


# -- simulate_transfer_coin.py ----------------------------------------------------------------


def test_simulate_transfer_coin(http: httpx.Client) -> None:
    alice, bob = Account.generate(), Account.generate()
    payload = TransactionPayload(
        EntryFunction.natural(
            "0x1::coin",
            "transfer",
            [TypeTag(StructTag.from_str(APT))],
            [
                TransactionArgument(bob.address(), Serializer.struct),
                TransactionArgument(100_000, Serializer.u64),
            ],
        )
    )
    too_much = TransactionPayload(
        EntryFunction.natural(
            "0x1::coin",
            "transfer",
            [TypeTag(StructTag.from_str(APT))],
            [
                TransactionArgument(bob.address(), Serializer.struct),
                TransactionArgument(2_000_000_000, Serializer.u64),
            ],
        )
    )

    async def scenario(rest: RestClient, faucet: FaucetClient) -> dict[str, Any]:
        await faucet.fund_account(alice.address(), 1_000_000_000)
        raw = await rest.create_bcs_transaction(alice, payload)
        got = {"before_bob": await rest.simulate_transaction(raw, alice)}
        await faucet.fund_account(bob.address(), 1)
        got["plain"] = await rest.simulate_transaction(raw, alice)
        got["estimated"] = await rest.simulate_transaction(raw, alice, estimate_gas_usage=True)
        got["too_much"] = await rest.simulate_transaction(
            await rest.create_bcs_transaction(alice, too_much), alice
        )
        got["state"] = {
            "alice": (
                await rest.account_sequence_number(alice.address()),
                await rest.account_balance(alice.address()),
            ),
            "bob": await rest.account_balance(bob.address()),
        }
        signed = SignedTransaction(raw, alice.sign_transaction(raw))
        got["submitted"] = await rest.submit_bcs_transaction(signed)
        await rest.wait_for_transaction(got["submitted"])
        return got

    got = run(scenario)

    estimate = get(http, "/estimate_gas_price")
    [before_bob] = got["before_bob"]
    [plain] = got["plain"]
    [estimated] = got["estimated"]
    [too_much_sim] = got["too_much"]
    for simulation in (plain, estimated):
        assert simulation["success"] is True, simulation["vm_status"]
        assert simulation["vm_status"] == "Executed successfully"
        assert int(simulation["gas_used"]) > 0
        assert simulation["sender"] == str(alice.address())
        assert simulation["sequence_number"] == "0"
    assert (plain["max_gas_amount"], plain["gas_unit_price"]) == (str(MAX_GAS), str(GAS_PRICE))
    # The flags replace the price with the node's estimate, and the gas limit with what
    # the balance buys at that price, capped at the node's maximum of 20,000,000 units
    # (aptos-core's MAX_GAS_AMOUNT since its tenfold gas change).
    assert estimated["gas_unit_price"] == str(estimate["gas_estimate"])
    assert estimated["max_gas_amount"] == str(
        min(1_000_000_000 // int(estimate["gas_estimate"]), 20_000_000)
    )
    assert estimated["gas_used"] == plain["gas_used"]
    assert too_much_sim["success"] is False
    assert too_much_sim["vm_status"].startswith("Move abort"), too_much_sim["vm_status"]
    # Nothing simulated was committed. The simulation before Bob had an account is not
    # judged by its outcome: since 0.11 the example no longer looks at it, as frameworks
    # that credit APT to an address without an account made it succeed.
    assert got["state"] == {"alice": (0, 1_000_000_000), "bob": 1}
    for simulation in (before_bob, plain, estimated, too_much_sim):
        assert http.get(f"/transactions/by_hash/{simulation['hash']}").status_code == 404
    # What is then submitted costs what its simulation said.
    txn = committed(http, got["submitted"])
    assert txn["gas_used"] == plain["gas_used"]
    assert balance(http, alice.address()) == 1_000_000_000 - 100_000 - fee(txn)
    assert balance(http, bob.address()) == 1 + 100_000


# -- secp256k1_ecdsa_transfer_coin.py ---------------------------------------------------------


def test_secp256k1_ecdsa_transfer_coin(http: httpx.Client) -> None:
    alice, bob = Account.generate_secp256k1_ecdsa(), Account.generate_secp256k1_ecdsa()

    async def scenario(rest: RestClient, faucet: FaucetClient) -> dict[str, Any]:
        await asyncio.gather(
            faucet.fund_account(alice.address(), 1_000_000_000),
            faucet.fund_account(bob.address(), 1),
        )
        initial = [
            await rest.account_balance(alice.address()),
            await rest.account_balance(bob.address()),
        ]
        hashes = []
        for _ in range(2):
            txn_hash = await rest.bcs_transfer(alice, bob.address(), 1_000)
            await rest.wait_for_transaction(txn_hash)
            hashes.append(txn_hash)
        final = [
            await rest.account_balance(alice.address()),
            await rest.account_balance(bob.address()),
        ]
        return {"initial": initial, "hashes": hashes, "final": final}

    got = run(scenario)

    txns = [committed(http, h) for h in got["hashes"]]
    for txn in txns:
        assert txn["signature"]["type"] == "single_sender"
        assert txn["signature"]["public_key"]["type"] == "secp256k1_ecdsa"
        assert txn["signature"]["signature"]["type"] == "secp256k1_ecdsa"
    spent = 2_000 + sum(fee(t) for t in txns)
    assert got["initial"] == [1_000_000_000, 1]
    assert got["final"] == [1_000_000_000 - spent, 2_001]
    assert balance(http, alice.address()) == 1_000_000_000 - spent
    assert balance(http, bob.address()) == 2_001


# -- transaction_batching.py ------------------------------------------------------------------


def test_transaction_batching(http: httpx.Client) -> None:
    """The example's flow, scaled down: fund a source from the faucet in parallel, spread
    it over senders and receivers with transactions in flight under
    ``AccountSequenceNumber``, then let one ``TransactionWorker`` per sender, each with a
    client of its own set as the example's workers are (at most 100 gas units, 60 s of
    waiting), submit transfers of 0 octas to its receiver.

    The spreading uses the examples' common settings: 100 gas units pay a transfer to an
    account that exists, not one that creates the recipient's account."""
    senders = [Account.generate() for _ in range(3)]
    receivers = [Account.generate() for _ in range(3)]
    source = Account.generate()
    per_sender = 100_000_000
    per_worker = 30

    async def scenario(rest: RestClient, faucet: FaucetClient) -> dict[str, Any]:
        await asyncio.gather(
            *(faucet.fund_account(source.address(), 100_000_000_000) for _ in range(2))
        )
        funded = await rest.account_balance(source.address())
        numbers = AccountSequenceNumber(rest, source.address())
        submissions = []
        for account in senders + receivers:
            number = await numbers.next_sequence_number(block=False)
            assert number is not None
            amount = per_sender if account in senders else 0
            signed = await rest.create_bcs_signed_transaction(
                source, transfer(account.address(), amount), number
            )
            submissions.append(rest.submit_bcs_transaction(signed))
        distributed = list(await asyncio.gather(*submissions))
        for txn_hash in distributed:
            await rest.wait_for_transaction(txn_hash)
        await numbers.synchronize()

        async def worker_run(sender: Account, receiver: Account) -> list[Any]:
            own = RestClient(
                NODE_URL,
                client_config=ClientConfig(max_gas_amount=100, transaction_wait_in_seconds=60),
            )
            made = 0

            async def generate(account: Account, number: int) -> SignedTransaction:
                # As the example's generator: it hands out as many as it was asked for,
                # then waits for more (here: until the worker is stopped).
                nonlocal made
                if made == per_worker:
                    await asyncio.Event().wait()
                made += 1
                return await own.create_bcs_signed_transaction(
                    account, transfer(receiver.address(), 0), number
                )

            worker = TransactionWorker(sender, own, generate)
            worker.start()
            try:
                processed = [await worker.next_processed_transaction() for _ in range(per_worker)]
                for _, txn_hash, error in processed:
                    assert error is None, error
                    await own.wait_for_transaction(txn_hash)
            finally:
                worker.stop()
                await own.close()
            return processed

        processed = await asyncio.gather(
            *(worker_run(s, r) for s, r in zip(senders, receivers, strict=True))
        )
        return {"funded": funded, "distributed": distributed, "processed": processed}

    got = run(scenario)

    assert got["funded"] == 200_000_000_000
    distributed = [committed(http, h) for h in got["distributed"]]
    assert [t["sequence_number"] for t in distributed] == [str(n) for n in range(6)]
    assert balance(http, source.address()) == (
        200_000_000_000 - 3 * per_sender - sum(fee(t) for t in distributed)
    )
    for sender, receiver, results in zip(senders, receivers, got["processed"], strict=True):
        assert [n for n, _, _ in results] == list(range(per_worker))
        txns = get(http, f"/accounts/{sender.address()}/transactions", limit=100)
        assert [t["sequence_number"] for t in txns] == [str(n) for n in range(per_worker)]
        assert all(t["success"] for t in txns)
        assert all(t["payload"]["arguments"] == [str(receiver.address()), "0"] for t in txns)
        assert {t["max_gas_amount"] for t in txns} == {"100"}
        assert sequence_number(http, sender.address()) == per_worker
        assert balance(http, sender.address()) == per_sender - sum(fee(t) for t in txns)
        assert balance(http, receiver.address()) == 0
