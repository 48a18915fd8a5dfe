"""Hand-built response bodies in the public node family's shapes (the reference OpenAPI
schemas of ``shared/reference/aptos-openapi-spec.yaml`` and the facts' sections 1-12).

Each sample is plain JSON as a node sends it (U64 as decimal strings, u8 and gas as
numbers) and names the reference schema it follows, or None where the reference cannot
describe the real output (``single_sender``, whose tag the node writes over the inner
one; ``abstraction_signature``, the Aug-2025 name).
"""

from __future__ import annotations

import copy
from typing import Any, Final

JSON = dict[str, Any]

ADDR_A: Final = "0x" + "a1" * 32
ADDR_B: Final = "0x" + "b2" * 32
ADDR_C: Final = "0x" + "c3" * 32
HASH_1: Final = "0x" + "11" * 32
HASH_2: Final = "0x" + "22" * 32
HASH_3: Final = "0x" + "33" * 32
ED_KEY: Final = "0x" + "ed" * 32
ED_SIG: Final = "0x" + "5e" * 64
SECP_KEY: Final = "0x04" + "ab" * 64  # uncompressed secp256k1, 65 bytes
SECP_SIG: Final = "0x" + "cd" * 64
U128_MAX: Final = str(2**128 - 1)


def _hex(byte: str, n: int) -> str:
    return "0x" + byte * n


# -- signatures --------------------------------------------------------------------------------

ED25519: Final[JSON] = {"type": "ed25519_signature", "public_key": ED_KEY, "signature": ED_SIG}
MULTI_ED25519: Final[JSON] = {
    "type": "multi_ed25519_signature",
    "public_keys": [ED_KEY, _hex("ee", 32), _hex("ef", 32)],
    "signatures": [ED_SIG, _hex("5f", 64)],
    "threshold": 2,
    "bitmap": "0xc0000000",
}
SINGLE_KEY: Final[JSON] = {
    "type": "single_key_signature",
    "public_key": {"type": "secp256k1_ecdsa", "value": SECP_KEY},
    "signature": {"type": "secp256k1_ecdsa", "value": SECP_SIG},
}
MULTI_KEY: Final[JSON] = {
    "type": "multi_key_signature",
    "public_keys": [
        {"type": "ed25519", "value": ED_KEY},
        {"type": "secp256k1_ecdsa", "value": SECP_KEY},
        {"type": "keyless", "value": _hex("4b", 70)},
    ],
    "signatures": [
        {"index": 0, "signature": {"type": "ed25519", "value": ED_SIG}},
        {"index": 1, "signature": {"type": "secp256k1_ecdsa", "value": SECP_SIG}},
    ],
    "signatures_required": 2,
}
NO_ACCOUNT: Final[JSON] = {"type": "no_account_signature"}
ABSTRACT: Final[JSON] = {
    "type": "abstract_signature",
    "function_info": "0x1::permissioned_signer::authenticate",
    "auth_data": _hex("ad", 40),
}
ABSTRACTION: Final[JSON] = {**ABSTRACT, "type": "abstraction_signature"}

#: The AccountSignature union, every member: (tag, body, reference schema or None).
ACCOUNT_SIGNATURES: Final = [
    ("ed25519_signature", ED25519, "AccountSignature"),
    ("multi_ed25519_signature", MULTI_ED25519, "AccountSignature"),
    ("single_key_signature", SINGLE_KEY, "AccountSignature"),
    ("multi_key_signature", MULTI_KEY, "AccountSignature"),
    ("no_account_signature", NO_ACCOUNT, "AccountSignature"),
    ("abstract_signature", ABSTRACT, "AccountSignature"),
    ("abstraction_signature", ABSTRACTION, None),
]


def single_sender(inner: JSON) -> JSON:
    """``inner`` flattened into ``single_sender`` the way the node writes it."""
    return {**inner, "type": "single_sender"}


