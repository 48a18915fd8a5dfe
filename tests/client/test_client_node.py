"""Every client method against the embedded node, sync and async: each answer agrees with
the raw HTTP answer to the same request (value and ledger headers), walks reach the last
page, and a transfer signed by a dev account is submitted and committed.

The async client runs on its own event loop thread behind :class:`AsyncTwin`, so one test
body checks both clients; it runs twice, over httpx's own transport and over the aiohttp
transport that bulk extraction uses.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

import httpx
import pytest

from ledgerkit import (
    Account,
    DecodingError,
    HealthCheckFailedError,
    SequenceNumberTooOldError,
    SigningError,
    TransactionNotFoundError,
    VMError,
)
from ledgerkit.bcs import (
    EntryFunction,
    MultiAgentRawTransaction,
    Multisig,
    RawTransaction,
    Script,
    ScriptArgument,
)
from ledgerkit.client import AiohttpTransport, AsyncClient, Client, Result, calls
from ledgerkit.localnet import LocalNode
from ledgerkit.models import (
    AuxiliaryInfo,
    Block,
    GasEstimate,
    HealthStatus,
    PendingTransaction,
    UserTransaction,
    decode,
    decode_account,
    decode_balance,
    decode_block,
    decode_events,
    decode_ledger_info,
    decode_module,
    decode_modules,
    decode_resource,
    decode_resources,
    decode_transaction,
    decode_transaction_rows,
    decode_transactions,
    decode_view,
)
from ledgerkit.tx import EncodedSubmission
from ledgerkit.types import Address, LedgerMeta

APT: Final = "0x1::aptos_coin::AptosCoin"
BLOCK_RESOURCE: Final = "0x1::block::BlockResource"
BOARD: Final = "0x1::ledger_demo::Board"


class AsyncTwin:
    """An :class:`AsyncClient` on a private event loop, called like a :class:`Client`:
    coroutines are awaited, async iterators collected into lists."""

    def __init__(self, url: str, *, aiohttp: bool = False) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self.client: AsyncClient = self._run(self._make(url, aiohttp))

    @staticmethod
    async def _make(url: str, aiohttp: bool) -> AsyncClient:
        transport = AiohttpTransport(max_connections=4) if aiohttp else None
        return AsyncClient(url, transport=transport)

    def _run(self, coroutine: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self.client, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            out = method(*args, **kwargs)
            if inspect.isawaitable(out):
                return self._run(out)  # type: ignore[arg-type]
            return self._run(_collect(out))

        return call

    def close(self) -> None:
        self._run(self.client.aclose())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()


async def _collect(items: Any) -> list[Any]:
    return [item async for item in items]


@pytest.fixture(scope="module", params=["sync", "async", "async-aiohttp"])
def client(request: pytest.FixtureRequest, node: LocalNode) -> Iterator[Any]:
    if request.param == "sync":
        with Client(node.url) as sync:
            yield sync
    else:
        twin = AsyncTwin(node.url, aiohttp=request.param == "async-aiohttp")
        yield twin
        twin.close()


@pytest.fixture(scope="module")
def http(node: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=node.url, timeout=30.0) as raw:
        yield raw


@pytest.fixture(scope="module")
def scorer(http: httpx.Client) -> tuple[str, str]:
    """An account that set a ``ledger_demo`` score, and the address it scored."""
    start = 0
    while True:
        page = http.get("/transactions", params={"start": start, "limit": 100}).json()
        for txn in page:
            payload = txn.get("payload") or {}
            if payload.get("function") == "0x1::ledger_demo::set_score":
                return txn["sender"], payload["arguments"][0]
        start += len(page)


def agrees(result: Result[Any], raw: httpx.Response, decoder: Callable[[bytes], Any]) -> None:
    """The client's result is what the raw answer says: same value, same ledger headers."""
    assert raw.status_code == 200, raw.text
    assert result.value == decoder(raw.content)
    assert result.ledger == LedgerMeta.from_headers(raw.headers)


def dev(node: LocalNode, index: int = 0) -> Any:
    return node.dev_accounts[index]


