"""Keys, accounts and transaction building, signing and submission, and the JSON forms
of a transaction for signers without BCS (:class:`EncodedSubmission`).

The key classes and :class:`~ledgerkit.Account` live in :mod:`ledgerkit.keys`; they are
named here too.
"""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.keys import (
    Account,
    Ed25519PrivateKey,
    Ed25519PublicKey,
    Secp256k1PrivateKey,
    Secp256k1PublicKey,
)
from ledgerkit.tx._encoded import EncodedSubmission, submission_request

__all__ = [
    "Account",
    "Ed25519PrivateKey",
    "Ed25519PublicKey",
    "EncodedSubmission",
    "Secp256k1PrivateKey",
    "Secp256k1PublicKey",
    "submission_request",
]

# The names first published here report it as their module (see ledgerkit._public).
_publish(globals(), ["EncodedSubmission", "submission_request"], __name__)
