"""The ledger's read side: accounts, state, events, transactions, blocks and tables.

Every answer is pinned to one version: ``None`` means the latest, a newer version is
``version_not_found`` (404), one older than the prune window ``version_pruned`` (410).
Pruning is a view: rows older than the window stay in the file (so a node reopened with
a wider window serves them again), but nothing below ``oldest_ledger_version`` is
answered. JSON comes back ready to serialize, from the bytes stored at commit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import orjson

from ledgerkit._errors import BCSError, ErrorCode, InputError
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.store import BlockRecord, Store
from ledgerkit.localnet.vm.framework import (
    ACCOUNT,
    APT_METADATA,
    APT_TYPE,
    FRAMEWORK,
    FUNGIBLE_STORE,
    MODULE,
    RESOURCE,
    decode_cursor,
    encode_cursor,
    module_key,
    primary_store_address,
    render_type,
    resource_key,
    sorted_fields,
    table_key,
)
from ledgerkit.types import Address, MoveType, StructTag

__all__ = [
    "MAX_BLOCK_TRANSACTIONS",
    "MAX_EVENTS_PAGE",
    "MAX_STATE_PAGE",
    "MAX_TRANSACTIONS_PAGE",
    "Head",
    "LedgerReads",
    "Module",
    "Page",
    "Resource",
    "ViewResult",
]

MAX_TRANSACTIONS_PAGE: Final = 100
MAX_EVENTS_PAGE: Final = 100
MAX_STATE_PAGE: Final = 9999
#: Transactions a block answer includes at most (the rest come from /transactions).
MAX_BLOCK_TRANSACTIONS: Final = 10_000


@dataclass(frozen=True, slots=True)
class Resource:
    """One resource: its type, its API JSON (``{type, data}``) and its BCS."""

    tag: StructTag
    json: bytes
    bcs: bytes


@dataclass(frozen=True, slots=True)
class Module:
    """One module: its name, its API JSON (``{bytecode, abi}``) and its bytecode."""

    name: str
    json: bytes
    bcs: bytes


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a cursor listing; ``cursor`` resumes it (None on the last page)."""

    items: list[Any]
    cursor: str | None


@dataclass(frozen=True, slots=True)
class ViewResult:
    """A view call's results: JSON values, their BCS (count-prefixed) and gas used."""

    values: list[Any]
    encoded: bytes
    gas_used: int


@dataclass(frozen=True, slots=True)
class Head:
    """Where the ledger stands: the latest block and the oldest answerable position."""

    block: BlockRecord
    oldest_version: int
    oldest_block_height: int

    @property
    def version(self) -> int:
        return self.block.last_version


def _error(code: ErrorCode, message: str) -> NodeError:
    return NodeError(code, message)


def _account_not_found(address: Address, v: int) -> NodeError:
    return _error(
        ErrorCode.ACCOUNT_NOT_FOUND,
        f"Account not found by Address({address.standard}) and Ledger version({v})",
    )


def _replay_protector(sequence: int | None, body: bytes | None) -> dict[str, str]:
    """``{"type", "value"}``: the sequence number, or the nonce of an orderless one."""
    if sequence is not None:
        return {"type": "sequence_number", "value": str(sequence)}
    nonce = orjson.loads(body or b"{}").get("replay_protection_nonce", "0")
    return {"type": "nonce", "value": str(nonce)}


def _limit(limit: int, maximum: int) -> int:
    if limit <= 0:
        raise _error(ErrorCode.INVALID_INPUT, "limit must not be zero")
    return min(limit, maximum)


