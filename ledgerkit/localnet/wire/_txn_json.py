"""Transactions in the API's JSON shapes, both ways: payloads, signatures, requests, and
the one writer of a transaction's JSON, pending, committed or simulated.

Output follows the node (facts §5): ``entry_function_payload`` with the arguments decoded
by the function's ABI; signatures as ``ed25519_signature``, ``multi_ed25519_signature``,
``multi_agent_signature``, ``fee_payer_signature`` or ``single_sender`` (whose body is
the account signature with its ``type`` overwritten, as the node does). Input accepts the
same shapes (and ``single_key_signature`` / ``multi_key_signature`` inside
``single_sender`` by their field names), converting JSON arguments with the ABI: an
entry function's from the framework, a script's from the ``code.abi`` sent with it.
Every malformed request becomes ``NodeError(INVALID_INPUT)`` naming the field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledgerkit._errors import BCSError, InputError, LedgerError
from ledgerkit.bcs import (
    AbstractionAuthenticator,
    AccountAuthenticator,
    AnyPublicKey,
    AnySignature,
    Ed25519Authenticator,
    EntryFunction,
    FeePayerAuthenticator,
    MultiAgentAuthenticator,
    MultiEd25519Authenticator,
    MultiKeyAuthenticator,
    Multisig,
    NoAccountAuthenticator,
    RawTransaction,
    Script,
    SignedTransaction,
    SingleKeyAuthenticator,
    SingleSenderAuthenticator,
    TransactionAuthenticator,
    TransactionPayload,
    TransactionPayloadV1,
)
from ledgerkit.localnet.vm.framework import FRAMEWORK, FunctionSpec, render_type
from ledgerkit.localnet.vm.move import BytecodeError, read_script, script_abi
from ledgerkit.localnet.wire._json_fields import call_arguments, field, hex_field, invalid
from ledgerkit.localnet.wire._script_json import script_from_json
from ledgerkit.types import Address, EntryFunctionId, HexBytes, parse_uint

__all__ = [
    "ModuleAbiOf",
    "authenticator_from_json",
    "body_address",
    "decode_arguments",
    "entry_function_from_json",
    "info_json",
    "payload_json",
    "pending_json",
    "raw_from_json",
    "signature_json",
    "user_fields",
]


#: The ABI JSON of a published module by (address, name), or None.
ModuleAbiOf = Callable[[Address, str], "dict[str, Any] | None"]
#: Where the framework's (Python) modules are; any other address holds published ones.
_FRAMEWORK_ADDRESSES = frozenset(Address.from_int(n) for n in (1, 3, 4))


def _hex(data: bytes) -> str:
    return "0x" + data.hex()


# -- output -----------------------------------------------------------------------------------


def decode_arguments(ef: EntryFunction, abi_of: ModuleAbiOf | None = None) -> list[Any] | None:
    """The arguments of an entry function call in JSON form, or None.

    A framework function's are read by its declared ABI, a published one's by its module's
    ABI as ``abi_of`` reads it (the state as of the call's version). None, so that the
    JSON shows the hex of each argument's BCS, only when the module cannot be read there
    (or the bytes do not fit its ABI).
    """
    fid = ef.function_id
    module, function = FRAMEWORK.function(fid)
    if module is None and abi_of is not None and fid.address not in _FRAMEWORK_ADDRESSES:
        function = _published_function(abi_of, fid) or None
    if function is None or len(function.generics) != len(ef.type_args):
        return None
    try:
        params = [p.substitute(ef.type_args) for p in function.value_params]
        return [
            FRAMEWORK.standardize(t, FRAMEWORK.codec.decode(t, raw))
            for t, raw in zip(params, ef.args, strict=True)
        ]
    except (LedgerError, ValueError):
        return None


def _entry_function_json(
    ef: EntryFunction, arguments: list[Any] | None = None, abi_of: ModuleAbiOf | None = None
) -> dict[str, Any]:
    fid = ef.function_id
    args = arguments if arguments is not None else decode_arguments(ef, abi_of)
    if args is None:
        args = [_hex(raw) for raw in ef.args]  # no ABI to read them by: show the bytes
    return {
        "function": f"{fid.address.standard}::{fid.module.name}::{fid.name}",
        "type_arguments": [render_type(t) for t in ef.type_args],
        "arguments": args,
        "type": "entry_function_payload",
    }


def payload_json(
    payload: TransactionPayload,
    arguments: list[Any] | None = None,
    abi_of: ModuleAbiOf | None = None,
) -> dict[str, Any]:
    """A payload as the node shows it (``arguments``: the call's, already decoded;
    ``abi_of``: published modules' ABIs, by which their calls' arguments read)."""
    if isinstance(payload, TransactionPayloadV1):
        if isinstance(payload.executable, EntryFunction) and payload.multisig_address is None:
            return _entry_function_json(payload.executable, arguments, abi_of)
        if payload.multisig_address is not None:
            inner = payload.executable if isinstance(payload.executable, EntryFunction) else None
            return payload_json(Multisig(payload.multisig_address, inner), abi_of=abi_of)
        if isinstance(payload.executable, Script):
            return payload_json(payload.executable)
        return {"type": "module_bundle_payload"}
    if isinstance(payload, EntryFunction):
        return _entry_function_json(payload, arguments, abi_of)
    if isinstance(payload, Multisig):
        body: dict[str, Any] = {
            "multisig_address": payload.multisig_address.standard,
            "type": "multisig_payload",
        }
        if payload.payload is not None:
            body["transaction_payload"] = _entry_function_json(payload.payload, None, abi_of)
        return body
    return {
        "code": _script_code(payload.code),
        "type_arguments": [render_type(t) for t in payload.type_args],
        "arguments": [_script_arg(a.kind, a.value) for a in payload.args],
        "type": "script_payload",
    }


def _script_code(code: bytes) -> dict[str, Any]:
    """A script's bytecode and, when it reads, its ABI (as a node serves them)."""
    try:
        abi = script_abi(read_script(code))
    except BytecodeError:
        return {"bytecode": _hex(code)}
    return {"bytecode": _hex(code), "abi": abi}


def _script_arg(kind: str, value: Any) -> Any:
    if kind == "address":
        return Address.parse(value).standard
    if kind in ("u8_vector", "serialized"):
        return _hex(value)  # a serialized argument reads as its bytes, as a node shows it
    if kind in ("u64", "u128", "u256"):
        return str(value)
    return value


def _key_json(scheme: str, value: bytes) -> dict[str, Any]:
    return {"type": scheme, "value": _hex(value)}


def account_signature_json(auth: AccountAuthenticator) -> dict[str, Any]:
    """An account authenticator as an AccountSignature."""
    if isinstance(auth, Ed25519Authenticator):
        return {
            "public_key": _hex(auth.public_key),
            "signature": _hex(auth.signature),
            "type": "ed25519_signature",
        }
    if isinstance(auth, MultiEd25519Authenticator):
        return {
            "public_keys": [_hex(k) for k in auth.public_keys],
            "signatures": [_hex(s) for s in auth.signatures],
            "threshold": auth.threshold,
            "bitmap": _hex(auth.bitmap),
            "type": "multi_ed25519_signature",
        }
    if isinstance(auth, SingleKeyAuthenticator):
        return {
            "public_key": _key_json(auth.public_key.scheme, auth.public_key.value),
            "signature": _key_json(auth.signature.scheme, auth.signature.value),
            "type": "single_key_signature",
        }
    if isinstance(auth, MultiKeyAuthenticator):
        signers = [
            i for i in range(len(auth.bitmap) * 8) if auth.bitmap[i // 8] & (0x80 >> (i % 8))
        ]
        return {
            "public_keys": [_key_json(k.scheme, k.value) for k in auth.public_keys],
            "signatures": [
                {"index": i, "signature": _key_json(s.scheme, s.value)}
                for i, s in zip(signers, auth.signatures, strict=False)
            ],
            "signatures_required": auth.signatures_required,
            "type": "multi_key_signature",
        }
    if isinstance(auth, NoAccountAuthenticator):
        return {"type": "no_account_signature"}
    return {
        "function_info": f"{auth.module_address.standard}::{auth.module_name}::"
        f"{auth.function_name}",
        "auth_data": _hex(auth.auth_data),
        "type": "abstraction_signature",
    }


def signature_json(auth: TransactionAuthenticator) -> dict[str, Any]:
    """A transaction authenticator as the node's Signature."""
    if isinstance(auth, Ed25519Authenticator | MultiEd25519Authenticator):
        return account_signature_json(auth)
    if isinstance(auth, SingleSenderAuthenticator):
        body = account_signature_json(auth.sender)
        body["type"] = "single_sender"
        return body
    body = {
        "sender": account_signature_json(auth.sender),
        "secondary_signer_addresses": [a.standard for a in auth.secondary_signer_addresses],
        "secondary_signers": [account_signature_json(a) for a in auth.secondary_signers],
        "type": "multi_agent_signature",
    }
    if isinstance(auth, FeePayerAuthenticator):
        body["fee_payer_address"] = auth.fee_payer_address.standard
        body["fee_payer_signer"] = account_signature_json(auth.fee_payer_signer)
        body["type"] = "fee_payer_signature"
    return body


# -- whole transactions -------------------------------------------------------------------
# Key order is part of the answer: stored transactions are these bytes, and the chain's
# fingerprint covers them.


def info_json(
    *,
    version: int,
    txn_hash: bytes,
    state_change_hash: str,
    event_root_hash: str,
    gas_used: int,
    success: bool,
    vm_status: str,
    accumulator_root_hash: str,
    changes: list[dict[str, Any]],
) -> dict[str, Any]:
    """The transaction info every executed transaction starts with (committed or simulated)."""
    return {
        "version": str(version),
        "hash": _hex(txn_hash),
        "state_change_hash": state_change_hash,
        "event_root_hash": event_root_hash,
        "gas_used": str(gas_used),
        "success": success,
        "vm_status": vm_status,
        "accumulator_root_hash": accumulator_root_hash,
        "changes": changes,
    }


def _signed_fields(
    signed: SignedTransaction, payload: dict[str, Any], signature: dict[str, Any]
) -> dict[str, Any]:
    raw = signed.raw
    body = {
        "sender": raw.sender.standard,
        "sequence_number": str(raw.sequence_number),
        "max_gas_amount": str(raw.max_gas_amount),
        "gas_unit_price": str(raw.gas_unit_price),
        "expiration_timestamp_secs": str(raw.expiration_timestamp_secs),
        "payload": payload,
        "signature": signature,
    }
    if (
        isinstance(raw.payload, TransactionPayloadV1)
        and raw.payload.replay_protection_nonce is not None
    ):
        body["replay_protection_nonce"] = str(raw.payload.replay_protection_nonce)
    return body


def pending_json(
    signed: SignedTransaction,
    txn_hash: bytes,
    arguments: list[Any] | None,
    abi_of: ModuleAbiOf | None = None,
) -> dict[str, Any]:
    """A waiting transaction as the node shows it (``arguments``: the call's, decoded;
    ``abi_of``: published modules' ABIs at the head)."""
    return {
        "hash": _hex(txn_hash),
        **_signed_fields(
            signed,
            payload_json(signed.raw.payload, arguments, abi_of),
            signature_json(signed.authenticator),
        ),
        "type": "pending_transaction",
    }


def user_fields(
    signed: SignedTransaction,
    events: list[dict[str, Any]],
    timestamp_usec: int,
    *,
    payload: dict[str, Any] | None = None,
    signature: dict[str, Any] | None = None,
    simulated: bool = False,
    abi_of: ModuleAbiOf | None = None,
) -> dict[str, Any]:
    """What follows :func:`info_json` in an executed user transaction.

    ``payload`` and ``signature`` are the JSON already made for its pending form, when at
    hand; ``abi_of`` reads published modules' ABIs in the state the transaction ran in,
    so that a call of one shows its arguments as that ABI reads them. A simulation's
    answer has no ``type`` tag, as public nodes answer it with bare ``UserTransaction``
    objects.
    """
    body = _signed_fields(
        signed,
        payload_json(signed.raw.payload, abi_of=abi_of) if payload is None else payload,
        signature_json(signed.authenticator) if signature is None else signature,
    )
    body["events"] = events
    body["timestamp"] = str(timestamp_usec)
    if not simulated:
        body["type"] = "user_transaction"
    return body


# -- input ------------------------------------------------------------------------------------


def body_address(value: Any, where: str) -> Address:
    """An address in a JSON body: ``0x`` and hex, leading zeros may be left out (only path
    parameters may leave out the ``0x``, as the API says)."""
    if not isinstance(value, str) or not value.startswith("0x"):
        raise invalid(f"{where}: an address is 0x and hex digits, got {value!r:.80}")
    try:
        return Address.parse(value)
    except InputError as exc:
        raise invalid(f"{where}: {exc}") from None


def _u64(obj: Any, name: str, where: str = "the request") -> int:
    try:
        return parse_uint(field(obj, name, where), 64, what=name)
    except InputError as exc:
        raise invalid(str(exc)) from None


def _any_key(obj: Any, where: str) -> AnyPublicKey:
    return AnyPublicKey(field(obj, "type", where), hex_field(obj, "value", where))


def _any_signature(obj: Any, where: str) -> AnySignature:
    return AnySignature(field(obj, "type", where), hex_field(obj, "value", where))


def _account_from_json(obj: Any, where: str) -> AccountAuthenticator:
    kind = field(obj, "type", where)
    if kind == "ed25519_signature" or (
        kind == "single_sender" and isinstance(obj.get("public_key"), str)
    ):
        return Ed25519Authenticator(
            hex_field(obj, "public_key", where), hex_field(obj, "signature", where)
        )
    if kind == "multi_ed25519_signature":
        keys = tuple(bytes(HexBytes.parse(k)) for k in field(obj, "public_keys", where))
        sigs = tuple(bytes(HexBytes.parse(s)) for s in field(obj, "signatures", where))
        threshold = field(obj, "threshold", where)
        return MultiEd25519Authenticator(keys, threshold, sigs, hex_field(obj, "bitmap", where))
    if kind in ("single_key_signature", "single_sender") and "public_key" in obj:
        return SingleKeyAuthenticator(
            _any_key(obj["public_key"], f"{where}.public_key"),
            _any_signature(field(obj, "signature", where), f"{where}.signature"),
        )
    if kind in ("multi_key_signature", "single_sender") and "public_keys" in obj:
        any_keys = tuple(_any_key(k, f"{where}.public_keys") for k in obj["public_keys"])
        entries = field(obj, "signatures", where)
        indexes = [field(e, "index", f"{where}.signatures") for e in entries]
        any_sigs = tuple(
            _any_signature(field(e, "signature", where), f"{where}.signatures") for e in entries
        )
        bitmap = MultiKeyAuthenticator.make_bitmap(indexes, len(any_keys))
        required = field(obj, "signatures_required", where)
        return MultiKeyAuthenticator(any_keys, required, any_sigs, bitmap)
    if kind == "no_account_signature":
        return NoAccountAuthenticator()
    if kind in ("abstraction_signature", "abstract_signature"):
        fid = EntryFunctionId.parse(field(obj, "function_info", where))
        return AbstractionAuthenticator(
            fid.address, fid.module.name, fid.name, hex_field(obj, "auth_data", where)
        )
    raise invalid(f"{where}: unknown signature type {kind!r}")


def authenticator_from_json(obj: Any, where: str = "signature") -> TransactionAuthenticator:
    """A Signature object as a transaction authenticator."""
    try:
        kind = field(obj, "type", where)
        if kind in ("ed25519_signature", "multi_ed25519_signature"):
            found = _account_from_json(obj, where)
            assert isinstance(found, Ed25519Authenticator | MultiEd25519Authenticator)
            return found
        if kind == "single_sender":
            return SingleSenderAuthenticator(_account_from_json(obj, where))
        if kind in ("multi_agent_signature", "fee_payer_signature"):
            sender = _account_from_json(field(obj, "sender", where), f"{where}.sender")
            addresses = tuple(
                body_address(a, f"{where}.secondary_signer_addresses")
                for a in field(obj, "secondary_signer_addresses", where)
            )
            signers = tuple(
                _account_from_json(s, f"{where}.secondary_signers")
                for s in field(obj, "secondary_signers", where)
            )
            if kind == "multi_agent_signature":
                return MultiAgentAuthenticator(sender, addresses, signers)
            payer = body_address(
                field(obj, "fee_payer_address", where), f"{where}.fee_payer_address"
            )
            payer_signer = _account_from_json(
                field(obj, "fee_payer_signer", where), f"{where}.fee_payer_signer"
            )
            return FeePayerAuthenticator(sender, addresses, signers, payer, payer_signer)
        raise invalid(f"{where}: unknown signature type {kind!r}")
    except (BCSError, InputError, TypeError, ValueError) as exc:
        raise invalid(f"{where}: {exc}") from None


def _published_function(abi_of: ModuleAbiOf | None, fid: EntryFunctionId) -> Any:
    """The ``FunctionSpec`` of a published function by its module's ABI (``False``: no
    such module)."""
    abi = None if abi_of is None else abi_of(fid.address, fid.module.name)
    if abi is None:
        return False
    for f in abi.get("exposed_functions", []):
        if f["name"] == fid.name:
            return FunctionSpec(
                f["name"],
                tuple(f["params"]),
                tuple(f["return"]),
                tuple(tuple(g["constraints"]) for g in f["generic_type_params"]),
                entry=f["is_entry"],
                view=f["is_view"],
                visibility=f["visibility"],
            )
    return None


def entry_function_from_json(
    obj: Any,
    where: str = "payload",
    *,
    stored: bool = False,
    abi_of: ModuleAbiOf | None = None,
) -> EntryFunction:
    """An ``entry_function_payload`` with its JSON arguments converted by the ABI (a
    published module's read with ``abi_of``).

    ``stored``: the JSON is a committed transaction's, where a call of a published
    module whose ABI could not be read (no ``abi_of``, or no such module there) shows
    each argument as the hex of its BCS, taken back as such.
    """
    try:
        fid = EntryFunctionId.parse(field(obj, "function", where))
    except InputError as exc:
        raise invalid(f"{where}.function: {exc}") from None
    type_args, arguments = call_arguments(obj, where)
    module, function = FRAMEWORK.function(fid)
    known = module is not None
    if not known and fid.address not in _FRAMEWORK_ADDRESSES:
        published = _published_function(abi_of, fid)
        if stored and published is False:
            try:
                raw = tuple(bytes.fromhex(str(a).removeprefix("0x")) for a in arguments)
            except ValueError as exc:
                raise invalid(f"{where}.arguments: {exc}") from None
            return EntryFunction(fid.module, fid.name, type_args, raw)
        known = published is not False
        function = published or None
    if not known:
        raise invalid(f"Module {fid.module} not found")
    if function is None:
        raise invalid(f"Function {fid} not found")
    if len(type_args) != len(function.generics):
        raise invalid(
            f"{fid} takes {len(function.generics)} type argument(s), got {len(type_args)}"
        )
    params = [p.substitute(type_args) for p in function.value_params]
    if len(arguments) != len(params):
        raise invalid(f"{fid} takes {len(params)} argument(s), got {len(arguments)}")
    try:
        pairs = list(zip(params, arguments, strict=True))
        return EntryFunction.build(fid, type_args, pairs, codec=FRAMEWORK.codec)
    except (InputError, BCSError) as exc:
        raise invalid(f"{where}.arguments: {exc}") from None


def _multisig_from_json(obj: Any, abi_of: ModuleAbiOf | None = None) -> Multisig:
    address = body_address(field(obj, "multisig_address", "payload"), "payload.multisig_address")
    inner = obj.get("transaction_payload")
    if inner is None:
        return Multisig(address)  # the call is stored on chain already
    kind = field(inner, "type", "payload.transaction_payload")
    if kind != "entry_function_payload":
        raise invalid(
            f"payload.transaction_payload: a multisig account runs an entry function here, "
            f"not {kind!r}"
        )
    inner_call = entry_function_from_json(inner, "payload.transaction_payload", abi_of=abi_of)
    return Multisig(address, inner_call)


def _payload_from_json(
    obj: Any, stored: bool = False, abi_of: ModuleAbiOf | None = None
) -> TransactionPayload:
    kind = field(obj, "type", "payload")
    if kind == "entry_function_payload":
        return entry_function_from_json(obj, stored=stored, abi_of=abi_of)
    if kind == "script_payload":
        return script_from_json(obj)
    if kind == "multisig_payload":
        return _multisig_from_json(obj, abi_of)
    raise invalid(
        f"payload type {kind!r} is not supported: entry_function_payload, script_payload "
        "or multisig_payload"
    )


def raw_from_json(
    request: Any, chain_id: int, *, stored: bool = False, abi_of: ModuleAbiOf | None = None
) -> RawTransaction:
    """The raw transaction of a submit, simulate or encode request (``stored``: of a
    committed transaction's JSON; ``abi_of``: the ABI of a published module, or None)."""
    if not isinstance(request, dict):
        raise invalid("the request must be a JSON object")
    payload = _payload_from_json(field(request, "payload", "the request"), stored, abi_of)
    if request.get("replay_protection_nonce") is not None:
        # An orderless transaction: the versioned payload carries the nonce.
        nonce = _u64(request, "replay_protection_nonce")
        if isinstance(payload, Multisig):
            payload = TransactionPayloadV1(
                payload.payload, payload.multisig_address, replay_protection_nonce=nonce
            )
        elif isinstance(payload, EntryFunction | Script):
            payload = TransactionPayloadV1(payload, replay_protection_nonce=nonce)
    raw = RawTransaction(
        sender=body_address(field(request, "sender", "the request"), "sender"),
        sequence_number=_u64(request, "sequence_number"),
        payload=payload,
        max_gas_amount=_u64(request, "max_gas_amount"),
        gas_unit_price=_u64(request, "gas_unit_price"),
        expiration_timestamp_secs=_u64(request, "expiration_timestamp_secs"),
        chain_id=chain_id,
    )
    try:
        raw.to_bcs()  # kept: what cannot be written in BCS is refused here, not later
    except BCSError as exc:
        raise invalid(f"the transaction cannot be encoded: {exc}") from None
    return raw
