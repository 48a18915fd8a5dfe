"""The account explorer's Modules tab: the account's modules, the selected one's
functions and structs written as their declarations read, and a form calling the
selected view function."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import ipywidgets
import pandas as pd

from ledgerkit.frames import functions_to_frame, structs_to_frame
from ledgerkit.types import Address
from ledgerkit.widgets._grid import Column, LedgerGrid
from ledgerkit.widgets._navigator import Navigator
from ledgerkit.widgets._signatures import function_signature, struct_signature
from ledgerkit.widgets._sources import CursorSource, ListSource, Row
from ledgerkit.widgets._view_form import ViewForm

__all__ = ["modules_tab"]

_FUNCTION_COLUMNS: Final = [
    Column("name", "Function"),
    Column("signature", "Signature"),
]
_STRUCT_COLUMNS: Final = [
    Column("name", "Struct"),
    Column("signature", "Declaration"),
]
_PICK_A_VIEW: Final = (
    "<div class='lk-note'>Select a view function (<code>#[view]</code>) to call it.</div>"
)


def _function_rows(module: Any) -> list[Row]:
    return [
        {
            "name": f.name,
            "signature": function_signature(f),
            "is_view": f.is_view,
            "function": f,
        }
        for f in module.abi.exposed_functions
    ]


def _struct_rows(module: Any) -> list[Row]:
    return [
        {"name": s.name, "signature": struct_signature(s), "struct": s} for s in module.abi.structs
    ]


def _frame_of(convert: Any, module: list[Any]) -> Any:
    """A grid's ``frame=``: the rows shown as ``convert`` (``functions_to_frame`` or
    ``structs_to_frame``) gives them for the module listed, each with its signature."""

    def frame(rows: Sequence[Row]) -> pd.DataFrame:
        full = convert(module[:1])
        where = {name: at for at, name in enumerate(full["name"])}
        picked = full.iloc[[where[row["name"]] for row in rows]].reset_index(drop=True)
        return picked.assign(signature=pd.array([r["signature"] for r in rows], "string"))

    return frame


def modules_tab(nav: Navigator, address: Address, version: int) -> tuple[Any, list[LedgerGrid]]:
    """The modules, the selected one's functions and structs, and the form of the
    selected view function."""
    client = nav.client

    def modules_page(cursor: str | None, limit: int) -> tuple[Sequence[Row], str | None]:
        page = client.account_modules(address, ledger_version=version, start=cursor, limit=limit)
        rows = [
            {
                "name": m.abi.name if m.abi else "?",
                "functions": len(m.abi.exposed_functions) if m.abi else 0,
                "structs": len(m.abi.structs) if m.abi else 0,
                "module": m,
            }
            for m in page.value
        ]
        return rows, page.ledger.cursor

    modules_grid = LedgerGrid(
        nav.memo(("modules", address.long, version), lambda: CursorSource(modules_page, ["name"])),
        [
            Column("name", "Module"),
            Column("functions", "Functions", "int"),
            Column("structs", "Structs", "int"),
        ],
        title="Modules",
    )
    function_source = ListSource([], ["name", "signature"])
    struct_source = ListSource([], ["name", "signature"])
    listed: list[Any] = []  # the module whose functions and structs are listed
    functions_grid = LedgerGrid(
        function_source,
        _FUNCTION_COLUMNS,
        title="Functions",
        frame=_frame_of(functions_to_frame, listed),
    )
    structs_grid = LedgerGrid(
        struct_source,
        _STRUCT_COLUMNS,
        title="Structs",
        frame=_frame_of(structs_to_frame, listed),
    )
    form = ipywidgets.VBox([ipywidgets.HTML(_PICK_A_VIEW)])
    form.add_class("lk-view-form-box")
    shown: list[str] = [""]  # the module whose functions are listed

    def show_module(row: Row | None) -> None:
        if row is None or row["module"].abi is None:
            return
        module = row["module"]
        listed[:] = [module]
        shown[0] = f"{Address.parse(module.abi.address).standard}::{module.abi.name}"
        function_source.rows = _function_rows(module)
        struct_source.rows = _struct_rows(module)
        functions_grid.go(0)
        structs_grid.go(0)

    def show_function(row: Row | None) -> None:
        if row is None or not row["is_view"]:
            form.children = [ipywidgets.HTML(_PICK_A_VIEW)]
            return
        form.children = [ViewForm(nav, shown[0], row["function"], ledger_version=version)]

    modules_grid.on_select(show_module)
    functions_grid.on_select(show_function)
    grids = [modules_grid, functions_grid, structs_grid]
    box = ipywidgets.VBox([modules_grid, functions_grid, form, structs_grid])
    return box, grids
