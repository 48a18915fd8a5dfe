"""``ledgerkit.tx`` still names the key classes that live on the ground floor."""

from __future__ import annotations

import ledgerkit
import ledgerkit.keys
import ledgerkit.tx


def test_tx_and_the_front_door_name_the_same_key_classes() -> None:
    names = ["Ed25519PrivateKey", "Ed25519PublicKey", "Secp256k1PrivateKey", "Secp256k1PublicKey"]
    assert sorted(ledgerkit.keys.__all__) == names
    assert sorted(n for n in ledgerkit.tx.__all__ if "Key" in n) == names
    for name in names:
        assert getattr(ledgerkit.tx, name) is getattr(ledgerkit.keys, name)
        assert getattr(ledgerkit, name) is getattr(ledgerkit.keys, name)
