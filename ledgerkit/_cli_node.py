"""``ledgerkit node``'s options: the flags it takes, and the keyword arguments of
:func:`ledgerkit.localnet.serve` they make."""

from __future__ import annotations

import argparse
from typing import Any, Final

from ledgerkit._errors import InputError

__all__ = [
    "MAX_IDLE_SECONDS",
    "MIN_IDLE_SECONDS",
    "PORT_FLAGS",
    "add_node",
    "faucet_options",
    "idle_seconds",
    "node_options",
    "port_number",
]

#: ``--idle-interval``'s bounds (``NodeConfig.idle_interval``'s).
MIN_IDLE_SECONDS: Final = 0.001
MAX_IDLE_SECONDS: Final = 86_400.0


def add_node(commands: Any) -> None:
    """``ledgerkit node`` and its options."""
    node = commands.add_parser(
        "node",
        help="run the embedded local node (Ctrl-C stops it)",
        description="Serve a deterministic local ledger over the node REST API.",
    )
    node.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: %(default)s)"
    )
    node.add_argument(
        "--port", type=port_number, default=8080,
        help="node API port, as a local network's (default: %(default)s; 0 picks a free one)",
    )  # fmt: skip
    node.add_argument(
        "--faucet-port", type=port_number, default=8081,
        help="faucet port, as a local network's (default: %(default)s; 0 picks a free one)",
    )  # fmt: skip
    node.add_argument(
        "--faucet", choices=("open", "protected"), default=None,
        help="open: a local network's faucet, POST /mint and /fund without a token (the "
        "local profile's default); protected: the testnet faucet, an ID token per funding "
        "(the public profile's default)",
    )  # fmt: skip
    node.add_argument(
        "--faucet-limit", type=int, default=None, metavar="OCTAS",
        help="a cap on the open faucet's funding per request, a larger one refused "
        "(default: none, as a local network's faucet; without an amount a request gets "
        "100000000000, 1,000 APT, or the cap if less)",
    )  # fmt: skip
    node.add_argument(
        "--indexer-port", type=port_number, default=8090,
        help="indexer GraphQL API port, as a local network's (default: %(default)s; 0 picks a "
        "free one)",
    )  # fmt: skip
    node.add_argument(
        "--db", default=None, help="SQLite file of the ledger (default: a temporary one)"
    )
    node.add_argument(
        "--seed", type=int, default=0, help="chain generator seed (default: %(default)s)"
    )
    node.add_argument(
        "--blocks", type=int, default=360, help="blocks to generate on a new ledger (a day)"
    )
    _add_time_options(node)
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
        help="keep only the newest VERSIONS versions; older ones answer 410 (in the public "
        "profile: the fullnode's window, by default the newest 40%% of the chain)",
    )
    node.add_argument(
        "--disable",
        action="append",
        default=[],
        metavar="GROUP",
        help="switch an endpoint group off (403 api_disabled); repeatable",
    )
    _add_public_profile(node)


def _add_public_profile(node: Any) -> None:
    """``ledgerkit node``'s options of the public profile (``--profile public``)."""
    public = node.add_argument_group(
        "public profile",
        "--profile public serves a pruned fullnode behind a public gateway (API key, rate "
        "limit, load shedding) and an archive node with all of history, over one chain",
    )
    public.add_argument(
        "--profile",
        choices=("local", "public"),
        default="local",
        help="local: one node (default); public: a fullnode and an archive as public networks",
    )
    public.add_argument(
        "--budget", type=int, default=None, metavar="UNITS",
        help="compute units per window and client address without a key (default: 50000)",
    )  # fmt: skip
    public.add_argument(
        "--key-budget", type=int, default=None, metavar="UNITS",
        help="compute units per window with the node's API key (default: 500000)",
    )  # fmt: skip
    public.add_argument(
        "--rate-window", type=float, default=None, metavar="SECONDS",
        help="length of a metering window (default: 300)",
    )  # fmt: skip
    public.add_argument(
        "--page-cost", type=int, default=None, metavar="UNITS",
        help="units a page read costs; other requests cost 1 (default: 10)",
    )  # fmt: skip
    public.add_argument(
        "--overload-rate", type=float, default=None, metavar="SHARE",
        help="share of fullnode requests answered 503 overloaded, seeded (default: 0)",
    )  # fmt: skip


