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
    node = commands.add_parser(
        "node",
        help="run the embedded local node (Ctrl-C stops it)",
        description="Serve a deterministic local ledger over the node REST API.",
    )
    node.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"
    )
    node.add_argument(
        "--port", type=int, default=8080, help="port (default: %(default)s; 0 picks one)"
    )
    node.add_argument(
        "--db", default=None, help="SQLite file of the ledger (default: a temporary one)"
    )
    node.add_argument(
        "--seed", type=int, default=0, help="chain generator seed (default: %(default)s)"
    )
    node.add_argument("--blocks", type=int, default=200, help="blocks to generate on a new ledger")
    node.add_argument("--chain-id", type=int, default=4, help="chain id (default: %(default)s)")
    node.add_argument("--dev-accounts", type=int, default=8, help="funded dev accounts to hand out")
    node.add_argument(
        "--block-interval",
        type=float,
        default=None,
        metavar="SECONDS",
        help="live mode: a block every SECONDS from a background workload",
    )
    node.add_argument(
        "--prune-window",
        type=int,
        default=None,
        metavar="VERSIONS",
        help="keep only the newest VERSIONS versions; older ones answer 410",
    )
    node.add_argument(
        "--disable",
        action="append",
        default=[],
        metavar="GROUP",
        help="switch an endpoint group off (403 api_disabled); repeatable",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "demo":
            from ledgerkit._demo import run_demo

            run_demo(sys.stdout)
        elif args.command == "node":
            from ledgerkit.localnet import serve

            serve(
                db=args.db,
                host=args.host,
                port=args.port,
                seed=args.seed,
                blocks=args.blocks,
                chain_id=args.chain_id,
                dev_accounts=args.dev_accounts,
                block_interval=args.block_interval,
                prune_window=args.prune_window,
                disabled=frozenset(args.disable),
            )
    except (LedgerError, ValueError, OSError) as exc:
        print(f"ledgerkit: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
