"""The test-only Move assembler: every example builds, every index of what it builds
resolves, tables are interned in the compiler's order, the metadata it writes is the BCS
aptos-core reads, what it cannot build is an ``AssemblyError``.

Expected values are written out: table contents and branch offsets counted from the
examples' sources."""

from __future__ import annotations

import gzip
import hashlib
from typing import Any

import pytest
from assembler import (
    AssemblyError,
    ModuleBuilder,
    ScriptBuilder,
    TypeText,
    abilities,
    listing,
    package_metadata,
    parse_function_decl,
    parse_type,
)
from assembler._opcodes import INSTRUCTIONS, LITERALS
from assembler.examples import EXAMPLES, MODULE_EXAMPLES
from unit_checks import check_indices, check_stack

from ledgerkit.bcs import Deserializer
from ledgerkit.localnet.vm.move._format import (
    CodeUnit,
    CompiledModule,
    CompiledScript,
    FunctionHandle,
    FunctionInstantiation,
    Instruction,
    ModuleHandle,
    Op,
)

CAFE = bytes(30) + b"\xca\xfe"
ONE = bytes(31) + b"\x01"


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_every_example_keeps_its_stack_balanced(name: str) -> None:
    unit = EXAMPLES[name].build("0xcafe").build()
    if isinstance(unit, CompiledScript):
        check_stack(unit, unit.code, 0)
        return
    for fd in unit.function_defs:
        assert fd.code is not None
        returns = len(unit.signatures[unit.function_handles[fd.function].return_])
        check_stack(unit, fd.code, returns)


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_every_example_builds_and_every_index_resolves(name: str) -> None:
    unit = EXAMPLES[name].build("0xcafe").build()
    check_indices(unit)
    if isinstance(unit, CompiledModule):
        assert unit.name == name
        assert unit.address == CAFE
        assert unit.self_handle == 0
        assert unit.module_handles[0] == ModuleHandle(0, 0)


def test_an_example_built_at_another_address_names_that_address() -> None:
    module = EXAMPLES["counter"].build("0x42").build()
    assert module.address == bytes(31) + b"\x42"
    assert module.identifiers[0] == "counter"


# -- the compiler's order, counted from the sources ----------------------------------------


def test_the_counter_tables_in_the_compilers_order() -> None:
    module = EXAMPLES["counter"].build("0xcafe").build()
    # Self module name, then the structs (names, field names) in declaration order, then
    # each function's name followed by what its code names, in the order it names it.
    assert module.identifiers == (
        "counter",
        "Counter",
        "value",
        "Incremented",
        "account",
        "increment",
        "signer",
        "address_of",
        "event",
        "emit",
        "get",
    )
    assert module.address_identifiers == (CAFE, ONE)
    assert module.module_handles == (
        ModuleHandle(0, 0),
        ModuleHandle(1, 6),
        ModuleHandle(1, 8),
    )
    assert module.signatures == (
        (("ref", ("signer",)),),  # increment's parameters
        (),  # its returns, emit's returns, its locals... (the empty signature, once)
        (("address",),),  # address_of's returns
        (("tparam", 0),),  # emit's parameters
        (("struct", 1),),  # emit<Incremented>'s type arguments
        (("address",), ("mut_ref", ("struct", 0))),  # increment's locals
        (("u64",),),  # get's returns
    )
    assert module.function_handles[2] == FunctionHandle(2, 9, 3, 1, (0x2 | 0x4,), None, ())
    assert module.function_instantiations == (FunctionInstantiation(2, 4),)
    increment, get = module.function_defs
    assert increment.is_entry
    assert increment.visibility == 1
    assert increment.acquires == (0,)
    assert increment.code is not None
    assert increment.code.locals == 5
    assert get.code is not None
    assert get.code.code[2] == Instruction(Op.BR_TRUE, 5)


def test_labels_become_the_offsets_of_the_instructions_they_mark() -> None:
    module = EXAMPLES["vault"].build("0xcafe").build()
    withdraw = module.find_function_def("withdraw")
    assert withdraw is not None
    assert withdraw.code is not None
    branches = [i for i in withdraw.code.code if i.op == Op.BR_FALSE]
    # no_vault, not_owner, insufficient: the three abort blocks after the Ret at 30.
    assert branches == [
        Instruction(Op.BR_FALSE, 31),
        Instruction(Op.BR_FALSE, 34),
        Instruction(Op.BR_FALSE, 37),
    ]
    assert withdraw.code.code[30] == Instruction(Op.RET, None)
    assert withdraw.code.code[31] == Instruction(Op.LD_U64, 3)


