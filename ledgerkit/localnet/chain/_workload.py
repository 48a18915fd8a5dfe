"""Simulated users: who sends what, how much, and at which gas price, block by block.

The workload accounts' keys come from the seed (:func:`~._seeded_accounts.workload_key`); the
first :data:`~._generator.GENESIS_WORKLOAD_ACCOUNTS` are funded at genesis and more are
created by transfers to the next unused key's address. Everything a block's users do is
drawn from a random generator seeded by the chain seed and the block height, so the
chain generator and the live workload of a restarted node make the same choices from the
same state.

Mix (weights out of 100): APT transfers 40, transfers that create an account 5,
``coin::transfer<AptosCoin>`` 8, LDT transfers 10, ``ledger_demo`` writes 30
(``set_score`` 12, ``set_cell`` 8, ``set_profile`` 6, ``add_score`` 4), batch transfers 2,
a coin transfer to an unused address 1 (the framework makes the address's primary store;
no account), and 4 that fail on purpose with the framework's own abort codes (an LDT
transfer over the sender's balance (``EINSUFFICIENT_BALANCE``), a profile level over the
limit, ``fail_if`` with a non-zero code, and one that runs out of gas). The chain
generator adds the day's stories on top (:mod:`~._day_stories`: digital assets, token v1,
multisig accounts, sponsored transactions, key rotations).

A workload account signs with the key its on-chain authentication key names: its seeded
key, or its rotated key (:func:`~._seeded_accounts.rotated_key`) once it rotated.

Demand follows the chain's clock (:func:`demand`): a daily rhythm, quietest at 04:00 UTC
and busiest at 16:00 UTC, and congestion episodes at seeded times of each day when users
send more than blocks take and bid higher gas prices the worse it gets.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from typing import Any, Final

import orjson

from ledgerkit.bcs import (
    EntryFunction,
    FeePayerRawTransaction,
    RawTransaction,
    SignedTransaction,
    TransactionPayload,
)
from ledgerkit.keys import Ed25519PrivateKey
from ledgerkit.localnet.chain._seeded_accounts import rotated_key, workload_key
from ledgerkit.localnet.mempool import Mempool
from ledgerkit.localnet.store import Store
from ledgerkit.localnet.vm.framework import ACCOUNT, DEMO_TOKEN_METADATA, FRAMEWORK, resource_key
from ledgerkit.types import Address

__all__ = ["Workload", "congestion", "demand", "unit"]

#: Transactions one workload account keeps waiting at most.
MAX_WAITING: Final = 8
EXPIRATION_SECS: Final = 600
OCTAS: Final = 100_000_000
DAY_USEC: Final = 86_400_000_000
HOUR_USEC: Final = 3_600_000_000
#: Hour of the day (UTC) when demand is lowest; it is highest twelve hours later.
QUIET_HOUR: Final = 4
#: More LDT (in its smallest unit) than its whole supply: the transfer must abort.
OVERSPEND: Final = 2 * 10**14
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
    ("overspend", 1),
    ("fail", 1),
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
#: At an episode's peak a user bids up to this many times more than when calm.
RUSH_MARKUP: Final = 14


def unit(seed: int, label: str, height: int) -> float:
    """A deterministic number in [0, 1) for (seed, label, height)."""
    digest = hashlib.blake2b(f"{seed}:{label}:{height}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") / 2**64


def _episodes(seed: int, day: int) -> list[tuple[int, int, float]]:
    """``(start, length, peak)`` of the congestion episodes of Unix day ``day``.

    Every day has one in the afternoon (starting 12:00 to 16:00 UTC, lasting 1.5 to 3
    hours); most days have a shorter one at another time.
    """
    base = day * DAY_USEC
    episodes = [
        (
            base + int((12 + 4 * unit(seed, "rush-start", day)) * HOUR_USEC),
            int((1.5 + 1.5 * unit(seed, "rush-length", day)) * HOUR_USEC),
            0.8 + 0.2 * unit(seed, "rush-peak", day),
        )
    ]
    if unit(seed, "rush2", day) < 0.7:
        episodes.append(
            (
                base + int(22 * unit(seed, "rush2-start", day) * HOUR_USEC),
                int((0.75 + 0.75 * unit(seed, "rush2-length", day)) * HOUR_USEC),
                0.6 + 0.3 * unit(seed, "rush2-peak", day),
            )
        )
    return episodes


def congestion(seed: int, time_usec: int) -> float:
    """How congested the chain is at ``time_usec``: 0 when calm, up to 1 at an episode's peak.

    An episode's level rises and falls back as a half sine over its length.
    """
    level = 0.0
    day = time_usec // DAY_USEC
    for d in (day - 1, day):  # an episode may run past midnight
        for start, length, peak in _episodes(seed, d):
            x = (time_usec - start) / length
            if 0 <= x < 1:
                level = max(level, peak * math.sin(math.pi * x))
    return level


def demand(seed: int, height: int, time_usec: int) -> tuple[int, float]:
    """How many transactions users send for block ``height`` at ``time_usec``, and the
    congestion level then (see :func:`congestion`).

    Calm demand follows the day: 1 transaction a block on average at 04:00 UTC, 6 at
    16:00. An episode adds up to 45-70 a block at its peak, about twice what a block
    takes.
    """
    hour = (time_usec % DAY_USEC) / HOUR_USEC
    activity = 0.5 * (1 - math.cos(2 * math.pi * (hour - QUIET_HOUR) / 24))
    calm = 1 + 5 * activity
    level = congestion(seed, time_usec)
    rush = level * (45 + 25 * unit(seed, "rush-size", height))
    return int(calm * 2 * unit(seed, "calm", height) + rush + 0.5), level


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
        self._rotated: dict[int, Ed25519PrivateKey] = {}

    def key(self, index: int, authentication_key: str | None = None) -> Ed25519PrivateKey:
        """The key account ``index`` signs with: the seeded one, or the rotated one when
        ``authentication_key`` (on chain) is not the seeded key's."""
        found = self._keys.get(index)
        if found is None:
            found = self._keys[index] = workload_key(self.seed, index)
        if authentication_key is not None and authentication_key != self.address(index).long:
            return self.rotated_key(index)
        return found

    def rotated_key(self, index: int) -> Ed25519PrivateKey:
        """The key account ``index`` rotates to, if it ever does."""
        found = self._rotated.get(index)
        if found is None:
            found = self._rotated[index] = rotated_key(self.seed, index)
        return found

    def address(self, index: int) -> Address:
        found = self._addresses.get(index)
        if found is None:
            found = self._addresses[index] = self.key(index).address()
        return found

    def account(self, address: Address) -> tuple[int, str] | None:
        """The sequence number and authentication key of an account, None without one."""
        found = self.store.reads.state(resource_key(address, ACCOUNT))
        if found is None:
            return None
        data = orjson.loads(found[0])["data"]
        return int(data["sequence_number"]), data["authentication_key"]

    def sign(
        self,
        index: int,
        payload: TransactionPayload,
        max_gas: int,
        price: int,
        expiration: int,
        *,
        fee_payer: int | None = None,
    ) -> SignedTransaction | None:
        """Account ``index``'s next transaction (after those it has waiting), signed with
        its current key (and its fee payer's); None while it has no account or too many
        transactions waiting."""
        assert self.mempool is not None
        sender = self.address(index)
        on_chain = self.account(sender)
        if on_chain is None or self.mempool.waiting(bytes(sender)) >= MAX_WAITING:
            return None
        sequence = self.mempool.next_sequence(bytes(sender), on_chain[0])
        key = self.key(index, on_chain[1])
        raw = RawTransaction(sender, sequence, payload, max_gas, price, expiration, self.chain_id)
        if fee_payer is None:
            return raw.sign(key)
        payer = self.address(fee_payer)
        paying = self.account(payer)
        if paying is None:
            return None
        message = FeePayerRawTransaction(raw, (), payer)
        signing = message.signing_message()
        payer_key = self.key(fee_payer, paying[1])
        return message.authenticate(
            key.authenticator(signing), (), payer_key.authenticator(signing)
        )

    def transactions(
        self,
        height: int,
        now_usec: int,
        count: int | None = None,
        *,
        skip: frozenset[int] = frozenset(),
    ) -> list[SignedTransaction]:
        """The transactions users send while block ``height`` is being made (none from
        the accounts of ``skip``)."""
        assert self.mempool is not None
        rng = random.Random(f"ledgerkit-workload:{self.seed}:{height}")
        wanted, level = demand(self.seed, height, now_usec)
        if count is not None:
            wanted = count
        expiration = now_usec // 1_000_000 + EXPIRATION_SECS
        out = []
        for _ in range(wanted):
            index = rng.randrange(self.count)
            sender = self.address(index)
            if index in skip or self.account(sender) is None:
                continue
            if self.mempool.waiting(bytes(sender)) >= MAX_WAITING:
                continue
            kind = rng.choices(_NAMES, cum_weights=_CUMULATIVE)[0]
            payload, max_gas = self._payload(rng, kind, sender)
            price = self.price(rng, level)
            signed = self.sign(index, payload, max_gas, price, expiration)
            if signed is not None:
                out.append(signed)
        return out

    @staticmethod
    def price(rng: random.Random, level: float, *, urgent: bool = False) -> int:
        """A user's gas price: the worse the congestion, the more users bid up to get in
        (by how much depends on how urgent each one is; ``urgent``, the most)."""
        price = _choose(rng, _CALM_PRICES)
        if level:
            urgency = 1.0 if urgent else rng.random()
            price = int(round(price * (1 + RUSH_MARKUP * level * urgency), -1))
        return price

    def _recipient(self, rng: random.Random) -> str:
        return self.address(rng.randrange(self.count)).standard

    def _payload(self, rng: random.Random, kind: str, sender: Address) -> tuple[EntryFunction, int]:
        max_gas = rng.choice((20_000, 100_000, 200_000))
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
        elif kind in ("ldt_transfer", "overspend"):
            function = "0x1::primary_fungible_store::transfer"
            type_args = ("0x1::fungible_asset::Metadata",)
            metadata = {"inner": DEMO_TOKEN_METADATA.standard}
            args = [
                ("0x1::object::Object<0x1::fungible_asset::Metadata>", metadata),
                ("address", self._recipient(rng)),
                ("u64", rng.randint(1, 10_000_000) + (OVERSPEND if kind == "overspend" else 0)),
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