# -- general ---------------------------------------------------------------------------------


def test_ledger_info(client: Any, http: httpx.Client) -> None:
    result = client.ledger_info()
    agrees(result, http.get("/"), decode_ledger_info)
    assert result.value.chain_id == result.ledger.chain_id == 4


def test_health(client: Any, http: httpx.Client) -> None:
    agrees(client.health(), http.get("/-/healthy"), lambda b: decode(b, HealthStatus))
    raw = http.get("/-/healthy", params={"duration_secs": 1})
    if raw.status_code == 503:  # the seeded chain's clock is in the past
        with pytest.raises(HealthCheckFailedError):
            client.health(duration_secs=1)
    else:
        assert client.health(duration_secs=1).value.message


def test_estimate_gas_price(client: Any, http: httpx.Client) -> None:
    result = client.estimate_gas_price()
    agrees(result, http.get("/estimate_gas_price"), lambda b: decode(b, GasEstimate))
    assert result.value.gas_estimate >= 100


# -- accounts --------------------------------------------------------------------------------


def test_account_latest_and_at_a_version(client: Any, http: httpx.Client, node: LocalNode) -> None:
    address = dev(node).address
    agrees(client.account(address), http.get(f"/accounts/{address}"), decode_account)
    agrees(
        client.account(str(address), ledger_version=5),
        http.get(f"/accounts/{address}", params={"ledger_version": 5}),
        decode_account,
    )


def test_resources_page_and_walk_to_the_last_page(client: Any, http: httpx.Client) -> None:
    everything = http.get("/accounts/0x1/resources")
    agrees(client.account_resources("0x1"), everything, decode_resources)
    first = client.account_resources("0x1", limit=2)
    agrees(first, http.get("/accounts/0x1/resources", params={"limit": 2}), decode_resources)
    assert first.ledger.cursor is not None
    walked = list(client.iter_account_resources("0x1", limit=2))
    assert [r.value for r in walked] == decode_resources(everything.content)
    assert len(walked) > 2
    assert walked[-1].ledger.cursor is None


def test_one_resource_in_json_and_bcs(client: Any, http: httpx.Client, node: LocalNode) -> None:
    address = dev(node).address
    path = f"/accounts/{address}/resource/0x1::account::Account"
    agrees(client.account_resource(address, "0x1::account::Account"), http.get(path),
           decode_resource)  # fmt: skip
    bcs = http.get(path, headers={"Accept": "application/x-bcs"})
    agrees(client.account_resource_bcs(address, "0x1::account::Account"), bcs, bytes)
    block = client.account_resource("0x1", BLOCK_RESOURCE, ledger_version=10)
    at_ten = http.get(f"/accounts/0x1/resource/{BLOCK_RESOURCE}", params={"ledger_version": 10})
    agrees(block, at_ten, decode_resource)


def test_modules_page_walk_and_one_module(client: Any, http: httpx.Client) -> None:
    everything = http.get("/accounts/0x1/modules")
    agrees(client.account_modules("0x1"), everything, decode_modules)
    walked = [r.value for r in client.iter_account_modules("0x1", limit=4)]
    assert walked == decode_modules(everything.content)
    assert len(walked) > 4
    coin = client.account_module("0x1", "coin")
    agrees(coin, http.get("/accounts/0x1/module/coin"), decode_module)
    assert coin.value.abi.name == "coin"
    raw = http.get("/accounts/0x1/module/coin", headers={"Accept": "application/x-bcs"})
    agrees(client.account_module_bytecode("0x1", "coin"), raw, bytes)


def test_balances_by_coin_and_by_metadata_address(
    client: Any, http: httpx.Client, node: LocalNode
) -> None:
    address = dev(node).address
    by_coin = client.account_balance(address, APT)
    agrees(by_coin, http.get(f"/accounts/{address}/balance/{APT}"), decode_balance)
    assert client.account_balance(address, "0xa").value == by_coin.value
    agrees(
        client.account_balance(address, APT, ledger_version=3),
        http.get(f"/accounts/{address}/balance/{APT}", params={"ledger_version": 3}),
        decode_balance,
    )


