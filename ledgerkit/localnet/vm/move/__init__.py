"""Move bytecode on the node.

No Move VM can be installed from the package registries, so the node reads, checks and
writes Move bytecode with its own code, after aptos-core's ``move-binary-format``:

* ``_format``: the data model (compiled modules and scripts, opcodes, abilities);
* ``_reader``: bytes to modules and scripts (versions 5 to 9, 10 on request), with
  aptos-core's limits and statuses, and the bounds checker (``_bounds``) run after;
* ``_writer``: modules and scripts to bytes, in aptos-core's serializer's layout;
  ``_relocate`` moves a module to another address (named addresses at publish time);
* publishing: ``_publish`` (the VM's checks of a bundle), ``_compatibility`` (upgrades),
  ``_metadata`` (the Aptos metadata: error maps, views, events) and ``_abi`` (the ABI
  served with a module).
* ``_interpreter``: runs modules and scripts (:func:`execute_function`,
  :func:`execute_script`) against a :class:`MoveHost`, after aptos-core's Move VM
  interpreter (values in ``_values``, types in ``_runtime_types``, natives in
  ``_stdlib_natives`` and ``_framework_pure``, gas in ``_interp_gas``).
"""

from __future__ import annotations

from ledgerkit.localnet.vm.move._abi import abilities_text, module_abi, script_abi, type_text
from ledgerkit.localnet.vm.move._compatibility import check_compatible, incompatibilities
from ledgerkit.localnet.vm.move._format import (
    ABILITY_COPY,
    ABILITY_DROP,
    ABILITY_KEY,
    ABILITY_STORE,
    ACCESS_ACQUIRES,
    ACCESS_READ,
    ACCESS_WRITE,
    ATTRIBUTE_MODULE_LOCK,
    ATTRIBUTE_PERSISTENT,
    VISIBILITY_FRIEND,
    VISIBILITY_PRIVATE,
    VISIBILITY_PUBLIC,
    AccessSpecifier,
    BytecodeError,
    CodeUnit,
    CompiledModule,
    CompiledScript,
    Constant,
    FieldDefinition,
    FieldHandle,
    FieldInstantiation,
    FunctionDefinition,
    FunctionHandle,
    FunctionInstantiation,
    Instruction,
    Metadata,
    ModuleHandle,
    Op,
    SignatureToken,
    StructDefinition,
    StructDefInstantiation,
    StructHandle,
    StructTypeParameter,
    StructVariantHandle,
    StructVariantInstantiation,
    VariantDefinition,
    VariantFieldHandle,
    VariantFieldInstantiation,
)
from ledgerkit.localnet.vm.move._metadata import (
    RuntimeMetadata,
    abort_info,
    check_metadata,
    module_abort,
    runtime_metadata,
    stored_module_abort,
)
from ledgerkit.localnet.vm.move._publish import (
    PublishedModule,
    check_bundle,
    is_framework_address,
)
from ledgerkit.localnet.vm.move._reader import (
    MAX_MODULE_SIZE,
    read_module,
    read_script,
    stored_module,
)
from ledgerkit.localnet.vm.move._relocate import relocate_module
from ledgerkit.localnet.vm.move._writer import write_module, write_script

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
    "MAX_MODULE_SIZE",
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
    "PublishedModule",
    "RuntimeMetadata",
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
    "abilities_text",
    "abort_info",
    "check_bundle",
    "check_compatible",
    "check_metadata",
    "incompatibilities",
    "is_framework_address",
    "module_abi",
    "module_abort",
    "read_module",
    "read_script",
    "relocate_module",
    "runtime_metadata",
    "script_abi",
    "stored_module",
    "stored_module_abort",
    "type_text",
    "write_module",
    "write_script",
]

# The interpreter.
from ledgerkit.localnet.vm.move._entry import execute_function, execute_script
from ledgerkit.localnet.vm.move._framework_pure import PURE_FUNCTIONS
from ledgerkit.localnet.vm.move._host import Limits, MoveHost
from ledgerkit.localnet.vm.move._interp_errors import MoveExecutionError
from ledgerkit.localnet.vm.move._interp_gas import INSTRUCTION_GAS, GasMeter
from ledgerkit.localnet.vm.move._runtime_types import (
    FunctionType,
    ReferenceType,
    RuntimeType,
    StructType,
    VectorType,
    abilities_of,
    instantiate,
    struct_abilities,
    struct_field_types,
    type_name,
)
from ledgerkit.localnet.vm.move._stdlib_natives import NATIVES
from ledgerkit.localnet.vm.move._value_bcs import StructLayout, decode_bcs, encode_bcs
from ledgerkit.localnet.vm.move._values import (
    INT_CLASSES,
    AddressValue,
    ClosureValue,
    I8Value,
    I16Value,
    I32Value,
    I64Value,
    I128Value,
    I256Value,
    MoveInt,
    Reference,
    SignerValue,
    StructValue,
    U8Value,
    U16Value,
    U32Value,
    U64Value,
    U128Value,
    U256Value,
    Value,
    VectorValue,
)

__all__ += [
    "INSTRUCTION_GAS",
    "INT_CLASSES",
    "NATIVES",
    "PURE_FUNCTIONS",
    "AddressValue",
    "ClosureValue",
    "FunctionType",
    "GasMeter",
    "I8Value",
    "I16Value",
    "I32Value",
    "I64Value",
    "I128Value",
    "I256Value",
    "Limits",
    "MoveExecutionError",
    "MoveHost",
    "MoveInt",
    "Reference",
    "ReferenceType",
    "RuntimeType",
    "SignerValue",
    "StructLayout",
    "StructType",
    "StructValue",
    "U8Value",
    "U16Value",
    "U32Value",
    "U64Value",
    "U128Value",
    "U256Value",
    "Value",
    "VectorType",
    "VectorValue",
    "abilities_of",
    "decode_bcs",
    "encode_bcs",
    "execute_function",
    "execute_script",
    "instantiate",
    "struct_abilities",
    "struct_field_types",
    "type_name",
]