MULTI_AGENT: Final[JSON] = {
    "type": "multi_agent_signature",
    "sender": ED25519,
    "secondary_signer_addresses": [ADDR_B, ADDR_C],
    "secondary_signers": [SINGLE_KEY, MULTI_KEY],
}
FEE_PAYER: Final[JSON] = {
    "type": "fee_payer_signature",
    "sender": SINGLE_KEY,
    "secondary_signer_addresses": [ADDR_B],
    "secondary_signers": [ABSTRACT],
    "fee_payer_address": ADDR_C,
    "fee_payer_signer": MULTI_ED25519,
}

#: The TransactionSignature union, every member and both ``single_sender`` shapes.
TRANSACTION_SIGNATURES: Final = [
    ("ed25519_signature", ED25519, "TransactionSignature"),
    ("multi_ed25519_signature", MULTI_ED25519, "TransactionSignature"),
    ("multi_agent_signature", MULTI_AGENT, "TransactionSignature"),
    ("fee_payer_signature", FEE_PAYER, "TransactionSignature"),
    ("single_sender/single_key", single_sender(SINGLE_KEY), None),
    ("single_sender/multi_key", single_sender(MULTI_KEY), None),
    ("single_sender/abstract", single_sender(ABSTRACT), None),
    ("no_account_signature", NO_ACCOUNT, "TransactionSignature"),
]

# -- payloads ----------------------------------------------------------------------------------

ENTRY_FUNCTION: Final[JSON] = {
    "type": "entry_function_payload",
    "function": "0x1::aptos_account::transfer_coins",
    "type_arguments": ["0x1::aptos_coin::AptosCoin"],
    "arguments": [ADDR_B, "18446744073709551615"],
}
SCRIPT_ABI: Final[JSON] = {
    "name": "main",
    "visibility": "public",
    "is_entry": True,
    "is_view": False,
    "generic_type_params": [{"constraints": ["drop"]}],
    "params": ["&signer", "u128", "vector<u8>"],
    "return": [],
}
SCRIPT: Final[JSON] = {
    "type": "script_payload",
    "code": {"bytecode": "0xa11ceb0b0700000a06010002030206", "abi": SCRIPT_ABI},
    "type_arguments": ["0x1::aptos_coin::AptosCoin"],
    "arguments": [U128_MAX, "0x0102"],
}
MODULE_BUNDLE: Final[JSON] = {"type": "module_bundle_payload"}
MULTISIG: Final[JSON] = {
    "type": "multisig_payload",
    "multisig_address": ADDR_C,
    "transaction_payload": dict(ENTRY_FUNCTION.items()),
}
MULTISIG_STORED: Final[JSON] = {"type": "multisig_payload", "multisig_address": ADDR_C}
ENCRYPTED: Final[JSON] = {
    "type": "encrypted_transaction_payload",
    "encrypted_state": "encrypted",
    "payload_hash": HASH_3,
    "ciphertext": _hex("c1", 48),
    "encryption_epoch": "12",
    "claimed_entry_fun": {"module": "0x1::aptos_account", "name": "transfer"},
}
DECRYPTED: Final[JSON] = {
    **ENCRYPTED,
    "encrypted_state": "decrypted",
    "decrypted_payload": ENTRY_FUNCTION,
    "decryption_nonce": _hex("0e", 16),
}

#: The user payload union, every member.
PAYLOADS: Final = [
    ("entry_function_payload", ENTRY_FUNCTION, "TransactionPayload"),
    ("script_payload", SCRIPT, "TransactionPayload"),
    ("module_bundle_payload", MODULE_BUNDLE, "TransactionPayload"),
    ("multisig_payload", MULTISIG, "TransactionPayload"),
    ("multisig_payload/stored", MULTISIG_STORED, "TransactionPayload"),
    ("encrypted_transaction_payload", ENCRYPTED, "TransactionPayload"),
    ("encrypted_transaction_payload/decrypted", DECRYPTED, "TransactionPayload"),
]

# -- events, resources, modules ----------------------------------------------------------------

