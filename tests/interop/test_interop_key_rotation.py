"""Key rotation and APT's supply through the official SDKs, on a node of this module's own.

* The Python SDK's ``rotate_key.py`` flow: ``RotationProofChallenge`` built and signed by
  the SDK, ``0x1::account::rotate_authentication_key`` from Ed25519 to Ed25519, then to a
  1-of-2 multi-Ed25519 key (``MultiSignature.from_key_map``).
* The Python SDK's ``read_aggregator.py`` flow: ``CoinInfo<AptosCoin>.supply`` read as an
  ``OptionalAggregator``.
* The TypeScript SDK's ``rotateAuthKey`` to an Ed25519 key and on to a multi-Ed25519
  account (signed, submitted, waited for), ``lookupOriginalAccountAddress`` and
  ``rotateAuthKeyUnverified``, under 6.3 and 7.3 (``ts/key_rotation.mjs``).

Expected authentication keys are SHA3-256 of the key bytes and the scheme byte, computed
here with hashlib; what the node holds is read over plain HTTP.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, Final, TypeVar, cast

import httpx
import pytest
from aptos_sdk import asymmetric_crypto, ed25519
from aptos_sdk.account import Account, RotationProofChallenge
from aptos_sdk.account_address import AccountAddress
from aptos_sdk.async_client import ApiError, RestClient
from aptos_sdk.authenticator import Authenticator
from aptos_sdk.bcs import Serializer
from aptos_sdk.transactions import EntryFunction, TransactionArgument, TransactionPayload
from ts_sdks import TsRunner, value

from ledgerkit.localnet import LocalNode

pytestmark = [pytest.mark.interop, pytest.mark.timeout(600)]

T = TypeVar("T")
APT: Final = "0x1::aptos_coin::AptosCoin"
COIN_INFO: Final = f"0x1::coin::CoinInfo<{APT}>"
U128_MAX: Final = 2**128 - 1
#: Which dev account funds whom: 0 the Python flow, 1 and 2 the TypeScript releases.
TS_FUNDER: Final = {"6.3": 1, "7.3": 2}


@pytest.fixture(scope="module")
def node(make_node: Callable[..., LocalNode]) -> LocalNode:
    return make_node(seed=41, blocks=6, services=False)


@pytest.fixture(scope="module")
def http(node: LocalNode) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=node.url, timeout=30.0) as client:
        yield client


def run(node: LocalNode, scenario: Callable[[RestClient], Awaitable[T]]) -> T:
    async def main() -> T:
        rest = RestClient(node.url)
        try:
            return await asyncio.wait_for(scenario(rest), timeout=120)
        finally:
            await rest.close()

    return asyncio.run(main())


def raw(http: httpx.Client, path: str) -> Any:
    answer = http.get(path)
    assert answer.status_code == 200, answer.text
    return answer.json()


def originating(http: httpx.Client, auth_key: bytes) -> Any:
    handle = raw(http, "/accounts/0x1/resource/0x1::account::OriginatingAddress")["data"][
        "address_map"
    ]["handle"]
    body = {"key_type": "address", "value_type": "address", "key": "0x" + auth_key.hex()}
    return http.post(f"/tables/{handle}/item", json=body)


# -- the Python SDK: rotate_key.py ------------------------------------------------------------


def rotation_payload(
    from_key: asymmetric_crypto.PublicKey,
    to_key: asymmetric_crypto.PublicKey,
    from_signature: asymmetric_crypto.Signature,
    to_signature: asymmetric_crypto.Signature,
) -> TransactionPayload:
    """``rotate_authentication_key``'s payload as the example builds it."""
    return TransactionPayload(
        EntryFunction.natural(
            "0x1::account",
            "rotate_authentication_key",
            [],
            [
                TransactionArgument(Authenticator.from_key(from_key), Serializer.u8),
                TransactionArgument(from_key, Serializer.struct),
                TransactionArgument(Authenticator.from_key(to_key), Serializer.u8),
                TransactionArgument(to_key, Serializer.struct),
                TransactionArgument(from_signature, Serializer.struct),
                TransactionArgument(to_signature, Serializer.struct),
            ],
        )
    )


