"""Multisig accounts (``0x1::multisig_account``) on the node, over HTTP: creation, owner
and threshold changes, views and the module's ABI.

Expected values are written out from the framework's Move source: the account address is
derived by hand with hashlib (``multisig_helpers.expected_address``), abort codes are
``category << 16 | reason`` (``EACCOUNT_NOT_MULTISIG`` 2002 -> ``0x307D2`` ...), owners
removed with ``vector::swap_remove`` (the last one takes the removed one's place).
"""

from __future__ import annotations

from typing import Final

import httpx
from multisig_helpers import (
    MS,
    STRINGS,
    abort_of,
    call,
    events,
    execute,
    expected_address,
    fund,
    inner_payload,
    multisig_fixtures,
    view,
)
from node_http_helpers import SIGNED_TXN_BCS, apt_balance, ok, submit, wait

from ledgerkit.keys import Account
from ledgerkit.localnet import LocalNode
from ledgerkit.types import Address

SEED: Final = 29
ZERO_KEY: Final = "0x" + "00" * 32


msig_node, http, owners, account = multisig_fixtures(SEED)


def test_the_account_is_a_resource_account_with_its_owners(
    http: httpx.Client, owners: list[Account], account: str
) -> None:
    a, b, c = owners
    resources = {r["type"]: r["data"] for r in ok(http.get(f"/accounts/{account}/resources"))}
    data = resources["0x1::multisig_account::MultisigAccount"]
    # the creator comes last
    assert data["owners"] == [str(b.address), str(c.address), str(a.address)]
    assert data["num_signatures_required"] == "2"
    assert data["last_executed_sequence_number"] == "0"
    assert data["next_sequence_number"] == "1"
    assert data["signer_cap"] == {"vec": [{"account": account}]}
    assert data["metadata"] == {"data": [{"key": "Example", "value": "0x0353444b"}]}
    # The handles, in the order the module declares (and creates) them; the API lists the
    # fields by name.
    handles = [
        "add_owners_events",
        "remove_owners_events",
        "update_signature_required_events",
        "create_transaction_events",
        "vote_events",
        "execute_rejected_transaction_events",
        "execute_transaction_events",
        "transaction_execution_failed_events",
        "metadata_updated_events",
    ]
    assert list(data) == sorted(data)
    numbers = [data[name]["guid"]["id"]["creation_num"] for name in handles]
    assert numbers == [str(n) for n in range(2, 11)]
    assert resources["0x1::account::Account"]["authentication_key"] == ZERO_KEY
    assert resources["0x1::account::Account"]["signer_capability_offer"] == {
        "for": {"vec": [account]}
    }
    assert view(http, "owners", account) == [[str(b.address), str(c.address), str(a.address)]]
    assert view(http, "num_signatures_required", account) == ["2"]


def test_creation_refuses_what_the_framework_refuses(
    http: httpx.Client, owners: list[Account]
) -> None:
    a, b, _ = owners
    strings = "vector<0x1::string::String>"
    cases = [
        ([b.address], 0, [], [], "EINVALID_SIGNATURES_REQUIRED(0x1000b)"),
        ([b.address], 3, [], [], "EINVALID_SIGNATURES_REQUIRED(0x1000b)"),
        ([b.address, b.address], 1, [], [], "EDUPLICATE_OWNER(0x10001)"),
        ([a.address], 1, [], [], "EDUPLICATE_OWNER(0x10001)"),  # the creator is added
        ([b.address], 1, ["k"], [], "ENUMBER_OF_METADATA_KEYS_AND_VALUES_DONT_MATCH(0x1000f)"),
        ([b.address], 1, ["k", "k"], [b"", b""], "EDUPLICATE_METADATA_KEY(0x10010)"),
    ]
    for others, required, keys, values, name in cases:
        done = call(
            http,
            a,
            "create_with_owners",
            ("vector<address>", others),
            ("u64", required),
            (strings, keys),
            ("vector<vector<u8>>", values),
        )
        assert abort_of(done).startswith(f"Move abort in 0x1::multisig_account: {name}"), name


