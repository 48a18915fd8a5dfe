"""One error tree for all of ledgerkit.

Every exception ledgerkit raises on purpose derives from :class:`LedgerError`, so a
notebook can catch the whole family with one ``except``. The tree::

    LedgerError
    ├── InputError (also ValueError)          bad input caught before anything is sent
    │   ├── InvalidAddressError
    │   ├── InvalidIntegerError               not a decimal, or out of the type's range
    │   ├── InvalidHexError
    │   ├── InvalidKeyError                   not a key of the expected form (a SigningError too)
    │   ├── MoveTypeSyntaxError               carries the text and the position of the fault
    │   ├── MoveValueError                    a JSON value that does not fit its Move type
    │   ├── UnknownStructError                a struct (or its module) no ABI at hand declares
    │   └── ArgumentError                     a call's argument that does not fit the function's ABI
    ├── BCSError
    │   ├── BCSEncodeError (also ValueError)
    │   └── BCSDecodeError                    truncated, non-canonical, out of range, trailing
    ├── SigningError                          keys and signatures
    ├── ClientClosedError                     a call on a closed client (a RuntimeError too)
    ├── LocalNodeError                        the embedded node cannot do it (a RuntimeError too)
    │   └── NodeStoppedError                  ... as it is not running: not started yet, or stopped
    ├── TransportError                        the request never got an HTTP answer
    │   ├── RequestTimeoutError
    │   └── SnapshotMissError                 replayed: the request is not in the snapshot
    ├── SnapshotError                         a snapshot file that cannot be read
    ├── DecodingError                         an answer came back that is not what was promised
    ├── MissingExtraError                     an extra is not installed (an ImportError too)
    ├── ExtractionError                       a bulk extraction cannot be done as asked
    │   ├── IncompleteExtractionError         versions / heights missing, listed as ranges
    │   ├── RangeBeyondLedgerError            the range ends past the head of the ledger
    │   ├── ChainMismatchError                the dataset on disk is of another chain
    │   └── DatasetMismatchError              the dataset on disk is of another kind or layout
    │       └── HistoryMismatchError          ... or of a history that parted from the node's
    ├── FaucetError                           the faucet answered with its error record
    │   ├── AuthTokenInvalidError             403 AuthTokenInvalid: no token, or one refused
    │   ├── FaucetRejectedError               the request was refused (reasons listed)
    │   │   └── FaucetRateLimitedError        429: the daily quota is spent (retry_after)
    │   └── FaucetUnavailableError            503: the funder cannot pay, or overloaded
    ├── DocsError                             the docs host could not give what was asked
    │   └── PageNotFoundError                 404
    ├── IndexerError                          the indexer's GraphQL API answered with errors
    └── NodeAPIError                          the node answered with its error record
        ├── NotFoundError                     404
        │   ├── AccountNotFoundError, ResourceNotFoundError, MoveModuleNotFoundError,
        │   ├── StructFieldNotFoundError, VersionNotFoundError, TransactionNotFoundError,
        │   └── TableItemNotFoundError, BlockNotFoundError, StateValueNotFoundError
        ├── PrunedError                       410: the oldest version still held, the archive
        │   ├── VersionPrunedError
        │   ├── BlockPrunedError
        │   └── PrunedRangeError              a list the node cut short, no archive to complete it
        ├── InvalidInputError                 400 invalid_input
        │   └── WebFrameworkError             the node's framework refused the request
        ├── TransactionRejectedError          the mempool said no
        │   ├── VMError                       vm_error, with vm_error_code
        │   ├── SequenceNumberTooOldError
        │   ├── InvalidTransactionUpdateError
        │   ├── RejectedByFilterError
        │   └── MempoolFullError              507
        ├── APIDisabledError                  403
        ├── BCSNotSupportedError
        ├── HealthCheckFailedError            503
        ├── RateLimitedError                  429
        └── ServerError                       internal_error, node_not_bootstrapped, other 5xx
            └── ServiceUnavailableError       503 with a code the spec does not list (overloaded)

:class:`ErrorCode` lists the node's ``error_code`` values with the HTTP status each is
answered with; the embedded node renders its errors from it and
:func:`error_from_record` maps a received record back to the right class.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from ledgerkit.types import LedgerMeta

__all__ = [
    "APIDisabledError",
    "AccountNotFoundError",
    "ArgumentError",
    "AuthTokenInvalidError",
    "BCSDecodeError",
    "BCSEncodeError",
    "BCSError",
    "BCSNotSupportedError",
    "BlockNotFoundError",
    "BlockPrunedError",
    "ChainMismatchError",
    "ClientClosedError",
    "DatasetMismatchError",
    "DecodingError",
    "DocsError",
    "ErrorCode",
    "ExtractionError",
    "FaucetError",
    "FaucetRateLimitedError",
    "FaucetRejectedError",
    "FaucetUnavailableError",
    "HealthCheckFailedError",
    "HistoryMismatchError",
    "IncompleteExtractionError",
    "IndexerError",
    "InputError",
    "InvalidAddressError",
    "InvalidHexError",
    "InvalidInputError",
    "InvalidIntegerError",
    "InvalidKeyError",
    "InvalidTransactionUpdateError",
    "LedgerError",
    "LocalNodeError",
    "MempoolFullError",
    "MoveModuleNotFoundError",
    "MoveTypeSyntaxError",
    "MoveValueError",
    "NodeAPIError",
    "NodeStoppedError",
    "NotFoundError",
    "PageNotFoundError",
    "PrunedError",
    "PrunedRangeError",
    "RangeBeyondLedgerError",
    "RateLimitedError",
    "RejectedByFilterError",
    "RequestTimeoutError",
    "ResourceNotFoundError",
    "SequenceNumberTooOldError",
    "ServerError",
    "ServiceUnavailableError",
    "SigningError",
    "SnapshotError",
    "SnapshotMissError",
    "StateValueNotFoundError",
    "StructFieldNotFoundError",
    "TableItemNotFoundError",
    "TransactionNotFoundError",
    "TransactionRejectedError",
    "TransportError",
    "UnknownStructError",
    "VMError",
    "VersionNotFoundError",
    "VersionPrunedError",
    "WebFrameworkError",
    "error_from_record",
]


class LedgerError(Exception):
    """Root of every error ledgerkit raises."""


# -- input ------------------------------------------------------------------------------


class InputError(LedgerError, ValueError):
    """A value given to ledgerkit is malformed; nothing was sent anywhere."""


class InvalidAddressError(InputError):
    """Not an account address: wrong length, not hex, or empty."""


class InvalidIntegerError(InputError):
    """Not an unsigned integer of the expected width (or not a decimal string)."""


class InvalidHexError(InputError):
    """Not a ``0x``-prefixed string of whole hex bytes."""


class MoveTypeSyntaxError(InputError):
    """A Move type, struct tag or function id that does not parse.

    Attributes
    ----------
    text : str
        The whole input.
    position : int
        Offset of the first character that could not be accepted.
    """

    def __init__(self, message: str, *, text: str, position: int) -> None:
        self.text = text
        self.position = position
        self._reason = message
        pointer = " " * position + "^"
        super().__init__(f"{message} at position {position}:\n  {text}\n  {pointer}")

    def __reduce__(self) -> tuple[Any, ...]:
        # The keyword-only arguments defeat Exception's default pickling (and copy).
        return (_rebuild_syntax_error, (type(self), self._reason, self.text, self.position))


def _rebuild_syntax_error(
    cls: type[MoveTypeSyntaxError], message: str, text: str, position: int
) -> MoveTypeSyntaxError:
    return cls(message, text=text, position=position)


class MoveValueError(InputError):
    """A Move value (in the API's JSON form) that does not fit its Move type."""


class UnknownStructError(InputError):
    """A struct whose fields are needed (to type an event's data) that no module ABI at
    hand declares: its module is not published (or not among the ABIs given), or the
    module declares no struct of that name.

    Attributes
    ----------
    struct : str
        The struct asked for, ``address::module::Name`` (type arguments included).
    module : str
        Its module, ``address::module``.
    module_found : bool
        Whether the module's ABI was found (then the struct is missing from it).
    """

    def __init__(self, message: str, *, struct: str, module: str, module_found: bool) -> None:
        super().__init__(message)
        self.struct = struct
        self.module = module
        self.module_found = module_found

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_unknown_struct, (str(self), self.struct, self.module, self.module_found))


