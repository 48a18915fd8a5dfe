"""Building, viewing and transferring, as flows written once for both clients. No I/O here.

The flows (see :mod:`~ledgerkit.client._driver` for the protocol) fetch what
:mod:`ledgerkit.tx` needs and hand it the work: the function's ABI and the struct
layouts of its parameters, the chain id, the gas unit price, the sender's sequence
number and a simulation for the gas. What a client learns along the way lives in its
:class:`BuildState`:

* **module ABIs**, in the client's one :class:`~ledgerkit.AbiCache` (read through
  ``_abis``). A module can change with an upgrade, so a function (or struct) not found in
  a kept ABI fetches the module again once before giving up; an answer from another
  chain (its chain id) drops them all.
* **the chain id**, from the ledger metadata of any answer.
* **the node's clock**: the ledger timestamp of the latest answer of the node (any call
  of the client, never one from the cache), and when it came by the client's monotonic
  clock. Expirations count from it, carried forward by the time since that answer, so
  they hold on any node whatever this machine's clock says; with no answer yet, a build
  asks the node (``GET /``).
* **the next sequence number of each sender**, read from the node once and then counted
  here, so a burst of transactions needs one account read, not one each. A number
  handed out and then not used (the build failed) is given back; a refusal saying the
  number is stale (``SequenceNumberTooOldError``, ``InvalidTransactionUpdateError``)
  makes the next build read the account again.

The max gas, when not given, is a simulation's gas used times :data:`GAS_MARGIN`, within
the node's own estimate of the most the sender's balance pays for. Nodes make that
estimate from the sender's balance even when a fee payer pays, so a fee-payer
transaction is simulated at a fixed max gas instead; one whose fee payer is not known
yet is simulated with the fee payer ``0x0``, as nodes expect, and a node that refuses
that leaves the simulation's max gas.
"""

from __future__ import annotations

import math
import secrets
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from ledgerkit._errors import (
    InputError,
    InvalidTransactionUpdateError,
    LedgerError,
    RequestTimeoutError,
    SequenceNumberTooOldError,
    TransactionNotFoundError,
)
from ledgerkit.bcs import (
    AccountAuthenticator,
    Deserializer,
    EntryFunction,
    FeePayerAuthenticator,
    FeePayerRawTransaction,
    MoveValueCodec,
    MultiAgentAuthenticator,
    MultiAgentRawTransaction,
    RawTransaction,
    SignedTransaction,
    TransactionPayloadV1,
)
from ledgerkit.client import calls
from ledgerkit.client._answers import is_pending
from ledgerkit.client._driver import Flow, Pause, now, send
from ledgerkit.client._flows._abis import loading_abis, module_abi
from ledgerkit.models import AbiCache, MoveFunction, Transaction
from ledgerkit.tx import (
    NO_FEE_PAYER,
    SignerParts,
    SigningKey,
    UnsignedTransaction,
    as_signer,
    encode_call,
    from_json_form,
    parameter_types,
    sender_authenticator,
    sign_transaction,
    type_arguments_of,
    zero_authenticator,
)
from ledgerkit.types import (
    U64_MAX,
    Address,
    EntryFunctionId,
    LedgerMeta,
    MoveType,
    Result,
    StructTag,
    parse_uint,
)

__all__ = [
    "DEFAULT_EXPIRES_IN",
    "GAS_MARGIN",
    "ORDERLESS_EXPIRES_IN",
    "WAIT_PAUSE_SECONDS",
    "BuildOptions",
    "BuildState",
    "build_transaction",
    "transfer",
    "view",
    "waiting",
]

