"""Converters for Move modules and their ABIs: one row per module, per exposed function
and per struct, from what ``client.account_modules(...)`` returns."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Final

import pandas as pd

from ledgerkit.frames._dtypes import (
    BOOL,
    CATEGORY,
    COUNT,
    STRING,
    UINT64,
    build_frame,
    long_address,
)
from ledgerkit.frames._inputs import json_text, records_of
from ledgerkit.models import MoveModule, MoveModuleBytecode, decode, decode_modules

if TYPE_CHECKING:
    from ledgerkit.types import Result

__all__ = [
    "FUNCTION_COLUMNS",
    "MODULE_COLUMNS",
    "STRUCT_COLUMNS",
    "functions_to_frame",
    "modules_to_frame",
    "structs_to_frame",
]

MODULE_COLUMNS: Final = {
    "address": CATEGORY,
    "name": CATEGORY,
    "bytecode_size": UINT64,
    "friend_count": UINT64,
    "function_count": UINT64,
    "struct_count": UINT64,
}

FUNCTION_COLUMNS: Final = {
    "module": CATEGORY,
    "name": STRING,
    "visibility": CATEGORY,
    "is_entry": BOOL,
    "is_view": BOOL,
    "type_param_count": COUNT,
    "type_param_abilities": STRING,
    "params": STRING,
    "returns": STRING,
}

STRUCT_COLUMNS: Final = {
    "module": CATEGORY,
    "name": STRING,
    "abilities": STRING,
    "is_native": BOOL,
    "is_event": BOOL,
    "is_enum": BOOL,
    "type_param_count": COUNT,
    "type_param_abilities": STRING,
    "fields": STRING,
    "variants": STRING,
}

_EXPECTED: Final = (
    "modules (MoveModuleBytecode or MoveModule records, a client result, JSON bytes or dicts)"
)


def _decode_modules(body: bytes) -> list[MoveModuleBytecode | MoveModule]:
    """Raw JSON of modules as published (``bytecode`` and ``abi``) or of bare ABIs."""
    raw = decode(body, list[dict[str, Any]])
    if all("bytecode" in item for item in raw):
        return list(decode_modules(body))
    return list(decode(body, list[MoveModule]))


def _modules(records: Any, converter: str) -> list[tuple[int | None, MoveModule | None]]:
    """``(bytecode size, ABI)`` of each module given."""
    items = records_of(
        records,
        (MoveModuleBytecode, MoveModule),
        _decode_modules,
        converter=converter,
        expected=_EXPECTED,
    )
    out: list[tuple[int | None, MoveModule | None]] = []
    for item in items:
        if isinstance(item, MoveModule):
            out.append((None, item))
        else:
            code = item.bytecode
            digits = len(code) - 2 if code.startswith("0x") else len(code)
            out.append((digits // 2, item.abi))
    return out


def _long(address: str, cache: dict[str, str]) -> str:
    found = cache.get(address)
    if found is None:
        found = cache[address] = long_address(address)
    return found


def _abis(modules: Any, converter: str) -> Iterator[tuple[str, MoveModule]]:
    """``(address::name, ABI)`` of each module given with its ABI."""
    cache: dict[str, str] = {}
    for _, abi in _modules(modules, converter):
        if abi is not None:
            yield f"{_long(abi.address, cache)}::{abi.name}", abi


def _abilities(params: Iterable[Any]) -> str:
    return json_text([param.constraints for param in params])


def modules_to_frame(
    modules: bytes
    | Result[list[MoveModuleBytecode]]
    | Result[MoveModuleBytecode]
    | MoveModuleBytecode
    | MoveModule
    | Iterable[MoveModuleBytecode | MoveModule | dict[str, Any]],
) -> pd.DataFrame:
    """One row per module (:data:`MODULE_COLUMNS`).

    Parameters
    ----------
    modules : Result, MoveModuleBytecode, MoveModule or iterable of them
        What the client returns (``client.account_modules(address)``,
        ``client.account_module(address, name)``), bare ABIs, or the API's JSON of them.

    Returns
    -------
    pandas.DataFrame
        ``address`` in long form and ``name`` from the ABI; ``bytecode_size`` in bytes;
        the counts of friends, exposed functions and structs. What is not known is
        missing: the size of a bare ABI, everything but the size of a module sent
        without its ABI.

    Raises
    ------
    InputError
        ``modules`` is none of these.

    Examples
    --------
    >>> modules_to_frame(client.account_modules("0x1"))  # doctest: +SKIP
    """
    rows = _modules(modules, "modules_to_frame")
    cache: dict[str, str] = {}
    cols: dict[str, list[Any]] = {name: [] for name in MODULE_COLUMNS}
    for size, abi in rows:
        cols["bytecode_size"].append(size)
        if abi is None:
            for name in ("address", "name", "friend_count", "function_count", "struct_count"):
                cols[name].append(None)
            continue
        cols["address"].append(_long(abi.address, cache))
        cols["name"].append(abi.name)
        cols["friend_count"].append(len(abi.friends))
        cols["function_count"].append(len(abi.exposed_functions))
        cols["struct_count"].append(len(abi.structs))
    return build_frame(MODULE_COLUMNS, cols)


def functions_to_frame(
    modules: bytes
    | Result[list[MoveModuleBytecode]]
    | Result[MoveModuleBytecode]
    | MoveModuleBytecode
    | MoveModule
    | Iterable[MoveModuleBytecode | MoveModule | dict[str, Any]],
) -> pd.DataFrame:
    """One row per exposed function of the given modules (:data:`FUNCTION_COLUMNS`).

    ``modules`` is read as by :func:`modules_to_frame`. ``module`` is ``address::name``
    (long-form address); ``type_param_count`` the number of generic type parameters and
    ``type_param_abilities`` the abilities each is constrained to, as JSON text
    (``[["copy", "drop"]]``); ``params`` and ``returns`` the Move types as JSON text.
    Modules sent without their ABI give no rows.

    Raises
    ------
    InputError
        ``modules`` is none of what :func:`modules_to_frame` takes.
    """
    cols: dict[str, list[Any]] = {name: [] for name in FUNCTION_COLUMNS}
    for module, abi in _abis(modules, "functions_to_frame"):
        for function in abi.exposed_functions:
            cols["module"].append(module)
            cols["name"].append(function.name)
            cols["visibility"].append(function.visibility)
            cols["is_entry"].append(function.is_entry)
            cols["is_view"].append(function.is_view)
            cols["type_param_count"].append(len(function.generic_type_params))
            cols["type_param_abilities"].append(_abilities(function.generic_type_params))
            cols["params"].append(json_text(function.params))
            cols["returns"].append(json_text(function.return_))
    return build_frame(FUNCTION_COLUMNS, cols)


def structs_to_frame(
    modules: bytes
    | Result[list[MoveModuleBytecode]]
    | Result[MoveModuleBytecode]
    | MoveModuleBytecode
    | MoveModule
    | Iterable[MoveModuleBytecode | MoveModule | dict[str, Any]],
) -> pd.DataFrame:
    """One row per struct (or enum) of the given modules (:data:`STRUCT_COLUMNS`).

    ``modules`` is read as by :func:`modules_to_frame`. ``abilities`` is JSON text
    (``["copy", "drop", "store"]``); ``type_param_count`` and ``type_param_abilities``
    as in :func:`functions_to_frame`; ``fields`` the fields as JSON text of
    ``{"name", "type"}`` objects; ``variants`` for enums the variants as JSON text of
    ``{"name", "fields"}`` objects, missing for other structs. Modules sent without
    their ABI give no rows.

    Raises
    ------
    InputError
        ``modules`` is none of what :func:`modules_to_frame` takes.
    """
    cols: dict[str, list[Any]] = {name: [] for name in STRUCT_COLUMNS}
    for module, abi in _abis(modules, "structs_to_frame"):
        for struct in abi.structs:
            cols["module"].append(module)
            cols["name"].append(struct.name)
            cols["abilities"].append(json_text(struct.abilities))
            cols["is_native"].append(struct.is_native)
            cols["is_event"].append(struct.is_event)
            cols["is_enum"].append(struct.is_enum)
            cols["type_param_count"].append(len(struct.generic_type_params))
            cols["type_param_abilities"].append(_abilities(struct.generic_type_params))
            cols["fields"].append(json_text([f.to_dict() for f in struct.fields]))
            cols["variants"].append(
                json_text([v.to_dict() for v in struct.variants]) if struct.is_enum else None
            )
    return build_frame(STRUCT_COLUMNS, cols)
