"""Keys, accounts and transaction building, signing and submission.

The key classes and :class:`~ledgerkit.Account` live in :mod:`ledgerkit.keys`; they are
named here too.
"""

from __future__ import annotations

from ledgerkit.keys import (
    Account,
    Ed25519PrivateKey,
    Ed25519PublicKey,
    Secp256k1PrivateKey,
    Secp256k1PublicKey,
)

__all__ = [
    "Account",
    "Ed25519PrivateKey",
    "Ed25519PublicKey",
    "Secp256k1PrivateKey",
    "Secp256k1PublicKey",
]
