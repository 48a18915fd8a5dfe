"""Calls, returns and aborts; the standard library's natives and the framework
functions the interpreter runs itself; the host's bridge and linking errors."""

from __future__ import annotations

import pytest
from interp_kit import ADDRESS, BOOL, SIGNER, U8, U64, DictHost, Mod, Op, code, run

from ledgerkit.localnet.vm.framework._context import MoveAbortError
from ledgerkit.localnet.vm.move._format import VISIBILITY_PRIVATE
from ledgerkit.localnet.vm.move._interp_errors import MoveExecutionError
from ledgerkit.localnet.vm.move._values import (
    AddressValue,
    SignerValue,
    U8Value,
    U64Value,
    VectorValue,
)

STD = bytes(31) + b"\x01"
CAFE = bytes(30) + b"\xca\xfe"
BYTES = ("vector", U8)
STRING = ("struct", 0)


def text(value: object) -> bytes:
    assert isinstance(value, VectorValue)
    return bytes(value.elems)


def bytes_arg(data: bytes) -> VectorValue:
    return VectorValue("u8", [U8Value(b) for b in data])


def test_recursive_factorial() -> None:
    m = Mod("math")
    fact = m.declare("fact", [U64], [U64])
    # if (n == 0) 1 else n * fact(n - 1)
    m.define(
        fact,
        code(
            (Op.COPY_LOC, 0), (Op.LD_U64, 0), Op.EQ, (Op.BR_FALSE, 6),
            (Op.LD_U64, 1), Op.RET,
            (Op.COPY_LOC, 0), (Op.MOVE_LOC, 0), (Op.LD_U64, 1), Op.SUB, (Op.CALL, fact),
            Op.MUL, Op.RET,
        ),
    )  # fmt: skip
    assert run(m.build(), "fact", [U64Value(20)]) == [2432902008176640000]
    with pytest.raises(MoveExecutionError, match="ARITHMETIC_ERROR"):
        run(m.build(), "fact", [U64Value(21)])  # 21! > 2^64


def test_call_into_another_published_module() -> None:
    lib = Mod("lib", address=0xBEEF)
    lib.fn("double", [U64], [U64], code((Op.COPY_LOC, 0), (Op.MOVE_LOC, 0), Op.ADD, Op.RET))
    lib.fn("secret", [], [U64], code((Op.LD_U64, 1), Op.RET), visibility=VISIBILITY_PRIVATE)
    app = Mod("app")
    double = app.ext_fn(0xBEEF, "lib", "double", [U64], [U64])
    secret = app.ext_fn(0xBEEF, "lib", "secret", [], [U64])
    missing = app.ext_fn(0xBEEF, "lib", "nope", [], [])
    absent = app.ext_fn(0xD00D, "gone", "f", [], [])
    app.fn("f", [], [U64], code((Op.LD_U64, 21), (Op.CALL, double), Op.RET))
    app.fn("g", [], [U64], code((Op.CALL, secret), Op.RET))
    app.fn("h", [], [], code((Op.CALL, missing), Op.RET))
    app.fn("i", [], [], code((Op.CALL, absent), Op.RET))
    host = DictHost(lib.build(), app.build())
    module = app.build()
    assert run(module, "f", host=host) == [42]
    for name, status in (
        ("g", "FUNCTION_RESOLUTION_FAILURE"),
        ("h", "FUNCTION_RESOLUTION_FAILURE"),
        ("i", "LINKER_ERROR"),
    ):
        with pytest.raises(MoveExecutionError) as caught:
            run(module, name, host=host)
        assert caught.value.status == status


def test_entry_arity_and_unknown_function() -> None:
    m = Mod("m")
    m.fn("f", [U64], [], code(Op.RET))
    with pytest.raises(MoveExecutionError, match="NUMBER_OF_ARGUMENTS_MISMATCH"):
        run(m.build(), "f", [])
    with pytest.raises(MoveExecutionError, match="NUMBER_OF_TYPE_ARGUMENTS_MISMATCH"):
        run(m.build(), "f", [U64Value(1)], ["u8"])
    with pytest.raises(MoveExecutionError, match="FUNCTION_RESOLUTION_FAILURE"):
        run(m.build(), "g")


