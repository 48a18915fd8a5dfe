"""Published Move code running on the node, over HTTP: the assembler's examples
published with ``0x1::code::publish_package_txn`` and their entry functions called in
signed transactions; what a user sees (resources, events, views in JSON and BCS, statuses,
gas) written out by hand from the examples' Move sources.
"""

from __future__ import annotations

import time
from typing import Any, Final

from run_kit import (
    Node,
    call,
    call_raw,
    events_of,
    node_fixture,
    publisher_fixture,
    raw_call,
    resource,
    view,
)

from ledgerkit.bcs import Ed25519Authenticator, EntryFunction, SignedTransaction

PUBLISHED: Final = ("message_board", "counter", "container", "vault")


node = node_fixture(31)
publisher = publisher_fixture(PUBLISHED)


def short(address: str) -> str:
    """An address as a Move abort location writes it (no leading zeros)."""
    return "0x" + (address[2:].lstrip("0") or "0")


# -- message board --------------------------------------------------------------------------


def test_set_message_stores_a_resource_then_emits_a_change(node: Node, publisher: Any) -> None:
    me = publisher.address.standard
    board = f"{me}::message_board"
    first = call(node, publisher, f"{board}::set_message", [("0x1::string::String", "hello")])
    assert (first["success"], first["vm_status"]) == (True, "Executed successfully")
    written = [c for c in first["changes"] if c["type"] == "write_resource"]
    holder = [c for c in written if c["data"]["type"] == f"{board}::MessageHolder"]
    assert [(c["address"], c["data"]["data"]) for c in holder] == [(me, {"message": "hello"})]
    assert events_of(first, "::MessageChange") == []

    second = call(node, publisher, f"{board}::set_message", [("0x1::string::String", "world")])
    assert second["success"], second["vm_status"]
    assert events_of(second, "::MessageChange") == [
        {"account": me, "from_message": "hello", "to_message": "world"}
    ]
    stored = resource(node, me, f"{board}::MessageHolder")
    assert stored == {"type": f"{board}::MessageHolder", "data": {"message": "world"}}
    # The view, in JSON and in BCS: one value, the String "world" (length 5, its bytes).
    answer = view(node, f"{board}::get_message", [me])
    assert (answer.status_code, answer.json()) == (200, ["world"])
    as_bcs = node.http.post(
        "/view",
        json={"function": f"{board}::get_message", "type_arguments": [], "arguments": [me]},
        headers={"Accept": "application/x-bcs"},
    )
    assert as_bcs.content == b"\x01\x05world"


def test_get_message_of_an_account_without_one_aborts_with_its_name(
    node: Node, publisher: Any
) -> None:
    me = publisher.address.standard
    nobody = node.accounts[3].address.standard
    answer = view(node, f"{me}::message_board::get_message", [nobody])
    assert answer.status_code == 400
    # error::not_found(E_NO_MESSAGE): category 6 in the third byte, reason 1.
    assert (
        f"Move abort in {short(me)}::message_board: E_NO_MESSAGE(0x60001): "
        "There is no message at this address." in answer.json()["message"]
    )


def test_a_simulated_call_reports_its_changes_and_commits_nothing(
    node: Node, publisher: Any
) -> None:

    me = publisher.address.standard
    bob = node.accounts[1]
    board = f"{me}::message_board"
    payload = EntryFunction.build(f"{board}::set_message", [], [("0x1::string::String", "draft")])
    raw = raw_call(node, bob, payload)
    unsigned = Ed25519Authenticator(bob.private_key.public_key_bytes, bytes(64))
    zeros = SignedTransaction(raw, unsigned)
    response = node.http.post(
        "/transactions/simulate",
        content=zeros.to_bcs(),
        headers={"Content-Type": "application/x.aptos.signed_transaction+bcs"},
    )
    assert response.status_code == 200, response.text
    [simulated] = response.json()
    assert (simulated["success"], simulated["vm_status"]) == (True, "Executed successfully")
    assert int(simulated["gas_used"]) > 0
    holder = [
        c["data"]["data"]
        for c in simulated["changes"]
        if c["type"] == "write_resource" and c["data"]["type"] == f"{board}::MessageHolder"
    ]
    assert holder == [{"message": "draft"}]
    assert resource(node, bob.address.standard, f"{board}::MessageHolder") is None


