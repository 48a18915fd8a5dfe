"""Keys, accounts and transaction building, signing and submission; transactions
explained field by field with their arguments typed by ABI.

The key classes live in :mod:`ledgerkit.keys`; they are named here too.
"""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.keys import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
    Secp256k1PrivateKey,
    Secp256k1PublicKey,
)
from ledgerkit.tx._explain import (
    EXPLANATION_COLUMNS,
    ExplainedField,
    ModuleAbis,
    TransactionExplanation,
    entry_function_of,
    explain_transaction,
)

__all__ = [
    "EXPLANATION_COLUMNS",
    "Ed25519PrivateKey",
    "Ed25519PublicKey",
    "ExplainedField",
    "ModuleAbis",
    "Secp256k1PrivateKey",
    "Secp256k1PublicKey",
    "TransactionExplanation",
    "entry_function_of",
    "explain_transaction",
]

# Public names report where users import them from (see ledgerkit._public).
# The key classes report ledgerkit.keys' choice; the rest are tx's own.
_publish(
    globals(),
    [
        "ExplainedField",
        "ModuleAbis",
        "TransactionExplanation",
        "entry_function_of",
        "explain_transaction",
    ],
    __name__,
)
