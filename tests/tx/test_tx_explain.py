"""Transactions explained field by field: committed transfers of the embedded node's
chain, transactions built here, arguments typed by ABI; the text, frame and Jupyter forms;
typed refusals."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any, Final

import pytest

import ledgerkit
from ledgerkit import Client, InputError, TransactionNotFoundError
from ledgerkit.bcs import (
    EntryFunction,
    MoveValueCodec,
    RawTransaction,
    SignedTransaction,
)
from ledgerkit.localnet import LocalNode
from ledgerkit.models import AbiCache, MoveModule, decode
from ledgerkit.tx import EXPLANATION_COLUMNS, explain_transaction
from ledgerkit.types import Address, ModuleId, MoveType

U64_MAX: Final = 2**64 - 1
U128_MAX: Final = 2**128 - 1


@pytest.fixture
def client(node: LocalNode) -> Iterator[Client]:
    with Client(node.url, cache=False) as c:
        yield c


def first_call(client: Client, function: str) -> Any:
    start = 0
    while True:
        page = client.transactions(start=start, limit=100).value
        assert page, f"no call of {function} on the chain"
        for txn in page:
            payload = getattr(txn, "payload", None)
            if getattr(payload, "function", None) == function:
                return txn
        start += len(page)


def arg_lines(text: str) -> list[str]:
    """The ``arg[i] = ...`` parts of the dump's argument lines."""
    return [m.group(1) for m in re.finditer(r"(?<!_)(arg\[\d+\] = .*)$", text, re.M)]


def test_committed_transfers_have_their_arguments_typed(client: Client) -> None:
    apt = first_call(client, "0x1::aptos_account::transfer")
    to, amount = apt.payload.arguments
    text = str(ledgerkit.explain(apt.version, client=client))
    assert arg_lines(text) == [f"arg[0] = address {to}", f"arg[1] = u64 {amount}"]

    coin = first_call(client, "0x1::coin::transfer")
    to, amount = coin.payload.arguments
    text = str(client.explain(coin.hash))
    assert "type_arg[0] = 0x1::aptos_coin::AptosCoin" in text
    assert arg_lines(text) == [f"arg[0] = address {to}", f"arg[1] = u64 {amount}"]

    fa = first_call(client, "0x1::primary_fungible_store::transfer")
    store, to, amount = fa.payload.arguments
    text = str(client.explain(fa.version))
    assert "type_arg[0] = 0x1::fungible_asset::Metadata" in text
    object_type = "0x1::object::Object<0x1::fungible_asset::Metadata>"
    assert arg_lines(text) == [
        f'arg[0] = {object_type} {{"inner": "{store["inner"]}"}}',
        f"arg[1] = address {to}",
        f"arg[2] = u64 {amount}",
    ]


def test_the_frame_holds_every_byte_once_with_exact_values(client: Client) -> None:
    apt = first_call(client, "0x1::aptos_account::transfer")
    explanation = client.explain(apt.version)
    frame = explanation.to_frame()
    assert tuple(frame.columns) == EXPLANATION_COLUMNS
    assert str(frame["offset"].dtype) == "int64"
    assert bytes.fromhex("".join(frame["bytes"])) == explanation.data
    assert list(frame["offset"]) == sorted(frame["offset"])
    by_field = dict(zip(frame["field"], frame["value"], strict=True))
    prefix = "TransactionData.OnChain.transaction.UserTransaction.raw_txn"
    assert by_field[f"{prefix}.payload.entry_function.args.arg[1]"] == int(apt.payload.arguments[1])
    assert by_field[f"{prefix}.sequence_number"] == apt.sequence_number
    assert by_field["TransactionData.OnChain.version"] == apt.version


def test_a_transaction_built_here_is_typed_by_the_fetched_abi(
    node: LocalNode, client: Client
) -> None:
    dev = node.dev_accounts[0]
    payload = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", "0x2"), ("u64", U64_MAX)]
    )
    raw = RawTransaction(dev.address, 0, payload, 2000, 100, 1_700_000_000, 4)
    signed = raw.sign(dev.private_key)
    for txn in (raw, signed):
        explanation = ledgerkit.explain(txn, client=client)
        assert arg_lines(str(explanation)) == ["arg[0] = address 0x2", f"arg[1] = u64 {U64_MAX}"]
        values = explanation.to_frame().set_index("field")["value"]
        exact = values[f"{type(txn).__name__}{'.raw_txn' * (txn is signed)}.payload."
                       "entry_function.args.arg[1]"]  # fmt: skip
        assert exact == U64_MAX
        assert type(exact) is int
    # Without a client the same bytes are explained, the arguments as bytes.
    plain = ledgerkit.explain(raw)
    assert arg_lines(str(plain)) == ["arg[0] = 0x" + "00" * 31 + "02", "arg[1] = 0x" + "ff" * 8]
    assert plain.data == raw.to_bcs()


MODULE_ABI: Final = b"""{
  "address": "0xcafe", "name": "shop", "friends": [], "structs": [],
  "exposed_functions": [{
    "name": "buy", "visibility": "public", "is_entry": true, "is_view": false,
    "generic_type_params": [{"constraints": []}],
    "params": ["&signer", "0x1::option::Option<u64>", "vector<T0>", "u128", "bool",
               "0x1::string::String", "0x1::option::Option<address>"],
    "return": []
  }]
}"""


