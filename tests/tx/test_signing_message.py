"""Signing messages both ways: their prefixes (named for what they are), the transaction
read back from one, a signed transaction rebuilt from a detached signature, and the
JSON submission of a signer without BCS."""

from __future__ import annotations

import hashlib
import warnings
from typing import Any

import pytest
from aptos_sdk.bcs import Deserializer as SdkDeserializer
from aptos_sdk.transactions import MultiAgentRawTransaction as SdkMultiAgentRaw
from aptos_sdk.transactions import RawTransaction as SdkRawTransaction

import ledgerkit.bcs
from ledgerkit import Account, Address, BCSDecodeError, InputError, SigningError
from ledgerkit.bcs import (
    RAW_TRANSACTION_PREFIX,
    RAW_TRANSACTION_WITH_DATA_PREFIX,
    TRANSACTION_PREFIX,
    AnyPublicKey,
    EntryFunction,
    FeePayerRawTransaction,
    MultiAgentRawTransaction,
    RawTransaction,
    Script,
    ScriptArgument,
    SignedTransaction,
    SingleSenderAuthenticator,
    decode_signing_message,
)
from ledgerkit.tx import EncodedSubmission, submission_request

ED = Account.from_key("ed25519-priv-0x" + "11" * 32)
SECP = Account.from_key("secp256k1-priv-0x" + "22" * 32)


def transfer(sender: Address) -> RawTransaction:
    call = EntryFunction.build("0x1::aptos_account::transfer", [], [("address", "0x2"), ("u64", 5)])
    return RawTransaction(sender, 3, call, 2_000, 100, 1_900_000_000, 4)


def test_the_prefixes_are_the_hashes_of_their_domains() -> None:
    assert hashlib.sha3_256(b"APTOS::RawTransaction").digest() == RAW_TRANSACTION_PREFIX
    assert (
        hashlib.sha3_256(b"APTOS::RawTransactionWithData").digest()
    ) == RAW_TRANSACTION_WITH_DATA_PREFIX
    assert hashlib.sha3_256(b"APTOS::Transaction").digest() == TRANSACTION_PREFIX
    raw = transfer(ED.address)
    sdk = SdkRawTransaction.deserialize(SdkDeserializer(raw.to_bcs()))
    assert sdk.prehash() == RAW_TRANSACTION_PREFIX
    assert SdkMultiAgentRaw(sdk, []).prehash() == RAW_TRANSACTION_WITH_DATA_PREFIX


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("RAW_TRANSACTION_SALT", RAW_TRANSACTION_PREFIX),
        ("RAW_TRANSACTION_WITH_DATA_SALT", RAW_TRANSACTION_WITH_DATA_PREFIX),
        ("TRANSACTION_SALT", TRANSACTION_PREFIX),
    ],
)
def test_the_old_salt_names_still_work_and_warn(old: str, new: bytes) -> None:
    assert old not in ledgerkit.bcs.__all__
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated; use"):
        assert getattr(ledgerkit.bcs, old) == new
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError):
            ledgerkit.bcs.NO_SUCH_NAME  # noqa: B018


def test_a_signing_message_reads_back_into_its_transaction() -> None:
    raw = transfer(ED.address)
    multi = MultiAgentRawTransaction(raw, (SECP.address,))
    fee = FeePayerRawTransaction(raw, (SECP.address,), Address.parse("0x0"))
    for transaction in (raw, multi, fee):
        assert decode_signing_message(transaction.signing_message()) == transaction
    with pytest.raises(InputError, match="not a signing message"):
        decode_signing_message(raw.to_bcs())
    with pytest.raises(BCSDecodeError):
        decode_signing_message(raw.signing_message()[:-1])
    with pytest.raises(BCSDecodeError):
        decode_signing_message(raw.signing_message() + b"\x00")


@pytest.mark.parametrize("account", [ED, SECP], ids=["ed25519", "secp256k1"])
def test_a_detached_signature_rebuilds_the_signed_transaction(account: Account) -> None:
    raw = transfer(account.address)
    message = raw.signing_message()
    signature = account.sign_message(message)
    expected = account.sign(raw).to_bcs()
    for key in (account.public_key, bytes(account.public_key), str(account.public_key)):
        for form in (message, "0x" + message.hex()):
            signed = SignedTransaction.from_signing_message(form, key, signature)
            assert signed.to_bcs() == expected
    rebuilt = SignedTransaction.from_signing_message(message, key, "0x" + signature.hex())
    assert rebuilt.hash() == account.sign(raw).hash()