def test_owner_changes_are_the_account_s_own(
    http: httpx.Client, owners: list[Account], account: str
) -> None:
    a, b, c = owners
    # called by an owner directly, the signer is the owner: no MultisigAccount there
    direct = call(http, a, "add_owner", ("address", Account.generate().address))
    assert "EACCOUNT_NOT_MULTISIG(0x307d2)" in abort_of(direct)
    d, e = Account.generate().address, Account.generate().address
    steps = [
        (
            inner_payload(MS + "add_owners", ("vector<address>", [d, e])),
            [str(b.address), str(c.address), str(a.address), str(d), str(e)],
            [(MS + "AddOwners", {"owners_added": [str(d), str(e)]})],
        ),
        (
            # swap_remove: the last owner takes the removed one's place
            inner_payload(MS + "remove_owner", ("address", b.address)),
            [str(e), str(c.address), str(a.address), str(d)],
            [(MS + "RemoveOwners", {"owners_removed": [str(b.address)]})],
        ),
        (
            inner_payload(MS + "swap_owner", ("address", b.address), ("address", e)),
            [str(b.address), str(c.address), str(a.address), str(d)],
            [
                (MS + "AddOwners", {"owners_added": [str(b.address)]}),
                (MS + "RemoveOwners", {"owners_removed": [str(e)]}),
            ],
        ),
        (
            inner_payload(
                MS + "add_owners_and_update_signatures_required",
                ("vector<address>", [e]),
                ("u64", 3),
            ),
            [str(b.address), str(c.address), str(a.address), str(d), str(e)],
            [
                (MS + "AddOwners", {"owners_added": [str(e)]}),
                (
                    MS + "UpdateSignaturesRequired",
                    {"old_num_signatures_required": "2", "new_num_signatures_required": "3"},
                ),
            ],
        ),
    ]
    for payload, expected_owners, expected_events in steps:
        created = call(
            http,
            a,
            "create_transaction",
            ("address", Address.parse(account)),
            ("vector<u8>", payload),
        )
        sequence = int(events(created)[0][1]["sequence_number"])
        call(http, c, "approve_transaction", ("address", Address.parse(account)), ("u64", sequence))
        done = wait(http, submit(http, execute(http, a, account, None))["hash"])
        assert done["success"], done["vm_status"]
        got = events(done)[:-1]
        assert got == [(k, {"multisig_account": account, **v}) for k, v in expected_events]
        assert view(http, "owners", account) == [expected_owners]
    assert view(http, "num_signatures_required", account) == ["3"]
    assert view(http, "is_owner", str(e), account) == [True]
    assert view(http, "is_owner", str(Account.generate().address), account) == [False]
    # the multisig account's own sequence number never moves
    assert ok(http.get(f"/accounts/{account}"))["sequence_number"] == "0"


def test_remove_bootstrapper(http: httpx.Client, owners: list[Account]) -> None:
    a, b, c = owners
    sequence = int(ok(http.get(f"/accounts/{a.address}"))["sequence_number"])
    address = expected_address(a.address, sequence)
    done = call(
        http,
        a,
        "create_with_owners_then_remove_bootstrapper",
        ("vector<address>", [b.address, c.address]),
        ("u64", 2),
        ("vector<0x1::string::String>", []),
        ("vector<vector<u8>>", []),
    )
    assert done["success"], done["vm_status"]
    assert events(done) == [
        (MS + "RemoveOwners", {"multisig_account": address, "owners_removed": [str(a.address)]})
    ]
    # b, c then a; a's removal leaves b, c
    assert view(http, "owners", address) == [[str(b.address), str(c.address)]]


def test_views_of_pending_calls(
    http: httpx.Client, owners: list[Account], account: str, msig_node: LocalNode
) -> None:
    a, b, _ = owners
    assert view(http, "available_transaction_queue_capacity", account) == ["20"]
    payloads = [inner_payload(MS + "update_signatures_required", ("u64", n)) for n in (1, 3)]
    for payload in payloads:
        call(
            http,
            b,
            "create_transaction",
            ("address", Address.parse(account)),
            ("vector<u8>", payload),
        )
    pending = view(http, "get_pending_transactions", account)[0]
    assert [t["payload"] for t in pending] == [{"vec": ["0x" + p.hex()]} for p in payloads]
    assert [t["creator"] for t in pending] == [str(b.address)] * 2
    assert view(http, "get_transaction", account, "2") == [pending[1]]
    assert view(http, "available_transaction_queue_capacity", account) == ["18"]
    assert view(http, "get_next_transaction_payload", account, "0x") == ["0x" + payloads[0].hex()]
    assert view(http, "metadata", account) == [
        {"data": [{"key": "Example", "value": "0x0353444b"}]}
    ]
    assert view(http, "vote", account, "1", str(a.address)) == [False, False]
    for function, args, name in [
        ("get_transaction", [account, "3"], "EINVALID_SEQUENCE_NUMBER(0x10011)"),
        ("get_transaction", [account, "0"], "EINVALID_SEQUENCE_NUMBER(0x10011)"),
        ("owners", [str(a.address)], "MISSING_DATA"),
        ("get_next_transaction_payload", [str(a.address), "0x"], "MISSING_DATA"),
        ("can_be_executed", [str(a.address), "1"], "MISSING_DATA"),
    ]:
        body = {"function": MS + function, "type_arguments": [], "arguments": args}
        answer = http.post("/view", json=body)
        assert answer.status_code == 400
        assert name in answer.json()["message"]
    # a call of a sender that is no owner is refused at submission
    stranger = Account.generate()
    assert call(
        http,
        msig_node.dev_accounts[0],
        "0x1::aptos_account::transfer",
        ("address", stranger.address),
        ("u64", 100_000_000),
    )["success"]
    refused = http.post(
        "/transactions",
        content=execute(http, stranger, account, None).to_bcs(),
        headers={"Content-Type": SIGNED_TXN_BCS},
    )
    assert refused.json()["vm_error_code"] == 32
    not_owner = call(
        http, stranger, "approve_transaction", ("address", Address.parse(account)), ("u64", 1)
    )
    assert "ENOT_OWNER(0x507d3)" in abort_of(not_owner)
    missing = call(http, a, "approve_transaction", ("address", Address.parse(account)), ("u64", 9))
    assert "ETRANSACTION_NOT_FOUND(0x607d6)" in abort_of(missing)
    empty = call(
        http, a, "create_transaction", ("address", Address.parse(account)), ("vector<u8>", b"")
    )
    assert "EPAYLOAD_CANNOT_BE_EMPTY(0x10004)" in abort_of(empty)


