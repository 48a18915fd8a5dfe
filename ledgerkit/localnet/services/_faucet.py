"""The local faucet: funds an address through real transactions on the node, for a
verified ID token.

It answers as the real testnet faucet does: ``POST /fund`` with ``Authorization: Bearer
<ID token>`` and ``x-is-jwt: true`` and a JSON body naming the account (``address``,
``auth_key`` or ``pub_key``, an optional ``amount`` cut to the maximum) answers
``{"txn_hashes": [...]}`` (hex without ``0x``) without waiting for the transaction;
``POST /is_eligible`` makes the same checks and sends nothing; ``GET /`` is ``tap:ok``.
A faucet configured as a devnet faucet also takes the tokenless ``POST /mint?address=``.

An open faucet (:meth:`FaucetSettings.local`) is the one a local network runs beside its
node: no token, no daily quota, ``POST /fund`` and the legacy ``POST /mint`` (a JSON list
of hashes, or with ``return_txns=true`` the hex BCS of the list of signed transactions as
plain text; its errors are plain text) for any amount of octas in a u64, as aptos-core's
local faucet sets no maximum, and 1,000 APT when a request names none (its
``amount_to_fund``). A limit may be set; a larger amount is then refused, not cut: a
local faucet gives what it is asked or says why not.

An amount of 0 creates an account that has none, with nothing in it, and is refused (400
``InvalidRequest``) for an account that exists, as the real faucet answers it.

Failures are the faucet's own record (``message``, ``error_code``,
``rejection_reasons``, ``txn_hashes``) with the real statuses: 403 ``AuthTokenInvalid``,
400 ``InvalidRequest``, 429 with ``Retry-After`` when the user's daily quota is spent
(a ``Rejected`` with reason code ``UsageLimitExhausted``), 503 ``FunderAccountProblem``
when the funding account cannot pay. Requests that fail on the faucet's side are not
counted against the quota.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Protocol

import orjson
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from ledgerkit._endpoints import operations_of
from ledgerkit._errors import ErrorCode, InputError
from ledgerkit.bcs import EntryFunction, RawTransaction, SignedTransaction
from ledgerkit.keys import Account, Ed25519PublicKey
from ledgerkit.localnet._node_errors import NodeConfigError, NodeError
from ledgerkit.localnet.chain import OCTAS_PER_APT
from ledgerkit.localnet.services._token_checks import TokenRejected, TokenVerifier, bearer_token
from ledgerkit.types import U64_MAX, Address, StructTag

__all__ = [
    "LOCAL_DEFAULT_AMOUNT",
    "LOCAL_MAX_AMOUNT",
    "FaucetSettings",
    "Funder",
    "FundingError",
    "LedgerFunder",
    "create_faucet_app",
]

_log = logging.getLogger("ledgerkit.localnet.faucet")

#: Largest request body the faucet reads.
MAX_BODY_BYTES: Final = 4096
#: Gas a funding transfer may use: creating the recipient's account costs about 10,400
#: units (two new state slots), the Python SDK's default amount covers it.
FUND_MAX_GAS: Final = 100_000
#: How long a funding transaction stays valid.
FUND_EXPIRY_SECONDS: Final = 60
_APT: Final = StructTag.parse("0x1::aptos_coin::AptosCoin")
#: The open local faucet's limit per request by default: none but a u64's (aptos-core's
#: faucet of a local network, ``RunConfig::build_for_cli``, sets no ``maximum_amount``).
LOCAL_MAX_AMOUNT: Final = U64_MAX
#: What the open faucet gives when a request names no amount: 1,000 APT, aptos-core's
#: ``amount_to_fund`` of a local network's faucet (100,000,000,000 octas).
LOCAL_DEFAULT_AMOUNT: Final = 1_000 * OCTAS_PER_APT


@dataclass(frozen=True)
class FaucetSettings:
    """How the local faucet funds.

    Attributes
    ----------
    max_amount : int
        Octas per request: a missing or larger ``amount`` becomes this (1 APT, as the
        testnet faucet gives). An open faucet refuses a larger one (400) and gives 1,000
        APT (or this, if less) when none is named.
    requests_per_day : int
        Fundings per user (the token's ``sub``) per UTC day; the next one is a 429.
        An open faucet counts none.
    devnet : bool
        Also serve the tokenless ``POST /mint`` of a devnet faucet.
    open : bool
        The open faucet of a local network: ``/fund``, ``/is_eligible`` and ``/mint``
        without a token or a quota (see :meth:`local`).

    Raises
    ------
    NodeConfigError
        ``max_amount`` is not an amount of octas from 1 to 2^64 - 1, or
        ``requests_per_day`` is negative.
    """

    max_amount: int = OCTAS_PER_APT
    requests_per_day: int = 20
    devnet: bool = False
    open: bool = False

    def __post_init__(self) -> None:
        amount = self.max_amount
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= U64_MAX:
            raise NodeConfigError(
                f"max_amount must be octas from 1 to 2^64 - 1 (a u64), got {str(amount)[:40]}"
            )
        if self.requests_per_day < 0:
            raise NodeConfigError("requests_per_day must be >= 0")

    @classmethod
    def local(cls, max_amount: int = LOCAL_MAX_AMOUNT) -> FaucetSettings:
        """The open faucet of a local network (``ledgerkit node``'s default): no token, no
        quota, ``POST /fund`` and ``POST /mint``, up to ``max_amount`` octas a request
        (by default any u64, as aptos-core's local faucet has no maximum; what the chain's
        faucet account cannot pay is a 503). A request naming no amount gets 1,000 APT, or
        ``max_amount`` if less."""
        return cls(max_amount=max_amount, devnet=True, open=True)


class FundingError(Exception):
    """The funding account cannot pay (or the node refused its transaction)."""


class Funder(Protocol):
    """What pays: the faucet's account on the node."""

    def can_pay(self, amount: int) -> bool:
        """Whether a funding of ``amount`` octas (and its gas) can be paid now."""
        ...

    def has_account(self, address: Address) -> bool:
        """Whether ``address`` has an account on the ledger now."""
        ...

    def fund(self, address: Address, amount: int) -> SignedTransaction:
        """Submit a transfer of ``amount`` octas to ``address``; the accepted transaction.

        Raises :class:`FundingError` when the node refuses it.
        """
        ...


class LedgerFunder:
    """Funds from the ledger's faucet account with ``0x1::aptos_account::transfer`` (which
    creates the recipient's account when it has none), one transaction at a time so that
    sequence numbers never collide. ``on_submit`` is told of each accepted transaction
    (the node's block producer, as for a submission over HTTP)."""

    def __init__(self, ledger: Any, *, on_submit: Callable[[], None] | None = None) -> None:
        self._ledger = ledger
        self._account: Account = ledger.faucet
        self._on_submit = on_submit
        self._lock = threading.Lock()

    @property
    def address(self) -> Address:
        """The funding account."""
        return self._account.address

    def _price(self) -> int:
        return int(self._ledger.estimate_gas_price()["gas_estimate"])

    def can_pay(self, amount: int) -> bool:
        balance = self._ledger.reads.balance(self._account.address, _APT, None)
        return bool(balance >= amount + FUND_MAX_GAS * self._price())

    def has_account(self, address: Address) -> bool:
        try:
            self._ledger.reads.account(address, None)
        except NodeError as exc:
            if exc.code is not ErrorCode.ACCOUNT_NOT_FOUND:
                raise
            return False
        return True

    def fund(self, address: Address, amount: int) -> SignedTransaction:
        function = "0x1::aptos_account::transfer"
        payload = EntryFunction.build(function, (), [("address", address), ("u64", amount)])
        with self._lock:
            now = self._ledger.now_usec() // 1_000_000
            raw = RawTransaction(
                self._account.address,
                self._ledger.next_sequence_number(self._account.address),
                payload,
                FUND_MAX_GAS,
                self._price(),
                now + FUND_EXPIRY_SECONDS,
                self._ledger.config.chain_id,
            )
            signed = self._account.sign(raw)
            try:
                self._ledger.submit(signed)
            except Exception as exc:  # the node's refusal, kept for the log only
                _log.warning("the faucet's transfer was refused: %s", exc)
                raise FundingError("the funding transaction was refused") from None
        if self._on_submit is not None:
            self._on_submit()  # make the block that commits it
        return signed


# -- the faucet's answers ----------------------------------------------------------------------


class RefusalError(Exception):
    """A failure the faucet answers with its record."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        reasons: tuple[tuple[str, str], ...] = (),
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.reasons = reasons
        self.headers = dict(headers or {})

    def response(self) -> Response:
        record = {
            "message": self.message,
            "error_code": self.code,
            "rejection_reasons": [{"reason": r, "code": c} for r, c in self.reasons],
            "txn_hashes": [],
        }
        return Response(
            orjson.dumps(record), self.status, self.headers, media_type="application/json"
        )


def _invalid(message: str) -> RefusalError:
    return RefusalError(400, "InvalidRequest", message)


def _json(value: object, status: int = 200) -> Response:
    return Response(orjson.dumps(value), status, media_type="application/json")


# -- the daily quota ------------------------------------------------------------------------


class DailyQuota:
    """Fundings per user per UTC day, in memory (a restart forgets them, as a test faucet
    may)."""

    def __init__(self, per_day: int, clock: Callable[[], float]) -> None:
        self._per_day = per_day
        self._clock = clock
        self._used: dict[str, int] = {}
        self._day = -1
        self._lock = threading.Lock()

    def _roll(self) -> float:
        now = self._clock()
        day = int(now // 86_400)
        if day != self._day:
            self._day, self._used = day, {}
        return now

    def check(self, user: str) -> None:
        """Raise the 429 refusal when ``user`` has no funding left today."""
        with self._lock:
            now = self._roll()
            if self._used.get(user, 0) >= self._per_day:
                retry = seconds_to_next_utc_day(now)
                reason = f"you have used all {self._per_day} fundings of today (UTC)"
                raise RefusalError(
                    429,
                    "Rejected",
                    "Request rejected by the faucet's checks",
                    ((reason, "UsageLimitExhausted"),),
                    {"Retry-After": str(retry)},
                )

    def spend(self, user: str) -> None:
        with self._lock:
            self._roll()
            self._used[user] = self._used.get(user, 0) + 1


# -- reading a request ----------------------------------------------------------------------


def _account_of(fields: Mapping[str, Any]) -> Address:
    """The account a fund request names: ``address``, else ``auth_key``, else ``pub_key``."""
    try:
        if isinstance(fields.get("address"), str):
            return Address.parse(fields["address"])
        if isinstance(fields.get("auth_key"), str):
            key = bytes.fromhex(fields["auth_key"].removeprefix("0x"))
            if len(key) != 32:
                raise ValueError("an authentication key is 32 bytes")
            return Address(key)
        if isinstance(fields.get("pub_key"), str):
            return Ed25519PublicKey(fields["pub_key"]).address()
    except (InputError, ValueError) as exc:
        raise _invalid(f"the account to fund does not parse: {str(exc)[:200]}") from None
    raise _invalid("name the account to fund: `address`, `auth_key` or `pub_key`")


def _amount(raw: object, maximum: int, *, refuse_over: bool = False) -> int:
    """The octas a request asks: ``maximum`` when it names none; more than ``maximum`` is
    cut to it, or refused with ``refuse_over`` (the open faucet). 0 asks for an account
    with nothing in it (see :func:`_check_zero`)."""
    if raw is None:
        return min(LOCAL_DEFAULT_AMOUNT, maximum) if refuse_over else maximum
    if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) <= 40:
        raw = int(raw)
    if raw == 0 and not isinstance(raw, bool):
        return 0
    if not isinstance(raw, int) or isinstance(raw, bool) or not 0 < raw <= U64_MAX:
        raise _invalid("`amount` must be a positive integer of octas (a u64)")
    if raw > maximum and refuse_over:
        raise _invalid(f"`amount` {raw} is over this faucet's limit of {maximum} octas a request")
    return min(raw, maximum)


async def _check_zero(funder: Funder, address: Address, amount: int) -> None:
    """An amount of 0 only creates an account: refused when there is one already."""
    if amount == 0 and await asyncio.to_thread(funder.has_account, address):
        raise _invalid(f"Account {address} already exists and amount asked for is 0")


async def _fund_body(request: Request) -> dict[str, Any]:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            raise RefusalError(400, "InvalidRequest", f"the body is over {MAX_BODY_BYTES} bytes")
    try:
        fields = orjson.loads(body)
    except orjson.JSONDecodeError:
        raise _invalid("the body is not JSON") from None
    if not isinstance(fields, dict):
        raise _invalid("the body must be a JSON object")
    return fields


def _asset(request: Request) -> None:
    asset = request.query_params.get("asset")
    if asset not in (None, "", "apt", "APT"):
        raise _invalid("this faucet funds APT only")


# -- the app ----------------------------------------------------------------------------------


class _Faucet:
    def __init__(
        self,
        funder: Funder,
        verifier: TokenVerifier,
        settings: FaucetSettings,
        clock: Callable[[], float],
    ) -> None:
        self.funder = funder
        self.verifier = verifier
        self.settings = settings
        self.quota = DailyQuota(settings.requests_per_day, clock)

    async def user(self, request: Request) -> str:
        """The verified user (``sub``) of the request's ID token."""
        try:
            token = bearer_token(request.headers, request.query_params)
            claims = await self.verifier.verify(token)
        except TokenRejected as exc:
            _log.info("refused a token: %s", exc.reason)
            raise RefusalError(403, "AuthTokenInvalid", exc.message) from None
        return str(claims["sub"])

    async def checked(self, request: Request) -> tuple[str, Address, int]:
        user = "" if self.settings.open else await self.user(request)
        _asset(request)
        fields = await _fund_body(request)
        address = _account_of(fields)
        amount = self.amount(fields.get("amount"))
        await _check_zero(self.funder, address, amount)
        if not self.settings.open:
            self.quota.check(user)
        if not await asyncio.to_thread(self.funder.can_pay, amount):
            raise RefusalError(
                503, "FunderAccountProblem", "the faucet's account cannot pay this funding"
            )
        return user, address, amount

    async def pay(self, address: Address, amount: int) -> SignedTransaction:
        try:
            return await asyncio.to_thread(self.funder.fund, address, amount)
        except FundingError as exc:
            raise RefusalError(503, "FunderAccountProblem", str(exc)) from None

    def amount(self, raw: object) -> int:
        return _amount(raw, self.settings.max_amount, refuse_over=self.settings.open)

    async def status(self, request: Request) -> Response:
        return PlainTextResponse("tap:ok")

    async def fund(self, request: Request) -> Response:
        user, address, amount = await self.checked(request)
        signed = await self.pay(address, amount)
        if not self.settings.open:
            self.quota.spend(user)
        _log.info("funded %s with %d octas", address, amount)
        return _json({"txn_hashes": [signed.hash().hex()]})

    async def is_eligible(self, request: Request) -> Response:
        await self.checked(request)
        return Response(b"", 200)

    async def mint(self, request: Request) -> Response:
        if not (self.settings.devnet or self.settings.open):
            raise RefusalError(400, "EndpointNotEnabled", "/mint is served by a devnet faucet only")
        query = request.query_params
        try:
            address = _account_of(query)
            amount = self.amount(query.get("amount"))
            await _check_zero(self.funder, address, amount)
        except RefusalError as exc:
            return PlainTextResponse(exc.message, 400)
        if not await asyncio.to_thread(self.funder.can_pay, amount):
            return PlainTextResponse("the faucet's account cannot pay this funding", 503)
        try:
            signed = await asyncio.to_thread(self.funder.fund, address, amount)
        except FundingError as exc:
            return PlainTextResponse(str(exc), 503)
        if query.get("return_txns", "").lower() == "true":
            # The BCS of the list of signed transactions (a length of 1, then the one).
            return PlainTextResponse(b"\x01".hex() + signed.to_bcs().hex())
        return _json([signed.hash().hex()])


def create_faucet_app(
    funder: Funder,
    verifier: TokenVerifier,
    *,
    settings: FaucetSettings | None = None,
    clock: Callable[[], float] = time.time,
) -> Starlette:
    """The faucet over ``funder``, for ID tokens ``verifier`` accepts.

    Its routes are the faucet's rows of the endpoint table. Cross-origin requests are
    answered as the real faucet answers them: the origin echoed, credentials allowed, and
    every header a preflight asks for allowed (the SDKs add headers of their own, such as
    ``x-aptos-client``).
    """
    faucet = _Faucet(funder, verifier, settings or FaucetSettings(), clock)
    handlers = {
        "faucet_status": faucet.status,
        "fund": faucet.fund,
        "is_eligible": faucet.is_eligible,
        "mint": faucet.mint,
    }
    rows = operations_of("faucet")
    unpaired = sorted({op.id for op in rows} ^ set(handlers))
    if unpaired:
        raise RuntimeError(f"endpoint table and faucet handlers disagree on {unpaired}")
    routes = [Route(op.path, handlers[op.id], methods=[op.method]) for op in rows]

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RefusalError)
        return exc.response()

    async def http_error(request: Request, exc: Exception) -> Response:
        status = int(getattr(exc, "status_code", 500))
        message = "no such endpoint" if status == 404 else str(getattr(exc, "detail", ""))
        return RefusalError(status, "InvalidRequest", message or "request refused").response()

    async def failed(request: Request, exc: Exception) -> Response:
        _log.exception("the faucet failed on %s %s", request.method, request.url.path)
        return RefusalError(500, "InternalError", "the faucet failed; its log says why").response()

    return Starlette(
        routes=routes,
        exception_handlers={RefusalError: refused, HTTPException: http_error, Exception: failed},
        middleware=[
            Middleware(
                CORSMiddleware,
                allow_origin_regex=".*",
                allow_credentials=True,
                allow_methods=["GET", "POST", "OPTIONS"],
                allow_headers=["*"],
                max_age=3600,
            )
        ],
    )


def seconds_to_next_utc_day(now: float) -> int:
    """Seconds from ``now`` (a Unix time) to the next UTC midnight."""
    today = datetime.datetime.fromtimestamp(now, datetime.UTC).date()
    tomorrow = datetime.datetime.combine(
        today + datetime.timedelta(days=1), datetime.time(), datetime.UTC
    )
    return max(1, int(tomorrow.timestamp() - now))