COIN_STORE: Final[JSON] = {
    "type": "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
    "data": {
        "coin": {"value": "18446744073709551615"},
        "deposit_events": {
            "counter": "3",
            "guid": {"id": {"addr": ADDR_A, "creation_num": "2"}},
        },
        "frozen": False,
        "withdraw_events": {
            "counter": "0",
            "guid": {"id": {"addr": ADDR_A, "creation_num": "3"}},
        },
    },
}
SUPPLY: Final[JSON] = {
    "type": "0x1::fungible_asset::ConcurrentSupply",
    "data": {
        "current": {"max_value": U128_MAX, "value": "340282366920938463463374607431768211454"}
    },
}
DEPOSIT_EVENT: Final[JSON] = {
    "guid": {"creation_number": "2", "account_address": ADDR_A},
    "sequence_number": "3",
    "type": "0x1::coin::DepositEvent",
    "data": {"amount": "100000000"},
}
MODULE_EVENT: Final[JSON] = {
    "guid": {"creation_number": "0", "account_address": "0x0"},
    "sequence_number": "0",
    "type": "0x1::fungible_asset::Deposit",
    "data": {"store": ADDR_B, "amount": "18446744073709551615"},
}
VERSIONED_EVENT: Final[JSON] = {**DEPOSIT_EVENT, "version": "9007199254740993"}

MODULE_ABI: Final[JSON] = {
    "address": "0x1",
    "name": "option_like",
    "friends": ["0x1::coin"],
    "exposed_functions": [
        {
            "name": "borrow_mut",
            "visibility": "friend",
            "is_entry": False,
            "is_view": False,
            "generic_type_params": [{"constraints": []}],
            "params": ["&mut 0x1::option_like::Holder<T0>"],
            "return": ["&mut T0"],
        },
        {
            "name": "is_some",
            "visibility": "public",
            "is_entry": False,
            "is_view": True,
            "generic_type_params": [{"constraints": ["copy", "drop"]}],
            "params": ["address"],
            "return": ["bool"],
        },
    ],
    "structs": [
        {
            "name": "Holder",
            "is_native": False,
            "is_event": False,
            "is_enum": False,
            "abilities": ["store", "key"],
            "generic_type_params": [{"constraints": ["store"]}],
            "fields": [{"name": "value", "type": "0x1::option::Option<T0>"}],
            "variants": [],
        },
        {
            "name": "Choice",
            "is_native": False,
            "is_event": True,
            "is_enum": True,
            "abilities": ["copy", "drop", "store"],
            "generic_type_params": [],
            "fields": [],
            "variants": [
                {"name": "Left", "fields": [{"name": "l", "type": "u64"}]},
                {"name": "Right", "fields": []},
            ],
        },
    ],
}
MODULE: Final[JSON] = {"bytecode": "0xa11ceb0b0700000a0c01000202020403", "abi": MODULE_ABI}
#: An older node: no ``is_view`` / ``is_event`` / ``is_enum`` / ``variants``, ``is_phantom`` set.
OLD_MODULE: Final[JSON] = {
    "bytecode": "0xa11ceb0b050000000601000202020a",
    "abi": {
        "address": "0x1",
        "name": "old",
        "friends": [],
        "exposed_functions": [
            {
                "name": "f",
                "visibility": "public",
                "is_entry": True,
                "generic_type_params": [],
                "params": ["&signer"],
                "return": [],
            }
        ],
        "structs": [
            {
                "name": "S",
                "is_native": False,
                "abilities": ["key"],
                "generic_type_params": [{"constraints": [], "is_phantom": True}],
                "fields": [{"name": "x", "type": "u8"}],
            }
        ],
    },
}

# -- changes -----------------------------------------------------------------------------------

