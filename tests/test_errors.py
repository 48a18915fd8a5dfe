"""The error tree: every node error_code maps to its class, keeps what the node said, pickles."""

from __future__ import annotations

import copy
import os
import pickle
import re
from pathlib import Path

import pytest

import ledgerkit
from ledgerkit import (
    AccountNotFoundError,
    APIDisabledError,
    BCSDecodeError,
    BCSEncodeError,
    BCSError,
    BCSNotSupportedError,
    BlockNotFoundError,
    BlockPrunedError,
    DecodingError,
    ErrorCode,
    HealthCheckFailedError,
    IndexerError,
    InputError,
    InvalidAddressError,
    InvalidHexError,
    InvalidInputError,
    InvalidIntegerError,
    InvalidKeyError,
    InvalidTransactionUpdateError,
    LedgerError,
    LedgerMeta,
    MempoolFullError,
    MoveModuleNotFoundError,
    MoveTypeSyntaxError,
    MoveValueError,
    NodeAPIError,
    NotFoundError,
    PrunedError,
    RateLimitedError,
    RejectedByFilterError,
    RequestTimeoutError,
    ResourceNotFoundError,
    SequenceNumberTooOldError,
    ServerError,
    ServiceUnavailableError,
    SigningError,
    StateValueNotFoundError,
    StructFieldNotFoundError,
    TableItemNotFoundError,
    TransactionNotFoundError,
    TransactionRejectedError,
    TransportError,
    VersionNotFoundError,
    VersionPrunedError,
    VMError,
    WebFrameworkError,
)
from ledgerkit._errors import error_from_record

META = LedgerMeta(
    chain_id=4,
    ledger_version=2**64 - 1,
    oldest_ledger_version=9007199254740993,
    ledger_timestamp_usec=1_700_000_000_000_000,
    epoch=3,
    block_height=500,
    oldest_block_height=123,
)
REQUEST = "GET http://127.0.0.1:8080/v1/accounts/0x1?ledger_version=5"
ALL_CODES = list(ErrorCode)

# The node's own description of its API, kept beside the project (not part of it): what
# ErrorCode is checked against.
SPEC = Path(__file__).resolve().parents[2] / "shared" / "spec" / "ledger-node-rest-api.md"
#: Its list of error codes: the paragraph after the sentence that introduces it.
SPEC_ERROR_CODES = re.compile(
    r"`error_code` takes exactly one of these values:\s*\n(.+?)\n\n", re.S
)


def _record(code: ErrorCode | str, vm_error_code: object = None) -> dict[str, object]:
    record: dict[str, object] = {"message": f"the node says {code}", "error_code": str(code)}
    if vm_error_code is not None:
        record["vm_error_code"] = vm_error_code
    return record


# -- every code --------------------------------------------------------------------------


# Written out by hand, never read from ledgerkit._errors: a code mapped to the wrong class
# or status in the library's table must fail here.
EXPECTED: list[tuple[str, int, type[NodeAPIError]]] = [
    ("account_not_found", 404, AccountNotFoundError),
    ("resource_not_found", 404, ResourceNotFoundError),
    ("module_not_found", 404, MoveModuleNotFoundError),
    ("struct_field_not_found", 404, StructFieldNotFoundError),
    ("version_not_found", 404, VersionNotFoundError),
    ("transaction_not_found", 404, TransactionNotFoundError),
    ("table_item_not_found", 404, TableItemNotFoundError),
    ("block_not_found", 404, BlockNotFoundError),
    ("state_value_not_found", 404, StateValueNotFoundError),
    ("version_pruned", 410, VersionPrunedError),
    ("block_pruned", 410, BlockPrunedError),
    ("invalid_input", 400, InvalidInputError),
    ("invalid_transaction_update", 400, InvalidTransactionUpdateError),
    ("sequence_number_too_old", 400, SequenceNumberTooOldError),
    ("vm_error", 400, VMError),
    ("rejected_by_filter", 403, RejectedByFilterError),
    ("health_check_failed", 503, HealthCheckFailedError),
    ("mempool_is_full", 507, MempoolFullError),
    ("internal_error", 500, ServerError),
    ("web_framework_error", 400, WebFrameworkError),
    ("bcs_not_supported", 400, BCSNotSupportedError),
    ("api_disabled", 403, APIDisabledError),
    ("rate_limited", 429, RateLimitedError),
    ("node_not_bootstrapped", 503, ServerError),
]


def test_the_expected_table_names_every_code_once() -> None:
    codes = [code for code, _, _ in EXPECTED]
    assert len(codes) == len(set(codes))
    assert set(codes) == {c.value for c in ErrorCode}


