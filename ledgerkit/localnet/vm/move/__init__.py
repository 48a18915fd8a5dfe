"""Move bytecode on the node.

No Move VM can be installed from the package registries, so the node reads, checks and
writes Move bytecode with its own code, after aptos-core's ``move-binary-format``:

* ``_format``: the data model (compiled modules and scripts, opcodes, abilities);
* ``_reader``: bytes to modules and scripts (versions 5 to 9, 10 on request), with
  aptos-core's limits and statuses, and the bounds checker (``_bounds``) run after;
* ``_writer``: modules and scripts to bytes, in aptos-core's serializer's layout;
* publishing: ``_publish`` (the VM's checks of a bundle), ``_compatibility`` (upgrades),
  ``_metadata`` (the Aptos metadata: error maps, views, events) and ``_abi`` (the ABI
  served with a module).
"""

from __future__ import annotations

from ledgerkit.localnet.vm.move._abi import abilities_text, module_abi, type_text
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
from ledgerkit.localnet.vm.move._reader import MAX_MODULE_SIZE, read_module, read_script
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
    "runtime_metadata",
    "stored_module_abort",
    "type_text",
    "write_module",
    "write_script",
]
