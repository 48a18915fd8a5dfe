"""JupyterLab for the browser tests: ``python -m jupyterlab`` on a free loopback port,
serving a copy of one notebook, with a throwaway configuration, data and settings
directory (its theme chosen there, the news toast off), no token, and this checkout
first on ``PYTHONPATH``. :func:`run_notebook` opens it in a page and runs every cell once
the kernel is idle, as a reader would with "Run All".
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Final

from browser_harness import REPO
from server_process import free_port, launch, stop_process, wait_until_ready

if TYPE_CHECKING:
    from playwright.sync_api import Page

START_TIMEOUT_SECONDS: Final = 60.0
STOP_TIMEOUT_SECONDS: Final = 15.0
#: Bound on the page loading and the kernel becoming idle.
READY_MS: Final = 120_000
THEMES: Final = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}
_KERNEL_IDLE: Final = (
    "() => { const w = window.jupyterapp && jupyterapp.shell.currentWidget;"
    " const k = w && w.sessionContext && w.sessionContext.session"
    " && w.sessionContext.session.kernel; return Boolean(k && k.status === 'idle'); }"
)


class LabServer:
    """JupyterLab serving ``notebook`` (copied into ``workdir``) in ``theme``."""

    def __init__(self, notebook: Path, *, workdir: Path, theme: str = "light") -> None:
        if theme not in THEMES:
            raise ValueError(f"theme is one of {sorted(THEMES)}, not {theme!r}")
        self.notebook = notebook.resolve()
        self.workdir = workdir
        self.theme = theme
        self.port = 0
        self.log_path = workdir / "lab.log"
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The notebook's page, its layout reset to JupyterLab's default."""
        return f"http://127.0.0.1:{self.port}/lab/tree/{self.notebook.name}?reset"

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def _environment(self) -> dict[str, str]:
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("JUPYTER", "JPY", "IPYTHON"))
            and key not in {"LEDGERKIT_NODE_URL", "LEDGERKIT_CACHE_DIR", "PYTHONSTARTUP"}
        }
        for variable, name in (
            ("JUPYTER_CONFIG_DIR", "jupyter-config"),
            ("JUPYTER_DATA_DIR", "jupyter-data"),
            ("JUPYTER_RUNTIME_DIR", "jupyter-runtime"),
            ("JUPYTERLAB_SETTINGS_DIR", "lab-settings"),
            ("JUPYTERLAB_WORKSPACES_DIR", "lab-workspaces"),
            ("IPYTHONDIR", "ipython"),
            ("LEDGERKIT_CACHE_DIR", "ledgerkit-cache"),
            ("TMPDIR", "tmp"),
        ):
            directory = self.workdir / name
            directory.mkdir(exist_ok=True)
            env[variable] = str(directory)
        env["PYTHONNOUSERSITE"] = "1"
        inherited = [entry for entry in env.get("PYTHONPATH", "").split(os.pathsep) if entry]
        env["PYTHONPATH"] = os.pathsep.join([str(REPO), *inherited])
        return env

    def _settings(self) -> None:
        apputils = self.workdir / "lab-settings" / "@jupyterlab" / "apputils-extension"
        apputils.mkdir(parents=True, exist_ok=True)
        news = {"fetchNews": "false", "checkForUpdates": False}
        (apputils / "notification.jupyterlab-settings").write_text(json.dumps(news))
        theme = {"theme": THEMES[self.theme]}
        (apputils / "themes.jupyterlab-settings").write_text(json.dumps(theme))

    def start(self) -> LabServer:
        root = self.workdir / "root"
        root.mkdir(exist_ok=True)
        shutil.copy(self.notebook, root / self.notebook.name)
        env = self._environment()
        self._settings()
        self.port = free_port()
        command = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--allow-root",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            f"--ServerApp.root_dir={root}",
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.extension_manager=readonly",
        ]
        self._process = launch(command, cwd=root, env=env, log_path=self.log_path)
        if wait_until_ready(
            self._process,
            f"http://127.0.0.1:{self.port}/api/status",
            ready=lambda answer: answer.status_code == 200,
            timeout=START_TIMEOUT_SECONDS,
            interval=0.2,
        ):
            return self
        self.stop()
        raise RuntimeError(f"JupyterLab did not start:\n{self.log()[-4000:]}")

    def stop(self) -> None:
        """Stop JupyterLab and its kernels (in sessions of their own); safe to call twice."""
        process, self._process = self._process, None
        if process is not None:
            stop_process(process, timeout=STOP_TIMEOUT_SECONDS)

    def __enter__(self) -> LabServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


def run_notebook(page: Page, server: LabServer) -> None:
    """Open the notebook in ``page`` and run all its cells once its kernel is idle."""
    page.goto(server.url, timeout=READY_MS)
    page.wait_for_selector("#jupyterlab-splash", state="detached", timeout=READY_MS)
    page.wait_for_function(_KERNEL_IDLE, timeout=READY_MS)
    page.evaluate("jupyterapp.commands.execute('notebook:run-all-cells')")