@pytest.mark.parametrize(("code", "status", "cls"), EXPECTED, ids=[c for c, _, _ in EXPECTED])
def test_every_error_code_maps_to_its_class_keeping_every_field(
    code: str, status: int, cls: type[NodeAPIError]
) -> None:
    assert ErrorCode(code).status == status
    assert ErrorCode(code).error_class is cls
    err = error_from_record(status, _record(code, vm_error_code=4016), ledger=META, request=REQUEST)
    assert type(err) is cls
    assert isinstance(err, NodeAPIError)
    assert isinstance(err, LedgerError)
    assert err.status == status
    assert err.error_code == code
    assert err.vm_error_code == 4016
    assert err.message == f"the node says {code}"
    assert err.ledger is META
    assert err.request == REQUEST
    text = str(err)
    assert code in text
    assert err.message in text
    assert str(status) in text
    assert REQUEST in text
    assert "4016" in text


@pytest.mark.parametrize(("code", "status", "cls"), EXPECTED, ids=[c for c, _, _ in EXPECTED])
def test_the_code_decides_the_class_whatever_the_status(
    code: str, status: int, cls: type[NodeAPIError]
) -> None:
    # A proxy may change the status; the record's code still says what happened.
    other = 500 if status != 500 else 400
    assert type(error_from_record(other, _record(code))) is cls


@pytest.mark.parametrize("code", ALL_CODES, ids=[c.value for c in ALL_CODES])
def test_every_error_code_pickles_keeping_class_and_fields(code: ErrorCode) -> None:
    err = error_from_record(code.status, _record(code, 7), ledger=META, request=REQUEST)
    for back in (pickle.loads(pickle.dumps(err)), copy.copy(err), copy.deepcopy(err)):
        assert type(back) is type(err)
        assert back.status == err.status
        assert back.error_code == err.error_code
        assert back.vm_error_code == 7
        assert back.message == err.message
        assert back.ledger == META
        assert back.request == REQUEST
        assert str(back) == str(err)


def spec_error_codes() -> set[str]:
    """The codes the node's spec lists, read from it; skips the test when the spec is not
    here (fails in CI, where it sits beside the project)."""
    if not SPEC.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{SPEC} is missing")
        pytest.skip(f"{SPEC} is not here")
    found = SPEC_ERROR_CODES.search(SPEC.read_text("utf-8"))
    assert found is not None, "the spec no longer says which values error_code takes"
    return set(re.findall(r"`([a-z_]+)`", found.group(1)))


def test_error_code_values_are_the_specs_plus_two_seen_in_the_field() -> None:
    spec = spec_error_codes()
    assert len(spec) == 22
    assert {c.value for c in ErrorCode} == spec | {"rate_limited", "node_not_bootstrapped"}
    assert ErrorCode("vm_error") is ErrorCode.VM_ERROR
    assert ErrorCode.VM_ERROR == "vm_error"


# -- statuses ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "status"),
    [(c, 404) for c in ErrorCode if c.value.endswith("_not_found")]
    + [
        (ErrorCode.VERSION_PRUNED, 410),
        (ErrorCode.BLOCK_PRUNED, 410),
        (ErrorCode.INVALID_INPUT, 400),
        (ErrorCode.API_DISABLED, 403),
        (ErrorCode.MEMPOOL_IS_FULL, 507),
        (ErrorCode.HEALTH_CHECK_FAILED, 503),
        (ErrorCode.RATE_LIMITED, 429),
        (ErrorCode.INTERNAL_ERROR, 500),
    ],
    ids=lambda value: str(value),
)
def test_statuses(code: ErrorCode, status: int) -> None:
    assert code.status == status


def test_there_are_nine_not_found_codes_all_404_and_not_found_errors() -> None:
    not_found = [c for c in ErrorCode if c.value.endswith("_not_found")]
    assert len(not_found) == 9
    for code in not_found:
        assert code.status == 404
        assert issubclass(code.error_class, NotFoundError)


def test_every_status_is_an_http_error_status() -> None:
    for code in ErrorCode:
        assert 400 <= code.status <= 599, code


# -- pruning -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "cls"),
    [(ErrorCode.VERSION_PRUNED, VersionPrunedError), (ErrorCode.BLOCK_PRUNED, BlockPrunedError)],
)
def test_pruned_errors_say_what_the_node_still_holds(
    code: ErrorCode, cls: type[PrunedError]
) -> None:
    err = error_from_record(410, _record(code), ledger=META)
    assert isinstance(err, cls)
    assert isinstance(err, PrunedError)
    assert err.oldest_version == 9007199254740993
    assert err.oldest_block_height == 123
    back = pickle.loads(pickle.dumps(err))
    assert isinstance(back, PrunedError)
    assert back.oldest_version == 9007199254740993