def test_account_transactions(client: Any, http: httpx.Client, scorer: tuple[str, str]) -> None:
    sender, _ = scorer
    result = client.account_transactions(sender, start=0, limit=5)
    raw = http.get(f"/accounts/{sender}/transactions", params={"start": 0, "limit": 5})
    agrees(result, raw, decode_transactions)
    assert result.value
    assert all(t.sender == sender for t in result.value)


# -- events ----------------------------------------------------------------------------------


def test_events_by_handle_and_by_creation_number(client: Any, http: httpx.Client) -> None:
    by_handle = client.events_by_handle("0x1", BLOCK_RESOURCE, "new_block_events", limit=5)
    raw = http.get(f"/accounts/0x1/events/{BLOCK_RESOURCE}/new_block_events",
                   params={"limit": 5})  # fmt: skip
    agrees(by_handle, raw, decode_events)
    creation = by_handle.value[0].guid.creation_number
    by_number = client.events_by_creation_number("0x1", creation, start=0, limit=5)
    agrees(by_number, http.get(f"/accounts/0x1/events/{creation}",
                               params={"start": 0, "limit": 5}), decode_events)  # fmt: skip
    assert [e.sequence_number for e in by_number.value] == [0, 1, 2, 3, 4]


def test_event_walks_reach_both_ends(client: Any, http: httpx.Client) -> None:
    raw = http.get(f"/accounts/0x1/events/{BLOCK_RESOURCE}/new_block_events",
                   params={"start": 0, "limit": 100})  # fmt: skip
    stream = decode_events(raw.content)
    assert len(stream) > 7
    newest_first = [r.value for r in client.iter_events(
        "0x1", event_handle=BLOCK_RESOURCE, field_name="new_block_events", limit=7)]  # fmt: skip
    assert newest_first == stream[::-1]
    creation = stream[0].guid.creation_number
    oldest_first = [r.value for r in client.iter_events("0x1", creation, forward=True, limit=7)]
    assert oldest_first == stream
    middle = [r.value.sequence_number for r in client.iter_events("0x1", creation, start=9)]
    assert middle == list(range(9, -1, -1))


# -- transactions ----------------------------------------------------------------------------


def test_transactions_page_and_the_walk_to_the_head(client: Any, http: httpx.Client) -> None:
    agrees(
        client.transactions(start=0, limit=30),
        http.get("/transactions", params={"start": 0, "limit": 30}),
        decode_transactions,
    )
    agrees(client.transactions(), http.get("/transactions"), decode_transactions)
    head = client.ledger_info().value.ledger_version
    walked = list(client.iter_transactions(0, limit=64))
    assert [r.value.version for r in walked] == list(range(head + 1))
    some = [r.value.version for r in client.iter_transactions(10, 25, limit=4)]
    assert some == list(range(10, 25))


def test_send_asks_what_a_call_describes_and_reads_it_either_way(
    client: Any, http: httpx.Client
) -> None:
    agrees(
        client.send(calls.transactions(start=20, limit=15)),
        http.get("/transactions", params={"start": 20, "limit": 15}),
        decode_transactions,
    )
    rows = client.send(calls.transactions(start=20, limit=15), decoder=decode_transaction_rows)
    raw = http.get("/transactions", params={"start": 20, "limit": 15})
    agrees(rows, raw, decode_transaction_rows)
    assert [row.version for row in rows.value] == list(range(20, 35))


def test_transaction_by_version_and_by_hash(client: Any, http: httpx.Client) -> None:
    by_version = client.transaction_by_version(5)
    agrees(by_version, http.get("/transactions/by_version/5"), decode_transaction)
    txn_hash = by_version.value.hash
    agrees(client.transaction_by_hash(txn_hash), http.get(f"/transactions/by_hash/{txn_hash}"),
           decode_transaction)  # fmt: skip
    with pytest.raises(TransactionNotFoundError):
        client.transaction_by_hash("0x" + "00" * 32)