#: Pause between two long polls of ``wait_transaction_by_hash`` (the node itself waits about 1 s).
WAIT_PAUSE_SECONDS: Final = 0.05
#: Seconds a transaction with a sequence number stays valid by default.
DEFAULT_EXPIRES_IN: Final = 600.0
#: Seconds an orderless transaction stays valid by default: nodes refuse one expiring
#: more than 100 s after their own time.
ORDERLESS_EXPIRES_IN: Final = 60.0
#: Max gas is the simulated gas used times this.
GAS_MARGIN: Final = 1.5
#: Max gas written in a transaction sent to simulation: a fee-payer transaction runs with
#: it; the node replaces it by its own estimate for the others.
_SIMULATION_MAX_GAS: Final = 200_000
_STALE: Final = (SequenceNumberTooOldError, InvalidTransactionUpdateError)
_APT: Final = "0x1::aptos_coin::AptosCoin"
_FA_METADATA: Final = "0x1::fungible_asset::Metadata"


class BuildState:
    """What one client keeps between builds over its ABI cache ``abis``: the codec reading
    its layouts, what calls need, the chain id, sequence numbers.

    Thread-safe; never held across a step of a flow.
    """

    def __init__(self, abis: AbiCache | None = None) -> None:
        self._lock = threading.Lock()
        self.abis = AbiCache() if abis is None else abis
        self.codec = MoveValueCodec(self.abis)
        self.chain_id: int | None = None
        #: The ledger timestamp (microseconds) of the node's latest answer, and the
        #: client's monotonic time when it came.
        self._node_clock: tuple[int, float] | None = None
        self._next: dict[Address, int] = {}
        #: (function, type arguments) -> what encoding a call needs, once its ABI is kept;
        #: as of the cache's generation then (a module read again may have changed).
        self._plans: dict[tuple[str, tuple[str, ...]], CallPlan] = {}
        self._plans_of = self.abis.generation

    def observe(self, ledger: LedgerMeta | None) -> None:
        """Note an answer's ledger: another chain id drops everything learnt."""
        if ledger is None:
            return
        with self._lock:
            if self.chain_id is not None and ledger.chain_id != self.chain_id:
                self.abis.clear()
                self._plans.clear()
                self._next.clear()
            self.chain_id = ledger.chain_id

    def heard(self, ledger: LedgerMeta | None, monotonic: float) -> None:
        """Note the ledger of an answer just received from the node (never a cached one),
        at ``monotonic`` by the client's clock: the node's clock, as of then."""
        if ledger is not None:
            with self._lock:
                self._node_clock = (ledger.ledger_timestamp_usec, monotonic)

    def node_seconds(self, monotonic: float) -> float | None:
        """The node's time at ``monotonic`` (seconds since the epoch): the ledger time of
        its latest answer plus the time since; ``None`` before any answer."""
        with self._lock:
            clock = self._node_clock
        if clock is None:
            return None
        usec, heard_at = clock
        return usec / 10**6 + max(0.0, monotonic - heard_at)

    def plan(self, key: tuple[str, tuple[str, ...]]) -> CallPlan | None:
        """What a call of ``key`` needs, unless a module was read (or dropped) since."""
        with self._lock:
            return self._current_plans().get(key)

    def keep_plan(self, key: tuple[str, tuple[str, ...]], plan: CallPlan) -> None:
        """Keep ``plan``, worked out from the modules held now."""
        with self._lock:
            self._current_plans()[key] = plan

    def _current_plans(self) -> dict[tuple[str, tuple[str, ...]], CallPlan]:
        """The plans kept, dropped first if the cache changed since (under the lock)."""
        if self._plans_of != self.abis.generation:
            self._plans.clear()
            self._plans_of = self.abis.generation
        return self._plans

    def reserve(self, sender: Address, on_chain: int | None = None) -> int | None:
        """The next sequence number of ``sender``, counted on; ``None`` when unknown.

        ``on_chain`` (just read from the node) starts the count when none is kept.
        """
        with self._lock:
            number = self._next.get(sender, on_chain)
            if number is None:
                return None
            self._next[sender] = number + 1
            return number

    def release(self, sender: Address, number: int) -> None:
        """Give back a number that was not used (or forget the count if others followed)."""
        with self._lock:
            if self._next.get(sender) == number + 1:
                self._next[sender] = number
            else:
                self._next.pop(sender, None)

    def forget(self, sender: Address) -> None:
        """Read the sender's sequence number from the node next time."""
        with self._lock:
            self._next.pop(sender, None)

    def refused(self, call_name: str, body: bytes | None, error: LedgerError) -> None:
        """A submission refused for a stale sequence number: resync its sender."""
        if isinstance(error, _STALE) and call_name.startswith("submit") and body:
            if call_name == "submit_transaction" and len(body) >= Address.LENGTH:
                self.forget(Address(body[: Address.LENGTH]))
            else:
                with self._lock:
                    self._next.clear()


