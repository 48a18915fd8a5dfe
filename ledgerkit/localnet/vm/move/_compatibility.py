"""Whether a module may replace its published version: aptos-core's compatibility rules.

An upgrade of a ``compatible`` package keeps what others may rely on (facts from
``move-binary-format``'s ``compatibility.rs``; the node checks them itself, having no
Move VM to ask):

* every struct defined before is still defined, with at least its abilities, the same
  type parameters (a phantom one stays phantom, constraints may only loosen) and the
  same layout (fields of the same names and types in the same order; an enum keeps its
  variants as a prefix);
* every public function, entry function or ``#[persistent]`` one is still there:
  public stays public, friend may become public, entry stays entry, attributes are kept,
  same parameter and return types, same number of type parameters whose constraints may
  only loosen;
* no friend declaration is removed.

A failure is ``BACKWARD_INCOMPATIBLE_MODULE_UPDATE``, listing what changed.
"""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.vm.framework._context import VMStatusError
from ledgerkit.localnet.vm.move._format import (
    ATTRIBUTE_PERSISTENT,
    VISIBILITY_FRIEND,
    VISIBILITY_PRIVATE,
    VISIBILITY_PUBLIC,
    CompiledModule,
    FieldDefinition,
    SignatureToken,
    StructDefinition,
)

__all__ = ["check_compatible", "incompatibilities"]

INCOMPATIBLE: Final = "BACKWARD_INCOMPATIBLE_MODULE_UPDATE"


def _subset(small: int, big: int) -> bool:
    return small & ~big == 0


def _struct_equal(old: CompiledModule, a: int, new: CompiledModule, b: int) -> bool:
    ha, hb = old.struct_handles[a], new.struct_handles[b]
    return old.identifier(ha.name) == new.identifier(hb.name) and old.module_id(
        ha.module
    ) == new.module_id(hb.module)


def _token_ok(
    old: CompiledModule, a: SignatureToken, new: CompiledModule, b: SignatureToken
) -> bool:
    if a[0] != b[0]:
        return False
    kind = a[0]
    if kind in ("vector", "ref", "mut_ref"):
        return _token_ok(old, a[1], new, b[1])
    if kind == "tparam":
        return bool(a[1] == b[1])
    if kind == "struct":
        return _struct_equal(old, a[1], new, b[1])
    if kind == "struct_inst":
        return (
            _struct_equal(old, a[1], new, b[1])
            and len(a[2]) == len(b[2])
            and all(_token_ok(old, x, new, y) for x, y in zip(a[2], b[2], strict=True))
        )
    if kind == "function":
        # As aptos-core: argument and result lists compared pairwise, abilities equal.
        return (
            all(_token_ok(old, x, new, y) for x, y in zip(a[1], b[1], strict=False))
            and all(_token_ok(old, x, new, y) for x, y in zip(a[2], b[2], strict=False))
            and a[3] == b[3]
        )
    return True  # the same primitive


def _signature_ok(
    old: CompiledModule,
    a: tuple[SignatureToken, ...],
    new: CompiledModule,
    b: tuple[SignatureToken, ...],
) -> bool:
    return len(a) == len(b) and all(_token_ok(old, x, new, y) for x, y in zip(a, b, strict=True))


def _fields_ok(
    old: CompiledModule,
    a: tuple[FieldDefinition, ...],
    new: CompiledModule,
    b: tuple[FieldDefinition, ...],
) -> bool:
    return len(a) == len(b) and all(
        old.identifier(x.name) == new.identifier(y.name)
        and _token_ok(old, x.signature, new, y.signature)
        for x, y in zip(a, b, strict=True)
    )


def _layout_ok(
    old: CompiledModule, a: StructDefinition, new: CompiledModule, b: StructDefinition
) -> bool:
    if a.variants is None:
        return b.variants is None and _fields_ok(old, a.fields or (), new, b.fields or ())
    if b.variants is None or len(a.variants) > len(b.variants):
        return False
    return all(
        old.identifier(va.name) == new.identifier(vb.name)
        and _fields_ok(old, va.fields, new, vb.fields)
        for va, vb in zip(a.variants, b.variants, strict=False)
    )