def test_the_module_s_abi(http: httpx.Client) -> None:
    """Entry, view and visibility flags and parameters as ``multisig_account.move`` declares
    them (the owner and threshold changes are private entry functions)."""
    abi = ok(http.get("/accounts/0x1/module/multisig_account"))["abi"]
    functions = {f["name"]: f for f in abi["exposed_functions"]}
    shape = {
        name: (f["visibility"], f["is_entry"], f["is_view"], f["params"], f["return"])
        for name, f in functions.items()
    }
    strings, bytes_list = "vector<0x1::string::String>", "vector<vector<u8>>"
    assert shape["create_with_owners"] == (
        "public",
        True,
        False,
        ["&signer", "vector<address>", "u64", strings, bytes_list],
        [],
    )
    assert shape["add_owner"] == ("private", True, False, ["&signer", "address"], [])
    assert shape["update_signatures_required"] == ("private", True, False, ["&signer", "u64"], [])
    assert shape["vote"] == ("public", False, True, ["address", "u64", "address"], ["bool", "bool"])
    assert shape["get_transaction"][4] == ["0x1::multisig_account::MultisigTransaction"]
    structs = {s["name"]: s for s in abi["structs"]}
    assert [f["name"] for f in structs["MultisigTransaction"]["fields"]] == [
        "payload",
        "payload_hash",
        "votes",
        "creator",
        "creation_time_secs",
    ]
    assert structs["TransactionExecutionFailed"]["is_event"] is True
    assert structs["TransactionExecutionFailedEvent"]["is_event"] is False
    assert [f["name"] for f in structs["ExecutionError"]["fields"]] == [
        "abort_location",
        "error_type",
        "error_code",
    ]


def test_metadata_batches_and_the_queue_limit(
    http: httpx.Client, owners: list[Account], account: str
) -> None:
    a, b, c = owners
    where = ("address", Address.parse(account))
    # update_metadata replaces the whole map and says what it was
    payload = inner_payload(
        MS + "update_metadata", (STRINGS, ["a", "b"]), ("vector<vector<u8>>", [b"\x01", b""])
    )
    call(http, b, "create_transaction", where, ("vector<u8>", payload))
    done = wait(http, submit(http, execute(http, a, account, None))["hash"])
    assert events(done)[0] == (
        MS + "MetadataUpdated",
        {
            "multisig_account": account,
            "old_metadata": {"data": [{"key": "Example", "value": "0x0353444b"}]},
            "new_metadata": {"data": [{"key": "a", "value": "0x01"}, {"key": "b", "value": "0x"}]},
        },
    )
    # twenty pending calls at most (sequence numbers 2 to 21)
    for n in range(20):
        made = call(http, a, "create_transaction", where, ("vector<u8>", b"\x01" + bytes([n])))
        assert made["success"], made["vm_status"]
    assert view(http, "available_transaction_queue_capacity", account) == ["0"]
    full = call(http, a, "create_transaction", where, ("vector<u8>", b"\x02"))
    assert "EMAX_PENDING_TRANSACTIONS_EXCEEDED(0x30013)" in abort_of(full)
    # b and c reject 2..4 in one transaction each; a resolves them in one
    for voter in (b, c):
        voted = call(
            http, voter, "vote_transactions", where, ("u64", 2), ("u64", 4), ("bool", False)
        )
        assert [d["sequence_number"] for _, d in events(voted)] == ["2", "3", "4"]
    too_far = call(http, a, "execute_rejected_transactions", where, ("u64", 22))
    assert "EINVALID_SEQUENCE_NUMBER(0x10011)" in abort_of(too_far)
    resolved = call(http, a, "execute_rejected_transactions", where, ("u64", 4))
    assert resolved["success"], resolved["vm_status"]
    assert [(k, d["sequence_number"]) for k, d in events(resolved)] == [
        (MS + "Vote", "2"),
        (MS + "ExecuteRejectedTransaction", "2"),
        (MS + "Vote", "3"),
        (MS + "ExecuteRejectedTransaction", "3"),
        (MS + "Vote", "4"),
        (MS + "ExecuteRejectedTransaction", "4"),
    ]
    assert view(http, "last_resolved_sequence_number", account) == ["4"]
    assert view(http, "available_transaction_queue_capacity", account) == ["3"]


