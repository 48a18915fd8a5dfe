"""The faucet client's core, with no I/O: requests described, answers read, errors typed,
and the funding flow written once for both clients.

The flow is a generator, as the node client's flows are: it yields a
:class:`FaucetRequest` (the client sends it and sends back the :class:`FaucetAnswer`) or a
:class:`NodeStep` (the client calls that method of its node client and sends back what it
returned, or throws its exception into the flow), and returns its value.
"""

from __future__ import annotations

import contextlib
import datetime
import email.utils
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias

import orjson

from ledgerkit._errors import (
    AuthTokenInvalidError,
    DecodingError,
    FaucetError,
    FaucetRateLimitedError,
    FaucetRejectedError,
    FaucetUnavailableError,
    InputError,
    NotFoundError,
)
from ledgerkit.types import Address, HexBytes

__all__ = [
    "APT",
    "MAX_ANSWER_BYTES",
    "FaucetAnswer",
    "FaucetRequest",
    "Funding",
    "NodeStep",
    "faucet_error",
    "fund_flow",
    "fund_request",
    "read_hashes",
]

#: The coin a faucet pays in.
APT: Final = "0x1::aptos_coin::AptosCoin"
#: Largest faucet answer read (a few hashes; an error record).
MAX_ANSWER_BYTES: Final = 1 << 20
_HASH_CHARS: Final = 64


@dataclass(frozen=True, slots=True)
class FaucetRequest:
    """One request to the faucet: method, path under its URL, JSON body, query."""

    method: str
    path: str
    json: Mapping[str, Any] | None = None
    params: Mapping[str, str] = field(default_factory=dict)
    token: bool = True


@dataclass(frozen=True, slots=True)
class FaucetAnswer:
    """What came back: status, headers (lower-case names) and body."""

    status: int
    headers: Mapping[str, str]
    body: bytes


@dataclass(frozen=True, slots=True)
class NodeStep:
    """A call of the node client's method ``name`` (``wait_for_transaction``...)."""

    name: str
    args: tuple[Any, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict)


Step: TypeAlias = FaucetRequest | NodeStep


@dataclass(frozen=True)
class Funding:
    """What a funding did.

    Attributes
    ----------
    address : Address
        The funded account.
    txn_hashes : tuple of str
        The faucet's transactions, ``0x`` and 64 hex digits each.
    transactions : tuple
        Those transactions as committed (the node client's ``Transaction`` records);
        empty when not waited for.
    balance_before, balance_after : int or None
        The account's APT balance in octas before the request and after the transactions
        committed; ``None`` when not read (no wait).
    """

    address: Address
    txn_hashes: tuple[str, ...]
    transactions: tuple[Any, ...] = ()
    balance_before: int | None = None
    balance_after: int | None = None

    @property
    def received(self) -> int | None:
        """Octas the account gained (``None`` when the balances were not read)."""
        if self.balance_before is None or self.balance_after is None:
            return None
        return self.balance_after - self.balance_before

    def __repr__(self) -> str:
        hashes = ", ".join(h[:10] + "…" for h in self.txn_hashes)
        if self.received is None:
            return f"Funding({self.address}, txns=[{hashes}], not waited for)"
        return (
            f"Funding({self.address}, txns=[{hashes}], "
            f"balance {self.balance_before} -> {self.balance_after} octas)"
        )


# -- requests ------------------------------------------------------------------------------


def fund_request(
    address: str | Address, amount: int | None, *, path: str = "/fund"
) -> tuple[Address, FaucetRequest]:
    """The request funding ``address`` (``amount`` octas, the faucet's maximum if ``None``).

    Raises
    ------
    InputError
        ``address`` is not an account address, or ``amount`` is not a positive integer.
    """
    account = Address.parse(address) if not isinstance(address, Address) else address
    body: dict[str, Any] = {"address": account.long}
    if amount is not None:
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount < 1 << 64:
            raise InputError(f"amount must be a positive u64 of octas, got {amount!r}")
        body["amount"] = amount
    return account, FaucetRequest("POST", path, body)


# -- answers -------------------------------------------------------------------------------


