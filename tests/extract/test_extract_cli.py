"""``ledgerkit extract transactions`` end to end, in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd

from ledgerkit.localnet import LocalNode


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ledgerkit.cli", "extract", "transactions", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def test_extract_writes_a_dataset_and_a_second_run_skips_it(
    node: LocalNode, tmp_path: Path
) -> None:
    args = ["--start", "10", "--stop", "510", "--out", str(tmp_path), "--url", node.url]
    done = _cli(*args, "--partition-size", "200", "--concurrency", "4", "--max-rps", "500")
    assert done.returncode == 0, done.stderr
    assert "3 partitions, 3 written (500 rows)" in done.stdout
    assert pd.read_parquet(tmp_path / "transactions")["version"].tolist() == list(range(10, 510))
    again = _cli(*args, "--partition-size", "200")
    assert again.returncode == 0, again.stderr
    assert "0 written (0 rows), 3 already complete" in again.stdout


def test_without_a_url_it_uses_the_embedded_node(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "LEDGERKIT_NODE_URL"}
    done = _cli("--start", "0", "--stop", "300", "--out", str(tmp_path), env=env)
    assert done.returncode == 0, done.stderr
    assert "transactions [0, 300) of chain 4" in done.stdout


def test_a_bad_range_exits_1_with_one_line(node: LocalNode, tmp_path: Path) -> None:
    done = _cli("--start", "0", "--stop", "99999", "--out", str(tmp_path), "--url", node.url)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("ledgerkit: RangeBeyondLedgerError: ")