def _rebuild_unknown_struct(
    message: str, struct: str, module: str, module_found: bool
) -> UnknownStructError:
    return UnknownStructError(message, struct=struct, module=module, module_found=module_found)


# -- BCS --------------------------------------------------------------------------------


class ArgumentError(InputError):
    """An argument (or type argument) that does not fit the called function's ABI.

    Raised before anything is sent. The message names the function, the argument, its
    parameter position in the ABI (signer parameters counted), the Move type expected
    and the value given (its ``repr``, truncated).

    Attributes
    ----------
    function : str or None
        The function called, ``address::module::name``.
    index : int or None
        The argument's index among the arguments given (``None`` for a wrong count).
    position : int or None
        The parameter's position in the function's ABI, signer parameters included.
    move_type : str or None
        The Move type expected there, type arguments substituted.
    value : str or None
        The ``repr`` of the value given, truncated.
    """

    def __init__(
        self,
        message: str,
        *,
        function: str | None = None,
        index: int | None = None,
        position: int | None = None,
        move_type: str | None = None,
        value: str | None = None,
    ) -> None:
        super().__init__(message)
        self.function = function
        self.index = index
        self.position = position
        self.move_type = move_type
        self.value = value

    def __reduce__(self) -> tuple[Any, ...]:
        details = (self.function, self.index, self.position, self.move_type, self.value)
        return (_rebuild_argument_error, (str(self), *details))


