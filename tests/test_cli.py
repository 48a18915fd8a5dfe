"""The ``ledgerkit`` command, as a user sees it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pandas as pd
import pyarrow as pa
import pytest

from ledgerkit import Address
from ledgerkit.cli import main
from ledgerkit.extract import KINDS, ExtractKind, extract, read_manifest
from ledgerkit.localnet import LocalNode

HASH_OR_ADDRESS = re.compile(r"0x[0-9a-f]{64}")
SIGNED_TRANSACTION_FIELDS = [
    "sender",
    "sequence_number",
    "payload",
    "entry_function",
    "module_address",
    "module_name",
    "function",
    "type_args",
    "args",
    "arg[0]",
    "arg[1]",
    "max_gas_amount",
    "gas_unit_price",
    "expiration_timestamp_secs",
    "chain_id",
    "authenticator",
    "public_key",
    "signature",
]


@pytest.fixture(scope="module")
def demo_out() -> str:
    """One run of ``ledgerkit demo`` as a user starts it, in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-m", "ledgerkit.cli", "demo"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return done.stdout


def _rows(out: str) -> dict[str, str]:
    """The indented ``label   value`` lines of the summaries."""
    rows = {}
    for line in out.splitlines():
        if line.startswith("  ") and not line.startswith("   "):
            label, value = line[2:26].strip(), line[26:]
            rows[label] = value
    return rows


@pytest.fixture(scope="module")
def node_accounts() -> list[Address]:
    from ledgerkit.localnet.chain import dev_accounts

    return [account.address for account in dev_accounts(0, 2)]


def test_demo_starts_the_embedded_node(demo_out: str) -> None:
    assert re.search(r"^Embedded node at http://127\.0\.0\.1:\d+/v1 \(seed 0\)$", demo_out, re.M)
    rows = _rows(demo_out)
    assert rows["chain id"] == "4"
    assert int(rows["ledger version"]) > 0
    assert int(rows["block height"]) == 360  # the default chain: a day in 360 blocks
    assert int(rows["gas estimate"]) >= 100


def test_demo_transfers_between_two_dev_accounts(
    demo_out: str, node_accounts: list[Address]
) -> None:
    rows = _rows(demo_out)
    assert rows["sender"] == str(node_accounts[0])
    assert rows["recipient"] == str(node_accounts[1])
    assert rows["signature verifies"] == "yes"
    assert HASH_OR_ADDRESS.fullmatch(rows["transaction hash"])


def test_demo_commits_and_the_balances_add_up(demo_out: str) -> None:
    rows = _rows(demo_out)
    assert rows["success"] == "True"
    assert rows["vm status"] == "Executed successfully"
    fee = int(rows["fee (octas)"])
    assert fee == int(rows["gas used"]) * 100
    lost = int(re.search(r"\(-(\d+)\)", rows["sender balance"])[1])  # type: ignore[index]
    gained = int(re.search(r"\(\+(\d+)\)", rows["recipient balance"])[1])  # type: ignore[index]
    assert gained == 1_500_000_000
    assert lost == gained + fee


def test_demo_explains_every_field_of_the_signed_transaction(
    demo_out: str, node_accounts: list[Address]
) -> None:
    table = demo_out.split("field by field:\n", 1)[1].split("\n\n", 1)[0]
    fields = {}
    for line in table.splitlines()[1:]:
        match = re.match(r"^ *\d+ .*?  (?P<field>\S+(?: \S+)*?)(?: = (?P<value>.*))?$", line)
        assert match, line
        fields[match["field"].strip()] = match["value"]
    for name in SIGNED_TRANSACTION_FIELDS:
        assert name in fields, f"{name!r} not explained"
    assert fields["sender"] == str(node_accounts[0])
    assert fields["arg[0]"] == str(node_accounts[1])
    assert fields["sequence_number"] == "0"
    assert fields["max_gas_amount"] == "2000"
    assert fields["gas_unit_price"] == "100"
    assert fields["chain_id"] == "4"
    assert fields["module_address"] == "0x1"
    assert fields["module_name"] == "'aptos_account'"
    assert fields["function"] == "'transfer'"
    # arg[1] is the BCS u64 1_500_000_000, little-endian.
    assert fields["arg[1]"] == "0x" + (1_500_000_000).to_bytes(8, "little").hex()


