"""Answers without ``type``, as nodes send them: a submission's pending transaction and a
simulation's user transactions, read by the public decoders (the aptos-core goldens in
``untagged/`` and hand-written bodies); and the decoders of the other answers of the API."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

import pytest
from untagged_answers import SIMULATED, U64_MAX, Simulated, golden, pending

from ledgerkit import DecodingError
from ledgerkit.models import (
    AuxiliaryInfo,
    EntryFunctionPayload,
    HealthStatus,
    PendingTransaction,
    UserTransaction,
    WriteResource,
    WriteTableItem,
    decode_auxiliary_info,
    decode_batch_submit_result,
    decode_health,
    decode_pending_transaction,
    decode_signing_message,
    decode_simulation,
    decode_table_item,
    decode_transaction,
    decode_transaction_summaries,
    decode_transactions,
    to_builtins,
)

# -- submissions -----------------------------------------------------------------------------


class Submitted(NamedTuple):
    name: str
    sequence_number: int
    replay_protection_nonce: int | None
    function: str
    signature: str


SUBMITTED = [
    Submitted(
        "post_bcs_format_transaction",
        0,
        None,
        "0x1::aptos_account::create_account",
        "0x87785983b4007292a001db5489ef3ea273d54833c3b90bb7a262b6639444e757"
        "2630ddb3c35245796e99577df54c8a7e5096cb061a94ccabd0bd76dfe1374e09",
    ),
    Submitted(
        "post_bcs_format_transaction_payload_v2",
        0,
        None,
        "0x1::aptos_account::create_account",
        "0x4d6a3f993b270af855850e6daa469524858865013dc1eb665a2e0e94fbca7354"
        "0c28c0e03e2cfe7143abde25030f432772518e275342d43fef9f15414a4e4e04",
    ),
    Submitted(
        "post_bcs_format_transaction_orderless",
        U64_MAX,
        14488165282383183438,
        "0x1::velor_account::create_account",
        "0x252dcf1ac634087648853d44cb216ff427d10e109c974c8f4ddf6feaf71b1217"
        "77890aba49470c071a2791e7a67c64726beb0f4192c628c0372d7b70c54cbf07",
    ),
]


@pytest.mark.parametrize("case", SUBMITTED, ids=lambda case: case.name)
@pytest.mark.parametrize("decoder", [decode_pending_transaction, decode_transaction])
def test_a_submission_golden_decodes_as_a_pending_transaction(
    case: Submitted, decoder: Any
) -> None:
    txn = decoder(golden(case.name))

    assert isinstance(txn, PendingTransaction)
    assert txn.hash == ""  # blanked by the harness that wrote the golden
    assert txn.sender == "0xa550c18"
    assert txn.sequence_number == case.sequence_number
    assert txn.replay_protection_nonce == case.replay_protection_nonce
    assert (txn.max_gas_amount, txn.gas_unit_price, txn.expiration_timestamp_secs) == (
        100000000,
        0,
        60,
    )
    assert txn.payload == EntryFunctionPayload(
        function=case.function,
        type_arguments=[],
        arguments=["0x34bf7e2d17674feb234371a7ea58efd715f0e56ba20ebf13789480d9d643afaf"],
    )
    assert to_builtins(txn.signature) == {
        "type": "ed25519_signature",
        "public_key": "0x14418f867a0bd6d42abb2daa50cd68a5a869ce208282481f57504f630510d0d3",
        "signature": case.signature,
    }


def test_a_pending_transaction_without_type_decodes_with_exact_integers() -> None:
    body = pending(
        payload={
            "type": "entry_function_payload",
            "function": "0x1::aptos_account::transfer",
            "type_arguments": [],
            "arguments": ["0x2", "18446744073709551615"],
        }
    )
    data = json.dumps(body).encode()

    for txn in (decode_pending_transaction(data), decode_transaction(data)):
        assert isinstance(txn, PendingTransaction)
        assert txn.hash == "0x" + "ab" * 32
        assert txn.sender_address.short == "0x7"
        assert txn.sequence_number == 9007199254740993
        assert txn.expiration_timestamp_secs == 18446744073709551615
        assert txn.payload.arguments == ["0x2", "18446744073709551615"]  # type: ignore[union-attr]
        assert to_builtins(txn)["type"] == "pending_transaction"

    tagged = json.dumps({"type": "pending_transaction", **body}).encode()
    assert decode_pending_transaction(tagged) == decode_pending_transaction(data)


def test_a_pending_decoder_refuses_a_committed_transaction() -> None:
    [item] = json.loads(golden("simulation_failure_with_detail_error"))
    with pytest.raises(DecodingError, match=r"PendingTransaction.*user_transaction"):
        decode_pending_transaction(json.dumps(item))


# -- simulations -----------------------------------------------------------------------------


#: The decoded type of each change type a golden holds.
CHANGES = {"write_resource": WriteResource, "write_table_item": WriteTableItem}


def check_simulated(txn: object, case: Simulated) -> None:
    assert isinstance(txn, UserTransaction)
    assert txn.version == case.version
    assert txn.hash == ""  # blanked by the harness that wrote the golden
    assert txn.sender == case.sender
    assert txn.sequence_number == case.sequence_number
    assert txn.replay_protection_nonce == case.replay_protection_nonce
    assert txn.expiration_timestamp_secs == case.expiration_timestamp_secs
    assert (txn.max_gas_amount, txn.gas_unit_price) == (100000000, 0)
    assert txn.success is False
    assert txn.vm_status == case.vm_status
    assert txn.gas_used == case.gas_used
    assert txn.state_checkpoint_hash is None
    assert [type(change) for change in txn.changes] == [CHANGES[case.change]] * case.changes
    [fee] = txn.events
    assert fee.type == "0x1::transaction_fee::FeeStatement"
    assert fee.data["total_charge_gas_units"] == str(case.gas_used)
    assert txn.timestamp == case.timestamp
    assert to_builtins(txn)["type"] == "user_transaction"


@pytest.mark.parametrize("case", SIMULATED, ids=lambda case: case.name)
@pytest.mark.parametrize("decoder", [decode_simulation, decode_transactions])
def test_a_simulation_golden_decodes_as_user_transactions(case: Simulated, decoder: Any) -> None:
    [txn] = decoder(golden(case.name))
    check_simulated(txn, case)


@pytest.mark.parametrize("case", SIMULATED, ids=lambda case: case.name)
def test_one_simulated_transaction_decodes_on_its_own(case: Simulated) -> None:
    [item] = json.loads(golden(case.name))
    check_simulated(decode_transaction(json.dumps(item)), case)


def test_a_simulation_golden_keeps_its_payload_and_state_changes() -> None:
    [txn] = decode_simulation(golden("simulation_failure_with_detail_error"))

    assert txn.payload == EntryFunctionPayload(
        function="0x1::MemeCoin::transfer",
        type_arguments=["0x1::aptos_coin::AptosCoin"],
        arguments=[
            "0x00000000000000000000000000000000000000000000000000000000000000dd",
            "0x0100000000000000",
        ],
    )
    assert txn.replay_protection_nonce is None  # absent from this golden
    [change] = txn.changes
    assert isinstance(change, WriteResource)
    assert change.address == "0xa550c18"
    assert change.data.type == "0x1::account::Account"
    assert change.data.data["sequence_number"] == "1"


def test_a_simulation_decoder_takes_a_user_transaction_tag_and_refuses_others() -> None:
    [item] = json.loads(golden("simulation_failure_with_detail_error"))

    tagged = json.dumps([{"type": "user_transaction", **item}])
    [txn] = decode_simulation(tagged)
    assert (txn.success, txn.gas_used) == (False, 3)

    pending = json.dumps([{**item, "type": "pending_transaction"}])
    with pytest.raises(DecodingError):
        decode_simulation(pending)


def test_a_page_may_mix_tagged_and_untagged_transactions() -> None:
    [item] = json.loads(golden("simulation_failure_with_move_abort_error_rendering"))
    pending = json.loads(golden("post_bcs_format_transaction"))
    page = json.dumps([{"type": "user_transaction", **item}, item, pending])

    kinds = [type(txn) for txn in decode_transactions(page)]

    assert kinds == [UserTransaction, UserTransaction, PendingTransaction]


@pytest.mark.parametrize(
    "body",
    [
        {"version": "5", "timestamp": "1"},  # a version, but no sender
        {"epoch": "1", "round": "2"},  # no hash and no version
    ],
)
def test_a_transaction_whose_kind_its_fields_do_not_tell_is_refused(body: dict[str, Any]) -> None:
    with pytest.raises(DecodingError, match="type"):
        decode_transaction(json.dumps(body))
    with pytest.raises(DecodingError, match=r"\[0\]"):
        decode_transactions(json.dumps([body]))


# -- the other answers ------------------------------------------------------------------------


def test_health() -> None:
    assert decode_health(b'{"message": "aptos-node:ok"}') == HealthStatus(message="aptos-node:ok")


def test_auxiliary_info() -> None:
    infos = decode_auxiliary_info(b'[{"transaction_index": 3}, {}]')
    assert infos == [AuxiliaryInfo(transaction_index=3), AuxiliaryInfo(transaction_index=None)]


def test_transaction_summaries() -> None:
    body = json.dumps(
        [
            {
                "sender": "0x1",
                "version": "18446744073709551615",
                "transaction_hash": "0x" + "cd" * 32,
                "replay_protector": {"type": "sequence_number", "sequence_number": "5"},
            }
        ]
    )
    [summary] = decode_transaction_summaries(body)
    assert summary.version == 18446744073709551615
    assert summary.transaction_hash == "0x" + "cd" * 32
    assert summary.replay_protector == {"type": "sequence_number", "sequence_number": "5"}


@pytest.mark.parametrize(
    ("protector", "sequence_number", "nonce"),
    [
        ({"type": "sequence_number", "value": "5"}, 5, None),
        ({"type": "nonce", "value": "12648430"}, None, 12648430),
        ({"type": "sequence_number", "sequence_number": "5"}, 5, None),
        ({"type": "nonce", "nonce": "7"}, None, 7),
        ({"SequenceNumber": "5"}, 5, None),  # the Rust enum as serde writes it
        ({"Nonce": 7}, None, 7),
        ({"type": "sequence_number", "value": "-5"}, None, None),
        ({"type": "sequence_number", "value": str(2**64)}, None, None),
        ({"type": "sequence_number", "value": True}, None, None),
        ("5", None, None),  # a bare number says neither which kind nor is trusted as one
        (None, None, None),
    ],
)
def test_a_summarys_replay_protector_is_read_as_a_sequence_number_or_a_nonce(
    protector: object, sequence_number: int | None, nonce: int | None
) -> None:
    body = json.dumps(
        [
            {
                "sender": "0x1",
                "version": "3",
                "transaction_hash": "0x" + "cd" * 32,
                "replay_protector": protector,
            }
        ]
    )
    [summary] = decode_transaction_summaries(body)
    assert (summary.sequence_number, summary.nonce) == (sequence_number, nonce)


def test_batch_submit_result() -> None:
    body = json.dumps(
        {
            "transaction_failures": [
                {
                    "error": {
                        "message": "Mempool is full",
                        "error_code": "mempool_is_full",
                        "vm_error_code": None,
                    },
                    "transaction_index": 2,
                }
            ]
        }
    )
    [failure] = decode_batch_submit_result(body).transaction_failures
    assert failure.transaction_index == 2
    assert failure.error["error_code"] == "mempool_is_full"
    assert decode_batch_submit_result(b'{"transaction_failures": []}').transaction_failures == []


def test_signing_message() -> None:
    assert decode_signing_message(b'"0x6c6564676572"') == b"ledger"
    with pytest.raises(DecodingError, match="hex"):
        decode_signing_message(b'"0xzz"')
    with pytest.raises(DecodingError, match="hex"):
        decode_signing_message(b"[1, 2]")


def test_table_item_stays_plain_json() -> None:
    u128_max = "340282366920938463463374607431768211455"
    assert decode_table_item(f'"{u128_max}"'.encode()) == u128_max
    assert decode_table_item(b'{"v": [1, true, null]}') == {"v": [1, True, None]}
    with pytest.raises(DecodingError):
        decode_table_item(b'{"v": ')
