"""The one table of the HTTP operations ledgerkit speaks: every endpoint, once.

Each :class:`Operation` row says what a request looks like (method, path template,
parameters, body) and what the answer is (media types, schema, statuses, headers), and
which :class:`Service` serves it. Everything else is derived from these rows: the local
node's routes and its OpenAPI document (``ledgerkit.localnet.app``) and the client's
request builders (``ledgerkit.client.calls``). ``tests/test_endpoints.py`` holds the
three to the table.

Schemas are named by *type tokens*, the small notation of the node's OpenAPI schemas:
``[T]`` an array of ``T``; ``bool str obj u8 u16 u32 u64`` JSON primitives; any other name
a component schema (``U64`` is the decimal string). Parameters add a few tokens of their
own: ``address``, ``hash``, ``asset``, ``cursor``, ``limit`` and ``flag``.

Plain data on the ground floor: it imports nothing of ledgerkit, so every layer may read
it and ``import ledgerkit`` stays light.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, NamedTuple

__all__ = [
    "BCS",
    "HTML",
    "JSON",
    "MARKDOWN",
    "MAX_BATCH_TRANSACTIONS",
    "OPERATIONS",
    "PARAMETERS",
    "SERVICES",
    "SIGNED_TXN_BCS",
    "TEXT",
    "VIEW_BCS",
    "Media",
    "Operation",
    "Param",
    "Service",
    "operations_of",
]

JSON: Final = "application/json"
BCS: Final = "application/x-bcs"
TEXT: Final = "text/plain"
HTML: Final = "text/html"
MARKDOWN: Final = "text/markdown"
SIGNED_TXN_BCS: Final = "application/x.aptos.signed_transaction+bcs"
VIEW_BCS: Final = "application/x.aptos.view_function+bcs"

#: Most signed transactions one batch submission may hold.
MAX_BATCH_TRANSACTIONS: Final = 10


class Service(NamedTuple):
    """One HTTP service: where its operations live and how it reports a failure.

    Attributes
    ----------
    name : str
        The key operations name it by (``Operation.service``).
    base_path : str
        Path prefix of its operations on its host (the base URL a client is given ends
        with it).
    error_schema : str
        Type token of the body of every failure.
    errors : mapping of int to (str, str)
        Per documented error status: a component name and what the status means here.
    error_media : str
        Media type of a failure's body.
    """

    name: str
    base_path: str
    error_schema: str
    errors: Mapping[int, tuple[str, str]]
    error_media: str = JSON


class Param(NamedTuple):
    """A path or query parameter.

    Attributes
    ----------
    name : str
        As sent on the wire.
    where : {"path", "query"}
        Path parameters are always required.
    type : str
        Type token of its value.
    required : bool
        Whether a request must carry it.
    description : str
        One line for the API document.
    """

    name: str
    where: str
    type: str
    required: bool
    description: str


class Media(NamedTuple):
    """A BCS body offered besides JSON: its media type and what the bytes hold."""

    type: str
    description: str


class Operation(NamedTuple):
    """One operation of a service (one method on one path).

    Attributes
    ----------
    id : str
        Unique operation id (the OpenAPI ``operationId``).
    method : str
        HTTP method, upper case.
    path : str
        Path template under the service's base path, ``{name}`` for a path parameter.
    tag : str
        The group it is documented under.
    summary : str
        One line.
    params : tuple of str
        Keys of :data:`PARAMETERS`, in the order documented.
    answer : str
        Type token of the answer in ``media``; ``""`` when there is no such answer.
    errors : tuple of int
        Documented error statuses.
    answer_bcs : str
        What a BCS answer (``application/x-bcs``) holds; ``""`` when BCS is not offered.
    body : str
        Type token of a JSON request body; ``""`` when the request has none.
    body_bcs : Media or None
        The BCS request body accepted besides JSON.
    max_items : int
        Most items of an array body; 0 for no bound.
    success : tuple of (int, str)
        Success statuses and what each means (``""``: the summary).
    headers : tuple of str
        Answer headers besides the service's usual ones: ``GasUsed``, ``Cursor``,
        ``TxnEncryptionKey``.
    service : str
        Key of :data:`SERVICES`.
    media : tuple of str
        Media types ``answer`` comes in (JSON unless the row says otherwise: the faucet's
        health is plain text, a docs page HTML or Markdown).
    """

    id: str
    method: str
    path: str
    tag: str
    summary: str
    params: tuple[str, ...]
    answer: str
    errors: tuple[int, ...]
    answer_bcs: str = ""
    body: str = ""
    body_bcs: Media | None = None
    max_items: int = 0
    success: tuple[tuple[int, str], ...] = ((200, ""),)
    headers: tuple[str, ...] = ()
    service: str = "node"
    media: tuple[str, ...] = (JSON,)

    @property
    def answer_types(self) -> tuple[str, ...]:
        """Media types the answer comes in."""
        return self.media * bool(self.answer) + (BCS,) * bool(self.answer_bcs)

    @property
    def body_types(self) -> tuple[str, ...]:
        """Media types a request body may come in; none without a body."""
        bcs = () if self.body_bcs is None else (self.body_bcs.type,)
        return (JSON,) * bool(self.body) + bcs

    @property
    def path_params(self) -> tuple[str, ...]:
        """Names of the path parameters, in template order."""
        return tuple(part[1:-1] for part in self.path.split("/") if part.startswith("{"))

    def url_path(self, **segments: object) -> str:
        """The path with each ``{name}`` replaced by ``segments[name]``.

        The values must already be checked and percent-encoded; every placeholder needs
        one, and no other may be given.

        Examples
        --------
        >>> OPERATIONS["get_account_module"].url_path(address="0x1", module_name="coin")
        '/accounts/0x1/module/coin'
        """
        names = self.path_params
        if set(segments) != set(names):
            raise KeyError(f"{self.id} takes path segments {names}, got {tuple(segments)}")
        return "/".join(
            str(segments[part[1:-1]]) if part.startswith("{") else part
            for part in self.path.split("/")
        )


# -- services -------------------------------------------------------------------------------

_NODE_ERRORS: Final = {
    400: (
        "BadRequest",
        "Invalid input: `invalid_input`, `web_framework_error` (a parameter or body that does "
        "not parse), `bcs_not_supported`, or a refused submission (`vm_error`, "
        "`sequence_number_too_old`, `invalid_transaction_update`).",
    ),
    403: (
        "Forbidden",
        "`api_disabled`: this endpoint or output format is switched off on this node; "
        "`rejected_by_filter` for a filtered submission.",
    ),
    404: (
        "NotFound",
        "Not found: `account_not_found`, `resource_not_found`, `module_not_found`, "
        "`struct_field_not_found`, `table_item_not_found`, `transaction_not_found`, "
        "`block_not_found`, `state_value_not_found`, or `version_not_found` (past the latest).",
    ),
    410: ("Gone", "`version_pruned` or `block_pruned`: older than the node keeps."),
    413: ("PayloadTooLarge", "`web_framework_error`: the body is larger than the node takes."),
    500: ("InternalError", "`internal_error`: the node failed; its log says why."),
    503: ("ServiceUnavailable", "`health_check_failed`: the ledger is further behind than asked."),
    507: ("InsufficientStorage", "`mempool_is_full`: the mempool takes no more transactions."),
}

_FAUCET_ERRORS: Final = {
    400: (
        "FaucetBadRequest",
        "`InvalidRequest` (a body or address that does not parse), "
        "`AccountDoesNotExist`, `EndpointNotEnabled` (`/mint` on a token faucet).",
    ),
    403: (
        "FaucetForbidden",
        "`AuthTokenInvalid` (no, or a refused, ID token), `Rejected`, `TransactionFailed`.",
    ),
    429: (
        "FaucetRateLimited",
        "`Rejected` with reason `UsageLimitExhausted`: the user's "
        "daily quota is spent; `Retry-After` says when the next UTC day starts.",
    ),
    500: ("FaucetInternalError", "The faucet failed; its log says why."),
    503: (
        "FaucetUnavailable",
        "`FunderAccountProblem`: the funding account cannot pay; `ServerOverloaded`.",
    ),
}
_IDENTITY_ERRORS: Final = {
    400: ("OAuthBadRequest", "`invalid_request`: a sign-in that does not parse."),
    404: ("OAuthNotFound", "`invalid_request`: no such issuer."),
}
_DOCS_ERRORS: Final = {404: ("DocsNotFound", "`Not found`: no such page or document.")}

#: Every service, by name. The node API's failures are its error record
#: (``message``, ``error_code``, ``vm_error_code``); the faucet's are its own record
#: (``message``, ``error_code``, ``rejection_reasons``, ``txn_hashes``); the identity
#: provider answers as OAuth servers do (``error``, ``error_description``); the docs host
#: answers a plain-text ``Not found``.
SERVICES: Final = {
    "node": Service("node", "/v1", "Error", _NODE_ERRORS),
    "faucet": Service("faucet", "", "FaucetError", _FAUCET_ERRORS),
    "identity": Service("identity", "", "OAuthError", _IDENTITY_ERRORS),
    "docs": Service("docs", "", "str", _DOCS_ERRORS, error_media=TEXT),
}


# -- parameters -----------------------------------------------------------------------------


def _path(name: str, token: str, text: str) -> Param:
    return Param(name, "path", token, True, text)


def _query(name: str, token: str, text: str, *, required: bool = False) -> Param:
    return Param(name, "query", token, required, text)


#: Every parameter, by a key unique across the table (two may share a wire name).
PARAMETERS: Final = {
    "address": _path("address", "address", "Account address, `0x` optional."),
    "ledger_version": _query(
        "ledger_version",
        "U64",
        "Answer as of this version (default: latest); past the latest 404, pruned 410.",
    ),
    "limit": _query("limit", "limit", "Page size; 0 is refused, above the maximum is cut."),
    "start_cursor": _query("start", "cursor", "Cursor from `X-NODE-CURSOR`; omit at first."),
    "start_sequence_number": _query("start", "U64", "First sequence number (default: latest)."),
    "start_version": _query("start", "U64", "First version (default: the latest page)."),
    "start_version_required": _query("start_version", "U64", "First version.", required=True),
    "summaries_start_version": _query(
        "start_version", "U64", "First version; read forward from it (`end_version` unused)."
    ),
    "summaries_end_version": _query(
        "end_version", "U64", "Without `start_version`: the page ends at this version."
    ),
    "txn_hash": _path("txn_hash", "hash", "Transaction hash, `0x` optional."),
    "txn_version": _path("txn_version", "U64", "Ledger version."),
    "resource_type": _path("resource_type", "MoveStructTag", "Resource type, URL-encoded."),
    "module_name": _path("module_name", "Identifier", "Module name."),
    "asset_type": _path(
        "asset_type",
        "asset",
        "Coin struct tag, or the address of a fungible asset's metadata (URL-encoded). "
        "Only the primary store is read.",
    ),
    "creation_number": _path("creation_number", "U64", "The stream's creation number."),
    "event_handle": _path("event_handle", "MoveStructTag", "Struct holding the handle."),
    "field_name": _path("field_name", "Identifier", "Name of the event handle field."),
    "table_handle": _path("table_handle", "address", "Table handle, `0x` optional."),
    "block_height": _path("block_height", "u64", "Block height, from 0."),
    "block_version": _path("version", "u64", "A ledger version inside the block."),
    "with_transactions": _query("with_transactions", "flag", "Include up to a page of them."),
    "duration_secs": _query(
        "duration_secs",
        "u32",
        "Fail with 503 if the latest ledger timestamp is older than this many seconds.",
    ),
    "estimate_max_gas_amount": _query(
        "estimate_max_gas_amount", "flag", "Use the most gas the sender can pay for."
    ),
    "estimate_gas_unit_price": _query(
        "estimate_gas_unit_price", "flag", "Use the estimated gas unit price."
    ),
    "estimate_prioritized_gas_unit_price": _query(
        "estimate_prioritized_gas_unit_price",
        "flag",
        "Use the prioritized estimate; wins over `estimate_gas_unit_price`.",
    ),
    # -- the faucet
    "asset": _query("asset", "str", "The asset to fund with (the faucet's default when omitted)."),
    "mint_address": _query("address", "address", "Account to fund, `0x` optional."),
    "mint_auth_key": _query("auth_key", "hash", "Authentication key of the account to fund."),
    "mint_pub_key": _query("pub_key", "hash", "Ed25519 public key of the account to fund."),
    "mint_amount": _query("amount", "u64", "Octas; the faucet's maximum when omitted."),
    "return_txns": _query("return_txns", "flag", "Answer the signed transactions, hex BCS."),
    # -- the identity provider
    "issuer": _path("issuer", "str", "Which issuer: `project` or `accounts`."),
    # -- the docs host
    "page": _path("page", "pagepath", "A page path; `.md` asks for the Markdown source."),
}


# -- operations -----------------------------------------------------------------------------

_READ: Final = (400, 403, 404, 410, 500)
_TABLE: Final = (400, 403, 404, 410, 413, 500)
_PAGE: Final = ("start_cursor", "limit")
_SIMULATE_FLAGS: Final = (
    "estimate_max_gas_amount",
    "estimate_gas_unit_price",
    "estimate_prioritized_gas_unit_price",
)
_SIGNED: Final = Media(SIGNED_TXN_BCS, "BCS of a signed transaction.")
_TXN_DATA: Final = (
    "BCS `TransactionData`: `OnChain` (version, transaction, info, events, accumulator root "
    "hash, write set) or `Pending` (the signed transaction)."
)
_ONCHAIN_LIST: Final = "BCS sequence of `TransactionOnChainData`, one per committed transaction."

_ROWS: Final = (
    # -- General
    Operation("get_ledger_info", "GET", "/", "General", "Ledger information", (),
              "IndexResponse", (400, 403, 500)),
    Operation("healthy", "GET", "/-/healthy", "General", "Check node health",
              ("duration_secs",), "HealthCheckSuccess", (400, 500, 503)),
    Operation("get_openapi_document", "GET", "/spec.json", "General",
              "This OpenAPI document", (), "obj", (500,)),
    Operation("info", "GET", "/info", "General",
              "Show some basic info of the node: how it syncs, stores and indexes", (),
              "obj", (500,)),
    # -- Accounts
    Operation("get_account", "GET", "/accounts/{address}", "Accounts", "Get an account",
              ("address", "ledger_version"), "Account", _READ),
    Operation("get_account_resources", "GET", "/accounts/{address}/resources", "Accounts",
              "List an account's resources", ("address", "ledger_version", *_PAGE),
              "[MoveResource]", _READ, answer_bcs="BCS map of struct tag to resource bytes.",
              headers=("Cursor",)),
    Operation("get_account_resource", "GET", "/accounts/{address}/resource/{resource_type}",
              "Accounts", "Get one resource of an account",
              ("address", "resource_type", "ledger_version"), "MoveResource", _READ,
              answer_bcs="The resource's BCS bytes."),
    Operation("get_account_modules", "GET", "/accounts/{address}/modules", "Accounts",
              "List an account's modules", ("address", "ledger_version", *_PAGE),
              "[MoveModuleBytecode]", _READ, answer_bcs="BCS sequence of module bytecodes.",
              headers=("Cursor",)),
    Operation("get_account_module", "GET", "/accounts/{address}/module/{module_name}",
              "Accounts", "Get one module of an account",
              ("address", "module_name", "ledger_version"), "MoveModuleBytecode", _READ,
              answer_bcs="The module's bytecode."),
    Operation("get_account_balance", "GET", "/accounts/{address}/balance/{asset_type}",
              "Accounts", "Get an account's balance of one asset (a bare JSON integer)",
              ("address", "asset_type", "ledger_version"), "u64", _READ,
              answer_bcs="The balance as a BCS u64."),
    Operation("get_account_transactions", "GET", "/accounts/{address}/transactions",
              "Accounts", "List the transactions an account sent",
              ("address", "start_sequence_number", "limit"), "[Transaction]", _READ,
              answer_bcs=_ONCHAIN_LIST),
    Operation("get_account_transaction_summaries", "GET",
              "/accounts/{address}/transaction_summaries", "Transactions",
              "Summaries of the transactions an account sent (sequence number or nonce), "
              "ascending by version; without `start_version` the newest ones",
              ("address", "summaries_start_version", "summaries_end_version", "limit"),
              "[TransactionSummary]", _READ,
              answer_bcs="BCS sequence of `IndexedTransactionSummary` (`V1`: sender, version, "
                         "transaction hash, replay protector)."),
    # -- Events
    Operation("get_events_by_creation_number", "GET",
              "/accounts/{address}/events/{creation_number}", "Events",
              "Events of a stream, by creation number",
              ("address", "creation_number", "start_sequence_number", "limit"),
              "[VersionedEvent]", _READ),
    Operation("get_events_by_event_handle", "GET",
              "/accounts/{address}/events/{event_handle}/{field_name}", "Events",
              "Events of a stream, by handle field",
              ("address", "event_handle", "field_name", "start_sequence_number", "limit"),
              "[VersionedEvent]", _READ),
    # -- Transactions
    Operation("get_transactions", "GET", "/transactions", "Transactions", "List transactions",
              ("start_version", "limit"), "[Transaction]", (400, 403, 410, 500),
              answer_bcs=_ONCHAIN_LIST),
    Operation("submit_transaction", "POST", "/transactions", "Transactions",
              "Submit a signed transaction", (), "PendingTransaction",
              (400, 403, 413, 500, 507),
              answer_bcs="Empty: with BCS the client computes the transaction hash itself.",
              body="SubmitTransactionRequest", body_bcs=_SIGNED,
              success=((202, "Submit a signed transaction."),)),
    Operation("submit_batch_transactions", "POST", "/transactions/batch", "Transactions",
              "Submit up to 10 signed transactions, each admitted as a single submission "
              "would be", (), "TransactionsBatchSubmissionResult", (400, 403, 413, 500, 507),
              body="[SubmitTransactionRequest]",
              body_bcs=Media(SIGNED_TXN_BCS, "BCS sequence of signed transactions."),
              max_items=MAX_BATCH_TRANSACTIONS,
              success=(
                  (202, "Every transaction was accepted; `transaction_failures` is empty."),
                  (206, "Some or all were refused: `transaction_failures` lists each refused "
                        "one's error record and position in the batch."),
              )),
    Operation("get_transaction_by_hash", "GET", "/transactions/by_hash/{txn_hash}",
              "Transactions", "Get a transaction by hash", ("txn_hash",), "Transaction", _READ,
              answer_bcs=_TXN_DATA),
    Operation("wait_transaction_by_hash", "GET", "/transactions/wait_by_hash/{txn_hash}",
              "Transactions", "Wait about a second for a transaction, then get it by hash",
              ("txn_hash",), "Transaction", _READ, answer_bcs=_TXN_DATA),
    Operation("get_transaction_by_version", "GET", "/transactions/by_version/{txn_version}",
              "Transactions", "Get a transaction by version", ("txn_version",), "Transaction",
              _READ, answer_bcs=_TXN_DATA),
    Operation("get_transactions_auxiliary_info", "GET", "/transactions/auxiliary_info",
              "Transactions", "Auxiliary information of a range of transactions",
              ("start_version_required", "limit"), "[AuxiliaryInfo]", _READ,
              headers=("TxnEncryptionKey",)),
    Operation("encode_submission", "POST", "/transactions/encode_submission", "Transactions",
              "Encode a transaction's signing message (JSON only)", (), "HexBytes",
              (400, 403, 413, 500), body="EncodeSubmissionRequest"),
    Operation("simulate_transaction", "POST", "/transactions/simulate", "Transactions",
              "Simulate a transaction (state hashes are zero)", _SIMULATE_FLAGS,
              "[UserTransaction]", (400, 403, 413, 500), body="SubmitTransactionRequest",
              body_bcs=_SIGNED, headers=("GasUsed",)),
    # -- Tables
    Operation("get_table_item", "POST", "/tables/{table_handle}/item", "Tables",
              "Get a table item by JSON key", ("table_handle", "ledger_version"), "MoveValue",
              _TABLE, answer_bcs="The value's BCS bytes.", body="TableItemRequest"),
    Operation("get_raw_table_item", "POST", "/tables/{table_handle}/raw_item", "Tables",
              "Get a table item by BCS key (BCS only)", ("table_handle", "ledger_version"), "",
              _TABLE, answer_bcs="The value's BCS bytes.", body="RawTableItemRequest"),
    # -- Gas
    Operation("estimate_gas_price", "GET", "/estimate_gas_price", "Gas",
              "Estimate the gas unit price", (), "GasEstimation", (400, 403, 500),
              answer_bcs="The regular estimate as a BCS u64."),
    # -- View
    Operation("view", "POST", "/view", "View", "Call a view function", ("ledger_version",),
              "[MoveValue]", _TABLE,
              answer_bcs="ULEB128 count, then each returned value's BCS bytes.",
              body="ViewRequest",
              body_bcs=Media(
                  VIEW_BCS, "BCS of an entry-function call (module, name, types, args)."
              ),
              headers=("GasUsed",)),
    # -- Blocks
    Operation("get_block_by_height", "GET", "/blocks/by_height/{block_height}", "Blocks",
              "Get a block by height", ("block_height", "with_transactions"), "Block", _READ),
    Operation("get_block_by_version", "GET", "/blocks/by_version/{version}", "Blocks",
              "Get the block that holds a version", ("block_version", "with_transactions"),
              "Block", _READ),
    # == the faucet (its own host): funds an address for a verified ID token
    Operation("faucet_status", "GET", "/", "Faucet", "Is the faucet up (`tap:ok`)", (),
              "str", (503,), service="faucet", media=(TEXT,)),
    Operation("fund", "POST", "/fund", "Faucet",
              "Fund an account (`Authorization: Bearer <ID token>`, `x-is-jwt: true`; "
              "none on an open faucet)",
              ("asset",), "FundResponse", (400, 403, 429, 500, 503), body="FundRequest",
              headers=("RetryAfter",), service="faucet"),
    Operation("is_eligible", "POST", "/is_eligible", "Faucet",
              "Would `/fund` fund this request (nothing is sent)", ("asset",), "",
              (400, 403, 429, 500, 503), body="FundRequest",
              success=((200, "Eligible: an empty answer."),), headers=("RetryAfter",),
              service="faucet"),
    Operation("mint", "POST", "/mint", "Faucet",
              "Fund without a token (a devnet faucet, or a local network's open one)",
              ("mint_address", "mint_auth_key", "mint_pub_key", "mint_amount", "return_txns"),
              "[str]", (400, 500, 503), service="faucet"),
    # == the identity provider (its own host): two OpenID Connect issuers
    Operation("get_openid_configuration", "GET", "/{issuer}/.well-known/openid-configuration",
              "Identity", "The issuer's OpenID Connect discovery document", ("issuer",),
              "OpenIDConfiguration", (404,), service="identity"),
    Operation("get_jwks", "GET", "/{issuer}/jwks", "Identity",
              "The issuer's signing keys (JWK set)", ("issuer",), "JWKSet", (404,),
              service="identity"),
    Operation("sign_in", "POST", "/{issuer}/sign_in", "Identity",
              "Sign a person in locally: an ID token for the email", ("issuer",),
              "SignInResponse", (400, 404), body="SignInRequest", service="identity"),
    # == the docs host (its own host): pages, their index and the OAuth metadata
    Operation("get_llms_txt", "GET", "/llms.txt", "Docs", "The index of the pages", (),
              "str", (), service="docs", media=(TEXT,)),
    Operation("get_llms_full_txt", "GET", "/llms-full.txt", "Docs",
              "Every page's Markdown, one after another", (), "str", (), service="docs",
              media=(TEXT,)),
    Operation("get_oauth_protected_resource", "GET", "/.well-known/oauth-protected-resource",
              "Docs", "Protected-resource metadata (RFC 9728)", (), "ProtectedResource", (),
              service="docs"),
    Operation("get_oauth_authorization_server", "GET",
              "/.well-known/oauth-authorization-server", "Docs",
              "Authorization-server metadata (RFC 8414)", (), "OpenIDConfiguration", (),
              service="docs"),
    Operation("get_docs_openid_configuration", "GET", "/.well-known/openid-configuration",
              "Docs", "OpenID Connect discovery of the project issuer", (),
              "OpenIDConfiguration", (), service="docs"),
    Operation("get_docs_page", "GET", "/{page}", "Docs",
              "A page: HTML, or Markdown for `<page>.md` or `Accept: text/markdown`; "
              "with a built docs site, also its files",
              ("page",), "str", (404,), service="docs", media=(HTML, MARKDOWN)),
)  # fmt: skip

#: Every operation of every service, by id, in the order documented.
OPERATIONS: Final[Mapping[str, Operation]] = {row.id: row for row in _ROWS}


def operations_of(service: str) -> tuple[Operation, ...]:
    """The operations of one service, in table order.

    Examples
    --------
    >>> [op.path for op in operations_of("node")][:2]
    ['/', '/-/healthy']
    """
    if service not in SERVICES:
        raise KeyError(f"no service {service!r}; known: {sorted(SERVICES)}")
    return tuple(op for op in _ROWS if op.service == service)
