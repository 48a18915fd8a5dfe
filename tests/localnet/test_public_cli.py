"""``ledgerkit node --profile public`` from the shell: it starts the pruned fullnode and the
archive over one chain, prints both URLs and the key, and stops cleanly."""

from __future__ import annotations

import re
import signal
import subprocess

import httpx
from test_node_cli import COMMAND, Child


def test_the_public_profile_starts_both_nodes_and_prints_both_urls() -> None:
    # On the chain clock: an idle node on the wall clock makes blocks between the reads.
    child = Child(
        "--profile", "public", "--budget", "500", "--rate-window", "60", "--clock", "chain"
    )
    try:
        text = child.read_until("Press Ctrl-C")
        fullnode = re.search(r"ledgerkit local node: (http://127\.0\.0\.1:\d+/v1)", text)
        archive = re.search(r"^  archive +(http://127\.0\.0\.1:\d+/v1)", text, re.MULTILINE)
        key = re.search(r"^  api key +(\S+)", text, re.MULTILINE)
        assert fullnode, text
        assert archive, text
        assert key, text
        assert fullnode[1] != archive[1]
        full = httpx.get(fullnode[1] + "/", timeout=10).json()
        whole = httpx.get(archive[1] + "/", timeout=10).json()
        assert whole["oldest_ledger_version"] == "0"
        assert int(full["oldest_ledger_version"]) > 0
        assert full["ledger_version"] == whole["ledger_version"]
        assert full["block_height"] == "3"
        auth = {"Authorization": f"Bearer {key[1]}"}
        assert httpx.get(fullnode[1] + "/", headers=auth, timeout=10).status_code == 200
        assert httpx.get(archive[1] + "/", headers=auth, timeout=10).status_code == 401
        child.process.send_signal(signal.SIGINT)
        code, out, err = child.finish()
        assert "stopping (SIGINT)" in out
        assert code == 0, err
        assert "Traceback" not in err
    finally:
        child.kill()


def test_public_options_without_the_public_profile_are_refused() -> None:
    done = subprocess.run(
        [*COMMAND[:3], "node", "--port", "0", "--overload-rate", "0.5"],  # python -m ledgerkit.cli
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert "--overload-rate" in done.stderr
    assert "--profile public" in done.stderr
    assert "Traceback" not in done.stderr