def _struct_problems(old: CompiledModule, new: CompiledModule) -> list[str]:
    problems = []
    for sdef in old.struct_defs:
        name = old.struct_name(sdef.struct_handle)
        found = new.find_struct_def(name)
        if found is None:
            problems.append(f"removed struct `{name}`")
            break
        ho, hn = old.struct_handles[sdef.struct_handle], new.struct_handles[found.struct_handle]
        if not _subset(ho.abilities, hn.abilities):
            problems.append(f"removed abilities from struct `{name}`")
        if len(ho.type_parameters) != len(hn.type_parameters) or not all(
            (not po.is_phantom or pn.is_phantom) and _subset(pn.constraints, po.constraints)
            for po, pn in zip(ho.type_parameters, hn.type_parameters, strict=True)
        ):
            problems.append(f"changed type parameters of struct `{name}`")
        if not _layout_ok(old, sdef, new, found):
            problems.append(f"changed layout of struct `{name}`")
    return problems


def _function_problems(old: CompiledModule, new: CompiledModule) -> list[str]:
    problems = []
    for fdef in old.function_defs:
        ho = old.function_handles[fdef.function]
        name = old.identifier(ho.name)
        persistent = ATTRIBUTE_PERSISTENT in ho.attributes
        if fdef.visibility == VISIBILITY_PRIVATE and not fdef.is_entry and not persistent:
            continue
        found = new.find_function_def(name)
        if found is None:
            problems.append(f"removed function `{name}`")
            continue
        hn = new.function_handles[found.function]
        if fdef.visibility == VISIBILITY_PUBLIC:
            visibility_ok = found.visibility == VISIBILITY_PUBLIC
        elif fdef.visibility == VISIBILITY_FRIEND:
            visibility_ok = found.visibility in (VISIBILITY_PUBLIC, VISIBILITY_FRIEND)
        else:
            visibility_ok = True
        if old.version < 5 and new.version < 5:
            entry_ok = fdef.is_entry == found.is_entry
        else:
            entry_ok = not fdef.is_entry or found.is_entry
        if not visibility_ok:
            problems.append(f"changed visibility of function `{name}`")
        elif not entry_ok:
            problems.append(f"removed `entry` modifier of function `{name}`")
        elif persistent and ATTRIBUTE_PERSISTENT not in hn.attributes:
            problems.append(f"removed required attributes of function `{name}`")
        elif not _signature_ok(
            old, old.signature(ho.parameters), new, new.signature(hn.parameters)
        ):
            problems.append(f"changed parameter types of function `{name}`")
        elif not _signature_ok(old, old.signature(ho.return_), new, new.signature(hn.return_)):
            problems.append(f"changed return type of function `{name}`")
        elif len(ho.type_parameters) != len(hn.type_parameters) or not all(
            _subset(cn, co) for co, cn in zip(ho.type_parameters, hn.type_parameters, strict=True)
        ):
            problems.append(f"changed type parameters of function `{name}`")
    return problems


def incompatibilities(old: CompiledModule, new: CompiledModule) -> list[str]:
    """What ``new`` changed that a compatible upgrade of ``old`` may not (empty: none)."""
    problems = []
    if old.address != new.address:
        problems.append("module address changed")
    if old.name != new.name:
        problems.append(f"module name changed to `{new.name}`")
    problems += _struct_problems(old, new)
    problems += _function_problems(old, new)
    removed = _friends(old) - _friends(new)
    if removed:
        problems.append("removed friend declaration " + " and ".join(sorted(removed)))
    return problems


def _friends(module: CompiledModule) -> set[str]:
    return {
        "0x" + module.address_identifiers[f.address].hex() + "::" + module.identifier(f.name)
        for f in module.friend_decls
    }


def check_compatible(old: CompiledModule, new: CompiledModule) -> None:
    """Raise ``BACKWARD_INCOMPATIBLE_MODULE_UPDATE`` unless ``new`` may replace ``old``."""
    problems = incompatibilities(old, new)
    if problems:
        raise VMStatusError(
            INCOMPATIBLE,
            f"new module not compatible with existing module in `{old.name}`: "
            + ", ".join(problems),
        )
