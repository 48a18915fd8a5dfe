"""The toolkit's public names: a contract, like the front door's."""

from __future__ import annotations

import pytest

import ledgerkit
import ledgerkit.tx

EXPECTED: list[str] = [
    "BALANCE_CHANGE_COLUMNS",
    "EXPLANATION_COLUMNS",
    "FRAMEWORK_ERRORS",
    "NO_FEE_PAYER",
    "Account",
    "Ed25519PrivateKey",
    "Ed25519PublicKey",
    "EncodedSubmission",
    "ExplainedField",
    "MoveAbort",
    "Secp256k1PrivateKey",
    "Secp256k1PublicKey",
    "SignerParts",
    "SigningKey",
    "Simulation",
    "TransactionExplanation",
    "UnsignedTransaction",
    "as_signer",
    "encode_call",
    "entry_function_of",
    "explain_transaction",
    "from_json_form",
    "is_builtin_struct",
    "parameter_types",
    "parse_abort",
    "sender_authenticator",
    "sign_transaction",
    "signed_with_zeros",
    "submission_request",
    "to_json_form",
    "type_arguments_of",
    "value_repr",
    "zero_authenticator",
]


def test_public_names_of_the_toolkit() -> None:
    assert ledgerkit.tx.__all__ == EXPECTED
    assert ledgerkit.tx.sign_transaction.__module__ == "ledgerkit.tx"


def test_the_balance_readers_are_still_named_here_from_their_home() -> None:
    import ledgerkit.models

    for name in ("balance_deltas", "primary_store_address", "stores_to_look_up"):
        assert getattr(ledgerkit.tx, name) is getattr(ledgerkit.models, name)
        assert getattr(ledgerkit.tx, name).__module__ == "ledgerkit.models"


def test_the_abi_holders_of_old_are_deprecated_names_of_the_one_cache() -> None:
    with pytest.warns(
        DeprecationWarning, match=r"tx\.AbiLayouts is deprecated; use ledgerkit\.AbiCache"
    ):
        old_layouts = ledgerkit.tx.AbiLayouts
    with pytest.warns(
        DeprecationWarning, match=r"tx\.ModuleAbis is deprecated; use ledgerkit\.AbiCache"
    ):
        old_abis = ledgerkit.tx.ModuleAbis
    assert old_layouts.__module__ == old_abis.__module__ == "ledgerkit.tx"
    assert issubclass(old_layouts, ledgerkit.AbiCache)
    assert issubclass(old_abis, ledgerkit.AbiCache)
