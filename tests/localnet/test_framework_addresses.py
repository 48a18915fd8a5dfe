"""Framework modules live at more than one address: ``0x1``, and ``0x3`` / ``0x4`` for the
token packages, where module names repeat (``0x3::token`` beside ``0x4::token``)."""

from __future__ import annotations

from ledgerkit.localnet.vm.framework import Framework, FunctionSpec, ModuleSpec, StructSpec
from ledgerkit.localnet.vm.framework._context import NATIVES, native
from ledgerkit.types import Address, EntryFunctionId, StructTag

FOUR = Address.from_int(4)


def _module(address: Address, field: str) -> ModuleSpec:
    return ModuleSpec(
        "token_like",
        structs=(StructSpec("Thing", ("key",), ((field, "u64"),)),),
        functions=(FunctionSpec("make", ("&signer",), (), (), True, False, "public"),),
        address=address,
    )


def test_modules_of_one_name_at_two_addresses_stay_apart() -> None:
    framework = Framework((_module(Address.from_int(1), "one"), _module(FOUR, "four")))
    at_four, make = framework.function(EntryFunctionId.parse("0x4::token_like::make"))
    at_one, _ = framework.function(EntryFunctionId.parse("0x1::token_like::make"))
    assert at_four is not None
    assert at_four.address == FOUR
    assert make is not None
    assert at_one is not None
    assert at_one.address == Address.from_int(1)
    assert framework.function(EntryFunctionId.parse("0x3::token_like::make")) == (None, None)
    assert at_four.abi()["address"] == "0x4"
    assert framework.module("token_like", FOUR) is at_four
    fields = framework.layouts.struct_fields(StructTag.parse("0x4::token_like::Thing"))
    assert [name for name, _ in fields or ()] == ["four"]
    # The stand-in bytecode names its address after the magic and the version.
    assert at_four.bytecode()[8:40] == bytes(FOUR)


def test_a_body_is_found_at_the_address_it_was_registered_for() -> None:
    def body(ctx: object, type_args: object, args: object) -> None:
        return None

    native("lk_test_only", "run", address=4)(body)
    try:
        four = EntryFunctionId.parse("0x4::lk_test_only::run")
        one = EntryFunctionId.parse("0x1::lk_test_only::run")
        assert Framework.body(four) is body
        assert Framework.body(one) is None
    finally:
        del NATIVES[(FOUR, "lk_test_only", "run")]
