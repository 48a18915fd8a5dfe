"""Records as plain dicts: ``to_dict()`` on every record, exact and nested."""

from __future__ import annotations

import json

import msgspec
import pandas as pd
import pytest
from model_samples import LEDGER_INFO, MODULE, user_transaction

import ledgerkit.models as m

RECORD_CLASSES = sorted(
    (
        obj
        for obj in vars(m).values()
        if isinstance(obj, type) and issubclass(obj, msgspec.Struct) and obj is not m.Record
    ),
    key=lambda cls: cls.__name__,
)


def _info() -> m.LedgerInfo:
    return m.decode_ledger_info(json.dumps(LEDGER_INFO).encode())


@pytest.mark.parametrize("record", RECORD_CLASSES, ids=lambda cls: cls.__name__)
def test_every_record_has_to_dict(record: type[m.Record]) -> None:
    assert callable(getattr(record, "to_dict", None))


def test_to_dict_names_each_field_and_keeps_integers_exact() -> None:
    info = _info()
    assert info.to_dict() == {
        "chain_id": 1,
        "epoch": 9512,
        "ledger_version": 2845602114,
        "oldest_ledger_version": 2700000000,
        "ledger_timestamp": 1735689000123456,
        "node_role": "full_node",
        "oldest_block_height": 350000000,
        "block_height": 364000111,
        "git_hash": "0c5e0a1f0a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d",
        "encryption_key": LEDGER_INFO["encryption_key"],
    }
    wide = m.GasEstimate(gas_estimate=2**64 - 1).to_dict()
    assert wide["gas_estimate"] == 18446744073709551615
    assert type(wide["gas_estimate"]) is int


def test_a_frame_of_records_has_one_column_per_field() -> None:
    frame = pd.DataFrame([_info().to_dict(), _info().to_dict()])
    assert list(frame.columns) == list(m.LedgerInfo.__struct_fields__)
    assert frame.loc[0, "ledger_version"] == 2845602114
    assert frame.loc[1, "node_role"] == "full_node"


def test_nested_records_become_dicts_and_tagged_ones_say_their_type() -> None:
    (tx,) = m.decode_transactions(json.dumps([user_transaction()]).encode())
    as_dict = tx.to_dict()
    assert next(iter(as_dict)) == "type"
    assert as_dict["type"] == "user_transaction"
    assert as_dict["version"] == 9007199254740993
    assert as_dict["sequence_number"] == 18446744073709551615
    assert as_dict["payload"]["type"] == "entry_function_payload"
    assert isinstance(as_dict["signature"], dict)
    assert as_dict["events"][0]["guid"] == {
        "creation_number": 2,
        "account_address": tx.events[0].guid.account_address,
    }
    assert all(isinstance(change, dict) for change in as_dict["changes"])
    # Plain values throughout: JSON takes it as is.
    assert json.loads(json.dumps(as_dict))["version"] == 9007199254740993


def test_to_dict_uses_attribute_names_and_is_a_copy() -> None:
    (module,) = m.decode_modules(json.dumps([MODULE]).encode())
    assert module.abi is not None
    function = module.abi.exposed_functions[1].to_dict()
    assert function == {
        "name": "is_some",
        "visibility": "public",
        "is_entry": False,
        "is_view": True,
        "generic_type_params": [{"constraints": ["copy", "drop"], "is_phantom": None}],
        "params": ["address"],
        "return_": ["bool"],
    }
    function["params"].append("u8")
    assert module.abi.exposed_functions[1].params == ["address"]
    # dict-like use goes through the dict: keyword unpacking, lookups, union
    info = _info()
    assert dict(**info.to_dict())["epoch"] == info.epoch
    assert (info.to_dict() | {"epoch": 0})["epoch"] == 0


def test_records_are_not_mappings() -> None:
    with pytest.raises(TypeError):
        dict(_info())  # type: ignore[call-overload]


def test_unknown_variants_keep_their_raw_json() -> None:
    raw = {
        "type": "future_transaction",
        "version": "5",
        "blob": {"n": "340282366920938463463374607431768211455"},
    }
    (tx,) = m.decode_transactions(json.dumps([raw]).encode())
    assert isinstance(tx, m.UnknownVariant)
    assert tx.to_dict() == {"type": "future_transaction", "raw": raw}
