"""User transactions as real nodes write them, in the transactions frame: every signature
shape the node API allows (fee payer, multi-agent, single key of each key type,
multi-key, keyless, abstraction...), orderless transactions, and fees charged to the
fee payer.

The JSON is written by hand after the node API's schemas (``TransactionSignature``,
``AccountSignature``, ``PublicKey``, ``Signature``; a ``single_sender`` written over its
account signature's own tag, as nodes do). Expected columns are written out.
"""

from __future__ import annotations

import json
from typing import Any, Final

import pandas as pd
import pytest

import ledgerkit
from ledgerkit import frames
from ledgerkit.models import (
    decode_transaction_rows,
    decode_transactions,
    fee_payer,
    secondary_signers,
    signature_kind,
)

U64_MAX: Final = 2**64 - 1
SENDER: Final = "0x" + "a1" * 32
PAYER: Final = "0x" + "fe" * 32
SECOND: Final = "0x" + "b2" * 32
THIRD: Final = "0x" + "c3" * 32


def _key(kind: str, size: int = 32) -> dict[str, str]:
    return {"type": kind, "value": "0x" + "ab" * size}


def _sig(kind: str, size: int = 64) -> dict[str, str]:
    return {"type": kind, "value": "0x" + "cd" * size}


ED25519: Final = {
    "type": "ed25519_signature",
    "public_key": "0x" + "11" * 32,
    "signature": "0x" + "22" * 64,
}
MULTI_ED25519_FIELDS: Final = {
    "public_keys": ["0x" + "11" * 32, "0x" + "33" * 32],
    "signatures": ["0x" + "22" * 64],
    "threshold": 1,
    "bitmap": "0x80000000",
}
MULTI_KEY_FIELDS: Final = {
    "public_keys": [_key("ed25519"), _key("secp256k1_ecdsa", 65)],
    "signatures": [{"index": 1, "signature": _sig("secp256k1_ecdsa")}],
    "signatures_required": 1,
}


def single(key: str, signature: str) -> dict[str, Any]:
    """A single-key account signature flattened into ``single_sender``."""
    return {"type": "single_sender", "public_key": _key(key), "signature": _sig(signature)}


# (signature JSON, signature_kind, fee_payer, secondary_signers column)
SHAPES: Final[dict[str, tuple[dict[str, Any] | None, str | None, str | None, str | None]]] = {
    "ed25519": (ED25519, "ed25519", None, None),
    "multi_ed25519": (
        {"type": "multi_ed25519_signature", **MULTI_ED25519_FIELDS},
        "multi_ed25519",
        None,
        None,
    ),
    "multi_agent": (
        {
            "type": "multi_agent_signature",
            "sender": ED25519,
            "secondary_signer_addresses": [SECOND, "0xc"],
            "secondary_signers": [
                ED25519,
                {"type": "single_key_signature", "public_key": _key("ed25519")}
                | {"signature": _sig("ed25519")},
            ],
        },
        "multi_agent",
        None,
        f"{SECOND},0x{'0' * 63}c",
    ),
    "fee_payer": (
        {
            "type": "fee_payer_signature",
            "sender": ED25519,
            "secondary_signer_addresses": [],
            "secondary_signers": [],
            "fee_payer_address": PAYER,
            "fee_payer_signer": ED25519,
        },
        "fee_payer",
        PAYER,
        None,
    ),
    "fee_payer_with_signers": (
        {
            "type": "fee_payer_signature",
            "sender": {
                "type": "single_key_signature",
                "public_key": _key("keyless", 90),
                "signature": _sig("keyless", 400),
            },
            "secondary_signer_addresses": [THIRD, SECOND],
            "secondary_signers": [ED25519, {"type": "no_account_signature"}],
            "fee_payer_address": "0xfe",
            "fee_payer_signer": {"type": "multi_key_signature", **MULTI_KEY_FIELDS},
        },
        "fee_payer",
        "0x" + "0" * 62 + "fe",
        f"{THIRD},{SECOND}",
    ),
    "single_sender_ed25519": (
        {"type": "single_sender", "public_key": "0x" + "11" * 32, "signature": "0x" + "22" * 64},
        "ed25519",
        None,
        None,
    ),
    "single_sender_multi_ed25519": (
        {"type": "single_sender", **MULTI_ED25519_FIELDS},
        "multi_ed25519",
        None,
        None,
    ),
    "single_key_ed25519": (single("ed25519", "ed25519"), "single_key:ed25519", None, None),
    "secp256k1": (
        single("secp256k1_ecdsa", "secp256k1_ecdsa"),
        "single_key:secp256k1_ecdsa",
        None,
        None,
    ),
    "passkey": (single("secp256r1_ecdsa", "web_authn"), "single_key:secp256r1_ecdsa", None, None),
    "keyless": (single("keyless", "keyless"), "single_key:keyless", None, None),
    "federated_keyless": (
        single("federated_keyless", "keyless"),
        "single_key:federated_keyless",
        None,
        None,
    ),
    "slh_dsa": (
        single("slh_dsa__sha2_128s", "slh_dsa__sha2_128s"),
        "single_key:slh_dsa__sha2_128s",
        None,
        None,
    ),
    "multi_key": ({"type": "single_sender", **MULTI_KEY_FIELDS}, "multi_key", None, None),
    "abstract": (
        {
            "type": "single_sender",
            "function_info": "0x1::permissioned_delegation::authenticate",
            "auth_data": "0x0102",
        },
        "abstract",
        None,
        None,
    ),
    "single_sender_no_account": ({"type": "single_sender"}, "no_account", None, None),
    "no_account": ({"type": "no_account_signature"}, "no_account", None, None),
    "newer_scheme": (
        {"type": "quantum_signature", "proof": ["0x01"]},
        "quantum_signature",
        None,
        None,
    ),
    "unsigned": (None, None, None, None),
}


