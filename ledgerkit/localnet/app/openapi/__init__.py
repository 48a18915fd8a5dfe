"""The node's own OpenAPI 3.0.3 document, served at ``GET /v1/spec.json``.

* ``_document``: :func:`openapi_document`, the paths, parameters, media types, statuses
  and headers rendered from the endpoint table's rows;
* ``_components``: the components' schemas, gathered from the modules that describe each
  concept: ``_scalar_schemas`` (numbers, addresses, bytes, hashes, Move names),
  ``_record_schemas`` (ledger info, health, gas, errors), ``_state_schemas``,
  ``_transaction_schemas``, ``_payload_schemas`` and ``_signature_schemas``;
* ``_notation``: the building blocks and the field notation the tables are written in.

Exports :func:`openapi_document`.
"""

from __future__ import annotations

from ledgerkit.localnet.app.openapi._document import openapi_document

__all__ = ["openapi_document"]
