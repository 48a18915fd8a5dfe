"""Move functions and structs written as their source declares them, from a module's ABI,
for the account explorer's Modules tab.

``#[view] public fun balance<T0>(address): u64``, ``public entry fun
transfer<T0>(&signer, address, u64)``, ``struct Coin<T0> has store { value: u64 }``: the
ABI names no generic parameter, so they are ``T0``, ``T1``... as its types call them; a
parameter's constraints (``T0: copy + drop``) and a struct's ``phantom`` parameters are
written when the node says them.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledgerkit.models import MoveFunction, MoveGenericTypeParam, MoveStruct, MoveStructField

__all__ = ["function_signature", "struct_signature"]


def _generics(params: Sequence[MoveGenericTypeParam], *, phantoms: bool) -> str:
    """``<T0, T1: copy + drop>``, or nothing for a non-generic item."""
    if not params:
        return ""
    written = []
    for index, param in enumerate(params):
        name = f"T{index}"
        if phantoms and param.is_phantom:
            name = f"phantom {name}"
        constraints = list(param.constraints)
        written.append(f"{name}: {' + '.join(constraints)}" if constraints else name)
    return f"<{', '.join(written)}>"


def function_signature(function: MoveFunction) -> str:
    """A function of a module's ABI (``MoveFunction``) as its declaration reads.

    ``friend`` functions are ``public(friend)``; a view function is marked ``#[view]``;
    several return types are a tuple.
    """
    visibility = str(function.visibility)
    words = []
    if function.is_view:
        words.append("#[view]")
    if visibility == "public":
        words.append("public")
    elif visibility == "friend":
        words.append("public(friend)")
    if function.is_entry:
        words.append("entry")
    generics = _generics(function.generic_type_params, phantoms=False)
    head = f"{' '.join([*words, 'fun'])} {function.name}{generics}({', '.join(function.params)})"
    returns = list(function.return_)
    if len(returns) == 1:
        return f"{head}: {returns[0]}"
    if returns:
        return f"{head}: ({', '.join(returns)})"
    return head


def _fields(fields: Sequence[MoveStructField]) -> str:
    return "{ " + ", ".join(f"{f.name}: {f.type}" for f in fields) + " }" if fields else "{}"


def struct_signature(struct: MoveStruct) -> str:
    """A struct (or enum) of a module's ABI (``MoveStruct``) as its declaration reads:
    its generic parameters, abilities and fields (an enum's variants, each with its
    fields); an event struct is marked ``#[event]``, a native one has no fields."""
    kind = "enum" if struct.is_enum else "struct"
    words = ["#[event]"] if struct.is_event else []
    if struct.is_native:
        words.append("native")
    generics = _generics(struct.generic_type_params, phantoms=True)
    head = f"{' '.join([*words, kind])} {struct.name}{generics}"
    if struct.abilities:
        head += f" has {', '.join(struct.abilities)}"
    if struct.is_native:
        return head
    if kind == "enum":
        variants = [
            f"{v.name} {_fields(v.fields)}" if v.fields else v.name for v in struct.variants
        ]
        return f"{head} {{ {', '.join(variants)} }}" if variants else f"{head} {{}}"
    return f"{head} {_fields(struct.fields)}"