def user_transaction(
    version: int,
    signature: dict[str, Any] | None,
    *,
    sender: str = SENDER,
    sequence_number: int = 7,
    nonce: int | None = None,
    gas_used: int = 10,
    gas_unit_price: int = 100,
) -> dict[str, Any]:
    """A committed user transaction as the node writes it."""
    tx: dict[str, Any] = {
        "version": str(version),
        "hash": f"0x{version:064x}",
        "state_change_hash": "0x" + "01" * 32,
        "event_root_hash": "0x" + "02" * 32,
        "state_checkpoint_hash": None,
        "gas_used": str(gas_used),
        "success": True,
        "vm_status": "Executed successfully",
        "accumulator_root_hash": "0x" + "03" * 32,
        "changes": [],
        "sender": sender,
        "sequence_number": str(sequence_number),
        "max_gas_amount": "2000",
        "gas_unit_price": str(gas_unit_price),
        "expiration_timestamp_secs": "1700000060",
        "payload": {
            "type": "entry_function_payload",
            "function": "0x1::aptos_account::transfer",
            "type_arguments": [],
            "arguments": [SECOND, "5"],
        },
        "replay_protection_nonce": None if nonce is None else str(nonce),
        "events": [],
        "timestamp": "1700000000000000",
        "type": "user_transaction",
    }
    if signature is not None:
        tx["signature"] = signature
    return tx


def both_ways(raw: list[dict[str, Any]]) -> pd.DataFrame:
    """The frame of the page's bytes, checked equal to the frame of its full records."""
    body = json.dumps(raw).encode()
    from_bytes = frames.transactions_to_frame(body)
    from_records = frames.transactions_to_frame(decode_transactions(body))
    pd.testing.assert_frame_equal(from_bytes, from_records)
    assert frames.schema_of(from_bytes) == frames.schema_of(
        frames.empty_frame(frames.TRANSACTION_COLUMNS)
    )
    return from_bytes


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_every_signature_shape_names_its_signers(shape: str) -> None:
    signature, kind, payer, signers = SHAPES[shape]
    frame = both_ways([user_transaction(5, signature)])
    row = {name: None if pd.isna(value) else value for name, value in frame.iloc[0].items()}
    assert row["signature_kind"] == kind
    assert row["fee_payer"] == payer
    assert row["secondary_signers"] == signers
    assert row["replay_protection_nonce"] is None


