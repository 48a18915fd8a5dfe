"""What the node's HTTP tests share: header and error-record checks, and signed transactions.

Every helper talks to the node over real HTTP through an ``httpx.Client`` whose
``base_url`` is the node's ``/v1``. Transactions are built and signed locally with
``ledgerkit.bcs``, submitted as BCS and waited for, as a client would.
"""

from __future__ import annotations

import re
import time
from typing import Any, Final, Protocol

import httpx

from ledgerkit import ErrorCode
from ledgerkit.bcs import (
    Ed25519Authenticator,
    EntryFunction,
    RawTransaction,
    SignedTransaction,
)
from ledgerkit.keys import Ed25519PrivateKey
from ledgerkit.types import Address

JSON: Final = "application/json"
BCS: Final = "application/x-bcs"
SIGNED_TXN_BCS: Final = "application/x.aptos.signed_transaction+bcs"
VIEW_BCS: Final = "application/x.aptos.view_function+bcs"
APT: Final = "0x1::aptos_coin::AptosCoin"
U64_MAX: Final = 2**64 - 1

#: The headers every answer carries, errors included.
REQUIRED_HEADERS: Final = (
    "X-NODE-CHAIN-ID",
    "X-NODE-LEDGER-VERSION",
    "X-NODE-LEDGER-OLDEST-VERSION",
    "X-NODE-LEDGER-TIMESTAMPUSEC",
    "X-NODE-EPOCH",
    "X-NODE-BLOCK-HEIGHT",
    "X-NODE-OLDEST-BLOCK-HEIGHT",
)

#: Every ``error_code`` the spec allows: ErrorCode's, less the two public nodes send beyond it.
ERROR_CODES: Final = frozenset(code.value for code in ErrorCode) - {
    ErrorCode.RATE_LIMITED.value,
    ErrorCode.NODE_NOT_BOOTSTRAPPED.value,
}

_DECIMAL: Final = re.compile(r"^(0|[1-9][0-9]*)$")
_HEX_BYTES: Final = re.compile(r"^0x([0-9a-f]{2})*$")
_ADDRESS: Final = re.compile(r"^0x[0-9a-f]{1,64}$")
_HASH: Final = re.compile(r"^0x[0-9a-f]{64}$")
#: Bound on waits for a submitted transaction (each wait_by_hash polls about a second).
_WAIT_ROUNDS: Final = 30


class Account(Protocol):
    """A funded dev account of the node."""

    @property
    def address(self) -> Address: ...

    @property
    def private_key(self) -> Ed25519PrivateKey: ...


# -- shapes --------------------------------------------------------------------------------


def is_u64(value: object) -> bool:
    """A U64 as the API writes it: a decimal string in range."""
    return isinstance(value, str) and bool(_DECIMAL.match(value)) and int(value) <= U64_MAX


def is_hex_bytes(value: object) -> bool:
    return isinstance(value, str) and bool(_HEX_BYTES.match(value))


def is_address(value: object) -> bool:
    return isinstance(value, str) and bool(_ADDRESS.match(value))


def is_hash(value: object) -> bool:
    return isinstance(value, str) and bool(_HASH.match(value))


def assert_headers(response: httpx.Response) -> dict[str, int]:
    """The seven ledger headers are there and are integers, each with its ``X-APTOS-*``
    twin; returns them by name."""
    found: dict[str, int] = {}
    for name in REQUIRED_HEADERS:
        text = response.headers.get(name)
        assert text is not None, f"{response.request.url}: {name} missing"
        assert _DECIMAL.match(text), f"{name}: {text!r} is not an integer"
        found[name] = int(text)
    for name in (*REQUIRED_HEADERS, "X-NODE-GAS-USED", "X-NODE-CURSOR"):
        twin = "X-APTOS-" + name.removeprefix("X-NODE-")
        assert response.headers.get(twin) == response.headers.get(name), f"{twin} differs"
    assert 0 <= found["X-NODE-CHAIN-ID"] <= 255
    assert found["X-NODE-LEDGER-OLDEST-VERSION"] <= found["X-NODE-LEDGER-VERSION"]
    assert found["X-NODE-OLDEST-BLOCK-HEIGHT"] <= found["X-NODE-BLOCK-HEIGHT"]
    return found


def ok(response: httpx.Response, status: int = 200) -> Any:
    """Check a success (status, headers, JSON) and return its body."""
    assert response.status_code == status, (response.request.url, response.text[:500])
    assert_headers(response)
    assert response.headers["content-type"].startswith(JSON)
    return response.json()


