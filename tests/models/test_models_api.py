"""The front door of ``ledgerkit.models``: its public names, and what every record is."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import typing

import msgspec
import pytest

import ledgerkit.models as m
from ledgerkit import InputError

# The public names. Adding one is a decision; removing one breaks the client and users.
EXPECTED_PUBLIC_NAMES = [
    "AbiCache",
    "AbstractSignature",
    "AbstractionSignature",
    "AccountData",
    "AccountSignature",
    "AnyPublicKey",
    "AnySignature",
    "AuxiliaryInfo",
    "BatchSubmitFailure",
    "BatchSubmitResult",
    "Block",
    "BlockEndInfo",
    "BlockEpilogueTransaction",
    "BlockMetadataExtension",
    "BlockMetadataTransaction",
    "ClaimedEntryFunction",
    "CommittedTransaction",
    "DecodedTableData",
    "DeleteModule",
    "DeleteResource",
    "DeleteTableItem",
    "DeletedTableData",
    "DirectWriteSet",
    "Ed25519Signature",
    "EncryptedTransactionPayload",
    "EntryFunctionPayload",
    "Event",
    "EventGuid",
    "FeePayerSignature",
    "FeeStatement",
    "GasEstimate",
    "GenesisPayload",
    "GenesisTransaction",
    "HealthStatus",
    "IndexedSignature",
    "KnownAccountSignature",
    "KnownTransaction",
    "KnownTransactionPayload",
    "KnownTransactionSignature",
    "KnownWriteSet",
    "KnownWriteSetChange",
    "Leaf",
    "LedgerInfo",
    "ModuleBundlePayload",
    "MoveFunction",
    "MoveGenericTypeParam",
    "MoveModule",
    "MoveModuleBytecode",
    "MoveResource",
    "MoveScriptBytecode",
    "MoveStruct",
    "MoveStructField",
    "MoveStructVariant",
    "MultiAgentSignature",
    "MultiEd25519Signature",
    "MultiKeySignature",
    "MultisigPayload",
    "NoAccountSignature",
    "PayloadRow",
    "PendingTransaction",
    "Record",
    "ScriptPayload",
    "ScriptWriteSet",
    "SignatureRow",
    "SingleKeySignature",
    "SingleSenderSignature",
    "StateCheckpointTransaction",
    "TaggedRecord",
    "Transaction",
    "TransactionEvents",
    "TransactionPayload",
    "TransactionRow",
    "TransactionSignature",
    "TransactionSummary",
    "UnknownChange",
    "UnknownPayload",
    "UnknownSignature",
    "UnknownTransaction",
    "UnknownVariant",
    "UnknownWriteSet",
    "UserTransaction",
    "ValidatorTransaction",
    "WriteModule",
    "WriteResource",
    "WriteSet",
    "WriteSetChange",
    "WriteSetPayload",
    "WriteSetScript",
    "WriteTableItem",
    "abi_requests",
    "balance_deltas",
    "coin_types_named",
    "decode",
    "decode_account",
    "decode_auxiliary_info",
    "decode_balance",
    "decode_batch_submit_result",
    "decode_block",
    "decode_events",
    "decode_gas_estimate",
    "decode_health",
    "decode_ledger_info",
    "decode_module",
    "decode_modules",
    "decode_pending_transaction",
    "decode_resource",
    "decode_resources",
    "decode_signing_message",
    "decode_simulation",
    "decode_table_item",
    "decode_transaction",
    "decode_transaction_events",
    "decode_transaction_rows",
    "decode_transaction_summaries",
    "decode_transactions",
    "decode_view",
    "fee_payer",
    "fee_statement",
    "gas_payer",
    "primary_store_address",
    "resolved_stores",
    "row_from_record",
    "secondary_signers",
    "signature_kind",
    "storage_fee_refund",
    "store_facts",
    "stores_to_look_up",
    "to_builtins",
    "token_moves",
    "token_v1_data_id",
]

RECORDS = [
    value
    for name in m.__all__
    if isinstance(value := getattr(m, name), type) and issubclass(value, msgspec.Struct)
]


def test_public_names() -> None:
    assert m.__all__ == EXPECTED_PUBLIC_NAMES
    assert m.__all__ == sorted(m.__all__)
    for name in m.__all__:
        assert getattr(m, name) is not None


def test_the_docstring_says_why_msgspec() -> None:
    doc = m.__doc__ or ""
    assert "msgspec" in doc
    assert "lax mode" in doc
    assert "float" in doc
    assert "single_sender" in doc


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: r.__name__)
def test_every_record_is_frozen_and_keyword_only(record: type[msgspec.Struct]) -> None:
    assert record.__struct_config__.frozen
    parameters = inspect.signature(record).parameters.values()
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters)
    assert issubclass(record, m.Record)
    assert record.__doc__


def test_records_cannot_be_changed_and_hash_when_their_fields_do() -> None:
    guid = m.EventGuid(creation_number=1, account_address="0x1")
    with pytest.raises(AttributeError):
        guid.creation_number = 2  # type: ignore[misc]
    assert hash(guid) == hash(m.EventGuid(creation_number=1, account_address="0x1"))
    assert len({guid, m.EventGuid(creation_number=1, account_address="0x1")}) == 1


def test_unions_hold_the_unknown_record_for_type_checkers_and_at_run_time() -> None:
    pairs = [
        (m.Transaction, m.KnownTransaction, m.UnknownTransaction),
        (m.TransactionPayload, m.KnownTransactionPayload, m.UnknownPayload),
        (m.TransactionSignature, m.KnownTransactionSignature, m.UnknownSignature),
        (m.AccountSignature, m.KnownAccountSignature, m.UnknownSignature),
        (m.WriteSetChange, m.KnownWriteSetChange, m.UnknownChange),
        (m.WriteSet, m.KnownWriteSet, m.UnknownWriteSet),
    ]
    for union, known, unknown in pairs:
        assert set(typing.get_args(union)) == {*typing.get_args(known), unknown}
        for member in typing.get_args(known):
            assert member.__struct_config__.tag_field == "type"
            assert isinstance(member.__struct_config__.tag, str)


def test_importing_the_models_stays_light() -> None:
    code = (
        "import sys, ledgerkit.models; "
        "print(sorted(m for m in ('starlette', 'uvicorn', 'pandas', 'ledgerkit.localnet') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_store_facts_reads_a_fungible_stores_owner_and_asset() -> None:
    owner = "0x" + "ab" * 32
    metadata = "0x" + "00" * 31 + "0a"
    body = json.dumps(
        [
            {"type": "0x1::object::ObjectCore", "data": {"owner": owner, "guid_creation_num": "1"}},
            {
                "type": "0x1::fungible_asset::FungibleStore",
                "data": {"metadata": {"inner": metadata}, "balance": "5", "frozen": False},
            },
        ]
    ).encode()
    assert m.store_facts(m.decode_resources(body)) == (owner, metadata)
    only_core = json.dumps([{"type": "0x1::object::ObjectCore", "data": {"owner": owner}}])
    assert m.store_facts(m.decode_resources(only_core.encode())) == (owner, None)
    assert m.store_facts([]) == (None, None)


@pytest.mark.parametrize("given", [None, "0x1", [{"type": "0x1::object::ObjectCore"}]])
def test_store_facts_refuses_what_is_not_resources(given: object) -> None:
    with pytest.raises(InputError, match="store_facts takes"):
        m.store_facts(given)  # type: ignore[arg-type]
