"""The frames over the events of digital assets (token v2 and v1), multisig accounts and
key rotation, on transactions made here against the embedded node: the activity frame
counts a token received, minted, sent or burnt as a change of that token (and makes its
receiver a recipient); the balance-change frame keeps to balances; ``typed_events``
lays every one of those events out by its module's ABI.

Expected values are written out: token v2 addresses derived by hand
(``SHA3-256(txn hash ‖ u64 1 ‖ 0xFB)``), the token v1 key as the Aptos indexer writes a
token data id (``SHA3-256("<creator>::<collection>::<name>")``), the rotation challenge
in the BCS of ``0x1::account::RotationProofChallenge``.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd
import pytest
from digital_assets import TOKEN, run, token_address

import ledgerkit
from ledgerkit import Client, Ed25519PrivateKey
from ledgerkit.bcs import EntryFunction
from ledgerkit.frames import activity_to_frame, balance_changes_to_frame
from ledgerkit.localnet import LocalNode
from ledgerkit.models import AbiCache, UserTransaction, token_moves, token_v1_data_id
from ledgerkit.types import Address

APT = "0x" + "00" * 31 + "0a"


@dataclass
class Story:
    node: LocalNode
    creator: str
    other: str
    txns: dict[str, UserTransaction] = field(default_factory=dict)
    conch: str = ""
    cowrie: str = ""
    relic: str = ""
    multisig: str = ""


def _rotation_challenge(seq: int, address: bytes, new_pk: bytes) -> bytes:
    """BCS of ``RotationProofChallenge``: its struct tag's address and names, then the
    sequence number, originator, current auth key and the new key as a byte vector."""
    return (
        bytes(31)
        + b"\x01\x07account\x16RotationProofChallenge"
        + struct.pack("<Q", seq)
        + address
        + address
        + bytes([len(new_pk)])
        + new_pk
    )


@pytest.fixture(scope="module")
def story(make_node: Callable[..., LocalNode]) -> Story:
    node = make_node(seed=47, blocks=3, services=False)
    creator = node.dev_accounts[7]
    other, rotating = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    told = Story(node, creator.address.long, other.address().long)
    t = told.txns
    with Client(node.url, cache=False) as client:
        for key in (other, rotating):
            assert client.transfer(creator, key.address(), 10**8).value.success
        # Token v2: a collection, a token minted with properties and sent on, its
        # description changed, a second token minted and burnt.
        flags = [True] * 9
        t["collection"] = run(
            client,
            creator,
            "0x4::aptos_token::create_collection",
            ["About", 10, "Shells", "https://ex.org/c", *flags, 0, 100],
        )
        props = [["size"], ["u64"], [(3).to_bytes(8, "little")]]
        t["mint"] = run(
            client,
            creator,
            "0x4::aptos_token::mint",
            ["Shells", "A Conch", "Conch", "https://ex.org/1", *props],
        )
        told.conch = token_address(str(t["mint"].hash))
        t["send"] = run(
            client, creator, "0x1::object::transfer_call", [told.conch, other.address()]
        )
        t["mint2"] = run(
            client,
            creator,
            "0x4::aptos_token::mint",
            ["Shells", "A Cowrie", "Cowrie", "https://ex.org/2", [], [], []],
        )
        told.cowrie = token_address(str(t["mint2"].hash))
        t["describe"] = run(
            client,
            creator,
            "0x4::aptos_token::set_description",
            [told.cowrie, "Gone soon"],
            type_arguments=[TOKEN],
        )
        t["burn"] = run(
            client, creator, "0x4::aptos_token::burn", [told.cowrie], type_arguments=[TOKEN]
        )
        # Token v1: a collection, 2 of a token, one sent to an account that opted in.
        t["v1_collection"] = run(
            client,
            creator,
            "0x3::token::create_collection_script",
            ["Old", "Old things", "https://ex.org/old", 5, [False, False, False]],
        )
        t["v1_token"] = run(
            client,
            creator,
            "0x3::token::create_token_script",
            [
                *("Old", "Relic", "A relic", 2, 5, "https://ex.org/r", creator.address, 100, 1),
                *([False] * 5, [], [], []),
            ],
        )
        told.relic = token_v1_data_id(creator.address, "Old", "Relic")
        t["opt_in"] = run(client, other, "0x3::token::opt_in_direct_transfer", [True])
        t["v1_send"] = run(
            client,
            creator,
            "0x3::token::transfer_with_opt_in",
            [creator.address, "Old", "Relic", 0, other.address(), 1],
        )
        # A multisig account of one owner with a call proposed.
        t["multisig"] = run(
            client,
            other,
            "0x1::multisig_account::create_with_owners",
            [[creator.address], 1, [], []],
        )
        made = [c for c in t["multisig"].changes if "MultisigAccount" in str(c)]
        told.multisig = str(getattr(made[0], "address", ""))
        call = EntryFunction.build("0x1::aptos_account::transfer", [], [])
        t["propose"] = run(
            client,
            other,
            "0x1::multisig_account::create_transaction",
            [told.multisig, b"\x00" + call.to_bcs()],
        )
        # Key rotation with both proofs.
        new = Ed25519PrivateKey.generate()
        address = bytes(rotating.address())
        challenge = _rotation_challenge(0, address, new.public_key_bytes)
        t["rotate"] = run(
            client,
            rotating,
            "0x1::account::rotate_authentication_key",
            [
                *(0, rotating.public_key_bytes, 0, new.public_key_bytes),
                *(rotating.sign(challenge), new.sign(challenge)),
            ],
        )
    return told


def _changes(frame: pd.DataFrame, version: int, address: str) -> tuple[str, dict[str, str]]:
    row = frame[(frame["version"] == version) & (frame["address"] == address)]
    assert len(row) == 1, (version, address, frame[frame["version"] == version])
    return str(row["roles"].iloc[0]), json.loads(row["changes"].iloc[0])


def _without_apt(changes: dict[str, str]) -> dict[str, str]:
    return {key: delta for key, delta in changes.items() if key != APT}


def test_the_activity_counts_tokens_minted_sent_and_burnt(story: Story) -> None:
    t = story.txns
    frame = activity_to_frame(list(t.values()))
    roles, changes = _changes(frame, t["mint"].version, story.creator)
    assert (roles, _without_apt(changes)) == ("sender,recipient,write_set", {story.conch: "1"})
    roles, changes = _changes(frame, t["send"].version, story.creator)
    assert _without_apt(changes) == {story.conch: "-1"}
    roles, changes = _changes(frame, t["send"].version, story.other)
    assert (roles, changes) == ("recipient,write_set", {story.conch: "1"})
    _, changes = _changes(frame, t["burn"].version, story.creator)
    assert _without_apt(changes) == {story.cowrie: "-1"}
    _, changes = _changes(frame, t["describe"].version, story.creator)
    assert _without_apt(changes) == {}  # a mutation moves nothing


def test_the_activity_counts_token_v1_amounts(story: Story) -> None:
    t = story.txns
    frame = activity_to_frame(list(t.values()))
    _, changes = _changes(frame, t["v1_token"].version, story.creator)
    assert _without_apt(changes) == {story.relic: "2"}
    _, changes = _changes(frame, t["v1_send"].version, story.creator)
    assert _without_apt(changes) == {story.relic: "-1"}
    roles, changes = _changes(frame, t["v1_send"].version, story.other)
    # The deposit writes a table item of its TokenStore, at no address: received only.
    assert (roles, changes) == ("recipient", {story.relic: "1"})
    assert token_moves(t["v1_send"]) == {
        (story.creator, story.relic): -1,
        (story.other, story.relic): 1,
    }


def test_multisig_and_rotation_rows_have_no_token_changes(story: Story) -> None:
    t = story.txns
    frame = activity_to_frame([t["multisig"], t["propose"], t["rotate"]])
    assert set(frame["roles"].astype(str)) <= {"sender,write_set", "write_set"}
    for text in frame["changes"]:
        assert set(json.loads(text)) <= {APT}  # the gas alone


def test_the_balance_changes_keep_to_balances(story: Story) -> None:
    frame = balance_changes_to_frame(list(story.txns.values()))
    assert set(frame["asset"].astype(str)) == {APT}


EVENTS = {
    "0x1::object::Transfer": ("send", {"object": "conch", "from": "creator", "to": "other"}),
    "0x4::collection::Mint": ("mint", {"token": "conch"}),
    "0x4::collection::Burn": ("burn", {"token": "cowrie", "previous_owner": "creator"}),
    "0x4::token::Mutation": ("describe", {"mutated_field_name": "description"}),
    "0x3::token::TokenDeposit": ("v1_send", {"account": "other", "amount": 1}),
    "0x3::token::TokenWithdraw": ("v1_send", {"account": "creator", "amount": 1}),
    "0x3::token::Mint": ("v1_token", {"amount": 2}),
    "0x3::token_event_store::OptInTransfer": ("opt_in", {"opt_in": True}),
    "0x1::multisig_account::CreateTransaction": ("propose", {"multisig_account": "multisig"}),
    "0x1::account::KeyRotation": ("rotate", {}),
    "0x1::account::KeyRotationToPublicKey": ("rotate", {"public_key_scheme": 0}),
}


@pytest.mark.parametrize("event_type", sorted(EVENTS))
def test_typed_events_lay_out_every_event_kind(story: Story, event_type: str) -> None:
    step, expected = EVENTS[event_type]
    names = {
        "conch": story.conch,
        "cowrie": story.cowrie,
        "creator": story.creator,
        "other": story.other,
        "multisig": Address.parse(story.multisig).long,
    }
    with Client(story.node.url, cache=False) as client:
        typed = ledgerkit.typed_events(client, [story.txns[step]], event_type, cache=AbiCache())
    assert len(typed) == 1, typed
    row = typed.iloc[0]
    for column, value in expected.items():
        shown = row[column]
        if isinstance(value, bool):
            assert bool(shown) is value, column
        elif isinstance(value, int):
            assert int(shown) == value, column  # u64 columns are UInt64, u8 numbers
        else:
            assert shown == names[value] if value in names else shown == value, column
