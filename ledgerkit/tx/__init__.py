"""Keys, accounts and transaction building, signing and submission.

The key classes live in :mod:`ledgerkit.keys`; they are named here too.
"""

from __future__ import annotations

from ledgerkit.keys import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
    Secp256k1PrivateKey,
    Secp256k1PublicKey,
)

__all__ = ["Ed25519PrivateKey", "Ed25519PublicKey", "Secp256k1PrivateKey", "Secp256k1PublicKey"]
