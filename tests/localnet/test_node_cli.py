"""``ledgerkit node`` from the shell: it serves, prints its dev accounts, and Ctrl-C stops it."""

from __future__ import annotations

import re
import signal
import subprocess
import sys

import httpx
from aptos_sdk import ed25519
from aptos_sdk.account_address import AccountAddress


def test_node_command_serves_and_stops_cleanly_on_ctrl_c() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "ledgerkit.cli", "node", "--port", "0", "--blocks", "3",
         "--seed", "5", "--dev-accounts", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        lines = []
        for line in process.stdout:
            lines.append(line)
            if line.startswith("Press Ctrl-C"):
                break
        text = "".join(lines)
        url = re.search(r"ledgerkit local node: (http://127\.0\.0\.1:\d+/v1)", text)
        assert url, text
        accounts = re.findall(
            r"^ +(0x[0-9a-f]{64}) +(ed25519-priv-0x[0-9a-f]{64})$", text, re.MULTILINE
        )
        assert len(accounts) == 2
        # The keys are printed in AIP-80 form, which the official SDK reads in strict mode.
        for address, secret in accounts:
            sdk_key = ed25519.PrivateKey.from_str(secret, strict=True)
            assert str(AccountAddress.from_key(sdk_key.public_key())) == address
        info = httpx.get(url[1] + "/", timeout=10).json()
        assert info["block_height"] == "3"
        account = httpx.get(f"{url[1]}/accounts/{accounts[0][0]}", timeout=10).json()
        assert account["sequence_number"] == "0"
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        assert "stopping" in out
        assert "Traceback" not in err
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_node_command_refuses_an_unknown_endpoint_group() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ledgerkit.cli", "node", "--port", "0", "--disable", "nope"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert "unknown endpoint group" in done.stderr
    assert "Traceback" not in done.stderr
