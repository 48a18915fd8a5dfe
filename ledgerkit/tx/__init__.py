"""Keys, accounts and transaction building, signing, simulation and submission.

The key classes live in :mod:`ledgerkit.keys`; they are named here too. Simulation is
read here without I/O: :class:`Simulation` (what ``client.simulate`` returns) with its
decoded :class:`MoveAbort` and balance changes, and :func:`signed_with_zeros`, the
transaction a node simulates.
"""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.keys import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
    Secp256k1PrivateKey,
    Secp256k1PublicKey,
)
from ledgerkit.tx._abort_codes import FRAMEWORK_ERRORS
from ledgerkit.tx._aborts import MoveAbort, parse_abort
from ledgerkit.tx._balances import balance_deltas, primary_store_address, stores_to_look_up
from ledgerkit.tx._simulation import BALANCE_CHANGE_COLUMNS, Simulation
from ledgerkit.tx._zero_signatures import signed_with_zeros, zero_authenticator

__all__ = [
    "BALANCE_CHANGE_COLUMNS",
    "FRAMEWORK_ERRORS",
    "Ed25519PrivateKey",
    "Ed25519PublicKey",
    "MoveAbort",
    "Secp256k1PrivateKey",
    "Secp256k1PublicKey",
    "Simulation",
    "balance_deltas",
    "parse_abort",
    "primary_store_address",
    "signed_with_zeros",
    "stores_to_look_up",
    "zero_authenticator",
]

_publish(
    globals(),
    [
        "MoveAbort",
        "Simulation",
        "balance_deltas",
        "parse_abort",
        "primary_store_address",
        "signed_with_zeros",
        "stores_to_look_up",
        "zero_authenticator",
    ],
    "ledgerkit.tx",
)
