"""The official SDKs' faucet clients against the faucet of ``ledgerkit node``, started as a
user starts it (here on free ports): the Python SDK's ``FaucetClient.fund_account``
(``POST /mint``) and the TypeScript SDK's ``fundAccount`` (``POST /fund``, through
``ts/scenarios.mjs``) work unchanged, as against the faucet of a local network, and the
balance is the amount asked (written out).
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from aptos_sdk.account import Account
from aptos_sdk.async_client import FaucetClient, RestClient

pytestmark = [pytest.mark.interop, pytest.mark.timeout(300)]

TS_DIR: Final = Path(__file__).parent / "ts"
TS_SDK: Final = TS_DIR / "node_modules" / "@aptos-labs" / "ts-sdk" / "package.json"
#: Every wait on the command is bounded by this.
TIMEOUT: Final = 60.0
COMMAND: Final = [sys.executable, "-m", "ledgerkit.cli", "node", "--port", "0",
                  "--faucet-port", "0", "--indexer-port", "0", "--blocks", "2",
                  "--dev-accounts", "1"]  # fmt: skip


@pytest.fixture(scope="module")
def urls() -> Iterator[tuple[str, str]]:
    """``(node API, faucet)`` of a ``ledgerkit node`` started for this module."""
    process = subprocess.Popen(
        COMMAND, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    seen: list[str] = []
    try:
        while not seen or not seen[-1].startswith("Press Ctrl-C"):
            line = lines.get(timeout=TIMEOUT)
            if line is None:
                pytest.fail(f"ledgerkit node exited: {seen}")
            seen.append(line)
        text = "".join(seen)
        node = re.search(r"^ledgerkit local node: (\S+)$", text, re.MULTILINE)
        faucet = re.search(r"^  faucet +(\S+)", text, re.MULTILINE)
        assert node, text
        assert faucet, text
        yield node[1], faucet[1]
    finally:
        process.terminate()
        process.wait(timeout=TIMEOUT)
        reader.join(timeout=TIMEOUT)
        assert process.stdout is not None
        process.stdout.close()


def test_fund_account_of_the_python_sdk_creates_and_funds(urls: tuple[str, str]) -> None:
    node_url, faucet_url = urls

    async def scenario() -> tuple[int, int, bool]:
        rest = RestClient(node_url)
        faucet = FaucetClient(faucet_url, rest)
        try:
            alice = Account.generate()
            # As the SDK's examples: 100,000,000 octas (1 APT), then 20 APT more, waited for.
            await faucet.fund_account(alice.address(), 100_000_000)
            first = await rest.account_balance(alice.address())
            await faucet.fund_account(alice.address(), 2_000_000_000)
            then = await rest.account_balance(alice.address())
            return first, then, await faucet.healthy()
        finally:
            await rest.close()

    first, then, healthy = asyncio.run(asyncio.wait_for(scenario(), timeout=120))
    assert (first, then, healthy) == (100_000_000, 2_100_000_000, True)


def test_fund_account_of_the_typescript_sdk_creates_and_funds(urls: tuple[str, str]) -> None:
    node_url, faucet_url = urls
    node = shutil.which("node")
    if node is None or not TS_SDK.is_file():
        missing = "`node`" if node is None else "the TypeScript SDK in tests/interop/ts"
        if os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}:
            pytest.fail(f"CI=true but {missing} is not installed (`make test` installs it)")
        pytest.skip(f"{missing} is not installed")
    recipient = str(Account.generate().address())  # no account yet: the funding creates it
    command = [node, "scenarios.mjs", "fund", node_url, faucet_url, recipient, "250000000"]
    done = subprocess.run(
        command, cwd=TS_DIR, capture_output=True, text=True, timeout=150, check=False
    )
    results = json.loads(done.stdout or "{}")
    assert results["fund"]["ok"], done.stdout + done.stderr[-2000:]
    assert results["fund"]["value"]["success"] is True
    assert results["balance"] == {"ok": True, "value": "250000000"}
