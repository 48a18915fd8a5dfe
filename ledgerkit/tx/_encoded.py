"""Transactions in the node's JSON, for signers without BCS: the request that
``encode_submission`` takes, the signing message it answers with the transaction it
encodes, and the JSON submission that carries a detached signature.

The JSON path goes: :func:`submission_request` (or a hand-written mapping) ->
``client.encode_submission`` -> :class:`EncodedSubmission` -> sign its
``signing_message`` anywhere -> :meth:`EncodedSubmission.json_submission` ->
``client.submit_transaction``. No I/O here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ledgerkit._errors import DecodingError, InputError
from ledgerkit.bcs import (
    Ed25519Authenticator,
    EntryFunction,
    FeePayerRawTransaction,
    MoveValueCodec,
    MultiAgentRawTransaction,
    Multisig,
    RawTransaction,
    Script,
    ScriptArgument,
    SignedTransaction,
    SingleKeyAuthenticator,
    SingleSenderAuthenticator,
    TransactionPayload,
    TransactionPayloadV1,
    decode_signing_message,
)
from ledgerkit.types import Address, HexBytes, MoveType

__all__ = ["EncodedSubmission", "submission_request"]

_CODEC = MoveValueCodec()


@dataclass(frozen=True, slots=True)
class EncodedSubmission:
    """A signing message and the transaction it is of.

    Attributes
    ----------
    signing_message : HexBytes
        What every signer signs: a 32-byte prefix, then the BCS of :attr:`raw`.
    raw : RawTransaction or MultiAgentRawTransaction
        The transaction, read back from the message (multi-agent when the request
        named secondary signers).
    request : mapping or None
        The JSON request it was encoded from, when there was one; what
        :meth:`json_submission` adds the signature to.
    """

    signing_message: HexBytes
    raw: RawTransaction | MultiAgentRawTransaction
    request: Mapping[str, Any] | None = None

    @classmethod
    def from_signing_message(
        cls, message: bytes | str, request: Mapping[str, Any] | None = None
    ) -> EncodedSubmission:
        """Read the transaction back from a signing message.

        Raises
        ------
        DecodingError
            Not the signing message of a single-signer or multi-agent transaction.
        """
        data = bytes(HexBytes.parse(message)) if isinstance(message, str) else bytes(message)
        try:
            raw = decode_signing_message(data)
        except (InputError, ValueError) as exc:
            raise DecodingError(f"not a signing message: {exc}") from None
        if isinstance(raw, FeePayerRawTransaction):
            raise DecodingError("encode_submission has no fee-payer form")
        return cls(HexBytes(data), raw, request)

    @property
    def raw_bytes(self) -> bytes:
        """The BCS of :attr:`raw`: the signing message without its prefix."""
        return bytes(self.signing_message)[32:]

    def signed(self, public_key: object, signature: bytes | str) -> SignedTransaction:
        """The signed transaction of a single signer's detached signature (see
        :meth:`SignedTransaction.from_signing_message`, which checks it)."""
        return SignedTransaction.from_signing_message(
            bytes(self.signing_message), public_key, signature
        )

    def json_submission(self, public_key: object, signature: bytes | str) -> dict[str, Any]:
        """The JSON submit request: :attr:`request` with the signer's ``signature``.

        The signature is checked first. A 32-byte key gives an ``ed25519_signature``; a
        65-byte secp256k1 key a ``single_sender`` single-key signature.

        Raises
        ------
        InputError
            No request to add it to, or a multi-agent transaction (submit its BCS, from
            ``MultiAgentRawTransaction.authenticate``).
        SigningError
            The signature does not verify.
        """
        if self.request is None:
            raise InputError("this signing message was not encoded from a JSON request")
        auth = self.signed(public_key, signature).authenticator  # checks the signature
        body: dict[str, Any]
        if isinstance(auth, Ed25519Authenticator):
            body = {
                "type": "ed25519_signature",
                "public_key": "0x" + auth.public_key.hex(),
                "signature": "0x" + auth.signature.hex(),
            }
        else:
            assert isinstance(auth, SingleSenderAuthenticator)
            single = auth.sender
            assert isinstance(single, SingleKeyAuthenticator)
            body = {
                "type": "single_sender",
                "public_key": {
                    "type": single.public_key.scheme,
                    "value": "0x" + single.public_key.value.hex(),
                },
                "signature": {
                    "type": single.signature.scheme,
                    "value": "0x" + single.signature.value.hex(),
                },
            }
        request = {k: v for k, v in self.request.items() if k != "secondary_signers"}
        return {**request, "signature": body}


def _entry_json(call: EntryFunction, param_types: Sequence[MoveType | str] | None) -> Any:
    if param_types is None:
        raise InputError(
            "rendering an entry function call in JSON needs its parameter types "
            "(param_types=, without the signers); the client reads them from the ABI"
        )
    types = [MoveType.parse(t) if isinstance(t, str) else t for t in param_types]
    if len(types) != len(call.args):
        raise InputError(f"{len(types)} parameter types for {len(call.args)} arguments")
    return {
        "type": "entry_function_payload",
        "function": str(call.function_id),
        "type_arguments": [str(t) for t in call.type_args],
        "arguments": [_CODEC.decode(t, arg) for t, arg in zip(types, call.args, strict=True)],
    }


def _script_json(script: Script) -> dict[str, Any]:
    if any(a.kind == "serialized" for a in script.args):
        raise InputError("a serialized script argument has no JSON request form; submit its BCS")

    def value(kind: str, v: Any) -> Any:
        if kind == "address":
            return Address.parse(v).long
        if kind == "u8_vector":
            return "0x" + bytes(v).hex()
        if kind in ("u64", "u128", "u256"):
            return str(v)
        return v

    return {
        "type": "script_payload",
        "code": {
            "bytecode": "0x" + script.code.hex(),
            "abi": {"params": [ScriptArgument.MOVE_TYPES[a.kind] for a in script.args]},
        },
        "type_arguments": [str(t) for t in script.type_args],
        "arguments": [value(a.kind, a.value) for a in script.args],
    }


def _payload_json(
    payload: TransactionPayload, param_types: Sequence[MoveType | str] | None
) -> dict[str, Any]:
    if isinstance(payload, TransactionPayloadV1):
        raise InputError("a versioned (V1) payload has no JSON request form here; submit its BCS")
    if isinstance(payload, EntryFunction):
        return dict(_entry_json(payload, param_types))
    if isinstance(payload, Script):
        return _script_json(payload)
    if isinstance(payload, Multisig):
        body: dict[str, Any] = {
            "type": "multisig_payload",
            "multisig_address": payload.multisig_address.long,
        }
        if payload.payload is not None:
            body["transaction_payload"] = _entry_json(payload.payload, param_types)
        return body
    raise InputError(f"no JSON request form for a {type(payload).__name__} payload")


def submission_request(
    raw: RawTransaction | MultiAgentRawTransaction,
    *,
    param_types: Sequence[MoveType | str] | None = None,
) -> dict[str, Any]:
    """The JSON ``encode_submission`` request of a transaction.

    Parameters
    ----------
    raw : RawTransaction or MultiAgentRawTransaction
        The transaction; a multi-agent one names its ``secondary_signers``.
    param_types : sequence of MoveType or str, optional
        For an entry function call (or a multisig account's): its value parameter types,
        type arguments already substituted, without the leading signers, by which its
        BCS arguments are rendered in JSON. Scripts carry their argument types.

    Raises
    ------
    InputError
        An entry function call without ``param_types``, or a payload with no JSON form.

    Examples
    --------
    >>> from ledgerkit.bcs import EntryFunction
    >>> call = EntryFunction.build("0x1::aptos_account::transfer", (),
    ...                            [("address", "0xb0b"), ("u64", 5)])
    >>> raw = RawTransaction(Address.parse("0xa"), 0, call, 2000, 100, 1_900_000_000, 4)
    >>> submission_request(raw, param_types=["address", "u64"])["payload"]["arguments"]
    ['0xb0b', '5']
    """
    secondary: tuple[Address, ...] = ()
    if isinstance(raw, MultiAgentRawTransaction):
        secondary = raw.secondary_signers
        raw = raw.raw
    if not isinstance(raw, RawTransaction):
        raise InputError(
            f"a RawTransaction or MultiAgentRawTransaction, got {type(raw).__name__} "
            "(encode_submission has no fee-payer form)"
        )
    request: dict[str, Any] = {
        "sender": str(raw.sender),
        "sequence_number": str(raw.sequence_number),
        "max_gas_amount": str(raw.max_gas_amount),
        "gas_unit_price": str(raw.gas_unit_price),
        "expiration_timestamp_secs": str(raw.expiration_timestamp_secs),
        "payload": _payload_json(raw.payload, param_types),
    }
    if secondary:
        request["secondary_signers"] = [str(a) for a in secondary]
    return request
