"""The toolkit's public names: a contract, like the front door's."""

from __future__ import annotations

import ledgerkit.tx

EXPECTED: list[str] = [
    "BALANCE_CHANGE_COLUMNS",
    "EXPLANATION_COLUMNS",
    "FRAMEWORK_ERRORS",
    "NO_FEE_PAYER",
    "AbiLayouts",
    "Account",
    "Ed25519PrivateKey",
    "Ed25519PublicKey",
    "EncodedSubmission",
    "ExplainedField",
    "ModuleAbis",
    "MoveAbort",
    "Secp256k1PrivateKey",
    "Secp256k1PublicKey",
    "SignerParts",
    "SigningKey",
    "Simulation",
    "TransactionExplanation",
    "UnsignedTransaction",
    "as_signer",
    "balance_deltas",
    "encode_call",
    "entry_function_of",
    "explain_transaction",
    "from_json_form",
    "is_builtin_struct",
    "parameter_types",
    "parse_abort",
    "primary_store_address",
    "sender_authenticator",
    "sign_transaction",
    "signed_with_zeros",
    "stores_to_look_up",
    "submission_request",
    "to_json_form",
    "type_arguments_of",
    "value_repr",
    "zero_authenticator",
]


def test_public_names_of_the_toolkit() -> None:
    assert ledgerkit.tx.__all__ == EXPECTED
    assert ledgerkit.tx.sign_transaction.__module__ == "ledgerkit.tx"
    assert ledgerkit.tx.AbiLayouts.__module__ == "ledgerkit.tx"
