"""The toolkit's public names: a contract, like the front door's."""

from __future__ import annotations

import ledgerkit.tx

EXPECTED: list[str] = [
    "NO_FEE_PAYER",
    "AbiLayouts",
    "Ed25519PrivateKey",
    "Ed25519PublicKey",
    "Secp256k1PrivateKey",
    "Secp256k1PublicKey",
    "SignerParts",
    "SigningKey",
    "UnsignedTransaction",
    "as_signer",
    "encode_call",
    "from_json_form",
    "is_builtin_struct",
    "parameter_types",
    "sender_authenticator",
    "sign_transaction",
    "simulation_authenticator",
    "to_json_form",
    "type_arguments_of",
    "value_repr",
]


def test_public_names_of_the_toolkit() -> None:
    assert ledgerkit.tx.__all__ == EXPECTED
    assert ledgerkit.tx.sign_transaction.__module__ == "ledgerkit.tx"
    assert ledgerkit.tx.AbiLayouts.__module__ == "ledgerkit.tx"
