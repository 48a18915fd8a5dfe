"""Transaction requests in JSON: the signed transaction of a submit or simulate request,
and the signing message of an ``encode_submission`` request.

Every malformed request is an ``invalid_input`` :class:`NodeError`.
"""

from __future__ import annotations

from typing import Any

from ledgerkit._errors import ErrorCode
from ledgerkit.bcs import MultiAgentRawTransaction, SignedTransaction
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.wire._txn_json import (
    ModuleAbiOf,
    authenticator_from_json,
    body_address,
    raw_from_json,
)

__all__ = ["signed_from_json", "signing_message_of"]


def signed_from_json(
    request: dict[str, Any],
    chain_id: int,
    *,
    simulation: bool,
    stored: bool = False,
    abi_of: ModuleAbiOf | None = None,
) -> SignedTransaction:
    """The signed transaction of a JSON submit (or simulate) request on chain ``chain_id``
    (``stored``: rebuilt from a committed transaction's JSON; ``abi_of``: the ABI of a
    published module, by which a call of it reads its JSON arguments)."""
    raw = raw_from_json(request, chain_id, stored=stored, abi_of=abi_of)
    if "signature" not in request:
        what = "simulated" if simulation else "submitted"
        raise NodeError(ErrorCode.INVALID_INPUT, f"a {what} transaction needs a signature")
    return SignedTransaction(raw, authenticator_from_json(request["signature"]))


def signing_message_of(
    request: dict[str, Any], chain_id: int, abi_of: ModuleAbiOf | None = None
) -> bytes:
    """The signing message of a JSON transaction request (multi-agent with secondary signers)."""
    raw = raw_from_json(request, chain_id, abi_of=abi_of)
    secondary = request.get("secondary_signers")
    if secondary:
        if not isinstance(secondary, list):
            raise NodeError(ErrorCode.INVALID_INPUT, "secondary_signers must be an array")
        addresses = tuple(body_address(a, "secondary_signers") for a in secondary)
        return MultiAgentRawTransaction(raw, addresses).signing_message()
    return raw.signing_message()
