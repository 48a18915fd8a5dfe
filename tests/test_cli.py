"""The ``ledgerkit`` command, as a user sees it."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from ledgerkit import Address
from ledgerkit.cli import main

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
    from ledgerkit.localnet._accounts import dev_accounts

    return [account.address for account in dev_accounts(0, 2)]


def test_demo_starts_the_embedded_node(demo_out: str) -> None:
    assert re.search(r"^Embedded node at http://127\.0\.0\.1:\d+/v1 \(seed 0\)$", demo_out, re.M)
    rows = _rows(demo_out)
    assert rows["chain id"] == "4"
    assert int(rows["ledger version"]) > 0
    assert int(rows["block height"]) == 200
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
    from ledgerkit.localnet._accounts import dev_accounts

    out = demo_out.lower().replace(" ", "")
    for account in dev_accounts(0, 2):
        secret = account.private_key.secret_hex().lower().removeprefix("0x")
        assert secret[:16] not in out


def test_demo_addresses_parse(demo_out: str) -> None:
    for text in HASH_OR_ADDRESS.findall(demo_out):
        assert Address.parse(text).long == text


@pytest.mark.parametrize("argv", [[], ["bogus"], ["demo", "--nope"]])
def test_bad_command_lines_exit_with_argparse_status_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert "usage: ledgerkit" in captured.err
    assert captured.out == ""


def test_help_lists_the_demo_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    assert "demo" in capsys.readouterr().out
