"""Script arguments of the ``Serialized`` kind (``TransactionArgument`` variant 9 in
aptos-core: the BCS of a value of the script parameter's type, which is how a script
receives a ``String``, a vector of addresses or an ``Option``), over HTTP: read by the
parameter's type, refused with ``FAILED_TO_DESERIALIZE_ARGUMENT`` when the bytes are not
a value of that type, and shown in the transaction's JSON as their hex bytes.
"""

from __future__ import annotations

from typing import Final

import pytest
from assembler import examples
from assembler.examples import EXAMPLES
from run_kit import APT, Node, apt_balance, node_fixture, publish_example, resource, run_script

from ledgerkit import InputError
from ledgerkit.bcs import RawTransaction, Script, ScriptArgument
from ledgerkit.tx import submission_request
from ledgerkit.types import Address, MoveType

AMOUNT: Final = 4_321


node = node_fixture(36)


def set_message_script(board: str) -> bytes:
    return examples.set_message_script(board).to_bytes()


def string_bcs(text: str) -> bytes:
    data = text.encode()
    assert len(data) < 128  # one ULEB128 byte of length
    return bytes([len(data)]) + data


def test_a_serialized_string_reaches_the_script_as_a_string(node: Node) -> None:
    alice = node.accounts[0]
    me = alice.address.standard
    assert publish_example(node, alice, "message_board")["success"]
    args = (ScriptArgument("serialized", string_bcs("hello, serialized")),)
    txn = run_script(node, alice, [], Script(set_message_script(me), (), args))
    assert (txn["success"], txn["vm_status"]) == (True, "Executed successfully")
    stored = resource(node, me, f"{me}::message_board::MessageHolder")
    assert stored["data"] == {"message": "hello, serialized"}
    # The argument as the node shows it: its bytes in hex (a node's MoveValue::Bytes).
    assert txn["payload"]["arguments"] == ["0x" + string_bcs("hello, serialized").hex()]


def test_a_serialized_u64_moves_the_amount(node: Node) -> None:
    bob, carol = node.accounts[1], node.accounts[2]
    before = apt_balance(node, carol.address.standard)
    code = EXAMPLES["two_signer_transfer"].bytecode()
    amount = ScriptArgument("serialized", AMOUNT.to_bytes(8, "little"))
    txn = run_script(node, bob, [carol], Script(code, (MoveType.parse(APT),), (amount,)))
    assert (txn["success"], txn["vm_status"]) == (True, "Executed successfully")
    assert apt_balance(node, carol.address.standard) == before + AMOUNT


@pytest.mark.parametrize(
    "data",
    [
        b"\x01\x02\x03",  # 3 bytes for a u64
        (5).to_bytes(8, "little") + b"\x00",  # a byte left over
        b"",
    ],
)
def test_bytes_that_are_no_u64_are_refused(node: Node, data: bytes) -> None:
    dave, erin = node.accounts[3], node.accounts[4]
    code = EXAMPLES["two_signer_transfer"].bytecode()
    bad = ScriptArgument("serialized", data)
    txn = run_script(node, dave, [erin], Script(code, (MoveType.parse(APT),), (bad,)))
    assert (txn["success"], txn["vm_status"]) == (False, "FAILED_TO_DESERIALIZE_ARGUMENT")


def test_a_string_that_is_not_utf8_is_refused(node: Node) -> None:
    frank = node.accounts[5]
    me = frank.address.standard
    assert publish_example(node, frank, "message_board")["success"]
    bad = (ScriptArgument("serialized", b"\x02\xff\xfe"),)
    txn = run_script(node, frank, [], Script(set_message_script(me), (), bad))
    assert (txn["success"], txn["vm_status"]) == (False, "FAILED_TO_DESERIALIZE_ARGUMENT")
    assert resource(node, me, f"{me}::message_board::MessageHolder") is None


def test_the_serialized_kind_is_variant_9_in_bcs() -> None:
    # aptos-core's TransactionArgument: U8 U64 U128 Address U8Vector Bool U16 U32 U256
    # then Serialized (9), its bytes length-prefixed.
    arg = ScriptArgument("serialized", b"\xaa\xbb")
    assert arg.to_bcs() == b"\x09\x02\xaa\xbb"
    assert ScriptArgument.from_bcs(b"\x09\x02\xaa\xbb") == arg


def test_a_serialized_argument_has_no_json_request_form() -> None:
    script = Script(b"\xa1\x1c\xeb\x0b", (), (ScriptArgument("serialized", b"\x01"),))
    raw = RawTransaction(Address.parse("0xa"), 0, script, 2000, 100, 1_900_000_000, 4)
    with pytest.raises(InputError, match="serialized script argument"):
        submission_request(raw)


def test_any_argument_is_read_from_its_bcs_by_the_parameter_type(node: Node) -> None:
    # As on a node (aptos-core's convert_txn_args then the entry-function reading): a
    # u8_vector's BCS (length, bytes) is a String's, which is how the TypeScript SDK
    # sends a MoveString to a script.
    grace = node.accounts[6]
    me = grace.address.standard
    assert publish_example(node, grace, "message_board")["success"]
    script = set_message_script(me)
    as_bytes = run_script(
        node, grace, [], Script(script, (), (ScriptArgument("u8_vector", b"hi"),))
    )
    assert (as_bytes["success"], as_bytes["vm_status"]) == (True, "Executed successfully")
    stored = resource(node, me, f"{me}::message_board::MessageHolder")
    assert stored["data"] == {"message": "hi"}
    # Not UTF-8: no String.
    bad = run_script(node, grace, [], Script(script, (), (ScriptArgument("u8_vector", b"\xff"),)))
    assert (bad["success"], bad["vm_status"]) == (False, "FAILED_TO_DESERIALIZE_ARGUMENT")
    # A u8 (one byte) is no u64 (eight), nor a u128 (sixteen) one.
    code = EXAMPLES["two_signer_transfer"].bytecode()
    for wrong in (ScriptArgument("u8", 5), ScriptArgument("u128", 5)):
        txn = run_script(
            node, grace, [node.accounts[7]], Script(code, (MoveType.parse(APT),), (wrong,))
        )
        assert (txn["success"], txn["vm_status"]) == (False, "FAILED_TO_DESERIALIZE_ARGUMENT")
