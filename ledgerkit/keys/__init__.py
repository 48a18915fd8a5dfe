"""Keys and signing: Ed25519 and secp256k1 ECDSA private and public keys, their AIP-80
text form, the account addresses derived from them, and accounts that sign with them.

On the ground floor beside :mod:`ledgerkit.bcs` and :mod:`ledgerkit.types`: it imports
nothing above them, so the embedded node and the transaction toolkit can both build on it.
"""

from __future__ import annotations

from ledgerkit.keys._account import Account
from ledgerkit.keys._keys import (
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