def test_generic_operands_pick_the_generic_instructions() -> None:
    module = EXAMPLES["container"].build("0xcafe").build()
    put = module.find_function_def("put")
    assert put is not None
    assert put.code is not None
    ops = [i.op for i in put.code.code]
    assert ops == [
        Op.COPY_LOC,
        Op.CALL,
        Op.ST_LOC,
        Op.COPY_LOC,
        Op.EXISTS_GENERIC,
        Op.BR_TRUE,
        Op.COPY_LOC,
        Op.VEC_PACK,
        Op.PACK_GENERIC,
        Op.MOVE_TO_GENERIC,
        Op.MOVE_LOC,
        Op.MUT_BORROW_GLOBAL_GENERIC,
        Op.MUT_BORROW_FIELD_GENERIC,
        Op.MOVE_LOC,
        Op.VEC_PUSH_BACK,
        Op.RET,
    ]
    # One instantiation Box<T> serves Exists, Pack, MoveTo and MutBorrowGlobal.
    assert len(module.struct_def_instantiations) == 1
    assert put.code.code[7] == Instruction(Op.VEC_PACK, (4, 0))
    assert module.signatures[4] == (("tparam", 0),)
    assert module.struct_handles[0].type_parameters[0].constraints == 0x4
    put_number = module.find_function_def("put_number")
    assert put_number is not None
    assert put_number.code is not None
    assert put_number.code.code[2].op == Op.CALL_GENERIC


def test_an_empty_struct_gets_the_compilers_dummy_field_and_constants_are_pooled() -> None:
    module = EXAMPLES["moon_coin"].build("0xcafe").build()
    (coin,) = module.struct_defs
    assert coin.fields is not None
    assert module.identifier(coin.fields[0].name) == "dummy_field"
    assert module.struct_handles[coin.struct_handle].abilities == 0
    assert [(c.type_, c.data) for c in module.constant_pool] == [
        (("vector", ("u8",)), b"\x09Moon Coin"),
        (("vector", ("u8",)), b"\x04MOON"),
    ]


def test_the_script_tables_written_out() -> None:
    script = EXAMPLES["two_signer_transfer"].build("0xcafe").build()
    assert script == CompiledScript(
        version=8,
        module_handles=(ModuleHandle(0, 0), ModuleHandle(0, 2)),
        struct_handles=(),
        function_handles=(
            FunctionHandle(0, 1, 1, 2, (), None, ()),
            FunctionHandle(1, 3, 3, 4, (0,), None, ()),
        ),
        function_instantiations=(FunctionInstantiation(1, 5),),
        signatures=(
            (("ref", ("signer",)), ("ref", ("signer",)), ("u64",)),
            (("ref", ("signer",)),),
            (("address",),),
            (("ref", ("signer",)), ("address",), ("u64",)),
            (),
            (("tparam", 0),),
        ),
        identifiers=("signer", "address_of", "coin", "transfer"),
        address_identifiers=(ONE,),
        constant_pool=(),
        metadata=(),
        code=CodeUnit(
            4,
            (
                Instruction(Op.MOVE_LOC, 0),
                Instruction(Op.MOVE_LOC, 1),
                Instruction(Op.CALL, 0),
                Instruction(Op.MOVE_LOC, 2),
                Instruction(Op.CALL_GENERIC, 0),
                Instruction(Op.RET, None),
            ),
        ),
        type_parameters=(0,),
        parameters=0,
        access_specifiers=None,
    )


# -- metadata ------------------------------------------------------------------------------


def test_events_and_views_in_the_metadata_v1_entry() -> None:
    (entry,) = EXAMPLES["counter"].build("0xcafe").build().metadata
    assert entry.key == b"aptos::metadata_v1"
    assert (
        entry.value
        == bytes.fromhex(
            "00"  # error_map: empty
            "01" + "0b" + b"Incremented".hex() + "01" + "04" + "00"  # struct_attributes: event
            "01" + "03" + b"get".hex() + "01" + "01" + "00"  # fun_attributes: view
        )
    )


def test_the_error_map_in_the_metadata_v1_entry() -> None:
    (entry,) = EXAMPLES["vault"].build("0xcafe").build().metadata
    reader = Deserializer(entry.value)
    errors = reader.sequence(lambda: (reader.u64(), reader.string(), reader.string()))
    assert errors == [
        (1, "E_NOT_OWNER", "The caller is not the vault's owner."),
        (2, "E_INSUFFICIENT_BALANCE", "The vault holds less than the amount asked for."),
        (3, "E_NO_VAULT", "There is no vault at this address."),
    ]
    assert reader.u8() == 0
    assert reader.u8() == 0
    reader.finish()


def test_a_module_without_errors_events_or_views_has_no_metadata() -> None:
    assert EXAMPLES["moon_coin"].build("0xcafe").build().metadata == ()


