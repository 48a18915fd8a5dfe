"""The browser tier's own plumbing: Voilà stops with every kernel it started, even when it
hangs; only loopback requests pass; the served notebooks are no nbval tests."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import httpx
import pytest
from browser_harness import NOTEBOOKS, VoilaServer, is_loopback
from server_process import descendants, is_alive

pytestmark = [pytest.mark.browser, pytest.mark.timeout(1200)]


def _kernels(processes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    def command(pid: int) -> bytes:
        try:
            return Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return b""

    return [process for process in processes if b"ipykernel_launcher" in command(process[0])]


@pytest.mark.parametrize("hangs", [False, True], ids=["stops", "hangs"])
def test_stopping_voila_leaves_no_kernel_behind(tmp_path: Path, hangs: bool) -> None:
    server = VoilaServer(NOTEBOOKS / "probe.ipynb", workdir=tmp_path, stop_timeout=2.0)
    with server:
        # A GET runs the notebook in a new kernel, which then waits for a page that never comes.
        answer = httpx.get(server.url, timeout=120.0, trust_env=False)
        assert answer.status_code == 200
        assert "lk-probe" in answer.text
        assert server.pid is not None
        below = descendants(server.pid)
        kernels = _kernels(below)
        assert len(kernels) == 1, server.log()
        if hangs:  # SIGTERM cannot stop it: it is killed, and its kernel ended after it
            os.kill(server.pid, signal.SIGSTOP)
    assert [process for process in below if is_alive(process)] == []


@pytest.mark.parametrize(
    ("url", "stays"),
    [
        ("http://127.0.0.1:8866/voila/static/voila.js", True),
        ("ws://localhost:8866/api/kernels/x/channels", True),
        ("http://[::1]:8866/", True),
        ("https://cdn.jsdelivr.net/npm/x.css", False),
        ("http://127.0.0.1.example.org/", False),
        ("https://localhost.example.org/", False),
    ],
)
def test_only_loopback_requests_stay(url: str, stays: bool) -> None:
    assert is_loopback(url) is stays


def test_served_notebooks_are_not_collected(request: pytest.FixtureRequest) -> None:
    assert sorted(NOTEBOOKS.glob("*.ipynb")), "the browser tests serve these notebooks"
    config = request.config
    assert config.hook.pytest_ignore_collect(collection_path=NOTEBOOKS, config=config) is True
    assert [item for item in request.session.items if NOTEBOOKS in item.path.parents] == []
