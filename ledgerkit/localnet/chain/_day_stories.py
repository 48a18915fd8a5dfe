"""The day's stories: what users of a real chain do besides transfers, as a written plan.

The random mix (:mod:`~._workload`) is made of independent transactions; the framework's
richer features need steps that follow one another: a collection before its mints, an
offer before its claim, a multisig proposal before its approvals. Each story below is a
chain of steps placed at fractions of the day; step ``k`` runs in the run of blocks
(:data:`~._generator.RUN_BLOCKS`) its fraction falls in, or in the run after step
``k - 1``'s when that one is as late, and is left out when the chain has no run left.
A chain of fewer runs than the longest story has steps (:data:`MIN_RUNS`, 24: fewer
than 144 blocks, the day sampled every hour or coarser) holds no stories rather than cut
ones. A step is signed in its run's first block (a key rotation in its run's last one,
and its account sends nothing else that block) at the price an urgent user bids (in
congestion, the most any user bids); a step whose premise is not on chain (the token to
transfer, the multisig account) is skipped.

The plan (the actors are workload accounts, by index):

* **Digital assets** (``0x4::aptos_token``): account 20 creates the collection
  "Tidepool Prints" (max supply 100) and mints 16 tokens over the day, transfers the first
  6 to collectors 50..55 (``0x1::object::transfer``) and burns its 7th; collector 50
  passes its token on to collector 57. Account 21 creates "Night Trains" (max supply 20),
  mints 4 tokens with a ``rarity`` property and 3 soul-bound badges for collectors 52..54,
  burns its 2nd token, updates the 1st's property, edits the 3rd's description and
  transfers the 4th to collector 55. Collector 52 tries to pass its badge on: refused.
* **Token v1** (``0x3``): account 22 creates the collection "Founders Pass" and 3 tokens,
  offers pass 1 to account 31 (who claims it) and pass 2 to account 32 (then cancels the
  offer); account 33 opts in to direct transfers and receives pass 3.
* **Multisig accounts**: account 23 creates a 2-of-3 account with 24 and 25 and funds it
  with 20 APT. Proposal 1 (pay 3 APT to account 34) is approved hours later by 24 and
  executed by 25; proposal 2 (pay 15 APT to 23) is rejected by 24 and 25 and resolved by
  23 with ``execute_rejected_transaction``; proposal 3 adds account 26 as an owner,
  approved by 24 and executed by 25. Account 27 creates a 1-of-2 account with 35 and
  funds it with 5 APT; 35 proposes paying 1 APT to 27 and 27 executes it.
* **Sponsored transactions**: a dapp (account 28, the fee payer) pays the gas of 20
  transfers over the day, account ``60 + k`` sending ``(k + 1) / 10`` APT to account
  ``80 + k``.
* **Key rotations**: accounts 40, 41 and 42 rotate to their rotated keys
  (``rotate_authentication_key`` with both proofs) and go on transacting with them: a
  little later they pay 1 APT to accounts 100, 101 and 102 respectively (and the random
  mix goes on picking them).
* **Fungible asset issuers** (:mod:`._issuer_stories`): accounts 14..17 publish their
  issuer modules (Ledger USD, Tidepool Gems, Orbit Points, Quartz), mint to users, who
  pass them on; the issuers freeze, move and burn a little.

The addresses the steps make (tokens, multisig accounts) and the proposals' numbers are
kept in the meta table (``day_stories``) with each block, so a resumed generation carries
on with them.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any, Final

import orjson

from ledgerkit.bcs import EntryFunction, Multisig, SignedTransaction
from ledgerkit.localnet.chain._issuer_stories import ISSUER_STORIES, IssuerSteps
from ledgerkit.localnet.chain._issuer_stories import StoryCall as _Call
from ledgerkit.localnet.chain._workload import EXPIRATION_SECS, OCTAS, Workload, congestion
from ledgerkit.localnet.vm.framework import FRAMEWORK, resource_key
from ledgerkit.types import Address

__all__ = ["DayStories"]

#: The meta key the stories' addresses and proposal numbers are kept under.
MEMORY_KEY: Final = "day_stories"
MAX_GAS: Final = 200_000
#: The workload account that pays the gas of sponsored transactions (a dapp's fee payer).
SPONSOR: Final = 28
TOKEN: Final = "0x4::token::Token"
_S: Final = "0x1::string::String"
_OBJECT_CORE: Final = "0x1::object::ObjectCore"
_MULTISIG: Final = "0x1::multisig_account::MultisigAccount"
_MS: Final = "0x1::multisig_account::"

#: A step: its fraction of the day, its action, the action's parameters.
_Step = tuple[float, str, tuple[Any, ...]]

TIDEPOOL: Final = "Tidepool Prints"
NIGHT_TRAINS: Final = "Night Trains"
FOUNDERS: Final = "Founders Pass"


def _tidepool() -> tuple[_Step, ...]:
    steps: list[_Step] = [(0.02, "collection", (20, TIDEPOOL, 100))]
    for i in range(1, 17):
        at = 0.04 + 0.05 * (i - 1)
        steps.append((at, "mint", (20, TIDEPOOL, f"Tidepool #{i}", None)))
        if i <= 6:
            steps.append((at + 0.02, "transfer", (20, f"Tidepool #{i}", 49 + i)))
    steps.append((0.86, "burn", (20, "Tidepool #7")))
    return tuple(sorted(steps, key=lambda s: s[0]))


_STORIES: Final[tuple[tuple[_Step, ...], ...]] = (
    _tidepool(),
    ((0.6, "transfer", (50, "Tidepool #1", 57)),),
    (
        (0.07, "collection", (21, NIGHT_TRAINS, 20)),
        (0.13, "mint", (21, NIGHT_TRAINS, "Night Train 1", None)),
        (0.2, "mint", (21, NIGHT_TRAINS, "Conductor Badge 1", 52)),
        (0.27, "mint", (21, NIGHT_TRAINS, "Night Train 2", None)),
        (0.34, "mint", (21, NIGHT_TRAINS, "Conductor Badge 2", 53)),
        (0.41, "mint", (21, NIGHT_TRAINS, "Night Train 3", None)),
        (0.48, "mint", (21, NIGHT_TRAINS, "Conductor Badge 3", 54)),
        (0.55, "mint", (21, NIGHT_TRAINS, "Night Train 4", None)),
        (0.62, "burn", (21, "Night Train 2")),
        (0.69, "update_property", (21, "Night Train 1", "rarity", "rare")),
        (0.72, "set_description", (21, "Night Train 3", "Night Train 3, repainted")),
        (0.75, "transfer", (21, "Night Train 4", 55)),
    ),
    ((0.5, "transfer", (52, "Conductor Badge 1", 50)),),
    (
        (0.05, "v1_collection", (22, FOUNDERS)),
        (0.08, "v1_token", (22, FOUNDERS, "Pass 1")),
        (0.18, "v1_token", (22, FOUNDERS, "Pass 2")),
        (0.28, "v1_token", (22, FOUNDERS, "Pass 3")),
        (0.3, "v1_offer", (22, 31, FOUNDERS, "Pass 1")),
        (0.33, "v1_offer", (22, 32, FOUNDERS, "Pass 2")),
        (0.42, "v1_claim", (31, 22, FOUNDERS, "Pass 1")),
        (0.5, "v1_cancel", (22, 32, FOUNDERS, "Pass 2")),
        (0.58, "v1_transfer_opted_in", (22, 33, FOUNDERS, "Pass 3")),
    ),
    ((0.4, "v1_opt_in", (33,)),),
    (
        (0.1, "multisig", ("M1", 23, (24, 25), 2)),
        (0.12, "fund_multisig", ("M1", 23, 20 * OCTAS)),
        (0.2, "propose_payment", ("M1", 1, 23, 34, 3 * OCTAS)),
        (0.33, "vote", ("M1", 1, 24, True)),
        (0.4, "execute", ("M1", 25)),
        (0.45, "propose_payment", ("M1", 2, 23, 23, 15 * OCTAS)),
        (0.55, "vote", ("M1", 2, 24, False)),
        (0.64, "vote", ("M1", 2, 25, False)),
        (0.7, "execute_rejected", ("M1", 23)),
        (0.74, "propose_owner", ("M1", 3, 23, 26)),
        (0.84, "vote", ("M1", 3, 24, True)),
        (0.9, "execute", ("M1", 25)),
    ),
    (
        (0.58, "multisig", ("M2", 27, (35,), 1)),
        (0.6, "fund_multisig", ("M2", 27, 5 * OCTAS)),
        (0.66, "propose_payment", ("M2", 1, 35, 27, OCTAS)),
        (0.7, "execute", ("M2", 27)),
    ),
    *(
        ((0.025 + 0.048 * k, "sponsored", (60 + k, 80 + k, (k + 1) * OCTAS // 10)),)
        for k in range(20)
    ),
    ((0.15, "rotate", (40,)), (0.2, "pay", (40, 100, OCTAS))),
    ((0.47, "rotate", (41,)), (0.52, "pay", (41, 101, OCTAS))),
    ((0.81, "rotate", (42,)), (0.86, "pay", (42, 102, OCTAS))),
    *ISSUER_STORIES,
)

#: Chains of fewer runs than this (the longest story's steps) hold no stories.
MIN_RUNS: Final = max(len(story) for story in _STORIES)


def _sha3(*parts: bytes) -> Address:
    return Address(hashlib.sha3_256(b"".join(parts)).digest())


def _bcs_string(text: str) -> bytes:
    data = text.encode()
    assert len(data) < 128  # one ULEB128 byte
    return bytes([len(data)]) + data


def _call(function: str, args: list[tuple[str, Any]], type_args: tuple[str, ...] = ()) -> Any:
    return EntryFunction.build(function, type_args, args, codec=FRAMEWORK.codec)


def _rotation_message(sequence: int, originator: Address, current: bytes, new_key: bytes) -> bytes:
    """``SignedMessage<RotationProofChallenge>`` as BCS: the challenge's type (``0x1``,
    ``account``, ``RotationProofChallenge``), then its fields."""
    return (
        bytes(Address.from_int(1))
        + _bcs_string("account")
        + _bcs_string("RotationProofChallenge")
        + sequence.to_bytes(8, "little")
        + bytes(originator)
        + current
        + bytes([len(new_key)])
        + new_key
    )


class DayStories(IssuerSteps):
    """Signs the stories' steps for the blocks of a generated chain of ``blocks`` blocks."""

    def __init__(self, workload: Workload, blocks: int, run_blocks: int, memory: str | None):
        self.workload = workload
        self.run_blocks = run_blocks
        self.blocks = blocks
        self.memory: dict[str, dict[str, Any]] = {"tokens": {}, "multisig": {}, "proposals": {}}
        if memory:
            self.memory.update(orjson.loads(memory))
        runs = -(-blocks // run_blocks)
        self._by_height: dict[int, list[tuple[str, tuple[Any, ...]]]] = {}
        for story in _STORIES if runs >= MIN_RUNS else ():
            last = -1
            for fraction, action, params in story:
                run = max(int(fraction * runs), last + 1)
                if run >= runs:
                    break
                last = run
                first = run * run_blocks + 1
                height = min(first + run_blocks - 1, blocks) if action == "rotate" else first
                self._by_height.setdefault(height, []).append((action, params))

    def remembered(self) -> str:
        """The memory to keep with the block (meta ``day_stories``)."""
        return orjson.dumps(self.memory, option=orjson.OPT_SORT_KEYS).decode()

    def busy(self, height: int) -> frozenset[int]:
        """The accounts that send nothing but their step at ``height`` (those rotating)."""
        return frozenset(p[0] for a, p in self._by_height.get(height, ()) if a == "rotate")

    def transactions(self, height: int, now_usec: int) -> list[SignedTransaction]:
        """The steps of block ``height``, signed (those whose premise holds)."""
        steps = self._by_height.get(height)
        if not steps:
            return []
        w = self.workload
        rng = random.Random(f"ledgerkit-stories:{w.seed}:{height}")
        level = congestion(w.seed, now_usec)
        expiration = now_usec // 1_000_000 + EXPIRATION_SECS
        out = []
        for action, params in steps:
            call: _Call | None = getattr(self, "_" + action)(*params)
            if call is None:
                continue
            price = w.price(rng, level, urgent=True)
            signed = w.sign(
                call.sender, call.payload, MAX_GAS, price, expiration, fee_payer=call.fee_payer
            )
            if signed is None:
                continue
            if call.remember is not None:
                call.remember(signed)
            out.append(signed)
        return out

    # -- reading the chain ------------------------------------------------------------

    def _resource(self, address: str, type_: str) -> Any:
        found = self.workload.store.reads.state(resource_key(Address.parse(address), type_))
        return None if found is None else orjson.loads(found[0])["data"]

    def _owned_token(self, name: str, owner: int) -> str | None:
        """The token named ``name`` when ``owner`` holds it."""
        token: str | None = self.memory["tokens"].get(name)
        if token is None:
            return None
        core = self._resource(token, _OBJECT_CORE)
        if core is None or core["owner"] != self.workload.address(owner).standard:
            return None
        return token

    def _multisig_account(self, label: str) -> str | None:
        address: str | None = self.memory["multisig"].get(label)
        if address is None or self._resource(address, _MULTISIG) is None:
            return None
        return address

    def _next_sequence(self, index: int) -> int | None:
        w = self.workload
        on_chain = w.account(w.address(index))
        if on_chain is None:
            return None
        assert w.mempool is not None
        return w.mempool.next_sequence(bytes(w.address(index)), on_chain[0])

    # -- digital assets -----------------------------------------------------------------

    def _collection(self, creator: int, name: str, supply: int) -> _Call:
        args = [(_S, f"{name}, a collection of the day"), ("u64", supply), (_S, name)]
        args.append((_S, f"https://example.org/{name.replace(' ', '-').lower()}"))
        # mutable description, royalty, uri, token description, name, properties, uri;
        # tokens burnable, freezable by the creator
        flags = (True, False, False, True, False, True, False, True, True)
        args += [("bool", flag) for flag in flags]
        args += [("u64", 5), ("u64", 100)]
        return _Call(creator, _call("0x4::aptos_token::create_collection", args))

    def _mint(self, creator: int, collection: str, name: str, soul_bound: int | None) -> _Call:
        keys, types, values = [], [], []
        if collection == NIGHT_TRAINS and soul_bound is None:
            keys, types, values = ["rarity"], [_S], [_bcs_string("common")]
        args: list[tuple[str, Any]] = [
            (_S, collection),
            (_S, f"{name} of {collection}"),
            (_S, name),
            (_S, f"https://example.org/token/{name.replace(' ', '-').replace('#', '').lower()}"),
            (f"vector<{_S}>", keys),
            (f"vector<{_S}>", types),
            ("vector<vector<u8>>", values),
        ]
        function = "0x4::aptos_token::mint"
        if soul_bound is not None:
            function = "0x4::aptos_token::mint_soul_bound"
            args.append(("address", self.workload.address(soul_bound)))

        def remember(signed: SignedTransaction) -> None:
            # aptos_token::mint makes an unnamed object: its address is the transaction's
            # first AUID, SHA3-256(txn hash, u64 1, 0xFB).
            token = _sha3(bytes(signed.hash()), (1).to_bytes(8, "little"), b"\xfb")
            self.memory["tokens"][name] = token.standard

        return _Call(creator, _call(function, args), remember)

    def _transfer(self, owner: int, name: str, to: int) -> _Call | None:
        token = self._owned_token(name, owner)
        if token is None:
            return None
        args = [("address", token), ("address", self.workload.address(to))]
        return _Call(owner, _call("0x1::object::transfer", args, (TOKEN,)))

    def _burn(self, creator: int, name: str) -> _Call | None:
        token = self._owned_token(name, creator)
        if token is None:
            return None
        return _Call(creator, _call("0x4::aptos_token::burn", [("address", token)], (TOKEN,)))

    def _update_property(self, creator: int, name: str, key: str, value: str) -> _Call | None:
        token = self.memory["tokens"].get(name)
        if token is None or self._resource(token, _OBJECT_CORE) is None:
            return None
        args = [("address", token), (_S, key), (_S, _S), ("vector<u8>", _bcs_string(value))]
        function = "0x4::aptos_token::update_property"
        return _Call(creator, _call(function, args, (TOKEN,)))

    def _set_description(self, creator: int, name: str, text: str) -> _Call | None:
        token = self.memory["tokens"].get(name)
        if token is None or self._resource(token, _OBJECT_CORE) is None:
            return None
        args = [("address", token), (_S, text)]
        return _Call(creator, _call("0x4::aptos_token::set_description", args, (TOKEN,)))

    # -- token v1 -----------------------------------------------------------------------

    def _v1_collection(self, creator: int, name: str) -> _Call:
        args = [
            (_S, name),
            (_S, f"{name}: passes of the first members"),
            (_S, "https://example.org/founders"),
            ("u64", 0),
            ("vector<bool>", [False, False, False]),
        ]
        return _Call(creator, _call("0x3::token::create_collection_script", args))

    def _v1_token(self, creator: int, collection: str, name: str) -> _Call:
        args = [
            (_S, collection),
            (_S, name),
            (_S, f"{name} of {collection}"),
            ("u64", 1),
            ("u64", 1),
            (_S, f"https://example.org/founders/{name.replace(' ', '-').lower()}"),
            ("address", self.workload.address(creator)),
            ("u64", 100),
            ("u64", 2),
            ("vector<bool>", [False, False, False, False, False]),
            (f"vector<{_S}>", []),
            ("vector<vector<u8>>", []),
            (f"vector<{_S}>", []),
        ]
        return _Call(creator, _call("0x3::token::create_token_script", args))

    def _token_id(self, creator: int, collection: str, name: str) -> list[tuple[str, Any]]:
        address = self.workload.address(creator)
        return [("address", address), (_S, collection), (_S, name), ("u64", 0)]

    def _v1_offer(self, sender: int, to: int, collection: str, name: str) -> _Call:
        args: list[tuple[str, Any]] = [("address", self.workload.address(to))]
        args += [*self._token_id(sender, collection, name), ("u64", 1)]
        return _Call(sender, _call("0x3::token_transfers::offer_script", args))

    def _v1_claim(self, receiver: int, sender: int, collection: str, name: str) -> _Call:
        args: list[tuple[str, Any]] = [("address", self.workload.address(sender))]
        args += self._token_id(sender, collection, name)
        return _Call(receiver, _call("0x3::token_transfers::claim_script", args))

    def _v1_cancel(self, sender: int, to: int, collection: str, name: str) -> _Call:
        args: list[tuple[str, Any]] = [("address", self.workload.address(to))]
        args += self._token_id(sender, collection, name)
        return _Call(sender, _call("0x3::token_transfers::cancel_offer_script", args))

    def _v1_opt_in(self, account: int) -> _Call:
        args = [("bool", True)]
        return _Call(account, _call("0x3::token::opt_in_direct_transfer", args))

    def _v1_transfer_opted_in(self, sender: int, to: int, collection: str, name: str) -> _Call:
        args = self._token_id(sender, collection, name)[:4]
        args += [("address", self.workload.address(to)), ("u64", 1)]
        return _Call(sender, _call("0x3::token::transfer_with_opt_in", args))

    # -- multisig accounts --------------------------------------------------------------

    def _multisig(self, label: str, creator: int, others: tuple[int, ...], needed: int) -> Any:
        sequence = self._next_sequence(creator)
        if sequence is None:
            return None
        owners = [self.workload.address(i) for i in others]
        args = [
            ("vector<address>", owners),
            ("u64", needed),
            (f"vector<{_S}>", []),
            ("vector<vector<u8>>", []),
        ]
        seed = b"aptos_framework::multisig_account" + sequence.to_bytes(8, "little")
        address = _sha3(bytes(self.workload.address(creator)), seed, b"\xff")

        def remember(signed: SignedTransaction) -> None:
            self.memory["multisig"][label] = address.standard

        return _Call(creator, _call(_MS + "create_with_owners", args), remember)

    def _fund_multisig(self, label: str, sender: int, amount: int) -> _Call | None:
        account = self._multisig_account(label)
        if account is None:
            return None
        args = [("address", Address.parse(account)), ("u64", amount)]
        return _Call(sender, _call("0x1::aptos_account::transfer", args))

    def _propose(self, label: str, number: int, sender: int, inner: EntryFunction) -> Any:
        account = self._multisig_account(label)
        if account is None:
            return None
        sequence = int(self._resource(account, _MULTISIG)["next_sequence_number"])
        args = [("address", Address.parse(account)), ("vector<u8>", b"\x00" + inner.to_bcs())]

        def remember(signed: SignedTransaction) -> None:
            self.memory["proposals"][f"{label}#{number}"] = sequence

        return _Call(sender, _call(_MS + "create_transaction", args), remember)

    def _propose_payment(self, label: str, number: int, sender: int, to: int, amount: int) -> Any:
        args = [("address", self.workload.address(to)), ("u64", amount)]
        inner = _call("0x1::aptos_account::transfer", args)
        return self._propose(label, number, sender, inner)

    def _propose_owner(self, label: str, number: int, sender: int, owner: int) -> Any:
        inner = _call(_MS + "add_owner", [("address", self.workload.address(owner))])
        return self._propose(label, number, sender, inner)

    def _vote(self, label: str, number: int, owner: int, approve: bool) -> _Call | None:
        account = self._multisig_account(label)
        sequence = self.memory["proposals"].get(f"{label}#{number}")
        if account is None or sequence is None:
            return None
        function = _MS + ("approve_transaction" if approve else "reject_transaction")
        args = [("address", Address.parse(account)), ("u64", sequence)]
        return _Call(owner, _call(function, args))

    def _execute(self, label: str, owner: int) -> _Call | None:
        account = self._multisig_account(label)
        if account is None:
            return None
        return _Call(owner, Multisig(Address.parse(account), None))

    def _execute_rejected(self, label: str, owner: int) -> _Call | None:
        account = self._multisig_account(label)
        if account is None:
            return None
        args = [("address", Address.parse(account))]
        return _Call(owner, _call(_MS + "execute_rejected_transaction", args))

    # -- sponsored transactions ---------------------------------------------------------

    def _pay(self, sender: int, to: int, amount: int) -> _Call:
        args = [("address", self.workload.address(to)), ("u64", amount)]
        return _Call(sender, _call("0x1::aptos_account::transfer", args))

    def _sponsored(self, sender: int, to: int, amount: int) -> _Call:
        args = [("address", self.workload.address(to)), ("u64", amount)]
        payload = _call("0x1::aptos_account::transfer", args)
        return _Call(sender, payload, fee_payer=SPONSOR)

    # -- key rotation -------------------------------------------------------------------

    def _rotate(self, index: int) -> _Call | None:
        w = self.workload
        address = w.address(index)
        on_chain = w.account(address)
        sequence = self._next_sequence(index)
        if on_chain is None or sequence is None or on_chain[1] != address.long:
            return None  # rotated already
        current, new = w.key(index), w.rotated_key(index)
        message = _rotation_message(sequence, address, bytes(address), new.public_key_bytes)
        args = [
            ("u8", 0),
            ("vector<u8>", current.public_key_bytes),
            ("u8", 0),
            ("vector<u8>", new.public_key_bytes),
            ("vector<u8>", current.sign(message)),
            ("vector<u8>", new.sign(message)),
        ]
        return _Call(index, _call("0x1::account::rotate_authentication_key", args))