# -- counter, container, vault --------------------------------------------------------------


def test_counter_counts_in_its_events_and_its_view(node: Node, publisher: Any) -> None:
    me = publisher.address.standard
    carol = node.accounts[2]
    values = []
    for _ in range(3):
        txn = call(node, carol, f"{me}::counter::increment")
        assert txn["success"], txn["vm_status"]
        values += events_of(txn, "::counter::Incremented")
    mine = carol.address.standard
    assert values == [
        {"account": mine, "value": "1"},
        {"account": mine, "value": "2"},
        {"account": mine, "value": "3"},
    ]
    assert view(node, f"{me}::counter::get", [mine]).json() == ["3"]
    assert view(node, f"{me}::counter::get", [me]).json() == ["0"]
    # The transaction in BCS carries the event's BCS: the address, then the u64 3.
    as_bcs = node.http.get(
        f"/transactions/by_hash/{txn['hash']}", headers={"Accept": "application/x-bcs"}
    )
    assert as_bcs.status_code == 200, as_bcs.text
    assert bytes(carol.address) + (3).to_bytes(8, "little") in as_bcs.content


def test_a_generic_box_holds_what_was_put(node: Node, publisher: Any) -> None:
    me = publisher.address.standard
    bob = node.accounts[1]
    for n in (5, 7):
        txn = call(node, bob, f"{me}::container::put_number", [("u64", n)])
        assert txn["success"], txn["vm_status"]
    tag = f"{me}::container::Box<u64>"
    assert resource(node, bob.address.standard, tag) == {"type": tag, "data": {"items": ["5", "7"]}}
    size = f"{me}::container::size"
    assert view(node, size, [bob.address.standard], ["u64"]).json() == ["2"]
    assert view(node, size, [bob.address.standard], ["0x1::string::String"]).json() == ["0"]


def test_vault_aborts_are_named_from_its_error_map(node: Node, publisher: Any) -> None:
    me = publisher.address.standard
    vault = f"{me}::vault"
    dave = node.accounts[3]
    opened = call(node, dave, f"{vault}::open", [("u64", 10)])
    assert opened["success"], opened["vm_status"]
    owner = dave.address.standard
    assert resource(node, owner, f"{vault}::Vault")["data"] == {"owner": owner, "balance": "10"}

    withdrawn = call(node, dave, f"{vault}::withdraw", [("address", owner), ("u64", 4)])
    assert withdrawn["success"], withdrawn["vm_status"]
    assert resource(node, owner, f"{vault}::Vault")["data"]["balance"] == "6"

    where = f"Move abort in {short(me)}::vault"
    too_much = call(node, dave, f"{vault}::withdraw", [("address", owner), ("u64", 7)])
    assert (too_much["success"], too_much["vm_status"]) == (
        False,
        f"{where}: E_INSUFFICIENT_BALANCE(0x10002): "
        "The vault holds less than the amount asked for.",
    )
    not_mine = call(node, publisher, f"{vault}::withdraw", [("address", owner), ("u64", 1)])
    assert not_mine["vm_status"] == (
        f"{where}: E_NOT_OWNER(0x50001): The caller is not the vault's owner."
    )
    no_vault = call(node, dave, f"{vault}::withdraw", [("address", me), ("u64", 1)])
    assert no_vault["vm_status"] == (
        f"{where}: E_NO_VAULT(0x60003): There is no vault at this address."
    )
    # A failed call pays its gas and changes nothing else.
    assert int(too_much["gas_used"]) > 0
    assert resource(node, owner, f"{vault}::Vault")["data"]["balance"] == "6"


