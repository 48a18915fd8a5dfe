"""What framework code sees while it runs: state, tables, events, gas and aborts.

A :class:`Context` sits on top of a read-only view of the ledger (a function from store
key to stored bytes). Reads are decoded once and cached; writes collect in order, with
whether each state item existed before (a new item pays the storage slot fee). Nothing
reaches the ledger until the executor takes ``writes`` and ``events`` and commits them;
dropping the context drops its effects, which is how aborts roll back.

Framework functions are plain Python registered with :func:`native`; they get the
context, the type arguments and the arguments in the API's JSON form, and return their
results (views) in the same form, built with standard addresses.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import orjson

from ledgerkit._framework_errors import declared_error
from ledgerkit.bcs import MoveValueCodec
from ledgerkit.localnet.vm.framework._state_keys import MODULE, RESOURCE, TABLE_ITEM, resource_key
from ledgerkit.localnet.vm.framework._state_keys import module_key as _module_key
from ledgerkit.localnet.vm.framework._state_keys import table_key as _table_key
from ledgerkit.types import Address, MoveType

__all__ = [
    "NATIVES",
    "Context",
    "MoveAbortError",
    "Native",
    "ReadFn",
    "VMStatusError",
    "Write",
    "native",
    "sorted_fields",
]

#: Store key -> ``(json, bcs)`` of the current value, or None when there is none.
ReadFn = Callable[[bytes], tuple[bytes, bytes] | None]
Native = Callable[["Context", tuple[MoveType, ...], list[Any]], list[Any] | None]
#: Bodies by ``(address, module, function)``.
NATIVES: dict[tuple[Address, str, str], Native] = {}

ACCOUNT: Final = "0x1::account::Account"
_ZERO_GUID: Final = {"creation_number": "0", "account_address": "0x0"}


def sorted_fields(value: Any) -> Any:
    """A Move value's JSON with every struct's fields in name order, at every depth.

    A node's API renders a struct as a map sorted by field name (byte order), not in
    declaration order; in a Move value's JSON every object is a struct (``Option``'s
    ``{"vec"}``, ``Object``'s ``{"inner"}`` and an enum's ``__variant__`` included).
    """
    return orjson.loads(orjson.dumps(value, option=orjson.OPT_SORT_KEYS))


def native(module: str, name: str, *, address: int = 1) -> Callable[[Native], Native]:
    """Register the Python body of ``0x1::module::name`` (or of another ``address``'s
    module: ``0x3`` and ``0x4`` hold the token packages)."""
    key = (Address.from_int(address), module, name)

    def register(function: Native) -> Native:
        NATIVES[key] = function
        return function

    return register


class MoveAbortError(Exception):
    """A Move ``abort`` of a framework module with ``code``, named from its error map.

    ``module`` is a name at ``0x1`` (``"coin"``) or ``address::name`` (``"0x4::aptos_token"``).

    The name and description are the constant the module declares for the code (looked
    up as a node looks up a module's error map, by the code's low 12 bits, then the whole
    code: :func:`ledgerkit._framework_errors.declared_error`), so an abort code has one
    name wherever it is raised and whoever reads it. ``expected``, when given, is the
    constant the raising code means: a code the module declares otherwise is a mistake
    of this node's, refused at once.
    """

    def __init__(
        self,
        module: str,
        code: int,
        expected: str | None = None,
        *,
        declared: tuple[str, str] | None = None,
    ) -> None:
        self.module = module
        #: ``address::name``, short address: ``module`` is a name at ``0x1`` or that.
        self.location = module if "::" in module else f"0x1::{module}"
        self.code = code
        if declared is None:  # a published module's own error map gives ``declared``
            declared = declared_error(self.location, code)
        self.name: str | None = None if declared is None else declared[0]
        self.description: str | None = None if declared is None else declared[1]
        if expected is not None and expected != self.name:
            raise AssertionError(
                f"{self.location} declares {code:#x} as {self.name}, not {expected}"
            )
        super().__init__(self.vm_status)

    @property
    def vm_status(self) -> str:
        """The ``vm_status`` text of a transaction that aborted so."""
        where = f"Move abort in {self.location}"
        if self.name:
            return f"{where}: {self.name}({self.code:#x}): {self.description or ''}".rstrip(": ")
        return f"{where}: {self.code:#x}"


class VMStatusError(Exception):
    """A VM error other than an abort, named by its status code (``LINKER_ERROR``...)."""

    def __init__(self, status: str, message: str = "") -> None:
        self.status = status
        super().__init__(message or status)


@dataclass(slots=True)
class Write:
    """One state item written (``value`` None: deleted).

    For a resource ``path`` is the struct tag text and ``value`` its data; for a module
    ``path`` is its name and ``value`` ``{bytecode, abi}`` (``bcs`` the bytecode); for a
    table item ``path`` is the key type, ``key`` the key's JSON and ``bcs`` its BCS.
    A resource of a published module's type carries its BCS in ``bcs`` and a table item
    of one its value's in ``value_bcs`` (the framework's codec knows no such layout); a
    framework resource's ``bcs`` is filled in once it is encoded (metering sizes it), so
    that it is encoded once. ``put`` makes a new write: its value's bytes are never stale.
    """

    skey: bytes
    kind: int
    address: Address
    path: str
    value: Any
    existed: bool
    key: Any = None
    value_type: str = ""
    bcs: bytes = b""
    value_bcs: bytes = b""


class Context:
    """State access for one transaction (or one view call)."""

    def __init__(
        self,
        read: ReadFn,
        codec: MoveValueCodec,
        *,
        timestamp_usec: int = 0,
        chain_id: int = 0,
        signers: tuple[Address, ...] = (),
        txn_hash: bytes = bytes(32),
    ) -> None:
        self._read = read
        self.codec = codec
        self.timestamp_usec = timestamp_usec
        self.chain_id = chain_id
        self.signers = signers
        #: The user transaction's hash, from which unnamed objects take their addresses.
        self.txn_hash = txn_hash
        self._auids = 0
        self.writes: dict[bytes, Write] = {}
        self.events: list[dict[str, Any]] = []
        #: The BCS of module events of published types, by index in ``events``.
        self.event_bcs: dict[int, bytes] = {}
        #: Events emitted to handles: (account, creation number, sequence number, event).
        self.handle_events: list[tuple[bytes, int, int, dict[str, Any]]] = []
        self.reads = 0
        #: Per state item read: the 4 KiB pages its stored bytes span (at least one).
        self.read_pages: list[int] = []
        self.extra_gas = 0
        #: Calls priced with the schedule's per-call stand-ins for framework code run in
        #: Python: the transaction's framework function, or (published code) each
        #: framework body the code reaches.
        self.calls = 1
        #: An orderless transaction (a nonce, no sequence number) is running.
        self.orderless = False
        self._cache: dict[bytes, Any] = {}
        self._existed: dict[bytes, bool] = {}
        #: Size in bytes of each stored value loaded (its BCS), for deletion refunds.
        self.stored_sizes: dict[bytes, int] = {}

    # -- reading ------------------------------------------------------------------------

    def _load(self, skey: bytes, *, counted: bool = True) -> Any:
        if skey in self._cache:
            return self._cache[skey]
        raw = self._read(skey)
        size = 0 if raw is None else len(raw[1])
        if counted:
            self.reads += 1
            self.read_pages.append(max(1, -(-size // 4096)))
        self.stored_sizes[skey] = size
        value = None if raw is None else orjson.loads(raw[0])
        self._cache[skey] = value
        self._existed[skey] = raw is not None
        return value

    def _existed_before(self, skey: bytes) -> bool:
        if skey not in self._existed:
            self._load(skey, counted=False)
        return self._existed[skey]

    def resource(self, address: Address, tag: str, *, counted: bool = True) -> Any:
        """The data of resource ``tag`` at ``address`` (mutable; ``put`` it back), or None
        (not ``counted``: a read the transaction is not charged for)."""
        skey = resource_key(address, tag)
        write = self.writes.get(skey)
        if write is not None:
            return write.value
        stored = self._load(skey, counted=counted)
        return None if stored is None else stored["data"]

    def exists(self, address: Address, tag: str) -> bool:
        return self.resource(address, tag) is not None

    def table_get(self, handle: Address, key_type: str, key: Any) -> Any:
        """The value under ``key`` in the table ``handle``, or None."""
        skey = _table_key(handle, self.codec.encode(key_type, key))
        write = self.writes.get(skey)
        if write is not None:
            return write.value
        stored = self._load(skey)
        return None if stored is None else stored["value"]

    def table_item(self, handle: Address, key_bcs: bytes) -> Any:
        """The value JSON under the key whose BCS is ``key_bcs`` in ``handle``, or None."""
        skey = _table_key(handle, key_bcs)
        write = self.writes.get(skey)
        if write is not None:
            return write.value
        stored = self._load(skey)
        return None if stored is None else stored["value"]

    # -- writing ------------------------------------------------------------------------

    def put(self, address: Address, tag: str, data: Any, *, bcs: bytes = b"") -> None:
        """Write resource ``tag`` at ``address`` (``bcs``: its BCS, for a published type)."""
        skey = resource_key(address, tag)
        existed = self._existed_before(skey)
        self.writes[skey] = Write(skey, RESOURCE, address, tag, data, existed, bcs=bcs)

    def delete(self, address: Address, tag: str) -> None:
        skey = resource_key(address, tag)
        self.writes[skey] = Write(skey, RESOURCE, address, tag, None, self._existed_before(skey))

    def table_put(
        self,
        handle: Address,
        key_type: str,
        value_type: str,
        key: Any,
        value: Any,
        *,
        key_bcs: bytes | None = None,
        value_bcs: bytes = b"",
    ) -> None:
        """Write ``value`` under ``key`` in the table ``handle`` (types as text; the
        BCS of key and value given for published types)."""
        if key_bcs is None:
            key_bcs = self.codec.encode(key_type, key)
        skey = _table_key(handle, key_bcs)
        existed = self._existed_before(skey)
        self.writes[skey] = Write(
            skey, TABLE_ITEM, handle, key_type, value, existed, key, value_type, key_bcs,
            value_bcs,
        )  # fmt: skip

    def table_delete(
        self, handle: Address, key_type: str, key: Any, *, key_bcs: bytes | None = None
    ) -> None:
        """Remove ``key`` from the table ``handle``."""
        if key_bcs is None:
            key_bcs = self.codec.encode(key_type, key)
        skey = _table_key(handle, key_bcs)
        existed = self._existed_before(skey)
        self.writes[skey] = Write(
            skey, TABLE_ITEM, handle, key_type, None, existed, key, "", key_bcs
        )

    def put_module(
        self, address: Address, name: str, module: dict[str, Any], bytecode: bytes
    ) -> None:
        """Publish a framework module at ``address`` (genesis only)."""
        skey = _module_key(address, name)
        self.writes[skey] = Write(
            skey, MODULE, address, name, module, self._existed_before(skey), bcs=bytecode
        )

    def module_code(self, address: Address, name: str, *, counted: bool = True) -> bytes | None:
        """The bytecode of module ``address::name`` as this transaction sees it, or None
        (a state read unless not ``counted``: code loaded to run pays dependency gas)."""
        skey = _module_key(address, name)
        write = self.writes.get(skey)
        if write is not None:
            return None if write.value is None else write.bcs
        raw = self._read(skey)
        if counted:
            self.reads += 1
            self.read_pages.append(max(1, -(-(0 if raw is None else len(raw[1])) // 4096)))
        return None if raw is None else raw[1]

    # -- events and guids ---------------------------------------------------------------

    def new_guid(self, address: Address) -> dict[str, Any]:
        """A fresh GUID of ``address``'s account (bumps its ``guid_creation_num``)."""
        account = self.resource(address, ACCOUNT)
        number = int(account["guid_creation_num"])
        account["guid_creation_num"] = str(number + 1)
        self.put(address, ACCOUNT, account)
        return {"id": {"creation_num": str(number), "addr": address.standard}}

    def new_handle(self, address: Address) -> dict[str, Any]:
        """A fresh event handle of ``address``'s account."""
        return {"counter": "0", "guid": self.new_guid(address)}

    def emit(self, handle: dict[str, Any], event_type: str, data: dict[str, Any]) -> None:
        """Emit to a handle; bumps its counter, so write back the resource that holds it."""
        guid = handle["guid"]["id"]
        sequence = int(handle["counter"])
        handle["counter"] = str(sequence + 1)
        event = {
            "guid": {"creation_number": guid["creation_num"], "account_address": guid["addr"]},
            "sequence_number": str(sequence),
            "type": event_type,
            "data": sorted_fields(data),
        }
        self.events.append(event)
        owner = bytes(Address.parse(guid["addr"]))
        self.handle_events.append((owner, int(guid["creation_num"]), sequence, event))

    def emit_module(
        self, event_type: str, data: dict[str, Any], *, bcs: bytes | None = None
    ) -> None:
        """Emit a module event (no handle: zero GUID, sequence number 0; ``bcs``: its
        data's BCS, for a published type)."""
        if bcs is not None:
            self.event_bcs[len(self.events)] = bcs
        event = {"guid": _ZERO_GUID, "sequence_number": "0", "type": event_type}
        self.events.append(event | {"data": sorted_fields(data)})

    def auid_address(self) -> Address:
        """A fresh unique address of this transaction (an unnamed object's):
        ``SHA3-256(txn_hash ‖ u64_le(n) ‖ 0xFB)`` for ``n`` = 1, 2, ... in call order."""
        self._auids += 1
        digest = hashlib.sha3_256(self.txn_hash + self._auids.to_bytes(8, "little") + b"\xfb")
        return Address(digest.digest())

    # -- gas and failure ----------------------------------------------------------------

    def charge(self, units: int) -> None:
        """Charge execution gas beyond the schedule's per-call and per-read lines."""
        self.extra_gas += units

    @staticmethod
    def abort(module: str, code: int, expected: str | None = None) -> MoveAbortError:
        """The abort to raise: ``raise ctx.abort("coin", 0x60005, "ECOIN_STORE_NOT_PUBLISHED")``
        (``module`` a name at ``0x1`` or ``address::name``; named and described from the
        module's error map; ``expected`` is checked)."""
        return MoveAbortError(module, code, expected)

    @property
    def signer(self) -> Address:
        return self.signers[0]