CHANGES: Final = [
    (
        "write_resource",
        {"type": "write_resource", "address": ADDR_A, "state_key_hash": HASH_1, "data": COIN_STORE},
        "WriteSetChange",
    ),
    (
        "delete_resource",
        {
            "type": "delete_resource",
            "address": ADDR_A,
            "state_key_hash": HASH_1,
            "resource": "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
        },
        "WriteSetChange",
    ),
    (
        "write_module",
        {"type": "write_module", "address": "0x1", "state_key_hash": HASH_2, "data": MODULE},
        "WriteSetChange",
    ),
    (
        "delete_module",
        {
            "type": "delete_module",
            "address": "0x1",
            "state_key_hash": HASH_2,
            "module": "0x1::option_like",
        },
        "WriteSetChange",
    ),
    (
        "write_table_item",
        {
            "type": "write_table_item",
            "state_key_hash": HASH_3,
            "handle": _hex("7a", 32),
            "key": "0x0000000000000000000000000000000000000000000000000000000000000001",
            "value": "0xffffffffffffffffffffffffffffffff",
            "data": {"key": "0x1", "key_type": "address", "value": U128_MAX, "value_type": "u128"},
        },
        "WriteSetChange",
    ),
    (
        "write_table_item/undecoded",
        {
            "type": "write_table_item",
            "state_key_hash": HASH_3,
            "handle": _hex("7a", 32),
            "key": "0x01",
            "value": "0x02",
        },
        "WriteSetChange",
    ),
    (
        "delete_table_item",
        {
            "type": "delete_table_item",
            "state_key_hash": HASH_3,
            "handle": _hex("7a", 32),
            "key": "0x01",
            "data": {"key": 1, "key_type": "u8"},
        },
        "WriteSetChange",
    ),
]

# -- transactions ------------------------------------------------------------------------------


def committed(version: str, **fields: Any) -> JSON:
    """The fields every committed transaction has, then ``fields``."""
    return {
        "version": version,
        "hash": HASH_1,
        "state_change_hash": HASH_2,
        "event_root_hash": HASH_3,
        "gas_used": "0",
        "success": True,
        "vm_status": "Executed successfully",
        "accumulator_root_hash": HASH_2,
        "changes": [],
        **fields,
    }


def user_transaction(
    *, payload: JSON | None = None, signature: JSON | None = None, **fields: Any
) -> JSON:
    """A committed user transaction with every kind of change and two kinds of event."""
    body = committed(
        "9007199254740993",
        gas_used="1203",
        changes=[copy.deepcopy(change) for _, change, _ in CHANGES],
        sender=ADDR_A,
        sequence_number="18446744073709551615",
        max_gas_amount="200000",
        gas_unit_price="100",
        expiration_timestamp_secs="1735689600",
        payload=copy.deepcopy(payload or ENTRY_FUNCTION),
        signature=copy.deepcopy(signature or ED25519),
        events=[DEPOSIT_EVENT, MODULE_EVENT],
        timestamp="1735689000123456",
    )
    body["type"] = "user_transaction"
    body.update(fields)
    return body


PENDING: Final[JSON] = {
    "type": "pending_transaction",
    "hash": HASH_3,
    "sender": ADDR_A,
    "sequence_number": "18446744073709551615",
    "max_gas_amount": "200000",
    "gas_unit_price": "100",
    "expiration_timestamp_secs": "1735689600",
    "payload": ENTRY_FUNCTION,
    "signature": single_sender(SINGLE_KEY),
    "replay_protection_nonce": "4242",
    "txn_limits_request": {
        "type": "stake_pool_owner",
        "multipliers": {"execution_multiplier_percent": "200", "io_multiplier_percent": "150"},
    },
}
GENESIS: Final[JSON] = {
    **committed("0", state_checkpoint_hash=HASH_1, changes=[CHANGES[0][1], CHANGES[2][1]]),
    "type": "genesis_transaction",
    "payload": {
        "type": "write_set_payload",
        "write_set": {
            "type": "direct_write_set",
            "changes": [CHANGES[0][1], CHANGES[2][1]],
            "events": [DEPOSIT_EVENT],
        },
    },
    "events": [DEPOSIT_EVENT],
}
GENESIS_SCRIPT: Final[JSON] = {
    **GENESIS,
    "payload": {
        "type": "write_set_payload",
        "write_set": {
            "type": "script_write_set",
            "execute_as": "0x1",
            "script": {k: v for k, v in SCRIPT.items() if k != "type"},
        },
    },
}


