"""The components' schemas of the node's OpenAPI document, gathered from the modules that
describe each concept: scalars, the node's own records, state, transactions, payloads and
signatures."""

from __future__ import annotations

from ledgerkit.localnet.app.openapi._notation import Schema
from ledgerkit.localnet.app.openapi._payload_schemas import _payload_schemas
from ledgerkit.localnet.app.openapi._record_schemas import _general_schemas
from ledgerkit.localnet.app.openapi._scalar_schemas import _scalar_schemas
from ledgerkit.localnet.app.openapi._signature_schemas import _signature_schemas
from ledgerkit.localnet.app.openapi._state_schemas import _state_schemas
from ledgerkit.localnet.app.openapi._transaction_schemas import _transaction_schemas


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