def test_pruned_error_without_headers_knows_nothing() -> None:
    err = error_from_record(410, _record(ErrorCode.VERSION_PRUNED))
    assert isinstance(err, PrunedError)
    assert err.ledger is None
    assert err.oldest_version is None
    assert err.oldest_block_height is None


# -- the tree ----------------------------------------------------------------------------


def _tree_from_docstring() -> list[tuple[str, str]]:
    """(child, parent) pairs drawn in the module docstring of ledgerkit._errors."""
    doc = ledgerkit._errors.__doc__
    assert doc is not None
    pairs: list[tuple[str, str]] = []
    stack: list[tuple[int, str]] = []
    for line in doc.splitlines():
        match = re.match(r"^(?P<lead>[ │├└─]*)(?P<names>[A-Z][A-Za-z]+Error\b.*)$", line)
        if not match or not line.startswith("    "):
            continue
        depth = len(match["lead"])
        names = re.findall(r"\b([A-Z][A-Za-z]*Error)\b", match["names"].split("  ")[0])
        names = [n for n in names if n != "ValueError"]
        while stack and stack[-1][0] >= depth:
            stack.pop()
        for name in names:
            if stack:
                pairs.append((name, stack[-1][1]))
        if len(names) == 1:
            stack.append((depth, names[0]))
    return pairs


def test_the_docstring_tree_is_the_class_tree() -> None:
    pairs = _tree_from_docstring()
    drawn = {child for child, _ in pairs}
    # Every exception ledgerkit exports is drawn in the tree.
    exported = {
        name
        for name in ledgerkit.__all__
        if isinstance(getattr(ledgerkit, name), type)
        and issubclass(getattr(ledgerkit, name), LedgerError)
        and name != "LedgerError"
    }
    assert exported == drawn
    for child, parent in pairs:
        child_cls, parent_cls = getattr(ledgerkit, child), getattr(ledgerkit, parent)
        assert child_cls.__bases__[0] is parent_cls, f"{child} should derive from {parent}"


@pytest.mark.parametrize(
    ("cls", "parent"),
    [
        (AccountNotFoundError, NotFoundError),
        (NotFoundError, NodeAPIError),
        (VersionPrunedError, PrunedError),
        (BlockPrunedError, PrunedError),
        (PrunedError, NodeAPIError),
        (WebFrameworkError, InvalidInputError),
        (VMError, TransactionRejectedError),
        (MempoolFullError, TransactionRejectedError),
        (TransactionRejectedError, NodeAPIError),
        (APIDisabledError, NodeAPIError),
        (BCSNotSupportedError, NodeAPIError),
        (HealthCheckFailedError, NodeAPIError),
        (RateLimitedError, NodeAPIError),
        (ServerError, NodeAPIError),
        (NodeAPIError, LedgerError),
        (RequestTimeoutError, TransportError),
        (TransportError, LedgerError),
        (DecodingError, LedgerError),
        (SigningError, LedgerError),
        (InvalidKeyError, SigningError),
        (InvalidKeyError, InputError),
        (BCSDecodeError, BCSError),
        (BCSEncodeError, BCSError),
        (BCSError, LedgerError),
        (InputError, LedgerError),
    ],
)
def test_important_family_relations(cls: type[Exception], parent: type[Exception]) -> None:
    assert issubclass(cls, parent)


def test_families_stay_apart() -> None:
    assert not issubclass(PrunedError, NotFoundError)
    assert not issubclass(InvalidInputError, TransactionRejectedError)
    assert not issubclass(NodeAPIError, ValueError)
    assert not issubclass(BCSDecodeError, ValueError)


@pytest.mark.parametrize(
    "cls",
    [
        InputError,
        InvalidAddressError,
        InvalidIntegerError,
        InvalidHexError,
        MoveTypeSyntaxError,
        MoveValueError,
        BCSEncodeError,
    ],
)
def test_input_errors_are_also_value_errors(cls: type[Exception]) -> None:
    assert issubclass(cls, ValueError)
    assert issubclass(cls, LedgerError)


def test_one_except_catches_them_all() -> None:
    for code in ErrorCode:
        with pytest.raises(LedgerError):
            raise error_from_record(code.status, _record(code))


