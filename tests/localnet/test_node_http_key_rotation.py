"""Key rotation with proofs (``0x1::account::rotate_authentication_key``), the rotation
capability, and the originating address table, on a node of its own over HTTP.

Challenges are written out here from the Move structs' layout (``SignedMessage<T>``: the
``TypeInfo`` of ``T`` as address, module name and struct name, then ``T``'s fields) and
signed with PyNaCl; authentication keys are SHA3-256 of the key bytes and the scheme
byte. Abort codes are ``category << 16 | reason`` from ``account.move``.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Any, Final

import httpx
import nacl.signing
import pytest
from node_http_helpers import ok, raw_transaction, submit, wait

from ledgerkit.bcs import (
    EntryFunction,
    MultiEd25519Authenticator,
    RawTransaction,
    SignedTransaction,
    TransactionPayloadV1,
)
from ledgerkit.keys import Ed25519PrivateKey
from ledgerkit.localnet import LocalNode
from ledgerkit.types import Address

SEED: Final = 29
ONE: Final = bytes(31) + b"\x01"
TABLE_RESOURCE: Final = "/accounts/0x1/resource/0x1::account::OriginatingAddress"


def uleb(n: int) -> bytes:
    out = b""
    while True:
        byte, n = n & 0x7F, n >> 7
        out += bytes([byte | (0x80 if n else 0)])
        if not n:
            return out


def rotation_challenge(seq: int, originator: bytes, current: bytes, new_pk: bytes) -> bytes:
    return (
        ONE
        + b"\x07account"
        + b"\x16RotationProofChallenge"
        + struct.pack("<Q", seq)
        + originator
        + current
        + uleb(len(new_pk))
        + new_pk
    )


def offer_challenge(chain_id: int, seq: int, source: bytes, recipient: bytes) -> bytes:
    return (
        ONE
        + b"\x07account"
        + b"\x27RotationCapabilityOfferProofChallengeV2"  # 39 characters
        + bytes([chain_id])
        + struct.pack("<Q", seq)
        + source
        + recipient
    )


def auth_key(pk: bytes, scheme: int) -> bytes:
    return hashlib.sha3_256(pk + bytes([scheme])).digest()


class Key:
    """An Ed25519 key made from a fixed seed byte, signing with PyNaCl."""

    def __init__(self, n: int) -> None:
        self.seed = bytes([n]) * 32
        self.nacl = nacl.signing.SigningKey(self.seed)
        self.pk = bytes(self.nacl.verify_key)

    def sign(self, message: bytes) -> bytes:
        return bytes(self.nacl.sign(message).signature)


class Sender:
    """An account address with the key that signs for it now."""

    def __init__(self, address: Address, key: Key) -> None:
        self.address = address
        self.private_key = Ed25519PrivateKey(key.seed)


@pytest.fixture(scope="module")
def node(make_node: Any) -> LocalNode:
    return make_node(seed=SEED, blocks=6, services=False)


@pytest.fixture(scope="module")
def http(node: LocalNode) -> Any:
    with httpx.Client(base_url=node.url, timeout=30.0) as client:
        yield client


def _fund(http: httpx.Client, node: LocalNode, key: Key) -> Address:
    """A new account at ``key``'s address with 1 APT, sent by a dev account."""
    address = Address(auth_key(key.pk, 0))
    dev = node.dev_accounts[0]
    txn = _run(http, dev, "0x1::aptos_account::transfer", [("address", address), ("u64", 10**8)])
    assert txn["success"], txn["vm_status"]
    return address


def _run(http: httpx.Client, account: Any, function: str, args: list[Any]) -> dict[str, Any]:
    signed = raw_transaction(http, account, function, args).sign(account.private_key)
    return wait(http, submit(http, signed)["hash"])


def _account(http: httpx.Client, address: Address) -> dict[str, Any]:
    return dict(ok(http.get(f"/accounts/{address}/resource/0x1::account::Account"))["data"])


def _table_lookup(http: httpx.Client, key: bytes) -> httpx.Response:
    handle = ok(http.get(TABLE_RESOURCE))["data"]["address_map"]["handle"]
    body = {"key_type": "address", "value_type": "address", "key": "0x" + key.hex()}
    return http.post(f"/tables/{handle}/item", json=body)


def _originating(http: httpx.Client, key: bytes) -> Any:
    body = {
        "function": "0x1::account::originating_address",
        "type_arguments": [],
        "arguments": ["0x" + key.hex()],
    }
    return ok(http.post("/view", json=body))


def _call_view(http: httpx.Client, name: str, address: Address) -> Any:
    body = {
        "function": f"0x1::account::{name}",
        "type_arguments": [],
        "arguments": [str(address)],
    }
    return ok(http.post("/view", json=body))