def _retry_after(value: str | None) -> float | None:
    """``Retry-After`` as seconds: a number of seconds, or an HTTP date."""
    if not value:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.UTC)
    return max(0.0, (when - datetime.datetime.now(datetime.UTC)).total_seconds())


def faucet_error(answer: FaucetAnswer, request: str) -> FaucetError:
    """The exception of a failed answer: the faucet's record read into its class.

    A body that is not the record (a plain-text error of ``/mint``, a proxy's page) keeps
    its first 300 characters as the message.
    """
    record: Any = None
    with contextlib.suppress(orjson.JSONDecodeError):
        record = orjson.loads(answer.body)
    if isinstance(record, dict):
        message = str(record.get("message") or f"HTTP {answer.status}")[:1000]
        code = str(record.get("error_code") or f"http_{answer.status}")[:100]
        reasons = tuple(
            (str(r.get("reason", ""))[:500], str(r.get("code", ""))[:100])
            for r in (record.get("rejection_reasons") or [])[:20]
            if isinstance(r, dict)
        )
    else:
        message = answer.body[:300].decode("utf-8", "replace").strip() or f"HTTP {answer.status}"
        code, reasons = f"http_{answer.status}", ()
    fields: dict[str, Any] = {
        "status": answer.status,
        "error_code": code,
        "rejection_reasons": reasons,
        "request": request,
    }
    if code == "AuthTokenInvalid":
        return AuthTokenInvalidError(message, **fields)
    if answer.status == 429:
        error = FaucetRateLimitedError(message, **fields)
        error.retry_after = _retry_after(answer.headers.get("retry-after"))
        return error
    if answer.status == 503:
        return FaucetUnavailableError(message, **fields)
    if 400 <= answer.status < 500:
        return FaucetRejectedError(message, **fields)
    return FaucetError(message, **fields)


def read_hashes(answer: FaucetAnswer, request: str) -> tuple[str, ...]:
    """The transaction hashes of a successful ``/fund`` or ``/mint``, each ``0x`` + 64 hex.

    The real faucet sends them without ``0x``; either spelling is read.
    """
    if answer.status != 200:
        raise faucet_error(answer, request)
    try:
        record = orjson.loads(answer.body)
    except orjson.JSONDecodeError:
        raise DecodingError(f"the faucet's answer is not JSON [{request}]") from None
    hashes = record.get("txn_hashes") if isinstance(record, dict) else record
    if not isinstance(hashes, list) or not hashes:
        raise DecodingError(f"the faucet's answer names no transaction [{request}]")
    out = []
    for value in hashes[:100]:
        text = value.removeprefix("0x") if isinstance(value, str) else ""
        if len(text) != _HASH_CHARS:
            raise DecodingError(f"the faucet's answer holds a malformed hash [{request}]")
        try:
            out.append(str(HexBytes(bytes.fromhex(text))))
        except ValueError:
            raise DecodingError(f"the faucet's answer holds a malformed hash [{request}]") from None
    return tuple(out)


# -- the flow ------------------------------------------------------------------------------


def _balance(address: Address) -> Generator[Step, Any, int]:
    try:
        result = yield NodeStep("account_balance", (address, APT))
    except NotFoundError:  # a node that answers 404 for an account it has never seen
        return 0
    return int(result.value)


def fund_flow(
    address: str | Address, amount: int | None, *, wait: bool, timeout: float, request: str
) -> Generator[Step, Any, Funding]:
    """Fund ``address``; when ``wait``, read its balance before, wait for every transaction
    the faucet sent and read the balance after."""
    account, ask = fund_request(address, amount)
    before = (yield from _balance(account)) if wait else None
    answer = yield ask
    hashes = read_hashes(answer, request)
    if not wait:
        return Funding(account, hashes)
    committed = []
    for txn_hash in hashes:
        result = yield NodeStep("wait_for_transaction", (txn_hash,), {"timeout": timeout})
        if getattr(result.value, "success", True) is False:
            status = getattr(result.value, "vm_status", "")
            raise FaucetRejectedError(
                f"the funding transaction {txn_hash} failed: {status}",
                status=403,
                error_code="TransactionFailed",
                request=request,
            )
        committed.append(result.value)
    after = yield from _balance(account)
    return Funding(account, hashes, tuple(committed), before, after)
