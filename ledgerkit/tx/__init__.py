"""Keys, accounts and transaction building, signing and submission."""

from __future__ import annotations

from ledgerkit.tx._keys import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
    Secp256k1PrivateKey,
    Secp256k1PublicKey,
)

__all__ = ["Ed25519PrivateKey", "Ed25519PublicKey", "Secp256k1PrivateKey", "Secp256k1PublicKey"]
