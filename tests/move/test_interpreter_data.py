"""The interpreter's data instructions: locals and references, structs, enum variants,
vectors and a generic container instantiated two ways."""

from __future__ import annotations

import pytest
from interp_kit import ALL, BOOL, U8, U64, Mod, Op, code, run

from ledgerkit.localnet.vm.move._interp_errors import MoveExecutionError
from ledgerkit.localnet.vm.move._runtime_types import StructType, VectorType, type_name
from ledgerkit.localnet.vm.move._values import StructValue, U8Value, U64Value, VectorValue

CAFE = bytes(30) + b"\xca\xfe"


def point_module() -> tuple[Mod, int]:
    m = Mod("shapes")
    _, point = m.struct("Point", [("x", U64), ("y", U64)])
    return m, point


def test_pack_unpack_round_trip() -> None:
    m, point = point_module()
    # (a, b) -> Point{x: a, y: b} -> unpack -> (b, a)... returns y then x
    m.fn(
        "swap",
        [U64, U64],
        [U64, U64],
        code(
            (Op.MOVE_LOC, 0), (Op.MOVE_LOC, 1), (Op.PACK, point), (Op.UNPACK, point),
            (Op.ST_LOC, 0), (Op.ST_LOC, 1), (Op.MOVE_LOC, 0), (Op.MOVE_LOC, 1), Op.RET,
        ),
    )  # fmt: skip
    assert run(m.build(), "swap", [U64Value(3), U64Value(4)]) == [4, 3]


def test_borrow_field_write_ref_and_read_back() -> None:
    m, point = point_module()
    y = m.field(point, 1)
    # p = Point{1, 2}; *&mut p.y = 20; p
    m.fn(
        "f",
        [],
        [("struct", 0)],
        code(
            (Op.LD_U64, 1), (Op.LD_U64, 2), (Op.PACK, point), (Op.ST_LOC, 0),
            (Op.LD_U64, 20), (Op.MUT_BORROW_LOC, 0), (Op.MUT_BORROW_FIELD, y), Op.WRITE_REF,
            (Op.MOVE_LOC, 0), Op.RET,
        ),
        locals_=[("struct", 0)],
    )  # fmt: skip
    (value,) = run(m.build(), "f")
    assert isinstance(value, StructValue)
    assert value.fields == [1, 20]
    assert type_name(value.ty) == "0xcafe::shapes::Point"


def test_freeze_then_read() -> None:
    m = Mod("refs")
    m.fn(
        "f",
        [U64],
        [U64],
        code((Op.MUT_BORROW_LOC, 0), Op.FREEZE_REF, Op.READ_REF, Op.RET),
    )
    assert run(m.build(), "f", [U64Value(9)]) == [9]


def test_write_through_immutable_reference_is_refused() -> None:
    m = Mod("refs")
    m.fn(
        "f",
        [U64],
        [],
        code((Op.LD_U64, 1), (Op.IMM_BORROW_LOC, 0), Op.WRITE_REF, Op.RET),
    )
    with pytest.raises(MoveExecutionError) as caught:
        run(m.build(), "f", [U64Value(9)])
    assert caught.value.status == "UNKNOWN_INVARIANT_VIOLATION_ERROR"


def test_moved_local_cannot_be_copied() -> None:
    m = Mod("locals")
    m.fn("f", [U64], [U64], code((Op.MOVE_LOC, 0), Op.POP, (Op.COPY_LOC, 0), Op.RET))
    with pytest.raises(MoveExecutionError) as caught:
        run(m.build(), "f", [U64Value(1)])
    assert caught.value.status == "UNKNOWN_INVARIANT_VIOLATION_ERROR"
    assert caught.value.offset == 2


def test_vector_instructions() -> None:
    m = Mod("vec")
    s = m.sig(U64)
    # v = [10, 20, 30]; push 40; swap 0 3; pop -> 10; v[1] = 7 via mut borrow; len
    m.fn(
        "f",
        [],
        [U64, U64, ("vector", U64)],
        code(
            (Op.LD_U64, 10), (Op.LD_U64, 20), (Op.LD_U64, 30), (Op.VEC_PACK, (s, 3)),
            (Op.ST_LOC, 0),
            (Op.MUT_BORROW_LOC, 0), (Op.LD_U64, 40), (Op.VEC_PUSH_BACK, s),
            (Op.MUT_BORROW_LOC, 0), (Op.LD_U64, 0), (Op.LD_U64, 3), (Op.VEC_SWAP, s),
            (Op.MUT_BORROW_LOC, 0), (Op.VEC_POP_BACK, s),
            (Op.LD_U64, 7), (Op.MUT_BORROW_LOC, 0), (Op.LD_U64, 1), (Op.VEC_MUT_BORROW, s),
            Op.WRITE_REF,
            (Op.IMM_BORROW_LOC, 0), (Op.VEC_LEN, s),
            (Op.MOVE_LOC, 0), Op.RET,
        ),
        locals_=[("vector", U64)],
    )  # fmt: skip
    popped, length, vector = run(m.build(), "f")
    assert popped == 10
    assert length == 3
    assert vector.elems == [40, 7, 30]
    assert vector.elem_type == "u64"