def _rotation_args(
    from_scheme: int, from_pk: bytes, to_scheme: int, to_pk: bytes, sig_from: bytes, sig_to: bytes
) -> list[tuple[str, Any]]:
    return [
        ("u8", from_scheme),
        ("vector<u8>", from_pk),
        ("u8", to_scheme),
        ("vector<u8>", to_pk),
        ("vector<u8>", sig_from),
        ("vector<u8>", sig_to),
    ]


def test_rotate_to_a_new_ed25519_key_with_both_proofs(http: httpx.Client, node: LocalNode) -> None:
    alice, bob = Key(0xA1), Key(0xB1)
    address = _fund(http, node, alice)
    seq = int(_account(http, address)["sequence_number"])
    challenge = rotation_challenge(seq, bytes(address), bytes(address), bob.pk)
    args = _rotation_args(0, alice.pk, 0, bob.pk, alice.sign(challenge), bob.sign(challenge))
    txn = _run(http, Sender(address, alice), "0x1::account::rotate_authentication_key", args)
    assert txn["success"], txn["vm_status"]
    new_key = "0x" + auth_key(bob.pk, 0).hex()
    assert _account(http, address)["authentication_key"] == new_key
    events = [e for e in txn["events"] if e["type"].startswith("0x1::account::")]
    assert events == [
        {
            "guid": {"creation_number": "0", "account_address": "0x0"},
            "sequence_number": "0",
            "type": "0x1::account::KeyRotation",
            "data": {
                "account": str(address),
                "old_authentication_key": str(address),
                "new_authentication_key": new_key,
            },
        },
        {
            "guid": {"creation_number": "0", "account_address": "0x0"},
            "sequence_number": "0",
            "type": "0x1::account::KeyRotationToPublicKey",
            "data": {
                "account": str(address),
                "verified_public_key_bit_map": "0x80000000",
                "public_key_scheme": 0,
                "public_key": "0x" + bob.pk.hex(),
                "old_auth_key": str(address),
                "new_auth_key": new_key,
            },
        },
    ]
    # The table maps the new key to the address; the view and a table read say so.
    assert ok(_table_lookup(http, auth_key(bob.pk, 0))) == str(address)
    assert _originating(http, auth_key(bob.pk, 0)) == [{"vec": [str(address)]}]
    assert _originating(http, bytes(address)) == [{"vec": []}]
    # The account keeps working under its new key, and its old key is refused.
    send = [("address", address), ("u64", 1)]
    after = _run(http, Sender(address, bob), "0x1::aptos_account::transfer", send)
    assert after["success"], after["vm_status"]
    stale = raw_transaction(http, Sender(address, alice), "0x1::aptos_account::transfer", send)
    answer = http.post(
        "/transactions",
        content=stale.sign(Ed25519PrivateKey(alice.seed)).to_bcs(),
        headers={"Content-Type": "application/x.aptos.signed_transaction+bcs"},
    )
    assert answer.status_code == 400
    assert answer.json()["vm_error_code"] == 2  # INVALID_AUTH_KEY


def test_rotate_twice_moves_the_table_entry(http: httpx.Client, node: LocalNode) -> None:
    """From one key to another and on to a 1-of-2 multi-Ed25519 key: the middle key leaves
    the table, the last one maps to the address."""
    first, second, third = Key(0xA2), Key(0xB2), Key(0xC2)
    address = _fund(http, node, first)
    seq = int(_account(http, address)["sequence_number"])
    challenge = rotation_challenge(seq, bytes(address), bytes(address), second.pk)
    args = _rotation_args(0, first.pk, 0, second.pk, first.sign(challenge), second.sign(challenge))
    txn = _run(http, Sender(address, first), "0x1::account::rotate_authentication_key", args)
    assert txn["success"], txn["vm_status"]
    multi_pk = second.pk + third.pk + b"\x01"
    middle = auth_key(second.pk, 0)
    challenge = rotation_challenge(seq + 1, bytes(address), middle, multi_pk)
    # The multi-key's proof: the second key (index 1) signs, bitmap bit 1 set.
    multi_sig = third.sign(challenge) + bytes([0x40, 0, 0, 0])
    args = _rotation_args(0, second.pk, 1, multi_pk, second.sign(challenge), multi_sig)
    txn = _run(http, Sender(address, second), "0x1::account::rotate_authentication_key", args)
    assert txn["success"], txn["vm_status"]
    last = auth_key(multi_pk, 1)
    assert _account(http, address)["authentication_key"] == "0x" + last.hex()
    (event,) = [e for e in txn["events"] if e["type"].endswith("KeyRotationToPublicKey")]
    assert event["data"]["verified_public_key_bit_map"] == "0x40000000"
    assert event["data"]["public_key_scheme"] == 1
    assert _table_lookup(http, middle).status_code == 404
    assert ok(_table_lookup(http, last)) == str(address)
    # A multi-Ed25519 transaction of the rotated account (one signature of two keys).
    raw = raw_transaction(
        http,
        Sender(address, third),
        "0x1::aptos_account::transfer",
        [("address", address), ("u64", 1)],
    )
    signed = SignedTransaction(
        raw,
        MultiEd25519Authenticator(
            (second.pk, third.pk), 1, (third.sign(raw.signing_message()),), bytes([0x40, 0, 0, 0])
        ),
    )
    assert wait(http, submit(http, signed)["hash"])["success"]


