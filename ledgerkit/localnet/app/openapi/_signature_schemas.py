"""Signatures in the node's OpenAPI document: transaction and account signatures, keys."""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.app.openapi._notation import Schema, _records, _ref, _unions

_MULTI_AGENT: Final = (
    "sender:AccountSignature secondary_signer_addresses:[Address] "
    "secondary_signers:[AccountSignature] "
)
_KEY_KINDS: Final = "ed25519|secp256k1_ecdsa|secp256r1_ecdsa|keyless|federated_keyless|"
_SIG_KINDS: Final = "ed25519|secp256k1_ecdsa|web_authn|keyless|"
_PQ: Final = "slh_dsa__sha2_128s"

# name: (description, required fields, optional fields[, fields absent but never null])
_RECORDS: Final[dict[str, tuple[str, ...]]] = {
    "Ed25519Signature": ("An Ed25519 key and signature.", "public_key:HexBytes signature:HexBytes"),
    "MultiEd25519Signature": (
        "K-of-N Ed25519: the keys, the signatures in key order, and a bitmap of the signers.",
        "public_keys:[HexBytes] signatures:[HexBytes] threshold:u8 bitmap:HexBytes",
    ),
    "MultiAgentSignature": ("The sender's and the secondary signers' signatures.", _MULTI_AGENT),
    "FeePayerSignature": (
        "The sender, the secondary signers, and the account that pays the fees.",
        _MULTI_AGENT + "fee_payer_address:Address fee_payer_signer:AccountSignature",
    ),
    "NoAccountSignature": ("No signature.", ""),
    "SingleKeySignature": (
        "One key of any kind and its signature.",
        "public_key:PublicKey signature:Signature",
    ),
    "MultiKeySignature": (
        "K-of-N keys of any kind, with the signatures of the keys that signed.",
        "public_keys:[PublicKey] signatures:[IndexedSignature] signatures_required:u8",
    ),
    "IndexedSignature": ("A signature and its key's position.", "index:u8 signature:Signature"),
    "AbstractionSignature": (
        "Account abstraction: the authenticating function and its data.",
        "function_info:str auth_data:HexBytes",
    ),
    "PublicKey": ("A public key and its kind.", f"type:{_KEY_KINDS}{_PQ} value:HexBytes"),
    "Signature": ("A signature and its kind.", f"type:{_SIG_KINDS}{_PQ} value:HexBytes"),
}

# union: (description, "tag:Variant ...")
_UNIONS: Final[dict[str, tuple[str, str]]] = {
    "TransactionSignature": (
        "How a transaction is authorized, tagged by `type`.",
        "ed25519_signature:Ed25519Signature multi_ed25519_signature:MultiEd25519Signature "
        "multi_agent_signature:MultiAgentSignature fee_payer_signature:FeePayerSignature "
        "single_sender:SingleSenderBody no_account_signature:NoAccountSignature",
    ),
    "AccountSignature": (
        "One account's signature, tagged by `type`; node versions spell the abstraction "
        "variant `abstraction_signature` or `abstract_signature`.",
        "ed25519_signature:Ed25519Signature multi_ed25519_signature:MultiEd25519Signature "
        "single_key_signature:SingleKeySignature multi_key_signature:MultiKeySignature "
        "no_account_signature:NoAccountSignature abstraction_signature:AbstractionSignature "
        "abstract_signature:AbstractionSignature",
    ),
}

# The node writes `single_sender` over the inner account signature's own tag, so the body
# is told apart by its fields; only the tag (no other field) is the no-account case.
_SINGLE_SENDER: Final[Schema] = {
    "anyOf": [
        _ref(name)
        for name in (
            "Ed25519Signature",
            "MultiEd25519Signature",
            "SingleKeySignature",
            "MultiKeySignature",
            "AbstractionSignature",
        )
    ]
    + [{"type": "object", "maxProperties": 1}],
}


def _signature_schemas() -> dict[str, Schema]:
    """How transactions and accounts are authorized."""
    return _records(_RECORDS) | _unions(_UNIONS, {"SingleSenderBody": _SINGLE_SENDER})