async def _challenge(
    rest: RestClient, account: Account, new_key: asymmetric_crypto.PublicKey
) -> bytes:
    challenge = RotationProofChallenge(
        sequence_number=await rest.account_sequence_number(account.address()),
        originator=account.address(),
        current_auth_key=AccountAddress.from_str_relaxed(account.auth_key()),
        new_public_key=new_key,
    )
    s = Serializer()
    challenge.serialize(s)
    return s.output()


async def _submit(rest: RestClient, signer: Account, payload: TransactionPayload) -> str:
    signed = await rest.create_bcs_signed_transaction(signer, payload)
    txn_hash = await rest.submit_bcs_transaction(signed)
    await rest.wait_for_transaction(txn_hash)
    return txn_hash


def test_the_python_sdk_rotate_key_flow(node: LocalNode, http: httpx.Client) -> None:
    funder = node.dev_accounts[0]
    key = ed25519.PrivateKey.from_str(funder.private_key.secret_hex())
    sdk_funder = Account(AccountAddress.from_key(key.public_key()), key)
    alice, bob = Account.generate(), Account.generate()

    async def scenario(rest: RestClient) -> dict[str, Any]:
        await rest.wait_for_transaction(
            await rest.bcs_transfer(sdk_funder, alice.address(), 100_000_000)
        )
        # Ed25519 to Ed25519: Alice's address, Bob's key.
        message = await _challenge(rest, alice, bob.public_key())
        payload = rotation_payload(
            alice.public_key(), bob.public_key(), alice.sign(message), bob.sign(message)
        )
        first = await _submit(rest, alice, payload)
        after_first = await rest.account(alice.address())
        # Then to a 1-of-2 multi-Ed25519 key of Bob's key and Alice's first key.
        rotated = Account(alice.address(), bob.private_key)
        multi = ed25519.MultiPublicKey(
            [
                cast(ed25519.PublicKey, bob.public_key()),
                cast(ed25519.PublicKey, alice.public_key()),
            ],
            1,
        )
        message = await _challenge(rest, rotated, multi)
        to_signature = cast(ed25519.Signature, bob.sign(message))
        multi_signature = ed25519.MultiSignature.from_key_map(
            multi, [(cast(ed25519.PublicKey, bob.public_key()), to_signature)]
        )
        second = await _submit(
            rest,
            rotated,
            rotation_payload(bob.public_key(), multi, rotated.sign(message), multi_signature),
        )
        return {"first": first, "after_first": after_first, "second": second}

    done = run(node, scenario)
    bob_pk = bob.public_key().to_crypto_bytes()
    alice_pk = alice.public_key().to_crypto_bytes()
    bob_auth = hashlib.sha3_256(bob_pk + b"\x00").digest()
    assert done["after_first"]["authentication_key"] == "0x" + bob_auth.hex()
    first = raw(http, f"/transactions/by_hash/{done['first']}")
    assert first["success"], first["vm_status"]
    assert [e["type"] for e in first["events"] if "account" in e["type"]] == [
        "0x1::account::KeyRotation",
        "0x1::account::KeyRotationToPublicKey",
    ]
    second = raw(http, f"/transactions/by_hash/{done['second']}")
    assert second["success"], second["vm_status"]
    multi_auth = hashlib.sha3_256(bob_pk + alice_pk + b"\x01" + b"\x01").digest()
    account = raw(http, f"/accounts/{alice.address()}")
    assert account["authentication_key"] == "0x" + multi_auth.hex()
    assert account["sequence_number"] == "2"
    # Bob's key left the table; the multi-key maps to Alice's address.
    assert originating(http, bob_auth).status_code == 404
    assert originating(http, multi_auth).json() == str(alice.address())


# -- the Python SDK: read_aggregator.py -------------------------------------------------------