@pytest.mark.parametrize(
    ("case", "vm_status"),
    [
        ("wrong current key", "EWRONG_CURRENT_PUBLIC_KEY(0x40007)"),
        ("bad new proof", "EINVALID_PROOF_OF_KNOWLEDGE(0x10008)"),
        ("unknown scheme", "EINVALID_SCHEME(0x1000c)"),
        ("same key", "ENEW_AUTH_KEY_SAME_AS_CURRENT(0x10016)"),
        ("short key", "0x1::ed25519: E_WRONG_PUBKEY_SIZE(0x10001)"),
    ],
)
def test_rotation_aborts_with_the_framework_codes(
    http: httpx.Client, node: LocalNode, case: str, vm_status: str
) -> None:
    n = 0x10 + [
        "wrong current key",
        "bad new proof",
        "unknown scheme",
        "same key",
        "short key",
    ].index(case)
    owner, other = Key(n), Key(n + 0x40)
    address = _fund(http, node, owner)
    seq = int(_account(http, address)["sequence_number"])
    to_pk = owner.pk if case == "same key" else other.pk
    if case == "short key":  # the current key's proof holds: the new key's length fails
        to_pk = to_pk[:31]
    signer = owner if case == "same key" else other
    challenge = rotation_challenge(seq, bytes(address), bytes(address), to_pk)
    args = _rotation_args(
        0,
        other.pk if case == "wrong current key" else owner.pk,
        7 if case == "unknown scheme" else 0,
        to_pk,
        owner.sign(challenge),
        owner.sign(challenge) if case == "bad new proof" else signer.sign(challenge),
    )
    txn = _run(http, Sender(address, owner), "0x1::account::rotate_authentication_key", args)
    assert not txn["success"]
    assert vm_status in txn["vm_status"]
    assert _account(http, address)["authentication_key"] == str(address)


def test_a_delegate_rotates_with_the_offered_capability(
    http: httpx.Client, node: LocalNode
) -> None:
    owner, delegate, new = Key(0xA3), Key(0xB3), Key(0xC3)
    owner_address = _fund(http, node, owner)
    delegate_address = _fund(http, node, delegate)
    chain_id = int(ok(http.get("/"))["chain_id"])
    seq = int(_account(http, owner_address)["sequence_number"])
    offer = owner.sign(
        offer_challenge(chain_id, seq, bytes(owner_address), bytes(delegate_address))
    )
    args = [
        ("vector<u8>", offer),
        ("u8", 0),
        ("vector<u8>", owner.pk),
        ("address", delegate_address),
    ]
    txn = _run(http, Sender(owner_address, owner), "0x1::account::offer_rotation_capability", args)
    assert txn["success"], txn["vm_status"]
    offered = _account(http, owner_address)["rotation_capability_offer"]
    assert offered == {"for": {"vec": [str(delegate_address)]}}
    assert _call_view(http, "is_rotation_capability_offered", owner_address) == [True]
    assert _call_view(http, "get_rotation_capability_offer_for", owner_address) == [
        str(delegate_address)
    ]
    # The challenge carries the delegate's sequence number and the offerer's address.
    delegate_seq = int(_account(http, delegate_address)["sequence_number"])
    challenge = rotation_challenge(delegate_seq, bytes(owner_address), bytes(owner_address), new.pk)
    args = [
        ("address", owner_address),
        ("u8", 0),
        ("vector<u8>", new.pk),
        ("vector<u8>", new.sign(challenge)),
    ]
    txn = _run(
        http,
        Sender(delegate_address, delegate),
        "0x1::account::rotate_authentication_key_with_rotation_capability",
        args,
    )
    assert txn["success"], txn["vm_status"]
    assert _account(http, owner_address)["authentication_key"] == "0x" + auth_key(new.pk, 0).hex()
    assert _originating(http, auth_key(new.pk, 0)) == [{"vec": [str(owner_address)]}]
    # Revoked, the offer is gone; a second revoke finds none.
    revoke = [("address", delegate_address)]
    txn = _run(http, Sender(owner_address, new), "0x1::account::revoke_rotation_capability", revoke)
    assert txn["success"], txn["vm_status"]
    assert _account(http, owner_address)["rotation_capability_offer"] == {"for": {"vec": []}}
    assert _call_view(http, "is_rotation_capability_offered", owner_address) == [False]
    none = http.post(
        "/view",
        json={
            "function": "0x1::account::get_rotation_capability_offer_for",
            "type_arguments": [],
            "arguments": [str(owner_address)],
        },
    )
    assert none.status_code == 400
    assert "ENO_SIGNER_CAPABILITY_OFFERED(0x60013)" in none.json()["message"]
    txn = _run(http, Sender(owner_address, new), "0x1::account::revoke_rotation_capability", revoke)
    assert "ENO_SUCH_ROTATION_CAPABILITY_OFFER(0x60012)" in txn["vm_status"]


