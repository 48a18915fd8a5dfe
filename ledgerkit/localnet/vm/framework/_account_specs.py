"""The ``0x1::account`` module, declared: the account resource, key rotation with proofs,
the rotation capability offers and the originating address table.

Struct fields and function signatures follow the Aptos framework's ``account`` module;
the bodies are in :mod:`._asset_modules` (the account resource) and
:mod:`._account_rotation` (rotation).
"""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.vm.framework._abi import FunctionSpec, ModuleSpec, StructSpec
from ledgerkit.localnet.vm.framework._public_specs import ACCOUNT_PUBLIC, merged

__all__ = ["ACCOUNT"]

_DROP_STORE: Final = ("drop", "store")
_OPTION_ADDRESS: Final = "0x1::option::Option<address>"
S = StructSpec


def _entry(name: str, *params: str, visibility: str = "public") -> FunctionSpec:
    return FunctionSpec(name, params, entry=True, visibility=visibility)


def _view(name: str, params: tuple[str, ...], returns: str) -> FunctionSpec:
    return FunctionSpec(name, params, (returns,), view=True)


def _handle(event: str) -> str:
    return f"0x1::event::EventHandle<{event}>"


_STRUCTS: Final = (
    S(
        "Account",
        ("key", "store"),
        (
            ("authentication_key", "vector<u8>"),
            ("sequence_number", "u64"),
            ("guid_creation_num", "u64"),
            ("coin_register_events", _handle("0x1::account::CoinRegisterEvent")),
            ("key_rotation_events", _handle("0x1::account::KeyRotationEvent")),
            (
                "rotation_capability_offer",
                "0x1::account::CapabilityOffer<0x1::account::RotationCapability>",
            ),
            (
                "signer_capability_offer",
                "0x1::account::CapabilityOffer<0x1::account::SignerCapability>",
            ),
        ),
    ),
    S("CapabilityOffer", ("store",), (("for", _OPTION_ADDRESS),), ((),)),
    S("CoinRegisterEvent", _DROP_STORE, (("type_info", "0x1::type_info::TypeInfo"),)),
    S(
        "KeyRotation",
        _DROP_STORE,
        (
            ("account", "address"),
            ("old_authentication_key", "vector<u8>"),
            ("new_authentication_key", "vector<u8>"),
        ),
        is_event=True,
    ),
    S(
        "KeyRotationEvent",
        _DROP_STORE,
        (("old_authentication_key", "vector<u8>"), ("new_authentication_key", "vector<u8>")),
    ),
    S(
        "KeyRotationToPublicKey",
        _DROP_STORE,
        (
            ("account", "address"),
            ("verified_public_key_bit_map", "vector<u8>"),
            ("public_key_scheme", "u8"),
            ("public_key", "vector<u8>"),
            ("old_auth_key", "vector<u8>"),
            ("new_auth_key", "vector<u8>"),
        ),
        is_event=True,
    ),
    S("OriginatingAddress", ("key",), (("address_map", "0x1::table::Table<address, address>"),)),
    S("RotationCapability", _DROP_STORE, (("account", "address"),)),
    S(
        "RotationCapabilityOfferProofChallengeV2",
        ("drop",),
        (
            ("chain_id", "u8"),
            ("sequence_number", "u64"),
            ("source_address", "address"),
            ("recipient_address", "address"),
        ),
    ),
    S(
        "RotationProofChallenge",
        ("copy", "drop"),
        (
            ("sequence_number", "u64"),
            ("originator", "address"),
            ("current_auth_key", "address"),
            ("new_public_key", "vector<u8>"),
        ),
    ),
    S("SignerCapability", _DROP_STORE, (("account", "address"),)),
)

_FUNCTIONS: Final = (
    _view("exists_at", ("address",), "bool"),
    _view("get_authentication_key", ("address",), "vector<u8>"),
    _view("get_guid_next_creation_num", ("address",), "u64"),
    _view("get_rotation_capability_offer_for", ("address",), "address"),
    _view("get_sequence_number", ("address",), "u64"),
    _view("is_rotation_capability_offered", ("address",), "bool"),
    _entry("offer_rotation_capability", "&signer", "vector<u8>", "u8", "vector<u8>", "address"),
    _view("originating_address", ("address",), _OPTION_ADDRESS),
    _entry("revoke_any_rotation_capability", "&signer"),
    _entry("revoke_rotation_capability", "&signer", "address"),
    _entry(
        "rotate_authentication_key",
        "&signer",
        "u8",
        "vector<u8>",
        "u8",
        "vector<u8>",
        "vector<u8>",
        "vector<u8>",
    ),
    _entry("rotate_authentication_key_call", "&signer", "vector<u8>", visibility="private"),
    _entry(
        "rotate_authentication_key_from_public_key",
        "&signer",
        "u8",
        "vector<u8>",
        visibility="private",
    ),
    _entry(
        "rotate_authentication_key_with_rotation_capability",
        "&signer",
        "address",
        "u8",
        "vector<u8>",
        "vector<u8>",
    ),
)

ACCOUNT: Final = ModuleSpec(
    "account",
    structs=_STRUCTS,
    functions=merged(ACCOUNT_PUBLIC, *_FUNCTIONS),
    friends=("0x1::aptos_account", "0x1::coin", "0x1::object"),
)