@pytest.mark.parametrize(
    ("body", "sub_status"),
    [
        # borrow index 3 of a 3-element vector
        (((Op.IMM_BORROW_LOC, 0), (Op.LD_U64, 3), ("VEC_IMM_BORROW",), Op.POP), 1),
        # pop four times from three
        (((Op.MUT_BORROW_LOC, 0), ("VEC_POP_BACK",), Op.POP) * 4, 2),
        # unpack as four elements
        (((Op.MOVE_LOC, 0), ("VEC_UNPACK", 4)), 4),
    ],
)
def test_vector_operation_errors(body: tuple[object, ...], sub_status: int) -> None:
    m = Mod("vec")
    s = m.sig(U8)
    resolved = []
    for item in body:
        if isinstance(item, tuple) and isinstance(item[0], str):
            op = Op[item[0]]
            resolved.append((op, (s, item[1]) if len(item) > 1 else s))
        else:
            resolved.append(item)
    prologue = ((Op.LD_U8, 1), (Op.LD_U8, 2), (Op.LD_U8, 3), (Op.VEC_PACK, (s, 3)), (Op.ST_LOC, 0))
    m.fn("f", [], [], code(*prologue, *resolved, Op.RET), locals_=[("vector", U8)])
    with pytest.raises(MoveExecutionError) as caught:
        run(m.build(), "f")
    assert caught.value.status == "VECTOR_OPERATION_ERROR"
    assert caught.value.sub_status == sub_status


def test_generic_box_instantiated_two_ways() -> None:
    m = Mod("boxes")
    _, box = m.struct("Box", [("value", ("tparam", 0))], abilities=ALL, tparams=[False])
    # public fun wrap<T>(v: T): Box<T>  and  fun get<T>(b: &Box<T>): T (copy)
    box_t = m.struct_inst(box, ("tparam", 0))
    value_t = m.field_inst(box, 0, ("tparam", 0))
    box_tok = ("struct_inst", 0, (("tparam", 0),))
    wrap = m.fn(
        "wrap",
        [("tparam", 0)],
        [box_tok],
        code((Op.MOVE_LOC, 0), (Op.PACK_GENERIC, box_t), Op.RET),
        tparams=1,
    )
    get = m.fn(
        "get",
        [("ref", box_tok)],
        [("tparam", 0)],
        code((Op.MOVE_LOC, 0), (Op.IMM_BORROW_FIELD_GENERIC, value_t), Op.READ_REF, Op.RET),
        tparams=1,
    )
    wrap_u64 = m.fn_inst(wrap, U64)
    get_u64 = m.fn_inst(get, U64)
    wrap_vec = m.fn_inst(wrap, ("vector", BOOL))
    box_u64 = ("struct_inst", 0, (U64,))
    box_vec = ("struct_inst", 0, (("vector", BOOL),))
    s = m.sig(BOOL)
    m.fn(
        "main",
        [],
        [U64, box_vec],
        code(
            (Op.LD_U64, 77), (Op.CALL_GENERIC, wrap_u64), (Op.ST_LOC, 0),
            (Op.IMM_BORROW_LOC, 0), (Op.CALL_GENERIC, get_u64),
            Op.LD_TRUE, Op.LD_FALSE, (Op.VEC_PACK, (s, 2)), (Op.CALL_GENERIC, wrap_vec),
            Op.RET,
        ),
        locals_=[box_u64],
    )  # fmt: skip
    got, boxed = run(m.build(), "main")
    assert got == 77
    assert boxed.ty == StructType(CAFE, "boxes", "Box", (VectorType("bool"),), ALL)
    assert type_name(boxed.ty) == "0xcafe::boxes::Box<vector<bool>>"
    assert boxed.fields[0].elems == [True, False]