def test_chain_identity_is_the_chain_id_and_the_genesis_hash(
    client: Any, http: httpx.Client
) -> None:
    identity = client.chain_identity()
    genesis = http.get("/transactions/by_version/0")
    assert identity.value.chain_id == 4
    assert identity.value.genesis_hash == genesis.json()["hash"]
    assert identity.ledger.chain_id == 4


def test_auxiliary_info(client: Any, http: httpx.Client) -> None:
    result = client.transactions_auxiliary_info(0, limit=10)
    raw = http.get("/transactions/auxiliary_info", params={"start_version": 0, "limit": 10})
    agrees(result, raw, lambda b: decode(b, list[AuxiliaryInfo]))
    assert len(result.value) == 10


def test_blocks_by_height_and_by_version(client: Any, http: httpx.Client) -> None:
    plain = client.block_by_height(3)
    agrees(plain, http.get("/blocks/by_height/3"), decode_block)
    full = client.block_by_height(3, with_transactions=True)
    agrees(full, http.get("/blocks/by_height/3", params={"with_transactions": "true"}),
           decode_block)  # fmt: skip
    assert isinstance(full.value, Block)
    assert len(full.value.transactions) == full.value.transaction_count
    by_version = client.block_by_version(plain.value.first_version, with_transactions=True)
    agrees(by_version, http.get(f"/blocks/by_version/{plain.value.first_version}",
                                params={"with_transactions": "true"}), decode_block)  # fmt: skip
    assert by_version.value == full.value


# -- tables and views ------------------------------------------------------------------------


def test_table_items_by_json_and_by_bcs_key(
    client: Any, http: httpx.Client, scorer: tuple[str, str]
) -> None:
    sender, scored = scorer
    board = client.account_resource(sender, BOARD).value
    handle = board.data["scores"]["handle"]
    body = {"key_type": "address", "value_type": "u64", "key": scored}
    result = client.table_item(handle, "address", "u64", scored)
    agrees(result, http.post(f"/tables/{handle}/item", json=body), lambda b: decode(b, Any))
    assert result.value.isdigit()
    key = bytes(Address.parse(scored))
    raw = http.post(f"/tables/{handle}/raw_item", json={"key": "0x" + key.hex()},
                    headers={"Accept": "application/x-bcs"})  # fmt: skip
    bcs = client.raw_table_item(handle, key)
    agrees(bcs, raw, bytes)
    assert int.from_bytes(bcs.value, "little") == int(result.value)
    at_head = client.table_item(handle, "address", "u64", scored,
                                ledger_version=result.ledger.ledger_version)  # fmt: skip
    assert at_head.value == result.value


def test_view_in_json_and_bcs(client: Any, http: httpx.Client, node: LocalNode) -> None:
    address = str(dev(node).address)
    body = {"function": "0x1::coin::balance", "type_arguments": [APT], "arguments": [address]}
    result = client.view_json("0x1::coin::balance", [APT], [address])
    agrees(result, http.post("/view", json=body), decode_view)
    assert result.ledger.gas_used is not None
    raw_bcs = http.post("/view", json=body, headers={"Accept": "application/x-bcs"})
    agrees(client.view_bcs("0x1::coin::balance", [APT], [address]), raw_bcs, bytes)
    call = EntryFunction.build("0x1::coin::balance", [APT], [("address", address)])
    as_bcs = client.view_bcs(call, ledger_version=3)
    assert as_bcs.value[0] == 1  # one return value
    assert int.from_bytes(as_bcs.value[1:], "little") == int(
        client.view_json("0x1::coin::balance", [APT], [address], ledger_version=3).value[0]
    )


# -- building, simulating, submitting ----------------------------------------------------------


def transfer(client: Any, node: LocalNode, amount: int, sender: int = 0) -> RawTransaction:
    account = dev(node, sender)
    sequence = client.account(account.address).value.sequence_number
    payload = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", dev(node, 1).address), ("u64", amount)]
    )
    return RawTransaction(account.address, sequence, payload, 200_000, 100,
                          int(time.time()) + 600, 4)  # fmt: skip


