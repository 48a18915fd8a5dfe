"""Transactions as the node API carries them: JSON shapes both ways, and BCS records.

* ``_txn_json``: payloads, signatures and requests in the API's JSON, read into BCS
  structs, and the one writer of a transaction's JSON (pending, committed, simulated);
* ``_script_json``: script payloads in JSON, their arguments read by the ABI they carry;
* ``_json_fields``: what both JSON readers share: the refusal, required fields, hex
  bytes, and a call's type arguments and arguments;
* ``_txn_requests``: the signed transaction of a submit or simulate request, and the
  signing message of an ``encode_submission`` request;
* ``_module_abis``: published modules' ABIs in the state a transaction ran in, by which
  its JSON reads a call's arguments;
* ``_txn_bcs``: committed and pending transactions as BCS ``TransactionData``.

Exports the readers and writers the mempool, the chain and the ledger call.
"""

from __future__ import annotations

from ledgerkit.localnet.wire._module_abis import module_abi_reader
from ledgerkit.localnet.wire._txn_bcs import transaction_data
from ledgerkit.localnet.wire._txn_json import (
    ModuleAbiOf,
    decode_arguments,
    info_json,
    pending_json,
    user_fields,
)
from ledgerkit.localnet.wire._txn_requests import signed_from_json, signing_message_of

__all__ = [
    "ModuleAbiOf",
    "decode_arguments",
    "info_json",
    "module_abi_reader",
    "pending_json",
    "signed_from_json",
    "signing_message_of",
    "transaction_data",
    "user_fields",
]