def block_metadata(extension: JSON | None) -> JSON:
    body = committed(
        "1",
        type="block_metadata_transaction",
        id=HASH_3,
        epoch="2",
        round="18446744073709551615",
        events=[{**DEPOSIT_EVENT, "type": "0x1::block::NewBlockEvent"}],
        previous_block_votes_bitvec=[255, 128, 0],
        proposer=ADDR_B,
        failed_proposer_indices=[0, 3],
        timestamp="1735689000000000",
    )
    if extension is not None:
        body["block_metadata_extension"] = extension
    return body


STATE_CHECKPOINT: Final[JSON] = committed(
    "3", type="state_checkpoint_transaction", state_checkpoint_hash=HASH_2, timestamp="17"
)
BLOCK_EPILOGUE: Final[JSON] = committed(
    "4",
    type="block_epilogue_transaction",
    state_checkpoint_hash=HASH_2,
    timestamp="1735689000000001",
    block_end_info={
        "block_gas_limit_reached": False,
        "block_output_limit_reached": True,
        "block_effective_block_gas_units": 500,
        "block_approx_output_size": 18446744073709551615,
    },
)
JWK_UPDATE: Final[JSON] = committed(
    "5",
    type="validator_transaction",
    validator_transaction_type="observed_jwk_update",
    events=[],
    timestamp="1735689000000002",
    quorum_certified_update={
        "update": {
            "issuer": "https://accounts.google.com",
            "version": 7,
            "jwks": [{"kid": "k1", "kty": "RSA", "alg": "RS256", "e": "AQAB", "n": "q8x"}],
        },
        "multi_sig": {"signer_indices": [0, 2], "sig": _hex("99", 96)},
    },
)
DKG_RESULT: Final[JSON] = committed(
    "6",
    type="validator_transaction",
    validator_transaction_type="dkg_result",
    events=[DEPOSIT_EVENT],
    timestamp="1735689000000003",
    dkg_transcript={"epoch": "3", "author": ADDR_B, "payload": _hex("d0", 64)},
)

#: The Transaction union, every member (and the versions of block metadata).
TRANSACTIONS: Final = [
    ("pending_transaction", PENDING, None),  # its signature is single_sender
    ("user_transaction", user_transaction(), "Transaction"),
    ("genesis_transaction", GENESIS, "Transaction"),
    ("genesis_transaction/script_write_set", GENESIS_SCRIPT, "Transaction"),
    ("block_metadata_transaction", block_metadata(None), "Transaction"),
    ("block_metadata_transaction/v0", block_metadata({"type": "v0"}), "Transaction"),
    (
        "block_metadata_transaction/v1",
        block_metadata({"type": "v1", "randomness": _hex("72", 32)}),
        "Transaction",
    ),
    ("state_checkpoint_transaction", STATE_CHECKPOINT, "Transaction"),
    ("block_epilogue_transaction", BLOCK_EPILOGUE, "Transaction"),
    ("validator_transaction/observed_jwk_update", JWK_UPDATE, "Transaction"),
    ("validator_transaction/dkg_result", DKG_RESULT, "Transaction"),
]

# -- the rest ----------------------------------------------------------------------------------

LEDGER_INFO: Final[JSON] = {
    "chain_id": 1,
    "epoch": "9512",
    "ledger_version": "2845602114",
    "oldest_ledger_version": "2700000000",
    "ledger_timestamp": "1735689000123456",
    "node_role": "full_node",
    "oldest_block_height": "350000000",
    "block_height": "364000111",
    "git_hash": "0c5e0a1f0a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d",
    "encryption_key": _hex("e7", 48),
}
GAS_ESTIMATE: Final[JSON] = {
    "deprioritized_gas_estimate": 100,
    "gas_estimate": 100,
    "prioritized_gas_estimate": 150,
}
BLOCK: Final[JSON] = {
    "block_height": "364000111",
    "block_hash": HASH_3,
    "block_timestamp": "1735689000000000",
    "first_version": "1",
    "last_version": "3",
    "transactions": [block_metadata({"type": "v0"}), user_transaction(), STATE_CHECKPOINT],
}