def test_encode_submission_matches_the_local_signing_message(client: Any, node: LocalNode) -> None:
    raw = transfer(client, node, 10)
    request = {
        "sender": str(raw.sender),
        "sequence_number": str(raw.sequence_number),
        "max_gas_amount": str(raw.max_gas_amount),
        "gas_unit_price": str(raw.gas_unit_price),
        "expiration_timestamp_secs": str(raw.expiration_timestamp_secs),
        "payload": {
            "type": "entry_function_payload",
            "function": "0x1::aptos_account::transfer",
            "type_arguments": [],
            "arguments": [str(dev(node, 1).address), "10"],
        },
    }
    encoded = client.encode_submission(request).value
    assert isinstance(encoded, EncodedSubmission)
    assert encoded.signing_message == raw.signing_message()
    assert encoded.raw == raw
    assert encoded.raw_bytes == raw.to_bcs()
    assert encoded.request == request


def test_encode_submission_of_a_transaction_object(client: Any, node: LocalNode) -> None:
    """The client writes the transaction in JSON (its arguments by the function's ABI)."""
    raw = transfer(client, node, 21)
    encoded = client.encode_submission(raw).value
    assert encoded.signing_message == raw.signing_message()
    assert encoded.raw == raw
    assert encoded.request["payload"]["arguments"] == [str(dev(node, 1).address), "21"]
    multi = MultiAgentRawTransaction(raw, (dev(node, 4).address,))
    encoded_multi = client.encode_submission(multi).value
    assert encoded_multi.signing_message == multi.signing_message()
    assert encoded_multi.raw == multi
    script = Script(b"\xa1\x1c\xeb\x0b", (), (ScriptArgument("address", dev(node, 1).address),
                                               ScriptArgument("u256", 2**256 - 1)))  # fmt: skip
    for payload in (script, Multisig(dev(node, 4).address, raw.payload)):
        other = replace(raw, payload=payload)
        assert client.encode_submission(other).value.raw == other


def test_encode_submission_of_another_chains_transaction_is_refused(
    client: Any, node: LocalNode
) -> None:
    raw = replace(transfer(client, node, 1), chain_id=99)
    with pytest.raises(DecodingError, match="chain 99"):
        client.encode_submission(raw)


def test_a_secp256k1_account_signs_and_submits_over_json(client: Any, node: LocalNode) -> None:
    """A new secp256k1 account, funded by a dev account, spends over the JSON path: its
    signature goes as a single_sender single-key signature."""
    funder, fresh = dev(node, 6), Account.generate("secp256k1")
    funding = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", fresh.address), ("u64", 10**8)]
    )
    sequence = client.account(funder.address).value.sequence_number
    raw = RawTransaction(funder.address, sequence, funding, 200_000, 100,
                         int(time.time()) + 600, 4)  # fmt: skip
    pending = client.submit_transaction(funder.sign(raw)).value
    assert client.wait_for_transaction(pending.hash, timeout=30).value.success

    call = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", funder.address), ("u64", 1_234)]
    )
    spend = RawTransaction(fresh.address, 0, call, 200_000, 100, int(time.time()) + 600, 4)
    encoded = client.encode_submission(spend).value
    signature = fresh.sign_message(bytes(encoded.signing_message))
    body = encoded.json_submission(fresh.public_key, signature)
    assert body["signature"]["type"] == "single_sender"
    pending = client.submit_transaction(body).value
    assert pending.hash == str(fresh.sign(spend).hash())
    committed = client.wait_for_transaction(pending.hash, timeout=30).value
    assert committed.success, committed.vm_status
    assert client.account(fresh.address).value.sequence_number == 1


