"""Typed records of the node's JSON responses, and the functions that decode them.

The records are `msgspec <https://jcristharif.com/msgspec/>`_ structs: msgspec decodes
JSON bytes straight into typed, frozen objects in one C pass, which keeps a page of
transactions close to the cost of plain ``json`` parsing, and in lax mode it turns the
API's decimal U64 strings into exact Python ``int`` without going through ``float``.
Field names are the API's (``return`` is ``return_``); U64 fields are ``int`` checked
to ``0 <= n < 2**64``; addresses and hashes stay ``str`` as the node writes them (with
parsing properties where useful); Move values (resource and event ``data``, arguments,
view results) stay plain JSON, so u128 and u256 inside them are exact decimal strings.

Unions are told apart by ``type``: transactions, payloads, write sets, signatures and
write-set changes. Every member has it as ``record.type`` (``txn.type ==
"user_transaction"``, ``txn.payload.type == "entry_function_payload"``), the value the
node wrote and :meth:`~Record.to_dict` starts with; ``isinstance`` tells the same. A
``type`` this version does not know is kept as the union's ``Unknown...`` record (an
:class:`UnknownVariant`) with the raw JSON, never dropped and never an error; a payload
of unknown type inside a user transaction leaves the rest of the transaction typed. For
type checkers each union field reads ``Known... | Unknown...``.

``single_sender`` signatures: the node writes that tag over the inner account
signature's own, so :class:`SingleSenderSignature` keeps the flattened fields as sent and
tells single-key, multi-key and the other shapes apart by their fields (``.scheme``,
``.is_multi_key``, and ``.sender`` for the typed account signature).

Transactions sent without ``type`` decode too: the answer of a submission (a pending
transaction) and of a simulation (user transactions) are written so by nodes, and their
kind is told by their fields (a ``hash`` and no ``version``: pending; a ``version`` and a
``sender``: user).

The ``decode_*`` functions take raw bytes and do no I/O; ledger metadata travels beside
the records (the client pairs them), never inside. One reads each JSON answer of the
node API, and the client reads its answers with these same functions:

===========================================  =====================================
answer                                       decoder
===========================================  =====================================
``GET /``                                    :func:`decode_ledger_info`
``GET /-/healthy``                           :func:`decode_health`
``GET /estimate_gas_price``                  :func:`decode_gas_estimate`
``GET /accounts/{a}``                        :func:`decode_account`
``GET /accounts/{a}/resources``              :func:`decode_resources`
``GET /accounts/{a}/resource/{type}``        :func:`decode_resource`
``GET /accounts/{a}/modules``                :func:`decode_modules`
``GET /accounts/{a}/module/{name}``          :func:`decode_module`
``GET /accounts/{a}/balance/{asset}``        :func:`decode_balance`
``GET /accounts/{a}/transactions``           :func:`decode_transactions`
``GET /accounts/{a}/transaction_summaries``  :func:`decode_transaction_summaries`
``GET /accounts/{a}/events/...`` (both)      :func:`decode_events`
``GET /transactions``                        :func:`decode_transactions`
(its versions and events alone)              :func:`decode_transaction_events`
``GET /transactions/by_hash/{h}``            :func:`decode_transaction`
``GET /transactions/wait_by_hash/{h}``       :func:`decode_transaction`
``GET /transactions/by_version/{v}``         :func:`decode_transaction`
``POST /transactions`` (submit)              :func:`decode_pending_transaction`
``POST /transactions/batch``                 :func:`decode_batch_submit_result`
``POST /transactions/simulate``              :func:`decode_simulation`
``POST /transactions/encode_submission``     :func:`decode_signing_message`
``GET /transactions/auxiliary_info``         :func:`decode_auxiliary_info`
``POST /tables/{handle}/item``               :func:`decode_table_item`
``POST /view``                               :func:`decode_view`
``GET /blocks/by_height/{n}``                :func:`decode_block`
``GET /blocks/by_version/{v}``               :func:`decode_block`
``GET /info``, ``GET /spec.json``            ``decode(body, dict[str, Any])``
===========================================  =====================================

The generic :func:`decode_transaction` and :func:`decode_transactions` read the answers of
a submission and of a simulation too, into the same records. BCS answers are read by
:mod:`ledgerkit.bcs` (``TransactionData.from_bcs``...); an error answer is the node's
error record, which the client turns into an exception.

What a transaction moved is read from its record without I/O: :func:`balance_deltas`
(exact signed change per account and asset), :func:`gas_payer`, :func:`fee_statement`
and :func:`storage_fee_refund`, and the fungible stores whose owner the record alone does
not tell (:func:`stores_to_look_up`); :func:`token_moves` (who received or gave up which
digital asset, token v2 and v1).

:func:`decode_transaction_rows` reads a page of transactions as rows
(:class:`TransactionRow`), only the fields a transactions frame shows: what bulk
extraction fetches and ``transactions_to_frame(bytes)`` reads. Every record's
``to_dict()`` gives a plain dict (attribute names, nested records as dicts, integers
exact), for ``pandas.DataFrame([record.to_dict()])`` and the like.

:class:`~ledgerkit.AbiCache` is the one cache of module ABIs (:class:`MoveModule`
records) every part of ledgerkit reads them from: functions to check and explain calls,
struct layouts for the BCS codec, event data laid out as columns; :func:`abi_requests` is
the flow that says which modules a set of types still needs.

Examples
--------
>>> from ledgerkit.models import decode_transactions, UserTransaction
>>> txs = decode_transactions(body)  # doctest: +SKIP
>>> [tx.gas_used for tx in txs if isinstance(tx, UserTransaction)]  # doctest: +SKIP
"""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.models._abi_cache import AbiCache, Leaf, abi_requests
from ledgerkit.models._accounts import (
    AccountData,
    MoveFunction,
    MoveGenericTypeParam,
    MoveModule,
    MoveModuleBytecode,
    MoveResource,
    MoveStruct,
    MoveStructField,
    MoveStructVariant,
)
from ledgerkit.models._balances import BalanceKey as BalanceKey
from ledgerkit.models._balances import (
    FeeStatement,
    balance_deltas,
    coin_types_named,
    fee_statement,
    gas_payer,
    primary_store_address,
    resolved_stores,
    storage_fee_refund,
    store_facts,
    stores_to_look_up,
)
from ledgerkit.models._balances import StoreFacts as StoreFacts
from ledgerkit.models._base import Record, TaggedRecord, UnknownVariant
from ledgerkit.models._blocks import Block
from ledgerkit.models._changes import (
    DecodedTableData,
    DeletedTableData,
    DeleteModule,
    DeleteResource,
    DeleteTableItem,
    KnownWriteSetChange,
    UnknownChange,
    WriteModule,
    WriteResource,
    WriteSetChange,
    WriteTableItem,
)
from ledgerkit.models._decode import (
    decode,
    decode_account,
    decode_auxiliary_info,
    decode_balance,
    decode_batch_submit_result,
    decode_block,
    decode_events,
    decode_gas_estimate,
    decode_health,
    decode_ledger_info,
    decode_module,
    decode_modules,
    decode_pending_transaction,
    decode_resource,
    decode_resources,
    decode_signing_message,
    decode_simulation,
    decode_table_item,
    decode_transaction,
    decode_transaction_events,
    decode_transaction_summaries,
    decode_transactions,
    decode_view,
    to_builtins,
)
from ledgerkit.models._events import Event, EventGuid, TransactionEvents
from ledgerkit.models._node_status import GasEstimate, HealthStatus, LedgerInfo
from ledgerkit.models._payloads import (
    ClaimedEntryFunction,
    DirectWriteSet,
    EncryptedTransactionPayload,
    EntryFunctionPayload,
    GenesisPayload,
    KnownTransactionPayload,
    KnownWriteSet,
    ModuleBundlePayload,
    MoveScriptBytecode,
    MultisigPayload,
    ScriptPayload,
    ScriptWriteSet,
    TransactionPayload,
    UnknownPayload,
    UnknownWriteSet,
    WriteSet,
    WriteSetPayload,
    WriteSetScript,
)
from ledgerkit.models._rows import (
    PayloadRow,
    TransactionRow,
    decode_transaction_rows,
    row_from_record,
)
from ledgerkit.models._signatures import (
    AbstractionSignature,
    AbstractSignature,
    AccountSignature,
    AnyPublicKey,
    AnySignature,
    Ed25519Signature,
    FeePayerSignature,
    IndexedSignature,
    KnownAccountSignature,
    KnownTransactionSignature,
    MultiAgentSignature,
    MultiEd25519Signature,
    MultiKeySignature,
    NoAccountSignature,
    SingleKeySignature,
    SingleSenderSignature,
    TransactionSignature,
    UnknownSignature,
)
from ledgerkit.models._signers import (
    SignatureRow,
    fee_payer,
    secondary_signers,
    signature_kind,
)
from ledgerkit.models._token_moves import TokenKey as TokenKey
from ledgerkit.models._token_moves import token_moves, token_v1_data_id
from ledgerkit.models._transaction_answers import (
    AuxiliaryInfo,
    BatchSubmitFailure,
    BatchSubmitResult,
    TransactionSummary,
)
from ledgerkit.models._transactions import (
    BlockEndInfo,
    BlockEpilogueTransaction,
    BlockMetadataExtension,
    BlockMetadataTransaction,
    CommittedTransaction,
    GenesisTransaction,
    KnownTransaction,
    PendingTransaction,
    StateCheckpointTransaction,
    Transaction,
    UnknownTransaction,
    UserTransaction,
    ValidatorTransaction,
)

