"""The interpreter on modules the Move compiler built (aptos-core's test packages, read by
the node's reader): type names of 31 instantiations, strings and vectors built by the
framework functions, and coin transfers handed to the host's bridge."""

from __future__ import annotations

from pathlib import Path

import pytest
from interp_kit import DictHost

from ledgerkit.localnet.vm import move
from ledgerkit.localnet.vm.move._runtime_types import instantiate

DATA = Path(__file__).parent / "data"
STD = bytes(31) + b"\x01"


def load(name: str) -> move.CompiledModule:
    return move.read_module((DATA / name).read_bytes())


def type_tag_arguments(module: move.CompiledModule) -> list[move.RuntimeType]:
    """The types ``type_tags`` compares its 31 type parameters with, in order: the second
    ``type_name`` call of each pair names the expected type."""
    fdef = module.find_function_def("type_tags")
    assert fdef is not None
    assert fdef.code is not None
    calls = [i.arg for i in fdef.code.code if i.op == move.Op.CALL_GENERIC]
    expected = []
    for index in calls[1::2]:
        (token,) = module.signature(module.function_instantiations[index].type_parameters)
        expected.append(instantiate(module, token, ()))
    return expected


def test_type_names_of_31_instantiations() -> None:
    module = load("tx_args_module_v7.mv")
    types = type_tag_arguments(module)
    names = [move.type_name(t) for t in types]
    assert names[:9] == [
        "bool", "u8", "u16", "u32", "u64", "u128", "u256", "address", "0x1::string::String",
    ]  # fmt: skip
    assert names[20] == "0x1::option::Option<bool>"
    assert names[9] == (
        "0x1::object::Object<0x2cca48b8b0d7f77ef28bfd608883c599680c5b8db8192c5e3baaae1aee45114c"
        "::tx_args_module::EmptyResource>"
    )
    host = DictHost(module)
    assert (
        move.execute_function(host, module, "type_tags", types, [], meter=move.GasMeter(10**9))
        == []
    )
    wrong = list(types)
    wrong[5] = "u8"  # the sixth comparison fails: abort 0x133700 + 5
    with pytest.raises(move.MoveExecutionError) as caught:
        move.execute_function(host, module, "type_tags", wrong, [], meter=move.GasMeter(10**9))
    assert (caught.value.status, caught.value.abort_code) == ("ABORTED", 0x133705)
    assert caught.value.function == "type_tags"


def test_vector_of_strings_built_by_framework_functions() -> None:
    module = load("tx_args_module_v7.mv")
    (strings,) = move.execute_function(
        DictHost(module), module, "get_expected_vector_string", [], [], meter=move.GasMeter(10**9)
    )
    assert [bytes(s.fields[0].elems) for s in strings.elems] == [
        b"expected_string", b"abc", b"def", b"123", b"456", b"789",
    ]  # fmt: skip


def test_coin_transfers_go_to_the_bridge() -> None:
    module = load("transfer_v6.mv")
    host = DictHost(module)
    coin = move.StructType(STD, "coin", "Coin", (), 0x6)
    ledger: list[tuple[str, object, int]] = []

    def withdraw(type_args, args, meter):  # type: ignore[no-untyped-def]
        amount = int(args[1])
        ledger.append(("withdraw", args[0].read().address, amount))
        return [move.StructValue(coin, [move.U64Value(amount)])]

    def deposit(type_args, args, meter):  # type: ignore[no-untyped-def]
        ledger.append(("deposit", args[0], int(args[1].fields[0])))
        return []

    host.bridge[("coin", "withdraw")] = withdraw
    host.bridge[("coin", "deposit")] = deposit
    alice = move.Reference([move.SignerValue(bytes(31) + b"\x0a")], 0, False)
    bob = move.AddressValue(bytes(31) + b"\x0b")
    move.execute_function(
        host, module, "transfer", [], [alice, move.U64Value(25), bob], meter=move.GasMeter(10**9)
    )
    assert ledger == [("withdraw", bytes(31) + b"\x0a", 25), ("deposit", bob, 25)]
    assert host.bridge_calls == [("coin", "withdraw"), ("coin", "deposit")]
