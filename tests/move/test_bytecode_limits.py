"""The binary format's limits (aptos-core's ``file_format_common.rs``) and the node's
bound on a binary's size: the largest value each field holds is read, one more is
refused."""

from __future__ import annotations

import dataclasses

import pytest
from bytecode_samples import layout, small_module, uleb

from ledgerkit.localnet.vm.move import (
    MAX_MODULE_SIZE,
    BytecodeError,
    CodeUnit,
    FunctionDefinition,
    Instruction,
    Op,
    read_module,
    write_module,
)

V6 = "06000000"
V9 = "0900000a"
ADDRESS_ONE = "00" * 31 + "01"


def status_of(binary: bytes, **options: int) -> str:
    with pytest.raises(BytecodeError) as caught:
        read_module(binary, **options)
    return caught.value.status


def named(size: int) -> bytes:
    return layout(V6, [(1, "0000"), (7, uleb(size) + "61" * size), (8, ADDRESS_ONE)])


def with_signature(tokens: str, count: int = 1, version: str = V6) -> bytes:
    return layout(version, [(1, "0000"), (5, uleb(count) + tokens), (7, "014d"), (8, ADDRESS_ONE)])


def test_identifiers_hold_up_to_255_bytes() -> None:
    assert read_module(named(255)).name == "a" * 255
    assert status_of(named(256)) == "MALFORMED"


def test_signature_tokens_nest_up_to_256_deep() -> None:
    # 255 vectors around a u8: 256 nodes on the reader's stack, as aptos-core counts them
    deepest = read_module(with_signature("0a" * 255 + "02")).signatures[0][0]
    for _ in range(255):
        assert deepest[0] == "vector"
        deepest = deepest[1]
    assert deepest == ("u8",)
    assert status_of(with_signature("0a" * 256 + "02")) == "MALFORMED"
    nested = ("u8",)
    for _ in range(256):
        nested = ("vector", nested)
    with pytest.raises(BytecodeError):
        write_module(dataclasses.replace(small_module(6), signatures=((nested,),)))


def test_signatures_hold_up_to_255_tokens() -> None:
    assert len(read_module(with_signature("03" * 255, 255)).signatures[0]) == 255
    assert status_of(with_signature("03" * 256, 256)) == "MALFORMED"


def test_function_types_and_struct_instantiations_take_up_to_255_types() -> None:
    function_type = "10" + "00" + uleb(255) + "00" + "03" * 255  # 255 u64 arguments
    assert len(read_module(with_signature(function_type, version=V9)).signatures[0][0][1]) == 255
    assert status_of(with_signature("10" + "00" + uleb(256) + "00", version=V9)) == "MALFORMED"
    assert status_of(with_signature("0b00" + uleb(256))) == "MALFORMED"


def test_table_indices_go_up_to_65535() -> None:
    last = layout(V6, [(1, "0000"), (7, "014d"), (8, ADDRESS_ONE)], tail=uleb(65535))
    assert status_of(last) == "INDEX_OUT_OF_BOUNDS"  # read, then out of this module's bounds
    over = layout(V6, [(1, "0000"), (7, "014d"), (8, ADDRESS_ONE)], tail=uleb(65536))
    assert status_of(over) == "MALFORMED"


def test_tables_number_at_most_255() -> None:
    assert status_of(bytes.fromhex("a11ceb0b06000000" + uleb(256))) == "MALFORMED"


def test_a_function_has_at_most_255_locals_with_its_parameters() -> None:
    module = small_module(6)  # put(signer): one parameter

    def with_locals(count: int) -> bytes:
        code = CodeUnit(2, (Instruction(Op.RET),))
        return write_module(
            dataclasses.replace(
                module,
                signatures=(*module.signatures, (("u8",),) * count),
                function_defs=(dataclasses.replace(module.function_defs[0], code=code),),
            )
        )

    assert read_module(with_locals(254)).function_defs[0].code == CodeUnit(
        2, (Instruction(Op.RET),)
    )
    assert status_of(with_locals(255)) == "TOO_MANY_LOCALS"


def test_code_holds_up_to_65535_instructions() -> None:
    module = small_module(6)

    def with_code(count: int) -> CodeUnit:
        return CodeUnit(0, (Instruction(Op.RET),) * count)

    biggest = dataclasses.replace(
        module,
        function_defs=(FunctionDefinition(0, 1, True, (), with_code(65535)),),
    )
    binary = write_module(biggest)
    assert len(binary) > MAX_MODULE_SIZE  # so only with a larger bound
    assert status_of(binary) == "EXCEEDED_MAX_TRANSACTION_SIZE"
    code = read_module(binary, max_size=1 << 20).function_defs[0].code
    assert code is not None
    assert len(code.code) == 65535
    too_long = binary.replace(bytes.fromhex("00" + uleb(65535)), bytes.fromhex("00" + uleb(65536)))
    assert status_of(too_long, max_size=1 << 20) == "MALFORMED"


def test_constants_and_metadata_have_size_limits() -> None:
    base = [(1, "0000"), (7, "014d"), (8, ADDRESS_ONE)]
    constant = layout(V6, [*base, (6, "0a02" + uleb(65535) + "00" * 65535)])
    assert len(read_module(constant, max_size=1 << 20).constant_pool[0].data) == 65535
    assert status_of(layout(V6, [*base, (6, "0a02" + uleb(65536))])) == "MALFORMED"
    key = layout(
        V6, [*base[:1], (7, "014d"), (8, ADDRESS_ONE), (0x10, uleb(1023) + "6b" * 1023 + "00")]
    )
    assert read_module(key).metadata[0].key == b"k" * 1023
    assert status_of(layout(V6, [*base, (0x10, uleb(1024))])) == "MALFORMED"


def test_the_node_bounds_a_binarys_size() -> None:
    assert MAX_MODULE_SIZE == 64 * 1024
    at_bound = named(255) + bytes(MAX_MODULE_SIZE - len(named(255)))
    assert status_of(at_bound) == "MALFORMED"  # read (and refused for its trailing bytes)
    assert status_of(at_bound + b"\x00") == "EXCEEDED_MAX_TRANSACTION_SIZE"


def test_versions_beyond_10_stay_unknown_whatever_is_asked() -> None:
    v10 = small_module(10)
    assert read_module(write_module(v10), max_version=10).version == 10
    eleven = bytes.fromhex("a11ceb0b0b00000a00")
    assert status_of(eleven, max_version=99) == "UNKNOWN_VERSION"
