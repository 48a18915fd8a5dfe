"""The Move binary format's data model: compiled modules and scripts as frozen records.

The node loads Move bytecode itself: no Move VM or compiler can be installed from PyPI
or npm, so the format is modelled here after aptos-core's ``move-binary-format`` (facts
only: table kinds, opcode bytes, limits). Every index is a plain ``int`` into one of the
module's tables; every sequence is a tuple, so records hash and compare by value.

Signature tokens are tuples::

    ("bool",) ("u8",) ("u16",) ("u32",) ("u64",) ("u128",) ("u256",)
    ("i8",) ("i16",) ("i32",) ("i64",) ("i128",) ("i256",) ("address",) ("signer",)
    ("vector", tok)  ("struct", struct_handle)  ("struct_inst", struct_handle, (tok, ...))
    ("ref", tok)  ("mut_ref", tok)  ("tparam", index)
    ("function", (arg_tok, ...), (result_tok, ...), abilities)

An :class:`Instruction` is ``(op, arg)``: ``op`` an :class:`Op` byte, ``arg`` None, an
int (table index, local, code offset or literal, signed for ``LD_I*``), or a pair for
``VEC_PACK``/``VEC_UNPACK`` (signature, count) and ``PACK_CLOSURE(_GENERIC)``
(function, capture mask).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NamedTuple

from ledgerkit.localnet.vm.framework._context import VMStatusError

__all__ = [
    "ABILITY_COPY",
    "ABILITY_DROP",
    "ABILITY_KEY",
    "ABILITY_STORE",
    "ACCESS_ACQUIRES",
    "ACCESS_READ",
    "ACCESS_WRITE",
    "ATTRIBUTE_MODULE_LOCK",
    "ATTRIBUTE_PERSISTENT",
    "VISIBILITY_FRIEND",
    "VISIBILITY_PRIVATE",
    "VISIBILITY_PUBLIC",
    "AccessSpecifier",
    "BytecodeError",
    "CodeUnit",
    "CompiledModule",
    "CompiledScript",
    "Constant",
    "FieldDefinition",
    "FieldHandle",
    "FieldInstantiation",
    "FunctionDefinition",
    "FunctionHandle",
    "FunctionInstantiation",
    "Instruction",
    "Metadata",
    "ModuleHandle",
    "Op",
    "SignatureToken",
    "StructDefInstantiation",
    "StructDefinition",
    "StructHandle",
    "StructTypeParameter",
    "StructVariantHandle",
    "StructVariantInstantiation",
    "VariantDefinition",
    "VariantFieldHandle",
    "VariantFieldInstantiation",
]

#: A signature token (see the module docstring for its shapes).
SignatureToken = tuple[Any, ...]

ABILITY_COPY = 0x1
ABILITY_DROP = 0x2
ABILITY_STORE = 0x4
ABILITY_KEY = 0x8

#: Function visibilities as serialized. The pre-version-5 "script" visibility (0x2, public
#: and entry) is not among them: aptos-core refuses it from version 5 on, and so does the
#: reader; an entry function is ``is_entry`` with any visibility.
VISIBILITY_PRIVATE = 0x0
VISIBILITY_PUBLIC = 0x1
VISIBILITY_FRIEND = 0x3

#: Access specifier kinds (bytecode v7). ``ACCESS_ACQUIRES`` is the format's third kind;
#: aptos-core's reader and writer no longer take it, nor do the node's.
ACCESS_READ = 0x1
ACCESS_WRITE = 0x2
ACCESS_ACQUIRES = 0x3

#: Function attributes (bytecode v8), as serialized.
ATTRIBUTE_PERSISTENT = 0x1
ATTRIBUTE_MODULE_LOCK = 0x2


class BytecodeError(VMStatusError):
    """Bytecode the node refuses, named by the VM status aptos-core gives it
    (``BAD_MAGIC``, ``UNKNOWN_VERSION``, ``MALFORMED``, ``INDEX_OUT_OF_BOUNDS``...)."""

    def __init__(self, status: str, message: str = "") -> None:
        super().__init__(status, f"{status}: {message}" if message else status)
        self.message = message


class Op(IntEnum):
    """Every opcode byte of the Move binary format (bytecode versions up to 10)."""

    POP = 0x01
    RET = 0x02
    BR_TRUE = 0x03
    BR_FALSE = 0x04
    BRANCH = 0x05
    LD_U64 = 0x06
    LD_CONST = 0x07
    LD_TRUE = 0x08
    LD_FALSE = 0x09
    COPY_LOC = 0x0A
    MOVE_LOC = 0x0B
    ST_LOC = 0x0C
    MUT_BORROW_LOC = 0x0D
    IMM_BORROW_LOC = 0x0E
    MUT_BORROW_FIELD = 0x0F
    IMM_BORROW_FIELD = 0x10
    CALL = 0x11
    PACK = 0x12
    UNPACK = 0x13
    READ_REF = 0x14
    WRITE_REF = 0x15
    ADD = 0x16
    SUB = 0x17
    MUL = 0x18
    MOD = 0x19
    DIV = 0x1A
    BIT_OR = 0x1B
    BIT_AND = 0x1C
    XOR = 0x1D
    OR = 0x1E
    AND = 0x1F
    NOT = 0x20
    EQ = 0x21
    NEQ = 0x22
    LT = 0x23
    GT = 0x24
    LE = 0x25
    GE = 0x26
    ABORT = 0x27
    NOP = 0x28
    EXISTS = 0x29
    MUT_BORROW_GLOBAL = 0x2A
    IMM_BORROW_GLOBAL = 0x2B
    MOVE_FROM = 0x2C
    MOVE_TO = 0x2D
    FREEZE_REF = 0x2E
    SHL = 0x2F
    SHR = 0x30
    LD_U8 = 0x31
    LD_U128 = 0x32
    CAST_U8 = 0x33
    CAST_U64 = 0x34
    CAST_U128 = 0x35
    MUT_BORROW_FIELD_GENERIC = 0x36
    IMM_BORROW_FIELD_GENERIC = 0x37
    CALL_GENERIC = 0x38
    PACK_GENERIC = 0x39
    UNPACK_GENERIC = 0x3A
    EXISTS_GENERIC = 0x3B
    MUT_BORROW_GLOBAL_GENERIC = 0x3C
    IMM_BORROW_GLOBAL_GENERIC = 0x3D
    MOVE_FROM_GENERIC = 0x3E
    MOVE_TO_GENERIC = 0x3F
    VEC_PACK = 0x40
    VEC_LEN = 0x41
    VEC_IMM_BORROW = 0x42
    VEC_MUT_BORROW = 0x43
    VEC_PUSH_BACK = 0x44
    VEC_POP_BACK = 0x45
    VEC_UNPACK = 0x46
    VEC_SWAP = 0x47
    LD_U16 = 0x48
    LD_U32 = 0x49
    LD_U256 = 0x4A
    CAST_U16 = 0x4B
    CAST_U32 = 0x4C
    CAST_U256 = 0x4D
    # since bytecode version 7
    IMM_BORROW_VARIANT_FIELD = 0x4E
    MUT_BORROW_VARIANT_FIELD = 0x4F
    IMM_BORROW_VARIANT_FIELD_GENERIC = 0x50
    MUT_BORROW_VARIANT_FIELD_GENERIC = 0x51
    PACK_VARIANT = 0x52
    PACK_VARIANT_GENERIC = 0x53
    UNPACK_VARIANT = 0x54
    UNPACK_VARIANT_GENERIC = 0x55
    TEST_VARIANT = 0x56
    TEST_VARIANT_GENERIC = 0x57
    # since bytecode version 8
    PACK_CLOSURE = 0x58
    PACK_CLOSURE_GENERIC = 0x59
    CALL_CLOSURE = 0x5A
    # since bytecode version 9
    LD_I8 = 0x5B
    LD_I16 = 0x5C
    LD_I32 = 0x5D
    LD_I64 = 0x5E
    LD_I128 = 0x5F
    LD_I256 = 0x60
    CAST_I8 = 0x61
    CAST_I16 = 0x62
    CAST_I32 = 0x63
    CAST_I64 = 0x64
    CAST_I128 = 0x65
    CAST_I256 = 0x66
    NEGATE = 0x67
    # since bytecode version 10
    ABORT_MSG = 0x68


class Instruction(NamedTuple):
    """One instruction: its opcode byte and its operand (see the module docstring)."""

    op: int
    arg: Any = None


@dataclass(frozen=True, slots=True)
class ModuleHandle:
    address: int  # index into address_identifiers
    name: int  # index into identifiers


@dataclass(frozen=True, slots=True)
class StructTypeParameter:
    constraints: int  # abilities
    is_phantom: bool


@dataclass(frozen=True, slots=True)
class StructHandle:
    module: int
    name: int
    abilities: int
    type_parameters: tuple[StructTypeParameter, ...] = ()


@dataclass(frozen=True, slots=True)
class AccessSpecifier:
    """A v7 access specifier: ``kind`` one of ``ACCESS_*``.

    ``resource`` is ``("any",)``, ``("at_address", address_idx)``, ``("in_module",
    module_handle)``, ``("resource", struct_handle)`` or ``("resource_inst",
    struct_handle, signature)``; ``address`` is ``("any",)``, ``("literal",
    address_idx)`` or ``("parameter", local, function_instantiation | None)``.
    """

    kind: int
    negated: bool
    resource: tuple[Any, ...]
    address: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class FunctionHandle:
    module: int
    name: int
    parameters: int  # signature index
    return_: int  # signature index
    type_parameters: tuple[int, ...] = ()  # abilities of each
    access_specifiers: tuple[AccessSpecifier, ...] | None = None
    attributes: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class FieldHandle:
    owner: int  # struct definition index
    field: int


@dataclass(frozen=True, slots=True)
class FieldInstantiation:
    handle: int
    type_parameters: int


@dataclass(frozen=True, slots=True)
class StructDefInstantiation:
    def_: int
    type_parameters: int


@dataclass(frozen=True, slots=True)
class FunctionInstantiation:
    handle: int
    type_parameters: int


@dataclass(frozen=True, slots=True)
class StructVariantHandle:
    struct_index: int
    variant: int


@dataclass(frozen=True, slots=True)
class StructVariantInstantiation:
    handle: int
    type_parameters: int


@dataclass(frozen=True, slots=True)
class VariantFieldHandle:
    struct_index: int
    variants: tuple[int, ...]
    field: int


@dataclass(frozen=True, slots=True)
class VariantFieldInstantiation:
    handle: int
    type_parameters: int


@dataclass(frozen=True, slots=True)
class Constant:
    type_: SignatureToken
    data: bytes  # the value's BCS


@dataclass(frozen=True, slots=True)
class FieldDefinition:
    name: int
    signature: SignatureToken


@dataclass(frozen=True, slots=True)
class VariantDefinition:
    name: int
    fields: tuple[FieldDefinition, ...]


@dataclass(frozen=True, slots=True)
class StructDefinition:
    """A struct (``fields``), an enum (``variants``) or, both None, a native struct."""

    struct_handle: int
    fields: tuple[FieldDefinition, ...] | None
    variants: tuple[VariantDefinition, ...] | None = None


@dataclass(frozen=True, slots=True)
class CodeUnit:
    locals: int  # signature index
    code: tuple[Instruction, ...]


@dataclass(frozen=True, slots=True)
class FunctionDefinition:
    function: int  # function handle index
    visibility: int
    is_entry: bool
    acquires: tuple[int, ...]  # struct definition indices
    code: CodeUnit | None  # None: native


@dataclass(frozen=True, slots=True)
class Metadata:
    key: bytes
    value: bytes


@dataclass(frozen=True, slots=True)
class CompiledModule:
    """A compiled module: its tables, in the binary format's terms."""

    version: int
    self_handle: int
    module_handles: tuple[ModuleHandle, ...] = ()
    struct_handles: tuple[StructHandle, ...] = ()
    function_handles: tuple[FunctionHandle, ...] = ()
    field_handles: tuple[FieldHandle, ...] = ()
    friend_decls: tuple[ModuleHandle, ...] = ()
    struct_def_instantiations: tuple[StructDefInstantiation, ...] = ()
    function_instantiations: tuple[FunctionInstantiation, ...] = ()
    field_instantiations: tuple[FieldInstantiation, ...] = ()
    signatures: tuple[tuple[SignatureToken, ...], ...] = ()
    identifiers: tuple[str, ...] = ()
    address_identifiers: tuple[bytes, ...] = ()
    constant_pool: tuple[Constant, ...] = ()
    metadata: tuple[Metadata, ...] = ()
    struct_defs: tuple[StructDefinition, ...] = ()
    function_defs: tuple[FunctionDefinition, ...] = ()
    struct_variant_handles: tuple[StructVariantHandle, ...] = ()
    struct_variant_instantiations: tuple[StructVariantInstantiation, ...] = ()
    variant_field_handles: tuple[VariantFieldHandle, ...] = ()
    variant_field_instantiations: tuple[VariantFieldInstantiation, ...] = ()

    @property
    def address(self) -> bytes:
        """The module's own address (32 bytes)."""
        return self.module_id(self.self_handle)[0]

    @property
    def name(self) -> str:
        """The module's own name."""
        return self.module_id(self.self_handle)[1]

    def identifier(self, index: int) -> str:
        return self.identifiers[index]

    def module_id(self, handle: int) -> tuple[bytes, str]:
        """The (address, name) of module handle ``handle``."""
        mh = self.module_handles[handle]
        return self.address_identifiers[mh.address], self.identifiers[mh.name]

    def struct_name(self, handle: int) -> str:
        return self.identifiers[self.struct_handles[handle].name]

    def function_name(self, handle: int) -> str:
        return self.identifiers[self.function_handles[handle].name]

    def signature(self, index: int) -> tuple[SignatureToken, ...]:
        return self.signatures[index]

    def find_function_def(self, name: str) -> FunctionDefinition | None:
        """The function defined here under ``name``, if any."""
        for fdef in self.function_defs:
            if self.function_name(fdef.function) == name:
                return fdef
        return None

    def find_struct_def(self, name: str) -> StructDefinition | None:
        """The struct or enum defined here under ``name``, if any."""
        for sdef in self.struct_defs:
            if self.struct_name(sdef.struct_handle) == name:
                return sdef
        return None


