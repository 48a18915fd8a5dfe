"""The Python example of docs/move.md runs as written: a package compiled with
``aptos move compile --save-metadata`` published with ``build_transaction`` and
``0x1::code::publish_package_txn``, its module read back, its entry function and view
called.

The compiler's files are written by the assembler in their place
(``message_board/build/MessageBoard/package-metadata.bcs`` and
``bytecode_modules/message_board.mv``, under a directory of the test's own), for the
embedded node's first dev account; the page's blocks then run top to bottom in one
namespace, as a reader pasting them would, and what they print is checked.
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from assembler.examples import EXAMPLES

import ledgerkit

PAGE: Final = Path(__file__).resolve().parents[2] / "docs" / "move.md"


def blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", PAGE.read_text("utf-8"), re.S)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """What each block printed, or the exception it raised (the blocks after it do not
    run); and the dev account's address."""
    workdir = tmp_path_factory.mktemp("move-docs")
    # Held open while the page runs, so the page's connect() answers from the same node.
    with ledgerkit.connect() as client:
        me = client.node.dev_accounts[0].address.long
        build = workdir / "message_board" / "build" / "MessageBoard"
        (build / "bytecode_modules").mkdir(parents=True)
        example = EXAMPLES["message_board"]
        (build / "package-metadata.bcs").write_bytes(example.package_metadata(me))
        (build / "bytecode_modules" / "message_board.mv").write_bytes(example.bytecode(me))
        namespace: dict[str, object] = {"__name__": "__docs__"}
        outcomes: list[str | BaseException] = []
        with contextlib.chdir(workdir):
            for number, source in enumerate(blocks()):
                out = io.StringIO()
                try:
                    with contextlib.redirect_stdout(out):
                        exec(compile(source, f"move.md block {number}", "exec"), namespace)
                except Exception as exc:
                    outcomes.append(exc)
                    break
                outcomes.append(out.getvalue())
        opened = namespace.get("client")
        close = getattr(opened, "close", None)
        if callable(close):
            close()
    return {"me": me, "outcomes": outcomes}


def printed(page: dict[str, Any], number: int) -> str:
    outcomes = page["outcomes"]
    assert len(outcomes) > number, f"block {number} did not run"
    outcome = outcomes[number]
    if isinstance(outcome, BaseException):
        raise AssertionError(f"block {number} raised {outcome!r}") from outcome
    text: str = outcome
    return text


def test_the_page_has_its_three_blocks() -> None:
    assert len(blocks()) == 3


def test_the_package_publishes(page: dict[str, Any]) -> None:
    assert printed(page, 0) == "True Executed successfully\n"


def test_the_module_is_served_with_its_abi(page: dict[str, Any]) -> None:
    assert printed(page, 1) == (
        "['set_message', 'get_message'] ['MessageHolder', 'MessageChange']\n"
    )


def test_its_entry_function_and_view_run(page: dict[str, Any]) -> None:
    assert printed(page, 2) == "True\n['hello, world']\n"