def _rebuild_argument_error(
    message: str,
    function: str | None,
    index: int | None,
    position: int | None,
    move_type: str | None,
    value: str | None,
) -> ArgumentError:
    return ArgumentError(
        message,
        function=function,
        index=index,
        position=position,
        move_type=move_type,
        value=value,
    )


class BCSError(LedgerError):
    """Base of BCS encoding and decoding errors."""


class BCSEncodeError(BCSError, ValueError):
    """A value cannot be encoded (out of range, wrong length, wrong kind)."""


class BCSDecodeError(BCSError):
    """Bytes that are not a canonical BCS encoding of the expected type.

    Attributes
    ----------
    offset : int or None
        Byte offset at which decoding failed, when known.
    """

    def __init__(self, message: str, *, offset: int | None = None) -> None:
        self.offset = offset
        suffix = f" (at byte {offset})" if offset is not None else ""
        super().__init__(message + suffix)


class SigningError(LedgerError):
    """A key or signature is malformed, or a signature does not verify."""


class InvalidKeyError(InputError, SigningError):
    """Text or bytes that are not a key of the expected scheme and form.

    The message names the forms taken and never quotes what was given: it may be a secret.
    """


# -- transport and decoding ---------------------------------------------------------------


class ClientClosedError(LedgerError, RuntimeError):
    """A call on a client after its ``close()`` (or ``aclose()``): nothing was sent.

    A closed client stays closed; make a new one (or use it in a ``with`` block that
    holds every call). Also a ``RuntimeError``, as the HTTP library reports a closed
    client.
    """


class LocalNodeError(LedgerError, RuntimeError):
    """The embedded node (:class:`~ledgerkit.LocalNode`) cannot do what was asked: it
    runs without the service asked of it, or it did not start.

    Also a ``RuntimeError``: what was asked does not fit the node's state or setup.
    """


class NodeStoppedError(LocalNodeError):
    """What was asked of the embedded node needs it running, and it is stopped: not
    started yet, or stopped since. ``start()`` it (or use it in a ``with`` block).

    Before its first start the node knows none of its URLs, its key or its dev accounts
    yet, and reading them raises this; once started they stay readable after ``stop()``
    (a restart serves at the same URLs). Its ``ledger`` needs the live server and raises
    this whenever the node is stopped.
    """


class TransportError(LedgerError):
    """The request got no HTTP answer (connection refused, reset, DNS, TLS...)."""


class RequestTimeoutError(TransportError):
    """The request timed out."""


class SnapshotMissError(TransportError):
    """A replaying client was asked a request its snapshot holds no answer to: nothing
    is sent anywhere. The message names the request (its method and URL as shown, the
    node's token hidden) and its ``Accept``.

    Attributes
    ----------
    method, url, accept : str
        The request, as the snapshot would have keyed it.
    """

    def __init__(self, method: str, url: str, accept: str) -> None:
        self.method = method
        self.url = url
        self.accept = accept
        super().__init__(
            f"{method} {url} (Accept: {accept}) is not in the snapshot being replayed; "
            "a snapshot answers only the requests it was recorded with"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.method, self.url, self.accept))