def test_demo_byte_lines_tile_the_whole_transaction(demo_out: str) -> None:
    size = re.search(r"SignedTransaction, (\d+) bytes", demo_out)
    assert size
    total = int(size[1])
    table = demo_out.split("field by field:\n", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    expected_offset = 0
    for line in table:
        match = re.match(
            r"^ *(?P<offset>\d+)  (?P<hex>(?:[0-9a-f]{2} )+)(?:\.\.\.\(\+(?P<more>\d+)\))?", line
        )
        if not match:
            continue  # a heading line: a struct or enum without bytes of its own
        assert int(match["offset"]) == expected_offset, line
        expected_offset += len(match["hex"].split()) + int(match["more"] or 0)
    assert expected_offset == total


def test_demo_never_prints_a_private_key(demo_out: str) -> None:
    from ledgerkit.localnet.chain import dev_accounts

    out = demo_out.lower().replace(" ", "")
    for account in dev_accounts(0, 2):
        secret = account.private_key.secret_hex().lower().removeprefix("0x")
        assert secret[:16] not in out


def test_demo_addresses_parse(demo_out: str) -> None:
    for text in HASH_OR_ADDRESS.findall(demo_out):
        assert Address.parse(text).long == text


@pytest.mark.parametrize(
    "command_line",
    [
        "",
        "bogus",
        "demo --nope",
        "extract bogus",
        "extract blocks --start x --stop 2 --out d",
        "extract events --creation-number 2 --start 0 --stop 2 --out d",
        "extract events --address 0x1 --start 0 --stop 2 --out d",
    ],
)
def test_bad_command_lines_exit_with_argparse_status_2(
    command_line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(command_line.split())
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert "usage: ledgerkit" in captured.err
    assert captured.out == ""


def test_help_lists_the_demo_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    assert "demo" in capsys.readouterr().out


def test_extract_help_lists_every_kind_of_the_function(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["extract", "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    listed = re.findall(r"^    (\w+)", out, flags=re.M)
    assert listed == ["transactions", "blocks", "events", "transaction_events", "activity"]
    assert listed == list(KINDS)  # a kind added to extract() is offered here too


#: Runs ``ledgerkit ARGV`` and prints the heavy modules it loaded, as JSON.
_LOADED_PROBE = """
import contextlib, io, json, sys
from ledgerkit.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
    main(sys.argv[1:])
heavy = ("pandas", "pyarrow", "ledgerkit.extract")
print(json.dumps(sorted(m for m in sys.modules if m.startswith(heavy))))
"""


@pytest.mark.parametrize("argv", [["--help"], ["node", "--help"], ["demo", "--help"]])
def test_help_of_other_commands_waits_for_no_extraction_import(argv: list[str]) -> None:
    """The kinds of ``extract`` (and their partition sizes) are read only when it is used."""
    done = subprocess.run(
        [sys.executable, "-c", _LOADED_PROBE, *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert json.loads(done.stdout) == []


@pytest.mark.parametrize(
    ("kind", "says"),
    [
        ("transaction_events", "the events the transactions of versions [start, stop) carry"),
        ("activity", "a row per (version, account), its roles"),
    ],
)
def test_extract_help_of_a_kind_says_what_it_holds_and_its_partition_size(
    kind: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["extract", kind, "--help"])
    assert info.value.code == 0
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps at the terminal width
    assert says in out
    assert "--start START first version, or 'oldest'" in out
    assert "versions per Parquet file (default: 10000)" in out


# -- extract blocks and events against a small local node ------------------------------------

#: ``0x1``'s creation number 2 is the ``NewBlockEvent`` stream: one event per block.
BLOCK_EVENTS = ("0x1", "2")


@pytest.fixture(scope="module")
def small_node() -> Iterator[LocalNode]:
    with LocalNode(seed=0, blocks=10) as running:
        yield running


Run = Callable[[list[str]], tuple[int, str, str]]


@pytest.fixture
def run_extract(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Run:
    """``ledgerkit extract ARGV`` in this process: (exit status, stdout, stderr)."""
    # The nbval plugin imports ipykernel, which the extraction takes for a notebook and
    # draws a progress bar for; a command run without a terminal draws none.
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)

    def run(argv: list[str]) -> tuple[int, str, str]:
        code = main(["extract", *argv])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


def test_extract_blocks_writes_the_heights_asked_for(
    small_node: LocalNode, tmp_path: Path, run_extract: Run
) -> None:
    args = f"blocks --start 2 --stop 9 --out {tmp_path} --url {small_node.url}".split()
    code, out, err = run_extract([*args, "--partition-size", "4", "--concurrency", "3"])
    assert (code, err) == (0, "")
    assert out.startswith("blocks [2, 9) of chain 4 in ")
    assert "3 partitions, 3 written (7 rows), 0 already complete" in out
    frame = pd.read_parquet(tmp_path / "blocks")
    assert frame["block_height"].tolist() == list(range(2, 9))


def test_extract_blocks_keeps_1000_heights_per_file_by_default(
    small_node: LocalNode, tmp_path: Path, run_extract: Run
) -> None:
    code, out, _ = run_extract(
        f"blocks --start 0 --stop 3 --out {tmp_path} --url {small_node.url}".split()
    )
    assert code == 0
    assert "1 partitions, 1 written (3 rows)" in out
    manifest = read_manifest(tmp_path)
    assert manifest is not None
    assert manifest["partition_size"] == 1000


def test_extract_events_writes_the_stream_and_a_rerun_fetches_nothing(
    small_node: LocalNode, tmp_path: Path, run_extract: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEDGERKIT_NODE_URL", small_node.url)  # the node, as without --url
    address, creation_number = BLOCK_EVENTS
    args = ["events", "--address", address, "--creation-number", creation_number]
    args += f"--start 1 --stop 7 --out {tmp_path} --partition-size 4".split()
    code, out, err = run_extract(args)
    assert (code, err) == (0, "")
    assert out.startswith("events [1, 7) of chain 4 in ")
    assert "2 partitions, 2 written (6 rows), 0 already complete" in out
    frame = pd.read_parquet(tmp_path / "events")
    assert frame["sequence_number"].tolist() == list(range(1, 7))
    assert set(frame["type"]) == {"0x1::block::NewBlockEvent"}
    code, again, err = run_extract(args)
    assert (code, err) == (0, "")
    assert "2 partitions, 0 written (0 rows), 2 already complete" in again


@pytest.mark.parametrize(
    ("command_line", "error"),
    [
        ("blocks --start 5 --stop 5", "InputError: stop must be greater than start"),
        ("blocks --start -1 --stop 5", "InputError: start must be a non-negative integer"),
        ("blocks --start 0 --stop 999", "RangeBeyondLedgerError: blocks: stop=999 is past"),
        (
            "events --address 0xzz --creation-number 2 --start 0 --stop 3",
            "InvalidAddressError: not a hex address: '0xzz'",
        ),
        (
            "events --address 0x1 --creation-number -1 --start 0 --stop 3",
            "InvalidIntegerError: creation_number out of range",
        ),
        (
            "events --address 0x1 --creation-number 2 --start 7 --stop 3",
            "InputError: stop must be greater than start",
        ),
    ],
)
def test_extract_bad_input_exits_1_with_one_line(
    command_line: str, error: str, small_node: LocalNode, tmp_path: Path, run_extract: Run
) -> None:
    out = tmp_path / "data"
    code, stdout, err = run_extract(
        [*command_line.split(), "--out", str(out), "--url", small_node.url]
    )
    assert code == 1
    assert stdout == ""
    assert err.startswith(f"ledgerkit: {error}")
    assert err.count("\n") == 1
    assert not out.exists()  # refused before anything was written


def test_extract_events_past_the_end_of_the_stream_names_the_missing_ones(
    small_node: LocalNode, tmp_path: Path, run_extract: Run
) -> None:
    address, creation_number = BLOCK_EVENTS
    args = ["events", "--address", address, "--creation-number", creation_number]
    args += f"--start 0 --stop 99 --out {tmp_path} --url {small_node.url}".split()
    code, stdout, err = run_extract(args)
    assert code == 1
    assert stdout == ""
    assert err.startswith("ledgerkit: IncompleteExtractionError: events: ")
    assert err.endswith("missing: 10..98\n")
    assert err.count("\n") == 1


# -- the kinds read from transactions, against the run's shared node ------------------------


def _ledger(node: LocalNode) -> dict[str, Any]:
    """The node's ledger information (``GET /v1``), read over HTTP."""
    answer = httpx.get(node.url, timeout=30)
    answer.raise_for_status()
    info: dict[str, Any] = answer.json()
    return info


def _transactions(node: LocalNode, start: int, stop: int) -> list[dict[str, Any]]:
    """The node's transactions of versions ``[start, stop)``, as JSON, read over HTTP."""
    found: list[dict[str, Any]] = []
    while start + len(found) < stop:
        limit = min(100, stop - start - len(found))
        answer = httpx.get(
            f"{node.url}/transactions",
            params={"start": start + len(found), "limit": limit},
            timeout=30,
        )
        answer.raise_for_status()
        found += answer.json()
    return found


def test_extract_transaction_events_writes_every_event_of_the_range(
    node: LocalNode, tmp_path: Path, run_extract: Run
) -> None:
    args = f"transaction_events --start 5 --stop 120 --out {tmp_path} --url {node.url}".split()
    code, out, err = run_extract([*args, "--partition-size", "50"])
    assert (code, err) == (0, "")
    assert out.startswith("transaction_events [5, 120) of chain 4 in ")
    assert "3 partitions, 3 written (" in out
    manifest = read_manifest(tmp_path)
    assert manifest is not None
    assert (manifest["kind"], manifest["range"], manifest["partition_size"]) == (
        "transaction_events",
        [5, 120],
        50,
    )
    # Every event each transaction carries, one row each, counted from the node's answers.
    carried = [
        (int(tx["version"]), index)
        for tx in _transactions(node, 5, 120)
        for index, _ in enumerate(tx.get("events", []))
    ]
    assert 0 < len(carried) != 120 - 5  # a row per event, not per transaction
    assert sum(entry["rows"] for entry in manifest["partitions"]) == len(carried)
    frame = pd.read_parquet(tmp_path / "transaction_events")
    assert list(zip(frame["version"], frame["event_index"], strict=True)) == carried
    assert f"({len(carried)} rows)" in out


def test_extract_activity_writes_what_the_function_writes(
    node: LocalNode, tmp_path: Path, run_extract: Run
) -> None:
    args = f"activity --start 5 --stop 120 --out {tmp_path / 'cli'} --url {node.url}".split()
    code, out, err = run_extract(args)
    assert (code, err) == (0, "")
    assert out.startswith("activity [5, 120) of chain 4 in ")
    manifest = read_manifest(tmp_path / "cli")
    assert manifest is not None
    assert (manifest["kind"], manifest["range"], manifest["partition_size"]) == (
        "activity",
        [5, 120],
        10_000,  # the function's default
    )
    summary = extract("activity", node.url, tmp_path / "python", start=5, stop=120, progress=False)
    assert sum(entry["rows"] for entry in manifest["partitions"]) == summary.rows_written
    assert f"1 partitions, 1 written ({summary.rows_written} rows)" in out
    frame = pd.read_parquet(tmp_path / "cli" / "activity")
    pd.testing.assert_frame_equal(frame, pd.read_parquet(tmp_path / "python" / "activity"))
    # A row per (version, account): each user transaction's sender has one, as the sender.
    rows = {
        (int(v), str(Address.parse(a))): r
        for v, a, r in frame[["version", "address", "roles"]].itertuples(index=False)
    }
    assert len(rows) == len(frame)
    senders = [
        (int(tx["version"]), str(Address.parse(tx["sender"])))
        for tx in _transactions(node, 5, 120)
        if tx["type"] == "user_transaction"
    ]
    assert senders
    for key in senders:
        assert "sender" in rows[key].split(",")


@pytest.mark.parametrize("kind", ["transaction_events", "activity"])
def test_extract_from_oldest_to_head_reads_the_ends_from_the_node(
    kind: ExtractKind, node: LocalNode, tmp_path: Path, run_extract: Run
) -> None:
    before = _ledger(node)
    args = f"{kind} --start oldest --stop head --out {tmp_path / 'cli'} --url {node.url}"
    code, out, err = run_extract(args.split())
    after = _ledger(node)
    assert (code, err) == (0, "")
    manifest = read_manifest(tmp_path / "cli")
    assert manifest is not None
    [ends] = manifest["resolved_ends"]
    assert (ends["start"], ends["stop"]) == ("oldest", "head")
    start, stop = manifest["range"]
    assert start == ends["first"] == int(before["oldest_ledger_version"]) == 0
    # One past the newest version, read when the run began.
    assert int(before["ledger_version"]) + 1 <= stop <= int(after["ledger_version"]) + 1
    assert stop == ends["end"]
    assert out.startswith(f"{kind} [0, {stop}) of chain 4 in ")
    summary = extract(kind, node.url, tmp_path / "python", start=0, stop=stop, progress=False)
    assert sum(entry["rows"] for entry in manifest["partitions"]) == summary.rows_written > 0


@pytest.mark.parametrize(
    ("command_line", "error"),
    [
        ("transaction_events --start 5 --stop 5", "InputError: stop must be greater than start"),
        ("activity --start 9 --stop 3", "InputError: stop must be greater than start"),
        ("activity --start -1 --stop 5", "InputError: start must be a non-negative integer"),
        (
            "transaction_events --start 0 --stop 999999",
            "RangeBeyondLedgerError: transaction_events: stop=999999 is past the ledger",
        ),
        # An activity dataset is read from the node's transactions, and says so.
        (
            "activity --start 0 --stop 999999",
            "RangeBeyondLedgerError: transactions: stop=999999 is past the ledger",
        ),
    ],
)
def test_extract_bad_range_of_a_transaction_kind_exits_1_with_one_line(
    command_line: str, error: str, node: LocalNode, tmp_path: Path, run_extract: Run
) -> None:
    out = tmp_path / "data"
    code, stdout, err = run_extract([*command_line.split(), "--out", str(out), "--url", node.url])
    assert code == 1
    assert stdout == ""
    assert err.startswith(f"ledgerkit: {error}")
    assert err.count("\n") == 1
    assert not out.exists()  # refused before anything was written


def test_extract_bad_input_in_a_fresh_process_prints_no_traceback(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "LEDGERKIT_NODE_URL"}
    argv = ["extract", "events", "--address", "0x1g", "--creation-number", "2"]
    argv += ["--start", "0", "--stop", "3", "--out", str(tmp_path / "data")]
    done = subprocess.run(
        [sys.executable, "-m", "ledgerkit.cli", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith("ledgerkit: InvalidAddressError: ")
    assert done.stderr.count("\n") == 1
    assert not (tmp_path / "data").exists()


def test_python_dash_m_ledgerkit_runs_the_command() -> None:
    """``python -m ledgerkit`` is the ``ledgerkit`` command (help, usage and exit status)."""
    done = subprocess.run(
        [sys.executable, "-m", "ledgerkit", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: ledgerkit ")
    for command in ("demo", "extract", "node"):
        assert command in done.stdout
    refused = subprocess.run(
        [sys.executable, "-m", "ledgerkit", "no-such-command"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert refused.returncode == 2
    assert "usage: ledgerkit " in refused.stderr


# -- ledgerkit snapshot --------------------------------------------------------------------

NOTEBOOK_SNAPSHOT = Path(__file__).resolve().parents[1] / "notebooks" / "08-public-network.snapshot"


def test_snapshot_info_of_a_version_1_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["snapshot", "info", str(NOTEBOOK_SNAPSHOT)]) == 0
    # From the file's JSON read by hand: 18 exchanges, 21 answers, 19 distinct bodies.
    assert capsys.readouterr().out.splitlines() == [
        "snapshot: 08-public-network.snapshot",
        "format version: 1",
        "requests: 18",
        "answers: 21",
        "distinct bodies: 19",
        "bytes on disk: 805751",
        "bytes uncompressed: 4134838",
        "chain: 4",
        "ledger versions (answer headers): 1478..1478",
        "transaction versions asked (URLs): 0..1478",
        "base urls: http://127.0.0.1:36191/v1",
        "recorded at: 2026-11-26T19:02:40+00:00",
    ]


def _recorded(tmp_path: Path) -> Path:
    """A version 2 file: a ledger info asked twice (one body), two pages of transactions."""
    from ledgerkit.client.snapshot import Snapshot

    path = tmp_path / "study.snapshot"
    recording = Snapshot(path)
    headers = [("content-type", "application/json"), ("x-aptos-chain-id", "1")]
    info = b'{"chain_id":1,"ledger_version":"3000"}'
    for _ in range(2):
        recording.record(
            httpx.Request("GET", "https://node.test/v1/"),
            200,
            [*headers, ("x-aptos-ledger-version", "3000")],
            info,
        )
    for start in (2000, 2100):
        recording.record(
            httpx.Request("GET", f"https://node.test/v1/transactions?limit=100&start={start}"),
            200,
            [*headers, ("x-aptos-ledger-version", "3004")],
            b"[" + b'{"version":"%d"},' % start * 100 + b"]",
        )
    recording.save()
    return path


def test_snapshot_info_of_a_version_2_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _recorded(tmp_path)
    assert main(["snapshot", "info", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:5] == [
        "snapshot: study.snapshot",
        "format version: 2",
        "requests: 3",
        "answers: 4",
        "distinct bodies: 3",
    ]
    assert lines[5] == f"bytes on disk: {path.stat().st_size}"
    # 38 bytes of ledger info, and two pages of 2 + 100 * 19 bytes.
    assert lines[6:10] == [
        "bytes uncompressed: 3842",
        "chain: 1",
        "ledger versions (answer headers): 3000..3004",
        "transaction versions asked (URLs): 2000..2199",
    ]
    assert lines[10] == "base urls: none"  # recorded without a client


def test_snapshot_verify_passes_a_sound_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["snapshot", "verify", str(_recorded(tmp_path))]) == 0
    assert capsys.readouterr().out == (
        f"snapshot {tmp_path / 'study.snapshot'}: sound (format version 2, 4 answers, "
        "3 distinct bodies checked; no secret found)\n"
    )
    assert main(["snapshot", "verify", str(NOTEBOOK_SNAPSHOT)]) == 0


def _sql(path: Path, statement: str, *parameters: object) -> None:
    import sqlite3

    with sqlite3.connect(path) as db:
        db.execute(statement, parameters)
    db.close()


@pytest.mark.parametrize(
    ("statement", "parameters", "says"),
    [
        (
            "UPDATE bodies SET data = ?, size = 5 WHERE size = 38",
            (pa.Codec("zstd").compress(b"other", asbytes=True),),
            "its SHA-256 does not match (tampered or corrupt)",
        ),
        ("DELETE FROM bodies WHERE size = 38", (), "answer 0 has no body stored"),
        (
            "UPDATE answers SET headers = ? WHERE seq = 1",
            ('[["x-aptos-echo", "Bearer abcdef0123456789"]]',),
            "header x-aptos-echo holds a bearer token",
        ),
        (
            "UPDATE requests SET url = ? WHERE id = 1",
            ("https://node.test/v1/?api_key=abcdef0123456789",),
            "query parameter api_key holds a value that is not ***",
        ),
        (
            "INSERT INTO base_urls (url) VALUES (?)",
            ("https://node.test/3f9a8c7e6d5b4a3f2e1d0c9b/v1",),
            "is recorded with more of its path than the client shows",
        ),
    ],
    ids=["tampered-body", "missing-body", "bearer-header", "key-in-url", "token-in-base-url"],
)
def test_snapshot_verify_fails_a_tampered_file_or_a_planted_secret(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    statement: str,
    parameters: tuple[object, ...],
    says: str,
) -> None:
    path = _recorded(tmp_path)
    _sql(path, statement, *parameters)
    assert main(["snapshot", "verify", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"ledgerkit: snapshot {path}: ")
    assert says in err
    assert "abcdef0123456789" not in err.replace("api_key=", "")


def test_snapshot_commands_refuse_what_is_not_a_snapshot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.snapshot"
    path.write_bytes(b"plain text, not a snapshot")
    assert main(["snapshot", "info", str(path)]) == 1
    assert capsys.readouterr().err == (
        "ledgerkit: SnapshotError: snapshot notes.snapshot: not a gzip-compressed snapshot, "
        "or corrupt\n"
    )
    assert main(["snapshot", "verify", str(path)]) == 1
    assert "not a gzip-compressed snapshot" in capsys.readouterr().err
    assert main(["snapshot", "info", str(tmp_path / "nowhere.snapshot")]) == 1
    assert "cannot be read" in capsys.readouterr().err