def test_package_metadata_reads_back_as_code_move_declares_it() -> None:
    source = EXAMPLES["counter"].source
    data = package_metadata("Counter", ["counter"], upgrade_policy="immutable")
    r = Deserializer(data)
    assert r.string() == "Counter"
    assert r.u8() == 2  # immutable
    assert r.u64() == 0
    digest = r.string()
    manifest = gzip.decompress(r.var_bytes()).decode()
    assert manifest.startswith('[package]\nname = "Counter"\n')
    assert 'upgrade_policy = "immutable"' in manifest
    # The package tool's digest: sha256 over the sorted upper-case hex digests of the files.
    manifest_hex = hashlib.sha256(manifest.encode()).hexdigest().upper()
    assert digest == hashlib.sha256(manifest_hex.encode()).hexdigest().upper()
    modules = r.sequence(lambda: (r.string(), r.var_bytes(), r.var_bytes(), r.u8()))
    assert modules == [("counter", b"", b"", 0)]
    deps = r.sequence(lambda: (bytes(r.address()), r.string()))
    assert deps == [(ONE, "AptosFramework"), (ONE, "AptosStdlib"), (ONE, "MoveStdlib")]
    assert r.u8() == 0  # extension: none
    r.finish()
    with_source = Deserializer(EXAMPLES["counter"].package_metadata())
    for read in ("string", "u8", "u64", "string", "var_bytes", "length", "string"):
        getattr(with_source, read)()
    assert gzip.decompress(with_source.var_bytes()).decode() == source


# -- type text and the assembler's errors ---------------------------------------------------


def test_type_text_parses_as_move_writes_it() -> None:
    assert parse_type("&mut vector<u8>") == TypeText(
        "mut_ref", args=(TypeText("vector", args=(TypeText("prim", "u8"),)),)
    )
    string = parse_type("0x1::string::String")
    assert (string.address, string.module, string.name) == (ONE, "string", "String")
    boxed = parse_type("Box<vector<T>>")
    assert boxed.name == "Box"
    assert boxed.args[0].kind == "vector"
    assert abilities("copy, drop, store, key") == 0xF
    assert abilities("store + drop") == 0x6
    decl = parse_function_decl("0x1::m::f<T: key, U>(&signer, T): (u64, vector<U>)")
    assert [p.constraints for p in decl.type_params] == [0x8, 0]
    assert len(decl.params) == 2
    assert len(decl.returns) == 2


@pytest.mark.parametrize(
    "text",
    ["&", "vector<u8", "u8>", "Box<>", "0xzz::m::S", "&mut", "a b", "x" * 5000, "<" * 300],
)
def test_bad_type_text_is_an_assembly_error(text: str) -> None:
    with pytest.raises(AssemblyError):
        parse_type(text)


def _module(**function: Any) -> CompiledModule:
    m = ModuleBuilder("0xcafe", "bad")
    m.struct("S", "key", [("f", "u64")])
    m.function("f", **function)
    return m.build()


@pytest.mark.parametrize(
    ("function", "message"),
    [
        ({"code": [("Frobnicate",)]}, "unknown instruction"),
        ({"code": [("LdU8", 256)]}, "does not fit u8"),
        ({"code": [("LdI8", -129)]}, "does not fit i8"),
        ({"code": [("Branch", "nowhere")]}, "no label"),
        ({"code": [("Label", "a"), ("Label", "a"), "Ret"]}, "repeated label"),
        ({"code": [("MoveLoc", 256)]}, "not a local"),
        ({"code": [("Call", "0x1::nowhere::f")]}, "undeclared function"),
        ({"code": [("Call", "0x1::event::emit")]}, "takes 1 type arguments"),
        ({"code": [("Pack", "T")]}, "no struct"),
        ({"code": [("ImmBorrowField", "S.g")]}, "no field"),
        ({"code": [("ImmBorrowField", "S")]}, "Struct.field"),
        ({"code": [("PackGeneric", "S")]}, "needs type arguments"),
        ({"params": ["0x1::nowhere::S"]}, "undeclared struct"),
        ({"params": ["0x1::string::String<u8>"]}, "takes 0 type arguments"),
        ({"acquires": ["Nope"]}, "acquires unknown"),
        ({"code": [("LdConst", "vector<u8>", 7)]}, "not a vector constant"),
        ({"code": [("LdConst", "0x1::string::String", "x")]}, "a constant is a primitive"),
        ({"visibility": "global"}, "unknown visibility"),
    ],
)
def test_what_the_assembler_cannot_build_is_an_assembly_error(
    function: dict[str, Any], message: str
) -> None:
    with pytest.raises(AssemblyError, match=message):
        _module(**function)