def test_the_readers_agree_with_the_frame_on_records_and_rows() -> None:
    raw = [user_transaction(i, SHAPES[s][0]) for i, s in enumerate(sorted(SHAPES))]
    body = json.dumps(raw).encode()
    for record, row, shape in zip(
        decode_transactions(body), decode_transaction_rows(body), sorted(SHAPES), strict=True
    ):
        _, kind, _, _ = SHAPES[shape]
        assert signature_kind(record) == signature_kind(row) == kind
        assert fee_payer(record) == fee_payer(row)
        assert secondary_signers(record) == secondary_signers(row)
        signature = getattr(record, "signature", None)
        assert signature_kind(signature) == kind
    multi_agent = decode_transactions(json.dumps([raw[sorted(SHAPES).index("multi_agent")]]))[0]
    assert secondary_signers(multi_agent) == (SECOND, "0xc")
    # An account signature alone (a multi-agent sender's) is named as under single_sender.
    assert signature_kind(multi_agent.signature.secondary_signers[1]) == "single_key:ed25519"


def test_an_orderless_transaction_shows_its_nonce() -> None:
    nonce = 2**53 + 1  # past float precision: the column stays exact
    raw = [
        user_transaction(8, ED25519, sequence_number=3),
        user_transaction(9, ED25519, sequence_number=U64_MAX, nonce=nonce),
        user_transaction(10, ED25519, sequence_number=U64_MAX, nonce=U64_MAX),
    ]
    frame = both_ways(raw)
    assert frame["replay_protection_nonce"].tolist() == [pd.NA, nonce, U64_MAX]
    assert frame["sequence_number"].tolist() == [3, U64_MAX, U64_MAX]
    assert str(frame["replay_protection_nonce"].dtype) == "UInt64"


def test_other_transaction_types_have_no_signers() -> None:
    raw: list[dict[str, Any]] = [
        {
            "type": "block_metadata_transaction",
            "version": "11",
            "hash": "0x" + "0b" * 32,
            "state_change_hash": "0x" + "01" * 32,
            "event_root_hash": "0x" + "02" * 32,
            "gas_used": "0",
            "success": True,
            "vm_status": "Executed successfully",
            "accumulator_root_hash": "0x" + "03" * 32,
            "changes": [],
            "id": "0x" + "0c" * 32,
            "epoch": "1",
            "round": "2",
            "events": [],
            "previous_block_votes_bitvec": [],
            "proposer": "0x" + "0d" * 32,
            "failed_proposer_indices": [],
            "timestamp": "1700000000000000",
        },
        user_transaction(12, ED25519),
    ]
    frame = both_ways(raw)
    assert frame["signature_kind"].isna().tolist() == [True, False]
    assert frame["fee_payer"].isna().all()
    assert frame["secondary_signers"].isna().all()


def test_secondary_signers_split_into_lists() -> None:
    _, _, _, text = SHAPES["fee_payer_with_signers"]
    frame = both_ways([user_transaction(1, SHAPES["fee_payer_with_signers"][0])])
    assert frame["secondary_signers"].str.split(",").tolist() == [[THIRD, SECOND]]
    assert text == f"{THIRD},{SECOND}"


# -- fees charged to whoever paid them --------------------------------------------------------

OTHER: Final = "0x" + "d4" * 32


def _fee_payer_signature(payer: str) -> dict[str, Any]:
    return {
        "type": "fee_payer_signature",
        "sender": ED25519,
        "secondary_signer_addresses": [],
        "secondary_signers": [],
        "fee_payer_address": payer,
        "fee_payer_signer": ED25519,
    }


def fee_frame() -> pd.DataFrame:
    """Four transactions: SENDER pays its own (10 x 100 = 1,000 octas); PAYER pays for
    SENDER (20 x 100 = 2,000) and OTHER (5 x 150 = 750); PAYER sends one and pays it
    (7 x 100 = 700)."""
    return both_ways(
        [
            user_transaction(1, ED25519, gas_used=10),
            user_transaction(2, _fee_payer_signature(PAYER), gas_used=20),
            user_transaction(
                3, _fee_payer_signature(PAYER), sender=OTHER, gas_used=5, gas_unit_price=150
            ),
            user_transaction(4, ED25519, sender=PAYER, gas_used=7),
        ]
    )


def test_fees_are_charged_to_the_fee_payer() -> None:
    frame = fee_frame()
    assert frame.ledger.fees().tolist() == [1_000, 2_000, 750, 700]
    assert frame.ledger.fee_payers().tolist() == [SENDER, PAYER, PAYER, PAYER]
    payers = frame.ledger.payers()
    assert payers.loc[PAYER, "fees"] == 2_000 + 750 + 700
    assert payers.loc[PAYER, "transactions"] == 3
    assert payers.loc[PAYER, "sponsored"] == 2
    assert payers.loc[PAYER, "senders"] == 3
    assert payers.loc[SENDER, "fees"] == 1_000
    assert payers.loc[SENDER, "sponsored"] == 0
    assert int(payers["fees"].sum()) == 4_450 == int(frame.ledger.fees().sum())


