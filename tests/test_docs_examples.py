"""The pages of docs/ that promise runnable examples run as they are.

Each page's ``python`` blocks are executed top to bottom in one namespace, as a reader
pasting them into a notebook would, against the embedded node the first block starts.
What the blocks print is checked for the facts a reader would look at.
"""

from __future__ import annotations

import contextlib
import gc
import io
import re
import warnings
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
#: The pages whose every block runs as written.
RUNNABLE = ["getting-started.md", "transactions.md", "faucet.md", "charts.md"]


def blocks(page: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (DOCS / page).read_text("utf-8"), re.S)


def run(page: str) -> list[str]:
    """Execute the page's blocks in order; what each printed.

    The page's ``client`` is closed afterwards, as a reader closes it when done. Anything
    else the page opened and left open (a faucet client's connection, a file) fails the
    page: it would leak in the reader's notebook. It shows as a ``ResourceWarning`` once
    the page's objects are dropped and collected.
    """
    gc.collect()  # what earlier tests left behind is not this page's
    namespace: dict[str, object] = {"__name__": "__docs__"}
    printed = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        try:
            for number, source in enumerate(blocks(page)):
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    exec(compile(source, f"{page} block {number}", "exec"), namespace)
                printed.append(out.getvalue())
        finally:
            client = namespace.get("client")
            close = getattr(client, "close", None)
            if callable(close):
                close()
            namespace.clear()
            gc.collect()
    left_open = []
    for warning in caught:
        if issubclass(warning.category, ResourceWarning):
            left_open.append(str(warning.message))
        else:  # not ours to judge: passed on to pytest
            warnings.warn_explicit(
                warning.message, warning.category, warning.filename, warning.lineno
            )
    assert left_open == [], f"{page} leaves open what it opened: {left_open}"
    return printed


@pytest.fixture(scope="module")
def transactions_page() -> list[str]:
    return run("transactions.md")


def test_every_page_that_promises_it_runs(transactions_page: list[str]) -> None:
    assert len(transactions_page) == len(blocks("transactions.md"))


def test_transactions_page_shows_what_it_says(transactions_page: list[str]) -> None:
    text = "\n".join(transactions_page)
    accounts = transactions_page[1]
    assert "private_key=<secret>" in accounts
    assert "InvalidKeyError" in accounts
    assert "not-hex" not in accounts  # the bad key text is never echoed
    transfers = transactions_page[2].splitlines()
    assert transfers[0].startswith("True ")
    assert transfers[0].endswith("transfer_coins")
    assert transfers[1] == "0x1::primary_fungible_store::transfer 150001000"
    failed = transactions_page[4].split()
    assert failed[:3] == ["False", "0x1::fungible_asset", "EINSUFFICIENT_BALANCE"]
    assert transactions_page[5].strip() == "True True"
    assert "int" in transactions_page[6]
    assert "expects u64, got -5" in transactions_page[7]
    assert transactions_page[8].strip() == "FeePayerSignature True"
    assert transactions_page[9].strip() == "True True"  # orderless: committed, seq = u64 max
    assert transactions_page[10].strip() == "True"
    assert "arg[1] = u64 25000" in text


@pytest.fixture(scope="module")
def faucet_page() -> list[str]:
    return run("faucet.md")


def test_faucet_page_shows_what_it_says(faucet_page: list[str]) -> None:
    assert len(faucet_page) == len(blocks("faucet.md"))
    first = faucet_page[0].splitlines()
    assert first[0].startswith("FaucetClient('http://127.0.0.1:")
    assert "token set" in first[0]
    assert first[1:] == ["received 100000000 octas", "committed: True 0x", "100000000"]
    assert faucet_page[1].splitlines() == ["True", "True", "100000000"]
    grace = faucet_page[2].splitlines()
    assert grace[0] == "100000000"
    assert grace[1].startswith("TokenProvider(<lambda>, expires in ")
    assert faucet_page[3] == "AuthTokenInvalidError 403 Failed to verify JWT token\n"
    assert "eyJ" not in "".join(faucet_page)  # no token was ever printed


@pytest.fixture(scope="module")
def charts_page() -> list[str]:
    return run("charts.md")


def test_charts_page_shows_what_it_says(charts_page: list[str]) -> None:
    assert len(charts_page) == len(blocks("charts.md"))
    assert charts_page[0].endswith(" transactions in 361 blocks\n")
    same, subtitle = charts_page[1].splitlines()
    assert same == "True True"
    assert re.fullmatch(
        r"[1-9]\d{0,2}(,\d{3})* user transactions, per 15min bucket; utilisation is block gas "
        r"over the block gas limit of 3,200 gas units",
        subtitle,
    )
    # Runs 38 to 40 of the day (notebook 02): 6, 6 and 1 full blocks.
    assert charts_page[2].startswith("13 full blocks; fullest 10")
    assert charts_page[3] == ""  # the interactive chart displays nothing when run as a script
    brushed = charts_page[4].split()
    assert int(brushed[0]) > 100
    assert brushed[3:] == ["2025-06-01", "14:00:00+00:00"]  # a run of blocks ends on the hour


@pytest.fixture(scope="module")
def getting_started_page() -> list[str]:
    return run("getting-started.md")


def test_getting_started_page_shows_what_it_says(getting_started_page: list[str]) -> None:
    assert getting_started_page == [
        "4 True\n",
        "100 UInt64 datetime64[us, UTC]\nUInt64\n",
        "0 100000000\n",
    ]
