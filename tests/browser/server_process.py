"""A server of the browser tests in a subprocess of its own: a free loopback port for it,
its start in a session of its own with its output appended to a log, asking it until it
answers, and its stop with every process it started.

Voilà (``browser_harness``) and JupyterLab (``lab_harness``) both run this way. Their
kernels run in sessions of their own (jupyter_client starts them so), outside the server's
process group: every process below the server is noted before it is stopped and ended
afterwards if it outlived it (Linux ``/proc``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Final

import httpx

#: Bound on one request asking whether the server answers yet.
ASK_TIMEOUT_SECONDS: Final = 2.0
#: Bound on a leftover process ending on SIGTERM before it is killed.
KILL_GRACE_SECONDS: Final = 5.0

#: A process as (pid, start time in clock ticks since boot): a pid reused later is not it.
Process = tuple[int, int]


def free_port() -> int:
    """A TCP port of 127.0.0.1 that was free a moment ago (another process may take it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def launch(
    command: Sequence[str], *, cwd: Path, env: Mapping[str, str], log_path: Path
) -> subprocess.Popen[bytes]:
    """Start ``command`` in a session of its own (a process group ended as one), without
    stdin, its stdout and stderr appended to ``log_path``."""
    with log_path.open("ab") as log:
        return subprocess.Popen(
            list(command),
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def wait_until_ready(
    process: subprocess.Popen[bytes],
    url: str,
    *,
    ready: Callable[[httpx.Response], bool],
    timeout: float,
    interval: float,
) -> bool:
    """Ask ``url`` every ``interval`` seconds until ``ready`` accepts an answer.

    Returns
    -------
    bool
        True once ``ready(answer)`` is true; False when ``process`` exits first or no
        answer was accepted within ``timeout`` seconds. An error ``ready`` raises (an
        answer that will never do) goes to the caller at once.
    """
    deadline = time.monotonic() + timeout
    with httpx.Client(timeout=ASK_TIMEOUT_SECONDS, trust_env=False) as http:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                return False
            try:
                if ready(http.get(url)):
                    return True
            except httpx.TransportError:
                pass
            time.sleep(interval)
    return False


def stop_process(process: subprocess.Popen[bytes], *, timeout: float) -> None:
    """SIGTERM ``process``, SIGKILL its process group if it has not ended within
    ``timeout`` seconds, then end every process that was below it and outlived it."""
    below = descendants(process.pid)
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    end_processes(below)


# --- processes (Linux /proc) ---------------------------------------------------------


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent pid, start time) of a process, None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2 :].split()  # the command name may hold spaces
    return fields[0], int(fields[1]), int(fields[19])


def descendants(pid: int) -> list[Process]:
    """Every live process below ``pid``."""
    children: dict[int, list[Process]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            children.setdefault(stat[1], []).append((int(entry.name), stat[2]))
    found: list[Process] = []
    waiting = [pid]
    while waiting:
        for child in children.get(waiting.pop(), []):
            found.append(child)
            waiting.append(child[0])
    return found


def is_alive(process: Process) -> bool:
    """Whether ``process`` still runs (not the same pid given to a later one)."""
    stat = _stat(process[0])
    return stat is not None and stat[2] == process[1] and stat[0] not in {"Z", "X"}


def end_processes(processes: list[Process]) -> None:
    """SIGTERM those still alive, then SIGKILL those that outlive ``KILL_GRACE_SECONDS``."""
    alive = [process for process in processes if is_alive(process)]
    for pid, _ in alive:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + KILL_GRACE_SECONDS
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = [process for process in alive if is_alive(process)]
    for pid, _ in alive:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