class SnapshotError(LedgerError):
    """A snapshot file cannot be read: not a snapshot, truncated, corrupt, of a newer
    format, or larger than allowed. The message names the file and the fault."""


class DecodingError(LedgerError):
    """The node answered, but not with what it promised (bad JSON, truncated BCS...).

    Attributes
    ----------
    status : int or None
        HTTP status of the answer.
    snippet : str
        The start of what came back, for the message.
    """

    def __init__(self, message: str, *, status: int | None = None, snippet: str = "") -> None:
        self.status = status
        self.snippet = snippet
        if snippet:
            message = f"{message}; the body began with {snippet!r}"
        super().__init__(message)


class MissingExtraError(LedgerError, ImportError):
    """An optional part of ledgerkit needs packages that are not installed; the message
    names the extra that brings them (``pip install 'ledgerkit[dask]'``)."""

    def __init__(self, part: str, extra: str, missing: str) -> None:
        super().__init__(
            f"{part} needs the {extra!r} extra ({missing} is not installed): "
            f"pip install 'ledgerkit[{extra}]'",
            name=missing,
        )
        self.extra = extra


# -- bulk extraction ----------------------------------------------------------------------


class ExtractionError(LedgerError):
    """A bulk extraction (``ledgerkit.extract``) cannot be completed as asked."""


def _format_ranges(ranges: tuple[tuple[int, int], ...], *, limit: int = 8) -> str:
    """``[(3, 5), (9, 10)]`` (half-open) as ``"3..4, 9"``; long lists end in ``...``."""
    shown = [f"{a}" if b - a == 1 else f"{a}..{b - 1}" for a, b in ranges[:limit]]
    more = len(ranges) - limit
    return ", ".join(shown) + (f", ... ({more} more ranges)" if more > 0 else "")


class IncompleteExtractionError(ExtractionError):
    """Some keys of the range never arrived (a gap the node left, or a stream that ended).

    Attributes
    ----------
    kind : str
        ``"transactions"`` (versions), ``"blocks"`` (heights) or ``"events"`` (sequence
        numbers).
    missing : tuple of (int, int)
        The missing keys as half-open ranges ``[first, stop)``, sorted and merged.
    """

    def __init__(self, kind: str, missing: tuple[tuple[int, int], ...]) -> None:
        self.kind = kind
        self.missing = missing
        count = sum(b - a for a, b in missing)
        super().__init__(f"{kind}: {count} missing: {_format_ranges(missing)}")

    @property
    def missing_count(self) -> int:
        """How many keys are missing."""
        return sum(b - a for a, b in self.missing)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.kind, self.missing))


