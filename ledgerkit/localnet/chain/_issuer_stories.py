"""The day's fungible asset issuers (:mod:`._issuers`), as stories of
:mod:`._day_stories`: each issuer publishes its module early in the day, mints to a few
users, who pass some on with ``0x1::primary_fungible_store::transfer`` (type argument
``0x1::fungible_asset::Metadata``, the metadata object as first argument, as wallets
send them); the issuer moves a little with its transfer ref and burns some. The plan
(workload accounts by index, amounts in the asset's units):

* **Ledger USD** (LUSD, 6 decimals, account 14): mints 5,000 to 110, 2,500 to 111, 1,000
  to 112 and 750 to 113; 110 sends 250.5 to 114, 111 sends 100 to 110, 112 sends 40.25 to
  115 and 110 sends 1,000 to 116; the issuer freezes 115, moves 10 from 113 to 115 anyway
  (its transfer ref), unfreezes 115; 114 sends 50 to 117, 113 sends 300 to 111; the
  issuer burns 200 of 116's.
* **Tidepool Gems** (GEM, 0 decimals, account 15): mints 500 to 120, 300 to 121, 120 to
  122 and 50 to 110; 120 sends 25 to 121, 121 sends 40 to 123, 122 sends 7 to 124, 120
  sends 60 to 125, 123 sends 5 to 120; the issuer burns 2 of 124's.
* **Orbit Points** (ORBIT, 2 decimals, account 16): mints 10,000 to 130, 2,500.5 to 131
  and 1,200 to 111; 130 sends 1,500.25 to 132, 131 sends 500 to 133, 111 sends 200 to 130,
  132 sends 100 to 134; the issuer burns 99.99 of 133's.
* **Quartz** (QRTZ, 8 decimals, account 17): mints 12.5 to 140 and 3 to 141; 140 sends
  1.25 to 142, 141 sends 0.5 to 143, 142 sends 0.25 to 140; the issuer burns 0.125 of
  141's.

A step whose premise is not on chain (the module to call, the balance to send) is
skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple

import orjson

from ledgerkit.bcs import EntryFunction, SignedTransaction, TransactionPayload
from ledgerkit.localnet.chain._issuers import ISSUERS, issuer_package
from ledgerkit.localnet.chain._workload import Workload
from ledgerkit.localnet.vm.framework import (
    FRAMEWORK,
    module_key,
    primary_store_address,
    resource_key,
)
from ledgerkit.types import Address

__all__ = ["ISSUER_STORIES", "IssuerSteps", "StoryCall"]

_META: Final = "0x1::fungible_asset::Metadata"
_STORE: Final = "0x1::fungible_asset::FungibleStore"

#: A step: its fraction of the day, its action, the action's parameters.
_Step = tuple[float, str, tuple[Any, ...]]


class StoryCall(NamedTuple):
    """A step's transaction: its sender, payload, what to remember once it is signed, and
    the account paying its gas when not the sender."""

    sender: int
    payload: TransactionPayload
    remember: Callable[[SignedTransaction], None] | None = None
    fee_payer: int | None = None


def _story(module: str, start: float, moves: tuple[tuple[str, tuple[Any, ...]], ...]) -> Any:
    """``module``'s publish at ``start``, then its moves spread evenly up to 0.9 of the day."""
    steps: list[_Step] = [(start, "fa_publish", (module,))]
    gap = (0.9 - start - 0.02) / len(moves)
    steps += [(start + 0.02 + gap * k, a, (module, *p)) for k, (a, p) in enumerate(moves)]
    return tuple(steps)


