"""Key rotation in ``0x1::account``: proofs of the current and the new key, the rotation
capability offers, and the originating address table at ``0x1``.

An account rotates its authentication key with ``rotate_authentication_key``: both the
current key and the new one sign the BCS of ``SignedMessage<RotationProofChallenge>``,
that is the challenge's ``TypeInfo`` (``0x1``, ``account``, ``RotationProofChallenge``)
then its fields (sequence number, originator, current authentication key as an address,
new public key). Keys are Ed25519 (scheme 0) or multi-Ed25519 (scheme 1); signatures are
checked strictly. The table ``OriginatingAddress.address_map`` then maps the new key to
the account's address (the key it replaces leaves the table), which is how wallets find
a rotated account from its key. ``rotate_authentication_key_call`` sets a key with no
proof, writes no table entry and emits no event, as in the framework.
"""

from __future__ import annotations

import hashlib
from typing import Any, Final

from ledgerkit._errors import LedgerError
from ledgerkit.bcs import AnyPublicKey, Deserializer, Serializer
from ledgerkit.keys import Ed25519PublicKey
from ledgerkit.localnet.vm.framework._asset_modules import ensure_account
from ledgerkit.localnet.vm.framework._context import ACCOUNT, Context, native
from ledgerkit.localnet.vm.framework._state_keys import table_handle
from ledgerkit.types import Address, MoveType

__all__ = [
    "ORIGINATING_ADDRESS",
    "ORIGINATING_ADDRESS_TABLE",
    "capability_offer_message",
    "rotation_proof_message",
]

#: Authentication key (as an address) -> originating address, for accounts that
#: rotated their key with a proof of the new key.
ORIGINATING_ADDRESS: Final = "0x1::account::OriginatingAddress"
ORIGINATING_ADDRESS_TABLE: Final = table_handle("account", "OriginatingAddress::address_map")
ED25519_SCHEME: Final = 0
MULTI_ED25519_SCHEME: Final = 1
SINGLE_KEY_SCHEME: Final = 2
MULTI_KEY_SCHEME: Final = 3
_FRAMEWORK: Final = Address.from_int(1)
_MAX_MULTI_KEYS: Final = 32
#: The bitmap a single Ed25519 key verifies with (the first key's bit).
_ED25519_BITMAP: Final = "0x80000000"


def _message(struct_name: str, fields: bytes) -> bytes:
    """BCS of ``SignedMessage<T>``: ``TypeInfo`` of ``0x1::account::<struct_name>``, then ``T``."""
    s = Serializer()
    s.address(_FRAMEWORK)
    s.string("account")
    s.string(struct_name)
    s.fixed_bytes(fields)
    return s.output()


def rotation_proof_message(
    sequence_number: int, originator: Address, current_auth_key: bytes, new_public_key: bytes
) -> bytes:
    """What both keys sign to rotate ``originator``'s authentication key."""
    s = Serializer()
    s.u64(sequence_number)
    s.address(originator)
    s.fixed_bytes(current_auth_key)
    s.var_bytes(new_public_key)
    return _message("RotationProofChallenge", s.output())


def capability_offer_message(
    chain_id: int, sequence_number: int, source: Address, recipient: Address
) -> bytes:
    """What an account's key signs to offer ``recipient`` its rotation capability."""
    s = Serializer()
    s.u8(chain_id)
    s.u64(sequence_number)
    s.address(source)
    s.address(recipient)
    return _message("RotationCapabilityOfferProofChallengeV2", s.output())


def _bytes(value: str) -> bytes:
    return bytes.fromhex(value[2:])


# -- keys and signatures ------------------------------------------------------------------------


def _public_key(ctx: Context, scheme: int, key: bytes) -> bytes:
    """The authentication key of ``key`` under ``scheme`` (its length checked as the
    ``ed25519`` / ``multi_ed25519`` modules check it)."""
    if scheme == ED25519_SCHEME:
        if len(key) != 32:
            raise ctx.abort("ed25519", 0x10001, "E_WRONG_PUBKEY_SIZE")
        return hashlib.sha3_256(key + b"\x00").digest()
    if len(key) % 32 != 1 or len(key) // 32 > _MAX_MULTI_KEYS:
        raise ctx.abort("multi_ed25519", 0x10001, "E_WRONG_PUBKEY_SIZE")
    return hashlib.sha3_256(key + b"\x01").digest()


