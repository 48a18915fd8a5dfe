"""The ``encode_submission`` flow, written once for both clients. No I/O here.

A JSON request is one call. A :class:`~ledgerkit.bcs.RawTransaction` (or multi-agent
one) is first rendered as that request: an entry function's BCS arguments are written
in JSON by the parameter types of its ABI, read from the node, so the flow asks for the
module before it asks for the encoding. The node's answer must be the transaction's own
signing message, or the node and ledgerkit disagree about it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledgerkit._errors import DecodingError, InputError
from ledgerkit.bcs import EntryFunction, MultiAgentRawTransaction, Multisig, RawTransaction
from ledgerkit.client import _calls as calls
from ledgerkit.client._flows import Flow, send
from ledgerkit.tx import EncodedSubmission, submission_request
from ledgerkit.types import MoveType, Result

__all__ = ["encode_submission"]

#: Parameters an entry function takes from the signers, not from its arguments.
_SIGNERS = frozenset({"signer", "&signer"})


def _call_of(raw: RawTransaction) -> EntryFunction | None:
    payload = raw.payload
    if isinstance(payload, EntryFunction):
        return payload
    if isinstance(payload, Multisig):
        return payload.payload
    return None


def _param_types(call: EntryFunction) -> Flow[list[MoveType]]:
    """The value parameter types of ``call``'s function, its type arguments put in."""
    fid = call.function_id
    module = (yield from send(calls.account_module(fid.address, fid.module.name, None))).value
    function = module.abi.function(fid.name) if module.abi is not None else None
    if function is None:
        raise InputError(f"the node's module {fid.module} has no function {fid.name!r}")
    params = [MoveType.parse(p) for p in function.params if p not in _SIGNERS]
    return [p.substitute(call.type_args) for p in params]


def encode_submission(
    request: Mapping[str, Any] | RawTransaction | MultiAgentRawTransaction,
) -> Flow[Result[EncodedSubmission]]:
    """The node's signing message of ``request``, read back into its transaction.

    Raises
    ------
    DecodingError
        The node's message is not the transaction's own (another chain id, or an
        encoding ledgerkit does not share).
    """
    if isinstance(request, Mapping):
        return (yield from send(calls.encode_submission(request)))
    if not isinstance(request, RawTransaction | MultiAgentRawTransaction):
        calls.encode_submission(request)  # raises the InputError naming what it takes
    raw = request.raw if isinstance(request, MultiAgentRawTransaction) else request
    call = _call_of(raw)
    types = (yield from _param_types(call)) if call is not None else None
    result = yield from send(
        calls.encode_submission(submission_request(request, param_types=types))
    )
    expected = request.signing_message()
    if bytes(result.value.signing_message) != expected:
        found = result.value.raw
        node_raw = found.raw if isinstance(found, MultiAgentRawTransaction) else found
        if node_raw.chain_id != raw.chain_id:
            raise DecodingError(
                f"the transaction is for chain {raw.chain_id}, the node encodes it for "
                f"chain {node_raw.chain_id}"
            )
        raise DecodingError("the node encodes this transaction differently from ledgerkit")
    return result