__all__ = [
    "AbiCache",
    "AbstractSignature",
    "AbstractionSignature",
    "AccountData",
    "AccountSignature",
    "AnyPublicKey",
    "AnySignature",
    "AuxiliaryInfo",
    "BatchSubmitFailure",
    "BatchSubmitResult",
    "Block",
    "BlockEndInfo",
    "BlockEpilogueTransaction",
    "BlockMetadataExtension",
    "BlockMetadataTransaction",
    "ClaimedEntryFunction",
    "CommittedTransaction",
    "DecodedTableData",
    "DeleteModule",
    "DeleteResource",
    "DeleteTableItem",
    "DeletedTableData",
    "DirectWriteSet",
    "Ed25519Signature",
    "EncryptedTransactionPayload",
    "EntryFunctionPayload",
    "Event",
    "EventGuid",
    "FeePayerSignature",
    "FeeStatement",
    "GasEstimate",
    "GenesisPayload",
    "GenesisTransaction",
    "HealthStatus",
    "IndexedSignature",
    "KnownAccountSignature",
    "KnownTransaction",
    "KnownTransactionPayload",
    "KnownTransactionSignature",
    "KnownWriteSet",
    "KnownWriteSetChange",
    "Leaf",
    "LedgerInfo",
    "ModuleBundlePayload",
    "MoveFunction",
    "MoveGenericTypeParam",
    "MoveModule",
    "MoveModuleBytecode",
    "MoveResource",
    "MoveScriptBytecode",
    "MoveStruct",
    "MoveStructField",
    "MoveStructVariant",
    "MultiAgentSignature",
    "MultiEd25519Signature",
    "MultiKeySignature",
    "MultisigPayload",
    "NoAccountSignature",
    "PayloadRow",
    "PendingTransaction",
    "Record",
    "ScriptPayload",
    "ScriptWriteSet",
    "SignatureRow",
    "SingleKeySignature",
    "SingleSenderSignature",
    "StateCheckpointTransaction",
    "TaggedRecord",
    "Transaction",
    "TransactionEvents",
    "TransactionPayload",
    "TransactionRow",
    "TransactionSignature",
    "TransactionSummary",
    "UnknownChange",
    "UnknownPayload",
    "UnknownSignature",
    "UnknownTransaction",
    "UnknownVariant",
    "UnknownWriteSet",
    "UserTransaction",
    "ValidatorTransaction",
    "WriteModule",
    "WriteResource",
    "WriteSet",
    "WriteSetChange",
    "WriteSetPayload",
    "WriteSetScript",
    "WriteTableItem",
    "abi_requests",
    "balance_deltas",
    "coin_types_named",
    "decode",
    "decode_account",
    "decode_auxiliary_info",
    "decode_balance",
    "decode_batch_submit_result",
    "decode_block",
    "decode_events",
    "decode_gas_estimate",
    "decode_health",
    "decode_ledger_info",
    "decode_module",
    "decode_modules",
    "decode_pending_transaction",
    "decode_resource",
    "decode_resources",
    "decode_signing_message",
    "decode_simulation",
    "decode_table_item",
    "decode_transaction",
    "decode_transaction_events",
    "decode_transaction_rows",
    "decode_transaction_summaries",
    "decode_transactions",
    "decode_view",
    "fee_payer",
    "fee_statement",
    "gas_payer",
    "primary_store_address",
    "resolved_stores",
    "row_from_record",
    "secondary_signers",
    "signature_kind",
    "storage_fee_refund",
    "store_facts",
    "stores_to_look_up",
    "to_builtins",
    "token_moves",
    "token_v1_data_id",
]

# Public names report where users import them from (see ledgerkit._public); the ABI
# cache is the front door's.
_publish(globals(), __all__, __name__)
_publish(globals(), ("AbiCache",), "ledgerkit")
