"""Committed and pending transactions as BCS ``TransactionData``, from what the ledger keeps.

The ledger keeps a transaction's JSON, and every state value's BCS by version; the BCS
answer is rebuilt from both:

- a user transaction's ``SignedTransaction`` from its JSON (payload arguments re-encoded
  by the function's ABI); its hash must match the stored one, so the bytes are the ones
  that were sent;
- block metadata and block epilogue transactions from their JSON fields (the ledger's
  hash of each is the hash of these bytes); genesis as a direct write set with its events;
- the write set from the stored values of the keys each change names: ``Creation`` when
  the key had no value before, ``Modification`` otherwise, ``Deletion``; this node keeps no
  storage deposits, so no ``...WithMetadata`` kinds; the members of a resource group (the
  changes that show its state key hash) are one write of the group's key, its value the
  BCS map of the members listed;
- events re-encoded from their JSON data by their type; a zero GUID is a module event (V2);
- the execution status from ``vm_status``: success, ``Out of gas``, a Move abort with its
  module, code, name and description; any other status is ``MiscellaneousError`` without a
  status code;
- the info's hashes and the accumulator root hash as the JSON shows them (this node's hash
  chains, see ``chain._block_builder``); no auxiliary info hash.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

from ledgerkit._errors import ErrorCode, LedgerError
from ledgerkit.bcs import (
    BlockEpilogue,
    BlockMetadata,
    ContractEvent,
    ExecutionStatus,
    GenesisTransaction,
    LedgerTransaction,
    MoveValueCodec,
    Serializer,
    SignedTransaction,
    StateKey,
    TransactionData,
    TransactionInfo,
    TransactionOnChainData,
    WriteOp,
    WriteSet,
    serialize_struct_tag,
)
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.vm import ChainLayouts
from ledgerkit.localnet.vm.framework import (
    FRAMEWORK,
    OBJECT_GROUP,
    group_key_bcs,
    group_key_hash,
    member_order,
    module_key,
    resource_key,
    state_key_bcs,
    state_key_hash,
    table_key,
)
from ledgerkit.localnet.wire._module_abis import module_abi_reader
from ledgerkit.localnet.wire._txn_json import ModuleAbiOf
from ledgerkit.localnet.wire._txn_requests import signed_from_json
from ledgerkit.types import Address, ModuleId, MoveType, StructTag

__all__ = ["pending_data", "transaction_data"]

#: Reads the ``(json, bcs)`` of a state key at a version, or None.
StateAt = Callable[[bytes, int], "tuple[bytes, bytes] | None"]

_ABORT: Final = re.compile(
    r"Move abort in (0x[0-9a-fA-F]+)::(\w+): (?:(\w+)\((0x[0-9a-fA-F]+)\): (.*)|(0x[0-9a-fA-F]+))",
    re.DOTALL,
)
_SIGNED_FIELDS: Final = (
    "sender",
    "sequence_number",
    "max_gas_amount",
    "gas_unit_price",
    "expiration_timestamp_secs",
    "payload",
    "signature",
)


def _internal(message: str) -> NodeError:
    return NodeError(ErrorCode.INTERNAL_ERROR, message)


def _hash(text: str) -> bytes:
    return bytes.fromhex(text[2:])


def signed_of(
    txn: dict[str, Any], chain_id: int, abi_of: ModuleAbiOf | None = None
) -> SignedTransaction:
    """The signed transaction of a user (or pending) transaction's JSON, checked against
    its hash (a published call's arguments read by ``abi_of``, the ABIs as of its version;
    as the hex of their BCS when that does not rebuild it)."""
    try:
        request = {k: txn[k] for k in _SIGNED_FIELDS}
        if "replay_protection_nonce" in txn:  # orderless: the nonce is part of the payload
            request["replay_protection_nonce"] = txn["replay_protection_nonce"]
    except KeyError as exc:
        raise _internal(f"transaction {txn.get('hash')} does not rebuild: {exc}") from None
    failure = "rebuilds to another hash"
    for readers in (abi_of, None) if abi_of is not None else (None,):
        try:
            signed = signed_from_json(
                request, chain_id, simulation=False, stored=True, abi_of=readers
            )
        except LedgerError as exc:
            failure = f"does not rebuild: {exc}"
            continue
        if "0x" + bytes(signed.hash()).hex() == txn["hash"]:
            return signed
        failure = "rebuilds to another hash"
    raise _internal(f"transaction {txn['hash']} {failure}")


def pending_data(signed: SignedTransaction) -> TransactionData:
    return TransactionData(pending=signed)


def status_of(vm_status: str, success: bool) -> ExecutionStatus:
    """The execution status a ``vm_status`` text stands for."""
    if success:
        return ExecutionStatus()
    if vm_status == "Out of gas":
        return ExecutionStatus("OutOfGas")
    found = _ABORT.fullmatch(vm_status)
    if found is None:
        return ExecutionStatus("MiscellaneousError")
    address, module, name, code, text, bare = found.groups()
    location = ModuleId(Address.parse(address), module)
    if name is None:
        return ExecutionStatus("MoveAbort", location, int(bare, 16))
    return ExecutionStatus("MoveAbort", location, int(code, 16), name, text)


def _skey_of(change: dict[str, Any]) -> bytes:
    kind = change["type"]
    if kind == "write_resource":
        return resource_key(Address.parse(change["address"]), change["data"]["type"])
    if kind == "delete_resource":
        return resource_key(Address.parse(change["address"]), change["resource"])
    if kind == "write_module":
        return module_key(Address.parse(change["address"]), change["data"]["abi"]["name"])
    if kind == "delete_module":
        return module_key(Address.parse(change["address"]), str(change["module"]).split("::")[-1])
    return table_key(Address.parse(change["handle"]), _hash(change["key"]))


def _group_value(
    address: Address, tags: list[str], version: int, state_at: StateAt
) -> tuple[bytes | None, bool]:
    """A group's BCS map at ``version`` from its members' stored values (None: no member
    there), and whether any member was there before."""
    s = Serializer()
    members = []
    existed = False
    for tag in sorted(tags, key=member_order):
        skey = resource_key(address, tag)
        now = state_at(skey, version)
        existed = existed or (version > 0 and state_at(skey, version - 1) is not None)
        if now is not None:
            members.append((tag, now[1]))
    if not members:
        return None, existed
    s.uleb128(len(members))
    for tag, value in members:
        serialize_struct_tag(s, StructTag.parse(tag))
        s.var_bytes(value)
    return s.output(), existed


def write_set_of(changes: list[dict[str, Any]], version: int, state_at: StateAt) -> WriteSet:
    """The write set of a transaction's change JSON at ``version``."""
    out: list[tuple[StateKey, WriteOp] | Address] = []  # an address: its group, made below
    groups: dict[Address, list[str]] = {}
    for change in changes:
        skey = _skey_of(change)
        if state_key_hash(skey) != change["state_key_hash"]:
            address = Address.parse(change.get("address", "0x0"))
            if group_key_hash(bytes(address), OBJECT_GROUP) != change["state_key_hash"]:
                raise _internal(f"version {version}: a change does not name its state key")
            if address not in groups:
                groups[address] = []
                out.append(address)
            if change["type"] == "write_resource":
                groups[address].append(change["data"]["type"])
            continue
        key = StateKey.from_bcs(state_key_bcs(skey))
        now = state_at(skey, version)
        before = state_at(skey, version - 1) if version > 0 else None
        if now is None:
            op = WriteOp("Deletion")
        else:
            op = WriteOp("Modification" if before is not None else "Creation", now[1])
        out.append((key, op))
    ops = []
    for entry in out:
        if not isinstance(entry, Address):
            ops.append(entry)
            continue
        group_key = StateKey.from_bcs(group_key_bcs(entry, OBJECT_GROUP))
        value, existed = _group_value(entry, groups[entry], version, state_at)
        if value is None:
            ops.append((group_key, WriteOp("Deletion")))
        else:
            ops.append((group_key, WriteOp("Modification" if existed else "Creation", value)))
    return WriteSet(tuple(ops))