def test_an_ed25519_key_as_a_single_key_gives_a_single_sender() -> None:
    raw = transfer(ED.public_key.address(single_key=True))
    signature = ED.sign_message(raw.signing_message())
    key = AnyPublicKey("ed25519", bytes(ED.public_key))
    signed = SignedTransaction.from_signing_message(raw.signing_message(), key, signature)
    assert isinstance(signed.authenticator, SingleSenderAuthenticator)
    assert signed.verify()


@pytest.mark.parametrize(
    ("change", "error", "says"),
    [
        ({"signature": bytes(64)}, SigningError, "does not verify"),
        ({"public_key": SECP.public_key}, SigningError, "does not verify"),
        ({"public_key": b"\x01" * 33}, InputError, "32 bytes"),
        ({"public_key": 7}, InputError, "bytes or 0x hex"),
        ({"signature": "0xzz"}, InputError, "hex"),
        ({"message": b"\x00" * 40}, InputError, "not a signing message"),
    ],
)
def test_a_detached_signature_that_does_not_fit_is_a_typed_error(
    change: dict[str, Any], error: type[Exception], says: str
) -> None:
    raw = transfer(ED.address)
    args = {
        "message": raw.signing_message(),
        "public_key": ED.public_key,
        "signature": ED.sign_message(raw.signing_message()),
        **change,
    }
    with pytest.raises(error, match=says):
        SignedTransaction.from_signing_message(**args)


def test_a_multi_agent_message_takes_every_signers_authenticator() -> None:
    multi = MultiAgentRawTransaction(transfer(ED.address), (SECP.address,))
    message = multi.signing_message()
    with pytest.raises(InputError, match=r"MultiAgentRawTransaction\.authenticate"):
        SignedTransaction.from_signing_message(message, ED.public_key, ED.sign_message(message))


# -- the JSON path ---------------------------------------------------------------------------


def test_submission_request_writes_the_json_the_api_describes() -> None:
    raw = transfer(ED.address)
    assert submission_request(raw, param_types=["address", "u64"]) == {
        "sender": str(ED.address),
        "sequence_number": "3",
        "max_gas_amount": "2000",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": "1900000000",
        "payload": {
            "type": "entry_function_payload",
            "function": "0x1::aptos_account::transfer",
            "type_arguments": [],
            "arguments": ["0x2", "5"],
        },
    }
    script = Script(
        b"\xa1\x1c", (), (ScriptArgument("u64", 2**64 - 1), ScriptArgument("u8_vector", b"\x01"))
    )
    body = submission_request(MultiAgentRawTransaction(
        RawTransaction(ED.address, 0, script, 1, 1, 1, 4), (SECP.address,)))  # fmt: skip
    assert body["payload"] == {
        "type": "script_payload",
        "code": {"bytecode": "0xa11c", "abi": {"params": ["u64", "vector<u8>"]}},
        "type_arguments": [],
        "arguments": [str(2**64 - 1), "0x01"],
    }
    assert body["secondary_signers"] == [str(SECP.address)]
    with pytest.raises(InputError, match="param_types"):
        submission_request(raw)
    with pytest.raises(InputError, match="no fee-payer form"):
        submission_request(FeePayerRawTransaction(raw, (), ED.address))  # type: ignore[arg-type]


@pytest.mark.parametrize("account", [ED, SECP], ids=["ed25519", "secp256k1"])
def test_the_json_submission_carries_the_checked_signature(account: Account) -> None:
    raw = transfer(account.address)
    request = submission_request(raw, param_types=["address", "u64"])
    encoded = EncodedSubmission.from_signing_message(raw.signing_message(), request)
    assert encoded.raw == raw
    assert encoded.raw_bytes == raw.to_bcs()
    signature = account.sign_message(bytes(encoded.signing_message))
    body = encoded.json_submission(account.public_key, signature)
    if account is ED:
        assert body["signature"] == {"type": "ed25519_signature",
                                     "public_key": str(account.public_key),
                                     "signature": "0x" + signature.hex()}  # fmt: skip
    else:
        assert body["signature"] == {
            "type": "single_sender",
            "public_key": {"type": "secp256k1_ecdsa", "value": str(account.public_key)},
            "signature": {"type": "secp256k1_ecdsa", "value": "0x" + signature.hex()},
        }
    assert {k: v for k, v in body.items() if k != "signature"} == request
    assert encoded.signed(account.public_key, signature).to_bcs() == account.sign(raw).to_bcs()
    with pytest.raises(SigningError):
        encoded.json_submission(account.public_key, bytes(64))
    with pytest.raises(InputError, match="not encoded from a JSON request"):
        EncodedSubmission.from_signing_message(raw.signing_message()).json_submission(
            account.public_key, signature
        )
