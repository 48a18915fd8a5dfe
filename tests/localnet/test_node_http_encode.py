"""encode_submission over HTTP for every payload kind the node reads (entry function,
script, multisig with and without its call), single-signer and multi-agent: the node's
bytes are ledgerkit's own signing message, and the official Python SDK's where the SDK
has the same operation."""

from __future__ import annotations

from typing import Any, Final

import httpx
import pytest
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.bcs import Serializer as SdkSerializer
from aptos_sdk.transactions import EntryFunction as SdkEntryFunction
from aptos_sdk.transactions import MultiAgentRawTransaction as SdkMultiAgentRaw
from aptos_sdk.transactions import RawTransaction as SdkRawTransaction
from aptos_sdk.transactions import Script as SdkScript
from aptos_sdk.transactions import ScriptArgument as SdkScriptArgument
from aptos_sdk.transactions import TransactionArgument
from aptos_sdk.transactions import TransactionPayload as SdkPayload
from aptos_sdk.type_tag import StructTag as SdkStructTag
from aptos_sdk.type_tag import TypeTag as SdkTypeTag

from ledgerkit.bcs import (
    EntryFunction,
    MultiAgentRawTransaction,
    Multisig,
    RawTransaction,
    Script,
    ScriptArgument,
    TransactionPayload,
)
from ledgerkit.tx import submission_request
from ledgerkit.types import Address, MoveType

SENDER: Final = Address.parse("0x" + "a1" * 32)
PEER: Final = Address.parse("0x" + "b2" * 32)
SECONDARY: Final = (Address.parse("0x2"), Address.parse("0x" + "44" * 32))
MULTISIG: Final = Address.parse("0x" + "5e" * 32)
APT: Final = "0x1::aptos_coin::AptosCoin"
CODE: Final = bytes.fromhex("a11ceb0b0700000a06010002030206050807") + bytes(range(40))
FIELDS: Final = {"sequence_number": 12, "max_gas_amount": 5_000, "gas_unit_price": 150,
                 "expiration_timestamp_secs": 1_900_000_123}  # fmt: skip


def chain_id(http: httpx.Client) -> int:
    value: int = http.get("/").json()["chain_id"]
    return value


def request(payload: dict[str, Any], secondary: tuple[Address, ...] = ()) -> dict[str, Any]:
    body: dict[str, Any] = {
        "sender": SENDER.standard,
        **{name: str(value) for name, value in FIELDS.items()},
        "payload": payload,
    }
    if secondary:
        body["secondary_signers"] = [a.standard for a in secondary]
    return body


def encode(http: httpx.Client, body: dict[str, Any]) -> bytes:
    answer = http.post("/transactions/encode_submission", json=body)
    assert answer.status_code == 200, answer.text
    return bytes.fromhex(answer.json().removeprefix("0x"))


def ours(payload: TransactionPayload, chain: int) -> RawTransaction:
    return RawTransaction(SENDER, payload=payload, chain_id=chain, **FIELDS)


def sdk_message(payload: Any, chain: int, secondary: tuple[Address, ...]) -> bytes:
    raw = SdkRawTransaction(
        AccountAddress.from_str(SENDER.standard), FIELDS["sequence_number"], SdkPayload(payload),
        FIELDS["max_gas_amount"], FIELDS["gas_unit_price"], FIELDS["expiration_timestamp_secs"],
        chain,
    )  # fmt: skip
    if not secondary:
        return raw.keyed()
    addresses = [AccountAddress.from_str(a.standard) for a in secondary]
    return SdkMultiAgentRaw(raw, addresses).keyed()


def sdk_address(address: Address) -> AccountAddress:
    return AccountAddress.from_str(address.standard)


# -- the payload kinds: (JSON, ledgerkit's payload, the SDK's payload or None) -----------------


def transfer() -> tuple[dict[str, Any], TransactionPayload, Any]:
    json_payload = {
        "type": "entry_function_payload",
        "function": "0x1::aptos_account::transfer",
        "type_arguments": [],
        "arguments": [PEER.standard, "1000"],
    }
    payload = EntryFunction.build(
        "0x1::aptos_account::transfer", [], [("address", PEER), ("u64", 1000)]
    )
    sdk = SdkEntryFunction.natural(
        "0x1::aptos_account", "transfer", [],
        [TransactionArgument(sdk_address(PEER), SdkSerializer.struct),
         TransactionArgument(1000, SdkSerializer.u64)],
    )  # fmt: skip
    return json_payload, payload, sdk