def _add_time_options(node: argparse.ArgumentParser) -> None:
    """``ledgerkit node``'s ``--anchor`` (where the history ends), ``--clock`` and
    ``--idle-interval``."""
    node.add_argument(
        "--anchor",
        default=None,
        metavar="TIME",
        help="where the generated history ends: 'now', an ISO 8601 time or Unix seconds "
        "(default: fixed, so a seed gives the same chain everywhere)",
    )
    node.add_argument(
        "--clock",
        choices=("wall", "chain"),
        default="wall",
        help="wall (default): the chain's time follows the wall clock, an empty block each "
        "idle second (--idle-interval); chain: the anchor's time at the node's pace, "
        "waiting while idle",
    )
    node.add_argument(
        "--idle-interval",
        type=idle_seconds,
        default=None,
        metavar="SECONDS",
        help="on the wall clock, the seconds an idle node waits before it makes an empty "
        f"block (default: 1; from {MIN_IDLE_SECONDS:g} to {MAX_IDLE_SECONDS:g})",
    )


def idle_seconds(value: str) -> float:
    """An ``--idle-interval`` value: seconds from :data:`MIN_IDLE_SECONDS` to
    :data:`MAX_IDLE_SECONDS` (a day)."""
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {value[:20]!r}") from None
    if not MIN_IDLE_SECONDS <= seconds <= MAX_IDLE_SECONDS:  # NaN is refused too
        raise argparse.ArgumentTypeError(
            f"seconds from {MIN_IDLE_SECONDS:g} to {MAX_IDLE_SECONDS:g}, got {value[:20]}"
        )
    return seconds


#: ``ledgerkit node`` options of the public profile -> ``PublicSettings`` fields.
_PUBLIC_OPTIONS = {
    "budget": "budget",
    "key_budget": "key_budget",
    "rate_window": "window_seconds",
    "page_cost": "page_cost",
    "overload_rate": "overload_rate",
}


def _profile_options(args: argparse.Namespace) -> dict[str, Any]:
    """``profile`` and, for the public one, its ``PublicSettings`` from the options given."""
    given = [option for option in _PUBLIC_OPTIONS if getattr(args, option) is not None]
    if args.profile != "public":
        if given:
            flags = ", ".join("--" + option.replace("_", "-") for option in given)
            raise InputError(f"{flags}: options of the public profile (--profile public)")
        return {}
    from ledgerkit.localnet import PublicSettings

    fields = {_PUBLIC_OPTIONS[option]: getattr(args, option) for option in given}
    settings = PublicSettings(**fields)
    return {"profile": "public", "public": settings}


#: ``ledgerkit node``'s port flag of each server that has one (for a port in use).
PORT_FLAGS = {"node": "--port", "faucet": "--faucet-port", "indexer": "--indexer-port"}


def port_number(value: str) -> int:
    """A ``--port`` value: 0 (a free port) to 65535."""
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {value[:20]!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 (a free one) to 65535, got {port}")
    return port


def faucet_options(args: argparse.Namespace) -> dict[str, Any]:
    """``faucet_port`` and the faucet's settings: open in the local profile unless told."""
    from ledgerkit.localnet import FaucetSettings

    kind = args.faucet or ("protected" if args.profile == "public" else "open")
    options: dict[str, Any] = {"faucet_port": args.faucet_port}
    if kind == "protected":
        if args.faucet_limit is not None:
            raise InputError("--faucet-limit: an option of the open faucet (--faucet open)")
        return options
    if args.faucet_limit is None:
        options["faucet"] = FaucetSettings.local()
    else:
        options["faucet"] = FaucetSettings.local(max_amount=args.faucet_limit)
    return options


def node_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of ``serve`` that ``ledgerkit node``'s options give.

    Raises
    ------
    InputError
        An option that does not go with the others (``--idle-interval`` on the chain
        clock, ``--faucet-limit`` with the protected faucet, a public profile option in
        the local one).
    """
    options: dict[str, Any] = {**_profile_options(args), **faucet_options(args)}
    if args.idle_interval is not None:
        if args.clock != "wall":
            raise InputError("--idle-interval: an option of the wall clock (--clock wall)")
        options["idle_interval"] = args.idle_interval
    return {
        **options,
        "db": args.db,
        "host": args.host,
        "port": args.port,
        "indexer_port": args.indexer_port,
        "seed": args.seed,
        "blocks": args.blocks,
        "anchor": args.anchor,
        "clock": args.clock,
        "chain_id": args.chain_id,
        "dev_accounts": args.dev_accounts,
        "block_interval": args.block_interval,
        "prune_window": args.prune_window,
        "disabled": frozenset(args.disable),
    }