def test_abort_carries_code_and_location() -> None:
    m = Mod("guard")
    inner = m.fn("check", [], [], code((Op.LD_U64, 0x10007), Op.ABORT))
    m.fn("outer", [], [], code((Op.CALL, inner), Op.RET))
    with pytest.raises(MoveExecutionError) as caught:
        run(m.build(), "outer")
    error = caught.value
    assert (error.status, error.abort_code) == ("ABORTED", 0x10007)
    assert error.location == (CAFE, "guard")
    assert error.function == "check"
    assert error.vm_status == "Move abort in 0xcafe::guard: 0x10007"


def test_vector_and_signer_natives() -> None:
    m = Mod("nat")
    empty = m.fn_inst(m.ext_fn(1, "vector", "empty", [], [("vector", ("tparam", 0))], 1), U64)
    push = m.fn_inst(
        m.ext_fn(
            1, "vector", "push_back", [("mut_ref", ("vector", ("tparam", 0))), ("tparam", 0)], [], 1
        ),
        U64,
    )
    length = m.fn_inst(
        m.ext_fn(1, "vector", "length", [("ref", ("vector", ("tparam", 0)))], [U64], 1), U64
    )
    destroy = m.fn_inst(
        m.ext_fn(1, "vector", "destroy_empty", [("vector", ("tparam", 0))], [], 1), U64
    )
    borrow_address = m.ext_fn(1, "signer", "borrow_address", [("ref", SIGNER)], [("ref", ADDRESS)])
    m.fn(
        "f",
        [("ref", SIGNER)],
        [U64, ADDRESS],
        code(
            (Op.CALL_GENERIC, empty), (Op.ST_LOC, 1),
            (Op.MUT_BORROW_LOC, 1), (Op.LD_U64, 5), (Op.CALL_GENERIC, push),
            (Op.IMM_BORROW_LOC, 1), (Op.CALL_GENERIC, length),
            (Op.MOVE_LOC, 0), (Op.CALL, borrow_address), Op.READ_REF,
            Op.RET,
        ),
        locals_=[("vector", U64)],
    )  # fmt: skip
    m.fn(
        "g",
        [],
        [],
        code((Op.LD_U64, 1), (Op.VEC_PACK, (m.sig(U64), 1)), (Op.CALL_GENERIC, destroy), Op.RET),
    )
    module = m.build()
    from ledgerkit.localnet.vm.move._values import Reference

    signer = Reference([SignerValue(CAFE)], 0, False)
    n, address = run(module, "f", [signer])
    assert n == 1
    assert address == CAFE
    assert isinstance(address, AddressValue)
    with pytest.raises(MoveExecutionError) as caught:
        run(module, "g")
    assert (caught.value.status, caught.value.sub_status) == ("VECTOR_OPERATION_ERROR", 3)


def test_hash_and_bcs_natives() -> None:
    m = Mod("h")
    sha2 = m.ext_fn(1, "hash", "sha2_256", [BYTES], [BYTES])
    sha3 = m.ext_fn(1, "hash", "sha3_256", [BYTES], [BYTES])
    to_bytes = m.fn_inst(m.ext_fn(1, "bcs", "to_bytes", [("ref", ("tparam", 0))], [BYTES], 1), U64)
    m.fn("sha2", [BYTES], [BYTES], code((Op.MOVE_LOC, 0), (Op.CALL, sha2), Op.RET))
    m.fn("sha3", [BYTES], [BYTES], code((Op.MOVE_LOC, 0), (Op.CALL, sha3), Op.RET))
    m.fn("bcs", [U64], [BYTES], code((Op.IMM_BORROW_LOC, 0), (Op.CALL_GENERIC, to_bytes), Op.RET))
    module = m.build()
    # FIPS 180-2 / FIPS 202 test vectors for "abc"
    assert text(run(module, "sha2", [bytes_arg(b"abc")])[0]).hex() == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )
    assert text(run(module, "sha3", [bytes_arg(b"abc")])[0]).hex() == (
        "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"
    )
    assert text(run(module, "bcs", [U64Value(0x0102)])[0]) == b"\x02\x01\x00\x00\x00\x00\x00\x00"


