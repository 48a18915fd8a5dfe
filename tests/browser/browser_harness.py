"""What the browser tests share: Debian's chromium and how to launch it, the loopback-only
rule for requests, and a Voilà server for one notebook that always stops with its kernels.

Voilà runs in a subprocess of its own with a throwaway Jupyter configuration and data
directory, so nothing of the user's Jupyter or IPython setup reaches it, and with this
checkout first on ``PYTHONPATH``, so its kernels import the ledgerkit under test. Each page
load of the notebook starts a kernel that runs the notebook from the top.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Final, Protocol
from urllib.parse import urlsplit

import httpx
from server_process import free_port, launch, stop_process, wait_until_ready

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
        self._process = launch(
            command, cwd=self.notebook.parent, env=self._environment(), log_path=self.log_path
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

        def ready(answer: httpx.Response) -> bool:
            if answer.status_code == 200:
                return True
            raise RuntimeError(
                f"Voilà answered {READY_PATH} with {answer.status_code}:\n{self.log()[-4000:]}"
            )

        return wait_until_ready(
            self._process,
            self.url + READY_PATH,
            ready=ready,
            timeout=START_TIMEOUT_SECONDS,
            interval=0.1,
        )

    def stop(self) -> None:
        """Stop Voilà and whatever it started; safe to call twice.

        Voilà shuts its kernels down on SIGTERM. Kernels run in sessions of their own
        (jupyter_client starts them so), outside Voilà's process group, so every process
        under Voilà is noted first and ended afterwards if it outlived it.
        """
        process, self._process = self._process, None
        if process is not None:
            stop_process(process, timeout=self.stop_timeout)

    def __enter__(self) -> VoilaServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