def _ed25519_ok(key: bytes, message: bytes, signature: bytes) -> bool:
    try:
        return Ed25519PublicKey(key).verify(message, signature)
    except LedgerError:
        return False


def _multi_ok(key: bytes, message: bytes, signature: bytes) -> bool:
    keys = [key[i : i + 32] for i in range(0, len(key) - 1, 32)]
    threshold = key[-1]
    bitmap = int.from_bytes(signature[-4:], "big")
    signers = [i for i in range(32) if bitmap & (1 << (31 - i))]
    signatures = [signature[i : i + 64] for i in range(0, len(signature) - 4, 64)]
    if not 1 <= threshold <= len(keys) or len(signers) != len(signatures):
        return False
    if len(signers) < threshold or (signers and signers[-1] >= len(keys)):
        return False
    return all(
        _ed25519_ok(keys[i], message, sig) for i, sig in zip(signers, signatures, strict=True)
    )


def _verified_auth_key(
    ctx: Context, scheme: int, key: bytes, signature: bytes, message: bytes
) -> bytes:
    """The authentication key of ``key``, once ``signature`` of ``message`` verifies."""
    if scheme == ED25519_SCHEME:
        auth_key = _public_key(ctx, scheme, key)
        if len(signature) != 64:
            raise ctx.abort("ed25519", 0x10002, "E_WRONG_SIGNATURE_SIZE")
        verified = _ed25519_ok(key, message, signature)
    elif scheme == MULTI_ED25519_SCHEME:
        auth_key = _public_key(ctx, scheme, key)
        if len(signature) % 64 != 4:
            raise ctx.abort("multi_ed25519", 0x10002, "E_WRONG_SIGNATURE_SIZE")
        verified = _multi_ok(key, message, signature)
    else:
        raise ctx.abort("account", 0x1000C, "EINVALID_SCHEME")
    if not verified:
        raise ctx.abort("account", 0x10008, "EINVALID_PROOF_OF_KNOWLEDGE")
    return auth_key


def _bitmap(scheme: int, signature: bytes) -> str:
    return _ED25519_BITMAP if scheme == ED25519_SCHEME else "0x" + signature[-4:].hex()


def _replay_protected(ctx: Context) -> None:
    """A proof over a sequence number means nothing in an orderless transaction."""
    if ctx.orderless:
        raise ctx.abort("account", 0x3001F, "ESEQ_NUM_PROOF_REPLAYABLE_CONTEXT")


# -- the originating address table --------------------------------------------------------------


def _originating(ctx: Context, auth_key: bytes) -> str | None:
    found = ctx.table_get(ORIGINATING_ADDRESS_TABLE, "address", Address(auth_key).standard)
    return None if found is None else str(found)


def _set_key(ctx: Context, address: Address, account: Any, new_key: bytes) -> None:
    """Map ``new_key`` to ``address`` in the table (unmapping the current key), emit
    ``KeyRotation`` and set the key."""
    current = _bytes(account["authentication_key"])
    if new_key == current:
        raise ctx.abort("account", 0x10016, "ENEW_AUTH_KEY_SAME_AS_CURRENT")
    table = ORIGINATING_ADDRESS_TABLE
    mapped = _originating(ctx, current)
    if mapped is not None:
        ctx.table_delete(table, "address", Address(current).standard)
        if Address.parse(mapped) != address:
            raise ctx.abort("account", 0x6000D, "EINVALID_ORIGINATING_ADDRESS")
    if _originating(ctx, new_key) is not None:
        raise ctx.abort("account", 0x10015, "ENEW_AUTH_KEY_ALREADY_MAPPED")
    ctx.table_put(table, "address", "address", Address(new_key).standard, address.standard)
    ctx.emit_module(
        "0x1::account::KeyRotation",
        {
            "account": address.standard,
            "old_authentication_key": account["authentication_key"],
            "new_authentication_key": "0x" + new_key.hex(),
        },
    )
    account["authentication_key"] = "0x" + new_key.hex()
    ctx.put(address, ACCOUNT, account)