# -- what a node refuses --------------------------------------------------------------------


def test_calls_a_node_refuses_fail_with_its_statuses(node: Node, publisher: Any) -> None:
    me = publisher.address.standard
    bob = node.accounts[1]
    board = f"{me}::message_board"
    hello = b"\x05hello"

    def status(txn: dict[str, Any]) -> tuple[bool, str]:
        return txn["success"], txn["vm_status"]

    assert status(call_raw(node, bob, f"{me}::nowhere::go", [])) == (False, "LINKER_ERROR")
    assert status(call_raw(node, bob, f"{board}::shout", [hello])) == (
        False,
        "FUNCTION_RESOLUTION_FAILURE",
    )
    assert status(call_raw(node, bob, f"{board}::get_message", [bytes(32)])) == (
        False,
        "EXECUTE_ENTRY_FUNCTION_CALLED_ON_NON_ENTRY_FUNCTION",
    )
    assert status(call_raw(node, bob, f"{board}::set_message", [])) == (
        False,
        "NUMBER_OF_ARGUMENTS_MISMATCH",
    )
    assert status(call_raw(node, bob, f"{board}::set_message", [hello, hello])) == (
        False,
        "NUMBER_OF_ARGUMENTS_MISMATCH",
    )
    # A u64's 8 bytes are no String: length 5, then 7 bytes where 5 were due.
    five = (5).to_bytes(8, "little")
    assert status(call_raw(node, bob, f"{board}::set_message", [five])) == (
        False,
        "FAILED_TO_DESERIALIZE_ARGUMENT",
    )
    # Two bytes that are not UTF-8.
    assert status(call_raw(node, bob, f"{board}::set_message", [b"\x02\xff\xfe"])) == (
        False,
        "FAILED_TO_DESERIALIZE_ARGUMENT",
    )
    assert status(call_raw(node, bob, f"{me}::container::put_number", [five], ["u64"])) == (
        False,
        "NUMBER_OF_TYPE_ARGUMENTS_MISMATCH",
    )


def test_a_call_submitted_in_json_is_read_by_the_published_abi(node: Node, publisher: Any) -> None:
    me = publisher.address.standard
    erin = node.accounts[4]
    board = f"{me}::message_board"
    sequence = node.http.get(f"/accounts/{erin.address}").json()["sequence_number"]
    request = {
        "sender": erin.address.standard,
        "sequence_number": sequence,
        "max_gas_amount": "200000",
        "gas_unit_price": "100",
        "expiration_timestamp_secs": str(int(time.time()) + 600),
        "payload": {
            "type": "entry_function_payload",
            "function": f"{board}::set_message",
            "type_arguments": [],
            "arguments": ["from json"],
        },
    }
    encoded = node.http.post("/transactions/encode_submission", json=request)
    assert encoded.status_code == 200, encoded.text
    key = erin.private_key
    signature = key.sign(bytes.fromhex(encoded.json()[2:]))
    signed = {
        **request,
        "signature": {
            "type": "ed25519_signature",
            "public_key": "0x" + key.public_key_bytes.hex(),
            "signature": "0x" + signature.hex(),
        },
    }
    submitted = node.http.post("/transactions", json=signed)
    assert submitted.status_code == 202, submitted.text
    txn = node.http.get(f"/transactions/wait_by_hash/{submitted.json()['hash']}").json()
    assert (txn["success"], txn["vm_status"]) == (True, "Executed successfully")
    stored = resource(node, erin.address.standard, f"{board}::MessageHolder")
    assert stored["data"] == {"message": "from json"}
    # A function the module does not have, and a module that is not there.
    for function, says in (
        (f"{board}::shout", f"Function {board}::shout not found"),
        (f"{me}::nowhere::go", f"Module {me}::nowhere not found"),
    ):
        wrong = {**request, "payload": {**request["payload"], "function": function}}
        refused = node.http.post("/transactions/encode_submission", json=wrong)
        assert refused.status_code == 400
        assert says in refused.json()["message"]
