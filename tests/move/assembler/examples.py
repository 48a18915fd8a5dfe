"""Example modules and a script, each next to the Move source it stands for, assembled the
way the Move compiler would compile that source (locals numbered parameters first,
``assert!`` as a branch to an abort block, ``vector::*`` as vector instructions, an empty
struct given the compiler's ``dummy_field: bool``).

Every builder takes the publishing address (``0xcafe`` in the sources shown), so a test
can publish the same module under any account.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ._builder import ModuleBuilder, ScriptBuilder
from ._code import CodeItem
from ._metadata import PackageModule, package_metadata

#: The address the sources are written with.
SOURCE_ADDRESS = "0xcafe"


@dataclass(frozen=True, slots=True)
class Example:
    """One example: its name, package name, Move source and builder."""

    name: str
    package: str
    source: str
    build: Callable[[str], ModuleBuilder | ScriptBuilder]

    def source_at(self, address: str) -> str:
        return self.source.replace(SOURCE_ADDRESS, address)

    def bytecode(self, address: str = SOURCE_ADDRESS) -> bytes:
        return self.build(address).to_bytes()

    def package_metadata(self, address: str = SOURCE_ADDRESS) -> bytes:
        """The ``PackageMetadata`` publishing this module alone (modules only)."""
        return package_metadata(self.package, [PackageModule(self.name, self.source_at(address))])


# -- (1) message board ------------------------------------------------------------------

MESSAGE_BOARD = """\
module 0xcafe::message_board {
    use std::error;
    use std::signer;
    use std::string::String;
    use aptos_framework::event;

    /// There is no message at this address.
    const E_NO_MESSAGE: u64 = 1;

    struct MessageHolder has key {
        message: String,
    }

    #[event]
    struct MessageChange has drop, store {
        account: address,
        from_message: String,
        to_message: String,
    }

    public entry fun set_message(account: &signer, message: String) acquires MessageHolder {
        let account_addr = signer::address_of(account);
        if (!exists<MessageHolder>(account_addr)) {
            move_to(account, MessageHolder { message })
        } else {
            let old_message_holder = borrow_global_mut<MessageHolder>(account_addr);
            let from_message = old_message_holder.message;
            event::emit(MessageChange {
                account: account_addr,
                from_message,
                to_message: copy message,
            });
            old_message_holder.message = message;
        }
    }

    #[view]
    public fun get_message(addr: address): String acquires MessageHolder {
        assert!(exists<MessageHolder>(addr), error::not_found(E_NO_MESSAGE));
        borrow_global<MessageHolder>(addr).message
    }
}
"""


def message_board(address: str = SOURCE_ADDRESS) -> ModuleBuilder:
    m = ModuleBuilder(address, "message_board")
    m.error("E_NO_MESSAGE", 1, "There is no message at this address.")
    m.struct("MessageHolder", "key", [("message", "0x1::string::String")])
    m.struct(
        "MessageChange",
        "drop, store",
        [
            ("account", "address"),
            ("from_message", "0x1::string::String"),
            ("to_message", "0x1::string::String"),
        ],
        event=True,
    )
    m.function(
        "set_message",
        visibility="public",
        entry=True,
        params=["account: &signer", "message: 0x1::string::String"],
        locals=[
            "account_addr: address",
            "old_message_holder: &mut MessageHolder",
            "from_message: 0x1::string::String",
        ],
        acquires=["MessageHolder"],
        code=[
            ("CopyLoc", "account"),  # let account_addr = signer::address_of(account);
            ("Call", "0x1::signer::address_of"),
            ("StLoc", "account_addr"),
            ("CopyLoc", "account_addr"),  # if (!exists<MessageHolder>(account_addr))
            ("Exists", "MessageHolder"),
            ("BrTrue", "update"),
            ("MoveLoc", "account"),  # move_to(account, MessageHolder { message })
            ("MoveLoc", "message"),
            ("Pack", "MessageHolder"),
            ("MoveTo", "MessageHolder"),
            "Ret",
            ("Label", "update"),
            # let old_message_holder = borrow_global_mut<...>(account_addr);
            ("CopyLoc", "account_addr"),
            ("MutBorrowGlobal", "MessageHolder"),
            ("StLoc", "old_message_holder"),
            ("CopyLoc", "old_message_holder"),  # let from_message = old_message_holder.message;
            "FreezeRef",
            ("ImmBorrowField", "MessageHolder.message"),
            "ReadRef",
            ("StLoc", "from_message"),
            ("MoveLoc", "account_addr"),  # event::emit(MessageChange { ... });
            ("MoveLoc", "from_message"),
            ("CopyLoc", "message"),
            ("Pack", "MessageChange"),
            ("Call", "0x1::event::emit<MessageChange>"),
            ("MoveLoc", "message"),  # old_message_holder.message = message;
            ("MoveLoc", "old_message_holder"),
            ("MutBorrowField", "MessageHolder.message"),
            "WriteRef",
            "Ret",
        ],
    )
    m.function(
        "get_message",
        visibility="public",
        view=True,
        params=["addr: address"],
        returns=["0x1::string::String"],
        acquires=["MessageHolder"],
        code=[
            ("CopyLoc", "addr"),  # assert!(exists<MessageHolder>(addr), ...);
            ("Exists", "MessageHolder"),
            ("BrFalse", "missing"),
            ("MoveLoc", "addr"),  # borrow_global<MessageHolder>(addr).message
            ("ImmBorrowGlobal", "MessageHolder"),
            ("ImmBorrowField", "MessageHolder.message"),
            "ReadRef",
            "Ret",
            ("Label", "missing"),
            ("LdU64", 1),  # error::not_found(E_NO_MESSAGE)
            ("Call", "0x1::error::not_found"),
            "Abort",
        ],
    )
    return m


# -- (2) counter with events ------------------------------------------------------------

COUNTER = """\
module 0xcafe::counter {
    use std::signer;
    use aptos_framework::event;

    struct Counter has key {
        value: u64,
    }

    #[event]
    struct Incremented has drop, store {
        account: address,
        value: u64,
    }

    public entry fun increment(account: &signer) acquires Counter {
        let addr = signer::address_of(account);
        if (!exists<Counter>(addr)) {
            move_to(account, Counter { value: 0 });
        };
        let counter = borrow_global_mut<Counter>(addr);
        counter.value = counter.value + 1;
        event::emit(Incremented { account: addr, value: counter.value });
    }

    #[view]
    public fun get(addr: address): u64 acquires Counter {
        if (!exists<Counter>(addr)) return 0;
        borrow_global<Counter>(addr).value
    }
}
"""


def counter(address: str = SOURCE_ADDRESS) -> ModuleBuilder:
    m = ModuleBuilder(address, "counter")
    m.struct("Counter", "key", [("value", "u64")])
    m.struct("Incremented", "drop, store", [("account", "address"), ("value", "u64")], event=True)
    m.function(
        "increment",
        visibility="public",
        entry=True,
        params=["account: &signer"],
        locals=["addr: address", "counter: &mut Counter"],
        acquires=["Counter"],
        code=[
            ("CopyLoc", "account"),  # let addr = signer::address_of(account);
            ("Call", "0x1::signer::address_of"),
            ("StLoc", "addr"),
            ("CopyLoc", "addr"),  # if (!exists<Counter>(addr))
            ("Exists", "Counter"),
            ("BrTrue", "exists"),
            ("CopyLoc", "account"),  # move_to(account, Counter { value: 0 });
            ("LdU64", 0),
            ("Pack", "Counter"),
            ("MoveTo", "Counter"),
            ("Label", "exists"),
            ("CopyLoc", "addr"),  # let counter = borrow_global_mut<Counter>(addr);
            ("MutBorrowGlobal", "Counter"),
            ("StLoc", "counter"),
            ("CopyLoc", "counter"),  # counter.value = counter.value + 1;
            "FreezeRef",
            ("ImmBorrowField", "Counter.value"),
            "ReadRef",
            ("LdU64", 1),
            "Add",
            ("CopyLoc", "counter"),
            ("MutBorrowField", "Counter.value"),
            "WriteRef",
            # event::emit(Incremented { account: addr, value: counter.value });
            ("MoveLoc", "addr"),
            ("MoveLoc", "counter"),
            "FreezeRef",
            ("ImmBorrowField", "Counter.value"),
            "ReadRef",
            ("Pack", "Incremented"),
            ("Call", "0x1::event::emit<Incremented>"),
            "Ret",
        ],
    )
    m.function(
        "get",
        visibility="public",
        view=True,
        params=["addr: address"],
        returns=["u64"],
        acquires=["Counter"],
        code=[
            ("CopyLoc", "addr"),  # if (!exists<Counter>(addr)) return 0;
            ("Exists", "Counter"),
            ("BrTrue", "read"),
            ("LdU64", 0),
            "Ret",
            ("Label", "read"),
            ("MoveLoc", "addr"),  # borrow_global<Counter>(addr).value
            ("ImmBorrowGlobal", "Counter"),
            ("ImmBorrowField", "Counter.value"),
            "ReadRef",
            "Ret",
        ],
    )
    return m


# -- (3) a coin of its own --------------------------------------------------------------

MOON_COIN = """\
module 0xcafe::moon_coin {
    use std::signer;
    use aptos_framework::managed_coin;

    struct MoonCoin {}

    public entry fun launch(account: &signer, amount: u64) {
        managed_coin::initialize<MoonCoin>(account, b"Moon Coin", b"MOON", 6, false);
        managed_coin::register<MoonCoin>(account);
        managed_coin::mint<MoonCoin>(account, signer::address_of(account), amount);
    }
}
"""


def moon_coin(address: str = SOURCE_ADDRESS) -> ModuleBuilder:
    m = ModuleBuilder(address, "moon_coin")
    # An empty struct gets one field from the compiler: the format has no empty structs.
    m.struct("MoonCoin", (), [("dummy_field", "bool")])
    m.function(
        "launch",
        visibility="public",
        entry=True,
        params=["account: &signer", "amount: u64"],
        code=[
            ("CopyLoc", "account"),  # managed_coin::initialize<MoonCoin>(account, ...);
            ("LdConst", "vector<u8>", b"Moon Coin"),
            ("LdConst", "vector<u8>", b"MOON"),
            ("LdU8", 6),
            "LdFalse",
            ("Call", "0x1::managed_coin::initialize<MoonCoin>"),
            ("CopyLoc", "account"),  # managed_coin::register<MoonCoin>(account);
            ("Call", "0x1::managed_coin::register<MoonCoin>"),
            # managed_coin::mint<MoonCoin>(account, address_of(account), n);
            ("CopyLoc", "account"),
            ("MoveLoc", "account"),
            ("Call", "0x1::signer::address_of"),
            ("MoveLoc", "amount"),
            ("Call", "0x1::managed_coin::mint<MoonCoin>"),
            "Ret",
        ],
    )
    return m


# -- (4) a generic container ------------------------------------------------------------

CONTAINER = """\
module 0xcafe::container {
    use std::signer;
    use std::vector;

    struct Box<T: store> has key {
        items: vector<T>,
    }

    public fun put<T: store>(account: &signer, item: T) acquires Box {
        let addr = signer::address_of(account);
        if (!exists<Box<T>>(addr)) {
            move_to(account, Box<T> { items: vector::empty() });
        };
        vector::push_back(&mut borrow_global_mut<Box<T>>(addr).items, item);
    }

    public fun take<T: store>(account: &signer): T acquires Box {
        let box = borrow_global_mut<Box<T>>(signer::address_of(account));
        vector::pop_back(&mut box.items)
    }

    #[view]
    public fun size<T: store>(addr: address): u64 acquires Box {
        if (!exists<Box<T>>(addr)) return 0;
        vector::length(&borrow_global<Box<T>>(addr).items)
    }

    public entry fun put_number(account: &signer, n: u64) acquires Box {
        put<u64>(account, n)
    }
}
"""


def container(address: str = SOURCE_ADDRESS) -> ModuleBuilder:
    m = ModuleBuilder(address, "container")
    m.struct("Box", "key", [("items", "vector<T>")], type_params=["T: store"])
    m.function(
        "put",
        visibility="public",
        type_params=["T: store"],
        params=["account: &signer", "item: T"],
        locals=["addr: address"],
        acquires=["Box"],
        code=[
            ("CopyLoc", "account"),  # let addr = signer::address_of(account);
            ("Call", "0x1::signer::address_of"),
            ("StLoc", "addr"),
            ("CopyLoc", "addr"),  # if (!exists<Box<T>>(addr))
            ("Exists", "Box<T>"),
            ("BrTrue", "push"),
            ("CopyLoc", "account"),  # move_to(account, Box<T> { items: vector::empty() });
            ("VecPack", "T", 0),
            ("Pack", "Box<T>"),
            ("MoveTo", "Box<T>"),
            ("Label", "push"),
            # vector::push_back(&mut borrow_global_mut<Box<T>>(addr).items, item);
            ("MoveLoc", "addr"),
            ("MutBorrowGlobal", "Box<T>"),
            ("MutBorrowField", "Box<T>.items"),
            ("MoveLoc", "item"),
            ("VecPushBack", "T"),
            "Ret",
        ],
    )
    m.function(
        "take",
        visibility="public",
        type_params=["T: store"],
        params=["account: &signer"],
        returns=["T"],
        acquires=["Box"],
        code=[
            ("MoveLoc", "account"),  # borrow_global_mut<Box<T>>(signer::address_of(account))
            ("Call", "0x1::signer::address_of"),
            ("MutBorrowGlobal", "Box<T>"),
            ("MutBorrowField", "Box<T>.items"),  # vector::pop_back(&mut box.items)
            ("VecPopBack", "T"),
            "Ret",
        ],
    )
    m.function(
        "size",
        visibility="public",
        view=True,
        type_params=["T: store"],
        params=["addr: address"],
        returns=["u64"],
        acquires=["Box"],
        code=[
            ("CopyLoc", "addr"),  # if (!exists<Box<T>>(addr)) return 0;
            ("Exists", "Box<T>"),
            ("BrTrue", "count"),
            ("LdU64", 0),
            "Ret",
            ("Label", "count"),
            ("MoveLoc", "addr"),  # vector::length(&borrow_global<Box<T>>(addr).items)
            ("ImmBorrowGlobal", "Box<T>"),
            ("ImmBorrowField", "Box<T>.items"),
            ("VecLen", "T"),
            "Ret",
        ],
    )
    m.function(
        "put_number",
        visibility="public",
        entry=True,
        params=["account: &signer", "n: u64"],
        acquires=["Box"],
        code=[("MoveLoc", "account"), ("MoveLoc", "n"), ("Call", "put<u64>"), "Ret"],
    )
    return m


# -- (5) objects: create, fill and transfer ---------------------------------------------

OBJECTS = """\
module 0xcafe::notes {
    use std::string::String;
    use aptos_framework::object;

    struct Note has key {
        text: String,
    }

    public entry fun create_note(creator: &signer, seed: vector<u8>, text: String, to: address) {
        let constructor_ref = object::create_named_object(creator, seed);
        let object_signer = object::generate_signer(&constructor_ref);
        move_to(&object_signer, Note { text });
        let note = object::object_from_constructor_ref<Note>(&constructor_ref);
        object::transfer(creator, note, to);
    }

    #[view]
    public fun note_address(creator: address, seed: vector<u8>): address {
        object::create_object_address(&creator, seed)
    }
}
"""


def objects(address: str = SOURCE_ADDRESS) -> ModuleBuilder:
    m = ModuleBuilder(address, "notes")
    m.struct("Note", "key", [("text", "0x1::string::String")])
    m.function(
        "create_note",
        visibility="public",
        entry=True,
        params=["creator: &signer", "seed: vector<u8>", "text: 0x1::string::String", "to: address"],
        locals=[
            "constructor_ref: 0x1::object::ConstructorRef",
            "object_signer: signer",
            "note: 0x1::object::Object<Note>",
        ],
        code=[
            # let constructor_ref = object::create_named_object(creator, seed);
            ("CopyLoc", "creator"),
            ("MoveLoc", "seed"),
            ("Call", "0x1::object::create_named_object"),
            ("StLoc", "constructor_ref"),
            # let object_signer = object::generate_signer(&constructor_ref);
            ("ImmBorrowLoc", "constructor_ref"),
            ("Call", "0x1::object::generate_signer"),
            ("StLoc", "object_signer"),
            ("ImmBorrowLoc", "object_signer"),  # move_to(&object_signer, Note { text });
            ("MoveLoc", "text"),
            ("Pack", "Note"),
            ("MoveTo", "Note"),
            # let note = object::object_from_constructor_ref<Note>(&...);
            ("ImmBorrowLoc", "constructor_ref"),
            ("Call", "0x1::object::object_from_constructor_ref<Note>"),
            ("StLoc", "note"),
            ("MoveLoc", "creator"),  # object::transfer(creator, note, to);
            ("MoveLoc", "note"),
            ("MoveLoc", "to"),
            ("Call", "0x1::object::transfer<Note>"),
            "Ret",
        ],
    )
    m.function(
        "note_address",
        visibility="public",
        view=True,
        params=["creator: address", "seed: vector<u8>"],
        returns=["address"],
        code=[
            ("ImmBorrowLoc", "creator"),  # object::create_object_address(&creator, seed)
            ("MoveLoc", "seed"),
            ("Call", "0x1::object::create_object_address"),
            "Ret",
        ],
    )
    return m


# -- (6) named errors -------------------------------------------------------------------

VAULT = """\
module 0xcafe::vault {
    use std::error;
    use std::signer;

    /// The caller is not the vault's owner.
    const E_NOT_OWNER: u64 = 1;
    /// The vault holds less than the amount asked for.
    const E_INSUFFICIENT_BALANCE: u64 = 2;
    /// There is no vault at this address.
    const E_NO_VAULT: u64 = 3;

    struct Vault has key {
        owner: address,
        balance: u64,
    }

    public entry fun open(account: &signer, amount: u64) {
        move_to(account, Vault { owner: signer::address_of(account), balance: amount })
    }

    public entry fun withdraw(account: &signer, vault_addr: address, amount: u64) acquires Vault {
        assert!(exists<Vault>(vault_addr), error::not_found(E_NO_VAULT));
        let vault = borrow_global_mut<Vault>(vault_addr);
        assert!(vault.owner == signer::address_of(account), error::permission_denied(E_NOT_OWNER));
        assert!(vault.balance >= amount, error::invalid_argument(E_INSUFFICIENT_BALANCE));
        vault.balance = vault.balance - amount;
    }
}
"""

#: The vault's abort codes (``error::permission_denied(E_NOT_OWNER)`` aborts with
#: 0x5_0001: the category in the third byte, the reason in the low two).
E_NOT_OWNER = 1
E_INSUFFICIENT_BALANCE = 2
E_NO_VAULT = 3


def vault(address: str = SOURCE_ADDRESS) -> ModuleBuilder:
    m = ModuleBuilder(address, "vault")
    m.error("E_NOT_OWNER", E_NOT_OWNER, "The caller is not the vault's owner.")
    m.error(
        "E_INSUFFICIENT_BALANCE",
        E_INSUFFICIENT_BALANCE,
        "The vault holds less than the amount asked for.",
    )
    m.error("E_NO_VAULT", E_NO_VAULT, "There is no vault at this address.")
    m.struct("Vault", "key", [("owner", "address"), ("balance", "u64")])
    m.function(
        "open",
        visibility="public",
        entry=True,
        params=["account: &signer", "amount: u64"],
        code=[
            ("CopyLoc", "account"),  # move_to(account, Vault { owner: address_of(account), ... })
            ("MoveLoc", "account"),
            ("Call", "0x1::signer::address_of"),
            ("MoveLoc", "amount"),
            ("Pack", "Vault"),
            ("MoveTo", "Vault"),
            "Ret",
        ],
    )
    m.function(
        "withdraw",
        visibility="public",
        entry=True,
        params=["account: &signer", "vault_addr: address", "amount: u64"],
        locals=["vault: &mut Vault"],
        acquires=["Vault"],
        code=[
            # assert!(exists<Vault>(vault_addr), error::not_found(E_NO_VAULT));
            ("CopyLoc", "vault_addr"),
            ("Exists", "Vault"),
            ("BrFalse", "no_vault"),
            ("MoveLoc", "vault_addr"),  # let vault = borrow_global_mut<Vault>(vault_addr);
            ("MutBorrowGlobal", "Vault"),
            ("StLoc", "vault"),
            ("CopyLoc", "vault"),  # assert!(vault.owner == signer::address_of(account), ...);
            "FreezeRef",
            ("ImmBorrowField", "Vault.owner"),
            "ReadRef",
            ("MoveLoc", "account"),
            ("Call", "0x1::signer::address_of"),
            "Eq",
            ("BrFalse", "not_owner"),
            ("CopyLoc", "vault"),  # assert!(vault.balance >= amount, ...);
            "FreezeRef",
            ("ImmBorrowField", "Vault.balance"),
            "ReadRef",
            ("CopyLoc", "amount"),
            "Ge",
            ("BrFalse", "insufficient"),
            ("CopyLoc", "vault"),  # vault.balance = vault.balance - amount;
            "FreezeRef",
            ("ImmBorrowField", "Vault.balance"),
            "ReadRef",
            ("MoveLoc", "amount"),
            "Sub",
            ("MoveLoc", "vault"),
            ("MutBorrowField", "Vault.balance"),
            "WriteRef",
            "Ret",
            ("Label", "no_vault"),
            ("LdU64", E_NO_VAULT),
            ("Call", "0x1::error::not_found"),
            "Abort",
            ("Label", "not_owner"),
            ("LdU64", E_NOT_OWNER),
            ("Call", "0x1::error::permission_denied"),
            "Abort",
            ("Label", "insufficient"),
            ("LdU64", E_INSUFFICIENT_BALANCE),
            ("Call", "0x1::error::invalid_argument"),
            "Abort",
        ],
    )
    return m


# -- (7) a script with two signers and a type argument ----------------------------------

TWO_SIGNER_TRANSFER = """\
script {
    use std::signer;
    use aptos_framework::coin;

    fun main<CoinType>(a: &signer, b: &signer, amount: u64) {
        coin::transfer<CoinType>(a, signer::address_of(b), amount)
    }
}
"""


def two_signer_transfer(address: str = SOURCE_ADDRESS) -> ScriptBuilder:
    del address  # a script is published nowhere
    return ScriptBuilder(
        type_params=["CoinType"],
        params=["a: &signer", "b: &signer", "amount: u64"],
        code=[
            ("MoveLoc", "a"),  # coin::transfer<CoinType>(a, signer::address_of(b), amount)
            ("MoveLoc", "b"),
            ("Call", "0x1::signer::address_of"),
            ("MoveLoc", "amount"),
            ("Call", "0x1::coin::transfer<CoinType>"),
            "Ret",
        ],
    )


def set_message_script(board: str) -> ScriptBuilder:
    """``script { fun main(account: &signer, message: String) {
    message_board::set_message(account, message) } }``, calling the message board
    published at ``board``."""
    script = ScriptBuilder(
        params=["account: &signer", "message: 0x1::string::String"],
        code=[
            ("MoveLoc", "account"),
            ("MoveLoc", "message"),
            ("Call", f"{board}::message_board::set_message"),
            "Ret",
        ],
    )
    script.declare_function(f"{board}::message_board::set_message(&signer, 0x1::string::String)")
    return script


# -- (8) a fungible asset issuer --------------------------------------------------------

FA_COIN = """\
module 0xcafe::{module} {{
    use std::error;
    use std::option;
    use std::signer;
    use std::string::utf8;
    use aptos_framework::fungible_asset::{{Self, BurnRef, Metadata, MintRef, TransferRef}};
    use aptos_framework::object::{{Self, Object}};
    use aptos_framework::primary_fungible_store;

    /// Only the owner of the asset's metadata object may mint, move, burn or freeze.
    const ENOT_OWNER: u64 = 1;
    /// The asset's symbol, also the seed of its metadata object.
    const ASSET_SYMBOL: vector<u8> = b"{symbol}";

    /// The asset's refs, kept on its metadata object.
    struct ManagedFungibleAsset has key {{
        mint_ref: MintRef,
        transfer_ref: TransferRef,
        burn_ref: BurnRef,
    }}

    /// Runs once, when the module is first published: the asset's metadata object.
    fun init_module(admin: &signer) {{
        let constructor_ref = &object::create_named_object(admin, ASSET_SYMBOL);
        primary_fungible_store::create_primary_store_enabled_fungible_asset(
            constructor_ref,
            option::none(),
            utf8(b"{name}"),
            utf8(ASSET_SYMBOL),
            {decimals},
            utf8(b"{icon_uri}"),
            utf8(b"{project_uri}"),
        );
        let mint_ref = fungible_asset::generate_mint_ref(constructor_ref);
        let burn_ref = fungible_asset::generate_burn_ref(constructor_ref);
        let transfer_ref = fungible_asset::generate_transfer_ref(constructor_ref);
        let metadata_signer = object::generate_signer(constructor_ref);
        move_to(&metadata_signer, ManagedFungibleAsset {{ mint_ref, transfer_ref, burn_ref }});
    }}

    #[view]
    public fun get_metadata(): Object<Metadata> {{
        let asset_address = object::create_object_address(&@0xcafe, ASSET_SYMBOL);
        object::address_to_object<Metadata>(asset_address)
    }}

    public entry fun mint(admin: &signer, to: address, amount: u64) acquires ManagedFungibleAsset {{
        let asset = get_metadata();
        let refs = authorized_borrow_refs(admin, asset);
        let to_wallet = primary_fungible_store::ensure_primary_store_exists(to, asset);
        let fa = fungible_asset::mint(&refs.mint_ref, amount);
        fungible_asset::deposit_with_ref(&refs.transfer_ref, to_wallet, fa);
    }}

    public entry fun transfer(admin: &signer, from: address, to: address, amount: u64)
    acquires ManagedFungibleAsset {{
        let asset = get_metadata();
        let transfer_ref = &authorized_borrow_refs(admin, asset).transfer_ref;
        let from_wallet = primary_fungible_store::primary_store(from, asset);
        let to_wallet = primary_fungible_store::ensure_primary_store_exists(to, asset);
        fungible_asset::transfer_with_ref(transfer_ref, from_wallet, to_wallet, amount);
    }}

    public entry fun burn(admin: &signer, from: address, amount: u64)
    acquires ManagedFungibleAsset {{
        let asset = get_metadata();
        let burn_ref = &authorized_borrow_refs(admin, asset).burn_ref;
        let from_wallet = primary_fungible_store::primary_store(from, asset);
        fungible_asset::burn_from(burn_ref, from_wallet, amount);
    }}

    public entry fun freeze_account(admin: &signer, account: address)
    acquires ManagedFungibleAsset {{
        set_frozen(admin, account, true)
    }}

    public entry fun unfreeze_account(admin: &signer, account: address)
    acquires ManagedFungibleAsset {{
        set_frozen(admin, account, false)
    }}

    fun set_frozen(admin: &signer, account: address, frozen: bool) acquires ManagedFungibleAsset {{
        let asset = get_metadata();
        let transfer_ref = &authorized_borrow_refs(admin, asset).transfer_ref;
        let wallet = primary_fungible_store::ensure_primary_store_exists(account, asset);
        fungible_asset::set_frozen_flag(transfer_ref, wallet, frozen);
    }}

    fun authorized_borrow_refs(owner: &signer, asset: Object<Metadata>): &ManagedFungibleAsset
    acquires ManagedFungibleAsset {{
        assert!(
            object::is_owner(asset, signer::address_of(owner)),
            error::permission_denied(ENOT_OWNER),
        );
        borrow_global<ManagedFungibleAsset>(object::object_address(&asset))
    }}
}}
"""

#: The issuer module's abort code: ``error::permission_denied(ENOT_OWNER)`` is 0x5_0001.
ENOT_OWNER = 1

_META = "0x1::object::Object<0x1::fungible_asset::Metadata>"
_STORE = "0x1::object::Object<0x1::fungible_asset::FungibleStore>"
_FA_DECLARATIONS = (
    "0x1::option::none<Element>(): 0x1::option::Option<Element>",
    "0x1::primary_fungible_store::create_primary_store_enabled_fungible_asset"
    "(&0x1::object::ConstructorRef, 0x1::option::Option<u128>, 0x1::string::String,"
    " 0x1::string::String, u8, 0x1::string::String, 0x1::string::String)",
    "0x1::fungible_asset::generate_mint_ref"
    "(&0x1::object::ConstructorRef): 0x1::fungible_asset::MintRef",
    "0x1::fungible_asset::generate_burn_ref"
    "(&0x1::object::ConstructorRef): 0x1::fungible_asset::BurnRef",
    "0x1::fungible_asset::generate_transfer_ref"
    "(&0x1::object::ConstructorRef): 0x1::fungible_asset::TransferRef",
    "0x1::object::address_to_object<T: key>(address): 0x1::object::Object<T>",
    "0x1::object::object_address<T: key>(&0x1::object::Object<T>): address",
    "0x1::object::is_owner<T: key>(0x1::object::Object<T>, address): bool",
    "0x1::primary_fungible_store::ensure_primary_store_exists<T: key>"
    f"(address, 0x1::object::Object<T>): {_STORE}",
    "0x1::primary_fungible_store::primary_store<T: key>"
    f"(address, 0x1::object::Object<T>): {_STORE}",
    "0x1::fungible_asset::mint"
    "(&0x1::fungible_asset::MintRef, u64): 0x1::fungible_asset::FungibleAsset",
    "0x1::fungible_asset::deposit_with_ref<T: key>"
    "(&0x1::fungible_asset::TransferRef, 0x1::object::Object<T>,"
    " 0x1::fungible_asset::FungibleAsset)",
    "0x1::fungible_asset::transfer_with_ref<T: key>(&0x1::fungible_asset::TransferRef,"
    " 0x1::object::Object<T>, 0x1::object::Object<T>, u64)",
    "0x1::fungible_asset::burn_from<T: key>"
    "(&0x1::fungible_asset::BurnRef, 0x1::object::Object<T>, u64)",
    "0x1::fungible_asset::set_frozen_flag<T: key>"
    "(&0x1::fungible_asset::TransferRef, 0x1::object::Object<T>, bool)",
)
_FA_STRUCTS = (
    "0x1::fungible_asset::Metadata has key",
    "0x1::fungible_asset::FungibleStore has key",
    "0x1::fungible_asset::FungibleAsset",
    "0x1::fungible_asset::MintRef has drop, store",
    "0x1::fungible_asset::TransferRef has drop, store",
    "0x1::fungible_asset::BurnRef has drop, store",
)
_MANAGED = "ManagedFungibleAsset"


@dataclass(frozen=True, slots=True)
class Asset:
    """What an issuer module's ``init_module`` makes: the asset's metadata."""

    module: str
    name: str
    symbol: str
    decimals: int
    icon_uri: str
    project_uri: str

    def source(self) -> str:
        return FA_COIN.format(
            module=self.module,
            name=self.name,
            symbol=self.symbol,
            decimals=self.decimals,
            icon_uri=self.icon_uri,
            project_uri=self.project_uri,
        )


#: The tutorial's asset: "FA Coin" (FA), 8 decimals.
FA_COIN_ASSET = Asset(
    "fa_coin", "FA Coin", "FA", 8, "https://example.org/fa/icon.png", "https://example.org/fa"
)


def _fa_init_module(m: ModuleBuilder, asset: Asset) -> None:
    m.function(
        "init_module",
        params=["admin: &signer"],
        locals=[
            "constructor_ref: 0x1::object::ConstructorRef",
            "mint_ref: 0x1::fungible_asset::MintRef",
            "burn_ref: 0x1::fungible_asset::BurnRef",
            "transfer_ref: 0x1::fungible_asset::TransferRef",
            "metadata_signer: signer",
        ],
        code=[
            ("MoveLoc", "admin"),  # &object::create_named_object(admin, ASSET_SYMBOL)
            ("LdConst", "ASSET_SYMBOL"),
            ("Call", "0x1::object::create_named_object"),
            ("StLoc", "constructor_ref"),
            # primary_fungible_store::create_primary_store_enabled_fungible_asset(...)
            ("ImmBorrowLoc", "constructor_ref"),
            ("Call", "0x1::option::none<u128>"),
            ("LdConst", "vector<u8>", asset.name.encode()),
            ("Call", "0x1::string::utf8"),
            ("LdConst", "ASSET_SYMBOL"),
            ("Call", "0x1::string::utf8"),
            ("LdU8", asset.decimals),
            ("LdConst", "vector<u8>", asset.icon_uri.encode()),
            ("Call", "0x1::string::utf8"),
            ("LdConst", "vector<u8>", asset.project_uri.encode()),
            ("Call", "0x1::string::utf8"),
            ("Call", "0x1::primary_fungible_store::create_primary_store_enabled_fungible_asset"),
            ("ImmBorrowLoc", "constructor_ref"),  # the three refs
            ("Call", "0x1::fungible_asset::generate_mint_ref"),
            ("StLoc", "mint_ref"),
            ("ImmBorrowLoc", "constructor_ref"),
            ("Call", "0x1::fungible_asset::generate_burn_ref"),
            ("StLoc", "burn_ref"),
            ("ImmBorrowLoc", "constructor_ref"),
            ("Call", "0x1::fungible_asset::generate_transfer_ref"),
            ("StLoc", "transfer_ref"),
            ("ImmBorrowLoc", "constructor_ref"),  # object::generate_signer(constructor_ref)
            ("Call", "0x1::object::generate_signer"),
            ("StLoc", "metadata_signer"),
            ("ImmBorrowLoc", "metadata_signer"),  # move_to(&metadata_signer, ...)
            ("MoveLoc", "mint_ref"),
            ("MoveLoc", "transfer_ref"),
            ("MoveLoc", "burn_ref"),
            ("Pack", _MANAGED),
            ("MoveTo", _MANAGED),
            "Ret",
        ],
    )


def _fa_views(m: ModuleBuilder, address: str) -> None:
    m.function(
        "get_metadata",
        visibility="public",
        view=True,
        returns=[_META],
        locals=["self_address: address"],
        code=[
            ("LdConst", "address", address),  # object::create_object_address(&@0xcafe, ...)
            ("StLoc", "self_address"),
            ("ImmBorrowLoc", "self_address"),
            ("LdConst", "ASSET_SYMBOL"),
            ("Call", "0x1::object::create_object_address"),
            ("Call", "0x1::object::address_to_object<0x1::fungible_asset::Metadata>"),
            "Ret",
        ],
    )
    m.function(
        "authorized_borrow_refs",
        params=["owner: &signer", f"asset: {_META}"],
        returns=[f"&{_MANAGED}"],
        acquires=[_MANAGED],
        code=[
            ("CopyLoc", "asset"),  # assert!(object::is_owner(asset, address_of(owner)), ...);
            ("MoveLoc", "owner"),
            ("Call", "0x1::signer::address_of"),
            ("Call", "0x1::object::is_owner<0x1::fungible_asset::Metadata>"),
            ("BrFalse", "not_owner"),
            ("ImmBorrowLoc", "asset"),  # borrow_global<...>(object::object_address(&asset))
            ("Call", "0x1::object::object_address<0x1::fungible_asset::Metadata>"),
            ("ImmBorrowGlobal", _MANAGED),
            "Ret",
            ("Label", "not_owner"),
            ("LdU64", ENOT_OWNER),
            ("Call", "0x1::error::permission_denied"),
            "Abort",
        ],
    )


def _borrow_ref(field: str) -> list[CodeItem]:
    """``let asset = get_metadata(); let r = &authorized_borrow_refs(admin, asset).field;``"""
    return [
        ("Call", "get_metadata"),
        ("StLoc", "asset"),
        ("MoveLoc", "admin"),
        ("CopyLoc", "asset"),
        ("Call", "authorized_borrow_refs"),
        ("ImmBorrowField", f"{_MANAGED}.{field}"),
    ]


_ENSURE = "0x1::primary_fungible_store::ensure_primary_store_exists<0x1::fungible_asset::Metadata>"
_PRIMARY = "0x1::primary_fungible_store::primary_store<0x1::fungible_asset::Metadata>"
_ON_STORE = "<0x1::fungible_asset::FungibleStore>"


def _fa_entries(m: ModuleBuilder) -> None:
    m.function(
        "mint",
        visibility="public",
        entry=True,
        params=["admin: &signer", "to: address", "amount: u64"],
        locals=[f"asset: {_META}", f"refs: &{_MANAGED}", f"to_wallet: {_STORE}"],
        acquires=[_MANAGED],
        code=[
            ("Call", "get_metadata"),
            ("StLoc", "asset"),
            ("MoveLoc", "admin"),  # let refs = authorized_borrow_refs(admin, asset);
            ("CopyLoc", "asset"),
            ("Call", "authorized_borrow_refs"),
            ("StLoc", "refs"),
            ("MoveLoc", "to"),  # ensure_primary_store_exists(to, asset)
            ("MoveLoc", "asset"),
            ("Call", _ENSURE),
            ("StLoc", "to_wallet"),
            # deposit_with_ref(&refs.transfer_ref, to_wallet, mint(&refs.mint_ref, amount))
            ("CopyLoc", "refs"),
            ("ImmBorrowField", f"{_MANAGED}.transfer_ref"),
            ("MoveLoc", "to_wallet"),
            ("MoveLoc", "refs"),
            ("ImmBorrowField", f"{_MANAGED}.mint_ref"),
            ("MoveLoc", "amount"),
            ("Call", "0x1::fungible_asset::mint"),
            ("Call", "0x1::fungible_asset::deposit_with_ref" + _ON_STORE),
            "Ret",
        ],
    )
    m.function(
        "transfer",
        visibility="public",
        entry=True,
        params=["admin: &signer", "from: address", "to: address", "amount: u64"],
        locals=[f"asset: {_META}", "transfer_ref: &0x1::fungible_asset::TransferRef"],
        acquires=[_MANAGED],
        code=[
            *_borrow_ref("transfer_ref"),
            ("StLoc", "transfer_ref"),
            ("MoveLoc", "transfer_ref"),  # transfer_with_ref(transfer_ref, from_wallet, ...)
            ("MoveLoc", "from"),
            ("CopyLoc", "asset"),
            ("Call", _PRIMARY),
            ("MoveLoc", "to"),
            ("MoveLoc", "asset"),
            ("Call", _ENSURE),
            ("MoveLoc", "amount"),
            ("Call", "0x1::fungible_asset::transfer_with_ref" + _ON_STORE),
            "Ret",
        ],
    )
    m.function(
        "burn",
        visibility="public",
        entry=True,
        params=["admin: &signer", "from: address", "amount: u64"],
        locals=[f"asset: {_META}", "burn_ref: &0x1::fungible_asset::BurnRef"],
        acquires=[_MANAGED],
        code=[
            *_borrow_ref("burn_ref"),
            ("StLoc", "burn_ref"),
            ("MoveLoc", "burn_ref"),  # burn_from(burn_ref, primary_store(from, asset), amount)
            ("MoveLoc", "from"),
            ("MoveLoc", "asset"),
            ("Call", _PRIMARY),
            ("MoveLoc", "amount"),
            ("Call", "0x1::fungible_asset::burn_from" + _ON_STORE),
            "Ret",
        ],
    )
    m.function(
        "set_frozen",
        params=["admin: &signer", "account: address", "frozen: bool"],
        locals=[f"asset: {_META}", "transfer_ref: &0x1::fungible_asset::TransferRef"],
        acquires=[_MANAGED],
        code=[
            *_borrow_ref("transfer_ref"),
            ("StLoc", "transfer_ref"),
            ("MoveLoc", "transfer_ref"),  # set_frozen_flag(transfer_ref, wallet, frozen)
            ("MoveLoc", "account"),
            ("MoveLoc", "asset"),
            ("Call", _ENSURE),
            ("MoveLoc", "frozen"),
            ("Call", "0x1::fungible_asset::set_frozen_flag" + _ON_STORE),
            "Ret",
        ],
    )
    for name, frozen in (("freeze_account", "LdTrue"), ("unfreeze_account", "LdFalse")):
        m.function(
            name,
            visibility="public",
            entry=True,
            params=["admin: &signer", "account: address"],
            acquires=[_MANAGED],
            code=[
                ("MoveLoc", "admin"),
                ("MoveLoc", "account"),
                frozen,
                ("Call", "set_frozen"),
                "Ret",
            ],
        )


def fa_issuer(asset: Asset, address: str = SOURCE_ADDRESS) -> ModuleBuilder:
    """The issuer module of ``asset`` (the source :data:`FA_COIN` with its metadata)."""
    m = ModuleBuilder(address, asset.module)
    for text in _FA_STRUCTS:
        m.declare_struct(text)
    for text in _FA_DECLARATIONS:
        m.declare_function(text)
    m.error(
        "ENOT_OWNER",
        ENOT_OWNER,
        "Only the owner of the asset's metadata object may mint, move, burn or freeze.",
    )
    m.constant("ASSET_SYMBOL", "vector<u8>", asset.symbol.encode())
    m.struct(
        _MANAGED,
        "key",
        [
            ("mint_ref", "0x1::fungible_asset::MintRef"),
            ("transfer_ref", "0x1::fungible_asset::TransferRef"),
            ("burn_ref", "0x1::fungible_asset::BurnRef"),
        ],
    )
    _fa_init_module(m, asset)
    _fa_views(m, address)
    _fa_entries(m)
    return m


def fa_coin(address: str = SOURCE_ADDRESS) -> ModuleBuilder:
    """The tutorial-like issuer: "FA Coin" (FA), 8 decimals."""
    return fa_issuer(FA_COIN_ASSET, address)


def issuer_example(asset: Asset) -> Example:
    """The issuer module of ``asset`` as an example (package named for the module)."""
    package = "".join(part.capitalize() for part in asset.module.split("_"))
    return Example(asset.module, package, asset.source(), lambda a: fa_issuer(asset, a))


#: The embedded node's day chain's issuers (``ledgerkit/localnet/chain/data``): a
#: stablecoin, a game's gems, loyalty points and a token of 8 decimals.
DAY_ISSUERS: tuple[Asset, ...] = tuple(
    Asset(module, name, symbol, decimals, f"{uri}/icon.svg", uri)
    for module, name, symbol, decimals, uri in (
        ("ledger_usd", "Ledger USD", "LUSD", 6, "https://example.org/lusd"),
        ("tidepool_gems", "Tidepool Gems", "GEM", 0, "https://example.org/gems"),
        ("orbit_points", "Orbit Points", "ORBIT", 2, "https://example.org/orbit"),
        ("quartz", "Quartz", "QRTZ", 8, "https://example.org/quartz"),
    )
)
#: The named address the issuers' sources are kept with in their package metadata.
ISSUER_NAMED_ADDRESS = "issuer"


def issuer_package(asset: Asset) -> tuple[bytes, bytes]:
    """An issuer's module at ``0xcafe`` and its package metadata, the source kept with the
    named address ``issuer`` as the Move package tool keeps it (the same metadata serves
    every publisher; the module is placed at one by rewriting its address)."""
    example = issuer_example(asset)
    return example.bytecode(), example.package_metadata(ISSUER_NAMED_ADDRESS)


#: Every example by name.
EXAMPLES: dict[str, Example] = {
    e.name: e
    for e in (
        Example("message_board", "MessageBoard", MESSAGE_BOARD, message_board),
        Example("counter", "Counter", COUNTER, counter),
        Example("moon_coin", "MoonCoin", MOON_COIN, moon_coin),
        Example("container", "Container", CONTAINER, container),
        Example("notes", "Notes", OBJECTS, objects),
        Example("vault", "Vault", VAULT, vault),
        Example("two_signer_transfer", "", TWO_SIGNER_TRANSFER, two_signer_transfer),
        issuer_example(FA_COIN_ASSET),
    )
}
#: The examples that are modules (the others are scripts).
MODULE_EXAMPLES = tuple(n for n, e in EXAMPLES.items() if e.package)
