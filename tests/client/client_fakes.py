"""What the client's unit tests share: a scripted node behind ``httpx.MockTransport``, a
fake clock, and answer bodies shaped like a public Aptos node's.

The fake node routes ``(method, path)`` (the path decoded, without ``/v1``) to handlers,
writes the ledger headers with either prefix (``X-NODE-`` as our spec, ``X-APTOS-`` as
Aptos), and records every request so tests can count what was sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Final

import httpx

from ledgerkit.client import AsyncClient, Client
from ledgerkit.types import LedgerMeta

BASE: Final = "http://node.test/v1"

META: Final = LedgerMeta(
    chain_id=2,
    ledger_version=5_000,
    oldest_ledger_version=100,
    ledger_timestamp_usec=1_700_000_000_123_456,
    epoch=7,
    block_height=900,
    oldest_block_height=20,
)

Handler = Callable[[httpx.Request], httpx.Response]


def answer(
    body: Any,
    *,
    status: int = 200,
    meta: LedgerMeta | None = META,
    prefix: str = "X-NODE-",
    raw: bytes | None = None,
    content_type: str = "application/json",
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    """An answer as a node writes it: the body, the ledger headers, the media type."""
    content = raw if raw is not None else json.dumps(body).encode()
    all_headers = {"content-type": content_type}
    if meta is not None:
        all_headers.update(meta.to_headers(prefix))
    all_headers.update(headers or {})
    return httpx.Response(status, content=content, headers=all_headers)


def error(
    status: int,
    error_code: str,
    message: str = "refused",
    *,
    vm_error_code: int | None = None,
    meta: LedgerMeta | None = META,
    prefix: str = "X-NODE-",
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    """The node's error record."""
    record = {"message": message, "error_code": error_code, "vm_error_code": vm_error_code}
    return answer(record, status=status, meta=meta, prefix=prefix, headers=headers)


class FakeNode:
    """A scripted node: register answers per route, then hand ``transport`` to a client."""

    def __init__(self) -> None:
        self.routes: dict[tuple[str, str], Handler] = {}
        self.requests: list[httpx.Request] = []

    def on(self, method: str, path: str, handler: Handler | httpx.Response) -> None:
        """Answer ``method path`` with ``handler(request)`` (or always the same answer)."""
        if isinstance(handler, httpx.Response):
            fixed = handler
            self.routes[(method, path)] = lambda _request: _copy(fixed)
        else:
            self.routes[(method, path)] = handler

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        request.read()
        path = request.url.path.removeprefix("/v1") or "/"
        handler = self.routes.get((request.method, path))
        if handler is None:
            return error(404, "web_framework_error", f"no route {request.method} {path}")
        return handler(request)

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self)

    def client(self, **options: Any) -> Client:
        options.setdefault("cache", False)
        return Client(BASE, transport=self.transport, **options)

    def async_client(self, **options: Any) -> AsyncClient:
        options.setdefault("cache", False)
        return AsyncClient(BASE, transport=self.transport, **options)

    def sent(self, path: str | None = None) -> list[httpx.Request]:
        """The requests received (for one path, decoded and without ``/v1``)."""
        if path is None:
            return list(self.requests)
        return [r for r in self.requests if (r.url.path.removeprefix("/v1") or "/") == path]


def _copy(response: httpx.Response) -> httpx.Response:
    return httpx.Response(response.status_code, content=response.content, headers=response.headers)


