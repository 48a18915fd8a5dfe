"""State keys: how the store names a resource, a module or a table item, and their hashes.

Inside the store a state key is one byte string, ``kind · address · path``: ``kind`` is
0 for a resource (path: the struct tag's text), 1 for a module (path: its name) and 2
for a table item (address: the table handle; path: the BCS of the key). Sorting these
bytes groups an account's resources, then its modules, in path order, which is what
cursor pagination walks.

Outside, a state key is what the ledger calls it: the BCS of ``StateKeyInner``, either
``AccessPath {address, path: BCS(Path)}`` (variant 0; ``Path::Code(ModuleId)`` is 0,
``Path::Resource(StructTag)`` is 1, ``Path::ResourceGroup(StructTag)``, an object's
resources together, is 2) or ``TableItem {handle, key}`` (variant 1). Its
SHA3-256 under the ``APTOS::StateKey`` salt is the ``state_key_hash`` of write-set
changes, and its hex is the pagination cursor (opaque to clients, as the API requires).
"""

from __future__ import annotations

import functools
import hashlib
from typing import Final

from ledgerkit._errors import BCSError, InputError
from ledgerkit.bcs import Deserializer, Serializer, deserialize_struct_tag, serialize_struct_tag
from ledgerkit.localnet.vm.framework._move_values import render_type
from ledgerkit.types import Address, StructTag, is_identifier

__all__ = [
    "MODULE",
    "RESOURCE",
    "TABLE_ITEM",
    "decode_cursor",
    "encode_cursor",
    "group_key_bcs",
    "group_key_hash",
    "module_key",
    "resource_key",
    "state_key_hash",
    "table_handle",
    "table_key",
]

RESOURCE: Final = 0
MODULE: Final = 1
TABLE_ITEM: Final = 2
_SALT: Final = hashlib.sha3_256(b"APTOS::StateKey").digest()


def resource_key(address: Address | bytes, tag: str) -> bytes:
    """The store key of a resource; ``tag`` is the canonical text of its struct tag."""
    return b"\x00" + bytes(address) + tag.encode()


def module_key(address: Address | bytes, name: str) -> bytes:
    return b"\x01" + bytes(address) + name.encode()


def table_handle(module: str, field: str, owner: Address | None = None) -> Address:
    """The handle of the table ``field`` of a resource of ``module`` (of ``owner``'s, or
    the one table there is): ``SHA3-256("ledgerkit::" ‖ module ‖ "::" ‖ field ‖ owner)``.

    A real node derives a table's handle from the transaction that creates it; this
    node's own derivation depends on the owner alone, so that the same chain always
    has the same handles and a resource is made without a transaction's context.
    """
    seed = f"ledgerkit::{module}::{field}".encode()
    return Address(hashlib.sha3_256(seed + (b"" if owner is None else bytes(owner))).digest())


def table_key(handle: Address | bytes, key: bytes) -> bytes:
    return b"\x02" + bytes(handle) + key


@functools.lru_cache(maxsize=4096)
def _struct_tag_bcs(tag: str) -> bytes:
    s = Serializer()
    serialize_struct_tag(s, StructTag.parse(tag))
    return s.output()


def state_key_bcs(skey: bytes) -> bytes:
    """The ledger's BCS ``StateKeyInner`` of a store key."""
    kind, address, path = skey[0], skey[1:33], skey[33:]
    s = Serializer()
    if kind == TABLE_ITEM:
        s.uleb128(1)
        s.fixed_bytes(address)
        s.var_bytes(path)
        return s.output()
    inner = Serializer()
    if kind == RESOURCE:
        inner.uleb128(1)
        inner.fixed_bytes(_struct_tag_bcs(path.decode()))
    else:
        inner.uleb128(0)
        inner.fixed_bytes(address)
        inner.string(path.decode())
    s.uleb128(0)
    s.fixed_bytes(address)
    s.var_bytes(inner.output())
    return s.output()


@functools.lru_cache(maxsize=65536)
def state_key_hash(skey: bytes) -> str:
    """``0x`` hex of the state key hash shown in write-set changes."""
    return "0x" + hashlib.sha3_256(_SALT + state_key_bcs(skey)).hexdigest()


def group_key_bcs(address: Address | bytes, group: str) -> bytes:
    """The BCS ``StateKeyInner`` of the resource group ``group`` at ``address``:
    ``AccessPath {address, path: BCS(Path::ResourceGroup(group))}`` (variant 2)."""
    inner = Serializer()
    inner.uleb128(2)
    inner.fixed_bytes(_struct_tag_bcs(group))
    s = Serializer()
    s.uleb128(0)
    s.fixed_bytes(bytes(address))
    s.var_bytes(inner.output())
    return s.output()


@functools.lru_cache(maxsize=65536)
def group_key_hash(address: bytes, group: str) -> str:
    """``0x`` hex of the state key hash of a resource group (every member's change shows it)."""
    return "0x" + hashlib.sha3_256(_SALT + group_key_bcs(address, group)).hexdigest()


def encode_cursor(skey: bytes) -> str:
    """The opaque cursor that resumes a listing at ``skey``."""
    return state_key_bcs(skey).hex()


def decode_cursor(cursor: str, address: Address, kind: int) -> bytes:
    """The store key a cursor resumes at; :class:`ValueError` when it is not one of ours.

    The cursor must name a state item of the same account and kind as the listing.
    """
    try:
        data = bytes.fromhex(cursor[2:] if cursor.startswith("0x") else cursor)
        d = Deserializer(data)
        if d.uleb128() != 0:
            raise ValueError("not an access path")
        owner = d.address()
        inner = Deserializer(d.var_bytes())
        d.finish()
        path_kind = inner.uleb128()
        if path_kind == 1 and kind == RESOURCE:
            path = render_type(deserialize_struct_tag(inner)).encode()
        elif path_kind == 0 and kind == MODULE:
            if inner.address() != owner:
                raise ValueError("module of another account")
            name = inner.string()
            if not is_identifier(name):
                raise ValueError("not a module name")
            path = name.encode()
        else:
            raise ValueError("cursor of another kind of listing")
        inner.finish()
    except (BCSError, InputError, ValueError) as exc:
        raise ValueError(f"not a cursor of this listing: {exc}") from None
    if owner != address:
        raise ValueError("the cursor belongs to another account")
    return bytes([kind]) + bytes(owner) + path
