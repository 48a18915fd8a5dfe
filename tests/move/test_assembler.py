"""The test-only Move assembler: every example builds, every index of what it builds
resolves, tables are interned in the compiler's order, the metadata it writes is the BCS
aptos-core reads, and its bytes round-trip through the node's reader and writer.

Expected values are written out: table contents and branch offsets counted from the
examples' sources, a tiny module's bytes worked out by hand from the binary format."""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Iterator
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

# -- every index resolves (an independent walk over the tables) --------------------------


def _tokens(tok: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    yield tok
    if tok[0] in ("vector", "ref", "mut_ref"):
        yield from _tokens(tok[1])
    elif tok[0] == "struct_inst":
        for arg in tok[2]:
            yield from _tokens(arg)


def _check_signature_tokens(unit: CompiledModule | CompiledScript) -> None:
    for sig in unit.signatures:
        for top in sig:
            for tok in _tokens(top):
                if tok[0] in ("struct", "struct_inst"):
                    assert tok[1] < len(unit.struct_handles)


def _check_common(unit: CompiledModule | CompiledScript) -> None:
    n_id, n_addr = len(unit.identifiers), len(unit.address_identifiers)
    n_sig, n_mod = len(unit.signatures), len(unit.module_handles)
    assert all(len(a) == 32 for a in unit.address_identifiers)
    for mh in unit.module_handles:
        assert mh.address < n_addr
        assert mh.name < n_id
    for sh in unit.struct_handles:
        assert sh.module < n_mod
        assert sh.name < n_id
    for fh in unit.function_handles:
        assert fh.module < n_mod
        assert fh.name < n_id
        assert fh.parameters < n_sig
        assert fh.return_ < n_sig
    for fi in unit.function_instantiations:
        assert fi.handle < len(unit.function_handles)
        assert fi.type_parameters < n_sig
    _check_signature_tokens(unit)


def _check_code(unit: CompiledModule | CompiledScript, code: CodeUnit, n_locals: int) -> None:
    limits = {
        Op.CALL: len(unit.function_handles),
        Op.CALL_GENERIC: len(unit.function_instantiations),
        Op.LD_CONST: len(unit.constant_pool),
    }
    if isinstance(unit, CompiledModule):
        n_defs = len(unit.struct_defs)
        limits |= dict.fromkeys((Op.PACK, Op.UNPACK, Op.EXISTS, Op.MOVE_TO, Op.MOVE_FROM), n_defs)
        limits |= {Op.MUT_BORROW_GLOBAL: n_defs, Op.IMM_BORROW_GLOBAL: n_defs}
        n_inst = len(unit.struct_def_instantiations)
        for op in (Op.PACK_GENERIC, Op.EXISTS_GENERIC, Op.MOVE_TO_GENERIC):
            limits[op] = n_inst
        limits |= {Op.MUT_BORROW_GLOBAL_GENERIC: n_inst, Op.IMM_BORROW_GLOBAL_GENERIC: n_inst}
        limits |= {Op.IMM_BORROW_FIELD: len(unit.field_handles)}
        limits |= {Op.MUT_BORROW_FIELD: len(unit.field_handles)}
        limits |= {Op.IMM_BORROW_FIELD_GENERIC: len(unit.field_instantiations)}
        limits |= {Op.MUT_BORROW_FIELD_GENERIC: len(unit.field_instantiations)}
    assert code.locals < len(unit.signatures)
    for ins in code.code:
        if ins.op in limits:
            assert ins.arg < limits[ins.op], ins
        elif ins.op in (Op.BR_TRUE, Op.BR_FALSE, Op.BRANCH):
            assert ins.arg < len(code.code)
        elif ins.op in (Op.COPY_LOC, Op.MOVE_LOC, Op.ST_LOC, Op.IMM_BORROW_LOC):
            assert ins.arg < n_locals
        elif ins.op in (Op.VEC_PACK, Op.VEC_UNPACK):
            assert ins.arg[0] < len(unit.signatures)
        elif ins.op in (Op.VEC_LEN, Op.VEC_PUSH_BACK, Op.VEC_POP_BACK, Op.VEC_MUT_BORROW):
            assert ins.arg < len(unit.signatures)


def check_indices(unit: CompiledModule | CompiledScript) -> None:
    """Every index of ``unit`` points into its table."""
    _check_common(unit)
    if isinstance(unit, CompiledScript):
        assert unit.parameters < len(unit.signatures)
        n_locals = len(unit.signatures[unit.parameters]) + len(unit.signatures[unit.code.locals])
        _check_code(unit, unit.code, n_locals)
        return
    assert unit.self_handle < len(unit.module_handles)
    for sd in unit.struct_defs:
        assert sd.struct_handle < len(unit.struct_handles)
        for fd in sd.fields or ():
            assert fd.name < len(unit.identifiers)
    for fh in unit.field_handles:
        assert fh.owner < len(unit.struct_defs)
        assert fh.field < len(unit.struct_defs[fh.owner].fields or ())
    for si in unit.struct_def_instantiations:
        assert si.def_ < len(unit.struct_defs)
        assert si.type_parameters < len(unit.signatures)
    for fi in unit.field_instantiations:
        assert fi.handle < len(unit.field_handles)
    for fd in unit.function_defs:
        assert fd.function < len(unit.function_handles)
        assert all(a < len(unit.struct_defs) for a in fd.acquires)
        if fd.code is not None:
            params = unit.signatures[unit.function_handles[fd.function].parameters]
            _check_code(unit, fd.code, len(params) + len(unit.signatures[fd.code.locals]))


# -- every body keeps its stack balanced (what the bytecode verifier checks first) ----------

_PUSH_ONE = {Op.LD_U8, Op.LD_U16, Op.LD_U32, Op.LD_U64, Op.LD_U128, Op.LD_U256, Op.LD_CONST}
_PUSH_ONE |= {Op.LD_TRUE, Op.LD_FALSE, Op.COPY_LOC, Op.MOVE_LOC, Op.MUT_BORROW_LOC}
_PUSH_ONE |= {Op.IMM_BORROW_LOC, Op.LD_I8, Op.LD_I16, Op.LD_I32, Op.LD_I64, Op.LD_I128}
_PUSH_ONE |= {Op.LD_I256}
_POP_ONE = {Op.POP, Op.ST_LOC, Op.BR_TRUE, Op.BR_FALSE, Op.VEC_IMM_BORROW, Op.VEC_MUT_BORROW}
_POP_ONE |= {Op.ADD, Op.SUB, Op.MUL, Op.MOD, Op.DIV, Op.BIT_OR, Op.BIT_AND, Op.XOR, Op.OR}
_POP_ONE |= {Op.AND, Op.EQ, Op.NEQ, Op.LT, Op.GT, Op.LE, Op.GE, Op.SHL, Op.SHR}
_POP_TWO = {Op.WRITE_REF, Op.MOVE_TO, Op.MOVE_TO_GENERIC, Op.VEC_PUSH_BACK}


def _stack_effect(unit: CompiledModule | CompiledScript, ins: Instruction) -> int:
    if ins.op in _PUSH_ONE:
        return 1
    if ins.op in _POP_ONE:
        return -1
    if ins.op in _POP_TWO:
        return -2
    if ins.op in (Op.CALL, Op.CALL_GENERIC):
        handle = ins.arg if ins.op == Op.CALL else unit.function_instantiations[ins.arg].handle
        fh = unit.function_handles[handle]
        return len(unit.signatures[fh.return_]) - len(unit.signatures[fh.parameters])
    if ins.op in (Op.PACK, Op.PACK_GENERIC):
        assert isinstance(unit, CompiledModule)
        def_ = ins.arg if ins.op == Op.PACK else unit.struct_def_instantiations[ins.arg].def_
        return 1 - len(unit.struct_defs[def_].fields or ())
    if ins.op in (Op.UNPACK, Op.UNPACK_GENERIC):
        assert isinstance(unit, CompiledModule)
        def_ = ins.arg if ins.op == Op.UNPACK else unit.struct_def_instantiations[ins.arg].def_
        return len(unit.struct_defs[def_].fields or ()) - 1
    if ins.op == Op.VEC_PACK:
        return 1 - int(ins.arg[1])
    if ins.op == Op.VEC_UNPACK:
        return int(ins.arg[1]) - 1
    if ins.op == Op.VEC_SWAP:
        return -3
    return 0  # field and global borrows, reads, casts, FreezeRef, Branch...


def check_stack(unit: CompiledModule | CompiledScript, code: CodeUnit, returns: int) -> None:
    """Each instruction is reached at one stack height, never below what it pops; Ret
    leaves the function's results, Abort its code."""
    heights: dict[int, int] = {0: 0}
    todo = [0]
    while todo:
        pc = todo.pop()
        ins = code.code[pc]
        height = heights[pc] + _stack_effect(unit, ins)
        assert height >= 0, (pc, ins)
        if ins.op == Op.RET:
            assert heights[pc] == returns, (pc, heights[pc])
            continue
        if ins.op == Op.ABORT:
            assert heights[pc] == 1, pc
            continue
        successors = [] if ins.op == Op.BRANCH else [pc + 1]
        if ins.op in (Op.BR_TRUE, Op.BR_FALSE, Op.BRANCH):
            successors.append(ins.arg)
        for nxt in successors:
            if nxt in heights:
                assert heights[nxt] == height, (pc, nxt)
            else:
                heights[nxt] = height
                todo.append(nxt)
    assert len(heights) == len(code.code)  # no unreachable instruction


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
        ScriptBuilder(code=[("Call", "helper"), "Ret"]).build()


# -- bytes: the model's writer and reader ----------------------------------------------------


def _tiny(version: int) -> ModuleBuilder:
    m = ModuleBuilder("0xcafe", "tiny", version=version)
    m.function("answer", visibility="public", returns=["u64"], code=[("LdU64", 42), "Ret"])
    return m


#: ``module 0xcafe::tiny { public fun answer(): u64 { 42 } }`` at version 6, by hand:
#: header, six table headers (kind, offset, size), the tables, the self handle index.
TINY_V6 = bytes.fromhex(
    "a11ceb0b"
    "06000000"  # magic, version 6
    "06"  # six tables
    "010002"  # module handles at 0, 2 bytes
    "030205"  # function handles at 2, 5 bytes
    "050703"  # signatures at 7, 3 bytes
    "070a0c"  # identifiers at 10, 12 bytes
    "081620"  # address identifiers at 22, 32 bytes
    "0c3610"  # function definitions at 54, 16 bytes
    "0000"  # module handle: address 0, name 0
    "0001000100"  # function handle: module 0, name 1, params sig 0, returns sig 1, no tparams
    "00"
    "0103"  # signatures: [], [u64]
    "0474696e79"
    "06616e73776572" + "00" * 30 + "cafe"  # identifiers: "tiny", "answer"  # address 0xcafe
    "00"
    "01"
    "00"
    "00"  # definition: handle 0, public, no flags, acquires nothing
    "00"
    "02"
    "062a00000000000000"
    "02"  # locals sig 0, two instructions: LdU64 42, Ret
    "00"  # self module handle 0
)

#: The same at version 8: the version word carries Aptos' 0x0A mask, and each function
#: handle ends with its access specifiers (0x01: none) and attributes (0x00: none).
TINY_V8 = bytes.fromhex(
    "a11ceb0b"
    "0800000a"
    "06"
    "010002"
    "030207"
    "050903"
    "070c0c"
    "081820"
    "0c3810"
    "0000"
    "00010001000100"
    "000103"
    "0474696e7906616e73776572" + "00" * 30 + "cafe"
    "00010000"
    "0002062a0000000000000002"
    "00"
)


@pytest.fixture(scope="module")
def codec() -> Any:
    return pytest.importorskip("ledgerkit.localnet.vm.move._writer")


@pytest.fixture(scope="module")
def reader() -> Any:
    return pytest.importorskip("ledgerkit.localnet.vm.move._reader")


@pytest.mark.parametrize(("version", "expected"), [(6, TINY_V6), (8, TINY_V8)])
def test_a_tiny_modules_bytes_worked_out_by_hand(codec: Any, version: int, expected: bytes) -> None:
    assert _tiny(version).to_bytes() == expected


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_every_example_reads_back_as_built_and_rewrites_byte_for_byte(
    codec: Any, reader: Any, name: str
) -> None:
    builder = EXAMPLES[name].build("0xcafe")
    built = builder.build()
    data = builder.to_bytes()
    if isinstance(built, CompiledModule):
        again = reader.read_module(data)
        assert again == built
        assert codec.write_module(again) == data
    else:
        again = reader.read_script(data)
        assert again == built
        assert codec.write_script(again) == data


def test_the_examples_are_modules_but_one() -> None:
    assert MODULE_EXAMPLES == (
        "message_board",
        "counter",
        "moon_coin",
        "container",
        "notes",
        "vault",
    )


def test_build_examples_writes_bytecode_metadata_and_sources(codec: Any, tmp_path: Any) -> None:
    from assembler.build_examples import write_examples

    written = write_examples(tmp_path, "0xcafe")
    names = sorted(p.name for p in written)
    assert len(names) == 6 * 4 + 3
    assert "two_signer_transfer.mv" in names
    assert "two_signer_transfer.package.bcs" not in names
    counter = (tmp_path / "counter.mv").read_bytes()
    assert counter[:4] == bytes.fromhex("a11ceb0b")
    assert (tmp_path / "counter.package.bcs").read_bytes()[:9] == b"\x07Counter\x01"


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


def _kitchen_sink() -> ModuleBuilder:
    """A module (version 9, for the signed integers) using every operand kind."""
    m = ModuleBuilder("0xcafe", "sink", version=9)
    m.constant("OWNERS", "vector<address>", ["0x1", "0xcafe"])
    m.constant("WORDS", "vector<vector<u8>>", [b"a", b"bc"])
    m.struct("Pair", "copy, drop, store, key", [("a", "u64"), ("b", "vector<u8>")])
    m.struct("Wrap", "key", [("inner", "T")], type_params=["T: store"])
    m.struct("Handle", "store", None)
    m.function("native_hash", params=["vector<u8>"], returns=["u256"], code=None)
    m.function(
        "everything",
        visibility="friend",
        params=["&signer", "address"],
        returns=["u128"],
        locals=["Pair", "vector<u64>", "i64"],
        acquires=["Pair"],
        code=[
            ("LdConst", "OWNERS"),
            "Pop",
            ("LdConst", "WORDS"),
            "Pop",
            ("LdConst", "u128", 2**128 - 1),
            "Pop",
            ("LdConst", "bool", True),
            "Pop",
            ("LdConst", "i16", -2),
            "Pop",
            ("LdU16", 65535),
            "CastU32",
            "CastU64",
            ("LdU32", 2**32 - 1),
            "CastU64",
            "Add",
            ("LdU256", 2**256 - 1),
            "Pop",
            ("LdI8", -128),
            "CastI64",
            ("LdI256", -(2**255)),
            "Pop",
            ("StLoc", 4),
            ("LdU8", 3),
            "Shl",
            ("LdConst", "vector<u8>", "xy"),
            ("Pack", "Pair"),
            ("StLoc", 2),
            ("LdU64", 1),
            ("LdU64", 2),
            ("VecPack", "u64", 2),
            ("StLoc", 3),
            ("MutBorrowLoc", 3),
            ("LdU64", 0),
            ("LdU64", 1),
            ("VecSwap", "u64"),
            ("ImmBorrowLoc", 3),
            ("LdU64", 0),
            ("VecImmBorrow", "u64"),
            "ReadRef",
            "Pop",
            ("MoveLoc", 3),
            ("VecUnpack", "u64", 2),
            "Pop",
            "Pop",
            ("MoveLoc", 2),
            ("Unpack", "Pair"),
            "Pop",
            "Pop",
            ("MoveLoc", 1),
            ("MoveFrom", "Pair"),
            "Pop",
            ("MoveLoc", 0),
            "Pop",
            ("LdConst", "vector<u8>", b""),
            ("Call", "native_hash"),
            "Pop",
            ("LdU128", 2**128 - 1),
            "Ret",
        ],
    )
    m.function(
        "unwrap",
        type_params=["T: store"],
        params=["address"],
        returns=["T"],
        acquires=["Wrap"],
        code=[("MoveLoc", 0), ("MoveFrom", "Wrap<T>"), ("Unpack", "Wrap<T>"), "Ret"],
    )
    m.friend("0x1::coin")
    return m


def test_every_operand_kind_reads_back_and_rewrites_byte_for_byte(codec: Any, reader: Any) -> None:
    builder = _kitchen_sink()
    module = builder.build()
    check_indices(module)
    for fd in module.function_defs:
        if fd.code is not None:
            returns = len(module.signatures[module.function_handles[fd.function].return_])
            check_stack(module, fd.code, returns)
    data = builder.to_bytes()
    assert reader.read_module(data) == module
    assert codec.write_module(reader.read_module(data)) == data
    assert module.find_function_def("native_hash").code is None  # type: ignore[union-attr]
    assert module.struct_defs[2].fields is None  # native
    everything = module.find_function_def("everything")
    assert everything is not None
    assert everything.visibility == 0x3
    assert [(c.type_, c.data.hex()) for c in module.constant_pool] == [
        (("vector", ("address",)), "02" + "00" * 31 + "01" + "00" * 30 + "cafe"),
        (("vector", ("vector", ("u8",))), "020161026263"),
        (("u128",), "ff" * 16),
        (("bool",), "01"),
        (("i16",), "feff"),
        (("vector", ("u8",)), "027879"),
        (("vector", ("u8",)), "00"),
    ]


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


#: ``script { fun main() {} }`` at version 8, by hand: one table (the signature pool holds
#: only the empty signature), then main: no type parameters, parameters signature 0,
#: access specifiers none (0x01), locals signature 0, one instruction (Ret).
EMPTY_SCRIPT_V8 = bytes.fromhex(
    "a11ceb0b"
    "0800000a"
    "01"  # one table
    "050001"  # signatures at 0, 1 byte
    "00"  # the empty signature
    "00"  # no type parameters
    "00"  # parameters: signature 0
    "01"  # access specifiers: none
    "00"  # locals: signature 0
    "01"  # one instruction
    "02"  # Ret
)


def test_an_empty_scripts_bytes_worked_out_by_hand(codec: Any, reader: Any) -> None:
    script = ScriptBuilder(code=["Ret"])
    assert script.to_bytes() == EMPTY_SCRIPT_V8
    assert reader.read_script(EMPTY_SCRIPT_V8) == script.build()


def test_a_listing_shows_the_module_with_names_resolved() -> None:
    assert listing(_tiny(8).build()) == (
        "module 0xcafe::tiny\n  public fun answer(): (u64)\n      0 LdU64 42\n      1 Ret\n"
    )
    text = listing(EXAMPLES["message_board"].build("0xcafe").build())
    assert "  struct MessageHolder has key { message: 0x1::string::String }\n" in text
    assert "     23 CallGeneric 0x1::event::emit<0xcafe::message_board::MessageChange>\n" in text
    assert "      2 BrFalse 8\n" in text
    assert listing(EXAMPLES["two_signer_transfer"].build("0xcafe").build()).startswith(
        "script main(&signer, &signer, u64)\n"
    )
