"""The ``ledgerkit`` command, as a user sees it."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from ledgerkit import Address, Ed25519PrivateKey
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


def _demo(capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["demo"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


def _summary(out: str) -> dict[str, str]:
    """The ``label   value`` lines above the byte table."""
    head = out.split("\nSignedTransaction,")[0]
    rows = {}
    for line in head.splitlines()[1:]:
        if line.strip():
            label, value = line[:22].strip(), line[22:]
            rows[label] = value
    return rows


@pytest.fixture(scope="module")
def alice() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_seed(b"ledgerkit demo: alice")


@pytest.fixture(scope="module")
def bob() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_seed(b"ledgerkit demo: bob")


def test_demo_summary_shows_who_what_and_that_it_verifies(
    capsys: pytest.CaptureFixture[str], alice: Ed25519PrivateKey, bob: Ed25519PrivateKey
) -> None:
    rows = _summary(_demo(capsys))
    assert HASH_OR_ADDRESS.fullmatch(rows["sender"])
    assert HASH_OR_ADDRESS.fullmatch(rows["recipient"])
    assert HASH_OR_ADDRESS.fullmatch(rows["transaction hash"])
    assert HASH_OR_ADDRESS.fullmatch(rows["sender public key"])
    assert rows["sender"] == str(alice.address())
    assert rows["recipient"] == str(bob.address())
    assert rows["sender"] != rows["recipient"]
    assert rows["sender public key"] == str(alice.public_key)
    assert rows["function"] == "0x1::aptos_account::transfer"
    assert rows["signature verifies"] == "yes"
    assert rows["decodes to the same"] == "yes"
    assert rows["signing message"].startswith("197 bytes")


def test_demo_has_the_lines_a_reader_looks_for(capsys: pytest.CaptureFixture[str]) -> None:
    out = _demo(capsys)
    assert re.search(r"^signature verifies +yes$", out, re.MULTILINE)
    assert re.search(r"^transaction hash +0x[0-9a-f]{64}$", out, re.MULTILINE)
    assert "15 APT" in out


def test_demo_explains_every_field_of_the_signed_transaction(
    capsys: pytest.CaptureFixture[str], alice: Ed25519PrivateKey, bob: Ed25519PrivateKey
) -> None:
    out = _demo(capsys)
    table = out.split("field by field:\n", 1)[1]
    fields = {}
    for line in table.splitlines()[1:]:
        match = re.match(r"^ *\d+ .*?  (?P<field>\S+(?: \S+)*?)(?: = (?P<value>.*))?$", line)
        assert match, line
        fields[match["field"].strip()] = match["value"]
    for name in SIGNED_TRANSACTION_FIELDS:
        assert name in fields, f"{name!r} not explained"
    assert fields["sender"] == str(alice.address())
    assert fields["arg[0]"] == str(bob.address())
    assert fields["sequence_number"] == "7"
    assert fields["max_gas_amount"] == "2000"
    assert fields["gas_unit_price"] == "100"
    assert fields["expiration_timestamp_secs"] == "1800000000"
    assert fields["chain_id"] == "4"
    assert fields["module_address"] == "0x1"
    assert fields["module_name"] == "'aptos_account'"
    assert fields["function"] == "'transfer'"
    assert fields["public_key"] == str(alice.public_key)
    # arg[1] is the BCS u64 1_500_000_000, little-endian.
    assert fields["arg[1]"] == "0x" + (1_500_000_000).to_bytes(8, "little").hex()


def test_demo_byte_lines_tile_the_whole_transaction(capsys: pytest.CaptureFixture[str]) -> None:
    out = _demo(capsys)
    size = re.search(r"SignedTransaction, (\d+) bytes", out)
    assert size
    total = int(size[1])
    table = out.split("field by field:\n", 1)[1].splitlines()[1:]
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


def test_demo_bytes_show_the_sender_first(
    capsys: pytest.CaptureFixture[str], alice: Ed25519PrivateKey
) -> None:
    out = _demo(capsys)
    sender_line = next(line for line in out.splitlines() if "sender = " in line)
    shown = "".join(re.findall(r"\b[0-9a-f]{2}\b", sender_line.split("...")[0]))
    assert bytes(alice.address()).hex().startswith(shown)
    assert len(shown) == 32  # 16 bytes shown, the rest summarised


def test_demo_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    assert _demo(capsys) == _demo(capsys)


def test_demo_never_prints_the_private_key(
    capsys: pytest.CaptureFixture[str], alice: Ed25519PrivateKey, bob: Ed25519PrivateKey
) -> None:
    out = _demo(capsys).lower()
    for key in (alice, bob):
        secret = key.secret_hex().lower().removeprefix("0x")
        assert len(secret) == 64
        assert secret not in out
        assert secret[:16] not in out.replace(" ", "")


def test_demo_addresses_parse(capsys: pytest.CaptureFixture[str]) -> None:
    for text in HASH_OR_ADDRESS.findall(_demo(capsys)):
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


def test_python_dash_m_runs_the_demo() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ledgerkit.cli", "demo"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert re.search(r"^signature verifies +yes$", done.stdout, re.MULTILINE)
    assert done.stderr == ""


def test_python_dash_m_output_matches_main(capsys: pytest.CaptureFixture[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ledgerkit.cli", "demo"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout == _demo(capsys)
