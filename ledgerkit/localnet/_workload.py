"""Simulated users: who sends what, how much, and at which gas price, block by block.

The workload accounts' keys come from the seed (:func:`~._accounts.workload_key`); the
first :data:`~._chain.GENESIS_WORKLOAD_ACCOUNTS` are funded at genesis and more are
created by transfers to the next unused key's address. Everything a block's users do is
drawn from a random generator seeded by the chain seed and the block height, so the
chain generator and the live workload of a restarted node make the same choices from the
same state.

Mix (weights out of 100): APT transfers 40, transfers that create an account 5,
``coin::transfer<AptosCoin>`` 8, LDT transfers 10, ``ledger_demo`` writes 30
(``set_score`` 12, ``set_cell`` 8, ``set_profile`` 6, ``add_score`` 4), batch transfers 2,
and 5 that fail on purpose: ``fail_if`` with a non-zero code, a profile level over the
limit, a coin transfer to an address without an account, and one that runs out of gas.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from typing import Any, Final

import orjson

from ledgerkit.bcs import EntryFunction, RawTransaction, SignedTransaction
from ledgerkit.localnet._accounts import workload_key
from ledgerkit.localnet._framework import FRAMEWORK
from ledgerkit.localnet._framework._assets import DEMO_TOKEN_METADATA
from ledgerkit.localnet._framework._context import ACCOUNT
from ledgerkit.localnet._framework._keys import resource_key
from ledgerkit.localnet._mempool import Mempool
from ledgerkit.localnet._store import Store
from ledgerkit.tx import Ed25519PrivateKey
from ledgerkit.types import Address

__all__ = ["Workload", "demand", "unit"]

#: Transactions one workload account keeps waiting at most.
MAX_WAITING: Final = 8
EXPIRATION_SECS: Final = 600
RUSH_PROBABILITY: Final = 0.001
RUSH_MAX_BLOCKS: Final = 30
OCTAS: Final = 100_000_000
_KINDS: Final = (
    ("transfer", 40),
    ("create", 5),
    ("coin_transfer", 8),
    ("ldt_transfer", 10),
    ("set_score", 12),
    ("set_cell", 8),
    ("set_profile", 6),
    ("add_score", 4),
    ("batch", 2),
    ("fail", 2),
    ("bad_profile", 1),
    ("coin_to_nobody", 1),
    ("out_of_gas", 1),
)
_NAMES: Final = tuple(name for name, _ in _KINDS)
_CUMULATIVE: Final = tuple(itertools.accumulate(weight for _, weight in _KINDS))
_PROFILE_NAMES: Final = (
    "ada", "grace", "alan", "barbara", "edsger", "donald", "frances", "john",
    "margaret", "ken", "dennis", "radia",
)  # fmt: skip
_TAGS: Final = ("move", "ledger", "rust", "python", "defi", "nft", "dao", "gaming")
_CALM_PRICES: Final = ((100, 85), (150, 10), (200, 3), (300, 2))
_RUSH_PRICES: Final = (
    (100, 20), (150, 15), (200, 15), (300, 15), (500, 12), (800, 10), (1000, 8), (1500, 5),
)  # fmt: skip


def unit(seed: int, label: str, height: int) -> float:
    """A deterministic number in [0, 1) for (seed, label, height)."""
    digest = hashlib.blake2b(f"{seed}:{label}:{height}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") / 2**64


def demand(seed: int, height: int) -> tuple[int, bool]:
    """How many transactions users send at ``height``, and whether it is a rush period.

    A rush starts at a height with probability 0.1 % and lasts 10 to 30 blocks, with
    60 to 90 transactions a block (more than a block takes); otherwise demand follows a
    wave of period 700 blocks between 1 and 4 transactions a block on average.
    """
    for start in range(height, max(0, height - RUSH_MAX_BLOCKS), -1):
        if unit(seed, "rush", start) < RUSH_PROBABILITY:
            length = 10 + int(unit(seed, "rush-length", start) * (RUSH_MAX_BLOCKS - 9))
            if start + length > height:
                return 60 + int(unit(seed, "rush-size", height) * 31), True
    wave = 2.5 + 1.5 * math.sin(2 * math.pi * height / 700)
    return int(wave * 2 * unit(seed, "calm", height) + 0.5), False


def _choose(rng: random.Random, table: tuple[tuple[int, int], ...]) -> int:
    values = [v for v, _ in table]
    return rng.choices(values, cum_weights=list(itertools.accumulate(w for _, w in table)))[0]


class Workload:
    """Signs the workload accounts' transactions for each block."""

    def __init__(
        self, store: Store, mempool: Mempool | None, seed: int, chain_id: int, count: int
    ) -> None:
        self.store = store
        self.mempool = mempool
        self.seed = seed
        self.chain_id = chain_id
        #: Workload accounts created or about to be (the next new one is this index).
        self.count = count
        self._keys: dict[int, Ed25519PrivateKey] = {}
        self._addresses: dict[int, Address] = {}

    def key(self, index: int) -> Ed25519PrivateKey:
        found = self._keys.get(index)
        if found is None:
            found = self._keys[index] = workload_key(self.seed, index)
        return found

    def address(self, index: int) -> Address:
        found = self._addresses.get(index)
        if found is None:
            found = self._addresses[index] = self.key(index).address()
        return found

    def _sequence(self, address: Address) -> int | None:
        found = self.store.state(resource_key(address, ACCOUNT))
        if found is None:
            return None
        return int(orjson.loads(found[0])["data"]["sequence_number"])

    def transactions(
        self, height: int, now_usec: int, count: int | None = None
    ) -> list[SignedTransaction]:
        """The transactions users send while block ``height`` is being made."""
        assert self.mempool is not None
        rng = random.Random(f"ledgerkit-workload:{self.seed}:{height}")
        wanted, rush = demand(self.seed, height)
        if count is not None:
            wanted = count
        expiration = now_usec // 1_000_000 + EXPIRATION_SECS
        out = []
        for _ in range(wanted):
            index = rng.randrange(self.count)
            sender = self.address(index)
            on_chain = self._sequence(sender)
            if on_chain is None or self.mempool.waiting(bytes(sender)) >= MAX_WAITING:
                continue
            sequence = self.mempool.next_sequence(bytes(sender), on_chain)
            kind = rng.choices(_NAMES, cum_weights=_CUMULATIVE)[0]
            payload, max_gas = self._payload(rng, kind, sender)
            price = _choose(rng, _RUSH_PRICES if rush else _CALM_PRICES)
            raw = RawTransaction(
                sender, sequence, payload, max_gas, price, expiration, self.chain_id
            )
            out.append(raw.sign(self.key(index)))
        return out

    def _recipient(self, rng: random.Random) -> str:
        return self.address(rng.randrange(self.count)).standard

    def _payload(self, rng: random.Random, kind: str, sender: Address) -> tuple[EntryFunction, int]:
        max_gas = rng.choice((2_000, 10_000, 200_000))
        amount = rng.randint(1, 200) * 1_000_000
        args: list[tuple[str, Any]]
        type_args: tuple[str, ...] = ()
        if kind in ("transfer", "create", "out_of_gas"):
            function = "0x1::aptos_account::transfer"
            if kind == "transfer":
                to = self._recipient(rng)
            else:
                to = self.address(self.count).standard
                self.count += 1
                amount = 200 * OCTAS
                if kind == "out_of_gas":
                    max_gas = 30
            args = [("address", to), ("u64", amount)]
        elif kind in ("coin_transfer", "coin_to_nobody"):
            function = "0x1::coin::transfer"
            type_args = ("0x1::aptos_coin::AptosCoin",)
            to = self._recipient(rng)
            if kind == "coin_to_nobody":
                to = Address(rng.randbytes(32)).standard
            args = [("address", to), ("u64", amount)]
        elif kind == "ldt_transfer":
            function = "0x1::primary_fungible_store::transfer"
            type_args = ("0x1::fungible_asset::Metadata",)
            metadata = {"inner": DEMO_TOKEN_METADATA.standard}
            args = [
                ("0x1::object::Object<0x1::fungible_asset::Metadata>", metadata),
                ("address", self._recipient(rng)),
                ("u64", rng.randint(1, 10_000_000)),
            ]
        elif kind in ("set_score", "add_score"):
            function = f"0x1::ledger_demo::{kind}"
            player = self.address(rng.randrange(16)).standard
            value = rng.randint(0, 10_000) if kind == "set_score" else rng.randint(1, 100)
            args = [("address", player), ("u64", value)]
        elif kind == "set_cell":
            function = "0x1::ledger_demo::set_cell"
            args = [
                ("u64", rng.randrange(8)),
                ("u64", rng.randrange(8)),
                ("u64", rng.randint(0, 999)),
            ]
        elif kind in ("set_profile", "bad_profile"):
            function = "0x1::ledger_demo::set_profile"
            level = rng.randint(1, 100) if kind == "set_profile" else rng.randint(101, 255)
            tags = rng.sample(_TAGS, rng.randint(0, 3))
            args = [
                ("0x1::string::String", rng.choice(_PROFILE_NAMES)),
                ("u8", level),
                ("vector<0x1::string::String>", tags),
            ]
        elif kind == "batch":
            function = "0x1::aptos_account::batch_transfer"
            recipients = [self._recipient(rng) for _ in range(rng.randint(2, 4))]
            amounts = [rng.randint(1, 100) * 1_000_000 for _ in recipients]
            args = [("vector<address>", recipients), ("vector<u64>", amounts)]
        else:  # fail
            function = "0x1::ledger_demo::fail_if"
            args = [("u64", rng.choice((1, 42, 0x10003, 0xDEAD)))]
        ef = EntryFunction.build(function, type_args, args, codec=FRAMEWORK.codec)
        return ef, max_gas