def test_the_next_address_of_an_address_without_an_account(http: httpx.Client) -> None:
    """``account::get_sequence_number`` reads 0 there, so the address of sequence 0."""
    nobody = Account.generate().address
    assert view(http, "get_next_multisig_account_address", str(nobody)) == [
        expected_address(nobody, 0)
    ]


def test_an_account_already_at_the_next_address(
    http: httpx.Client, owners: list[Account], msig_node: LocalNode
) -> None:
    """A plain account funded at the next address before the creation: it has not sent a
    transaction, so it becomes the multisig account (``create_resource_account``)."""
    a, b, _ = owners
    sequence = int(ok(http.get(f"/accounts/{a.address}"))["sequence_number"])
    # the funding below is sent by the bank, so a's sequence number does not move
    address = expected_address(a.address, sequence)
    fund(http, msig_node.dev_accounts[0], Address.parse(address), 5_000)
    done = call(
        http,
        a,
        "create_with_owners",
        ("vector<address>", [b.address]),
        ("u64", 1),
        (STRINGS, []),
        ("vector<vector<u8>>", []),
    )
    assert done["success"], done["vm_status"]
    assert view(http, "owners", address) == [[str(b.address), str(a.address)]]
    account = ok(http.get(f"/accounts/{address}"))
    assert account["authentication_key"] == ZERO_KEY
    assert apt_balance(http, Address.parse(address)) == 5_000


def test_an_existing_account_makes_itself_a_multisig_account(
    http: httpx.Client, owners: list[Account], msig_node: LocalNode
) -> None:
    """``create_with_existing_account_call``: the owners as given (the account itself is
    none of them), no signer capability, its own key kept; the ``..._revoke_auth_key_call``
    variant zeroes the key."""
    _, b, c = owners
    kept, revoked = Account.generate(), Account.generate()
    for account in (kept, revoked):
        fund(http, msig_node.dev_accounts[0], account.address, 100_000_000)
    args = (
        ("vector<address>", [b.address, c.address]),
        ("u64", 1),
        (STRINGS, []),
        ("vector<vector<u8>>", []),
    )
    done = call(http, kept, "create_with_existing_account_call", *args)
    assert done["success"], done["vm_status"]
    data = ok(
        http.get(f"/accounts/{kept.address}/resource/0x1::multisig_account::MultisigAccount")
    )["data"]
    assert data["owners"] == [str(b.address), str(c.address)]
    assert data["signer_cap"] == {"vec": []}
    # the handles are the account's next GUIDs: 2 to 10 on an account that made none
    assert data["add_owners_events"]["guid"]["id"]["creation_num"] == "2"
    again = call(http, kept, "create_with_existing_account_call", *args)
    assert abort_of(again) == "RESOURCE_ALREADY_EXISTS"
    # one owner's approval is enough to run a call as the account
    to = Account.generate().address
    payload = inner_payload("0x1::aptos_account::transfer", ("address", to), ("u64", 9))
    call(http, b, "create_transaction", ("address", kept.address), ("vector<u8>", payload))
    ran = wait(http, submit(http, execute(http, b, str(kept.address), None))["hash"])
    assert ran["success"], ran["vm_status"]
    assert apt_balance(http, to) == 9
    key = ok(http.get(f"/accounts/{kept.address}"))["authentication_key"]
    assert key != ZERO_KEY

    done = call(http, revoked, "create_with_existing_account_and_revoke_auth_key_call", *args)
    assert done["success"], done["vm_status"]
    account = ok(http.get(f"/accounts/{revoked.address}"))
    assert account["authentication_key"] == ZERO_KEY
    assert account["sequence_number"] == "1"