def test_a_sender_is_not_charged_what_its_fee_payer_paid() -> None:
    senders = fee_frame().ledger.senders()
    assert senders.loc[SENDER, "transactions"] == 2
    assert senders.loc[SENDER, "sponsored"] == 1
    assert senders.loc[SENDER, "fees"] == 1_000
    assert senders.loc[OTHER, "fees"] == 0
    assert senders.loc[OTHER, "sponsored"] == 1
    assert senders.loc[PAYER, "fees"] == 700
    assert str(senders["fees"].dtype) == "UInt64"


def test_a_frame_without_the_fee_payer_column_charges_the_sender() -> None:
    frame = fee_frame().drop(columns=["fee_payer"])
    assert frame.ledger.fee_payers().tolist() == [SENDER, SENDER, OTHER, PAYER]
    assert frame.ledger.senders().loc[SENDER, "fees"] == 3_000


# -- on the embedded node ---------------------------------------------------------------------


def test_fee_payer_and_orderless_transactions_of_a_node(make_node: Any) -> None:
    """Submitted and read back: the payer's balance falls by the fees the frame charges it
    (and what it sent), the sponsored sender's by what it sent only."""
    node = make_node(seed=13, blocks=3)
    apt = "0x1::aptos_coin::AptosCoin"
    to = ledgerkit.Address.parse("0x" + "0e" * 32)
    with ledgerkit.Client(node.url, cache=False) as client:
        funder = node.dev_accounts[1]
        sender = ledgerkit.Ed25519PrivateKey.generate()
        k1 = ledgerkit.Secp256k1PrivateKey.generate()
        payer = ledgerkit.Ed25519PrivateKey.generate()
        for key, amount in ((sender, 5_000), (k1, 10**7), (payer, 10**8)):
            assert client.transfer(funder, key.address(), amount).value.success
        start = client.ledger_info().value.ledger_version + 1
        keys = (sender, k1, payer)
        before = [client.account_balance(k.address(), apt).value for k in keys]

        def commit(built: Any, signer: Any, **others: Any) -> Any:
            signed = ledgerkit.tx.sign_transaction(built, signer, **others)
            return client.submit_and_wait(signed).value

        sponsored = commit(
            client.build_transaction(
                sender, "0x1::aptos_account::transfer", [to, 1_000], fee_payer=payer
            ),
            sender,
            fee_payer=payer,
        )
        orderless = commit(
            client.build_transaction(
                payer, "0x1::aptos_account::transfer", [to, 10], replay_protection_nonce=4242
            ),
            payer,
        )
        secp = commit(client.build_transaction(k1, "0x1::aptos_account::transfer", [to, 3]), k1)
        stop = client.ledger_info().value.ledger_version
        txns = client.transactions(start=start, limit=stop - start + 1)
        after = [client.account_balance(k.address(), apt).value for k in keys]

    frame = frames.transactions_to_frame(txns)
    pd.testing.assert_frame_equal(frame, frames.transactions_to_frame(txns.value))
    users = frame[frame["type"] == "user_transaction"].set_index("hash")
    assert users.loc[sponsored.hash, "signature_kind"] == "fee_payer"
    assert users.loc[sponsored.hash, "fee_payer"] == payer.address().long
    assert users.loc[orderless.hash, "replay_protection_nonce"] == 4242
    assert users.loc[orderless.hash, "sequence_number"] == U64_MAX
    assert users.loc[secp.hash, "signature_kind"] == "single_key:secp256k1_ecdsa"

    fee = {t.hash: t.gas_used * t.gas_unit_price for t in (sponsored, orderless, secp)}
    payers = frame.ledger.payers()
    assert payers.loc[payer.address().long, "fees"] == fee[sponsored.hash] + fee[orderless.hash]
    spent = [b - a for b, a in zip(before, after, strict=True)]
    assert spent[2] == payers.loc[payer.address().long, "fees"] + 10
    assert spent[0] == 1_000
    assert frame.ledger.senders().loc[sender.address().long, "fees"] == 0
    assert spent[1] == fee[secp.hash] + 3