class LedgerReads:
    """The read side of a :class:`~ledgerkit.localnet.ledger.Ledger` (its ``reads``).

    Every read is answered at the ledger's current head, or at a version the head still
    holds.

    Parameters
    ----------
    store : Store
        The ledger's file.
    head : callable
        Gives the ledger's current :class:`Head` (it moves with every block).
    """

    def __init__(self, store: Store, head: Callable[[], Head]) -> None:
        self.store = store
        self.head_of = head

    @property
    def head(self) -> Head:
        """The latest block and the oldest version and block still readable."""
        return self.head_of()

    # -- versions -----------------------------------------------------------------------

    def checked_version(self, version: int | None) -> int:
        """``version`` (None: the latest) if the ledger holds it.

        Raises
        ------
        NodeError
            ``version_not_found`` past the head, ``version_pruned`` before the oldest.
        """
        head = self.head
        if version is None:
            return head.version
        if version > head.version:
            raise _error(
                ErrorCode.VERSION_NOT_FOUND,
                f"Ledger version({version}) not found: the latest version is {head.version}",
            )
        if version < head.oldest_version:
            raise _error(
                ErrorCode.VERSION_PRUNED,
                f"Ledger version({version}) has been pruned: the oldest version is "
                f"{head.oldest_version}",
            )
        return version

    # -- accounts and state -------------------------------------------------------------

    def account(self, address: Address, version: int | None) -> dict[str, Any]:
        """``{sequence_number, authentication_key}`` of an account."""
        v = self.checked_version(version)
        found = self.store.reads.state(resource_key(address, ACCOUNT), v)
        if found is None:
            raise _account_not_found(address, v)
        data = orjson.loads(found[0])["data"]
        return {
            "sequence_number": data["sequence_number"],
            "authentication_key": data["authentication_key"],
        }

    def _page(
        self, address: Address, kind: int, version: int | None, start: str | None, limit: int
    ) -> Page:
        limit = _limit(limit, MAX_STATE_PAGE)
        v = self.checked_version(version)
        start_key = None
        if start is not None:
            try:
                start_key = decode_cursor(start, address, kind)
            except ValueError as exc:
                raise _error(ErrorCode.INVALID_INPUT, f"invalid start cursor: {exc}") from None
        items: list[Any] = []
        prefix = bytes([kind]) + bytes(address)
        for skey in self.store.reads.keys(prefix, start_key, v):
            found = self.store.reads.state(skey, v)
            if found is None:
                continue
            if len(items) == limit:
                return Page(items, encode_cursor(skey))
            path = skey[33:].decode()
            if kind == RESOURCE:
                items.append(Resource(StructTag.parse(path), found[0], found[1]))
            else:
                items.append(Module(path, found[0], found[1]))
        return Page(items, None)

    def resources(
        self, address: Address, version: int | None, start: str | None, limit: int
    ) -> Page:
        """A page of the account's resources (items: :class:`Resource`)."""
        return self._page(address, RESOURCE, version, start, limit)

    def modules(self, address: Address, version: int | None, start: str | None, limit: int) -> Page:
        """A page of the account's modules (items: :class:`Module`)."""
        return self._page(address, MODULE, version, start, limit)

    def _missing(self, address: Address, v: int, code: ErrorCode, message: str) -> NodeError:
        if not self.store.reads.has_keys(b"\x00" + bytes(address), v):
            return _account_not_found(address, v)
        return _error(code, message)

    def resource(self, address: Address, tag: StructTag, version: int | None) -> Resource:
        v = self.checked_version(version)
        text = render_type(tag)
        found = self.store.reads.state(resource_key(address, text), v)
        if found is None:
            raise self._missing(
                address,
                v,
                ErrorCode.RESOURCE_NOT_FOUND,
                f"Resource not found by Address({address.standard}), Struct tag({text}) and "
                f"Ledger version({v})",
            )
        return Resource(tag, found[0], found[1])

    def _stored(self, key: bytes, v: int, code: ErrorCode, message: str) -> tuple[bytes, bytes]:
        """The stored JSON and BCS at ``key`` as of version ``v``, or the node's error."""
        found = self.store.reads.state(key, v)
        if found is None:
            raise _error(code, message)
        return found

    def module(self, address: Address, name: str, version: int | None) -> Module:
        v = self.checked_version(version)
        json_text, raw = self._stored(
            module_key(address, name),
            v,
            ErrorCode.MODULE_NOT_FOUND,
            f"Module not found by Address({address.standard}), Module name({name}) and "
            f"Ledger version({v})",
        )
        return Module(name, json_text, raw)

    def balance(self, address: Address, asset: Address | StructTag, version: int | None) -> int:
        """The balance of a coin type or fungible asset in the account's primary store."""
        v = self.checked_version(version)
        if isinstance(asset, StructTag):
            if render_type(asset) != APT_TYPE:
                info = render_type(StructTag(Address.from_int(1), "coin", "CoinInfo", (asset,)))
                raise _error(
                    ErrorCode.RESOURCE_NOT_FOUND,
                    f"Resource not found by Address(0x1), Struct tag({info}) and "
                    f"Ledger version({v})",
                )
            metadata = APT_METADATA
        else:
            metadata = asset
        store = primary_store_address(address, metadata)
        found = self.store.reads.state(resource_key(store, FUNGIBLE_STORE), v)
        return 0 if found is None else int(orjson.loads(found[0])["data"]["balance"])

    # -- events -------------------------------------------------------------------------

    def events_by_creation_number(
        self, address: Address, creation_number: int, start: int | None, limit: int
    ) -> list[dict[str, Any]]:
        """Events of one stream; the newest page when ``start`` is None."""
        limit = _limit(limit, MAX_EVENTS_PAGE)
        account = bytes(address)
        if start is None:
            last = self.store.reads.last_event_sequence(account, creation_number)
            if last is None:
                return []
            start = max(0, last - limit + 1)
        rows = self.store.reads.events(account, creation_number, start, limit)
        head = self.head
        # Only what the node still holds: nothing pruned, nothing past the head.
        events = [orjson.loads(row) for row in rows]
        return [e for e in events if head.oldest_version <= int(e["version"]) <= head.version]

    def events_by_handle(
        self,
        address: Address,
        handle_struct: StructTag,
        field_name: str,
        start: int | None,
        limit: int,
    ) -> list[dict[str, Any]]:
        """Events of the handle held in field ``field_name`` of resource ``handle_struct``."""
        text = render_type(handle_struct)
        found = self.store.reads.state(resource_key(address, text), self.head.version)
        if found is None:
            raise _error(
                ErrorCode.RESOURCE_NOT_FOUND,
                f"Resource not found by Address({address.standard}) and Struct tag({text})",
            )
        handle = orjson.loads(found[0])["data"].get(field_name)
        if not (isinstance(handle, dict) and {"counter", "guid"} <= handle.keys()):
            raise _error(
                ErrorCode.STRUCT_FIELD_NOT_FOUND,
                f"Struct field not found by Struct tag({text}) and Field name({field_name}): "
                "no event handle there",
            )
        guid = handle["guid"]["id"]
        owner = Address.parse(guid["addr"])
        return self.events_by_creation_number(owner, int(guid["creation_num"]), start, limit)

    # -- transactions -------------------------------------------------------------------

    def transaction_by_version(self, version: int) -> dict[str, Any]:
        head = self.head
        if version > head.version:
            raise _error(
                ErrorCode.TRANSACTION_NOT_FOUND,
                f"Transaction not found by Ledger version({version})",
            )
        self.checked_version(version)
        found = self.store.reads.transaction(version)
        assert found is not None
        result: dict[str, Any] = orjson.loads(found)
        return result

    def transactions(self, start: int | None, limit: int) -> list[dict[str, Any]]:
        """A page of transactions by version; the latest page when ``start`` is None."""
        return [orjson.loads(row) for row in self.transaction_rows(start, limit)]

    def transactions_json(self, start: int | None, limit: int) -> bytes:
        """The same page as a JSON array, from the stored JSON without re-encoding it."""
        return b"[" + b",".join(self.transaction_rows(start, limit)) + b"]"

    def transaction_rows(self, start: int | None, limit: int) -> list[bytes]:
        """The stored JSON of each transaction of the page."""
        limit = _limit(limit, MAX_TRANSACTIONS_PAGE)
        head = self.head
        if start is None:
            start = max(head.oldest_version, head.version - limit + 1)
        elif start > head.version:
            raise _error(
                ErrorCode.INVALID_INPUT,
                f"start({start}) is beyond the latest ledger version({head.version})",
            )
        else:
            self.checked_version(start)
        end = min(start + limit, head.version + 1)
        return list(self.store.reads.transactions(start, end))

    def account_transactions(
        self, address: Address, start: int | None, limit: int
    ) -> list[dict[str, Any]]:
        """The account's transactions by sequence number, from ``start`` (default 0)."""
        limit = _limit(limit, MAX_TRANSACTIONS_PAGE)
        head = self.head
        self.account(address, head.version)
        rows = self.store.reads.account_transactions(
            bytes(address), start or 0, limit, head.oldest_version
        )
        out = [orjson.loads(row) for row in rows]
        return [t for t in out if int(t["version"]) <= head.version]

    def account_transaction_summaries(
        self, address: Address, start: int | None, end: int | None, limit: int
    ) -> list[dict[str, Any]]:
        """Summaries of the account's transactions (both kinds), ascending by version.

        As aptos-core's storage reads them: from ``start`` forward (``end`` then unused),
        else the last ``limit`` at or before ``end`` (default: the head). Versions older
        than the oldest kept are left out without an error, the way a pruned node's index
        no longer holds them; an account that sent nothing has none (no 404).
        """
        limit = _limit(limit, MAX_TRANSACTIONS_PAGE)
        head = self.head
        last = head.version if end is None or start is not None else min(end, head.version)
        rows = self.store.reads.account_summaries(
            bytes(address), start, last, limit, head.oldest_version
        )
        return [
            {
                "sender": address.standard,
                "version": str(version),
                "transaction_hash": "0x" + txn_hash.hex(),
                "replay_protector": _replay_protector(sequence, body),
            }
            for version, txn_hash, sequence, body in rows
        ]

    def auxiliary_info(self, start_version: int, limit: int) -> list[dict[str, Any]]:
        """``{transaction_index}`` of each transaction from ``start_version``."""
        limit = _limit(limit, MAX_TRANSACTIONS_PAGE)
        head = self.head
        if start_version > head.version:
            raise _error(
                ErrorCode.INVALID_INPUT,
                f"start_version({start_version}) is beyond the latest ledger version"
                f"({head.version})",
            )
        self.checked_version(start_version)
        end = min(start_version + limit, head.version + 1)
        return [
            {"transaction_index": i}
            for i in self.store.reads.transaction_indexes(start_version, end)
        ]

    # -- tables -------------------------------------------------------------------------

    def table_item(
        self,
        handle: Address,
        key_type: MoveType,
        value_type: MoveType,
        key: Any,
        version: int | None,
    ) -> tuple[Any, bytes]:
        """The JSON value and BCS of a table item, by typed JSON key."""
        v = self.checked_version(version)
        codec = FRAMEWORK.codec
        try:
            key_bcs = codec.encode(key_type, key)
        except (InputError, BCSError) as exc:
            raise _error(ErrorCode.INVALID_INPUT, f"key does not fit {key_type}: {exc}") from None
        found = self._table_state(handle, key_bcs, v)
        stored = orjson.loads(found[0])
        if stored["value_type"] == render_type(value_type):
            return stored["value"], found[1]
        try:
            value = sorted_fields(
                FRAMEWORK.standardize(value_type, codec.decode(value_type, found[1]))
            )
        except (InputError, BCSError) as exc:
            raise _error(
                ErrorCode.INVALID_INPUT, f"the item is not a {value_type}: {exc}"
            ) from None
        return value, found[1]

    def raw_table_item(self, handle: Address, key: bytes, version: int | None) -> bytes:
        """The BCS of a table item, by BCS key."""
        return self._table_state(handle, key, self.checked_version(version))[1]

    def _table_state(self, handle: Address, key: bytes, v: int) -> tuple[bytes, bytes]:
        """The stored JSON and BCS of the item at BCS ``key``, or ``table_item_not_found``."""
        return self._stored(
            table_key(handle, key),
            v,
            ErrorCode.TABLE_ITEM_NOT_FOUND,
            f"Table Item not found by Table handle({handle.standard}), Table key"
            f"({'0x' + key.hex()}) and Ledger version({v})",
        )

    # -- blocks -------------------------------------------------------------------------

    def _block_json(self, block: BlockRecord, with_transactions: bool) -> dict[str, Any]:
        body: dict[str, Any] = {
            "block_height": str(block.height),
            "block_hash": "0x" + block.hash.hex(),
            "block_timestamp": str(block.timestamp),
            "first_version": str(block.first_version),
            "last_version": str(block.last_version),
        }
        if with_transactions:
            end = min(block.last_version + 1, block.first_version + MAX_BLOCK_TRANSACTIONS)
            rows = self.store.reads.transactions(block.first_version, end)
            body["transactions"] = [orjson.loads(row) for row in rows]
        return body

    def block_by_height(self, height: int, with_transactions: bool) -> dict[str, Any]:
        head = self.head
        if height > head.block.height:
            raise _error(ErrorCode.BLOCK_NOT_FOUND, f"Block not found by Block height({height})")
        if height < head.oldest_block_height:
            raise _error(
                ErrorCode.BLOCK_PRUNED,
                f"Block({height}) has been pruned: the oldest block is {head.oldest_block_height}",
            )
        block = self.store.reads.block(height)
        assert block is not None
        return self._block_json(block, with_transactions)

    def block_by_version(self, version: int, with_transactions: bool) -> dict[str, Any]:
        head = self.head
        if version > head.version:
            raise _error(ErrorCode.BLOCK_NOT_FOUND, f"Block not found by Ledger version({version})")
        if version < head.oldest_version:
            raise _error(
                ErrorCode.BLOCK_PRUNED,
                f"The block of version {version} has been pruned: the oldest version is "
                f"{head.oldest_version}",
            )
        block = self.store.reads.block_containing(version)
        assert block is not None
        return self._block_json(block, with_transactions)