def event_of(event: dict[str, Any], codec: MoveValueCodec | None = None) -> ContractEvent:
    """One event of a transaction's JSON (``codec``: one that also knows the published
    structs, for a published module's event)."""
    event_type = MoveType.parse(event["type"])
    try:
        data = FRAMEWORK.codec.encode(event_type, event["data"])
    except LedgerError:
        if codec is None:
            raise
        data = codec.encode(event_type, event["data"])
    guid = event["guid"]
    account = Address.parse(guid["account_address"])
    number = int(guid["creation_number"])
    if number == 0 and account == Address.parse("0x0"):
        return ContractEvent(event_type, data)
    return ContractEvent(event_type, data, number, account, int(event["sequence_number"]))


def _ledger_transaction(
    txn: dict[str, Any], events: tuple[ContractEvent, ...], changes: WriteSet, chain_id: int,
    block_id: Callable[[int], bytes], abi_of: ModuleAbiOf,
) -> LedgerTransaction:  # fmt: skip
    kind = txn["type"]
    if kind == "user_transaction":
        return signed_of(txn, chain_id, abi_of)
    if kind == "genesis_transaction":
        return GenesisTransaction(changes, events)
    if kind == "block_metadata_transaction":
        return BlockMetadata(
            id=_hash(txn["id"]),
            epoch=int(txn["epoch"]),
            round=int(txn["round"]),
            proposer=Address.parse(txn["proposer"]),
            previous_block_votes_bitvec=bytes(txn["previous_block_votes_bitvec"]),
            failed_proposer_indices=tuple(txn["failed_proposer_indices"]),
            timestamp_usecs=int(txn["timestamp"]),
        )
    if kind == "block_epilogue_transaction":
        end = txn["block_end_info"]
        return BlockEpilogue(
            block_id(int(txn["version"])),
            end["block_gas_limit_reached"],
            end["block_output_limit_reached"],
            int(end["block_effective_block_gas_units"]),
            int(end["block_approx_output_size"]),
        )
    raise _internal(f"no BCS form for a {kind}")