def test_phantom_and_ability_computation() -> None:
    m = Mod("ab")
    _, holder = m.struct("Holder", [("v", ("tparam", 0))], abilities=ALL | 0x8, tparams=[False])
    _, tag = m.struct("Tag", [("n", U8)], abilities=0x8 | 0x4, tparams=[True])
    # Holder<signer>: signer has only drop; Holder keeps drop, loses copy/store/key
    from ledgerkit.localnet.vm.move._runtime_types import instantiate

    module = m.build()
    assert instantiate(module, ("struct_inst", 0, (("signer",),)), ()).abilities == 0x2  # type: ignore[union-attr]
    assert instantiate(module, ("struct_inst", 0, (U64,)), ()).abilities == 0xF  # type: ignore[union-attr]
    # a phantom parameter does not constrain: Tag<signer> keeps key + store
    assert instantiate(module, ("struct_inst", 1, (("signer",),)), ()).abilities == 0xC  # type: ignore[union-attr]
    assert (holder, tag) == (0, 1)


def test_enum_variants() -> None:
    m = Mod("shapes")
    _, shape = m.struct(
        "Shape", None, variants=[("Circle", [("r", U64)]), ("Rect", [("w", U64), ("h", U64)])]
    )
    circle, rect = m.variant(shape, 0), m.variant(shape, 1)
    r_field = m.variant_field(shape, (0,), 0)
    shape_tok = ("struct", 0)
    m.fn("circle", [U64], [shape_tok], code((Op.MOVE_LOC, 0), (Op.PACK_VARIANT, circle), Op.RET))
    m.fn(
        "rect",
        [U64, U64],
        [shape_tok],
        code((Op.MOVE_LOC, 0), (Op.MOVE_LOC, 1), (Op.PACK_VARIANT, rect), Op.RET),
    )
    m.fn(
        "is_rect",
        [("ref", shape_tok)],
        [BOOL],
        code((Op.MOVE_LOC, 0), (Op.TEST_VARIANT, rect), Op.RET),
    )
    m.fn(
        "radius",
        [("ref", shape_tok)],
        [U64],
        code((Op.MOVE_LOC, 0), (Op.IMM_BORROW_VARIANT_FIELD, r_field), Op.READ_REF, Op.RET),
    )
    m.fn(
        "area",
        [shape_tok],
        [U64],
        code((Op.MOVE_LOC, 0), (Op.UNPACK_VARIANT, rect), Op.MUL, Op.RET),
    )
    module = m.build()
    (c,) = run(module, "circle", [U64Value(5)])
    (r,) = run(module, "rect", [U64Value(3), U64Value(4)])
    assert (c.variant, c.fields) == (0, [5])
    from ledgerkit.localnet.vm.move._values import Reference

    assert run(module, "is_rect", [Reference([r], 0, False)]) == [True]
    assert run(module, "is_rect", [Reference([c], 0, False)]) == [False]
    assert run(module, "radius", [Reference([c], 0, False)]) == [5]
    assert run(module, "area", [r]) == [12]
    for name, arg in (("area", c), ("radius", Reference([r], 0, False))):
        with pytest.raises(MoveExecutionError) as caught:
            run(module, name, [arg])
        assert caught.value.status == "STRUCT_VARIANT_MISMATCH"


def test_equality_is_structural() -> None:
    m, point = point_module()
    m.fn(
        "same",
        [U64, U64],
        [BOOL],
        code(
            (Op.COPY_LOC, 0), (Op.COPY_LOC, 1), (Op.PACK, point),
            (Op.MOVE_LOC, 0), (Op.MOVE_LOC, 1), (Op.PACK, point), Op.EQ, Op.RET,
        ),
    )  # fmt: skip
    assert run(m.build(), "same", [U64Value(1), U64Value(2)]) == [True]


def test_values_carry_their_vectors_bcs() -> None:
    from ledgerkit.localnet.vm.move._value_bcs import encode_bcs

    assert encode_bcs(VectorValue("u8", [U8Value(1), U8Value(2)])) == b"\x02\x01\x02"
    assert encode_bcs(VectorValue("u64", [U64Value(1)])) == b"\x01" + (1).to_bytes(8, "little")


def test_vector_elements_keep_their_type() -> None:
    m = Mod("vec")
    s = m.sig(U64)
    m.fn(
        "push",
        [],
        [],
        code(
            (Op.VEC_PACK, (s, 0)), (Op.ST_LOC, 0),
            (Op.MUT_BORROW_LOC, 0), (Op.LD_U8, 1), (Op.VEC_PUSH_BACK, s), Op.RET,
        ),
        locals_=[("vector", U64)],
    )  # fmt: skip
    m.fn("pack", [], [], code((Op.LD_U8, 1), (Op.VEC_PACK, (s, 1)), Op.POP, Op.RET))
    for name in ("push", "pack"):
        with pytest.raises(MoveExecutionError) as caught:
            run(m.build(), name)
        assert caught.value.status == "UNKNOWN_INVARIANT_VIOLATION_ERROR"
