"""Accounts the embedded node derives from its seed: dev accounts, the faucet, the workload.

Every key here is ``Ed25519PrivateKey.from_seed`` of a label that names its role, the
chain seed and an index, so the same seed always gives the same accounts and the roles
never share a key:

* **dev accounts** are handed to users, funded generously at genesis and never used by
  the chain generator, so their sequence numbers start at 0;
* the **faucet** account holds most of the supply and funds whoever asks;
* **workload** accounts are the generator's simulated users (some funded at genesis,
  more created by transfers as the chain grows); the few that rotate their account's
  key rotate to a key of their own label (``rotated``).
"""

from __future__ import annotations

from typing import Final

from ledgerkit.keys import Account, Ed25519PrivateKey
from ledgerkit.types import Address

__all__ = [
    "DEV_ACCOUNT_APT",
    "FAUCET_APT",
    "WORKLOAD_ACCOUNT_APT",
    "DevAccount",
    "dev_accounts",
    "faucet_account",
    "rotated_key",
    "validator_addresses",
    "workload_key",
]

OCTAS_PER_APT: Final = 100_000_000
#: Genesis balances, in octas.
DEV_ACCOUNT_APT: Final = 1_000_000 * OCTAS_PER_APT
FAUCET_APT: Final = 1_000_000_000 * OCTAS_PER_APT
WORKLOAD_ACCOUNT_APT: Final = 100_000 * OCTAS_PER_APT


class DevAccount(Account):
    """A funded account of the embedded node: an :class:`~ledgerkit.Account` with an
    Ed25519 key, which signs transactions and never shows its key in ``repr``. Its
    ``address`` is the SHA3-256 authentication key of the Ed25519 public key, and its
    ``private_key`` the :class:`~ledgerkit.Ed25519PrivateKey` it signs with.
    """

    __slots__ = ()


def _key(role: str, seed: int, index: int) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_seed(f"ledgerkit-localnet:{role}:{seed}:{index}")


def dev_accounts(seed: int, n: int) -> list[DevAccount]:
    """The first ``n`` dev accounts of a chain seed.

    Examples
    --------
    >>> a, b = dev_accounts(0, 2)
    >>> a == dev_accounts(0, 1)[0], a.address != b.address
    (True, True)
    """
    return [DevAccount.from_key(_key("dev", seed, i)) for i in range(n)]


def faucet_account(seed: int) -> DevAccount:
    """The account the faucet pays from."""
    return DevAccount.from_key(_key("faucet", seed, 0))


def workload_key(seed: int, index: int) -> Ed25519PrivateKey:
    """The key of the ``index``-th simulated user of the chain generator."""
    return _key("workload", seed, index)


def rotated_key(seed: int, index: int) -> Ed25519PrivateKey:
    """The key the ``index``-th simulated user rotates its account to (if it ever does)."""
    return _key("rotated", seed, index)


def validator_addresses(seed: int, n: int = 4) -> list[Address]:
    """The validator set that proposes blocks (addresses only: nothing signs as them)."""
    return [_key("validator", seed, i).address() for i in range(n)]