@dataclass(frozen=True, slots=True)
class BuildOptions:
    """The optional fields of :func:`build_transaction`, as the user gave them."""

    max_gas_amount: int | None = None
    gas_unit_price: int | None = None
    expires_in: float | None = None
    sequence_number: int | None = None
    secondary_signers: Sequence[Any] = ()
    fee_payer: Any = None
    replay_protection_nonce: int | bool | None = None


# -- ABIs and layouts ------------------------------------------------------------------------


def function_abi(state: BuildState, fid: EntryFunctionId) -> Flow[MoveFunction]:
    """The ABI of ``fid``: kept, or fetched (again, when the kept module lacks it)."""
    kept = state.abis.module(fid.module)
    found = kept.function(fid.name) if kept is not None else None
    if found is not None:
        return found
    module = yield from module_abi(state.abis, fid.module, state.observe)
    if module is None:
        raise InputError(f"the node sent no ABI for module {fid.module}")
    found = module.function(fid.name)
    if found is None:
        names = sorted(f.name for f in module.exposed_functions)
        raise InputError(
            f"module {fid.module} has no exposed function {fid.name!r}; it has {names}"
        )
    return found


def ensure_layouts(state: BuildState, types: Iterable[MoveType]) -> Flow[None]:
    """Fetch the ABI of every module whose structs ``types`` need, each at most once (a
    module the node does not publish is left to the codec, which names the struct)."""
    yield from loading_abis(state.abis, types, bcs=True, observe=state.observe)


def prepare_call(
    state: BuildState,
    function: str | EntryFunctionId,
    arguments: Sequence[Any],
    type_arguments: Iterable[str | MoveType],
    *,
    view: bool,
) -> Flow[tuple[EntryFunction, MoveFunction]]:
    """The encoded call and the function's ABI; bad arguments raise ``ArgumentError``.

    What a call needs besides its arguments (the parsed id, the ABI, the type arguments,
    the parameter types, their struct layouts) is worked out once per function and type
    arguments and kept until a module is read again.
    """
    types = tuple(type_arguments)
    key = (str(function), tuple(str(t) for t in types)) if _plain(function, types) else None
    plan = None if key is None else state.plan(key)
    if plan is None:
        fid = EntryFunctionId.parse(function)
        abi = yield from function_abi(state, fid)
        type_args = type_arguments_of(fid, abi, types)
        params = parameter_types(fid, abi, type_args)
        yield from ensure_layouts(state, [t for _, t in params])
        plan = CallPlan(fid, abi, type_args, params)
        if key is not None:
            state.keep_plan(key, plan)
    if view and not plan.abi.is_view:
        raise InputError(f"{plan.function} is not a view function")
    if not view and not plan.abi.is_entry:
        raise InputError(f"{plan.function} is not an entry function: a transaction cannot call it")
    call = encode_call(plan.function, plan.type_args, plan.params, arguments, state.codec)
    return call, plan.abi


def _plain(function: object, types: tuple[object, ...]) -> bool:
    """Whether a call's function and type arguments make a dictionary key as they are."""
    return isinstance(function, str | EntryFunctionId) and all(
        isinstance(t, str | MoveType) for t in types
    )


@dataclass(frozen=True, slots=True)
class CallPlan:
    """What encoding a call of one function with given type arguments needs."""

    function: EntryFunctionId
    abi: MoveFunction
    type_args: tuple[MoveType, ...]
    params: Sequence[tuple[int, MoveType]]