@dataclass(frozen=True, slots=True)
class CompiledScript:
    """A compiled script: its tables and its one function's code."""

    version: int
    module_handles: tuple[ModuleHandle, ...]
    struct_handles: tuple[StructHandle, ...]
    function_handles: tuple[FunctionHandle, ...]
    function_instantiations: tuple[FunctionInstantiation, ...]
    signatures: tuple[tuple[SignatureToken, ...], ...]
    identifiers: tuple[str, ...]
    address_identifiers: tuple[bytes, ...]
    constant_pool: tuple[Constant, ...]
    metadata: tuple[Metadata, ...]
    code: CodeUnit
    type_parameters: tuple[int, ...]  # abilities of each
    parameters: int  # signature index
    access_specifiers: tuple[AccessSpecifier, ...] | None = None

    def identifier(self, index: int) -> str:
        return self.identifiers[index]

    def module_id(self, handle: int) -> tuple[bytes, str]:
        mh = self.module_handles[handle]
        return self.address_identifiers[mh.address], self.identifiers[mh.name]

    def struct_name(self, handle: int) -> str:
        return self.identifiers[self.struct_handles[handle].name]

    def function_name(self, handle: int) -> str:
        return self.identifiers[self.function_handles[handle].name]

    def signature(self, index: int) -> tuple[SignatureToken, ...]:
        return self.signatures[index]