def _rotated_to(
    ctx: Context, address: Address, old_key: str, scheme: int, key: bytes, signature: bytes
) -> None:
    ctx.emit_module(
        "0x1::account::KeyRotationToPublicKey",
        {
            "account": address.standard,
            "verified_public_key_bit_map": _bitmap(scheme, signature),
            "public_key_scheme": scheme,
            "public_key": "0x" + key.hex(),
            "old_auth_key": old_key,
            "new_auth_key": ctx.resource(address, ACCOUNT)["authentication_key"],
        },
    )


# -- entry functions and views --------------------------------------------------------------------


@native("account", "rotate_authentication_key")
def _rotate_with_proofs(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    from_scheme, from_key, to_scheme, to_key = args[0], _bytes(args[1]), args[2], _bytes(args[3])
    cap_rotate_key, cap_update_table = _bytes(args[4]), _bytes(args[5])
    _replay_protected(ctx)
    address = ctx.signer
    account = ensure_account(ctx, address)
    old_key = account["authentication_key"]
    if from_scheme not in (ED25519_SCHEME, MULTI_ED25519_SCHEME):
        raise ctx.abort("account", 0x1000C, "EINVALID_SCHEME")
    if "0x" + _public_key(ctx, from_scheme, from_key).hex() != old_key:
        raise ctx.abort("account", 0x40007, "EWRONG_CURRENT_PUBLIC_KEY")
    message = rotation_proof_message(
        int(account["sequence_number"]), address, _bytes(old_key), to_key
    )
    _verified_auth_key(ctx, from_scheme, from_key, cap_rotate_key, message)
    new_key = _verified_auth_key(ctx, to_scheme, to_key, cap_update_table, message)
    _set_key(ctx, address, account, new_key)
    _rotated_to(ctx, address, old_key, to_scheme, to_key, cap_update_table)


@native("account", "rotate_authentication_key_with_rotation_capability")
def _rotate_with_capability(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    offerer, scheme, key, signature = Address.parse(args[0]), args[1], _bytes(args[2]), args[3]
    _replay_protected(ctx)
    account = ctx.resource(offerer, ACCOUNT)
    if account is None:
        raise ctx.abort("account", 0x60011, "EOFFERER_ADDRESS_DOES_NOT_EXIST")
    old_key = account["authentication_key"]
    if account["rotation_capability_offer"]["for"]["vec"] != [ctx.signer.standard]:
        raise ctx.abort("account", 0x60012, "ENO_SUCH_ROTATION_CAPABILITY_OFFER")
    delegate = ensure_account(ctx, ctx.signer)
    message = rotation_proof_message(
        int(delegate["sequence_number"]), offerer, _bytes(old_key), key
    )
    new_key = _verified_auth_key(ctx, scheme, key, _bytes(signature), message)
    _set_key(ctx, offerer, account, new_key)
    _rotated_to(ctx, offerer, old_key, scheme, key, _bytes(signature))


@native("account", "offer_rotation_capability")
def _offer(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    signature, scheme, key, recipient = _bytes(args[0]), args[1], _bytes(args[2]), args[3]
    _replay_protected(ctx)
    address = ctx.signer
    account = ensure_account(ctx, address)
    if scheme not in (ED25519_SCHEME, MULTI_ED25519_SCHEME):
        raise ctx.abort("account", 0x1000C, "EINVALID_SCHEME")
    if "0x" + _public_key(ctx, scheme, key).hex() != account["authentication_key"]:
        raise ctx.abort("account", 0x10007, "EWRONG_CURRENT_PUBLIC_KEY")
    message = capability_offer_message(
        ctx.chain_id, int(account["sequence_number"]), address, Address.parse(recipient)
    )
    _verified_auth_key(ctx, scheme, key, signature, message)
    account["rotation_capability_offer"] = {"for": {"vec": [Address.parse(recipient).standard]}}
    ctx.put(address, ACCOUNT, account)


def _offer_holder(ctx: Context, address: Address) -> Any:
    account = ctx.resource(address, ACCOUNT)
    if account is None:
        raise ctx.abort("account", 0x60012, "ENO_SUCH_ROTATION_CAPABILITY_OFFER")
    return account


@native("account", "revoke_rotation_capability")
def _revoke(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    account = _offer_holder(ctx, ctx.signer)
    if account["rotation_capability_offer"]["for"]["vec"] != [Address.parse(args[0]).standard]:
        raise ctx.abort("account", 0x60012, "ENO_SUCH_ROTATION_CAPABILITY_OFFER")
    account["rotation_capability_offer"] = {"for": {"vec": []}}
    ctx.put(ctx.signer, ACCOUNT, account)


@native("account", "revoke_any_rotation_capability")
def _revoke_any(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    account = _offer_holder(ctx, ctx.signer)
    if not account["rotation_capability_offer"]["for"]["vec"]:
        raise ctx.abort("option", 0x40001, "EOPTION_NOT_SET")
    account["rotation_capability_offer"] = {"for": {"vec": []}}
    ctx.put(ctx.signer, ACCOUNT, account)


@native("account", "rotate_authentication_key_call")
def _rotate_unchecked(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    new_key = args[0]
    if len(new_key) != 66:  # "0x" and 32 bytes
        raise ctx.abort("account", 0x10004, "EMALFORMED_AUTHENTICATION_KEY")
    account = ensure_account(ctx, ctx.signer)
    account["authentication_key"] = new_key
    ctx.put(ctx.signer, ACCOUNT, account)


def _unverified_auth_key(ctx: Context, scheme: int, key: bytes) -> bytes:
    """The authentication key of ``key`` under any of the four schemes, unverified."""
    if scheme in (ED25519_SCHEME, MULTI_ED25519_SCHEME):
        return _public_key(ctx, scheme, key)
    if scheme == SINGLE_KEY_SCHEME:
        try:
            AnyPublicKey.from_bcs(key)
        except LedgerError:
            raise ctx.abort("single_key", 0x10001) from None
        return hashlib.sha3_256(key + b"\x02").digest()
    if scheme == MULTI_KEY_SCHEME:
        try:
            d = Deserializer(key)
            keys = [AnyPublicKey.deserialize(d) for _ in range(d.uleb128())]
            threshold = d.u8()
            d.finish()
        except LedgerError:
            raise ctx.abort("multi_key", 0x10001) from None
        if not 1 <= threshold <= len(keys):
            raise ctx.abort("multi_key", 0x10001)
        return hashlib.sha3_256(key + b"\x03").digest()
    raise ctx.abort("account", 0x10018, "EUNRECOGNIZED_SCHEME")


@native("account", "rotate_authentication_key_from_public_key")
def _rotate_from_public_key(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    """Set the key a public key gives, with no proof: no table entry, and an event saying
    no key was verified (an all-zero bitmap)."""
    scheme, key = args[0], _bytes(args[1])
    account = ensure_account(ctx, ctx.signer)
    old_key = account["authentication_key"]
    new_key = "0x" + _unverified_auth_key(ctx, scheme, key).hex()
    account["authentication_key"] = new_key
    ctx.put(ctx.signer, ACCOUNT, account)
    ctx.emit_module(
        "0x1::account::KeyRotationToPublicKey",
        {
            "account": ctx.signer.standard,
            "verified_public_key_bit_map": "0x00000000",
            "public_key_scheme": scheme,
            "public_key": args[1],
            "old_auth_key": old_key,
            "new_auth_key": new_key,
        },
    )


@native("account", "originating_address")
def _originating_address(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    found = _originating(ctx, bytes(Address.parse(args[0])))
    return [{"vec": [] if found is None else [found]}]


@native("account", "is_rotation_capability_offered")
def _is_offered(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    account = ctx.resource(Address.parse(args[0]), ACCOUNT)
    return [account is not None and bool(account["rotation_capability_offer"]["for"]["vec"])]


@native("account", "get_rotation_capability_offer_for")
def _offer_for(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    offered = _offer_holder(ctx, Address.parse(args[0]))["rotation_capability_offer"]["for"]["vec"]
    if not offered:
        raise ctx.abort("account", 0x60013, "ENO_SIGNER_CAPABILITY_OFFERED")
    return [offered[0]]