def transaction_data(
    txn: dict[str, Any],
    *,
    chain_id: int,
    state_at: StateAt,
    block_id: Callable[[int], bytes],
    head_abi_of: ModuleAbiOf | None = None,
) -> TransactionData:
    """The ``TransactionData`` of a committed transaction's JSON (pending: its signed
    transaction, a published call's arguments read by ``head_abi_of``); ``block_id``
    gives the id of the block holding a version."""
    if txn.get("type") == "pending_transaction":
        return pending_data(signed_of(txn, chain_id, head_abi_of))
    version = int(txn["version"])
    changes_json = txn["changes"]
    if txn["type"] == "genesis_transaction":
        changes_json = txn["payload"]["write_set"]["changes"]
        events_json = txn["payload"]["write_set"]["events"]
    else:
        events_json = txn.get("events", [])

    def module_code(address: Address, name: str) -> bytes | None:
        found = state_at(module_key(address, name), version)
        return None if found is None else found[1]

    codec = MoveValueCodec(ChainLayouts(module_code))
    events = tuple(event_of(e, codec) for e in events_json)
    changes = write_set_of(changes_json, version, state_at)
    checkpoint = txn.get("state_checkpoint_hash")
    info = TransactionInfo(
        gas_used=int(txn["gas_used"]),
        status=status_of(txn["vm_status"], txn["success"]),
        transaction_hash=_hash(txn["hash"]),
        event_root_hash=_hash(txn["event_root_hash"]),
        state_change_hash=_hash(txn["state_change_hash"]),
        state_checkpoint_hash=None if checkpoint is None else _hash(checkpoint),
    )
    abi_of = module_abi_reader(lambda key: state_at(key, version))
    transaction = _ledger_transaction(txn, events, changes, chain_id, block_id, abi_of)
    onchain = TransactionOnChainData(
        version, transaction, info, events, _hash(txn["accumulator_root_hash"]), changes
    )
    return TransactionData(onchain=onchain)
