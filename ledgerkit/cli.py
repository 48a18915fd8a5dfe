"""The ``ledgerkit`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ledgerkit._cli_node import PORT_FLAGS, add_node, node_options
from ledgerkit._errors import InputError, LedgerError

__all__ = ["main"]


@dataclass(frozen=True)
class _Kind:
    """A kind of ``ledgerkit extract``: ``key`` names what its range is over, ``holds``
    what its dataset holds (its help line); ``stream``: it reads one event stream, named
    by ``--address`` and ``--creation-number``, whose ends are not read from the node."""

    key: str
    holds: str
    stream: bool = False


#: The sub-commands of ``ledgerkit extract``, one per kind of ``extract(kind, ...)``, in
#: the order of ``ledgerkit.extract.KINDS``; each one's partition size is the function's.
_KINDS: Final = {
    "transactions": _Kind("version", "transactions of versions [start, stop)"),
    "blocks": _Kind("height", "blocks of heights [start, stop)"),
    "events": _Kind(
        "sequence number", "events of one stream, sequence numbers [start, stop)", stream=True
    ),
    "transaction_events": _Kind(
        "version",
        "the events the transactions of versions [start, stop) carry, module events "
        "included: a row per event (version, event_index)",
    ),
    "activity": _Kind(
        "version",
        "every address each transaction of versions [start, stop) touched: a row per "
        "(version, account), its roles (sender, secondary_signer, fee_payer, recipient, "
        "write_set), the fee it paid and its net change per asset",
    ),
}


class _Parser(argparse.ArgumentParser):
    """An argument parser that ``complete`` finishes when it is first used (to parse or
    to show its help), not when it is made."""

    def __init__(
        self,
        *args: Any,
        complete: Callable[[argparse.ArgumentParser], None] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self._complete = complete

    def _completed(self) -> None:
        complete, self._complete = self._complete, None
        if complete is not None:
            complete(self)

    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        self._completed()
        return super().parse_known_args(*args, **kwargs)

    def format_usage(self) -> str:
        self._completed()
        return super().format_usage()

    def format_help(self) -> str:
        self._completed()
        return super().format_help()


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ledgerkit", description="Study a Move-based ledger node from the command line."
    )
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Parser
    )
    commands.add_parser(
        "demo", help="build, sign and hash a transfer and explain its bytes field by field"
    )
    add_node(commands)
    commands.add_parser(
        "extract",
        help="extract a range of the ledger to a resumable Parquet dataset",
        description="Fetch a range concurrently, check it is complete, write Parquet partitions.",
        complete=_add_kinds,
    )
    _add_snapshot(commands)
    return parser


def _add_snapshot(commands: Any) -> None:
    """``ledgerkit snapshot info|verify PATH``."""
    snapshot = commands.add_parser(
        "snapshot",
        help="say what a record/replay snapshot file holds, or check it",
        description="Inspect a snapshot file written by connect(record=...) (any format version).",
    )
    actions = snapshot.add_subparsers(dest="action", required=True, metavar="ACTION")
    info = actions.add_parser(
        "info",
        help="format version, requests, answers, distinct bodies, bytes, chain, versions, nodes",
    )
    info.add_argument("path", metavar="PATH", help="the snapshot file")
    verify = actions.add_parser(
        "verify",
        help="check every body against its hash, the database's integrity, and that no "
        "secret (bearer token, api key, path token) is in it; exit 1 if anything is wrong",
    )
    verify.add_argument("path", metavar="PATH", help="the snapshot file")


def _add_kinds(extract: argparse.ArgumentParser) -> None:
    """The sub-commands of ``ledgerkit extract``, from :data:`_KINDS`. Added when the
    command is used: the partition sizes come from ``ledgerkit.extract``, whose import
    (pandas, pyarrow, the client) ``ledgerkit --help`` and ``ledgerkit node`` need not wait for."""
    from ledgerkit.extract import PARTITION_SIZE

    kinds = extract.add_subparsers(dest="kind", required=True, metavar="KIND")
    for name, kind in _KINDS.items():
        command = kinds.add_parser(name, help=kind.holds, description=f"Extract {kind.holds}.")
        if kind.stream:
            command.add_argument("--address", required=True, help="account address of the stream")
            command.add_argument(
                "--creation-number", type=int, required=True, help="creation number of the stream"
            )
        _add_range_options(
            command, key=kind.key, partition_size=PARTITION_SIZE[name], ends=not kind.stream
        )


def _end(name: str) -> Any:
    """An ``--start`` / ``--stop`` value: an integer, or ``name`` (read from the node)."""

    def parse(text: str) -> int | str:
        if text == name:
            return text
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"an integer or {name!r}, not {text!r}") from None

    return parse


def _add_range_options(
    kind: argparse.ArgumentParser, *, key: str, partition_size: int, ends: bool = True
) -> None:
    """The options every ``extract`` kind shares; ``key`` names what the range is over;
    ``ends``: the range may say ``oldest`` and ``head`` (read from the node)."""
    if ends:
        kind.add_argument(
            "--start", type=_end("oldest"), required=True,
            help=f"first {key}, or 'oldest': the oldest the node keeps",
        )  # fmt: skip
        kind.add_argument(
            "--stop", type=_end("head"), required=True,
            help=f"{key} after the last one, or 'head': after the node's newest",
        )  # fmt: skip
    else:
        kind.add_argument("--start", type=int, required=True, help=f"first {key}")
        kind.add_argument("--stop", type=int, required=True, help=f"{key} after the last one")
    kind.add_argument("--out", required=True, help="dataset directory (resumed if it exists)")
    kind.add_argument(
        "--url",
        default=None,
        help="node API root (default: $LEDGERKIT_NODE_URL, else the embedded node)",
    )
    # Never the key itself: a command line is seen by every user of the machine (ps) and
    # kept in shell histories.
    key_source = kind.add_mutually_exclusive_group()
    key_source.add_argument(
        "--api-key-file",
        metavar="PATH",
        default=None,
        help="file holding the node's api key (sent as a bearer token)",
    )
    key_source.add_argument(
        "--api-key-env",
        metavar="NAME",
        default=None,
        help="environment variable holding the node's api key",
    )
    kind.add_argument("--concurrency", type=int, default=16, help="requests in flight at most")
    kind.add_argument("--max-rps", type=float, default=None, help="requests per second at most")
    kind.add_argument(
        "--partition-size",
        type=int,
        default=partition_size,
        help=f"{key}s per Parquet file (default: %(default)s)",
    )


def _api_key(args: argparse.Namespace) -> str | None:
    """The api key named by ``--api-key-file`` or ``--api-key-env``; errors never quote it."""
    import os
    from pathlib import Path

    if args.api_key_file is not None:
        try:
            text = Path(args.api_key_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read --api-key-file {args.api_key_file}: {exc}") from None
        key = text.strip()  # the newline an editor or ``echo`` leaves
        if not key:
            raise InputError(f"--api-key-file {args.api_key_file} is empty")
        return key
    if args.api_key_env is not None:
        key = os.environ.get(args.api_key_env, "").strip()
        if not key:
            raise InputError(f"--api-key-env: ${args.api_key_env} is not set or empty")
        return key
    return None


def _extract(args: argparse.Namespace) -> None:
    from ledgerkit import connect
    from ledgerkit.extract import extract
    from ledgerkit.types import Address, parse_uint

    stream: dict[str, Any] = {}
    if _KINDS[args.kind].stream:
        # Checked before a node is started or anything is written to --out.
        stream["address"] = Address.parse(args.address)
        stream["creation_number"] = parse_uint(args.creation_number, 64, what="creation_number")
    api_key = _api_key(args)
    # --url, else $LEDGERKIT_NODE_URL, else the embedded node, started now; the client
    # itself sends nothing: it names the node (and stops the one it started).
    client = connect(args.url or None, cache=False)
    try:
        summary = extract(
            args.kind,
            client.config.base_url,
            args.out,
            **stream,
            api_key=api_key,
            start=args.start,
            stop=args.stop,
            partition_size=args.partition_size,
            concurrency=args.concurrency,
            max_rps=args.max_rps,
        )
    finally:
        client.close()
    print(summary)


def _snapshot(args: argparse.Namespace) -> int:
    """``ledgerkit snapshot info|verify PATH``; returns the exit status."""
    from ledgerkit.client.snapshot import snapshot_info, verify_snapshot

    if args.action == "info":
        print("\n".join(snapshot_info(args.path).lines()))
        return 0
    problems = verify_snapshot(args.path)
    if problems:
        for problem in problems:
            print(f"ledgerkit: snapshot {args.path}: {problem}", file=sys.stderr)
        return 1
    info = snapshot_info(args.path)
    print(
        f"snapshot {args.path}: sound (format version {info.version}, {info.answers} answers, "
        f"{info.bodies} distinct bodies checked; no secret found)"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "demo":
            from ledgerkit._demo import run_demo

            run_demo(sys.stdout)
        elif args.command == "extract":
            _extract(args)
        elif args.command == "snapshot":
            return _snapshot(args)
        elif args.command == "node":
            from ledgerkit.localnet import serve

            serve(**node_options(args))
    except (LedgerError, ValueError, OSError) as exc:
        # A port in use (PortInUseError, of the node, not imported here) names its flag.
        flag = PORT_FLAGS.get(str(getattr(exc, "service", "")))
        said = f"{exc}" if flag is None else f"{exc} (set by {flag})"
        print(f"ledgerkit: {type(exc).__name__}: {said}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
