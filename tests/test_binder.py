"""The Binder folder, proved without Docker.

repo2docker itself prints the Dockerfile it would build (``--no-build``), which must name
the Python of ``runtime.txt``, install ``binder/requirements.txt`` and run both scripts;
the scripts must be executable with a shebang, ``start`` must hand over with
``exec "$@"``; and a fresh virtual environment made from ``binder/requirements.txt``
alone runs the notebooks under nbval, as a Binder session would.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Final

import pytest
from packaging.specifiers import SpecifierSet

pytestmark = [pytest.mark.binder, pytest.mark.timeout(900)]

ROOT: Final = Path(__file__).resolve().parent.parent
BINDER: Final = ROOT / "binder"


def _runtime() -> str:
    text = (BINDER / "runtime.txt").read_text().strip()
    match = re.fullmatch(r"python-(\d+\.\d+)", text)
    assert match, f"runtime.txt must read python-X.Y, got {text!r}"
    return match.group(1)


def test_the_runtime_satisfies_the_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert f"{_runtime()}.0" in SpecifierSet(project["requires-python"])
    # The pins were made on this Python: the runtime is the same minor version.
    assert _runtime() == f"{sys.version_info.major}.{sys.version_info.minor}"


@pytest.mark.parametrize("script", ["postBuild", "start"])
def test_the_scripts_are_executable_with_a_shebang(script: str) -> None:
    path = BINDER / script
    assert path.read_text().startswith("#!/bin/bash\n")
    assert os.access(path, os.X_OK)
    listed = subprocess.run(
        ["git", "ls-files", "-s", f"binder/{script}"], cwd=ROOT, capture_output=True, text=True
    )
    if listed.stdout:  # in a checkout: git records the executable bit
        assert listed.stdout.startswith("100755 ")


def test_start_hands_over_to_what_binder_asked_for() -> None:
    lines = [line for line in (BINDER / "start").read_text().splitlines() if line.strip()]
    assert lines[-1] == 'exec "$@"'


def test_the_requirements_install_ledgerkit_and_the_front_ends_with_the_pins() -> None:
    lines = [
        line.strip()
        for line in (BINDER / "requirements.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert lines[0] == "-c ../constraints.txt"
    assert ".[dask]" in lines
    assert {"jupyterlab", "voila"} <= set(lines)
    assert not (ROOT / ".binder").exists()
    assert not (BINDER / "Dockerfile").exists()


def test_repo2docker_builds_what_the_folder_says() -> None:
    found = shutil.which("repo2docker", path=str(Path(sys.executable).parent))
    assert found, "repo2docker is a test dependency (jupyter-repo2docker)"
    printed = subprocess.run(
        [
            found,
            "--no-build",
            "--debug",
            "--no-run",
            "--user-id",
            "1000",
            "--user-name",
            "jovyan",
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    both = printed.stdout + printed.stderr
    assert f"python={_runtime()}" in both
    assert 'pip install --no-cache-dir -r "binder/requirements.txt"' in both
    assert "RUN ./binder/postBuild" in both
    assert 'R2D_ENTRYPOINT="${REPO_DIR}/binder/start"' in both


# Past the sum of its steps' own limits (venv, install, postBuild, nbval), which say more.
@pytest.mark.timeout(4800)
def test_a_fresh_venv_from_the_requirements_runs_the_notebooks(tmp_path: Path) -> None:
    """As a Binder session: a new environment from ``binder/requirements.txt`` (and nbval
    to check), ``postBuild``, then every notebook under nbval against its outputs."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    bin_dir = venv / "bin"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))},
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "NB_PYTHON_PREFIX": str(venv),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    install = [str(bin_dir / "pip"), "install", "-q", "-r", "binder/requirements.txt", "nbval"]
    done = subprocess.run(install, cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    done = subprocess.run(
        ["binder/postBuild"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (venv / "share/jupyter/lab/settings/overrides.json").is_file()
    # The notebooks are checked outside the repository's pytest setup: only what Binder has.
    books = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks", books, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    check = [
        str(bin_dir / "python"),
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "--nbval",
        "--nbval-current-env",
        "notebooks",
    ]
    done = subprocess.run(
        check, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=1800
    )
    assert done.returncode == 0, done.stdout[-5000:]