def test_a_json_submission_with_a_detached_signature_commits(client: Any, node: LocalNode) -> None:
    """Encode, sign the bytes elsewhere, submit JSON: the path of signers without BCS."""
    account = dev(node, 5)
    raw = transfer(client, node, 4_321, sender=5)
    encoded = client.encode_submission(raw).value
    signature = account.sign_message(bytes(encoded.signing_message))
    with pytest.raises(SigningError):
        encoded.json_submission(account.public_key, bytes(64))
    body = encoded.json_submission(account.public_key, signature)
    assert body["signature"] == {
        "type": "ed25519_signature",
        "public_key": str(account.public_key),
        "signature": "0x" + signature.hex(),
    }
    pending = client.submit_transaction(body).value
    assert pending.hash == str(account.sign(raw).hash())
    committed = client.wait_for_transaction(pending.hash, timeout=30).value
    assert committed.success, committed.vm_status
    assert client.account(account.address).value.sequence_number == raw.sequence_number + 1


def test_simulate_a_transfer(client: Any, node: LocalNode) -> None:
    raw = transfer(client, node, 1000)
    [simulated], ledger = client.simulate_transaction(
        raw, public_key=dev(node).private_key.public_key, estimate_gas_unit_price=True
    )
    assert isinstance(simulated, UserTransaction)
    assert simulated.success, simulated.vm_status
    assert ledger.gas_used == simulated.gas_used > 0


def test_submit_and_wait_commits_a_transfer(client: Any, node: LocalNode) -> None:
    sender, receiver = dev(node, 0).address, dev(node, 1).address
    before = client.account_balance(receiver, APT).value
    signed = dev(node).private_key.sign_transaction(transfer(client, node, 12_345))
    pending = client.submit_transaction(signed)
    assert isinstance(pending.value, PendingTransaction)
    assert pending.value.hash == str(signed.hash())
    committed = client.wait_for_transaction(pending.value.hash, timeout=30)
    assert isinstance(committed.value, UserTransaction)
    assert committed.value.success, committed.value.vm_status
    assert committed.ledger.ledger_version >= committed.value.version
    assert client.account_balance(receiver, APT).value == before + 12_345
    assert client.account(sender).value.sequence_number == signed.raw.sequence_number + 1
    assert client.transaction_by_hash(signed.hash()).value == committed.value


def test_submit_a_batch_takes_the_good_and_lists_the_refused(client: Any, node: LocalNode) -> None:
    account = dev(node, 3)
    first = transfer(client, node, 11, sender=3)
    second = replace(first, sequence_number=first.sequence_number + 1)
    other_chain = replace(first, sequence_number=first.sequence_number + 2, chain_id=5)
    batch = [account.private_key.sign_transaction(raw) for raw in (first, second, other_chain)]
    result = client.submit_batch_transactions(batch).value
    [refused] = result.transaction_failures
    assert refused.transaction_index == 2
    assert isinstance(refused.exception, VMError)
    assert refused.exception.vm_error_code == 23
    committed = client.wait_for_transaction(batch[1].hash(), timeout=30).value
    assert isinstance(committed, UserTransaction)
    assert committed.success, committed.vm_status
    assert client.account(account.address).value.sequence_number == second.sequence_number + 1


def test_a_used_sequence_number_is_refused_as_too_old(client: Any, node: LocalNode) -> None:
    account = dev(node, 2)
    signed = account.private_key.sign_transaction(transfer(client, node, 7, sender=2))
    pending = client.submit_transaction(signed)
    client.wait_for_transaction(pending.value.hash, timeout=30)
    used = signed.raw.sequence_number
    assert client.account(account.address).value.sequence_number == used + 1
    # The same transaction again, then another one at the number it used.
    other = RawTransaction(signed.raw.sender, used, signed.raw.payload, 200_000, 100,
                           signed.raw.expiration_timestamp_secs + 1, 4)  # fmt: skip
    for again in (signed, account.private_key.sign_transaction(other)):
        with pytest.raises(SequenceNumberTooOldError) as caught:
            client.submit_transaction(again)
        assert type(caught.value) is SequenceNumberTooOldError
        assert caught.value.status == 400
        assert caught.value.error_code == "sequence_number_too_old"
    assert client.account(account.address).value.sequence_number == used + 1


def test_every_client_method_is_exercised_here() -> None:
    source = Path(__file__).read_text()
    methods = [n for n in vars(Client) if not n.startswith("_") and n != "close"]
    missing = [n for n in methods if f"client.{n}(" not in source]
    assert missing == []
