"""Read and write Move bytecode with the node's own binary-format code.

Times ``read_module`` (deserializing and bounds checking) and ``write_module`` on the
real modules of ``tests/move/data`` (the Aptos SDKs' test data, 222 bytes to 9.6 KiB),
and, for scale, one Ed25519 signature check (pynacl) per module: the node checks a
signature on every transaction, so a read costing a few signature checks is in line with
the rest of a publish. Prints microseconds per module and the ratios. Run with
``make bench`` or ``.venv/bin/python bench/bench_move_bytecode.py [rounds]``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import nacl.signing

from ledgerkit.localnet.vm.move import read_module, write_module

DATA = Path(__file__).resolve().parent.parent / "tests" / "move" / "data"
MODULES = ["transfer_v6.mv", "any_authenticator_v7.mv", "tx_args_module_v7.mv"]


def per_call(function: Callable[[], object], rounds: int) -> float:
    """Microseconds per call, best of three runs of ``rounds`` calls."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(rounds):
            function()
        best = min(best, time.perf_counter() - start)
    return best / rounds * 1e6


def main(rounds: int) -> None:
    key = nacl.signing.SigningKey(bytes(range(32)))
    signed = key.sign(b"\x00" * 200)
    verify = key.verify_key
    check = per_call(lambda: verify.verify(signed), rounds)
    print(f"Ed25519 signature check: {check:8.1f} us")
    for name in MODULES:
        binary = (DATA / name).read_bytes()
        module = read_module(binary)
        assert write_module(module) == binary
        read = per_call(lambda b=binary: read_module(b), rounds)
        write = per_call(lambda m=module: write_module(m), rounds)
        print(
            f"{name:32} {len(binary):6} bytes  read {read:8.1f} us ({read / check:5.1f} checks)"
            f"  write {write:8.1f} us ({write / check:5.1f} checks)"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