# -- view ------------------------------------------------------------------------------------


def view(
    state: BuildState,
    function: str | EntryFunctionId,
    arguments: Sequence[Any],
    type_arguments: Iterable[str | MoveType],
    ledger_version: int | None,
) -> Flow[Result[list[Any]]]:
    """Call a view function with Python values; its results as Python values."""
    call, abi = yield from prepare_call(state, function, arguments, type_arguments, view=True)
    returns = [MoveType.parse(t).substitute(call.type_args) for t in abi.return_]
    yield from ensure_layouts(state, returns)
    result = yield from send(calls.view_bcs(call, ledger_version=ledger_version))
    state.observe(result.ledger)
    d = Deserializer(result.value)
    count = d.uleb128()
    if count != len(returns):
        raise InputError(f"{call.function_id} returned {count} values, its ABI says {len(returns)}")
    codec = state.codec
    values = [from_json_form(t, codec.deserialize(d, t), state.abis) for t in returns]
    d.finish()
    return Result(values, result.ledger)


# -- build -----------------------------------------------------------------------------------


def _u64(value: Any, what: str) -> int:
    return parse_uint(value, 64, what=what)


def _optional_u64(value: Any, what: str) -> int | None:
    return None if value is None else _u64(value, what)


def _fee_payer(value: Any) -> SignerParts | None:
    if value is None or value is False:
        return None
    if value is True:
        return SignerParts(NO_FEE_PAYER)
    return as_signer(value, what="fee_payer")


def _nonce(value: int | bool | None) -> int | None:
    if value is None or value is False:
        return None
    if value is True:
        return secrets.randbits(64)
    return _u64(value, "replay_protection_nonce")


def _zeros(key: SigningKey | None) -> AccountAuthenticator:
    """A signer's public key with a signature of zeros (none without a key)."""
    return zero_authenticator(None if key is None else bytes(key.public_key_bytes))


def _simulation(
    raw: RawTransaction,
    sender: SignerParts,
    others: Sequence[SignerParts],
    fee_payer: SignerParts | None,
) -> SignedTransaction:
    """The transaction as a simulation takes it: real public keys, zero signatures."""
    auth = _zeros(sender.key)
    addresses = tuple(o.address for o in others)
    second = tuple(_zeros(o.key) for o in others)
    if fee_payer is not None:
        payer_auth = _zeros(fee_payer.key)
        return SignedTransaction(
            raw, FeePayerAuthenticator(auth, addresses, second, fee_payer.address, payer_auth)
        )
    if others:
        return SignedTransaction(raw, MultiAgentAuthenticator(auth, addresses, second))
    return SignedTransaction(raw, sender_authenticator(auth))


def estimate_max_gas(
    state: BuildState,
    raw: RawTransaction,
    sender: SignerParts,
    others: Sequence[SignerParts],
    fee_payer: SignerParts | None,
) -> Flow[int | None]:
    """Simulated gas used times :data:`GAS_MARGIN`, within what the node and the balance
    allow (the node's own estimate of the most gas, asked for in the same simulation).

    A simulation refused before execution (it used no gas) leaves that bound; ``None``
    when the node says the sequence number was used already.
    """
    candidate = replace(raw, max_gas_amount=_SIMULATION_MAX_GAS)
    for _ in range(2):
        signed = _simulation(candidate, sender, others, fee_payer)
        call = calls.simulate_transaction(
            signed,
            # Nodes bound their estimate by the sender's balance, even when a fee payer
            # pays: a fee-payer transaction is simulated at a fixed max gas instead.
            estimate_max_gas_amount=fee_payer is None,
            estimate_gas_unit_price=False,
            estimate_prioritized_gas_unit_price=False,
        )
        result = yield from send(call)
        state.observe(result.ledger)
        simulated = result.value[0]
        too_new = "SEQUENCE_NUMBER_TOO_NEW" in simulated.vm_status
        if too_new and candidate.sequence_number != U64_MAX:
            # Earlier transactions of a burst are still pending: the node simulates at
            # the sequence number it has committed; the gas does not depend on it.
            account = yield from send(calls.account(raw.sender))
            candidate = replace(candidate, sequence_number=account.value.sequence_number)
            continue
        break
    if "SEQUENCE_NUMBER_TOO_OLD" in simulated.vm_status:
        return None
    bound = simulated.max_gas_amount
    if simulated.gas_used == 0:
        return bound
    need = math.ceil(simulated.gas_used * GAS_MARGIN)
    # A bound below the gas used is not this payer's (a node may bound a fee-payer
    # transaction by the sender's balance): the node refuses what no one can pay.
    return need if bound < simulated.gas_used else min(bound, need)


