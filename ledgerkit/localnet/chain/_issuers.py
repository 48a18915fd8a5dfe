"""The day chain's fungible asset issuers: who they are and the Move package each
publishes.

Each issuer publishes a module of its own (``ledger_usd``, ``tidepool_gems``...) to its
account, as the Move package tool does with ``--named-addresses issuer=<account>``: the
module's ``init_module`` makes the asset (a primary-store-enabled fungible asset at the
issuer's named object whose seed is the symbol) and keeps its mint, transfer and burn
refs there; its entry functions ``mint``, ``transfer``, ``burn``, ``freeze_account`` and
``unfreeze_account`` let the issuer (the metadata object's owner) use them.

The modules' bytecode is package data (``data/MODULE.mv``, written at ``0xcafe`` by the
test assembler's ``build_examples.py --issuers``) with its package metadata
(``data/MODULE.package.bcs``); :func:`issuer_package` places a module at its issuer's
address with :func:`~ledgerkit.localnet.vm.move.relocate_module`.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from decimal import Decimal
from importlib import resources
from typing import Final

from ledgerkit.localnet.vm.move import relocate_module
from ledgerkit.types import Address

__all__ = ["ISSUERS", "Issuer", "issuer_package"]


@dataclass(frozen=True, slots=True)
class Issuer:
    """An issuer: its workload account (by index), module and asset."""

    account: int
    module: str
    name: str
    symbol: str
    decimals: int

    def metadata(self, issuer: Address) -> Address:
        """The asset's metadata object: the named object ``SHA3-256(issuer ‖ symbol ‖
        0xFE)`` that ``init_module`` creates."""
        digest = hashlib.sha3_256(bytes(issuer) + self.symbol.encode() + b"\xfe").digest()
        return Address(digest)

    def units(self, amount: str) -> int:
        """``amount`` (decimal text: ``"250.5"``) of the asset in its smallest units."""
        return int(Decimal(amount).scaleb(self.decimals))


#: The issuers, by module name.
ISSUERS: Final = {
    i.module: i
    for i in (
        Issuer(14, "ledger_usd", "Ledger USD", "LUSD", 6),
        Issuer(15, "tidepool_gems", "Tidepool Gems", "GEM", 0),
        Issuer(16, "orbit_points", "Orbit Points", "ORBIT", 2),
        Issuer(17, "quartz", "Quartz", "QRTZ", 8),
    )
}


@functools.cache
def _data(file_name: str) -> bytes:
    return (resources.files(__package__) / "data" / file_name).read_bytes()


def issuer_package(module: str, issuer: Address) -> tuple[bytes, bytes]:
    """The package metadata (BCS) and the module's bytecode, placed at ``issuer``, that
    ``0x1::code::publish_package_txn`` takes to publish ``module``."""
    code = relocate_module(_data(f"{module}.mv"), bytes(issuer))
    return _data(f"{module}.package.bcs"), code
