"""BCS: the Serializer and Deserializer, type tags, the Move value codec, transaction
structs, authenticators, signing messages and hashes, and secp256k1 ECDSA as the ledger
checks it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledgerkit._public import moved_names as _moved_names
from ledgerkit._public import publish as _publish
from ledgerkit.bcs._account_authenticators import (
    AbstractionAuthenticator,
    AccountAuthenticator,
    Ed25519Authenticator,
    MultiEd25519Authenticator,
    MultiKeyAuthenticator,
    NoAccountAuthenticator,
    SingleKeyAuthenticator,
    deserialize_account_authenticator,
    serialize_account_authenticator,
)
from ledgerkit.bcs._any_keys import AnyPublicKey, AnySignature
from ledgerkit.bcs._codec import (
    MAX_SEQUENCE_LENGTH,
    BCSStruct,
    Deserializer,
    Serializable,
    Serializer,
    Span,
    uleb128_prefix,
)
from ledgerkit.bcs._explain import explain_spans, format_explanation
from ledgerkit.bcs._move_value_codec import DictLayouts, LayoutSource, MoveValueCodec
from ledgerkit.bcs._onchain import (
    BlockEpilogue,
    BlockMetadata,
    ExecutionStatus,
    GenesisTransaction,
    LedgerTransaction,
    StateCheckpoint,
    TransactionData,
    TransactionInfo,
    TransactionOnChainData,
)
from ledgerkit.bcs._payloads import (
    EntryFunction,
    Multisig,
    Script,
    ScriptArgument,
    TransactionPayload,
    TransactionPayloadV1,
    deserialize_payload,
    serialize_payload,
)
from ledgerkit.bcs._property_values import PROPERTY_TYPES, property_value_text
from ledgerkit.bcs._secp256k1 import (
    SECP256K1_ORDER,
    SECP256K1_PUBLIC_KEY_LENGTH,
    SECP256K1_SIGNATURE_LENGTH,
    secp256k1_signer,
    secp256k1_verify,
)
from ledgerkit.bcs._summaries import IndexedTransactionSummary
from ledgerkit.bcs._transaction_authenticators import (
    FeePayerAuthenticator,
    MultiAgentAuthenticator,
    SingleSenderAuthenticator,
    TransactionAuthenticator,
    deserialize_transaction_authenticator,
    serialize_transaction_authenticator,
)
from ledgerkit.bcs._transactions import (
    RAW_TRANSACTION_PREFIX,
    RAW_TRANSACTION_WITH_DATA_PREFIX,
    TRANSACTION_PREFIX,
    FeePayerRawTransaction,
    MultiAgentRawTransaction,
    RawTransaction,
    SignedTransaction,
    Signer,
    decode_signing_message,
)
from ledgerkit.bcs._typetag import (
    deserialize_struct_tag,
    deserialize_type_tag,
    serialize_struct_tag,
    serialize_type_tag,
    type_tag_bytes,
)
from ledgerkit.bcs._writeset import ContractEvent, StateKey, StateValueMetadata, WriteOp, WriteSet

__all__ = [
    "MAX_SEQUENCE_LENGTH",
    "PROPERTY_TYPES",
    "RAW_TRANSACTION_PREFIX",
    "RAW_TRANSACTION_WITH_DATA_PREFIX",
    "SECP256K1_ORDER",
    "SECP256K1_PUBLIC_KEY_LENGTH",
    "SECP256K1_SIGNATURE_LENGTH",
    "TRANSACTION_PREFIX",
    "AbstractionAuthenticator",
    "AccountAuthenticator",
    "AnyPublicKey",
    "AnySignature",
    "BCSStruct",
    "BlockEpilogue",
    "BlockMetadata",
    "ContractEvent",
    "Deserializer",
    "DictLayouts",
    "Ed25519Authenticator",
    "EntryFunction",
    "ExecutionStatus",
    "FeePayerAuthenticator",
    "FeePayerRawTransaction",
    "GenesisTransaction",
    "IndexedTransactionSummary",
    "LayoutSource",
    "LedgerTransaction",
    "MoveValueCodec",
    "MultiAgentAuthenticator",
    "MultiAgentRawTransaction",
    "MultiEd25519Authenticator",
    "MultiKeyAuthenticator",
    "Multisig",
    "NoAccountAuthenticator",
    "RawTransaction",
    "Script",
    "ScriptArgument",
    "Serializable",
    "Serializer",
    "SignedTransaction",
    "Signer",
    "SingleKeyAuthenticator",
    "SingleSenderAuthenticator",
    "Span",
    "StateCheckpoint",
    "StateKey",
    "StateValueMetadata",
    "TransactionAuthenticator",
    "TransactionData",
    "TransactionInfo",
    "TransactionOnChainData",
    "TransactionPayload",
    "TransactionPayloadV1",
    "WriteOp",
    "WriteSet",
    "decode_signing_message",
    "deserialize_account_authenticator",
    "deserialize_payload",
    "deserialize_struct_tag",
    "deserialize_transaction_authenticator",
    "deserialize_type_tag",
    "explain_spans",
    "format_explanation",
    "property_value_text",
    "secp256k1_signer",
    "secp256k1_verify",
    "serialize_account_authenticator",
    "serialize_payload",
    "serialize_struct_tag",
    "serialize_transaction_authenticator",
    "serialize_type_tag",
    "type_tag_bytes",
    "uleb128_prefix",
]

# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)


# The old names of the prefixes, which are domain separators, not salts.
def _renamed(new: str) -> tuple[str, Callable[[], Any]]:
    return new, lambda: globals()[new]


__getattr__ = _moved_names(
    __name__,
    {
        old: _renamed(new)
        for old, new in {
            "RAW_TRANSACTION_SALT": "RAW_TRANSACTION_PREFIX",
            "RAW_TRANSACTION_WITH_DATA_SALT": "RAW_TRANSACTION_WITH_DATA_PREFIX",
            "TRANSACTION_SALT": "TRANSACTION_PREFIX",
        }.items()
    },
)
