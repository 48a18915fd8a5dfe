"""The framework structs and functions the examples use, declared as in the Aptos
framework's sources (``0x1`` modules). A module that calls anything else declares it with
``ModuleBuilder.declare_function`` / ``declare_struct``."""

from __future__ import annotations

STRUCTS = (
    "0x1::string::String has copy, drop, store",
    "0x1::option::Option<Element> has copy, drop, store",
    "0x1::object::Object<phantom T> has copy, drop, store",
    "0x1::object::ObjectCore has key",
    "0x1::object::ConstructorRef has drop",
    "0x1::object::ExtendRef has drop, store",
    "0x1::object::TransferRef has drop, store",
    "0x1::coin::Coin<phantom CoinType> has store",
    "0x1::event::EventHandle<phantom T: drop + store> has store",
)

FUNCTIONS = (
    "0x1::signer::address_of(&signer): address",
    "0x1::string::utf8(vector<u8>): 0x1::string::String",
    "0x1::error::invalid_argument(u64): u64",
    "0x1::error::permission_denied(u64): u64",
    "0x1::error::not_found(u64): u64",
    "0x1::error::already_exists(u64): u64",
    "0x1::event::emit<T: store + drop>(T)",
    "0x1::managed_coin::initialize<CoinType>(&signer, vector<u8>, vector<u8>, u8, bool)",
    "0x1::managed_coin::mint<CoinType>(&signer, address, u64)",
    "0x1::managed_coin::register<CoinType>(&signer)",
    "0x1::coin::transfer<CoinType>(&signer, address, u64)",
    "0x1::coin::balance<CoinType>(address): u64",
    "0x1::object::create_named_object(&signer, vector<u8>): 0x1::object::ConstructorRef",
    "0x1::object::create_object(address): 0x1::object::ConstructorRef",
    "0x1::object::generate_signer(&0x1::object::ConstructorRef): signer",
    "0x1::object::address_from_constructor_ref(&0x1::object::ConstructorRef): address",
    "0x1::object::object_from_constructor_ref<T: key>"
    "(&0x1::object::ConstructorRef): 0x1::object::Object<T>",
    "0x1::object::transfer<T: key>(&signer, 0x1::object::Object<T>, address)",
    "0x1::object::owner<T: key>(0x1::object::Object<T>): address",
    "0x1::object::create_object_address(&address, vector<u8>): address",
    "0x1::aptos_account::transfer(&signer, address, u64)",
)
