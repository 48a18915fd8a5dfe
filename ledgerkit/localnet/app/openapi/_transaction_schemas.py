"""Transactions in the node's OpenAPI document: blocks, every kind of transaction, and
the requests and answers of submission and encoding."""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.app.openapi._notation import Schema, _records, _unions

_COMMITTED: Final = (
    "version:U64 hash:HashValue state_change_hash:HashValue event_root_hash:HashValue "
    "gas_used:U64 success:bool vm_status:str accumulator_root_hash:HashValue "
    "changes:[WriteSetChange] "
)
_CHECKPOINT: Final = "state_checkpoint_hash:HashValue "
_USER: Final = (
    "sender:Address sequence_number:U64 max_gas_amount:U64 gas_unit_price:U64 "
    "expiration_timestamp_secs:U64 payload:TransactionPayload "
)
_USER_REQUEST: Final = _USER.replace("payload:TransactionPayload", "payload:EntryFunctionRequest")
_USER_EXTRA: Final = "signature:TransactionSignature replay_protection_nonce:U64"

# name: (description, required fields, optional fields[, fields absent but never null])
_RECORDS: Final[dict[str, tuple[str, ...]]] = {
    "Block": (
        "A block; `transactions` only when asked for, and at most one page of them.",
        "block_height:U64 block_hash:HashValue block_timestamp:U64 first_version:U64 "
        "last_version:U64",
        "transactions:[Transaction]",
    ),
    "AuxiliaryInfo": (
        "Extra facts about one transaction; without an index none are known.",
        "",
        "transaction_index:u32",
    ),
    "TransactionSummary": (
        "A transaction an account sent: its version, hash and what kept it unique.",
        "sender:Address version:U64 transaction_hash:HashValue replay_protector:ReplayProtector",
    ),
    "ReplayProtector": (
        "The sequence number of a transaction, or the nonce of an orderless one, by `type`; "
        "this node always sends the number as `value`.",
        "type:sequence_number|nonce",
        "value:U64",
    ),
    "PendingTransaction": (
        "A transaction accepted into the mempool and not yet committed.",
        "hash:HashValue " + _USER,
        _USER_EXTRA,
    ),
    "UserTransaction": (
        "A committed or simulated user transaction.",
        _COMMITTED + _USER + "events:[Event] timestamp:U64",
        _CHECKPOINT + _USER_EXTRA,
    ),
    "GenesisTransaction": (
        "The first transaction: it writes the initial state.",
        _COMMITTED + "payload:GenesisPayload events:[Event]",
        _CHECKPOINT,
    ),
    "BlockMetadataTransaction": (
        "Opens a block: its proposer, round, time and the votes it carries.",
        _COMMITTED + "id:HashValue epoch:U64 round:U64 events:[Event] "
        "previous_block_votes_bitvec:[u8] proposer:Address failed_proposer_indices:[u32] "
        "timestamp:U64",
        _CHECKPOINT + "block_metadata_extension:BlockMetadataExtension",
    ),
    "BlockMetadataExtension": (
        "Per-block extras: `v0` none, `v1` randomness, `v2` and `v3` decryption too.",
        "type:v0|v1|v2|v3",
        "randomness:HexBytes decryption_key:HexBytes decryption_round:U64",
    ),
    "StateCheckpointTransaction": (
        "Marks a state checkpoint.",
        _COMMITTED + "timestamp:U64",
        _CHECKPOINT,
    ),
    "BlockEpilogueTransaction": (
        "Closes a block.",
        _COMMITTED + "timestamp:U64",
        _CHECKPOINT + "block_end_info:BlockEndInfo",
    ),
    "BlockEndInfo": (
        "Which limits the block reached.",
        "block_gas_limit_reached:bool block_output_limit_reached:bool "
        "block_effective_block_gas_units:u64 block_approx_output_size:u64",
    ),
    "ValidatorTransaction": (
        "Written by validators; `validator_transaction_type` says which kind.",
        _COMMITTED + "events:[Event] timestamp:U64 "
        "validator_transaction_type:observed_jwk_update|dkg_result|chunky_d_k_g_result",
        _CHECKPOINT + "quorum_certified_update:obj dkg_transcript:obj certified_subtrx:obj "
        "encryption_key:HexBytes",
    ),
    "SubmitTransactionRequest": (
        "A signed transaction as JSON. To simulate, the signature must not verify: send the "
        "real public key and an all-zero signature. This node runs entry functions only. "
        "With `replay_protection_nonce` the transaction is orderless: its sequence number "
        "(by convention 18446744073709551615) is not read, it runs once, and it must expire "
        "within 100 s of the ledger's time.",
        _USER_REQUEST + "signature:TransactionSignature",
        "replay_protection_nonce:U64",
    ),
    "TransactionsBatchSubmissionResult": (
        "The transactions of a batch the node refused; empty when it accepted them all.",
        "transaction_failures:[TransactionsBatchSingleSubmissionFailure]",
    ),
    "TransactionsBatchSingleSubmissionFailure": (
        "A refused transaction of a batch: its error record and its position in the batch.",
        "error:Error transaction_index:u64",
    ),
    "EncodeSubmissionRequest": (
        "An unsigned transaction to turn into its signing message: an entry function, a "
        "script or a multisig payload; with `secondary_signers`, the multi-agent message "
        "all signers sign (there is no fee-payer form); with `replay_protection_nonce`, an "
        "orderless transaction's.",
        _USER_REQUEST.replace("payload:EntryFunctionRequest", "payload:EncodeSubmissionPayload"),
        "secondary_signers:[Address] replay_protection_nonce:U64",
    ),
}

# union: (description, "tag:Variant ...")
_UNIONS: Final[dict[str, tuple[str, str]]] = {
    "Transaction": (
        "A transaction, tagged by `type`.",
        "pending_transaction:PendingTransaction user_transaction:UserTransaction "
        "genesis_transaction:GenesisTransaction "
        "block_metadata_transaction:BlockMetadataTransaction "
        "state_checkpoint_transaction:StateCheckpointTransaction "
        "block_epilogue_transaction:BlockEpilogueTransaction "
        "validator_transaction:ValidatorTransaction",
    ),
}


def _transaction_schemas() -> dict[str, Schema]:
    """Blocks, transactions and what submitting them sends and answers."""
    return _records(_RECORDS) | _unions(_UNIONS)
