"""``ledgerkit extract transactions`` end to end, in a subprocess; from a node that wants
an api key, read from a file or an environment variable, never from the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from extract_helpers import API_KEY, VERSIONS, KeyedNode

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


def test_the_api_key_comes_from_a_file(keyed: KeyedNode, tmp_path: Path) -> None:
    key_file = tmp_path / "key"
    key_file.write_text(API_KEY + "\n")  # as an editor or echo leaves it
    out = tmp_path / "data"
    args = ["--start", "0", "--stop", "150", "--out", str(out), "--url", keyed.url]
    done = _cli(*args, "--api-key-file", str(key_file))
    assert done.returncode == 0, done.stderr
    assert "(150 rows)" in done.stdout
    assert API_KEY not in done.stdout + done.stderr
    assert pd.read_parquet(out / "transactions")["version"].tolist() == list(range(150))


def test_the_api_key_comes_from_an_environment_variable(keyed: KeyedNode, tmp_path: Path) -> None:
    env = {**os.environ, "NODE_KEY": API_KEY}
    args = ["--start", "0", "--stop", "120", "--out", str(tmp_path), "--url", keyed.url]
    done = _cli(*args, "--api-key-env", "NODE_KEY", env=env)
    assert done.returncode == 0, done.stderr
    assert "(120 rows)" in done.stdout
    assert API_KEY not in done.stdout + done.stderr


def test_without_the_key_the_keyed_node_refuses_in_one_line(
    keyed: KeyedNode, tmp_path: Path
) -> None:
    done = _cli("--start", "0", "--stop", "10", "--out", str(tmp_path), "--url", keyed.url)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1
    assert "401" in done.stderr


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--api-key-env", "LEDGERKIT_TEST_UNSET_KEY", "$LEDGERKIT_TEST_UNSET_KEY is not set"),
        ("--api-key-file", "no-such-key-file", "cannot read --api-key-file no-such-key-file"),
    ],
)
def test_a_missing_key_source_exits_1_naming_it(
    keyed: KeyedNode, tmp_path: Path, option: str, value: str, message: str
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "LEDGERKIT_TEST_UNSET_KEY"}
    args = ["--start", "0", "--stop", "10", "--out", str(tmp_path / "d"), "--url", keyed.url]
    done = _cli(*args, option, str(tmp_path / value) if "file" in option else value, env=env)
    assert done.returncode == 1
    assert done.stderr.startswith("ledgerkit: InputError: ")
    assert message.split(" no-such")[0] in done.stderr
    assert not (tmp_path / "d").exists()


def test_there_is_no_option_for_the_key_itself(tmp_path: Path) -> None:
    done = _cli("--start", "0", "--stop", "1", "--out", str(tmp_path), "--api-key", API_KEY)
    assert done.returncode == 2  # argparse: unrecognized argument
    assert "--api-key" in done.stderr


def test_the_range_may_be_oldest_to_head(node: LocalNode, tmp_path: Path) -> None:
    # An unpruned node keeps every version: oldest is 0, head one past its newest.
    done = _cli("--start", "oldest", "--stop", "head", "--out", str(tmp_path), "--url", node.url)
    assert done.returncode == 0, done.stderr
    assert f"transactions [0, {VERSIONS}) of chain 4" in done.stdout


def test_a_range_end_that_is_neither_a_number_nor_a_name_exits_2(tmp_path: Path) -> None:
    done = _cli("--start", "newest", "--stop", "head", "--out", str(tmp_path))
    assert done.returncode == 2
    assert "an integer or 'oldest', not 'newest'" in done.stderr