def test_options_vectors_generics_strings_and_wide_integers() -> None:
    codec = MoveValueCodec()
    ef = EntryFunction.build(
        "0xcafe::shop::buy",
        ["address"],
        [
            ("0x1::option::Option<u64>", {"vec": ["5"]}),
            ("vector<address>", ["0x1", "0xbeef"]),
            ("u128", U128_MAX),
            ("bool", True),
            ("0x1::string::String", "héllo"),
            ("0x1::option::Option<address>", {"vec": []}),
        ],
        codec=codec,
    )
    raw = RawTransaction(Address.parse("0x7"), 3, ef, 10, 1, 2, 4)
    abis = AbiCache([decode(MODULE_ABI, MoveModule)])
    explanation = explain_transaction(raw, abis=abis)
    assert arg_lines(str(explanation)) == [
        "arg[0] = 0x1::option::Option<u64> some(5)",
        "arg[1] = vector<address> [0x1, 0x" + "0" * 60 + "beef]",
        f"arg[2] = u128 {U128_MAX}",
        "arg[3] = bool true",
        'arg[4] = 0x1::string::String "héllo"',
        "arg[5] = 0x1::option::Option<address> none",
    ]
    values = explanation.to_frame()["value"].tolist()
    assert U128_MAX in values
    assert explanation.typed
    assert repr(explanation) == (
        f"<TransactionExplanation RawTransaction: {len(raw.to_bcs())} bytes, "
        f"{len(explanation.to_frame())} fields, arguments typed>"
    )
    assert explanation._repr_html_().startswith("<pre>")
    assert "&quot;héllo&quot;" in explanation._repr_html_()
    # An ABI that does not fit the call (another arity) leaves the arguments untyped.
    short = EntryFunction(
        ModuleId(Address.parse("0xcafe"), "shop"), "buy", (MoveType.parse("u8"),), (b"\x01",)
    )
    assert not explain_transaction(
        RawTransaction(Address.parse("0x7"), 3, short, 10, 1, 2, 4), abis=abis
    ).typed


def test_a_call_of_an_unknown_module_is_explained_untyped(node: LocalNode, client: Client) -> None:
    ef = EntryFunction(ModuleId(Address.parse("0x1"), "no_such_module"), "f", (), (b"\x01",))
    raw = RawTransaction(node.dev_accounts[0].address, 0, ef, 10, 1, 2, 4)
    explanation = client.explain(raw)
    assert not explanation.typed
    assert arg_lines(str(explanation)) == ["arg[0] = 0x01"]


def test_a_pending_transaction_is_explained_as_pending() -> None:
    with LocalNode(seed=11, blocks=3) as node, Client(node.url, cache=False) as client:
        dev = node.dev_accounts[0]
        sequence = client.account(dev.address).value.sequence_number + 1  # waits behind a gap
        payload = EntryFunction.build(
            "0x1::aptos_account::transfer", [], [("address", "0x2"), ("u64", 1_000_000)]
        )
        expiration = client.ledger_info().value.ledger_timestamp // 10**6 + 600
        signed = RawTransaction(dev.address, sequence, payload, 2000, 100, expiration, 4).sign(
            dev.private_key
        )
        client.submit_transaction(signed)
        explanation = client.explain("0x" + bytes(signed.hash()).hex())
        text = str(explanation)
        assert "(TransactionData variant) = Pending" in text
        assert arg_lines(text) == ["arg[0] = address 0x2", "arg[1] = u64 1000000"]
        assert explanation.data == b"\x01" + signed.to_bcs()


def test_the_async_client_explains_the_same(node: LocalNode, client: Client) -> None:
    apt = first_call(client, "0x1::aptos_account::transfer")

    async def main() -> str:
        async with ledgerkit.AsyncClient(node.url, cache=False) as aclient:
            return str(await aclient.explain(apt.version))

    assert asyncio.run(main()) == str(client.explain(apt.version))


@pytest.mark.parametrize("txn", [5, "0x" + "ab" * 32, object(), True])
def test_bad_input_is_refused_with_a_typed_error(txn: Any) -> None:
    with pytest.raises(InputError):
        ledgerkit.explain(txn)


def test_an_async_client_at_the_front_door_is_told_to_await(node: LocalNode) -> None:
    async def main() -> None:
        async with ledgerkit.AsyncClient(node.url, cache=False) as aclient:
            with pytest.raises(InputError, match="await"):
                ledgerkit.explain(3, client=aclient)  # type: ignore[arg-type]

    asyncio.run(main())


def test_bad_input_through_a_client(client: Client) -> None:
    with pytest.raises(TransactionNotFoundError):
        client.explain(10**12)
    with pytest.raises(InputError):
        client.explain(True)
    with pytest.raises(InputError):
        client.explain(3.5)  # type: ignore[arg-type]
    with pytest.raises(ledgerkit.BCSDecodeError):
        explain_transaction(b"\x00", kind=SignedTransaction)
    with pytest.raises(InputError):
        explain_transaction(b"\x00")
