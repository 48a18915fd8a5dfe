"""A Move assembler for the tests: modules and scripts written as Python structures at the
level of their Move source, built into the node's bytecode data model and serialized.

Why an assembler: the node runs Move bytecode with its own code, and its tests need
bytecode to run, but no Move compiler can be installed here (the Aptos CLI and the
compiler are Rust programs outside the package registries). So the tests write modules
the way the compiler would have compiled them: names instead of table indices, types as
Move text (``&signer``, ``vector<u8>``, ``0x1::string::String``, ``T``, ``&mut Counter``),
instructions by their names in aptos-core's ``Bytecode`` enum, locals by index or by the
name their ``"name: type"`` declaration gave them, labels for branch targets.

What it covers:

- ``ModuleBuilder(address, name)``: ``struct`` (abilities, fields, type parameters,
  ``#[event]``), ``function`` (visibility, entry, ``#[view]``, parameters, returns, locals,
  type parameters, acquires, code or native), ``constant``, ``error`` (the error map),
  ``friend``, ``declare_struct`` / ``declare_function`` for other modules (the framework's
  common ones are declared already); ``build()`` gives a ``CompiledModule`` with its tables
  interned in the compiler's order (self module handle first, then structs and functions
  in declaration order, each body interning what it names as it goes) and the
  ``aptos::metadata_v1`` entry; ``to_bytes()`` serializes it with the model's writer.
- ``ScriptBuilder``: the same for a script's ``main``.
- ``package_metadata(name, modules, upgrade_policy=...)``: the BCS of
  ``0x1::code::PackageMetadata`` that ``0x1::code::publish_package_txn`` takes.
- ``listing(unit)``: a compiled module or script as text, names resolved.

Not covered: enums (variant instructions take raw indices), closures, access specifiers.
The examples live in ``examples.py``; ``build_examples.py`` writes their bytecode.
"""

from __future__ import annotations

from ._builder import DEFAULT_VERSION, ModuleBuilder, ScriptBuilder
from ._declarations import abilities, parse_function_decl, parse_struct_decl
from ._listing import listing, type_text
from ._metadata import (
    METADATA_V1_KEY,
    ErrorCode,
    PackageModule,
    encode_value,
    package_metadata,
    runtime_metadata_v1,
)
from ._types import AssemblyError, TypeText, parse_type

__all__ = [
    "DEFAULT_VERSION",
    "METADATA_V1_KEY",
    "AssemblyError",
    "ErrorCode",
    "ModuleBuilder",
    "PackageModule",
    "ScriptBuilder",
    "TypeText",
    "abilities",
    "encode_value",
    "listing",
    "package_metadata",
    "parse_function_decl",
    "parse_struct_decl",
    "parse_type",
    "runtime_metadata_v1",
    "type_text",
]
