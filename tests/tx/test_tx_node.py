"""Building, viewing and transferring against the embedded node.

Python values go in, the node executes them, and what it says back is checked against
values written out here: the JSON arguments of the committed payload, view results,
balances read over plain HTTP before and after. Request counts come from a transport
that records what the client sends.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
import time
from typing import Any, Final

import httpx
import pytest
from tx_helpers import APT, LDT, Counting, balance

from ledgerkit import (
    Address,
    ArgumentError,
    AsyncClient,
    Client,
    Ed25519PrivateKey,
    Secp256k1PrivateKey,
    SequenceNumberTooOldError,
)
from ledgerkit.bcs import (
    EntryFunction,
    FeePayerRawTransaction,
    MultiAgentRawTransaction,
    RawTransaction,
    TransactionPayloadV1,
)
from ledgerkit.localnet import LocalNode
from ledgerkit.models import FeePayerSignature, MultiAgentSignature
from ledgerkit.tx import sign_transaction

U64_MAX: Final = 2**64 - 1
CHAIN_ID: Final = 4
#: Enough for a transfer that creates its recipient (about 10,400 units).
GAS: Final = {"max_gas_amount": 20_000, "gas_unit_price": 100}


def commit(client: Client, built: Any, sender: Any, **signers: Any) -> Any:
    pending = client.submit_transaction(sign_transaction(built, sender, **signers)).value
    txn = client.wait_for_transaction(pending.hash).value
    assert txn.success, txn.vm_status
    return txn


def account_reads(counting: Counting) -> int:
    """``GET /accounts/{address}`` requests (not its resources, modules or balances)."""
    return sum(
        1
        for method, path in counting.sent
        if method == "GET" and re.search(r"/accounts/[^/]+$", path)
    )


# -- Python value -> BCS -> node -> JSON -----------------------------------------------------


def test_committed_arguments_come_back_as_given(client: Client, fund: Any, node: LocalNode) -> None:
    key = fund(10**11)
    other = Ed25519PrivateKey.generate().address()
    third = Ed25519PrivateKey.generate().address()
    dev = node.dev_accounts[5]  # only ever paid to, here
    calls = [
        ("0x1::aptos_account::transfer", [dev, 1], [], [str(dev.address), "1"]),
        ("0x1::ledger_demo::set_profile", ["bob", 100, ["a", "ü"]], [], ["bob", 100, ["a", "ü"]]),
        ("0x1::ledger_demo::set_cell", [1, "2", U64_MAX], [], ["1", "2", str(U64_MAX)]),
        (
            "0x1::aptos_account::batch_transfer",
            [[other, str(third)[2:]], [2**33 + 1, 3]],
            [],
            [[str(other), str(third)], [str(2**33 + 1), "3"]],
        ),
        ("0x1::aptos_account::transfer_coins", [other, 7], [APT], [str(other), "7"]),
        (
            "0x1::primary_fungible_store::transfer",
            [Address.parse("0xa"), other.short, 5],
            ["0x1::fungible_asset::Metadata"],
            [{"inner": "0xa"}, str(other), "5"],
        ),
    ]
    for function, arguments, type_arguments, expected in calls:
        built = client.build_transaction(key, function, arguments, type_arguments=type_arguments)
        txn = commit(client, built, key)
        assert txn.payload.function == function
        assert txn.payload.type_arguments == type_arguments
        assert txn.payload.arguments == expected, function


def test_a_byte_vector_comes_back_as_hex(client: Client, fund: Any) -> None:
    key = fund(10**8)  # this account's key is rotated away: nothing else uses it
    new_key = bytes(range(32))
    built = client.build_transaction(
        key, "0x1::account::rotate_authentication_key_call", [list(new_key)]
    )
    txn = commit(client, built, key)
    assert txn.payload.arguments == ["0x" + new_key.hex()]


def test_views_give_plain_python_values(client: Client, http: httpx.Client, fund: Any) -> None:
    key = fund(12_345, ldt=77)
    owner = key.address()
    apt = [APT]

    def view(function: str, arguments: list[Any], type_arguments: list[str] = []) -> Any:  # noqa: B006
        return client.view(function, arguments, type_arguments=type_arguments).value

    def raw_view(function: str, arguments: list[Any], type_arguments: list[str] = []) -> Any:  # noqa: B006
        body = {"function": function, "type_arguments": type_arguments, "arguments": arguments}
        answer = http.post("/view", json=body)
        assert answer.status_code == 200, answer.text
        return answer.json()

    assert view("0x1::coin::balance", [owner], apt) == [12_345]
    assert view("0x1::account::exists_at", [str(owner)]) == [True]
    assert view("0x1::account::get_authentication_key", [owner]) == [bytes(owner)]
    assert view("0x1::ledger_demo::profile", [owner, "nobody"]) == [None]
    supply = view("0x1::coin::supply", [], apt)
    assert supply == [int(raw_view("0x1::coin::supply", [], apt)[0]["vec"][0])]
    assert isinstance(supply[0], int)
    assert view("0x1::coin::paired_metadata", [], apt) == [Address.parse("0xa")]
    assert view("0x1::coin::paired_coin", ["0xa"]) == [
        {
            "account_address": Address.parse("0x1"),
            "module_name": b"aptos_coin",
            "struct_name": b"AptosCoin",
        }
    ]
    metadata = ["0x1::fungible_asset::Metadata"]
    assert view("0x1::fungible_asset::name", [LDT], metadata) == ["Demo Token"]
    assert view("0x1::fungible_asset::decimals", [LDT], metadata) == [6]
    maximum = int(raw_view("0x1::fungible_asset::maximum", [LDT], metadata)[0]["vec"][0])
    assert view("0x1::fungible_asset::maximum", [LDT], metadata) == [maximum]
    store = Address(hashlib.sha3_256(bytes(owner) + bytes(Address.parse(LDT)) + b"\xfc").digest())
    assert view("0x1::primary_fungible_store::primary_store_address", [owner, LDT], metadata) == [
        store
    ]
    assert view("0x1::primary_fungible_store::balance", [owner, LDT], metadata) == [77]
    assert view(
        "0x1::fungible_asset::store_metadata", [store], ["0x1::fungible_asset::FungibleStore"]
    ) == [Address.parse(LDT)]


def test_a_struct_set_by_a_transaction_is_viewed_as_a_dict(client: Client, fund: Any) -> None:
    key = fund(10**8)
    built = client.build_transaction(key, "0x1::ledger_demo::set_profile", ["ann", 3, ["x"]])
    commit(client, built, key)
    built = client.build_transaction(key, "0x1::ledger_demo::set_cell", [2**63, 0, U64_MAX])
    commit(client, built, key)
    profile = client.view("0x1::ledger_demo::profile", [key.address(), "ann"]).value
    assert profile == [{"name": "ann", "level": 3, "tags": ["x"]}]
    cell = client.view("0x1::ledger_demo::cell", [key.address(), 2**63, 0]).value
    assert cell == [U64_MAX]


def test_view_json_keeps_the_node_json(client: Client, fund: Any) -> None:
    key = fund(5)
    result = client.view_json("0x1::coin::balance", [APT], [str(key.address())])
    assert result.value == ["5"]


# -- bad input: a typed error, and nothing sent ---------------------------------------------

STRING: Final = "0x1::string::String"
METADATA: Final = "0x1::fungible_asset::Metadata"
SET_PROFILE: Final = "0x1::ledger_demo::set_profile"
SET_CELL: Final = "0x1::ledger_demo::set_cell"

#: (function, arguments, type arguments, what the message says, the value it shows)
BAD: Final[list[tuple[str, list[Any], list[str], str, str]]] = [
    (SET_PROFILE, ["bob", 256, []], [], "argument 1 (parameter 2) expects u8", "256"),
    (SET_PROFILE, [b"bob", 1, []], [], f"argument 0 (parameter 1) expects {STRING}", "b'bob'"),
    (SET_PROFILE, ["bob", 1, "ab"], [], f"(parameter 3) expects vector<{STRING}>", "'ab'"),
    (SET_CELL, [-1, 0, 0], [], "argument 0 (parameter 1) expects u64", "-1"),
    (SET_CELL, [0, 2**64, 0], [], "argument 1 (parameter 2) expects u64", str(2**64)),
    (SET_CELL, [0, 0, True], [], "argument 2 (parameter 3) expects u64", "True"),
    (SET_CELL, [0, 0], [], "takes 3 argument(s)", ""),
    ("0x1::aptos_account::transfer", ["0xzz", 1], [], "(parameter 1) expects address", "'0xzz'"),
    ("0x1::aptos_account::transfer_coins", ["0x1", 1], [], "takes 1 type argument(s), got 0", ""),
    (
        "0x1::aptos_account::batch_transfer",
        [["0x1"], [1.5]],
        [],
        "argument 1 (parameter 2) expects vector<u64>",
        "[1.5]",
    ),
    (
        "0x1::primary_fungible_store::transfer",
        [5, "0x1", 1],
        [METADATA],
        f"argument 0 (parameter 1) expects 0x1::object::Object<{METADATA}>",
        "5",
    ),
    (
        "0x1::account::rotate_authentication_key_call",
        ["0x1"],
        [],
        "argument 0 (parameter 1) expects vector<u8>",
        "'0x1'",
    ),
]


@pytest.mark.parametrize(("function", "arguments", "type_arguments", "where", "shown"), BAD)
def test_bad_input_raises_before_anything_is_sent(
    client: Client,
    counting: Counting,
    node: LocalNode,
    function: str,
    arguments: list[Any],
    type_arguments: list[str],
    where: str,
    shown: str,
) -> None:
    sender = node.dev_accounts[6]  # never sends: every build here fails
    module = function.rsplit("::", 1)[0]
    client.account_module("0x1", module.split("::")[1])  # not the ABI cache: a plain read
    with pytest.raises(ArgumentError):  # the first build learns the ABI, then refuses
        client.build_transaction(sender, function, arguments, type_arguments=type_arguments)
    counting.sent.clear()
    with pytest.raises(ArgumentError) as info:
        client.build_transaction(sender, function, arguments, type_arguments=type_arguments)
    assert counting.sent == []
    assert where in str(info.value)
    assert shown in str(info.value)
    assert function in str(info.value)


def test_bad_view_and_transfer_input_sends_nothing(
    client: Client, counting: Counting, node: LocalNode
) -> None:
    sender = node.dev_accounts[6]
    client.view("0x1::ledger_demo::board_exists", ["0x1"])
    with pytest.raises(ArgumentError):
        client.transfer(sender, "0x1", -5)  # learns aptos_account's ABI, then refuses
    counting.sent.clear()
    with pytest.raises(ArgumentError, match=r"argument 1 \(parameter 1\) expects 0x1::string"):
        client.view("0x1::ledger_demo::profile", ["0x1", 5])
    with pytest.raises(ArgumentError, match=r"expects u64, got -5"):
        client.transfer(sender, "0x1", -5)
    assert counting.sent == []


def test_a_function_that_is_not_there_or_not_entry(client: Client, node: LocalNode) -> None:
    sender = node.dev_accounts[6]
    with pytest.raises(ValueError, match="has no exposed function 'nope'"):
        client.build_transaction(sender, "0x1::coin::nope", [])
    with pytest.raises(ValueError, match="not an entry function"):
        client.build_transaction(sender, "0x1::coin::balance", ["0x1"], type_arguments=[APT])
    with pytest.raises(ValueError, match="not a view function"):
        client.view("0x1::aptos_account::transfer", ["0x1", 1])


# -- auto-fill -------------------------------------------------------------------------------


def test_every_field_is_filled_in(client: Client, http: httpx.Client, fund: Any) -> None:
    key = fund(10**9)
    to = Ed25519PrivateKey.generate().address()
    before = int(http.get("/").json()["ledger_timestamp"]) // 10**6
    started = time.monotonic()
    built = client.build_transaction(key, "0x1::aptos_account::transfer", [to, 10])
    took = math.ceil(time.monotonic() - started)
    after = int(http.get("/").json()["ledger_timestamp"]) // 10**6
    assert isinstance(built, RawTransaction)
    assert built.sender == key.address()
    assert built.sequence_number == 0
    assert built.chain_id == CHAIN_ID == http.get("/").json()["chain_id"]
    assert built.gas_unit_price == http.get("/estimate_gas_price").json()["gas_estimate"]
    # From the chain's clock: the ledger time of the node's answers, plus the time since.
    assert before + 600 <= built.expiration_timestamp_secs <= after + 600 + took
    txn = commit(client, built, key)
    assert built.max_gas_amount == math.ceil(int(txn.gas_used) * 1.5)


def test_a_burst_reads_the_sequence_number_once(
    client: Client, counting: Counting, http: httpx.Client, fund: Any
) -> None:
    key = fund(10**9)
    to = Ed25519PrivateKey.generate().address()
    counting.sent.clear()
    hashes = []
    numbers = []
    for amount in range(1, 6):
        built = client.build_transaction(key, "0x1::aptos_account::transfer", [to, amount], **GAS)
        assert isinstance(built, RawTransaction)
        numbers.append(built.sequence_number)
        hashes.append(client.submit_transaction(sign_transaction(built, key)).value.hash)
    assert numbers == [0, 1, 2, 3, 4]
    assert account_reads(counting) == 1
    for digest in hashes:
        assert client.wait_for_transaction(digest).value.success
    assert balance(http, to) == 1 + 2 + 3 + 4 + 5


def test_a_stale_sequence_number_is_read_again(
    client: Client, counting: Counting, funder_client: Client, fund: Any
) -> None:
    key = fund(10**9)
    to = Ed25519PrivateKey.generate().address()
    first = client.transfer(key, to, 1, **GAS).value
    assert first.sequence_number == 0
    # Another client sends from the same account: this client's count is now behind.
    elsewhere = funder_client.transfer(key, to, 1, **GAS).value
    assert elsewhere.sequence_number == 1
    counting.sent.clear()
    again = client.transfer(key, to, 1, **GAS).value  # refused once as too old, rebuilt
    assert again.success
    assert again.sequence_number == 2
    assert account_reads(counting) == 1
    assert counting.count("POST", "/transactions") == 2


def test_a_secp256k1_sender(
    client: Client, http: httpx.Client, funder_client: Client, node: LocalNode
) -> None:
    key = Secp256k1PrivateKey.generate()
    funder_client.transfer(node.dev_accounts[7], key.address(), 10**8)
    to = Ed25519PrivateKey.generate().address()
    txn = client.transfer(key, to, 99).value
    assert txn.success
    assert txn.signature is not None
    assert balance(http, to) == 99


# -- multi-agent, fee payer, orderless -------------------------------------------------------


def test_multi_agent(client: Client, http: httpx.Client, fund: Any) -> None:
    sender, second = fund(10**8), fund(10**8)
    created = Ed25519PrivateKey.generate().address()
    built = client.build_transaction(
        sender, "0x1::aptos_account::create_account", [created], secondary_signers=[second]
    )
    assert isinstance(built, MultiAgentRawTransaction)
    assert built.secondary_signers == (second.address(),)
    txn = commit(client, built, sender, secondary_signers=[second])
    assert isinstance(txn.signature, MultiAgentSignature)
    assert http.get(f"/accounts/{created}").status_code == 200


@pytest.mark.parametrize("known", [True, False], ids=["fee-payer-known", "fee-payer-later"])
def test_fee_payer_pays_the_gas(client: Client, http: httpx.Client, fund: Any, known: bool) -> None:
    sender, payer = fund(5_000), fund(10**8)
    to = Ed25519PrivateKey.generate().address()
    before = balance(http, sender.address()), balance(http, payer.address())
    built = client.build_transaction(
        sender,
        "0x1::aptos_account::transfer",
        [to, 1_000],
        fee_payer=payer if known else True,
    )
    assert isinstance(built, FeePayerRawTransaction)
    assert built.fee_payer == (payer.address() if known else Address.parse("0x0"))
    txn = commit(client, built, sender, fee_payer=payer)
    assert isinstance(txn.signature, FeePayerSignature)
    fee = int(txn.gas_used) * int(txn.gas_unit_price)
    assert balance(http, sender.address()) == before[0] - 1_000
    assert balance(http, payer.address()) == before[1] - fee
    assert balance(http, to) == 1_000


def test_orderless_bytes(client: Client, http: httpx.Client, fund: Any) -> None:
    key = fund(10**8)
    to = Address.parse("0x" + "cd" * 32)
    built = client.build_transaction(
        key, "0x1::aptos_account::transfer", [to, 10], replay_protection_nonce=0x0102, **GAS
    )
    assert isinstance(built, RawTransaction)
    ledger_secs = int(http.get("/").json()["ledger_timestamp"]) // 10**6
    assert ledger_secs < built.expiration_timestamp_secs <= ledger_secs + 100
    entry = (
        bytes(31) + b"\x01" + b"\x0daptos_account" + b"\x08transfer" + b"\x00"
        + b"\x02" + b"\x20" + bytes(to) + b"\x08" + (10).to_bytes(8, "little")
    )  # fmt: skip
    payload = (
        b"\x04"
        + b"\x00"
        + b"\x01"
        + entry
        + b"\x00"
        + b"\x00"
        + b"\x01"
        + (0x0102).to_bytes(8, "little")
    )
    expected = (
        bytes(key.address()) + b"\xff" * 8 + payload + (20_000).to_bytes(8, "little")
        + (100).to_bytes(8, "little") + built.expiration_timestamp_secs.to_bytes(8, "little")
        + bytes([CHAIN_ID])
    )  # fmt: skip
    assert built.to_bcs() == expected
    assert isinstance(built.payload, TransactionPayloadV1)
    assert isinstance(built.payload.executable, EntryFunction)
    random = client.build_transaction(
        key, "0x1::aptos_account::transfer", [to, 10], replay_protection_nonce=True, **GAS
    )
    assert isinstance(random.payload, TransactionPayloadV1)
    assert random.payload.replay_protection_nonce is not None
    assert 0 <= random.payload.replay_protection_nonce <= U64_MAX


def test_orderless_commits(client: Client, http: httpx.Client, fund: Any) -> None:
    key = fund(10**8)
    to = Ed25519PrivateKey.generate().address()
    built = client.build_transaction(
        key, "0x1::aptos_account::transfer", [to, 10], replay_protection_nonce=True
    )
    txn = commit(client, built, key)
    assert txn.replay_protection_nonce == built.payload.replay_protection_nonce  # type: ignore[union-attr]
    assert balance(http, to) == 10


# -- transfer --------------------------------------------------------------------------------


def test_transfer_of_a_coin(client: Client, http: httpx.Client, fund: Any) -> None:
    sender = fund(10**8)
    to = fund(1)
    before = balance(http, sender.address()), balance(http, to.address())
    txn = client.transfer(sender, to, 12_345_678).value
    assert txn.success
    assert txn.payload.function == "0x1::aptos_account::transfer_coins"
    assert txn.payload.type_arguments == [APT]
    fee = int(txn.gas_used) * int(txn.gas_unit_price)
    assert balance(http, sender.address()) == before[0] - 12_345_678 - fee
    assert balance(http, to.address()) == before[1] + 12_345_678


def test_transfer_of_a_fungible_asset(client: Client, http: httpx.Client, fund: Any) -> None:
    sender = fund(10**8, ldt=5_000)
    to = Ed25519PrivateKey.generate().address()
    apt_before = balance(http, sender.address())
    txn = client.transfer(sender, to, 1_234, asset=LDT).value
    assert txn.success
    assert txn.payload.function == "0x1::primary_fungible_store::transfer"
    assert txn.payload.arguments[0] == {"inner": LDT}
    fee = int(txn.gas_used) * int(txn.gas_unit_price)
    assert balance(http, sender.address(), LDT) == 5_000 - 1_234
    assert balance(http, to, LDT) == 1_234
    assert balance(http, sender.address()) == apt_before - fee


def test_the_async_client_builds_views_and_transfers(
    node: LocalNode, http: httpx.Client, fund: Any
) -> None:
    sender = fund(10**8)
    to = Ed25519PrivateKey.generate().address()

    async def main() -> tuple[Any, ...]:
        async with AsyncClient(node.url, cache=False) as client:
            built = await client.build_transaction(sender, "0x1::aptos_account::transfer", [to, 3])
            pending = await client.submit_transaction(sign_transaction(built, sender))
            await client.wait_for_transaction(pending.value.hash)
            sent = await client.transfer(sender, to, 4)
            seen = await client.view("0x1::coin::balance", [to], type_arguments=[APT])
            return built, sent.value, seen.value

    built, sent, seen = asyncio.run(main())
    assert isinstance(built, RawTransaction)
    assert built.sequence_number == 0
    assert sent.sequence_number == 1
    assert seen == [7]
    assert balance(http, to) == 7


def test_abis_are_kept_and_fetched_again_for_a_missing_function(
    client: Client, counting: Counting, node: LocalNode
) -> None:
    sender = node.dev_accounts[6]

    def module_reads() -> int:
        return counting.count("GET", "/module/ledger_demo")

    client.view("0x1::ledger_demo::board_exists", ["0x1"])
    client.view("0x1::ledger_demo::cell", ["0x1", 0, 0])
    client.build_transaction(sender, SET_CELL, [0, 0, 0], **GAS)
    assert module_reads() == 1  # one module, one read, for the client's life
    with pytest.raises(ValueError, match="no exposed function 'upgraded_later'"):
        client.view("0x1::ledger_demo::upgraded_later", [])
    assert module_reads() == 2  # not found in the kept ABI: the module may have changed
    client.view("0x1::ledger_demo::board_exists", ["0x1"])
    assert module_reads() == 2


def test_a_refused_submission_resyncs_the_count(
    client: Client, counting: Counting, funder_client: Client, fund: Any
) -> None:
    key = fund(10**9)
    to = Ed25519PrivateKey.generate().address()
    assert client.transfer(key, to, 1, **GAS).value.sequence_number == 0
    assert funder_client.transfer(key, to, 1, **GAS).value.sequence_number == 1
    stale = client.build_transaction(key, "0x1::aptos_account::transfer", [to, 1], **GAS)
    assert isinstance(stale, RawTransaction)
    assert stale.sequence_number == 1
    with pytest.raises(SequenceNumberTooOldError):
        client.submit_transaction(sign_transaction(stale, key))
    counting.sent.clear()
    fresh = client.build_transaction(key, "0x1::aptos_account::transfer", [to, 1], **GAS)
    assert isinstance(fresh, RawTransaction)
    assert fresh.sequence_number == 2
    assert account_reads(counting) == 1