def string_module() -> Mod:
    m = Mod("s")
    m.ext_struct(1, "string", "String")  # struct handle 0
    utf8 = m.ext_fn(1, "string", "utf8", [BYTES], [STRING])
    sub = m.ext_fn(1, "string", "sub_string", [("ref", STRING), U64, U64], [STRING])
    length = m.ext_fn(1, "string", "length", [("ref", STRING)], [U64])
    m.fn("make", [BYTES], [STRING], code((Op.MOVE_LOC, 0), (Op.CALL, utf8), Op.RET))
    m.fn(
        "sub",
        [BYTES, U64, U64],
        [STRING, U64],
        code(
            (Op.MOVE_LOC, 0), (Op.CALL, utf8), (Op.ST_LOC, 3),
            (Op.IMM_BORROW_LOC, 3), (Op.MOVE_LOC, 1), (Op.MOVE_LOC, 2), (Op.CALL, sub),
            (Op.IMM_BORROW_LOC, 3), (Op.CALL, length), Op.RET,
        ),
        locals_=[STRING],
    )  # fmt: skip
    return m


def test_string_functions() -> None:
    module = string_module().build()
    (value,) = run(module, "make", [bytes_arg("héllo".encode())])
    assert str(value.ty) == "0x1::string::String"
    assert text(value.fields[0]) == "héllo".encode()
    piece, length = run(module, "sub", [bytes_arg("héllo".encode()), U64Value(0), U64Value(3)])
    assert text(piece.fields[0]) == "hé".encode()  # h + two-byte é
    assert length == 6
    with pytest.raises(MoveExecutionError) as caught:
        run(module, "sub", [bytes_arg("héllo".encode()), U64Value(0), U64Value(2)])  # inside é
    assert (caught.value.abort_code, caught.value.location) == (2, (STD, "string"))
    with pytest.raises(MoveExecutionError) as caught:
        run(module, "make", [bytes_arg(b"\xff")])
    assert (caught.value.status, caught.value.abort_code) == ("ABORTED", 1)


def test_error_codes_option_and_type_name() -> None:
    m = Mod("misc")
    m.ext_struct(1, "string", "String")
    invalid = m.ext_fn(1, "error", "invalid_argument", [U64], [U64])
    not_found = m.ext_fn(1, "error", "not_found", [U64], [U64])
    opt = ("struct_inst", m.ext_struct(1, "option", "Option"), (U64,))
    some = m.fn_inst(m.ext_fn(1, "option", "some", [("tparam", 0)], [opt], 1), U64)
    is_some = m.fn_inst(m.ext_fn(1, "option", "is_some", [("ref", opt)], [BOOL], 1), U64)
    name = m.fn_inst(m.ext_fn(1, "type_info", "type_name", [], [STRING], 1), ("vector", U64))
    m.fn(
        "f",
        [],
        [U64, U64, BOOL, STRING],
        code(
            (Op.LD_U64, 3), (Op.CALL, invalid), (Op.LD_U64, 2), (Op.CALL, not_found),
            (Op.LD_U64, 9), (Op.CALL_GENERIC, some), (Op.ST_LOC, 0),
            (Op.IMM_BORROW_LOC, 0), (Op.CALL_GENERIC, is_some), (Op.CALL_GENERIC, name), Op.RET,
        ),
        locals_=[opt],
    )  # fmt: skip
    a, b, present, type_text = run(m.build(), "f")
    assert (a, b, present) == (0x10003, 0x60002, True)
    assert text(type_text.fields[0]) == b"vector<u64>"


def test_event_emit_goes_to_the_host() -> None:
    m = Mod("ev")
    _, def_ = m.struct("Ping", [("n", U64)], abilities=0x6)
    emit = m.fn_inst(m.ext_fn(1, "event", "emit", [("tparam", 0)], [], 1), ("struct", 0))
    m.fn("f", [], [], code((Op.LD_U64, 4), (Op.PACK, def_), (Op.CALL_GENERIC, emit), Op.RET))
    host = DictHost(m.build())
    run(m.build(), "f", host=host)
    ((ty, value),) = host.events
    assert str(ty) == "0xcafe::ev::Ping"
    assert value.fields == [4]