def test_the_python_sdk_reads_apt_supply_as_an_optional_aggregator(node: LocalNode) -> None:
    """The integer form, as a local network's genesis makes it: SDK releases that read it
    (0.12 and later) take ``integer.vec[0].value``; 0.11's ``aggregator_value`` reads only
    the parallel form and says so, as against any local network."""

    async def scenario(rest: RestClient) -> dict[str, Any]:
        resource = await rest.account_resource(AccountAddress.from_str("0x1"), COIN_INFO)
        try:
            total: Any = await rest.aggregator_value(
                AccountAddress.from_str("0x1"), COIN_INFO, ["supply"]
            )
        except ApiError as exc:
            total = str(exc)
        return {"resource": resource, "aggregator_value": total}

    done = run(node, scenario)
    (optional,) = done["resource"]["data"]["supply"]["vec"]
    assert optional["aggregator"] == {"vec": []}
    assert optional["integer"] == {"vec": [{"value": "0", "limit": str(U128_MAX)}]}
    answer = done["aggregator_value"]
    assert answer == 0 or "aggregator not found" in str(answer)


# -- the TypeScript SDK: rotateAuthKey and lookupOriginalAccountAddress -------------------------


def test_the_ts_sdk_rotates_and_looks_up(ts: TsRunner, node: LocalNode, http: httpx.Client) -> None:
    funder = node.dev_accounts[TS_FUNDER[ts.sdk.line]]
    results = ts.run("key_rotation.mjs", node.url, timeout=150, key=funder.private_key.secret_hex())
    accounts = value(results, "accounts")
    alice, bob = accounts["alice"], accounts["bob"]
    bob_pk = bytes.fromhex(accounts["bob_public_key"][2:])
    bob_auth = "0x" + hashlib.sha3_256(bob_pk + b"\x00").hexdigest()
    assert bob_auth == bob  # a legacy Ed25519 account's address is its authentication key
    assert value(results, "fund")["success"]
    rotate = value(results, "rotate")
    assert rotate["success"], rotate["vm_status"]
    committed = raw(http, f"/transactions/by_hash/{rotate['hash']}")
    assert committed["payload"]["function"] == "0x1::account::rotate_authentication_key"
    assert value(results, "auth_key") == bob_auth
    assert value(results, "lookup_new_key") == alice  # read before the next rotation
    transfer = value(results, "transfer_with_new_key")
    assert transfer["success"], transfer["vm_status"]
    assert raw(http, f"/transactions/by_hash/{transfer['hash']}")["sender"] == alice
    assert value(results, "lookup_unrotated_key") == str(funder.address)
    # On to a 1-of-2 multi-Ed25519 key, the SDK proving it with one of the two keys.
    multi = value(results, "multi")
    rotate_to_multi = value(results, "rotate_to_multi")
    assert rotate_to_multi["success"], rotate_to_multi["vm_status"]
    multi_pk = (
        bytes.fromhex(multi["carol_public_key"][2:])
        + bytes.fromhex(multi["dave_public_key"][2:])
        + b"\x01"
    )
    multi_auth = "0x" + hashlib.sha3_256(multi_pk + b"\x01").hexdigest()
    assert value(results, "multi_auth_key") == multi_auth
    assert raw(http, f"/accounts/{alice}")["authentication_key"] == multi_auth
    assert originating(http, bytes.fromhex(multi_auth[2:])).json() == alice
    assert originating(http, bytes.fromhex(bob_auth[2:])).status_code == 404
    # Without a proof (rotate_authentication_key_from_public_key): no table entry.
    unverified = value(results, "unverified")
    assert value(results, "rotate_unverified")["success"]
    committed = raw(http, f"/transactions/by_hash/{value(results, 'rotate_unverified')['hash']}")
    assert committed["payload"]["function"] == (
        "0x1::account::rotate_authentication_key_from_public_key"
    )
    erin = raw(http, f"/accounts/{unverified['erin']}")
    assert erin["authentication_key"] == unverified["frank"]
    assert originating(http, bytes.fromhex(unverified["frank"][2:])).status_code == 404