class FakeClock:
    """Time that moves only when someone sleeps; every sleep is recorded."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def time(self) -> float:
        return 1_700_000_000.0 + self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


class AsyncFakeClock(FakeClock):
    """The same for the async client."""

    async def sleep(self, seconds: float) -> None:  # type: ignore[override]
        self.sleeps.append(seconds)
        self.now += seconds


def with_cursor(meta: LedgerMeta, cursor: str | None) -> LedgerMeta:
    return replace(meta, cursor=cursor)


# -- bodies shaped like a public Aptos node's ---------------------------------------------------

ADDRESS: Final = "0x" + "ab" * 32
HASH: Final = "0x" + "5e" * 32

LEDGER_INFO: Final = {
    "chain_id": 2,
    "epoch": "7",
    "ledger_version": "5000",
    "oldest_ledger_version": "100",
    "ledger_timestamp": "1700000000123456",
    "node_role": "full_node",
    "oldest_block_height": "20",
    "block_height": "900",
    "git_hash": "0123456789abcdef0123456789abcdef01234567",
}

ACCOUNT: Final = {"sequence_number": "18446744073709551615", "authentication_key": ADDRESS}

COIN_STORE: Final = {
    "type": "0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>",
    "data": {
        "coin": {"value": "340282366920938463463374607431768211455"},
        "frozen": False,
        "deposit_events": {
            "counter": "3",
            "guid": {"id": {"addr": ADDRESS, "creation_num": "2"}},
        },
    },
}

ACCOUNT_RESOURCE: Final = {
    "type": "0x1::account::Account",
    "data": {"sequence_number": "9", "authentication_key": ADDRESS},
}

MODULE: Final = {
    "bytecode": "0xa11ceb0b0600000001",
    "abi": {
        "address": "0x1",
        "name": "coin",
        "friends": ["0x1::aptos_coin"],
        "exposed_functions": [
            {
                "name": "balance",
                "visibility": "public",
                "is_entry": False,
                "is_view": True,
                "generic_type_params": [{"constraints": []}],
                "params": ["address"],
                "return": ["u64"],
            }
        ],
        "structs": [
            {
                "name": "Coin",
                "is_native": False,
                "abilities": ["store"],
                "generic_type_params": [{"constraints": [], "is_phantom": True}],
                "fields": [{"name": "value", "type": "u64"}],
            }
        ],
    },
}


def event(sequence_number: int, *, creation_number: int = 2, version: int = 4000) -> dict[str, Any]:
    return {
        "version": str(version + sequence_number),
        "guid": {"creation_number": str(creation_number), "account_address": ADDRESS},
        "sequence_number": str(sequence_number),
        "type": "0x1::coin::DepositEvent",
        "data": {"amount": str(1000 + sequence_number)},
    }


ENTRY_PAYLOAD: Final = {
    "type": "entry_function_payload",
    "function": "0x1::aptos_account::transfer",
    "type_arguments": [],
    "arguments": [ADDRESS, "100"],
}

SIGNATURE: Final = {
    "type": "ed25519_signature",
    "public_key": "0x" + "11" * 32,
    "signature": "0x" + "22" * 64,
}


def user_transaction(version: int, *, success: bool = True) -> dict[str, Any]:
    return {
        "type": "user_transaction",
        "version": str(version),
        "hash": "0x" + f"{version:064x}",
        "state_change_hash": "0x" + "01" * 32,
        "event_root_hash": "0x" + "02" * 32,
        "state_checkpoint_hash": None,
        "gas_used": "24",
        "success": success,
        "vm_status": "Executed successfully" if success else "Move abort",
        "accumulator_root_hash": "0x" + "03" * 32,
        "changes": [
            {
                "type": "write_resource",
                "address": ADDRESS,
                "state_key_hash": "0x" + "04" * 32,
                "data": ACCOUNT_RESOURCE,
            }
        ],
        "sender": ADDRESS,
        "sequence_number": "9",
        "max_gas_amount": "2000",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": "1700000600",
        "payload": ENTRY_PAYLOAD,
        "signature": SIGNATURE,
        "events": [{k: v for k, v in event(0).items() if k != "version"}],
        "timestamp": "1700000000123456",
    }


def block_metadata_transaction(version: int) -> dict[str, Any]:
    return {
        "type": "block_metadata_transaction",
        "version": str(version),
        "hash": "0x" + f"{version:064x}",
        "state_change_hash": "0x" + "01" * 32,
        "event_root_hash": "0x" + "02" * 32,
        "state_checkpoint_hash": None,
        "gas_used": "0",
        "success": True,
        "vm_status": "Executed successfully",
        "accumulator_root_hash": "0x" + "03" * 32,
        "changes": [],
        "id": "0x" + "0a" * 32,
        "epoch": "7",
        "round": "12",
        "events": [],
        "previous_block_votes_bitvec": [255, 1],
        "proposer": ADDRESS,
        "failed_proposer_indices": [],
        "timestamp": "1700000000000000",
    }


PENDING: Final = {
    "type": "pending_transaction",
    "hash": HASH,
    "sender": ADDRESS,
    "sequence_number": "9",
    "max_gas_amount": "2000",
    "gas_unit_price": "100",
    "expiration_timestamp_secs": "1700000600",
    "payload": ENTRY_PAYLOAD,
    "signature": SIGNATURE,
}

# What a public node answers a submission (202) and a simulation with: the records of
# their own schemas, without the ``type`` tag of the Transaction union.
SUBMITTED: Final = {key: value for key, value in PENDING.items() if key != "type"}


def simulated_user_transaction(version: int, *, success: bool = True) -> dict[str, Any]:
    """A simulation's user transaction, untagged as public nodes send it."""
    body = user_transaction(version, success=success)
    del body["type"]
    return body


def block(height: int, first: int, last: int, *, with_transactions: int | None = None) -> Any:
    body: dict[str, Any] = {
        "block_height": str(height),
        "block_hash": "0x" + "0b" * 32,
        "block_timestamp": "1700000000000000",
        "first_version": str(first),
        "last_version": str(last),
    }
    if with_transactions is not None:
        body["transactions"] = [
            block_metadata_transaction(first),
            *(user_transaction(v) for v in range(first + 1, first + with_transactions)),
        ]
    return body


GAS_ESTIMATE: Final = {
    "deprioritized_gas_estimate": 100,
    "gas_estimate": 100,
    "prioritized_gas_estimate": 150,
}