def build_transaction(
    state: BuildState,
    sender: Any,
    function: str | EntryFunctionId,
    arguments: Sequence[Any],
    type_arguments: Iterable[str | MoveType],
    options: BuildOptions,
) -> Flow[UnsignedTransaction]:
    """Build a transaction, every field the user left out filled in from the node.

    The expiration counts from the node's clock (:meth:`BuildState.node_seconds`), never
    this machine's: an orderless transaction, whose window is narrow, from the ledger
    time of a ``GET /`` asked for it.
    """
    parts = as_signer(sender, what="sender")
    others = [
        as_signer(s, what=f"secondary signer {i}") for i, s in enumerate(options.secondary_signers)
    ]
    payer = _fee_payer(options.fee_payer)
    nonce = _nonce(options.replay_protection_nonce)
    price = _optional_u64(options.gas_unit_price, "gas_unit_price")
    max_gas = _optional_u64(options.max_gas_amount, "max_gas_amount")
    given_sequence = _optional_u64(options.sequence_number, "sequence_number")
    if given_sequence is not None and nonce is not None:
        raise InputError(
            "an orderless transaction (replay_protection_nonce) has no sequence_number"
        )
    expires_in = options.expires_in
    if expires_in is None:
        expires_in = DEFAULT_EXPIRES_IN if nonce is None else ORDERLESS_EXPIRES_IN
    if not isinstance(expires_in, int | float) or isinstance(expires_in, bool):
        raise InputError(f"expires_in is a number of seconds, got {expires_in!r}")
    if not 0 < expires_in < 10**9:
        raise InputError(f"expires_in is a positive number of seconds, got {expires_in!r}")

    call, _ = yield from prepare_call(state, function, arguments, type_arguments, view=False)
    payload: EntryFunction | TransactionPayloadV1 = call
    if nonce is not None:
        payload = TransactionPayloadV1(call, replay_protection_nonce=nonce)
    if nonce is not None or state.chain_id is None:
        info = yield from send(calls.ledger_info())
        state.observe(info.ledger)
        state.heard(info.ledger, (yield from now()))
    chain_id = state.chain_id
    assert chain_id is not None  # every answer above told it
    if price is None:
        estimate = yield from send(calls.estimate_gas_price())
        state.observe(estimate.ledger)
        price = estimate.value.gas_estimate

    for attempt in range(2):
        counted = False
        if nonce is not None:
            sequence = U64_MAX
        elif given_sequence is not None:
            sequence = given_sequence
        else:
            found = state.reserve(parts.address)
            if found is None:
                account = yield from send(calls.account(parts.address))
                state.observe(account.ledger)
                found = state.reserve(parts.address, account.value.sequence_number)
            assert found is not None
            sequence, counted = found, True
        expiration = yield from expiration_secs(state, expires_in)
        raw = RawTransaction(
            parts.address, sequence, payload, max_gas or 0, price, expiration, chain_id
        )
        if max_gas is not None:
            break
        try:
            gas = yield from estimate_max_gas(state, raw, parts, others, payer)
        except BaseException:
            if counted:
                state.release(parts.address, sequence)
            raise
        if gas is None and counted and attempt == 0:
            state.forget(parts.address)  # the count is behind the chain: read it again
            continue
        # Not counted (given by the user) and stale: the node refuses it on submission.
        raw = replace(raw, max_gas_amount=gas if gas is not None else _SIMULATION_MAX_GAS)
        break
    return _wrap(raw, others, payer)