def test_the_opcode_table_agrees_with_the_models_op_enum() -> None:
    # Two transcriptions of file_format_common.rs: the assembler's, by the Bytecode enum's
    # names (MoveLoc), and the model's, by the Opcodes enum's names (MOVE_LOC).
    for name, (opcode, _) in {**INSTRUCTIONS, **LITERALS}.items():
        enum_name = "".join(
            ("_" + c if c.isupper() and i else c) for i, c in enumerate(name)
        ).upper()
        assert Op[enum_name] == opcode, name
    assert len(INSTRUCTIONS) + len(LITERALS) == len(Op)


def test_a_script_names_no_module_of_its_own() -> None:
    with pytest.raises(AssemblyError, match="no function"):
        ScriptBuilder(code=[("Call", "main_of_its_own"), "Ret"]).build()


def test_the_examples_are_modules_but_one() -> None:
    assert MODULE_EXAMPLES == (
        "message_board",
        "counter",
        "moon_coin",
        "container",
        "notes",
        "vault",
        "fa_coin",
    )


def test_friends_and_declared_functions_of_other_modules() -> None:
    m = ModuleBuilder("0xcafe", "uses")
    m.declare_struct("0xbeef::registry::Entry<phantom T: key> has store, drop")
    m.declare_function("0xbeef::registry::record<T: key>(&signer, u64): 0xbeef::registry::Entry<T>")
    m.struct("Thing", "key", [("n", "u64")])
    m.friend("0xbeef::registry")
    m.function(
        "go",
        params=["&signer"],
        code=[
            ("MoveLoc", 0),
            ("LdU64", 5),
            ("Call", "0xbeef::registry::record<Thing>"),
            "Pop",
            "Ret",
        ],
    )
    module = m.build()
    beef = bytes(30) + b"\xbe\xef"
    assert module.address_identifiers == (CAFE, beef)
    assert module.friend_decls == (ModuleHandle(1, module.identifiers.index("registry")),)
    (entry,) = [h for h in module.struct_handles if module.identifier(h.name) == "Entry"]
    assert entry.abilities == 0x4 | 0x2
    assert entry.type_parameters[0].is_phantom
    assert entry.type_parameters[0].constraints == 0x8
    check_indices(module)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda m: m.struct("S", "key", [(f"f{i}", "u8") for i in range(256)]), "255 fields"),
        (lambda m: m.function("f", type_params=[f"T{i}" for i in range(256)]), "255 type"),
        (lambda m: m.function("f", params=["u8"] * 257), "256 locals"),
        (lambda m: m.function("f", acquires=["S"] * 256), "255 structs"),
        (lambda m: m.struct("S", "key, fly"), "unknown ability"),
        (lambda m: m.struct("S").struct("S"), "defined twice"),
    ],
)
def test_bounds_of_the_format_are_assembly_errors(build: Any, message: str) -> None:
    with pytest.raises(AssemblyError, match=message):
        build(ModuleBuilder("0xcafe", "big")).build()


def test_locals_by_name_are_the_indices_of_their_declarations() -> None:
    named = ModuleBuilder("0xcafe", "named")
    named.function(
        "f",
        params=["account: &signer", "n: u64"],
        locals=["addr: address"],
        returns=["u64"],
        code=[
            ("MoveLoc", "account"),
            ("Call", "0x1::signer::address_of"),
            ("StLoc", "addr"),
            ("MoveLoc", "n"),
            "Ret",
        ],
    )
    module = named.build()
    assert module.function_defs[0].code is not None
    # MoveLoc account, Call address_of (handle 1: f itself is 0), StLoc addr, MoveLoc n, Ret
    assert [i.arg for i in module.function_defs[0].code.code] == [0, 1, 2, 1, None]
    assert module.signatures[module.function_handles[0].parameters] == (
        ("ref", ("signer",)),
        ("u64",),
    )
    with pytest.raises(AssemblyError, match="no local named"):
        ScriptBuilder(params=["a: u64"], code=[("MoveLoc", "b"), "Pop", "Ret"]).build()


def test_a_listing_shows_the_module_with_names_resolved() -> None:
    tiny = ModuleBuilder("0xcafe", "tiny")
    tiny.function("answer", visibility="public", returns=["u64"], code=[("LdU64", 42), "Ret"])
    assert listing(tiny.build()) == (
        "module 0xcafe::tiny\n  public fun answer(): (u64)\n      0 LdU64 42\n      1 Ret\n"
    )
    text = listing(EXAMPLES["message_board"].build("0xcafe").build())
    assert "  struct MessageHolder has key { message: 0x1::string::String }\n" in text
    assert "     23 CallGeneric 0x1::event::emit<0xcafe::message_board::MessageChange>\n" in text
    assert "      2 BrFalse 8\n" in text
    assert listing(EXAMPLES["two_signer_transfer"].build("0xcafe").build()).startswith(
        "script main(&signer, &signer, u64)\n"
    )
