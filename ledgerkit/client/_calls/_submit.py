"""The request builders that send transactions to the node: submission (one, or a batch),
simulation, and the signing message of a JSON request. Published by
:mod:`ledgerkit.client.calls`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from ledgerkit import models
from ledgerkit._endpoints import JSON, SIGNED_TXN_BCS
from ledgerkit._errors import InputError
from ledgerkit.bcs import Ed25519Authenticator, RawTransaction, Serializer, SignedTransaction
from ledgerkit.client._call import Call, _call, _params, _public_key_bytes, _route, json_body
from ledgerkit.client._declare import builder, endpoint
from ledgerkit.models import BatchSubmitResult, PendingTransaction, UserTransaction
from ledgerkit.tx import EncodedSubmission

# The client methods' return annotations read ``Result[...]`` (see _declare): imported
# here, where typing.get_type_hints looks them up.
from ledgerkit.types import Result as Result

_ZERO_SIGNATURE: Final = bytes(64)


@endpoint
def submit_transaction(
    signed: SignedTransaction | Mapping[str, Any],
) -> Call[PendingTransaction]:
    """Submit a signed transaction: as BCS, or, given its JSON request (with its
    ``signature``, e.g. from ``EncodedSubmission.json_submission``), as JSON. Sent
    exactly once, never retried.

    Returns
    -------
    Result[PendingTransaction]
        Its ``hash`` is what :meth:`wait_for_transaction` takes.

    Raises
    ------
    TransactionRejectedError
        ``VMError``, ``SequenceNumberTooOldError``, ``MempoolFullError``...
    """
    # The one call that is never retried: a second copy could be a second transfer.
    if isinstance(signed, SignedTransaction):
        body, content_type = signed.to_bcs(), SIGNED_TXN_BCS
    elif isinstance(signed, Mapping):
        if "signature" not in signed:
            raise InputError("a JSON submission carries its signature (a 'signature' field)")
        body, content_type = json_body(dict(signed)), JSON
    else:
        raise InputError(
            f"submit a SignedTransaction or its JSON request, got {type(signed).__name__}"
        )
    return _call(
        _route("submit_transaction"),
        models.decode_pending_transaction,
        body=body,
        content_type=content_type,
        idempotent=False,
    )


@endpoint
def submit_batch_transactions(signed: Sequence[SignedTransaction]) -> Call[BatchSubmitResult]:
    """Submit several signed transactions in one request. Sent exactly once.

    Each is admitted as :meth:`submit_transaction` would admit it; one refused does
    not stop the others. Nodes take a limited number per batch (10 by default).

    Returns
    -------
    Result[BatchSubmitResult]
        ``transaction_failures`` lists the refused ones by position, each with its
        error record and, as ``.exception``, the error a single submission would
        have raised; empty when all were accepted.

    Raises
    ------
    InvalidInputError
        A transaction does not parse, or the batch is larger than the node takes.
    MempoolFullError
        507: the mempool took none of them.
    """
    if isinstance(signed, SignedTransaction) or not isinstance(signed, Sequence):
        raise InputError(f"submit a list of SignedTransaction, got {type(signed).__name__}")
    if not signed:
        raise InputError("a batch holds at least one transaction")
    for index, item in enumerate(signed):
        if not isinstance(item, SignedTransaction):
            raise InputError(f"transaction {index} is a {type(item).__name__}, not signed")
    count = Serializer()
    count.uleb128(len(signed))
    return _call(
        _route("submit_batch_transactions"),
        models.decode_batch_submit_result,
        body=count.output() + b"".join(item.to_bcs() for item in signed),
        content_type=SIGNED_TXN_BCS,
        idempotent=False,
    )


@endpoint
def simulate_transaction(
    transaction: SignedTransaction | RawTransaction,
    *,
    public_key: object = None,
    estimate_max_gas_amount: bool = False,
    estimate_gas_unit_price: bool = False,
    estimate_prioritized_gas_unit_price: bool = False,
) -> Call[list[UserTransaction]]:
    """Execute a transaction without committing it; gas used is in ``ledger.gas_used``.

    Parameters
    ----------
    transaction : SignedTransaction or RawTransaction
        A signed transaction whose signature does not verify (nodes refuse valid
        ones), or a raw one with ``public_key``: it is then signed with zeros.
    public_key : bytes, str or key, optional
        The sender's Ed25519 public key (or its private key), for a raw transaction.
    estimate_max_gas_amount, estimate_gas_unit_price, estimate_prioritized_gas_unit_price
        Let the node replace the max gas amount or the gas unit price by its estimate.
    """
    if isinstance(transaction, RawTransaction):
        if public_key is None:
            raise InputError("simulating a raw transaction needs the sender's public_key")
        auth = Ed25519Authenticator(_public_key_bytes(public_key), _ZERO_SIGNATURE)
        transaction = SignedTransaction(transaction, auth)
    elif not isinstance(transaction, SignedTransaction):
        raise InputError(
            f"simulate a SignedTransaction or a RawTransaction, got {type(transaction).__name__}"
        )
    elif public_key is not None:
        raise InputError("public_key goes with a RawTransaction; this one is signed already")
    flags = {
        "estimate_max_gas_amount": estimate_max_gas_amount,
        "estimate_gas_unit_price": estimate_gas_unit_price,
        "estimate_prioritized_gas_unit_price": estimate_prioritized_gas_unit_price,
    }
    return _call(
        _route("simulate_transaction"),
        models.decode_simulation,
        _params(**{name: "true" for name, on in flags.items() if on}),
        body=transaction.to_bcs(),
        content_type=SIGNED_TXN_BCS,
    )


@builder
def encode_submission(request: Mapping[str, Any]) -> Call[EncodedSubmission]:
    """The node's signing message of a JSON request, read back into its transaction.

    The clients' :meth:`~ledgerkit.Client.encode_submission` sends it, and takes a
    ``RawTransaction`` or a ``MultiAgentRawTransaction`` too (it writes their request).
    """
    if not isinstance(request, Mapping):
        raise InputError(
            "encode_submission takes a JSON request (a mapping), a RawTransaction or a "
            f"MultiAgentRawTransaction, got {type(request).__name__}"
        )
    sent = dict(request)

    def decode(data: bytes) -> EncodedSubmission:
        return EncodedSubmission.from_signing_message(models.decode_signing_message(data), sent)

    return _call(_route("encode_submission"), decode, body=json_body(sent), content_type=JSON)
