"""``ledgerkit.tx`` names the key and account classes that live on the ground floor, and
its own JSON-submission helpers."""

from __future__ import annotations

import ledgerkit
import ledgerkit.keys
import ledgerkit.tx


def test_tx_and_the_front_door_name_the_same_key_classes() -> None:
    names = [
        "Account",
        "Ed25519PrivateKey",
        "Ed25519PublicKey",
        "Secp256k1PrivateKey",
        "Secp256k1PublicKey",
    ]
    assert sorted(ledgerkit.keys.__all__) == names
    assert set(names) <= set(ledgerkit.tx.__all__)
    for name in names:
        assert getattr(ledgerkit.tx, name) is getattr(ledgerkit.keys, name)
        assert getattr(ledgerkit, name) is getattr(ledgerkit.keys, name)
    assert ledgerkit.tx.EncodedSubmission.__module__ == "ledgerkit.tx"