def test_rotate_authentication_key_call_sets_the_key_and_nothing_else(
    http: httpx.Client, node: LocalNode
) -> None:
    """No proof, no table entry, no event: the handle's counter stays 0."""
    owner, new = Key(0xA4), Key(0xB4)
    address = _fund(http, node, owner)
    new_key = auth_key(new.pk, 0)
    txn = _run(
        http,
        Sender(address, owner),
        "0x1::account::rotate_authentication_key_call",
        [("vector<u8>", new_key)],
    )
    assert txn["success"], txn["vm_status"]
    assert not [e for e in txn["events"] if e["type"].startswith("0x1::account::")]
    account = _account(http, address)
    assert account["authentication_key"] == "0x" + new_key.hex()
    assert account["key_rotation_events"]["counter"] == "0"
    assert _table_lookup(http, new_key).status_code == 404


def test_rotate_from_a_public_key_sets_an_unverified_single_key(
    http: httpx.Client, node: LocalNode
) -> None:
    """A single-key Ed25519 public key: BCS of ``AnyPublicKey::Ed25519`` (variant 0, then
    the key as a byte vector); its authentication key is SHA3-256 of that and 0x02."""
    owner, new = Key(0xA5), Key(0xB5)
    address = _fund(http, node, owner)
    any_key = b"\x00\x20" + new.pk
    txn = _run(
        http,
        Sender(address, owner),
        "0x1::account::rotate_authentication_key_from_public_key",
        [("u8", 2), ("vector<u8>", any_key)],
    )
    assert txn["success"], txn["vm_status"]
    new_key = "0x" + hashlib.sha3_256(any_key + b"\x02").hexdigest()
    assert _account(http, address)["authentication_key"] == new_key
    (event,) = [e for e in txn["events"] if e["type"].startswith("0x1::account::")]
    assert event["type"] == "0x1::account::KeyRotationToPublicKey"
    assert event["data"] == {
        "account": str(address),
        "verified_public_key_bit_map": "0x00000000",
        "public_key_scheme": 2,
        "public_key": "0x" + any_key.hex(),
        "old_auth_key": str(address),
        "new_auth_key": new_key,
    }
    assert _table_lookup(http, bytes.fromhex(new_key[2:])).status_code == 404
    other = Key(0xA6)
    other_address = _fund(http, node, other)
    bad = _run(
        http,
        Sender(other_address, other),
        "0x1::account::rotate_authentication_key_from_public_key",
        [("u8", 9), ("vector<u8>", new.pk)],
    )
    assert "EUNRECOGNIZED_SCHEME(0x10018)" in bad["vm_status"]


def test_an_orderless_rotation_is_refused(http: httpx.Client, node: LocalNode) -> None:
    """A proof over a sequence number could be replayed where the sequence number does not
    move: invalid_state(ESEQ_NUM_PROOF_REPLAYABLE_CONTEXT = 31) = 0x3001F."""
    owner, new = Key(0xA7), Key(0xB7)
    address = _fund(http, node, owner)
    challenge = rotation_challenge(0, bytes(address), bytes(address), new.pk)
    args = _rotation_args(0, owner.pk, 0, new.pk, owner.sign(challenge), new.sign(challenge))
    call = EntryFunction.build("0x1::account::rotate_authentication_key", [], args)
    ledger = node.ledger
    assert ledger is not None
    raw = RawTransaction(
        address,
        2**64 - 1,
        TransactionPayloadV1(call, replay_protection_nonce=0x5EED),
        200_000,
        100,
        ledger.now_usec() // 1_000_000 + 60,
        int(ok(http.get("/"))["chain_id"]),
    )
    txn = wait(http, submit(http, raw.sign(Ed25519PrivateKey(owner.seed)))["hash"])
    assert not txn["success"]
    assert "ESEQ_NUM_PROOF_REPLAYABLE_CONTEXT(0x3001f)" in txn["vm_status"]
    assert _account(http, address)["authentication_key"] == str(address)