def generic_transfer() -> tuple[dict[str, Any], TransactionPayload, Any]:
    json_payload = {
        "type": "entry_function_payload",
        "function": "0x1::coin::transfer",
        "type_arguments": [APT],
        "arguments": [PEER.standard, "18446744073709551615"],
    }
    payload = EntryFunction.build(
        "0x1::coin::transfer", [APT], [("address", PEER), ("u64", 2**64 - 1)]
    )
    sdk = SdkEntryFunction.natural(
        "0x1::coin", "transfer", [SdkTypeTag(SdkStructTag.from_str(APT))],
        [TransactionArgument(sdk_address(PEER), SdkSerializer.struct),
         TransactionArgument(2**64 - 1, SdkSerializer.u64)],
    )  # fmt: skip
    return json_payload, payload, sdk


def script() -> tuple[dict[str, Any], TransactionPayload, Any]:
    """A script with the argument kinds the SDK writes (u8, u64, u128, address, bytes, bool)."""
    params = ["&signer", "address", "u64", "vector<u8>", "bool", "u8", "u128"]
    values = [PEER.standard, "77", "0xc0ffee", True, 255, str(2**128 - 1)]
    json_payload = {
        "type": "script_payload",
        "code": {"bytecode": "0x" + CODE.hex(), "abi": {"params": params}},
        "type_arguments": [APT],
        "arguments": values,
    }
    args = (
        ScriptArgument("address", PEER), ScriptArgument("u64", 77),
        ScriptArgument("u8_vector", b"\xc0\xff\xee"), ScriptArgument("bool", True),
        ScriptArgument("u8", 255), ScriptArgument("u128", 2**128 - 1),
    )  # fmt: skip
    payload = Script(CODE, (MoveType.parse(APT),), args)
    sdk = SdkScript(CODE, [SdkTypeTag(SdkStructTag.from_str(APT))], [
        SdkScriptArgument(SdkScriptArgument.ADDRESS, sdk_address(PEER)),
        SdkScriptArgument(SdkScriptArgument.U64, 77),
        SdkScriptArgument(SdkScriptArgument.U8_VECTOR, b"\xc0\xff\xee"),
        SdkScriptArgument(SdkScriptArgument.BOOL, True),
        SdkScriptArgument(SdkScriptArgument.U8, 255),
        SdkScriptArgument(SdkScriptArgument.U128, 2**128 - 1),
    ])  # fmt: skip
    return json_payload, payload, sdk


def wide_script() -> tuple[dict[str, Any], TransactionPayload, Any]:
    """The argument kinds the SDK does not write (u16, u32, u256), and no signer."""
    json_payload = {
        "type": "script_payload",
        "code": {"bytecode": "0x" + CODE.hex(), "abi": {"params": ["u16", "u32", "u256"]}},
        "type_arguments": [],
        "arguments": [65535, 4294967295, str(2**256 - 1)],
    }
    args = (ScriptArgument("u16", 65535), ScriptArgument("u32", 2**32 - 1),
            ScriptArgument("u256", 2**256 - 1))  # fmt: skip
    return json_payload, Script(CODE, (), args), None


def multisig_call() -> tuple[dict[str, Any], TransactionPayload, Any]:
    inner_json, inner, _ = transfer()
    json_payload = {
        "type": "multisig_payload",
        "multisig_address": MULTISIG.standard,
        "transaction_payload": inner_json,
    }
    assert isinstance(inner, EntryFunction)
    return json_payload, Multisig(MULTISIG, inner), None


def multisig_stored() -> tuple[dict[str, Any], TransactionPayload, Any]:
    json_payload = {"type": "multisig_payload", "multisig_address": MULTISIG.standard}
    return json_payload, Multisig(MULTISIG), None


KINDS: Final = {
    "entry function": transfer,
    "generic entry function": generic_transfer,
    "script": script,
    "script with u16 u32 u256": wide_script,
    "multisig with its call": multisig_call,
    "multisig call stored on chain": multisig_stored,
}


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("signers", ["single signer", "multi-agent"])
def test_the_node_encodes_each_payload_as_ledgerkit_and_the_sdk_do(
    http: httpx.Client, kind: str, signers: str
) -> None:
    json_payload, payload, sdk_payload = KINDS[kind]()
    secondary = SECONDARY if signers == "multi-agent" else ()
    chain = chain_id(http)
    encoded = encode(http, request(json_payload, secondary))
    raw = ours(payload, chain)
    expected = (
        MultiAgentRawTransaction(raw, secondary).signing_message()
        if secondary
        else raw.signing_message()
    )
    assert encoded == expected
    if sdk_payload is not None:
        assert encoded == sdk_message(sdk_payload, chain, secondary)


