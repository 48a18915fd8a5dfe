"""The grid's front end as files: small modules of one concern, all of them composed into
the module and the style sheet the widget sends, and a composer that refuses what it
cannot compose. That the composed module runs in a browser is in test_grid_js.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ledgerkit.widgets
from ledgerkit import InputError
from ledgerkit.widgets import LedgerGrid
from ledgerkit.widgets._front_end import compose_module, compose_styles, module_order

STATIC = Path(ledgerkit.widgets.__file__).parent / "static"


def test_no_file_of_the_front_end_is_over_300_lines() -> None:
    files = sorted(path for path in STATIC.rglob("*") if path.is_file())
    assert len(files) > 2
    lengths = {path.name: len(path.read_text("utf-8").splitlines()) for path in files}
    assert max(lengths.values()) <= 300, lengths


def test_every_module_reaches_the_browser_after_the_modules_it_imports() -> None:
    order = module_order(STATIC, "grid.js")
    assert sorted(order) == sorted(path.name for path in STATIC.glob("*.js"))
    assert order[-1] == "grid.js"
    for at, name in enumerate(order):
        imported = re.findall(r'^import [^;]*? from "\./([\w-]+\.js)";', _read(name), re.M | re.S)
        assert all(order.index(other) < at for other in imported), (name, imported)
    for name in order:
        # Each module once, named for the browser's developer tools (its text JSON-encoded).
        assert LedgerGrid._esm.count(f"//# sourceURL=ledgerkit/widgets/static/{name}\\n") == 1
    for banned in ("http://", "https://", "//cdn", "fetch(", "XMLHttpRequest", "data:"):
        assert banned not in LedgerGrid._esm, banned
    assert LedgerGrid._esm.rstrip().endswith("export default entry.default;")


def _read(name: str) -> str:
    return (STATIC / name).read_text("utf-8")


def test_every_style_sheet_is_in_the_one_sent_with_the_base_first() -> None:
    sheets = sorted(path.name for path in STATIC.glob("*.css"))
    assert sheets == [
        "explorer.css",
        "grid-body.css",
        "grid-detail.css",
        "grid-head.css",
        "grid-pager.css",
        "grid.css",
    ]
    places = {name: LedgerGrid._css.find(_read(name)) for name in sheets}
    assert min(places.values()) >= 0, places
    assert places["grid.css"] == 0  # the colours and the table's own rules come first
    assert sorted(sheets, key=places.__getitem__) == [
        "grid.css",
        "grid-head.css",
        "grid-body.css",
        "grid-detail.css",
        "grid-pager.css",
        "explorer.css",  # the explorers' own rules around their grids, last
    ]
    assert sum(len(_read(name)) for name in sheets) + len(sheets) - 1 == len(LedgerGrid._css)


# -- the composer, on modules written here ------------------------------------------------


def _modules(directory: Path, **files: str) -> Path:
    for name, text in files.items():
        (directory / f"{name}.js").write_text(text, "utf-8")
    return directory


def test_modules_are_ordered_each_after_those_it_imports(tmp_path: Path) -> None:
    directory = _modules(
        tmp_path,
        entry='import { b } from "./b.js";\nimport { c } from "./c.js";\n'
        "export default { b, c };\n",
        b='import {\n  d,\n} from "./d.js";\nexport const b = d + 1;\n',
        c="export { d as c } from './d.js';\n",
        d="export const d = 1;\n",
    )
    assert module_order(directory, "entry.js") == ["d.js", "b.js", "c.js", "entry.js"]
    composed = compose_module(directory, "entry.js")
    # d.js, first, is the place 0 the others name; the entry comes last.
    assert '/* b.js */ ["import {\\n  d,\\n} from \\"", 0, "\\";\\nexport const b' in composed
    assert '/* c.js */ ["export { d as c } from \'", 0, "\';\\n' in composed
    assert '/* entry.js */ ["import { b } from \\"", 1, "\\";\\nimport { c } from \\"", 2,' in (
        composed
    )


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        ('import { x } from "lodash";\n', "imports 'lodash'"),
        ('import { x } from "https://cdn.example.invalid/x.js";\n', "imports 'https://cdn"),
        ('import { x } from "../x.js";\n', "imports '../x.js'"),
        ('import { x } from "./lib/x.js";\n', "imports './lib/x.js'"),
        ("export * from '/x.js';\n", "imports '/x.js'"),
        ('const x = await import("./b.js");\n', "at run time"),
        ('import "./b.js";\n', "an import without 'from'"),
        ('import { x } from "./missing.js";\n', "a.js imports missing.js, which is not in"),
    ],
)
def test_what_cannot_be_composed_is_refused(tmp_path: Path, text: str, refusal: str) -> None:
    directory = _modules(tmp_path, a=text, b="export const x = 1;\n")
    with pytest.raises(InputError, match=re.escape(refusal)):
        compose_module(directory, "a.js")


def test_modules_importing_one_another_in_a_cycle_are_refused(tmp_path: Path) -> None:
    directory = _modules(
        tmp_path,
        a='import { b } from "./b.js";\nexport const a = 1;\n',
        b='import { c } from "./c.js";\nexport const b = 1;\n',
        c='import { a } from "./a.js";\nexport const c = 1;\n',
    )
    with pytest.raises(InputError, match=re.escape("in a cycle: a.js -> b.js -> c.js -> a.js")):
        compose_module(directory, "a.js")


def test_style_sheets_are_joined_in_the_order_given(tmp_path: Path) -> None:
    (tmp_path / "one.css").write_text(".a { color: red; }\n", "utf-8")
    (tmp_path / "two.css").write_text(".a { color: blue; }\n", "utf-8")
    assert compose_styles(tmp_path, ["two.css", "one.css"]) == (
        ".a { color: blue; }\n\n.a { color: red; }\n"
    )
    with pytest.raises(InputError, match=r"missing from .*/: three\.css$"):
        compose_styles(tmp_path, ["one.css", "three.css"])