class RangeBeyondLedgerError(ExtractionError):
    """The range asked for ends past the newest version (or block) the node holds.

    Attributes
    ----------
    stop : int
        The (exclusive) end asked for.
    available : int
        The (exclusive) end the node can serve now.
    """

    def __init__(self, kind: str, stop: int, available: int) -> None:
        self.kind = kind
        self.stop = stop
        self.available = available
        super().__init__(f"{kind}: stop={stop} is past the ledger, which ends before {available}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.kind, self.stop, self.available))


class ChainMismatchError(ExtractionError):
    """The dataset on disk was extracted from another chain (its chain id differs)."""


class DatasetMismatchError(ExtractionError):
    """The dataset on disk has another kind, stream, partition size or schema version, or
    (:class:`HistoryMismatchError`) another history."""


class HistoryMismatchError(DatasetMismatchError):
    """The dataset on disk is of a chain that parted from the node's after its genesis:
    the node shows another accumulator root at the version its manifest recorded (every
    embedded node started from one seed has the same genesis; so has a local network
    restarted from it)."""


# -- the faucet and the docs host ---------------------------------------------------------


class FaucetError(LedgerError):
    """The faucet answered with its error record (or an error it could not word as one).

    Attributes
    ----------
    status : int
        HTTP status.
    error_code : str
        The record's ``error_code`` (``AuthTokenInvalid``, ``Rejected``, ...), kept as sent.
    message : str
        The faucet's own message.
    rejection_reasons : tuple of (str, str)
        ``(reason, code)`` pairs the faucet listed.
    request : str or None
        ``METHOD url`` of the request (never its token), for the message.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int,
        error_code: str,
        rejection_reasons: tuple[tuple[str, str], ...] = (),
        request: str | None = None,
    ) -> None:
        self.message = message
        self.status = status
        self.error_code = error_code
        self.rejection_reasons = rejection_reasons
        self.request = request
        reasons = "; ".join(f"{code}: {reason}" for reason, code in rejection_reasons)
        where = f" [{request}]" if request else ""
        extra = f" ({reasons})" if reasons else ""
        super().__init__(f"{status} {error_code}: {message}{extra}{where}")

    def __reduce__(self) -> tuple[Any, ...]:
        state = (self.message, self.status, self.error_code, self.rejection_reasons, self.request)
        return (_rebuild_faucet_error, (type(self), *state), self.__dict__)


def _rebuild_faucet_error(
    cls: type[FaucetError],
    message: str,
    status: int,
    error_code: str,
    rejection_reasons: tuple[tuple[str, str], ...],
    request: str | None,
) -> FaucetError:
    return cls(
        message,
        status=status,
        error_code=error_code,
        rejection_reasons=rejection_reasons,
        request=request,
    )


class AuthTokenInvalidError(FaucetError):
    """403 ``AuthTokenInvalid``: the request carried no ID token, or one the faucet refused
    (bad signature, wrong issuer or audience, expired, email not verified...)."""


class FaucetRejectedError(FaucetError):
    """The faucet refused the request; ``rejection_reasons`` say why."""


class FaucetRateLimitedError(FaucetRejectedError):
    """429: the user's daily quota is spent.

    Attributes
    ----------
    retry_after : float or None
        Seconds until the quota is renewed (the ``Retry-After`` header).
    """

    retry_after: float | None = None


class FaucetUnavailableError(FaucetError):
    """503: the funding account cannot pay, or the faucet is overloaded or down."""


class DocsError(LedgerError):
    """The docs host could not give what was asked.

    Attributes
    ----------
    status : int
        HTTP status (0 when no answer came).
    url : str
        What was asked.
    """

    def __init__(self, message: str, *, status: int, url: str) -> None:
        self.message = message
        self.status = status
        self.url = url
        super().__init__(f"{status} {message} [{url}]" if status else f"{message} [{url}]")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_docs_error, (type(self), self.message, self.status, self.url))


def _rebuild_docs_error(cls: type[DocsError], message: str, status: int, url: str) -> DocsError:
    return cls(message, status=status, url=url)


class PageNotFoundError(DocsError):
    """404: the docs host has no such page or document."""


class IndexerError(LedgerError):
    """The indexer's GraphQL API answered with ``errors`` (a query it refused, or one that
    failed as it ran), or with a body that is not a GraphQL answer.

    Attributes
    ----------
    errors : tuple of str
        The ``message`` of each GraphQL error, in order (empty for a body that is not a
        GraphQL answer).
    url : str
        The indexer asked, as logs write it.
    """

    def __init__(self, message: str, *, errors: tuple[str, ...] = (), url: str = "") -> None:
        self.message = message
        self.errors = tuple(errors)
        self.url = url
        super().__init__(f"{message} [{url}]" if url else message)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_indexer_error, (type(self), self.message, self.errors, self.url))


def _rebuild_indexer_error(
    cls: type[IndexerError], message: str, errors: tuple[str, ...], url: str
) -> IndexerError:
    return cls(message, errors=errors, url=url)


# -- node errors --------------------------------------------------------------------------


class ErrorCode(enum.StrEnum):
    """The node's ``error_code`` values, each with the HTTP status it is answered with."""

    ACCOUNT_NOT_FOUND = "account_not_found"
    RESOURCE_NOT_FOUND = "resource_not_found"
    MODULE_NOT_FOUND = "module_not_found"
    STRUCT_FIELD_NOT_FOUND = "struct_field_not_found"
    VERSION_NOT_FOUND = "version_not_found"
    TRANSACTION_NOT_FOUND = "transaction_not_found"
    TABLE_ITEM_NOT_FOUND = "table_item_not_found"
    BLOCK_NOT_FOUND = "block_not_found"
    STATE_VALUE_NOT_FOUND = "state_value_not_found"
    VERSION_PRUNED = "version_pruned"
    BLOCK_PRUNED = "block_pruned"
    INVALID_INPUT = "invalid_input"
    INVALID_TRANSACTION_UPDATE = "invalid_transaction_update"
    SEQUENCE_NUMBER_TOO_OLD = "sequence_number_too_old"
    VM_ERROR = "vm_error"
    REJECTED_BY_FILTER = "rejected_by_filter"
    HEALTH_CHECK_FAILED = "health_check_failed"
    MEMPOOL_IS_FULL = "mempool_is_full"
    INTERNAL_ERROR = "internal_error"
    WEB_FRAMEWORK_ERROR = "web_framework_error"
    BCS_NOT_SUPPORTED = "bcs_not_supported"
    API_DISABLED = "api_disabled"
    # Sent by public nodes of this family; not in our spec's list.
    RATE_LIMITED = "rate_limited"
    NODE_NOT_BOOTSTRAPPED = "node_not_bootstrapped"

    @property
    def status(self) -> int:
        """The HTTP status this code is answered with."""
        return _STATUS[self]

    @property
    def error_class(self) -> type[NodeAPIError]:
        """The exception class a received record with this code becomes."""
        return _CLASS[self]


