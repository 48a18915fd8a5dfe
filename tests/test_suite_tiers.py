"""The suite's slow tiers and its timeout: every file of a tier carries the tier's marker
(so ``make test-fast`` leaves it out), nothing else does, ``make test-fast`` leaves out
every registered tier, and a test that hangs fails with a timeout while the run goes on.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Final

import pytest

ROOT: Final = Path(__file__).resolve().parents[1]
PYPROJECT: Final = tomllib.loads((ROOT / "pyproject.toml").read_text())
PYTEST_INI: Final = PYPROJECT["tool"]["pytest"]["ini_options"]

#: Each slow tier and the files it is made of, relative to the repository.
TIERS: Final = {
    "browser": "tests/browser/**/test_*.py",
    "interop": "tests/interop/**/test_*.py",
    "notebooks": "notebooks/*.ipynb",
    "schemathesis": "tests/**/test_*schemathesis*.py",
    "crash": "tests/**/test_*crash*.py",
    "binder": "tests/test_binder.py",
}

#: A plugin writing every collected item's node id and marker names to $TIER_DUMP.
DUMP_PLUGIN: Final = """
import json, os

def pytest_collection_finish(session):
    rows = [[item.nodeid, sorted({m.name for m in item.iter_markers()})] for item in session.items]
    with open(os.environ["TIER_DUMP"], "w") as out:
        json.dump(rows, out)
"""


def _files(pattern: str) -> set[str]:
    return {path.relative_to(ROOT).as_posix() for path in ROOT.glob(pattern)}


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, set[str]]]:
    """Every item of the project's default run, as (file, marker names)."""
    where = tmp_path_factory.mktemp("tiers")
    (where / "tier_dump.py").write_text(DUMP_PLUGIN)
    dump = where / "items.json"
    env = {
        **os.environ,
        "TIER_DUMP": str(dump),
        "PYTHONPATH": os.pathsep.join([str(where), str(ROOT)]),
    }
    options = ["--collect-only", "-q", "-p", "no:randomly", "-p", "no:cacheprovider"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *options, "-p", "tier_dump"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    rows = json.loads(dump.read_text())
    return [(nodeid.split("::")[0], set(marks)) for nodeid, marks in rows]


def test_the_tiers_are_the_registered_markers() -> None:
    registered = {line.split(":")[0] for line in PYTEST_INI["markers"]}
    assert registered == set(TIERS)
    for tier, pattern in TIERS.items():
        assert _files(pattern), f"no file of the {tier} tier matches {pattern}"


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_every_item_of_a_tier_file_carries_the_tier_and_no_other_does(
    collected: list[tuple[str, set[str]]], tier: str
) -> None:
    files = _files(TIERS[tier])
    in_files = [(path, marks) for path, marks in collected if path in files]
    assert {path for path, _ in in_files} == files  # each file has tests
    unmarked = sorted({path for path, marks in in_files if tier not in marks})
    assert unmarked == []
    elsewhere = sorted({path for path, marks in collected if tier in marks} - files)
    assert elsewhere == []


def test_make_test_fast_lints_then_leaves_out_every_tier() -> None:
    done = subprocess.run(
        ["make", "-n", "test-fast"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    commands = done.stdout.splitlines()
    ruff = next(i for i, line in enumerate(commands) if "ruff check" in line)
    [pytest_line] = [i for i, line in enumerate(commands) if "/pytest " in line]
    assert ruff < pytest_line
    match = re.search(r'-m "not \((.+?)\)"', commands[pytest_line])
    assert match, commands[pytest_line]
    assert set(match.group(1).split(" or ")) == set(TIERS)


def test_the_suite_has_a_default_timeout_that_interrupts_the_test(
    pytestconfig: pytest.Config,
) -> None:
    assert float(pytestconfig.getini("timeout")) == 600
    assert pytestconfig.getini("timeout_method") == "signal"


def test_a_hanging_test_fails_with_a_timeout_and_the_run_goes_on(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeini(f"[pytest]\ntimeout = 1\ntimeout_method = {PYTEST_INI['timeout_method']}\n")
    pytester.makepyfile(
        test_hang="""
        import threading

        def test_hangs():
            threading.Event().wait()  # nobody ever sets it

        def test_after_it():
            pass
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:randomly", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*Timeout (>1.0s) from pytest-timeout*"])
    # The traceback shows where the test hung.
    result.stdout.fnmatch_lines(["*threading.Event().wait()*"])
    result.stdout.fnmatch_lines(["FAILED test_hang.py::test_hangs*"])