def ok_bcs(response: httpx.Response) -> bytes:
    """Check a BCS success and return its bytes."""
    assert response.status_code == 200, (response.request.url, response.text[:500])
    assert_headers(response)
    assert response.headers["content-type"].startswith(BCS)
    return response.content


def assert_error(response: httpx.Response, status: int, *codes: str) -> dict[str, Any]:
    """An error record with ``status`` and one of ``codes`` (any known code when none)."""
    assert response.status_code == status, (
        f"{response.request.method} {response.request.url}: expected {status}, got "
        f"{response.status_code}: {response.text[:500]}"
    )
    assert_headers(response)
    assert response.headers["content-type"].startswith(JSON)
    body: dict[str, Any] = response.json()
    assert isinstance(body.get("message"), str)
    assert body["message"].strip(), "the error record says nothing"
    assert body["error_code"] in (codes or ERROR_CODES), body
    vm_error_code = body.get("vm_error_code")
    assert vm_error_code is None or (isinstance(vm_error_code, int) and vm_error_code >= 0)
    return body


# -- reading ---------------------------------------------------------------------------------


def ledger_version(http: httpx.Client) -> int:
    return int(ok(http.get("/"))["ledger_version"])


def sequence_number(http: httpx.Client, address: Address) -> int:
    return int(ok(http.get(f"/accounts/{address}"))["sequence_number"])


def apt_balance(http: httpx.Client, address: Address, version: int | None = None) -> int:
    params = {} if version is None else {"ledger_version": str(version)}
    value = ok(http.get(f"/accounts/{address}/balance/{APT}", params=params))
    assert isinstance(value, int)
    return value


# -- transactions ------------------------------------------------------------------------------


def expiration() -> int:
    """Ten minutes from now: blocks are made on the wall clock once users submit."""
    return int(time.time()) + 600


def raw_transaction(
    http: httpx.Client,
    account: Account,
    function: str,
    args: list[tuple[str, Any]] | None = None,
    *,
    type_args: list[str] | None = None,
    sequence: int | None = None,
    max_gas: int = 200_000,
    gas_price: int = 100,
    chain_id: int | None = None,
) -> RawTransaction:
    """A raw transaction of ``account`` calling ``function`` (next sequence number)."""
    payload = EntryFunction.build(function, type_args or [], args or [])
    if sequence is None:
        sequence = sequence_number(http, account.address)
    if chain_id is None:
        chain_id = int(ok(http.get("/"))["chain_id"])
    return RawTransaction(
        account.address, sequence, payload, max_gas, gas_price, expiration(), chain_id
    )


def transfer(
    http: httpx.Client, account: Account, to: Address, amount: int, **options: Any
) -> RawTransaction:
    """A raw ``0x1::aptos_account::transfer`` of ``amount`` octas to ``to``."""
    args = [("address", to), ("u64", amount)]
    return raw_transaction(http, account, "0x1::aptos_account::transfer", args, **options)


def for_simulation(raw: RawTransaction, account: Account) -> SignedTransaction:
    """``raw`` with the real public key and an all-zero signature, as simulation wants."""
    return SignedTransaction(
        raw, Ed25519Authenticator(account.private_key.public_key_bytes, bytes(64))
    )


def submit(http: httpx.Client, signed: SignedTransaction) -> dict[str, Any]:
    """POST a signed transaction as BCS; the pending transaction the node answers."""
    response = http.post(
        "/transactions", content=signed.to_bcs(), headers={"Content-Type": SIGNED_TXN_BCS}
    )
    pending: dict[str, Any] = ok(response, 202)
    return pending


def wait(http: httpx.Client, txn_hash: str) -> dict[str, Any]:
    """The committed transaction of ``txn_hash`` (long-polls ``wait_by_hash``)."""
    for _ in range(_WAIT_ROUNDS):
        found: dict[str, Any] = ok(http.get(f"/transactions/wait_by_hash/{txn_hash}"))
        if found["type"] != "pending_transaction":
            return found
    raise AssertionError(f"{txn_hash} was not committed")


def run(
    http: httpx.Client,
    account: Account,
    function: str,
    args: list[tuple[str, Any]] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Sign, submit and wait for a call by ``account``; the committed transaction."""
    signed = raw_transaction(http, account, function, args, **options).sign(account.private_key)
    pending = submit(http, signed)
    return wait(http, pending["hash"])


def txn_hash(signed: SignedTransaction) -> str:
    """The hash the node gives ``signed``, computed locally."""
    return "0x" + bytes(signed.hash()).hex()
