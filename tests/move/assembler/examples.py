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
    )
}
#: The examples that are modules (the others are scripts).
MODULE_EXAMPLES = tuple(n for n, e in EXAMPLES.items() if e.package)
