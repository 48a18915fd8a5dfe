"""Real bodies from a running embedded node (seed 7, 40 blocks) decode into the records:
every transaction of the chain, blocks, resources, modules with ABIs, events, gas, ledger
info, and a transfer while pending, committed and simulated."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import pytest
from model_checks import assert_same_json, records, round_trip

from ledgerkit import models as m
from ledgerkit.bcs import Ed25519Authenticator, EntryFunction, RawTransaction, SignedTransaction
from ledgerkit.localnet import LocalNode

APT = "0x1::aptos_coin::AptosCoin"
SIGNED_TXN_BCS = "application/x.aptos.signed_transaction+bcs"


def _body(http: httpx.Client, path: str, **params: Any) -> bytes:
    response = http.get(path, params=params)
    assert response.status_code == 200, response.text
    return response.content


@pytest.fixture(scope="module")
def pages(http: httpx.Client) -> list[bytes]:
    """The whole chain as the node pages it, 100 transactions a page."""
    latest = int(orjson.loads(_body(http, "/"))["ledger_version"])
    return [_body(http, "/transactions", start=s, limit=100) for s in range(0, latest + 1, 100)]


def test_every_transaction_of_the_chain_decodes_typed(pages: list[bytes]) -> None:
    kinds: Counter[str] = Counter()
    versions = []
    for page in pages:
        txns = m.decode_transactions(page)
        sent = orjson.loads(page)
        assert len(txns) == len(sent)
        assert not [r for r in records(txns) if isinstance(r, m.UnknownVariant)]
        assert_same_json(sent, m.to_builtins(txns))  # nothing lost, every U64 exact
        round_trip(txns, list[m.Transaction])
        kinds.update(type(t).__name__ for t in txns)
        versions += [t.version for t in txns if isinstance(t, m.CommittedTransaction)]
    assert versions == list(range(len(versions)))
    assert kinds["GenesisTransaction"] == 1
    assert kinds["BlockMetadataTransaction"] == kinds["BlockEpilogueTransaction"] == 40
    assert kinds["UserTransaction"] > 100


def test_what_the_chain_holds_reads_as_expected(pages: list[bytes]) -> None:
    txns = [t for page in pages for t in m.decode_transactions(page)]
    genesis = txns[0]
    assert isinstance(genesis, m.GenesisTransaction)
    assert isinstance(genesis.payload, m.WriteSetPayload)
    assert isinstance(genesis.payload.write_set, m.DirectWriteSet)
    assert genesis.payload.write_set.changes
    users = [t for t in txns if isinstance(t, m.UserTransaction)]
    assert all(isinstance(t.payload, m.EntryFunctionPayload) for t in users)
    assert all(isinstance(t.signature, m.Ed25519Signature) for t in users)
    changes = Counter(
        type(c).__name__ for t in txns if isinstance(t, m.CommittedTransaction) for c in t.changes
    )
    assert {"WriteResource", "WriteTableItem", "WriteModule"} <= changes.keys()
    tables = [c for t in users for c in t.changes if isinstance(c, m.WriteTableItem)]
    assert all(c.data is not None for c in tables)
    epilogues = [t for t in txns if isinstance(t, m.BlockEpilogueTransaction)]
    assert all(t.block_end_info is not None for t in epilogues)
    metadata = [t for t in txns if isinstance(t, m.BlockMetadataTransaction)]
    # Rising, one block each; rounds count within an epoch (the day has many epochs).
    positions = [(t.epoch, t.round) for t in metadata]
    assert positions == sorted(set(positions))
    assert len({t.epoch for t in metadata}) > 1


def test_a_page_decodes_the_same_whole_or_item_by_item(pages: list[bytes]) -> None:
    page = pages[1]
    one_by_one = [m.decode_transaction(orjson.dumps(item)) for item in orjson.loads(page)]
    assert m.decode_transactions(page) == one_by_one


@pytest.mark.parametrize("height", [0, 1, 3, 20, 40])
def test_blocks_with_their_transactions(http: httpx.Client, height: int) -> None:
    body = _body(http, f"/blocks/by_height/{height}", with_transactions="true")
    block = m.decode_block(body)
    assert block.block_height == height
    assert block.transactions is not None
    assert len(block.transactions) == block.transaction_count
    versions = [t.version for t in block.transactions if isinstance(t, m.CommittedTransaction)]
    assert versions == list(range(block.first_version, block.last_version + 1))
    assert_same_json(orjson.loads(body), m.to_builtins(block))
    round_trip(block, m.Block)
    bare = m.decode_block(_body(http, f"/blocks/by_height/{height}"))
    assert bare.transactions is None
    assert bare.first_version == block.first_version


def test_ledger_info_health_gas_and_auxiliary_info(http: httpx.Client) -> None:
    info = m.decode_ledger_info(_body(http, "/"))
    assert info.chain_id == 4
    assert info.node_role == "full_node"
    assert info.block_height >= 40
    assert info.git_hash
    assert m.decode(_body(http, "/-/healthy"), m.HealthStatus).message.endswith(":ok")
    gas = m.decode_gas_estimate(_body(http, "/estimate_gas_price"))
    assert gas.deprioritized_gas_estimate is not None
    assert gas.prioritized_gas_estimate is not None
    assert gas.deprioritized_gas_estimate <= gas.gas_estimate <= gas.prioritized_gas_estimate
    aux = m.decode(
        _body(http, "/transactions/auxiliary_info", start_version=0, limit=5),
        list[m.AuxiliaryInfo],
    )
    assert len(aux) == 5
    assert aux[1].transaction_index == 0


def test_accounts_resources_and_balance(http: httpx.Client, node: LocalNode) -> None:
    address = node.dev_accounts[0].address.long
    account = m.decode_account(_body(http, f"/accounts/{address}"))
    assert account.authentication_key.startswith("0x")
    body = _body(http, f"/accounts/{address}/resources")
    resources = m.decode_resources(body)
    assert "0x1::account::Account" in {r.type for r in resources}
    assert_same_json(orjson.loads(body), m.to_builtins(resources))
    for r in resources:
        assert r.struct_tag.address.short == "0x1"
    balance = m.decode_balance(_body(http, f"/accounts/{address}/balance/{APT}"))
    assert isinstance(balance, int)
    assert balance > 0
    supply = m.decode_resource(
        _body(http, "/accounts/0xa/resource/0x1::fungible_asset::ConcurrentSupply")
    )
    assert supply.data["current"]["max_value"] == str(2**128 - 1)  # a u128, exact


def test_modules_with_abis(http: httpx.Client) -> None:
    body = _body(http, "/accounts/0x1/modules")
    modules = m.decode_modules(body)
    assert modules
    assert all(mod.abi is not None for mod in modules)
    assert_same_json(orjson.loads(body), m.to_builtins(modules))
    account = m.decode_module(_body(http, "/accounts/0x1/module/account"))
    assert account.abi is not None
    getter = account.abi.function("get_sequence_number")
    assert getter is not None
    assert (getter.is_view, getter.params, getter.return_) == (True, ["address"], ["u64"])
    functions = [f for mod in modules if mod.abi for f in mod.abi.exposed_functions]
    assert any(f.is_entry and f.params[:1] == ["&signer"] for f in functions)
    assert any(s.fields for mod in modules if mod.abi for s in mod.abi.structs)


def test_events_from_a_stream(http: httpx.Client) -> None:
    body = _body(http, "/accounts/0x1/events/2", start=0, limit=10)
    events = m.decode_events(body)
    assert [e.sequence_number for e in events] == list(range(len(events)))
    assert all(e.version is not None and e.type == "0x1::block::NewBlockEvent" for e in events)
    assert all(e.guid == m.EventGuid(creation_number=2, account_address="0x1") for e in events)
    assert_same_json(orjson.loads(body), m.to_builtins(events))


def test_view_results_stay_plain_json(http: httpx.Client, node: LocalNode) -> None:
    address = node.dev_accounts[0].address.long
    response = http.post(
        "/view",
        json={
            "function": "0x1::account::get_sequence_number",
            "type_arguments": [],
            "arguments": [address],
        },
    )
    assert response.status_code == 200, response.text
    [sequence] = m.decode_view(response.content)
    assert isinstance(sequence, str)
    assert sequence.isdigit()


def _transfer(http: httpx.Client, node: LocalNode, *, zero_signature: bool) -> SignedTransaction:
    account = node.dev_accounts[1]
    info = m.decode_ledger_info(_body(http, "/"))
    sequence = m.decode_account(_body(http, f"/accounts/{account.address.long}")).sequence_number
    payload = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", node.dev_accounts[2].address), ("u64", 5)]
    )
    raw = RawTransaction(
        account.address, sequence, payload, 200_000, 150, int(time.time()) + 600, info.chain_id
    )
    if zero_signature:
        auth = Ed25519Authenticator(account.private_key.public_key_bytes, bytes(64))
        return SignedTransaction(raw, auth)
    return raw.sign(account.private_key)


@pytest.fixture
def own_node() -> Iterator[tuple[httpx.Client, LocalNode]]:
    """A node of the test's own, for a test that writes: the session node keeps exactly the
    generated chain the other tests read, whatever order they run in."""
    with LocalNode(seed=7, blocks=3) as node, httpx.Client(base_url=node.url, timeout=30) as http:
        yield http, node


def test_a_transfer_pending_committed_and_simulated(
    own_node: tuple[httpx.Client, LocalNode],
) -> None:
    http, node = own_node
    simulated = http.post(
        "/transactions/simulate",
        content=_transfer(http, node, zero_signature=True).to_bcs(),
        headers={"Content-Type": SIGNED_TXN_BCS},
    )
    assert simulated.status_code == 200, simulated.text
    # Simulate and submit answer by their own schemas, without the union's `type` tag.
    [sim] = m.decode(simulated.content, list[m.UserTransaction])
    assert isinstance(sim, m.UserTransaction)
    assert sim.success
    assert all(e.version is None for e in sim.events)  # events inside a transaction

    submitted = http.post(
        "/transactions",
        content=_transfer(http, node, zero_signature=False).to_bcs(),
        headers={"Content-Type": SIGNED_TXN_BCS},
    )
    assert submitted.status_code == 202, submitted.text
    pending = m.decode(submitted.content, m.PendingTransaction)
    assert isinstance(pending, m.PendingTransaction)
    assert isinstance(pending.payload, m.EntryFunctionPayload)
    assert pending.payload.arguments[1] == "5"
    assert pending.sender_address == node.dev_accounts[1].address
    round_trip(pending, m.Transaction)

    for _ in range(30):
        found = m.decode_transaction(_body(http, f"/transactions/wait_by_hash/{pending.hash}"))
        if not isinstance(found, m.PendingTransaction):
            break
    assert isinstance(found, m.UserTransaction)
    assert (found.hash, found.sequence_number, found.success) == (
        pending.hash,
        pending.sequence_number,
        True,
    )
    assert found.gas_used == sim.gas_used
    by_version = m.decode_transaction(_body(http, f"/transactions/by_version/{found.version}"))
    assert by_version == found
