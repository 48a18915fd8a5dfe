"""The multi-step methods of both clients, each declared once as a flow (see
:mod:`~ledgerkit.client._driver` for what a flow is and :class:`~ledgerkit.client._declare.flow`
for how a declaration becomes a method of each client). No I/O here.

The flows of a transaction's life live here: wait for one, explain one, simulate one,
submit one and wait, have the node encode one for signing. The package's modules hold the
others: building, viewing and transferring (``_building``), an account's assets
(``_holdings``) and the reads of module ABIs every flow shares (``_abis``). What a client
keeps between flows (the per-sender sequence numbers, its one
:class:`~ledgerkit.AbiCache`, its clock) is its :class:`ClientState`, handed to each
declaration as its first argument.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from ledgerkit._errors import (
    DecodingError,
    InputError,
    NotFoundError,
)
from ledgerkit.bcs import (
    EntryFunction,
    FeePayerRawTransaction,
    MultiAgentRawTransaction,
    Multisig,
    RawTransaction,
    SignedTransaction,
    TransactionData,
)
from ledgerkit.client import calls
from ledgerkit.client._calls._graphql import ask_indexer
from ledgerkit.client._declare import flow
from ledgerkit.client._driver import Flow, send
from ledgerkit.client._flows import _building as building
from ledgerkit.client._flows._abis import loading_abis, module_abi
from ledgerkit.client._flows._building import WAIT_PAUSE_SECONDS, waiting
from ledgerkit.client._flows._holdings import Holding, holdings
from ledgerkit.client._methods import Endpoints
from ledgerkit.models import (
    AbiCache,
    MoveResource,
    Transaction,
    UserTransaction,
    store_facts,
    stores_to_look_up,
)
from ledgerkit.tx import (
    EncodedSubmission,
    Simulation,
    TransactionExplanation,
    UnsignedTransaction,
    entry_function_of,
    explain_transaction,
    signed_with_zeros,
    submission_request,
)
from ledgerkit.types import Address, EntryFunctionId, MoveType, Result, StructTag

__all__ = [
    "WAIT_PAUSE_SECONDS",
    "ClientState",
    "Flows",
    "encoding",
    "explaining",
    "simulation",
    "submission",
    "waiting",
]

T = TypeVar("T")

APT: Final = "0x1::aptos_coin::AptosCoin"

Simulatable = SignedTransaction | RawTransaction | MultiAgentRawTransaction | FeePayerRawTransaction


@dataclass(frozen=True, eq=False)
class ClientState:
    """What one client keeps between its flows, handed to each flow declaration.

    Attributes
    ----------
    abis : AbiCache
        The module ABIs the client has read, for all its flows: builds and views (checked
        arguments, struct layouts), explanations and ``load_abis``.
    builds : BuildState
        The chain id, the node's clock, the per-sender sequence counter and the codec of
        the build flows (``_building``), over ``abis``.
    indexer : bool
        Whether the client knows an indexer (``indexer_url``) to ask.
    """

    abis: AbiCache = field(default_factory=AbiCache)
    indexer: bool = False
    builds: building.BuildState = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "builds", building.BuildState(self.abis))


# -- explaining --------------------------------------------------------------------


def explaining(
    txn: RawTransaction | SignedTransaction | TransactionData | int | str | bytes,
    state: ClientState,
) -> Flow[TransactionExplanation]:
    """Fetch what an explanation needs (the transaction's BCS when given by version or
    hash; the called module's ABI unless the client's cache holds it, or knows it is not
    published), then explain it.

    Raises
    ------
    InputError
        Not a transaction, a version or a hash.
    TransactionNotFoundError
        No transaction at that version or with that hash.
    """
    value: RawTransaction | SignedTransaction | TransactionData
    if isinstance(txn, bool):
        raise InputError("explain takes a transaction, a version or a hash, got a bool")
    if isinstance(txn, int):
        value = (yield from send(calls.transaction_by_version_bcs(txn))).value
    elif isinstance(txn, str | bytes):
        value = (yield from send(calls.transaction_by_hash_bcs(txn))).value
    elif isinstance(txn, RawTransaction | SignedTransaction | TransactionData):
        value = txn
    else:
        raise InputError(
            "explain takes a RawTransaction, SignedTransaction, TransactionData, a version "
            f"or a hash, got {type(txn).__name__}"
        )
    ef = entry_function_of(value)
    abis = state.abis
    if ef is not None and ef.module not in abis:
        try:
            yield from module_abi(abis, ef.module, state.builds.observe)
        except NotFoundError:
            abis.add_missing(ef.module)
    return explain_transaction(value, abis=abis)


# -- simulating and submitting ----------------------------------------------------------------


def _to_simulate(
    transaction: Simulatable,
    signer: object,
    public_key: object,
    secondary_signers: Sequence[object] | None,
    fee_payer: object,
) -> SignedTransaction:
    if isinstance(transaction, SignedTransaction):
        if signer is not None or public_key is not None or secondary_signers or fee_payer:
            raise InputError("this transaction is signed already: give no keys with it")
        return transaction
    if signer is not None and public_key is not None:
        raise InputError("give the sender's signer or its public_key, not both")
    sender = signer if signer is not None else public_key
    if sender is None:
        raise InputError("simulating needs the sender's signer or public_key")
    return signed_with_zeros(
        transaction, sender, secondary_signers=secondary_signers, fee_payer=fee_payer
    )


def simulation(signed: SignedTransaction, **flags: bool) -> Flow[Simulation]:
    """The flow of :meth:`Client.simulate <ledgerkit.Client.simulate>`, once the
    transaction bears its signatures of zeros: ``flags`` are its ``estimate_*`` options."""
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise InputError(f"{name} must be a bool, got {value!r}")
    answer = yield from send(calls.simulate_transaction(signed, **flags))
    if len(answer.value) != 1 or not isinstance(answer.value[0], UserTransaction):
        raise DecodingError(
            f"a simulation answers one user transaction, the node sent {len(answer.value)} items"
        )
    txn = answer.value[0]
    stores: dict[str, tuple[str | None, str | None]] = {}
    for store in stores_to_look_up(txn):
        try:
            found = yield from send(calls.account_resources(store))
        except NotFoundError:
            continue
        stores[store] = store_facts(found.value)
    return Simulation.from_transaction(txn, answer.ledger, stores=stores, **flags)


def submission(signed: SignedTransaction, timeout: float) -> Flow[Result[UserTransaction]]:
    """The flow of :meth:`Client.submit_and_wait <ledgerkit.Client.submit_and_wait>`."""
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout >= 0:
        raise InputError(f"timeout must be a number of seconds, got {timeout!r}")
    if math.isinf(timeout):
        raise InputError("timeout must be finite")
    pending = yield from send(calls.submit_transaction(signed))
    committed = yield from waiting(pending.value.hash, timeout)
    if not isinstance(committed.value, UserTransaction):
        raise DecodingError(
            f"the node answered a {type(committed.value).__name__} for a user transaction"
        )
    return Result(committed.value, committed.ledger)


# -- encoding for signers without BCS --------------------------------------------------------

#: Parameters an entry function takes from the signers, not from its arguments.
_SIGNERS = frozenset({"signer", "&signer"})


def _call_of(raw: RawTransaction) -> EntryFunction | None:
    payload = raw.payload
    if isinstance(payload, EntryFunction):
        return payload
    if isinstance(payload, Multisig):
        return payload.payload
    return None


def _param_types(state: building.BuildState, call: EntryFunction) -> Flow[list[MoveType]]:
    """The value parameter types of ``call``'s function (its ABI kept in the client's
    cache), its type arguments put in."""
    function = yield from building.function_abi(state, call.function_id)
    params = [MoveType.parse(p) for p in function.params if p not in _SIGNERS]
    return [p.substitute(call.type_args) for p in params]


def encoding(
    request: Mapping[str, Any] | RawTransaction | MultiAgentRawTransaction,
    state: building.BuildState,
) -> Flow[Result[EncodedSubmission]]:
    """The node's signing message of ``request``, read back into its transaction.

    Raises
    ------
    DecodingError
        The node's message is not the transaction's own (another chain id, or an
        encoding ledgerkit does not share).
    """
    if isinstance(request, Mapping):
        return (yield from send(calls.encode_submission(request)))
    if not isinstance(request, RawTransaction | MultiAgentRawTransaction):
        calls.encode_submission(request)  # raises the InputError naming what it takes
    raw = request.raw if isinstance(request, MultiAgentRawTransaction) else request
    call = _call_of(raw)
    types = (yield from _param_types(state, call)) if call is not None else None
    result = yield from send(
        calls.encode_submission(submission_request(request, param_types=types))
    )
    expected = request.signing_message()
    if bytes(result.value.signing_message) != expected:
        found = result.value.raw
        node_raw = found.raw if isinstance(found, MultiAgentRawTransaction) else found
        if node_raw.chain_id != raw.chain_id:
            raise DecodingError(
                f"the transaction is for chain {raw.chain_id}, the node encodes it for "
                f"chain {node_raw.chain_id}"
            )
        raise DecodingError("the node encodes this transaction differently from ledgerkit")
    return result


# -- the declarations --------------------------------------------------------------------------


class Flows(Endpoints):
    """The multi-step methods of both clients (see :class:`~ledgerkit.Client`), after the
    endpoint methods of :class:`~ledgerkit.client._methods.Endpoints`."""

    @flow
    def wait_for_transaction(
        state: ClientState, txn_hash: str | bytes, *, timeout: float = 60.0
    ) -> Flow[Result[Transaction]]:
        """Wait until the transaction is committed and return it (long polls of
        :meth:`wait_transaction_by_hash`). A failed transaction is returned too: check
        ``.success``.

        Raises
        ------
        RequestTimeoutError
            Still pending after ``timeout`` seconds.
        TransactionNotFoundError
            The node has never heard of it by then (expired, or never accepted).
        """
        return waiting(txn_hash, timeout)

    @flow
    def encode_submission(
        state: ClientState,
        request: Mapping[str, Any] | RawTransaction | MultiAgentRawTransaction,
    ) -> Flow[Result[EncodedSubmission]]:
        """The signing message of a transaction as the node encodes it, for signers
        without BCS.

        Parameters
        ----------
        request : mapping, RawTransaction or MultiAgentRawTransaction
            The JSON request (sender, sequence_number, max_gas_amount, gas_unit_price,
            expiration_timestamp_secs, payload; ``secondary_signers`` for the multi-agent
            message), or a transaction, which is sent in that form (an entry function's
            arguments written in JSON by its ABI, read from the node once per module and
            kept).

        Returns
        -------
        Result[EncodedSubmission]
            ``signing_message`` to sign, and ``raw``, the transaction read back from it.
            ``value.json_submission(public_key, signature)`` is the JSON request
            :meth:`submit_transaction` takes; ``value.signed(...)`` its BCS form.

        Raises
        ------
        DecodingError
            Given a transaction, the node encodes it otherwise (another chain id...).
        """
        return encoding(request, state.builds)

    # -- tables --------------------------------------------------------------------------

    @flow
    def simulate(
        state: ClientState,
        transaction: SignedTransaction
        | RawTransaction
        | MultiAgentRawTransaction
        | FeePayerRawTransaction,
        *,
        signer: object = None,
        public_key: object = None,
        secondary_signers: Sequence[object] | None = None,
        fee_payer: object = None,
        estimate_max_gas_amount: bool = False,
        estimate_gas_unit_price: bool = False,
        estimate_prioritized_gas_unit_price: bool = False,
    ) -> Flow[Simulation]:
        """Foretell what a transaction would do: outcome, gas, fee, changes, events and
        balance changes, with any Move abort decoded. Nothing is committed.

        Each signer is given a signature of zeros (nodes refuse to simulate a valid
        one): only public keys are needed.

        Parameters
        ----------
        transaction : RawTransaction, MultiAgentRawTransaction, FeePayerRawTransaction...
            What to simulate, or a SignedTransaction, sent as it is (its signatures
            must not verify).
        signer : account, optional
            The sender: anything with ``public_key`` (an account, a private key).
        public_key : public key, optional
            The sender's public key instead (Ed25519 or secp256k1, a key object, bytes
            or hex).
        secondary_signers : sequence, optional
            A signer or public key (or None) per secondary signer of a multi-agent or
            fee-payer transaction; omitted, none is given an authenticator.
        fee_payer : account or public key, optional
            The fee payer's; omitted, it gets no authenticator, as for a fee payer
            ``0x0`` (one not known yet, whose fee a node skips in simulation).
        estimate_max_gas_amount, estimate_gas_unit_price, estimate_prioritized_gas_unit_price : bool
            Let the node put its estimates in place of the transaction's max gas amount
            or gas unit price; the simulation reports the values it ran with.

        Returns
        -------
        Simulation
            ``.success``, ``.abort``, ``.fee``, ``.balance_changes``... Fungible stores the
            answer does not tie to an owner or asset are read from the chain first.

        Raises
        ------
        InputError
            No sender key, keys of no known kind, or keys for a signed transaction.
        VMError
            The node refused to simulate it (a valid signature, a malformed transaction).

        Examples
        --------
        >>> sim = client.simulate(raw, signer=account)  # doctest: +SKIP
        >>> sim.success, sim.fee, sim.abort  # doctest: +SKIP
        (True, 2400, None)
        """
        signed = _to_simulate(transaction, signer, public_key, secondary_signers, fee_payer)
        return simulation(
            signed,
            estimate_max_gas_amount=estimate_max_gas_amount,
            estimate_gas_unit_price=estimate_gas_unit_price,
            estimate_prioritized_gas_unit_price=estimate_prioritized_gas_unit_price,
        )

    @flow
    def submit_and_wait(
        state: ClientState, signed: SignedTransaction, *, timeout: float = 60.0
    ) -> Flow[Result[UserTransaction]]:
        """Submit a signed transaction and wait until it is committed.

        The submission is sent exactly once, never retried (a second copy could be a
        second transfer); then :meth:`wait_transaction_by_hash` is polled. A transaction
        that commits but fails in execution (a Move abort, out of gas) is returned, not
        raised, as web3.py's ``wait_for_transaction_receipt`` does: check
        ``.value.success``.

        Returns
        -------
        Result[UserTransaction]
            The committed transaction and the ledger metadata of the answer.

        Raises
        ------
        TransactionRejectedError
            The node refused the submission (``VMError``, ``SequenceNumberTooOldError``,
            ``MempoolFullError``...): nothing was committed.
        RequestTimeoutError
            Still pending after ``timeout`` seconds.
        TransactionNotFoundError
            The node no longer knows it (it expired, or was dropped).
        TransportError
            The submission's connection failed: it may or may not have been accepted;
            ``wait_for_transaction(signed.hash())`` tells.
        """
        return submission(signed, timeout)

    @flow
    def build_transaction(
        state: ClientState,
        sender: Any,
        function: str | EntryFunctionId,
        arguments: Sequence[Any] = (),
        *,
        type_arguments: Iterable[str | MoveType] = (),
        max_gas_amount: int | None = None,
        gas_unit_price: int | None = None,
        expires_in: float | None = None,
        sequence_number: int | None = None,
        secondary_signers: Sequence[Any] = (),
        fee_payer: Any = None,
        replay_protection_nonce: int | bool | None = None,
    ) -> Flow[UnsignedTransaction]:
        """Build a transaction calling an entry function, with Python values as arguments.

        The arguments are checked against the function's ABI (fetched once per module
        and kept) and BCS-encoded before anything else is asked of the node; see
        :mod:`ledgerkit.tx` for how each Move type reads a Python value. Fields left
        out are filled in: the chain id, the gas unit price (the node's estimate), the
        sequence number (read once per sender, then counted by the client) and the max
        gas (a simulation's gas used times 1.5, within what the balance pays for).

        Parameters
        ----------
        sender : account, private key or address
            Who sends. Its public key (of an account or key) goes into the simulation;
            a bare address is simulated without one.
        function : str or EntryFunctionId
            ``"0x1::aptos_account::transfer"``.
        arguments : sequence
            One Python value per parameter, ``signer`` parameters left out.
        type_arguments : iterable of str or MoveType
            One per generic parameter of the function.
        max_gas_amount, gas_unit_price, sequence_number : int, optional
            Given: used as they are (a given sequence number is not counted).
        expires_in : float, optional
            Seconds until it expires, counted from the node's clock (the ledger
            timestamp of its latest answer, plus the time since), not this machine's:
            default 600, or 60 for an orderless transaction (nodes refuse one more
            than 100 s ahead of their own time).
        secondary_signers : sequence of accounts or addresses
            Makes a multi-agent transaction.
        fee_payer : account, address or True
            Makes a fee-payer transaction; ``True``: the fee payer is not known yet
            (it signs later, see :func:`ledgerkit.tx.sign_transaction`).
        replay_protection_nonce : int or True, optional
            Makes an orderless transaction: no sequence number (``2^64 - 1`` in its
            place) and this nonce in the payload; ``True`` picks a random one.

        Returns
        -------
        RawTransaction, MultiAgentRawTransaction or FeePayerRawTransaction
            Sign with :func:`ledgerkit.tx.sign_transaction`, then submit.

        Raises
        ------
        ArgumentError
            An argument or type argument does not fit the ABI (nothing was submitted).
        InputError
            Not an entry function, or an option out of range.

        Examples
        --------
        >>> raw = client.build_transaction(  # doctest: +SKIP
        ...     account, "0x1::aptos_account::transfer", [recipient, 1_000]
        ... )
        >>> client.submit_transaction(ledgerkit.tx.sign_transaction(raw, account))  # doctest: +SKIP
        """
        options = building.BuildOptions(
            max_gas_amount,
            gas_unit_price,
            expires_in,
            sequence_number,
            secondary_signers,
            fee_payer,
            replay_protection_nonce,
        )
        return building.build_transaction(
            state.builds, sender, function, arguments, type_arguments, options
        )

    @flow
    def view(
        state: ClientState,
        function: str | EntryFunctionId,
        arguments: Sequence[Any] = (),
        *,
        type_arguments: Iterable[str | MoveType] = (),
        ledger_version: int | None = None,
    ) -> Flow[Result[list[Any]]]:
        """Call a view function with Python values; its results as Python values.

        Arguments are checked against the function's ABI and sent as BCS; the results
        are decoded by its return types: integers as exact ``int`` at every width,
        ``Option`` as the value or ``None``, structs as dicts, vectors as lists,
        ``String`` as ``str``, ``vector<u8>`` as ``bytes``, addresses and objects as
        :class:`~ledgerkit.types.Address`. :meth:`view_json` keeps the node's JSON.

        Raises
        ------
        ArgumentError
            An argument does not fit the ABI (nothing was sent to ``/view``).

        Examples
        --------
        >>> balance, _ = client.view(  # doctest: +SKIP
        ...     "0x1::coin::balance", [address], type_arguments=["0x1::aptos_coin::AptosCoin"]
        ... )
        """
        return building.view(state.builds, function, arguments, type_arguments, ledger_version)

    @flow
    def transfer(
        state: ClientState,
        sender: Any,
        to: Any,
        amount: int,
        *,
        asset: str | StructTag | Address = APT,
        max_gas_amount: int | None = None,
        gas_unit_price: int | None = None,
        expires_in: float | None = None,
        timeout: float = 60.0,
    ) -> Flow[Result[Transaction]]:
        """Send ``amount`` of a coin or fungible asset, and wait until it is committed.

        A coin type (default APT) is sent with ``0x1::aptos_account::transfer_coins``, a
        fungible asset (its metadata object's address) with
        ``0x1::primary_fungible_store::transfer``. Built as :meth:`build_transaction`
        builds, signed with the sender's key, submitted once (again only after a
        refusal saying the sequence number was stale) and waited for.

        Returns
        -------
        Result[Transaction]
            The committed transaction; a failed one too (check ``.success``).
        """
        options = building.BuildOptions(max_gas_amount, gas_unit_price, expires_in)
        return building.transfer(state.builds, sender, to, amount, asset, options, timeout)

    @flow
    def explain(
        state: ClientState,
        txn: RawTransaction | SignedTransaction | TransactionData | int | str | bytes,
    ) -> Flow[TransactionExplanation]:
        """A transaction's bytes explained field by field, entry-function arguments typed
        by the called function's ABI (fetched once per module and kept).

        Parameters
        ----------
        txn : RawTransaction, SignedTransaction, TransactionData, int or str
            A transaction built here, or the version (int) or hash of one on the ledger
            (then read as BCS: committed, or pending).

        Examples
        --------
        >>> explanation = client.explain(3)  # doctest: +SKIP
        >>> print(explanation)  # the annotated dump  # doctest: +SKIP
        >>> explanation.to_frame()  # offset, bytes, field, value  # doctest: +SKIP
        """
        return explaining(txn, state)

    @flow
    def load_abis(
        state: ClientState,
        types: Iterable[str | StructTag] | str | StructTag,
        *,
        cache: AbiCache | None = None,
    ) -> Flow[AbiCache]:
        """Read the module ABIs that laying out ``types`` as columns takes: the modules
        declaring the structs and those of the structs nested in them, each module once,
        a nesting level's modules together.

        Parameters
        ----------
        types : str, StructTag or iterable of them
            Struct tags, such as event types (``"0x1::fungible_asset::Deposit"``).
        cache : AbiCache, optional
            Where the ABIs go; modules it holds are not read again, and a module the node
            does not publish is remembered there as missing. Default: the client's own,
            which its builds, views and explanations read too.

        Returns
        -------
        AbiCache
            ``cache`` (or the client's own), holding them: ``.layout(t)`` gives a type's
            columns, and :func:`ledgerkit.frames.expand_event_data` (``modules=``) types
            events with it.

        Raises
        ------
        InputError
            A type that is not a struct tag, or a cache that is not an ``AbiCache``.

        Examples
        --------
        >>> cache = client.load_abis("0x1::fungible_asset::Deposit")  # doctest: +SKIP
        >>> cache.layout("0x1::fungible_asset::Deposit")  # doctest: +SKIP
        {'store': PrimitiveType(name='address'), 'amount': PrimitiveType(name='u64')}
        """
        if cache is not None and not isinstance(cache, AbiCache):
            raise InputError(f"cache must be an AbiCache, got {type(cache).__name__}")
        wanted = [types] if isinstance(types, str | StructTag) else types
        held = state.abis if cache is None else cache
        return loading_abis(held, wanted, observe=state.builds.observe)

    @flow
    def account_assets(
        state: ClientState,
        address: str | Address,
        *,
        ledger_version: int | None = None,
        assets: Iterable[str | Address] = (),
        resources: Sequence[MoveResource] | None = None,
        tokens: Iterable[str | Address] = (),
    ) -> Flow[list[Holding]]:
        """Every asset the account holds: coins and fungible assets, with exact balances,
        decimals, symbols and names, read from the node at one ledger version; and its
        digital assets (tokens), found by the indexer when the client knows one, and
        read from the node at the addresses named in ``tokens``.

        Parameters
        ----------
        address : str or Address
            The account.
        ledger_version : int, optional
            Read at this version (default: the latest, pinned by the first answer).
        assets : iterable of str or Address
            More fungible assets to look for (metadata addresses): discovery finds APT,
            coins' paired assets, those created at genesis and, when the client knows
            an indexer, those it lists for the account (assets issued by published
            modules); without an indexer, name those here.
        resources : sequence of MoveResource, optional
            The account's resources at ``ledger_version``, every page, when the caller
            has read them already (an explorer showing them): they are not read again.
        tokens : iterable of str or Address
            Digital assets (token v2 objects) to look for at these addresses, read from
            the node at ``ledger_version`` (``0x4::token::Token``, its ``ObjectCore``
            owner, collection and property map): listed when the account owns them.
            The node cannot list an account's objects; the indexer can.

        Returns
        -------
        list of Holding
            Coins first, then fungible assets, then tokens (``kind="token"``): those
            the indexer lists (token v2 and v1; its latest state, which may lag the
            node's, whatever ``ledger_version`` says), then those named in ``tokens``
            not listed already. ``ledgerkit.account_balances`` gives the same as a
            frame.

        Raises
        ------
        InputError
            ``resources`` that are not resource records, or given without the
            ``ledger_version`` they were read at; more than 1,000 ``tokens``.
        IndexerError
            The indexer answered the query of tokens with GraphQL errors.
        """
        return holdings(address, ledger_version, assets, resources, tokens, state.indexer)

    @flow
    def graphql(
        state: ClientState, query: str, variables: Mapping[str, Any] | None = None
    ) -> Flow[dict[str, Any]]:
        """Ask the indexer's GraphQL API (``indexer_url``) a query; its ``data``.

        The query is POSTed with this client's retries and limits (headers and api key
        only when the indexer is on the node's origin).

        Parameters
        ----------
        query : str
            A GraphQL query, at most 32 KiB.
        variables : mapping, optional
            Its variables (JSON values).

        Returns
        -------
        dict
            The answer's ``data``.

        Raises
        ------
        InputError
            The client knows no indexer, or the query or its variables are not text and
            a mapping.
        IndexerError
            The answer has GraphQL ``errors`` (their messages in ``.errors``), or is not
            a GraphQL answer.

        Examples
        --------
        >>> q = "query q($a: String) { current_collections_v2(where: {creator_address: "
        >>> q += "{_eq: $a}}) { collection_name } }"
        >>> client.graphql(q, {"a": "0x" + "0" * 63 + "1"})  # doctest: +SKIP
        {'current_collections_v2': []}
        """
        return ask_indexer(query, variables)
