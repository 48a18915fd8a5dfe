"""An event stream of 10,000 events in the account explorer, in a real browser, beside the
node answering the same pages.

A dev account of the embedded node sets a score 10,000 times (``ledger_demo::set_score``,
one ``ScoreChanged`` event each, in its board's ``score_events`` stream). Voilà serves a
notebook that shows the account explorer on that account and a button that opens the
stream; Debian's chromium (driven by Playwright, every request beyond 127.0.0.1 blocked)
clicks it and then flips pages:

* first rows: from the click to the stream's first rows shown (the kernel builds the
  view, asks the node for the newest page and sends it; the browser draws it);
* a page flip: from a click on Next to the next page's rows shown;
* the node: the same pages asked directly with ``client.events_by_creation_number``.

Goals: first rows within 1 s, a page flip within 100 ms. Run with ``make bench`` or
``.venv/bin/python bench/bench_explorer.py [--events N]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))

from browser_harness import CHROMIUM, CHROMIUM_ARGS, VoilaServer, is_loopback  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402

from ledgerkit import Client, LocalNode  # noqa: E402
from ledgerkit.bcs import EntryFunction, RawTransaction  # noqa: E402

PAGE = 20
FLIPS = 10
GOAL_FIRST_ROWS_S = 1.0
GOAL_FLIP_S = 0.1

NOTEBOOK = """
import ipywidgets as w
from IPython.display import display
import ledgerkit
from ledgerkit.widgets import AccountExplorer

client = ledgerkit.connect({url!r})
explorer = AccountExplorer(client, {address!r})
explorer.add_class("lk-bench")
button = w.Button(description="open the stream")
button.add_class("lk-open")
button.on_click(lambda _b: explorer.open_events({address!r}, {number}, "score events", {count}))
display(button, explorer)
"""


def fill(client: Client, account: object, events: int) -> tuple[int, int]:
    """Set a score ``events`` times (100 at a time, the mempool's limit per sender)."""
    chain_id = client.ledger_info().value.chain_id
    sequence = client.account(account.address).value.sequence_number  # type: ignore[attr-defined]
    expiry = int(client.ledger_info().value.ledger_timestamp) // 1_000_000 + 3_600
    player = "0x" + "5a" * 32
    done = 0
    while done < events:
        batch = []
        for _ in range(min(100, events - done)):
            call = EntryFunction.build(
                "0x1::ledger_demo::set_score", [], [("address", player), ("u64", done)]
            )
            raw = RawTransaction(account.address, sequence, call, 2_000, 100, expiry, chain_id)  # type: ignore[attr-defined]
            batch.append(account.sign(raw))  # type: ignore[attr-defined]
            sequence += 1
            done += 1
        for start in range(0, len(batch), 10):
            client.submit_batch_transactions(batch[start : start + 10])
        client.wait_for_transaction(batch[-1].hash(), timeout=120)
    board = client.account_resource(account.address, "0x1::ledger_demo::Board").value.data  # type: ignore[attr-defined]
    handle = board["score_events"]
    return int(handle["guid"]["id"]["creation_num"]), int(handle["counter"])


def node_pages(client: Client, address: str, number: int, count: int) -> list[float]:
    """Seconds the node takes for the first ``FLIPS + 1`` pages, newest first."""
    times = []
    for page in range(FLIPS + 1):
        end = count - page * PAGE
        if end <= 0:
            break
        start = max(0, end - PAGE)
        began = time.perf_counter()
        client.events_by_creation_number(address, number, start=start, limit=end - start)
        times.append(time.perf_counter() - began)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    args = parser.parse_args()
    if not CHROMIUM.exists():
        sys.exit(f"{CHROMIUM} is missing: make test installs Debian's chromium")
    with LocalNode(seed=0, blocks=20, services=False) as node, Client(node.url) as client:
        alice = node.dev_accounts[0]
        began = time.perf_counter()
        number, count = fill(client, alice, args.events)
        print(f"{count:,} events written in {time.perf_counter() - began:.1f} s")
        node_times = node_pages(client, alice.address.long, number, count)

        with tempfile.TemporaryDirectory() as tmp:
            notebook = Path(tmp) / "bench.ipynb"
            source = NOTEBOOK.format(
                url=node.url, address=alice.address.long, number=number, count=count
            )
            cell = {
                "cell_type": "code",
                "metadata": {},
                "outputs": [],
                "execution_count": None,
                "source": source,
            }
            notebook.write_text(
                json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
            )
            workdir = Path(tmp) / "voila"
            workdir.mkdir()
            with VoilaServer(notebook, workdir=workdir) as voila, sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS)
                )
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.on("pageerror", lambda error: print("page error:", error))
                page.route(
                    "**/*", lambda r: r.continue_() if is_loopback(r.request.url) else r.abort()
                )
                page.goto(voila.url)
                opener = page.locator(".lk-open")
                expect(opener).to_be_visible(timeout=120_000)
                grid = (
                    page.locator(".lk-bench .lk-grid-root")
                    .filter(has=page.locator(".lk-grid-title", has_text="events"))
                    .first
                )
                began = time.perf_counter()
                opener.click()
                first = grid.locator("tr.lk-row").first
                expect(first).to_be_visible(timeout=30_000)
                first_rows = time.perf_counter() - began
                flips = []
                for _ in range(FLIPS):
                    before = first.inner_text()
                    began = time.perf_counter()
                    grid.locator(".lk-grid-next").click()
                    expect(first).not_to_have_text(before, timeout=10_000)
                    flips.append(time.perf_counter() - began)
                browser.close()

    node_first, node_flip = node_times[0], statistics.median(node_times[1:])
    flip = statistics.median(flips)
    print(
        f"first rows in the browser: {first_rows * 1000:7.1f} ms  (goal <= "
        f"{GOAL_FIRST_ROWS_S * 1000:.0f} ms; the node's first page {node_first * 1000:.1f} ms)"
    )
    print(
        f"page flip, median of {FLIPS}: {flip * 1000:7.1f} ms  (goal <= "
        f"{GOAL_FLIP_S * 1000:.0f} ms; the node's page {node_flip * 1000:.1f} ms, "
        f"ratio {flip / node_flip:.1f}x)"
    )


if __name__ == "__main__":
    main()
