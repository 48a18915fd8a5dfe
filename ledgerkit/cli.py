"""The ``ledgerkit`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ledgerkit._errors import LedgerError

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ledgerkit", description="Study a Move-based ledger node from the command line."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser(
        "demo", help="build, sign and hash a transfer and explain its bytes field by field"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "demo":
            from ledgerkit._demo import run_demo

            run_demo(sys.stdout)
    except LedgerError as exc:
        print(f"ledgerkit: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