def test_framework_bridge() -> None:
    m = Mod("pay")
    transfer = m.fn_inst(
        m.ext_fn(1, "coin", "transfer", [("ref", SIGNER), ADDRESS, U64], [], 1), ("u8",)
    )
    balance = m.ext_fn(1, "coin", "balance_of", [ADDRESS], [U64])
    missing = m.ext_fn(1, "coin", "nope", [], [])
    m.fn(
        "f",
        [("ref", SIGNER), ADDRESS],
        [U64],
        code(
            (Op.MOVE_LOC, 0), (Op.COPY_LOC, 1), (Op.LD_U64, 100), (Op.CALL_GENERIC, transfer),
            (Op.MOVE_LOC, 1), (Op.CALL, balance), Op.RET,
        ),
    )  # fmt: skip
    m.fn("g", [], [], code((Op.CALL, missing), Op.RET))
    host = DictHost(m.build())
    seen: list[object] = []

    def do_transfer(type_args, args, meter):  # type: ignore[no-untyped-def]
        seen.append((type_args, args[0].read().address, args[1], args[2]))
        meter.charge(1000)
        return []

    host.bridge[("coin", "transfer")] = do_transfer
    host.bridge[("coin", "balance_of")] = lambda ta, args, meter: [U64Value(7)]
    from ledgerkit.localnet.vm.move._values import Reference

    to = AddressValue(bytes(31) + b"\x02")
    assert run(m.build(), "f", [Reference([SignerValue(CAFE)], 0, False), to], host=host) == [7]
    assert seen == [(("u8",), CAFE, to, 100)]
    with pytest.raises(MoveExecutionError, match="LINKER_ERROR"):
        run(m.build(), "g", host=host)

    def aborting(type_args, args, meter):  # type: ignore[no-untyped-def]
        raise MoveAbortError("coin", 0x10006)

    host.bridge[("coin", "balance_of")] = aborting
    with pytest.raises(MoveExecutionError) as caught:
        run(m.build(), "f", [Reference([SignerValue(CAFE)], 0, False), to], host=host)
    assert (caught.value.abort_code, caught.value.location) == (0x10006, (STD, "coin"))


def test_vector_insert_and_option_from_vec() -> None:
    m = Mod("more")
    vec_t = ("vector", ("tparam", 0))
    insert = m.fn_inst(
        m.ext_fn(1, "vector", "insert", [("mut_ref", vec_t), U64, ("tparam", 0)], [], 1), U64
    )
    opt = ("struct_inst", m.ext_struct(1, "option", "Option"), (U64,))
    from_vec = m.fn_inst(m.ext_fn(1, "option", "from_vec", [vec_t], [opt], 1), U64)
    s = m.sig(U64)
    m.fn(
        "ins",
        [U64],
        [("vector", U64)],
        code(
            (Op.LD_U64, 1), (Op.LD_U64, 3), (Op.VEC_PACK, (s, 2)), (Op.ST_LOC, 1),
            (Op.MUT_BORROW_LOC, 1), (Op.MOVE_LOC, 0), (Op.LD_U64, 2), (Op.CALL_GENERIC, insert),
            (Op.MOVE_LOC, 1), Op.RET,
        ),
        locals_=[("vector", U64)],
    )  # fmt: skip
    m.fn(
        "two",
        [],
        [opt],
        code(
            (Op.LD_U64, 1),
            (Op.LD_U64, 2),
            (Op.VEC_PACK, (s, 2)),
            (Op.CALL_GENERIC, from_vec),
            Op.RET,
        ),
    )
    module = m.build()
    assert run(module, "ins", [U64Value(1)])[0].elems == [1, 2, 3]
    assert run(module, "ins", [U64Value(2)])[0].elems == [1, 3, 2]
    with pytest.raises(MoveExecutionError) as caught:
        run(module, "ins", [U64Value(3)])
    assert (caught.value.abort_code, caught.value.location) == (0x20000, (STD, "vector"))
    with pytest.raises(MoveExecutionError) as caught:
        run(module, "two")
    assert (caught.value.abort_code, caught.value.location) == (0x40002, (STD, "option"))