# -- unknown and partial records ---------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, InvalidInputError),
        (403, APIDisabledError),
        (404, NotFoundError),
        (410, PrunedError),
        (429, RateLimitedError),
        (500, ServerError),
        (502, ServerError),
        (503, ServiceUnavailableError),
        (507, MempoolFullError),
        (409, NodeAPIError),
        (413, NodeAPIError),
    ],
)
def test_unknown_error_code_keeps_its_text_and_falls_back_by_status(
    status: int, cls: type[NodeAPIError]
) -> None:
    err = error_from_record(status, {"message": "hm", "error_code": "brand_new_code"})
    assert type(err) is cls
    assert err.error_code == "brand_new_code"
    assert err.status == status
    assert "brand_new_code" in str(err)
    assert "hm" in str(err)


def test_the_code_wins_over_the_status() -> None:
    err = error_from_record(500, _record(ErrorCode.ACCOUNT_NOT_FOUND))
    assert type(err) is AccountNotFoundError
    assert err.status == 500


@pytest.mark.parametrize("record", [None, {}, {"message": None, "error_code": None}])
def test_missing_record_still_gives_a_useful_error(record: dict[str, object] | None) -> None:
    err = error_from_record(404, record)
    assert type(err) is NotFoundError
    assert err.status == 404
    assert err.error_code == "http_404"
    assert err.message == "HTTP 404"
    assert err.vm_error_code is None
    assert "404" in str(err)


def test_message_only_record() -> None:
    err = error_from_record(503, {"message": "node is syncing"})
    assert isinstance(err, ServerError)
    assert err.message == "node is syncing"
    assert err.error_code == "http_503"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (4016, 4016),
        ("4016", 4016),
        (2**64 - 1, 2**64 - 1),
        ("abc", None),
        ("", None),
        ([1], None),
        ({"code": 1}, None),
        (float("nan"), None),
        (float("inf"), None),
        ("9" * 5000, None),
    ],
)
def test_vm_error_code_is_read_or_dropped_never_a_crash(raw: object, expected: int | None) -> None:
    err = error_from_record(400, {"message": "no", "error_code": "vm_error", "vm_error_code": raw})
    assert isinstance(err, VMError)
    assert err.vm_error_code == expected
    assert err.error_code == "vm_error"


def test_vm_error_code_is_absent_when_not_sent() -> None:
    err = error_from_record(400, _record(ErrorCode.SEQUENCE_NUMBER_TOO_OLD))
    assert err.vm_error_code is None
    assert "vm_error_code" not in str(err)


def test_no_request_no_brackets() -> None:
    err = error_from_record(404, _record(ErrorCode.ACCOUNT_NOT_FOUND))
    assert str(err) == "404 account_not_found: the node says account_not_found"


# -- the other errors --------------------------------------------------------------------


def test_move_type_syntax_error_draws_a_caret_under_the_position() -> None:
    err = MoveTypeSyntaxError("expected '>'", text="vector<u8", position=9)
    lines = str(err).splitlines()
    assert lines == [
        "expected '>' at position 9:",
        "  vector<u8",
        "           ^",
    ]
    assert lines[2].index("^") == lines[1].index("u8") + 2


def test_move_type_syntax_error_pickles_and_copies() -> None:
    err = MoveTypeSyntaxError("bad", text="0x1::a::B<>", position=10)
    for back in (pickle.loads(pickle.dumps(err)), copy.copy(err), copy.deepcopy(err)):
        assert type(back) is MoveTypeSyntaxError
        assert back.text == "0x1::a::B<>"
        assert back.position == 10
        assert str(back) == str(err)


@pytest.mark.parametrize(
    "err",
    [
        BCSDecodeError("truncated u64", offset=12),
        BCSDecodeError("trailing bytes"),
        DecodingError("not JSON", status=200, snippet="<html>"),
        InvalidAddressError("empty address: ''"),
        RequestTimeoutError("read timed out"),
        IndexerError("the indexer refused the query: x", errors=("x",), url="https://h/g"),
    ],
    ids=repr,
)
def test_other_errors_pickle_keeping_class_message_and_fields(err: LedgerError) -> None:
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is type(err)
    assert str(back) == str(err)
    assert vars(back) == vars(err)


def test_bcs_decode_error_names_the_offset() -> None:
    assert str(BCSDecodeError("truncated u64", offset=12)) == "truncated u64 (at byte 12)"
    assert BCSDecodeError("x").offset is None


def test_decoding_error_shows_the_start_of_the_body() -> None:
    err = DecodingError("not JSON", status=502, snippet="<html>")
    assert err.status == 502
    assert "'<html>'" in str(err)


@pytest.mark.parametrize("body", [["a", "list"], "just text", 42])
def test_a_record_that_is_not_an_object_keeps_its_text(body: object) -> None:
    err = error_from_record(502, body)
    assert err.status == 502
    assert str(body)[:10] in err.message
