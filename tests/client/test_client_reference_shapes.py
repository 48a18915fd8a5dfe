"""The client reads every shape the reference OpenAPI schemas allow, not only what the
embedded node sends.

For each endpoint, bodies are generated from the reference document's response schema
(``reference_shapes``): full ones, with optional fields absent, null or present and an
unknown field added, and minimal ones with the required fields only. Each is answered
through ``httpx.MockTransport`` to the ``Client`` method of that endpoint, which must give
back typed records, never an exception. Then the shapes real nodes send that are worth
writing out, and error records at statuses outside the usual table.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any, Final

import httpx
import pytest
from client_fakes import (
    ACCOUNT_RESOURCE,
    ADDRESS,
    BASE,
    ENTRY_PAYLOAD,
    HASH,
    META,
    SIGNATURE,
    user_transaction,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_shapes import ADDED_LATER, Shapes, bodies, load_reference

from ledgerkit import (
    DecodingError,
    InvalidInputError,
    LedgerError,
    MempoolFullError,
    NodeAPIError,
    RequestTimeoutError,
    WebFrameworkError,
)
from ledgerkit.bcs import EntryFunction, RawTransaction
from ledgerkit.client import Client, Result
from ledgerkit.models import (
    AccountData,
    AuxiliaryInfo,
    BatchSubmitResult,
    Block,
    Event,
    GasEstimate,
    HealthStatus,
    KnownTransaction,
    LedgerInfo,
    MoveModuleBytecode,
    MoveResource,
    PendingTransaction,
    ScriptPayload,
    TransactionSummary,
    UserTransaction,
    WriteTableItem,
)
from ledgerkit.tx import Ed25519PrivateKey, EncodedSubmission

KEY: Final = Ed25519PrivateKey.from_seed(b"reference shapes")
_RAW: Final = RawTransaction(
    KEY.address(), 3, EntryFunction.build("0x1::m::f"), 2000, 100, 1_700_000_600, 2
)
SIGNED: Final = KEY.sign_transaction(_RAW)
TRANSACTION_KINDS: Final = typing.get_args(KnownTransaction)

EXAMPLES: Final = 25
SHAPES_SETTINGS: Final = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@dataclass(frozen=True)
class Endpoint:
    """A client method, the reference operation it calls, and what it must give back."""

    method: str
    path: str
    status: str
    call: Callable[[Client], Any]
    fits: Callable[[Any], bool]

    def __str__(self) -> str:
        return f"{self.method.upper()} {self.path} {self.status}"


def records(kind: Any) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, list) and all(isinstance(v, kind) for v in value)


def record(kind: Any) -> Callable[[Any], bool]:
    return lambda value: isinstance(value, kind)


def encoded(client: Client) -> Any:
    """``encode_submission``: hex that is no signing message is a typed DecodingError (the
    reference types the answer as any hex; a node answers a signing message)."""
    try:
        return client.encode_submission({"sender": ADDRESS}).value
    except DecodingError as exc:
        return exc


def waited(client: Client) -> Any:
    """``wait_for_transaction`` with no time to wait: a pending answer times out."""
    try:
        return client.wait_for_transaction(HASH, timeout=0).value
    except RequestTimeoutError:
        return "still pending"


def is_json(value: Any) -> bool:
    return json.loads(json.dumps(value)) == value


ACCOUNT_TYPE: Final = "0x1::account::Account"
ENDPOINTS: Final = [
    Endpoint("get", "/", "200", lambda c: c.ledger_info(), record(LedgerInfo)),
    Endpoint("get", "/-/healthy", "200", lambda c: c.health(), record(HealthStatus)),
    Endpoint("get", "/accounts/{address}", "200", lambda c: c.account(ADDRESS),
             record(AccountData)),
    Endpoint("get", "/accounts/{address}/resources", "200",
             lambda c: c.account_resources(ADDRESS), records(MoveResource)),
    Endpoint("get", "/accounts/{address}/resource/{resource_type}", "200",
             lambda c: c.account_resource(ADDRESS, ACCOUNT_TYPE), record(MoveResource)),
    Endpoint("get", "/accounts/{address}/modules", "200",
             lambda c: c.account_modules(ADDRESS), records(MoveModuleBytecode)),
    Endpoint("get", "/accounts/{address}/module/{module_name}", "200",
             lambda c: c.account_module(ADDRESS, "coin"), record(MoveModuleBytecode)),
    Endpoint("get", "/accounts/{address}/balance/{asset_type}", "200",
             lambda c: c.account_balance(ADDRESS, "0x1::aptos_coin::AptosCoin"), record(int)),
    Endpoint("get", "/accounts/{address}/transactions", "200",
             lambda c: c.account_transactions(ADDRESS), records(TRANSACTION_KINDS)),
    Endpoint("get", "/accounts/{address}/events/{creation_number}", "200",
             lambda c: c.events_by_creation_number(ADDRESS, 0), records(Event)),
    Endpoint("get", "/accounts/{address}/events/{event_handle}/{field_name}", "200",
             lambda c: c.events_by_handle(ADDRESS, ACCOUNT_TYPE, "coin_register_events"),
             records(Event)),
    Endpoint("get", "/transactions", "200", lambda c: c.transactions(),
             records(TRANSACTION_KINDS)),
    Endpoint("get", "/transactions/by_version/{txn_version}", "200",
             lambda c: c.transaction_by_version(7), record(TRANSACTION_KINDS)),
    Endpoint("get", "/transactions/by_hash/{txn_hash}", "200",
             lambda c: c.transaction_by_hash(HASH), record(TRANSACTION_KINDS)),
    Endpoint("get", "/transactions/wait_by_hash/{txn_hash}", "200", waited,
             lambda v: v == "still pending" or isinstance(v, TRANSACTION_KINDS)),
    Endpoint("get", "/transactions/auxiliary_info", "200",
             lambda c: c.transactions_auxiliary_info(0), records(AuxiliaryInfo)),
    Endpoint("get", "/accounts/{address}/transaction_summaries", "200",
             lambda c: c.account_transaction_summaries("0x1"), records(TransactionSummary)),
    Endpoint("post", "/transactions", "202", lambda c: c.submit_transaction(SIGNED),
             record(PendingTransaction)),
    Endpoint("post", "/transactions/batch", "202",
             lambda c: c.submit_batch_transactions([SIGNED]), record(BatchSubmitResult)),
    Endpoint("post", "/transactions/batch", "206",
             lambda c: c.submit_batch_transactions([SIGNED]), record(BatchSubmitResult)),
    Endpoint("post", "/transactions/simulate", "200", lambda c: c.simulate_transaction(SIGNED),
             records(UserTransaction)),
    Endpoint("post", "/transactions/encode_submission", "200", encoded,
             record(EncodedSubmission | DecodingError)),
    Endpoint("post", "/tables/{table_handle}/item", "200",
             lambda c: c.table_item(ADDRESS, "u64", "u64", "1"), is_json),
    Endpoint("get", "/estimate_gas_price", "200", lambda c: c.estimate_gas_price(),
             record(GasEstimate)),
    Endpoint("post", "/view", "200", lambda c: c.view_json("0x1::m::f"),
             lambda v: isinstance(v, list) and is_json(v)),
    Endpoint("get", "/blocks/by_height/{block_height}", "200",
             lambda c: c.block_by_height(1), record(Block)),
    Endpoint("get", "/blocks/by_version/{version}", "200",
             lambda c: c.block_by_version(1), record(Block)),
]  # fmt: skip


@pytest.fixture(scope="module")
def shapes() -> Shapes:
    return Shapes(load_reference())


#: A node holding all of history: the shapes are read as they come (a pruned node's lists by
#: sequence number are weighed against what it keeps, see test_client_pruned_lists).
WHOLE: Final = replace(META, oldest_ledger_version=0)


class Answering:
    """A client whose node answers every request with the body it is given."""

    def __init__(self, status: int = 200) -> None:
        self.status = status
        self.body = b"null"
        transport = httpx.MockTransport(self._answer)
        self.client = Client(BASE, transport=transport, cache=False, retries=0)

    def _answer(self, request: httpx.Request) -> httpx.Response:
        headers = {"content-type": "application/json", **WHOLE.to_headers("X-APTOS-")}
        return httpx.Response(self.status, content=self.body, headers=headers)

    def __call__(self, body: Any, status: int | None = None) -> Client:
        self.body = json.dumps(body).encode()
        if status is not None:
            self.status = status
        return self.client


@pytest.fixture
def answering() -> Iterator[Answering]:
    """A client whose node answers with the body (and status) each call gives it."""
    recorded = Answering()
    yield recorded
    recorded.client.close()


def test_every_client_endpoint_with_a_json_answer_is_covered(shapes: Shapes) -> None:
    covered = {(e.method, e.path) for e in ENDPOINTS}
    # Reference operations with no client method: the document and a node's config; the
    # raw item answers BCS to ledgerkit (it asks for BCS).
    not_ours = {
        ("get", "/spec"),
        ("get", "/info"),
        ("post", "/tables/{table_handle}/raw_item"),
    }
    document = load_reference()
    operations = {
        (method, path)
        for path, item in document["paths"].items()
        for method in item
        if (method, path) not in not_ours
    }
    assert covered == operations


@pytest.mark.parametrize("minimal", [False, True], ids=["full", "minimal"])
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=str)
@SHAPES_SETTINGS
@given(data=st.data())
def test_every_shape_the_reference_allows_decodes_into_records(
    shapes: Shapes, endpoint: Endpoint, minimal: bool, data: st.DataObject
) -> None:
    schema = shapes.response_schema(endpoint.method, endpoint.path, endpoint.status)
    body = data.draw(bodies(schema, minimal=minimal), label="body")
    answering = Answering(int(endpoint.status))
    try:
        answer = endpoint.call(answering(body))
    finally:
        answering.client.close()
    value = answer.value if isinstance(answer, Result) else answer
    assert endpoint.fits(value), value


def members(shapes: Shapes, union: str) -> list[dict[str, Any]]:
    """The members of a union of the reference, each as its own JSON Schema."""
    branches: list[dict[str, Any]] = shapes.named(union)["anyOf"]
    assert len(branches) >= 3, union
    return branches


@pytest.mark.parametrize("minimal", [False, True], ids=["full", "minimal"])
@SHAPES_SETTINGS
@given(data=st.data())
def test_every_kind_of_transaction_decodes_in_one_page(
    shapes: Shapes, minimal: bool, data: st.DataObject
) -> None:
    page = [data.draw(bodies(m, minimal=minimal)) for m in members(shapes, "Transaction")]
    answering = Answering()
    try:
        value = answering(page).transactions().value
    finally:
        answering.client.close()
    assert [type(t).__name__ for t in value] == [
        "PendingTransaction",
        "UserTransaction",
        "GenesisTransaction",
        "BlockMetadataTransaction",
        "StateCheckpointTransaction",
        "BlockEpilogueTransaction",
        "ValidatorTransaction",
    ]


@pytest.mark.parametrize(
    ("field", "union"),
    [("payload", "TransactionPayload"), ("signature", "TransactionSignature"),
     ("changes", "WriteSetChange")],
)  # fmt: skip
@SHAPES_SETTINGS
@given(data=st.data())
def test_every_member_of_the_unions_inside_a_user_transaction_decodes(
    shapes: Shapes, field: str, union: str, data: st.DataObject
) -> None:
    drawn = [data.draw(bodies(m), label=union) for m in members(shapes, union)]
    page = [committed(**{field: [value] if field == "changes" else value}) for value in drawn]
    answering = Answering()
    try:
        value = answering(page).transactions().value
    finally:
        answering.client.close()
    assert len(value) == len(drawn)
    assert all(isinstance(t, UserTransaction) for t in value)


# -- shapes real nodes send, written out ---------------------------------------------------------


def committed(**changes: Any) -> dict[str, Any]:
    return {**user_transaction(12), **changes}


def test_a_null_state_checkpoint_hash_is_none(answering: Answering) -> None:
    txn = answering(committed(state_checkpoint_hash=None)).transaction_by_version(12).value
    assert isinstance(txn, UserTransaction)
    assert txn.state_checkpoint_hash is None


def test_a_table_item_written_without_decoded_data(answering: Answering) -> None:
    change = {
        "type": "write_table_item",
        "state_key_hash": "0x" + "0c" * 32,
        "handle": "0x" + "0d" * 32,
        "key": "0x01",
        "value": "0x02",
        "data": None,
    }
    txn = answering(committed(changes=[change])).transaction_by_version(12).value
    assert isinstance(txn, UserTransaction)
    [written] = txn.changes
    assert isinstance(written, WriteTableItem)
    assert (written.key, written.value, written.data) == ("0x01", "0x02", None)


def test_a_script_payload_whose_abi_is_null(answering: Answering) -> None:
    payload = {
        "type": "script_payload",
        "code": {"bytecode": "0xa11ceb0b", "abi": None},
        "type_arguments": [],
        "arguments": ["1"],
    }
    txn = answering(committed(payload=payload)).transaction_by_version(12).value
    assert isinstance(txn, UserTransaction)
    assert isinstance(txn.payload, ScriptPayload)
    assert txn.payload.code.bytecode == "0xa11ceb0b"
    assert txn.payload.code.abi is None


@pytest.mark.parametrize(
    ("nonce", "expected"),
    [(None, None), (str(2**63 + 5), 9223372036854775813), (str(2**64 - 1), 18446744073709551615)],
)
def test_the_replay_protection_nonce_of_committed_transactions(
    answering: Answering, nonce: str | None, expected: int | None
) -> None:
    txn = answering(committed(replay_protection_nonce=nonce)).transaction_by_version(12).value
    assert isinstance(txn, UserTransaction)
    assert txn.replay_protection_nonce == expected
    page = answering([committed(replay_protection_nonce=nonce)]).transactions().value
    assert [t.replay_protection_nonce for t in page] == [expected]  # type: ignore[union-attr]


def test_fields_a_newer_node_adds_are_let_through(answering: Answering) -> None:
    pending = {
        "hash": HASH,
        "sender": ADDRESS,
        "sequence_number": "3",
        "max_gas_amount": "2000",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": "1700000600",
        "payload": {**ENTRY_PAYLOAD, ADDED_LATER: [1]},
        "signature": SIGNATURE,
        ADDED_LATER: {"nested": True},
    }
    value = answering(pending, 202).submit_transaction(SIGNED).value
    assert isinstance(value, PendingTransaction)
    assert value.hash == HASH


@pytest.mark.parametrize(
    ("field", "value"),
    [("sequence_number", str(2**64)), ("gas_unit_price", "-1"), ("max_gas_amount", "ten")],
)
def test_a_u64_out_of_range_or_not_a_number_is_a_decoding_error(
    answering: Answering, field: str, value: str
) -> None:
    with pytest.raises(DecodingError) as info:
        answering(committed(**{field: value})).transaction_by_version(12)
    assert info.value.status == 200
    assert "does not fit" in str(info.value)


def test_a_resource_of_the_reference_shape(answering: Answering) -> None:
    resource = answering(ACCOUNT_RESOURCE).account_resource(ADDRESS, ACCOUNT_TYPE).value
    assert resource.type == ACCOUNT_TYPE


# -- error records at statuses outside the usual table ------------------------------------------


@pytest.mark.parametrize("status", [403, 411, 413, 415])
def test_web_framework_errors_at_any_status_keep_status_and_code(
    answering: Answering, status: int
) -> None:
    record = {"message": "Content type not supported", "error_code": "web_framework_error"}
    with pytest.raises(WebFrameworkError) as info:
        answering(record, status).ledger_info()
    error = info.value
    assert (error.status, error.error_code, error.vm_error_code) == (
        status,
        "web_framework_error",
        None,
    )
    assert error.message == "Content type not supported"
    assert error.ledger == WHOLE


@pytest.mark.parametrize("status", [400, 403])
def test_invalid_input_with_a_vm_error_code_keeps_it(answering: Answering, status: int) -> None:
    record = {"message": "rejected", "error_code": "invalid_input", "vm_error_code": 4016}
    with pytest.raises(InvalidInputError) as info:
        answering(record, status).view_json("0x1::m::f")
    assert (info.value.status, info.value.error_code, info.value.vm_error_code) == (
        status,
        "invalid_input",
        4016,
    )


def test_an_error_code_unknown_here_keeps_its_text(answering: Answering) -> None:
    record = {"message": "slow down", "error_code": "some_future_code", "vm_error_code": None}
    with pytest.raises(NodeAPIError) as info:
        answering(record, 418).ledger_info()
    assert (info.value.status, info.value.error_code, info.value.vm_error_code) == (
        418,
        "some_future_code",
        None,
    )


def test_a_full_mempool_refuses_a_batch_with_507(answering: Answering) -> None:
    record = {"message": "mempool is full", "error_code": "mempool_is_full"}
    with pytest.raises(MempoolFullError) as info:
        answering(record, 507).submit_batch_transactions([SIGNED])
    assert info.value.status == 507


@SHAPES_SETTINGS
@given(data=st.data(), status=st.sampled_from([400, 403, 404, 410, 411, 413, 415, 500, 503, 507]))
def test_every_error_record_the_reference_allows_is_a_node_api_error(
    shapes: Shapes, data: st.DataObject, status: int
) -> None:
    record = data.draw(bodies(shapes.named("AptosError")), label="record")
    answering = Answering(status)
    try:
        with pytest.raises(LedgerError) as info:
            answering(record).transaction_by_version(1)
    finally:
        answering.client.close()
    error = info.value
    assert isinstance(error, NodeAPIError)
    assert error.status == status
    assert error.error_code == record["error_code"]
    assert error.vm_error_code == record.get("vm_error_code")