def expiration_secs(state: BuildState, lifetime: float) -> Flow[int]:
    """``lifetime`` seconds after the node's time now (asked of it when no answer came yet)."""
    seconds = state.node_seconds((yield from now()))
    if seconds is None:
        info = yield from send(calls.ledger_info())
        state.observe(info.ledger)
        state.heard(info.ledger, (yield from now()))
        seconds = info.ledger.ledger_timestamp_usec / 10**6
    return math.floor(seconds) + math.ceil(lifetime)


def _wrap(
    raw: RawTransaction, others: Sequence[SignerParts], payer: SignerParts | None
) -> UnsignedTransaction:
    addresses = tuple(o.address for o in others)
    if payer is not None:
        return FeePayerRawTransaction(raw, addresses, payer.address)
    if addresses:
        return MultiAgentRawTransaction(raw, addresses)
    return raw


# -- transfer --------------------------------------------------------------------------------


def transfer_call(to: Address, amount: int, asset: Any) -> tuple[str, list[Any], list[str]]:
    """The entry function, arguments and type arguments of a transfer of ``asset``.

    A coin (a struct tag) goes through ``0x1::aptos_account::transfer_coins<Coin>``;
    a fungible asset (its metadata object's address) through
    ``0x1::primary_fungible_store::transfer<Metadata>``.
    """
    if isinstance(asset, StructTag) or (isinstance(asset, str) and "::" in asset):
        coin = str(StructTag.parse(asset))
        return "0x1::aptos_account::transfer_coins", [to, amount], [coin]
    try:
        metadata = Address.parse(asset)
    except InputError as exc:
        raise InputError(
            f"asset is a coin type (0x1::aptos_coin::AptosCoin) or a fungible asset's "
            f"metadata address: {exc}"
        ) from None
    return "0x1::primary_fungible_store::transfer", [metadata, to, amount], [_FA_METADATA]


def transfer(
    state: BuildState,
    sender: Any,
    to: Any,
    amount: int,
    asset: Any,
    options: BuildOptions,
    timeout: float,
) -> Flow[Result[Transaction]]:
    """Build, sign, submit and wait for a transfer; one rebuild after a stale number."""
    parts = as_signer(sender, what="sender", key_required=True)
    recipient = as_signer(to, what="to").address
    function, arguments, type_arguments = transfer_call(recipient, amount, asset)
    for attempt in range(2):
        built = yield from build_transaction(
            state, parts, function, arguments, type_arguments, options
        )
        signed = sign_transaction(built, parts)
        try:
            pending = yield from send(calls.submit_transaction(signed))
        except _STALE:
            state.forget(parts.address)
            if attempt or options.sequence_number is not None:
                raise
            continue
        return (yield from waiting(pending.value.hash, timeout))
    raise AssertionError("unreachable")  # pragma: no cover


# -- waiting ---------------------------------------------------------------------------------


def waiting(txn_hash: str | bytes, timeout: float) -> Flow[Result[Transaction]]:
    """The flow of ``wait_for_transaction``: long polls of ``wait_transaction_by_hash``
    until the transaction is committed (failed ones too), or ``timeout`` passes."""
    call = calls.wait_transaction_by_hash(txn_hash)
    deadline = (yield from now()) + timeout
    while True:
        missing: TransactionNotFoundError | None = None
        try:
            result = yield from send(call)
        except TransactionNotFoundError as exc:
            missing = exc
        else:
            if not is_pending(result.value):
                return result
        if (yield from now()) >= deadline:
            if missing is not None:
                raise missing
            raise RequestTimeoutError(
                f"transaction {call.path.rsplit('/', 1)[1]} still pending after {timeout}s"
            )
        yield Pause(WAIT_PAUSE_SECONDS)
