"""Every variant of every union decodes from hand-built bodies in the public node family's
shapes, loses nothing, and survives a round trip through ``to_builtins``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from model_checks import (
    assert_same_json,
    reference_document,
    round_trip,
    schema_errors,
)
from model_samples import (
    ABSTRACT,
    ABSTRACTION,
    ACCOUNT_SIGNATURES,
    BLOCK,
    CHANGES,
    COIN_STORE,
    DECRYPTED,
    ED25519,
    GAS_ESTIMATE,
    LEDGER_INFO,
    MODULE,
    MODULE_EVENT,
    MULTI_AGENT,
    MULTI_KEY,
    OLD_MODULE,
    PAYLOADS,
    PENDING,
    SINGLE_KEY,
    SUPPLY,
    TRANSACTION_SIGNATURES,
    TRANSACTIONS,
    U128_MAX,
    VERSIONED_EVENT,
    user_transaction,
)

from ledgerkit import models as m

EXPECTED_CLASS = {
    "ed25519_signature": m.Ed25519Signature,
    "multi_ed25519_signature": m.MultiEd25519Signature,
    "single_key_signature": m.SingleKeySignature,
    "multi_key_signature": m.MultiKeySignature,
    "no_account_signature": m.NoAccountSignature,
    "abstract_signature": m.AbstractSignature,
    "abstraction_signature": m.AbstractionSignature,
    "multi_agent_signature": m.MultiAgentSignature,
    "fee_payer_signature": m.FeePayerSignature,
    "single_sender": m.SingleSenderSignature,
    "entry_function_payload": m.EntryFunctionPayload,
    "script_payload": m.ScriptPayload,
    "module_bundle_payload": m.ModuleBundlePayload,
    "multisig_payload": m.MultisigPayload,
    "encrypted_transaction_payload": m.EncryptedTransactionPayload,
    "write_resource": m.WriteResource,
    "delete_resource": m.DeleteResource,
    "write_module": m.WriteModule,
    "delete_module": m.DeleteModule,
    "write_table_item": m.WriteTableItem,
    "delete_table_item": m.DeleteTableItem,
    "pending_transaction": m.PendingTransaction,
    "user_transaction": m.UserTransaction,
    "genesis_transaction": m.GenesisTransaction,
    "block_metadata_transaction": m.BlockMetadataTransaction,
    "state_checkpoint_transaction": m.StateCheckpointTransaction,
    "block_epilogue_transaction": m.BlockEpilogueTransaction,
    "validator_transaction": m.ValidatorTransaction,
}


def _ids(samples: list[tuple[str, Any, Any]]) -> list[str]:
    return [name for name, _, _ in samples]


def _check(body: dict[str, Any], type_: Any, name: str) -> Any:
    record = m.decode(json.dumps(body), type_)
    assert type(record) is EXPECTED_CLASS[name.split("/")[0]]
    assert not isinstance(record, m.UnknownVariant)
    assert_same_json(body, m.to_builtins(record))
    round_trip(record, type_)
    return record


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    return reference_document()


DESCRIBED = [
    sample
    for sample in ACCOUNT_SIGNATURES + TRANSACTION_SIGNATURES + PAYLOADS + CHANGES + TRANSACTIONS
    if sample[2] is not None
]


@pytest.mark.parametrize(("name", "body", "schema"), DESCRIBED, ids=_ids(DESCRIBED))
def test_samples_fit_the_reference_schemas(
    reference: dict[str, Any], name: str, body: dict[str, Any], schema: str
) -> None:
    assert schema_errors(reference, schema, body) == []


def test_the_samples_the_reference_cannot_describe_are_still_its_shapes(
    reference: dict[str, Any],
) -> None:
    # single_sender is an AccountSignature with its tag overwritten: restore the tag.
    for inner in (SINGLE_KEY, MULTI_KEY, ABSTRACT):
        flattened = {**inner, "type": "single_sender"}
        restored = {**flattened, "type": inner["type"]}
        assert schema_errors(reference, "AccountSignature", restored) == []
    assert schema_errors(reference, "PendingTransaction", {**PENDING, "signature": ED25519}) == []
    # abstraction_signature is abstract_signature under its Aug-2025 name.
    assert schema_errors(reference, "AbstractSignature", ABSTRACTION) == []


@pytest.mark.parametrize(
    ("name", "body", "schema"), ACCOUNT_SIGNATURES, ids=_ids(ACCOUNT_SIGNATURES)
)
def test_account_signatures(name: str, body: dict[str, Any], schema: str | None) -> None:
    _check(body, m.AccountSignature, name)
    # ... and inside a multi-agent signature, as sender and as a secondary signer.
    wrapped = {**MULTI_AGENT, "sender": body, "secondary_signers": [body, SINGLE_KEY]}
    record = _check(wrapped, m.TransactionSignature, "multi_agent_signature")
    assert type(record.sender) is type(record.secondary_signers[0]) is EXPECTED_CLASS[name]


@pytest.mark.parametrize(
    ("name", "body", "schema"), TRANSACTION_SIGNATURES, ids=_ids(TRANSACTION_SIGNATURES)
)
def test_transaction_signatures(name: str, body: dict[str, Any], schema: str | None) -> None:
    _check(body, m.TransactionSignature, name)
    txn = _check(user_transaction(signature=body), m.Transaction, "user_transaction")
    assert type(txn.signature) is EXPECTED_CLASS[name.split("/")[0]]


def test_single_sender_single_key_is_told_by_its_fields() -> None:
    sig = m.decode(json.dumps({**SINGLE_KEY, "type": "single_sender"}), m.TransactionSignature)
    assert isinstance(sig, m.SingleSenderSignature)
    assert (sig.scheme, sig.is_multi_key) == ("single_key", False)
    assert sig.sender == m.SingleKeySignature(
        public_key=m.AnyPublicKey(type="secp256k1_ecdsa", value=SINGLE_KEY["public_key"]["value"]),
        signature=m.AnySignature(type="secp256k1_ecdsa", value=SINGLE_KEY["signature"]["value"]),
    )
    # Absent shapes stay absent on the way back out: the body is what the node sent.
    assert m.to_builtins(sig) == {**SINGLE_KEY, "type": "single_sender"}


def test_single_sender_multi_key_is_told_by_its_fields() -> None:
    sig = m.decode(json.dumps({**MULTI_KEY, "type": "single_sender"}), m.TransactionSignature)
    assert isinstance(sig, m.SingleSenderSignature)
    assert (sig.scheme, sig.is_multi_key) == ("multi_key", True)
    inner = sig.sender
    assert isinstance(inner, m.MultiKeySignature)
    assert [k.type for k in inner.public_keys] == ["ed25519", "secp256k1_ecdsa", "keyless"]
    assert [(s.index, s.signature.type) for s in inner.signatures] == [
        (0, "ed25519"),
        (1, "secp256k1_ecdsa"),
    ]
    assert inner.signatures_required == 2
    assert m.to_builtins(sig) == {**MULTI_KEY, "type": "single_sender"}


@pytest.mark.parametrize(
    ("inner", "scheme"),
    [
        ({"public_key": "0x" + "ed" * 32, "signature": "0x" + "5e" * 64}, "ed25519"),
        (
            {
                "public_keys": ["0x01", "0x02"],
                "signatures": ["0x03"],
                "threshold": 1,
                "bitmap": "0x80000000",
            },
            "multi_ed25519",
        ),
        ({"function_info": "0x1::a::b", "auth_data": "0x00"}, "abstract"),
        ({}, "no_account"),
    ],
)
def test_single_sender_other_shapes(inner: dict[str, Any], scheme: str) -> None:
    sig = m.decode(json.dumps({"type": "single_sender", **inner}), m.TransactionSignature)
    assert isinstance(sig, m.SingleSenderSignature)
    assert sig.scheme == scheme
    assert m.to_builtins(sig.sender) | {"type": "single_sender"} == {
        "type": "single_sender",
        **inner,
    }


@pytest.mark.parametrize(("name", "body", "schema"), PAYLOADS, ids=_ids(PAYLOADS))
def test_payloads(name: str, body: dict[str, Any], schema: str | None) -> None:
    _check(body, m.TransactionPayload, name)
    txn = _check(user_transaction(payload=body), m.Transaction, "user_transaction")
    assert type(txn.payload) is EXPECTED_CLASS[name.split("/")[0]]


def test_payload_fields() -> None:
    script = m.decode(json.dumps(PAYLOADS[1][1]), m.TransactionPayload)
    assert isinstance(script, m.ScriptPayload)
    assert script.code.abi is not None
    assert script.code.abi.params[0] == "&signer"
    assert script.arguments[0] == U128_MAX  # a u128 argument stays the exact string
    multisig = m.decode(json.dumps(PAYLOADS[3][1]), m.TransactionPayload)
    assert isinstance(multisig, m.MultisigPayload)
    assert isinstance(multisig.transaction_payload, m.EntryFunctionPayload)
    assert str(multisig.transaction_payload.function_id) == "0x1::aptos_account::transfer_coins"
    decrypted = m.decode(json.dumps(DECRYPTED), m.TransactionPayload)
    assert isinstance(decrypted, m.EncryptedTransactionPayload)
    assert decrypted.encryption_epoch == 12
    assert isinstance(decrypted.decrypted_payload, m.EntryFunctionPayload)
    assert decrypted.claimed_entry_fun == m.ClaimedEntryFunction(
        module="0x1::aptos_account", name="transfer"
    )


@pytest.mark.parametrize(("name", "body", "schema"), CHANGES, ids=_ids(CHANGES))
def test_changes(name: str, body: dict[str, Any], schema: str | None) -> None:
    _check(body, m.WriteSetChange, name)


def test_change_fields() -> None:
    changes = [m.decode(json.dumps(body), m.WriteSetChange) for _, body, _ in CHANGES]
    write_resource, _, write_module, _, table, undecoded, delete_table = changes
    assert isinstance(write_resource, m.WriteResource)
    assert write_resource.data.struct_tag.name == "CoinStore"
    assert isinstance(write_module, m.WriteModule)
    assert write_module.data.abi is not None
    assert isinstance(table, m.WriteTableItem)
    assert table.data is not None
    assert table.data.value == U128_MAX
    assert isinstance(undecoded, m.WriteTableItem)
    assert undecoded.data is None
    assert isinstance(delete_table, m.DeleteTableItem)
    assert delete_table.data == m.DeletedTableData(key=1, key_type="u8")


@pytest.mark.parametrize(("name", "body", "schema"), TRANSACTIONS, ids=_ids(TRANSACTIONS))
def test_transactions(name: str, body: dict[str, Any], schema: str | None) -> None:
    record = _check(body, m.Transaction, name)
    assert m.decode_transaction(json.dumps(body)) == record


def test_a_page_of_every_transaction_decodes_in_one_pass() -> None:
    page = [body for _, body, _ in TRANSACTIONS]
    txns = m.decode_transactions(json.dumps(page).encode())
    assert [type(t) for t in txns] == [EXPECTED_CLASS[n.split("/")[0]] for n, _, _ in TRANSACTIONS]
    assert_same_json(page, m.to_builtins(txns))
    round_trip(txns, list[m.Transaction])


def test_transaction_fields() -> None:
    by_name = {name: m.decode_transaction(json.dumps(body)) for name, body, _ in TRANSACTIONS}
    pending = by_name["pending_transaction"]
    assert isinstance(pending, m.PendingTransaction)
    assert pending.replay_protection_nonce == 4242
    assert pending.txn_limits_request["type"] == "stake_pool_owner"
    user = by_name["user_transaction"]
    assert isinstance(user, m.UserTransaction)
    assert user.version == 2**53 + 1
    assert user.sequence_number == 2**64 - 1
    assert user.state_checkpoint_hash is None
    assert [type(c) for c in user.changes] == [
        EXPECTED_CLASS[n.split("/")[0]] for n, _, _ in CHANGES
    ]
    assert user.events[1].guid == m.EventGuid(creation_number=0, account_address="0x0")
    assert user.sender_address.long == user.sender
    genesis = by_name["genesis_transaction"]
    assert isinstance(genesis, m.GenesisTransaction)
    assert isinstance(genesis.payload, m.WriteSetPayload)
    assert isinstance(genesis.payload.write_set, m.DirectWriteSet)
    assert len(genesis.payload.write_set.changes) == 2
    script_genesis = by_name["genesis_transaction/script_write_set"]
    assert isinstance(script_genesis, m.GenesisTransaction)
    assert isinstance(script_genesis.payload, m.WriteSetPayload)
    assert isinstance(script_genesis.payload.write_set, m.ScriptWriteSet)
    v0, v1 = by_name["block_metadata_transaction/v0"], by_name["block_metadata_transaction/v1"]
    assert isinstance(v0, m.BlockMetadataTransaction)
    assert isinstance(v1, m.BlockMetadataTransaction)
    assert v0.block_metadata_extension == m.BlockMetadataExtension(type="v0")
    assert v1.block_metadata_extension is not None
    assert v1.block_metadata_extension.randomness == "0x" + "72" * 32
    assert v1.round == 2**64 - 1
    assert v1.previous_block_votes_bitvec == [255, 128, 0]
    epilogue = by_name["block_epilogue_transaction"]
    assert isinstance(epilogue, m.BlockEpilogueTransaction)
    assert epilogue.block_end_info
    assert epilogue.block_end_info.block_approx_output_size == 2**64 - 1
    jwk = by_name["validator_transaction/observed_jwk_update"]
    assert isinstance(jwk, m.ValidatorTransaction)
    assert jwk.validator_transaction_type == "observed_jwk_update"
    assert jwk.quorum_certified_update["update"]["issuer"] == "https://accounts.google.com"
    dkg = by_name["validator_transaction/dkg_result"]
    assert isinstance(dkg, m.ValidatorTransaction)
    assert dkg.dkg_transcript["epoch"] == "3"


def test_null_state_checkpoint_hash_reads_as_none() -> None:
    body = {**user_transaction(), "state_checkpoint_hash": None}
    txn = m.decode_transaction(json.dumps(body))
    assert isinstance(txn, m.UserTransaction)
    assert txn.state_checkpoint_hash is None


def test_block_with_transactions() -> None:
    block = m.decode_block(json.dumps(BLOCK))
    assert block.block_height == 364000111
    assert block.transactions is not None
    assert block.transaction_count == len(block.transactions) == 3
    assert_same_json(BLOCK, m.to_builtins(block))
    round_trip(block, m.Block)
    bare = m.decode_block(json.dumps({k: v for k, v in BLOCK.items() if k != "transactions"}))
    assert bare.transactions is None


def test_modules_and_abis() -> None:
    module = m.decode_module(json.dumps(MODULE))
    assert module.abi is not None
    assert str(module.abi.module_id) == "0x1::option_like"
    borrow = module.abi.function("borrow_mut")
    assert borrow is not None
    assert borrow.return_ == ["&mut T0"]
    assert borrow.visibility == "friend"
    assert module.abi.function("is_some").is_view  # type: ignore[union-attr]
    choice = module.abi.structs[1]
    assert choice.is_enum
    assert choice.is_event
    assert [v.name for v in choice.variants] == ["Left", "Right"]
    assert m.to_builtins(borrow)["return"] == ["&mut T0"]  # the JSON name comes back
    round_trip(module, m.MoveModuleBytecode)
    # An older node leaves out is_view, is_event, is_enum and variants.
    old = m.decode_modules(json.dumps([OLD_MODULE]))[0]
    assert old.abi is not None
    assert old.abi.exposed_functions[0].is_view is False
    struct = old.abi.structs[0]
    assert (struct.is_event, struct.is_enum, struct.variants) == (False, False, [])
    assert struct.generic_type_params[0].is_phantom is True
    assert_same_json(OLD_MODULE, m.to_builtins(old))


def test_resources_keep_move_values_as_json() -> None:
    resources = m.decode_resources(json.dumps([COIN_STORE, SUPPLY]))
    assert resources[0].data["coin"]["value"] == "18446744073709551615"
    assert resources[0].data["frozen"] is False
    assert resources[1].data["current"]["max_value"] == U128_MAX
    assert resources[0].struct_tag.type_args[0].name == "AptosCoin"  # type: ignore[attr-defined]
    round_trip(resources, list[m.MoveResource])


def test_events() -> None:
    versioned, module_event = m.decode_events(json.dumps([VERSIONED_EVENT, MODULE_EVENT]))
    assert versioned.version == 2**53 + 1
    assert module_event.version is None
    assert module_event.data["amount"] == "18446744073709551615"
    assert str(module_event.move_type) == "0x1::fungible_asset::Deposit"
    round_trip([versioned, module_event], list[m.Event])


def test_ledger_info_gas_and_the_small_records() -> None:
    info = m.decode_ledger_info(json.dumps(LEDGER_INFO))
    assert (info.chain_id, info.node_role, info.ledger_version) == (1, "full_node", 2845602114)
    assert info.encryption_key == LEDGER_INFO["encryption_key"]
    without = {k: v for k, v in LEDGER_INFO.items() if k not in ("git_hash", "encryption_key")}
    assert m.decode_ledger_info(json.dumps(without)).git_hash is None
    gas = m.decode_gas_estimate(json.dumps(GAS_ESTIMATE))
    assert (gas.deprioritized_gas_estimate, gas.gas_estimate, gas.prioritized_gas_estimate) == (
        100,
        100,
        150,
    )
    assert m.decode_gas_estimate(b'{"gas_estimate": 7}').prioritized_gas_estimate is None
    assert m.decode(b'{"message": "aptos-node:ok"}', m.HealthStatus).message == "aptos-node:ok"
    assert m.decode(b'[{"transaction_index": 3}, {}]', list[m.AuxiliaryInfo]) == [
        m.AuxiliaryInfo(transaction_index=3),
        m.AuxiliaryInfo(transaction_index=None),
    ]
    account = m.decode_account(b'{"sequence_number": "5", "authentication_key": "0x0a"}')
    assert account == m.AccountData(sequence_number=5, authentication_key="0x0a")
    summary = m.decode(
        json.dumps(
            [
                {
                    "sender": "0x1",
                    "version": "12",
                    "transaction_hash": "0x" + "ab" * 32,
                    "replay_protector": {"type": "sequence_number", "value": "3"},
                }
            ]
        ),
        list[m.TransactionSummary],
    )
    assert summary[0].version == 12
    failures = m.decode(
        json.dumps(
            {
                "transaction_failures": [
                    {
                        "error": {"message": "m", "error_code": "vm_error", "vm_error_code": 2},
                        "transaction_index": 1,
                    }
                ]
            }
        ),
        m.BatchSubmitResult,
    )
    assert failures.transaction_failures[0].error["error_code"] == "vm_error"
    for record, type_ in [
        (info, m.LedgerInfo),
        (gas, m.GasEstimate),
        (failures, m.BatchSubmitResult),
    ]:
        round_trip(record, type_)
