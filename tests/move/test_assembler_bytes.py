"""The assembler's bytes: a tiny module's and an empty script's worked out by hand from
the binary format, every example and a module with every operand kind read back by the
node's reader as built and rewritten byte for byte, and build_examples' files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from assembler import ModuleBuilder, ScriptBuilder
from assembler.examples import EXAMPLES
from unit_checks import check_indices, check_stack

from ledgerkit.localnet.vm.move import read_module, read_script, write_module, write_script
from ledgerkit.localnet.vm.move._format import CompiledModule

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


@pytest.mark.parametrize(("version", "expected"), [(6, TINY_V6), (8, TINY_V8)])
def test_a_tiny_modules_bytes_worked_out_by_hand(version: int, expected: bytes) -> None:
    assert _tiny(version).to_bytes() == expected


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_every_example_reads_back_as_built_and_rewrites_byte_for_byte(name: str) -> None:
    builder = EXAMPLES[name].build("0xcafe")
    built = builder.build()
    data = builder.to_bytes()
    if isinstance(built, CompiledModule):
        again = read_module(data)
        assert again == built
        assert write_module(again) == data
    else:
        again = read_script(data)
        assert again == built
        assert write_script(again) == data


def test_build_examples_writes_bytecode_metadata_and_sources(tmp_path: Any) -> None:
    from assembler.build_examples import write_examples

    written = write_examples(tmp_path, "0xcafe")
    names = sorted(p.name for p in written)
    assert len(names) == 7 * 4 + 3
    assert "two_signer_transfer.mv" in names
    assert "two_signer_transfer.package.bcs" not in names
    counter = (tmp_path / "counter.mv").read_bytes()
    assert counter[:4] == bytes.fromhex("a11ceb0b")
    assert (tmp_path / "counter.package.bcs").read_bytes()[:9] == b"\x07Counter\x01"


def test_build_examples_writes_the_examples_named(tmp_path: Any) -> None:
    from assembler.build_examples import write_examples

    written = write_examples(tmp_path, "0xcafe", ["counter"])
    assert [p.name for p in written] == [
        "counter.mv",
        "counter.package.bcs",
        "counter.move",
        "counter.listing.txt",
    ]
    with pytest.raises(ValueError, match="no examples named"):
        write_examples(tmp_path, "0xcafe", ["counterr"])


def test_the_notebooks_package_is_the_counter_example(tmp_path: Any) -> None:
    """notebooks/data/move holds what build_examples writes for the counter at the
    embedded node's first dev account (0xe5a8…321d): its files are committed, so a change
    of the assembler that changes them shows here."""
    from assembler.build_examples import write_examples

    committed = Path(__file__).resolve().parents[2] / "notebooks" / "data" / "move"
    address = "0xe5a8c86bd15a035f4d5fcfc1ef37f664ef71f00c4ec940236951820f836c321d"
    for path in write_examples(tmp_path, address, ["counter"]):
        assert (committed / path.name).read_bytes() == path.read_bytes(), path.name
    assert sorted(p.name for p in committed.iterdir()) == [
        "counter.listing.txt",
        "counter.move",
        "counter.mv",
        "counter.package.bcs",
    ]


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


def test_every_operand_kind_reads_back_and_rewrites_byte_for_byte() -> None:
    builder = _kitchen_sink()
    module = builder.build()
    check_indices(module)
    for fd in module.function_defs:
        if fd.code is not None:
            returns = len(module.signatures[module.function_handles[fd.function].return_])
            check_stack(module, fd.code, returns)
    data = builder.to_bytes()
    assert read_module(data) == module
    assert write_module(read_module(data)) == data
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


def test_an_empty_scripts_bytes_worked_out_by_hand() -> None:
    script = ScriptBuilder(code=["Ret"])
    assert script.to_bytes() == EMPTY_SCRIPT_V8
    assert read_script(EMPTY_SCRIPT_V8) == script.build()
