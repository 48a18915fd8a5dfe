"""The node's app reaches the ledger only through its typed protocol: a double that has
nothing but what a handler calls serves the API as the real ledger does."""

from __future__ import annotations

import asyncio
import typing
from typing import Any

import httpx

from ledgerkit.localnet import NodeConfig
from ledgerkit.localnet.app import create_app
from ledgerkit.localnet.app._http import NodeState
from ledgerkit.localnet.app._ledger_protocol import AppLedger
from ledgerkit.types import LedgerMeta

META = LedgerMeta(
    chain_id=9,
    ledger_version=1234,
    oldest_ledger_version=0,
    ledger_timestamp_usec=1_700_000_000_000_000,
    epoch=3,
    block_height=77,
    oldest_block_height=0,
)


class OneRead:
    """The one read ``GET /v1/transactions/by_version/{n}`` makes."""

    def transaction_by_version(self, version: int) -> dict[str, Any]:
        return {"version": str(version), "type": "state_checkpoint_transaction"}


class TwoReadLedger:
    """Only the calls ``GET /v1`` and ``GET /v1/transactions/by_version/{n}`` make."""

    config = NodeConfig()
    reads = OneRead()

    def meta(self, *, gas_used: int | None = None, cursor: str | None = None) -> LedgerMeta:
        return META

    def index(self) -> dict[str, Any]:
        return {"chain_id": 9, "ledger_version": "1234", "node_role": "full_node"}


def test_the_app_and_its_state_are_typed_with_the_protocol() -> None:
    assert typing.get_type_hints(create_app)["ledger"] is AppLedger
    assert typing.get_type_hints(NodeState.__init__)["ledger"] is AppLedger


def test_a_double_with_only_the_protocols_calls_serves_them() -> None:
    app = create_app(typing.cast(AppLedger, TwoReadLedger()))

    async def ask() -> tuple[httpx.Response, httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://node.test") as http:
            return await http.get("/v1"), await http.get("/v1/transactions/by_version/5")

    index, found = asyncio.run(ask())
    assert index.status_code == 200
    assert index.json() == {"chain_id": 9, "ledger_version": "1234", "node_role": "full_node"}
    assert index.headers["X-Aptos-Ledger-Version"] == "1234"
    assert index.headers["X-Aptos-Block-Height"] == "77"
    assert found.status_code == 200
    assert found.json() == {"version": "5", "type": "state_checkpoint_transaction"}
