"""What the browser tests share: Debian's chromium and how to launch it, the loopback-only
rule for requests, and a Voilà server for one notebook that always stops with its kernels.

Voilà runs in a subprocess of its own with a throwaway Jupyter configuration and data
directory, so nothing of the user's Jupyter or IPython setup reaches it, and with this
checkout first on ``PYTHONPATH``, so its kernels import the ledgerkit under test. Each page
load of the notebook starts a kernel that runs the notebook from the top.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Final, Protocol
from urllib.parse import urlsplit

import httpx

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

REPO: Final = Path(__file__).resolve().parents[2]
NOTEBOOKS: Final = Path(__file__).resolve().parent / "notebooks"

#: Debian's chromium; Playwright never downloads a browser of its own here.
CHROMIUM: Final = Path("/usr/bin/chromium")
CHROMIUM_ARGS: Final = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
)
#: Where the screenshots go; pytest's temporary directory when unset.
SCREENSHOTS_ENV: Final = "LEDGERKIT_SCREENSHOTS"

LOOPBACK_HOSTS: Final = frozenset({"127.0.0.1", "localhost", "::1"})
#: Bound on Voilà answering its first request (it imports jupyter_server and nbconvert).
START_TIMEOUT_SECONDS: Final = 60.0
#: Bound on Voilà stopping by itself on SIGTERM (it shuts its kernels down first).
STOP_TIMEOUT_SECONDS: Final = 15.0
#: Bound on a leftover process ending on SIGTERM before it is killed.
KILL_GRACE_SECONDS: Final = 5.0
#: Asked until it answers: a static file, because ``GET /`` would run the notebook in a kernel.
READY_PATH: Final = "voila/static/voila.js"


class OpenNotebook(Protocol):
    """The ``voila_page`` fixture: a page showing ``notebook`` rendered by Voilà."""

    def __call__(self, notebook: str | Path, *, allow_stderr: bool = False) -> Page: ...


#: The ``voila`` fixture: the running server of a notebook.
ServeNotebook = Callable[[str | Path], "VoilaServer"]
#: The ``save_screenshot`` fixture: ``(locator, name) -> path`` of the PNG.
SaveScreenshot = Callable[["Locator", str], Path]


def in_ci() -> bool:
    """Whether this is a CI run, where the browser tests fail instead of skipping."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def is_loopback(url: str) -> bool:
    """Whether a request to ``url`` stays on this machine."""
    return (urlsplit(url).hostname or "") in LOOPBACK_HOSTS


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class VoilaServer:
    """``python -m voila <notebook>`` on a free loopback port, for as long as it is open.

    Parameters
    ----------
    notebook : Path
        The notebook to serve.
    workdir : Path
        An empty directory of its own: its Jupyter and IPython directories and its log.
    stop_timeout : float
        Bound on Voilà stopping by itself on SIGTERM before its process group is killed.
    arguments : sequence of str
        More options of Voilà's command line (``--theme=dark``).
    """

    def __init__(
        self,
        notebook: Path,
        *,
        workdir: Path,
        stop_timeout: float = STOP_TIMEOUT_SECONDS,
        arguments: Sequence[str] = (),
    ) -> None:
        self.notebook = notebook.resolve()
        self.arguments = tuple(arguments)
        self.workdir = workdir
        self.stop_timeout = stop_timeout
        self.log_path = workdir / "voila.log"
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The notebook's page."""
        return f"http://127.0.0.1:{self.port}/"

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def log(self) -> str:
        """What Voilà and its kernels wrote so far."""
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def start(self) -> VoilaServer:
        """Start Voilà and wait until it answers; fails with its log if it exits first."""
        if not self.notebook.is_file():
            raise FileNotFoundError(self.notebook)
        for _attempt in range(3):  # another process may take the free port before Voilà does
            self._spawn()
            if self._wait_ready():
                return self
            in_use = "already in use" in self.log()
            self.stop()
            if not in_use:
                break
        raise RuntimeError(f"Voilà did not start for {self.notebook.name}:\n{self.log()[-4000:]}")

    def _spawn(self) -> None:
        self.port = free_port()
        command = [
            sys.executable,
            "-m",
            "voila",
            str(self.notebook),
            "--no-browser",
            "--Voila.ip=127.0.0.1",
            f"--Voila.port={self.port}",
            "--Voila.port_retries=0",
            "--show_tracebacks=True",
            "--VoilaExecutor.timeout=120",
            *self.arguments,
        ]
        with self.log_path.open("ab") as log:
            self._process = subprocess.Popen(
                command,
                cwd=self.notebook.parent,
                env=self._environment(),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, ended as one
            )

    def _environment(self) -> dict[str, str]:
        """This process's environment without the user's Jupyter, IPython or node settings."""
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("JUPYTER_", "JPY_", "IPYTHON"))
            and key not in {"LEDGERKIT_NODE_URL", "LEDGERKIT_CACHE_DIR", "PYTHONSTARTUP"}
        }
        for variable, name in (
            ("JUPYTER_CONFIG_DIR", "jupyter-config"),
            ("JUPYTER_DATA_DIR", "jupyter-data"),
            ("JUPYTER_RUNTIME_DIR", "jupyter-runtime"),
            ("IPYTHONDIR", "ipython"),
            ("LEDGERKIT_CACHE_DIR", "ledgerkit-cache"),
            ("TMPDIR", "tmp"),  # connection files, the embedded node's ledger
        ):
            directory = self.workdir / name
            directory.mkdir(exist_ok=True)
            env[variable] = str(directory)
        env["PYTHONNOUSERSITE"] = "1"
        inherited = [entry for entry in env.get("PYTHONPATH", "").split(os.pathsep) if entry]
        env["PYTHONPATH"] = os.pathsep.join([str(REPO), *inherited])
        return env

    def _wait_ready(self) -> bool:
        assert self._process is not None
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        with httpx.Client(timeout=2.0, trust_env=False) as http:
            while time.monotonic() < deadline:
                if self._process.poll() is not None:
                    return False
                try:
                    answer = http.get(self.url + READY_PATH)
                except httpx.TransportError:
                    time.sleep(0.1)
                    continue
                if answer.status_code == 200:
                    return True
                raise RuntimeError(
                    f"Voilà answered {READY_PATH} with {answer.status_code}:\n{self.log()[-4000:]}"
                )
        return False

    def stop(self) -> None:
        """Stop Voilà and whatever it started; safe to call twice.

        Voilà shuts its kernels down on SIGTERM. Kernels run in sessions of their own
        (jupyter_client starts them so), outside Voilà's process group, so every process
        under Voilà is noted first and ended afterwards if it outlived it.
        """
        process, self._process = self._process, None
        if process is None:
            return
        below = descendants(process.pid)
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(self.stop_timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        end_processes(below)

    def __enter__(self) -> VoilaServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


# --- processes (Linux /proc) ---------------------------------------------------------

#: A process as (pid, start time in clock ticks since boot): a pid reused later is not it.
Process = tuple[int, int]


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