ISSUER_STORIES: Final[tuple[tuple[_Step, ...], ...]] = (
    _story(
        "ledger_usd",
        0.01,
        (
            ("fa_mint", (110, "5000")),
            ("fa_mint", (111, "2500")),
            ("fa_mint", (112, "1000")),
            ("fa_mint", (113, "750")),
            ("fa_transfer", (110, 114, "250.5")),
            ("fa_transfer", (111, 110, "100")),
            ("fa_transfer", (112, 115, "40.25")),
            ("fa_transfer", (110, 116, "1000")),
            ("fa_freeze", (115, True)),
            ("fa_force", (113, 115, "10")),
            ("fa_freeze", (115, False)),
            ("fa_transfer", (114, 117, "50")),
            ("fa_transfer", (113, 111, "300")),
            ("fa_burn", (116, "200")),
        ),
    ),
    _story(
        "tidepool_gems",
        0.015,
        (
            ("fa_mint", (120, "500")),
            ("fa_mint", (121, "300")),
            ("fa_mint", (122, "120")),
            ("fa_mint", (110, "50")),
            ("fa_transfer", (120, 121, "25")),
            ("fa_transfer", (121, 123, "40")),
            ("fa_transfer", (122, 124, "7")),
            ("fa_transfer", (120, 125, "60")),
            ("fa_transfer", (123, 120, "5")),
            ("fa_burn", (124, "2")),
        ),
    ),
    _story(
        "orbit_points",
        0.02,
        (
            ("fa_mint", (130, "10000")),
            ("fa_mint", (131, "2500.5")),
            ("fa_mint", (111, "1200")),
            ("fa_transfer", (130, 132, "1500.25")),
            ("fa_transfer", (131, 133, "500")),
            ("fa_transfer", (111, 130, "200")),
            ("fa_transfer", (132, 134, "100")),
            ("fa_burn", (133, "99.99")),
        ),
    ),
    _story(
        "quartz",
        0.025,
        (
            ("fa_mint", (140, "12.5")),
            ("fa_mint", (141, "3")),
            ("fa_transfer", (140, 142, "1.25")),
            ("fa_transfer", (141, 143, "0.5")),
            ("fa_transfer", (142, 140, "0.25")),
            ("fa_burn", (141, "0.125")),
        ),
    ),
)


def _call(function: str, args: list[tuple[str, Any]], type_args: tuple[str, ...] = ()) -> Any:
    return EntryFunction.build(function, type_args, args, codec=FRAMEWORK.codec)


class IssuerSteps:
    """The issuers' steps, for :class:`~._day_stories.DayStories`."""

    workload: Workload

    def _issuer(self, module: str) -> tuple[int, Address]:
        index = ISSUERS[module].account
        return index, self.workload.address(index)

    def _published(self, module: str) -> Address | None:
        """The issuer's address once its module is on chain."""
        address = self._issuer(module)[1]
        found = self.workload.store.reads.state(module_key(address, module))
        return None if found is None else address

    def _fa_balance(self, module: str, owner: int) -> int:
        """``owner``'s balance of ``module``'s asset (its primary store's)."""
        metadata = ISSUERS[module].metadata(self._issuer(module)[1])
        owner_address = self.workload.address(owner)
        store = primary_store_address(owner_address, metadata)
        found = self.workload.store.reads.state(resource_key(store, _STORE))
        return 0 if found is None else int(orjson.loads(found[0])["data"]["balance"])

    def _fa_publish(self, module: str) -> StoryCall | None:
        index, address = self._issuer(module)
        if self._published(module) is not None:
            return None
        metadata, code = issuer_package(module, address)
        args = [("vector<u8>", metadata), ("vector<vector<u8>>", [code])]
        return StoryCall(index, _call("0x1::code::publish_package_txn", args))

    def _fa_admin(
        self, module: str, function: str, args: list[tuple[str, Any]]
    ) -> StoryCall | None:
        address = self._published(module)
        if address is None:
            return None
        index = ISSUERS[module].account
        payload = EntryFunction.build(f"{address.standard}::{module}::{function}", (), args)
        return StoryCall(index, payload)

    def _fa_mint(self, module: str, to: int, amount: str) -> StoryCall | None:
        units = ISSUERS[module].units(amount)
        args = [("address", self.workload.address(to)), ("u64", units)]
        return self._fa_admin(module, "mint", args)

    def _fa_transfer(self, module: str, sender: int, to: int, amount: str) -> StoryCall | None:
        units = ISSUERS[module].units(amount)
        address = self._published(module)
        if address is None or self._fa_balance(module, sender) < units:
            return None
        metadata = {"inner": ISSUERS[module].metadata(address).standard}
        args = [
            (f"0x1::object::Object<{_META}>", metadata),
            ("address", self.workload.address(to)),
            ("u64", units),
        ]
        function = "0x1::primary_fungible_store::transfer"
        return StoryCall(sender, _call(function, args, (_META,)))

    def _fa_force(self, module: str, holder: int, to: int, amount: str) -> StoryCall | None:
        units = ISSUERS[module].units(amount)
        if self._fa_balance(module, holder) < units:
            return None
        w = self.workload
        args = [("address", w.address(holder)), ("address", w.address(to)), ("u64", units)]
        return self._fa_admin(module, "transfer", args)

    def _fa_burn(self, module: str, holder: int, amount: str) -> StoryCall | None:
        units = ISSUERS[module].units(amount)
        if self._fa_balance(module, holder) < units:
            return None
        args = [("address", self.workload.address(holder)), ("u64", units)]
        return self._fa_admin(module, "burn", args)

    def _fa_freeze(self, module: str, account: int, frozen: bool) -> StoryCall | None:
        function = "freeze_account" if frozen else "unfreeze_account"
        return self._fa_admin(module, function, [("address", self.workload.address(account))])
