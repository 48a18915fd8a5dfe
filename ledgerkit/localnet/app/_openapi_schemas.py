"""The components' schemas of the node's OpenAPI document, gathered from the modules that
describe each concept: scalars, the node's own records, state, transactions, payloads and
signatures."""

from __future__ import annotations

from ledgerkit.localnet.app._openapi_general import _general_schemas
from ledgerkit.localnet.app._openapi_notation import Schema
from ledgerkit.localnet.app._openapi_payloads import _payload_schemas
from ledgerkit.localnet.app._openapi_scalars import _scalar_schemas
from ledgerkit.localnet.app._openapi_signatures import _signature_schemas
from ledgerkit.localnet.app._openapi_state import _state_schemas
from ledgerkit.localnet.app._openapi_transactions import _transaction_schemas


def _schemas() -> dict[str, Schema]:
    """Every schema, sorted by name; a name described twice is an error."""
    schemas: dict[str, Schema] = {}
    for part in (
        _scalar_schemas(),
        _general_schemas(),
        _state_schemas(),
        _transaction_schemas(),
        _payload_schemas(),
        _signature_schemas(),
    ):
        twice = sorted(schemas.keys() & part.keys())
        if twice:
            raise RuntimeError(f"schemas described twice: {twice}")
        schemas |= part
    return dict(sorted(schemas.items()))