#: The value parameter types of each kind's entry function, for ``submission_request``.
PARAMS: Final = {"entry function": ["address", "u64"], "generic entry function": ["address", "u64"],
                 "multisig with its call": ["address", "u64"]}  # fmt: skip


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("signers", ["single signer", "multi-agent"])
def test_ledgerkits_json_request_of_each_payload_encodes_to_its_own_bytes(
    http: httpx.Client, kind: str, signers: str
) -> None:
    """``submission_request`` writes the request the node reads back into the same bytes."""
    _, payload, _ = KINDS[kind]()
    raw: RawTransaction | MultiAgentRawTransaction = ours(payload, chain_id(http))
    if signers == "multi-agent":
        raw = MultiAgentRawTransaction(raw, SECONDARY)
    body = submission_request(raw, param_types=PARAMS.get(kind))
    assert encode(http, body) == raw.signing_message()


def test_the_multi_agent_message_is_not_the_single_signer_one(http: httpx.Client) -> None:
    json_payload, _, _ = transfer()
    single = encode(http, request(json_payload))
    multi = encode(http, request(json_payload, SECONDARY))
    assert single[32:] != multi[32:]
    assert single[:32] != multi[:32]  # another prefix


@pytest.mark.parametrize(
    ("payload", "says"),
    [
        ({"type": "script_payload", "code": {"bytecode": "0x" + CODE.hex()},
          "type_arguments": [], "arguments": []}, "code.abi"),
        ({"type": "script_payload", "code": {"bytecode": "0x00", "abi": {"params": ["u8"]}},
          "type_arguments": [], "arguments": [256]}, "arguments[0]"),
        ({"type": "script_payload", "code": {"bytecode": "0x00", "abi": {"params": ["bool"]}},
          "type_arguments": [], "arguments": ["true"]}, "true or false"),
        ({"type": "script_payload", "code": {"bytecode": "0x00",
                                              "abi": {"params": ["vector<u64>"]}},
          "type_arguments": [], "arguments": [["1"]]}, "vector<u8>"),
        ({"type": "script_payload", "code": {"bytecode": "0x00", "abi": {"params": ["u8"]}},
          "type_arguments": [], "arguments": []}, "lists 1 parameter(s)"),
        ({"type": "script_payload", "code": {"bytecode": "nothex", "abi": {"params": []}},
          "type_arguments": [], "arguments": []}, "bytecode"),
        ({"type": "multisig_payload", "multisig_address": "0x1",
          "transaction_payload": {"type": "script_payload"}}, "entry function"),
        ({"type": "multisig_payload"}, "multisig_address"),
        ({"type": "module_bundle_payload"}, "not supported"),
    ],
)  # fmt: skip
def test_a_malformed_payload_is_invalid_input_naming_the_field(
    http: httpx.Client, payload: dict[str, Any], says: str
) -> None:
    answer = http.post("/transactions/encode_submission", json=request(payload))
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert body["error_code"] == "invalid_input"
    assert says in body["message"]


def test_a_script_from_an_account_that_does_not_exist_goes_no_further(
    http: httpx.Client,
) -> None:
    """The node runs scripts; this one's sender has no account: submitted, it is refused;
    simulated, it fails in the prologue."""
    json_payload, _, _ = KINDS["script"]()
    signature = {"type": "ed25519_signature", "public_key": "0x" + "11" * 32,
                 "signature": "0x" + "00" * 64}  # fmt: skip
    body = {**request(json_payload), "signature": signature}
    answer = http.post("/transactions", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error_code"] in ("invalid_input", "vm_error")
    simulated = http.post("/transactions/simulate", json=body)
    assert simulated.status_code == 200, simulated.text
    assert [(t["success"], t["vm_status"]) for t in simulated.json()] == [
        (False, "SENDING_ACCOUNT_DOES_NOT_EXIST")
    ]


def test_a_multisig_payload_for_an_account_that_is_not_one_is_refused(
    http: httpx.Client,
) -> None:
    """The node runs multisig payloads; its multisig address here is no multisig account,
    so the prologue refuses it: ``ACCOUNT_NOT_MULTISIG`` (StatusCode 31)."""
    json_payload, _, _ = KINDS["multisig with its call"]()
    signature = {"type": "ed25519_signature", "public_key": "0x" + "11" * 32,
                 "signature": "0x" + "00" * 64}  # fmt: skip
    body = {**request(json_payload), "signature": signature}
    answer = http.post("/transactions", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error_code"] in ("invalid_input", "vm_error")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("sender", "5"),
        ("sender", "a1" * 32),
        ("sender", 5),
        ("secondary_signers", ["2"]),
    ],
)
def test_an_address_in_the_body_is_0x_and_hex(http: httpx.Client, field: str, value: Any) -> None:
    # Only path parameters may leave out the 0x (the API's Address type).
    transfer = {"type": "entry_function_payload", "function": "0x1::aptos_account::transfer",
                "type_arguments": [], "arguments": [PEER.standard, "1"]}  # fmt: skip
    body = {**request(transfer, SECONDARY), field: value}
    answer = http.post("/transactions/encode_submission", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error_code"] == "invalid_input"
    assert field in answer.json()["message"]
