"""The Move binary format read and written back byte for byte.

Real bytecode (``data/``) comes from the Aptos SDKs' test data and examples: the
TypeScript SDK's end-to-end tests (``transfer``, ``any_authenticator``,
``hello_world_authenticator``, whose publisher address placeholder is filled with
``0xca``; ``tx_args_module``; the permissioned-delegation script) and examples
(``update_jwk`` script), and the Python SDK's ``two_by_two_transfer`` script. What the
tests expect of them (names, parameters, callees) is what those packages' Move sources
declare. Hand-built units (``bytecode_samples``) cover every table kind, every
signature token and every opcode.
"""

from __future__ import annotations

import dataclasses

import pytest
from bytecode_samples import (
    DATA,
    EVERY_TOKEN,
    FIXED_VALUES,
    ONE,
    full_module,
    full_script,
    small_module,
)

from ledgerkit.localnet.vm.move import (
    BytecodeError,
    CompiledModule,
    Instruction,
    ModuleHandle,
    Op,
    read_module,
    read_script,
    write_module,
    write_script,
)

MODULES = [
    "transfer_v6.mv",
    "any_authenticator_v7.mv",
    "hello_world_authenticator_v7.mv",
    "tx_args_module_v7.mv",
]
SCRIPTS = [
    "two_by_two_transfer_script_v5.mv",
    "update_jwk_script_v6.mv",
    "permissioned_delegation_script_v7.mv",
]


@pytest.mark.parametrize("name", MODULES)
def test_real_modules_write_back_byte_for_byte(name: str) -> None:
    binary = (DATA / name).read_bytes()
    assert write_module(read_module(binary)) == binary


@pytest.mark.parametrize("name", SCRIPTS)
def test_real_scripts_write_back_byte_for_byte(name: str) -> None:
    binary = (DATA / name).read_bytes()
    assert write_script(read_script(binary)) == binary


def test_a_real_module_reads_as_its_source_declares() -> None:
    module = read_module((DATA / "transfer_v6.mv").read_bytes())
    assert module.version == 6
    assert module.name == "transfer"
    assert module.address == bytes(31) + b"\xca"
    assert [module.function_name(f.function) for f in module.function_defs] == [
        "transfer",
        "two_by_two",
    ]
    callees = {module.function_name(i) for i in range(len(module.function_handles))}
    assert {"withdraw", "deposit", "merge", "extract"} <= callees
    assert module.module_id(1) == (ONE, "aptos_coin")
    assert module.find_function_def("two_by_two") is module.function_defs[1]
    assert module.find_function_def("nope") is None


def test_real_v7_modules_carry_their_metadata() -> None:
    module = read_module((DATA / "hello_world_authenticator_v7.mv").read_bytes())
    assert (module.version, module.name) == (7, "hello_world_authenticator")
    assert [entry.key for entry in module.metadata] == [
        b"compilation_metadata",
        b"aptos::metadata_v1",
    ]
    assert module.find_function_def("authenticate") is not None
    args = read_module((DATA / "tx_args_module_v7.mv").read_bytes())
    assert args.name == "tx_args_module"
    assert args.find_function_def("init_module") is not None
    assert args.find_struct_def("nope") is None


def test_a_real_script_reads_as_its_source_declares() -> None:
    script = read_script((DATA / "two_by_two_transfer_script_v5.mv").read_bytes())
    assert script.version == 5
    assert script.type_parameters == ()
    assert script.signature(script.parameters) == (
        ("ref", ("signer",)),
        ("ref", ("signer",)),
        ("u64",),
        ("u64",),
        ("address",),
        ("address",),
        ("u64",),
    )
    assert [script.function_name(i) for i in range(len(script.function_handles))] == [
        "withdraw",
        "merge",
        "extract",
        "deposit",
    ]
    assert script.code.code[-1] == Instruction(Op.RET)


def test_the_writer_lays_a_module_out_as_the_serializer_does() -> None:
    # Module 0x1::M, no functions: three tables (module handles, identifiers,
    # addresses), contents back to back, then the self handle.
    module = CompiledModule(
        version=6,
        self_handle=0,
        module_handles=(ModuleHandle(0, 0),),
        identifiers=("M",),
        address_identifiers=(ONE,),
    )
    expected = bytes.fromhex(
        "a11ceb0b"  # magic
        "06000000"  # version 6, no mask before version 7
        "03"  # three tables
        "010002"  # module handles at 0, 2 bytes
        "070202"  # identifiers at 2, 2 bytes
        "080420"  # addresses at 4, 32 bytes
        "0000"  # ModuleHandle(address 0, name 0)
        "014d"  # "M"
        + "00" * 31
        + "01"  # 0x1
        + "00"  # self handle
    )
    assert write_module(module) == expected
    assert read_module(expected) == module


def test_the_version_word_carries_the_aptos_mask_from_version_7() -> None:
    words = {v: write_module(small_module(v))[4:8].hex() for v in range(5, 11)}
    assert words == {
        5: "05000000",
        6: "06000000",
        7: "0700000a",
        8: "0800000a",
        9: "0900000a",
        10: "0a00000a",
    }


@pytest.mark.parametrize("version", [5, 6, 7, 8, 9, 10])
def test_each_version_round_trips(version: int) -> None:
    module = small_module(version)
    binary = write_module(module)
    assert read_module(binary, max_version=10) == module
    assert write_module(read_module(binary, max_version=10)) == binary


@pytest.mark.parametrize("version", [9, 10])
def test_every_table_token_and_opcode_round_trips(version: int) -> None:
    module = full_module(version)
    binary = write_module(module)
    again = read_module(binary, max_version=10)
    assert again == module
    assert write_module(again) == binary
    # every table kind is there, every token and every opcode
    for field in CompiledModule.__dataclass_fields__:
        assert getattr(again, field) not in ((), None), field
    assert set(EVERY_TOKEN) <= set(again.signatures[4])
    code = again.function_defs[0].code
    assert code is not None
    ops = {ins.op for ins in code.code}
    assert ops == set(Op) if version == 10 else ops == set(Op) - {Op.ABORT_MSG}


def test_operands_keep_their_exact_values() -> None:
    code = read_module(write_module(full_module(9))).function_defs[0].code
    assert code is not None
    args = {ins.op: ins.arg for ins in code.code}
    for op, value in FIXED_VALUES.items():
        assert args[op] == value
    assert args[Op.LD_U256] == 2**256 - 1
    assert args[Op.LD_I256] == -(2**255)
    assert args[Op.VEC_PACK] == (1, 2**64 - 1)
    assert args[Op.PACK_CLOSURE_GENERIC] == (0, 2**64 - 1)
    assert args[Op.BR_FALSE] == 1
    assert args[Op.ST_LOC] == 2
    assert isinstance(code.code[0].op, Op)


def test_a_script_with_access_specifiers_round_trips() -> None:
    script = full_script()
    binary = write_script(script)
    assert read_script(binary) == script
    assert write_script(read_script(binary)) == binary


def test_the_writer_refuses_what_the_format_cannot_hold() -> None:
    small = small_module(6)
    too_big = dataclasses.replace(small, self_handle=70000)  # over 65535
    signed_in_v6 = dataclasses.replace(small, signatures=((), (("i8",),)))  # version 9 on
    enum_in_v6 = dataclasses.replace(full_module(9), version=6)  # version 7 on
    for module in (too_big, signed_in_v6, enum_in_v6):
        with pytest.raises(BytecodeError) as caught:
            write_module(module)
        assert caught.value.status == "MALFORMED"