class NodeAPIError(LedgerError):
    """The node answered with its error record.

    Attributes
    ----------
    status : int
        HTTP status.
    error_code : str
        The record's ``error_code`` (kept as sent, even when it is not one we know).
    vm_error_code : int or None
        The VM's status code, when the VM rejected a transaction.
    message : str
        The node's own message.
    ledger : LedgerMeta or None
        Ledger position from the response headers.
    request : str or None
        ``METHOD url`` of the request, for the message.
    details : dict
        The record's other fields, as sent: what gateways add to the node's record
        (``hint``, ``oldest_ledger_version``, ``archival_endpoint``...), strings, numbers
        and booleans only.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int,
        error_code: str,
        vm_error_code: int | None = None,
        ledger: LedgerMeta | None = None,
        request: str | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        self.message = message
        self.status = status
        self.error_code = error_code
        self.vm_error_code = vm_error_code
        self.ledger = ledger
        self.request = request
        self.details: dict[str, Any] = dict(details or {})
        where = f" [{request}]" if request else ""
        vm = f" (vm_error_code {vm_error_code})" if vm_error_code is not None else ""
        super().__init__(f"{status} {error_code}: {message}{vm}{where}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _rebuild_node_error,
            (
                type(self),
                self.message,
                self.status,
                self.error_code,
                self.vm_error_code,
                self.ledger,
                self.request,
                self.details,
            ),
        )


def _rebuild_node_error(
    cls: type[NodeAPIError],
    message: str,
    status: int,
    error_code: str,
    vm_error_code: int | None,
    ledger: LedgerMeta | None,
    request: str | None,
    details: Mapping[str, Any] | None = None,
) -> NodeAPIError:
    return cls(
        message,
        status=status,
        error_code=error_code,
        vm_error_code=vm_error_code,
        ledger=ledger,
        request=request,
        details=details,
    )


class NotFoundError(NodeAPIError):
    """404: the thing asked for does not exist (at that version)."""


class AccountNotFoundError(NotFoundError):
    """No account at that address (at that version)."""


class ResourceNotFoundError(NotFoundError):
    """The account holds no resource of that type."""


class MoveModuleNotFoundError(NotFoundError):
    """The account publishes no module of that name."""


class StructFieldNotFoundError(NotFoundError):
    """The struct has no field of that name (event handle lookups)."""


class VersionNotFoundError(NotFoundError):
    """The ledger version asked for is newer than the ledger."""


class TransactionNotFoundError(NotFoundError):
    """No transaction at that version or with that hash."""


class TableItemNotFoundError(NotFoundError):
    """The table holds no item under that key."""


class BlockNotFoundError(NotFoundError):
    """No block at that height or version."""


class StateValueNotFoundError(NotFoundError):
    """No state value under that key."""


class PrunedError(NodeAPIError):
    """410: the node no longer holds that version, block or range.

    ``oldest_version`` and ``oldest_block_height`` say what it still holds (from the
    response headers, else the record's ``oldest_ledger_version``), so a caller can retry
    from there; ``archival_endpoint`` and ``hint`` are what a public gateway adds: where
    an archive node with the full history answers, and a sentence for people.
    """

    @property
    def oldest_version(self) -> int | None:
        if self.ledger is not None:
            return self.ledger.oldest_ledger_version
        raw = self.details.get("oldest_ledger_version")
        text = str(raw) if isinstance(raw, str | int) and not isinstance(raw, bool) else ""
        return int(text) if text.isascii() and text.isdigit() and len(text) <= 20 else None

    @property
    def archival_endpoint(self) -> str | None:
        """The archive's API root the gateway names, as sent (``None`` without one)."""
        value = self.details.get("archival_endpoint")
        return value if isinstance(value, str) and value else None

    @property
    def hint(self) -> str | None:
        value = self.details.get("hint")
        return value if isinstance(value, str) and value else None

    @property
    def oldest_block_height(self) -> int | None:
        return self.ledger.oldest_block_height if self.ledger is not None else None


class VersionPrunedError(PrunedError):
    """The ledger version (or version range) is older than the pruning window."""


class BlockPrunedError(PrunedError):
    """The block is older than the pruning window."""


class PrunedRangeError(PrunedError):
    """A list the node cut short at its pruning window, and no archive to complete it.

    A pruned node answers an account's transactions asked from a sequence number it no
    longer holds with 200 and only the ones it keeps (aptos-core does so on purpose), so
    the client finds the gap itself (the first sequence number is past the one asked) and
    asks the archive; without one it raises this. ``status`` is the node's own answer (a
    200); ``missing`` is the range of sequence numbers left out (end exclusive), also in
    ``details`` as ``missing_start`` / ``missing_end``. For an account's transaction
    summaries, a list by version, ``missing`` is the versions older than the node keeps
    that the page reached (``details["missing_unit"]`` says which: ``"sequence_number"``
    or ``"version"``).
    """

    @property
    def missing(self) -> range:
        """The sequence numbers (or versions) the node left out (end exclusive)."""
        start, end = self.details.get("missing_start"), self.details.get("missing_end")
        if isinstance(start, int) and isinstance(end, int):
            return range(start, end)
        return range(0)


class InvalidInputError(NodeAPIError):
    """400: the node refused the request's parameters or body."""


class WebFrameworkError(InvalidInputError):
    """The node's web framework refused the request before it reached the handler."""


class TransactionRejectedError(NodeAPIError):
    """A submitted transaction was not accepted into the mempool."""


class VMError(TransactionRejectedError):
    """The VM refused the transaction; ``vm_error_code`` says why."""


class SequenceNumberTooOldError(TransactionRejectedError):
    """The sequence number was already used."""


class InvalidTransactionUpdateError(TransactionRejectedError):
    """Same sender and sequence number as a pending transaction, different content."""


class RejectedByFilterError(TransactionRejectedError):
    """The node's transaction filter refused it."""


class MempoolFullError(TransactionRejectedError):
    """507: the mempool (or the sender's share of it) is full; try later."""


class APIDisabledError(NodeAPIError):
    """403: that endpoint or output format is switched off on this node."""


class BCSNotSupportedError(NodeAPIError):
    """The endpoint does not answer in BCS."""


class HealthCheckFailedError(NodeAPIError):
    """503: the node is behind by more than the allowed time."""


class RateLimitedError(NodeAPIError):
    """429: too many requests."""


class ServerError(NodeAPIError):
    """5xx: the node failed to answer the request."""


class ServiceUnavailableError(ServerError):
    """503 with a code the spec does not list (``overloaded``: a node under memory
    pressure, say): not now rather than no; idempotent requests are retried."""


_E = ErrorCode
_TABLE: dict[ErrorCode, tuple[int, type[NodeAPIError]]] = {
    _E.ACCOUNT_NOT_FOUND: (404, AccountNotFoundError),
    _E.RESOURCE_NOT_FOUND: (404, ResourceNotFoundError),
    _E.MODULE_NOT_FOUND: (404, MoveModuleNotFoundError),
    _E.STRUCT_FIELD_NOT_FOUND: (404, StructFieldNotFoundError),
    _E.VERSION_NOT_FOUND: (404, VersionNotFoundError),
    _E.TRANSACTION_NOT_FOUND: (404, TransactionNotFoundError),
    _E.TABLE_ITEM_NOT_FOUND: (404, TableItemNotFoundError),
    _E.BLOCK_NOT_FOUND: (404, BlockNotFoundError),
    _E.STATE_VALUE_NOT_FOUND: (404, StateValueNotFoundError),
    _E.VERSION_PRUNED: (410, VersionPrunedError),
    _E.BLOCK_PRUNED: (410, BlockPrunedError),
    _E.INVALID_INPUT: (400, InvalidInputError),
    _E.INVALID_TRANSACTION_UPDATE: (400, InvalidTransactionUpdateError),
    _E.SEQUENCE_NUMBER_TOO_OLD: (400, SequenceNumberTooOldError),
    _E.VM_ERROR: (400, VMError),
    _E.REJECTED_BY_FILTER: (403, RejectedByFilterError),
    _E.HEALTH_CHECK_FAILED: (503, HealthCheckFailedError),
    _E.MEMPOOL_IS_FULL: (507, MempoolFullError),
    _E.INTERNAL_ERROR: (500, ServerError),
    _E.WEB_FRAMEWORK_ERROR: (400, WebFrameworkError),
    _E.BCS_NOT_SUPPORTED: (400, BCSNotSupportedError),
    _E.API_DISABLED: (403, APIDisabledError),
    _E.RATE_LIMITED: (429, RateLimitedError),
    _E.NODE_NOT_BOOTSTRAPPED: (503, ServerError),
}
_STATUS = {code: status for code, (status, _) in _TABLE.items()}
_CLASS = {code: cls for code, (_, cls) in _TABLE.items()}

_BY_STATUS: dict[int, type[NodeAPIError]] = {
    400: InvalidInputError,
    403: APIDisabledError,
    404: NotFoundError,
    410: PrunedError,
    429: RateLimitedError,
    503: ServiceUnavailableError,
    507: MempoolFullError,
}

#: The fields of the node's error record; the others are kept in ``details``.
_RECORD_FIELDS: Final = frozenset({"message", "error_code", "vm_error_code"})
#: Extra fields kept at most, and characters of each.
_MAX_DETAILS: Final = 16
_MAX_DETAIL_CHARS: Final = 2_000


def error_from_record(
    status: int,
    record: Mapping[str, Any] | object | None,
    *,
    ledger: LedgerMeta | None = None,
    request: str | None = None,
) -> NodeAPIError:
    """Turn an HTTP status and the node's error record into the matching exception.

    An unknown ``error_code`` keeps its text and falls back to a class chosen by status,
    so nothing the node said is lost.

    Examples
    --------
    >>> err = error_from_record(404, {"message": "no", "error_code": "account_not_found"})
    >>> type(err).__name__, err.status
    ('AccountNotFoundError', 404)
    """
    if not isinstance(record, Mapping):
        # A body that is JSON but not an object: keep it as the message.
        record = {"message": str(record)[:500]} if record is not None else {}
    code_text = str(record.get("error_code") or "")
    message = str(record.get("message") or f"HTTP {status}")
    vm_raw = record.get("vm_error_code")
    vm_error_code: int | None
    try:
        vm_error_code = int(vm_raw) if vm_raw is not None else None
    except (TypeError, ValueError, OverflowError):  # json.loads lets Infinity through
        vm_error_code = None
    try:
        cls = ErrorCode(code_text).error_class
    except ValueError:
        cls = _BY_STATUS.get(status, ServerError if status >= 500 else NodeAPIError)
    details = {
        str(key)[:100]: value[:_MAX_DETAIL_CHARS] if isinstance(value, str) else value
        for key, value in list(record.items())[: _MAX_DETAILS + len(_RECORD_FIELDS)]
        if key not in _RECORD_FIELDS and isinstance(value, str | int | float | bool)
    }
    return cls(
        message,
        status=status,
        error_code=code_text or f"http_{status}",
        vm_error_code=vm_error_code,
        ledger=ledger,
        request=request,
        details=dict(list(details.items())[:_MAX_DETAILS]),
    )
