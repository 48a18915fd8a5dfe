"""The node in the foreground: ``serve``, behind the ``ledgerkit node`` command.

It starts a :class:`~ledgerkit.localnet.LocalNode`, prints where its servers listen and its
dev accounts, and stops it cleanly at Ctrl-C or SIGTERM (:class:`_SignalStop`).
"""

from __future__ import annotations

import contextlib
import logging
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

from ledgerkit.localnet._server import LocalNode

__all__ = ["indexer_progress_shown", "serve", "served"]


class _SignalStop:
    """SIGINT and SIGTERM handled by the foreground node for the time of a ``with`` block.

    :meth:`wait` returns at the first signal. A signal before the node waits (while it opens
    or generates its ledger) raises ``KeyboardInterrupt`` to interrupt that work, once, and
    the block ends there quietly. Later signals never interrupt the cleanup. On leaving, the
    handlers and signal mask found on entry are restored.
    """

    def __init__(self) -> None:
        self.received: list[signal.Signals] = []
        self._waiting = False
        self._previous: dict[signal.Signals, Any] = {}
        self._mask: set[int | signal.Signals] | None = None

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        self.received.append(signal.Signals(signum))
        if not self._waiting and len(self.received) == 1:
            raise KeyboardInterrupt

    def __enter__(self) -> _SignalStop:
        wanted = [signal.SIGINT, signal.SIGTERM]
        # Ours whatever was inherited: a shell starts a background job with SIGINT ignored,
        # and an ignored or blocked signal would leave the node running until killed.
        self._previous = {signum: signal.signal(signum, self._handle) for signum in wanted}
        if hasattr(signal, "pthread_sigmask"):  # POSIX
            self._mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, wanted)
        return self

    def wait(self) -> None:
        """Return at the first signal, saying which one stops the node."""
        self._waiting = True
        while not self.received:
            time.sleep(0.2)  # the handler only records the signal
        self._say_stopping()

    def _say_stopping(self) -> None:
        name = self.received[0].name if self.received else "SIGINT"
        print(f"\nstopping ({name})", flush=True)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        for signum, handler in self._previous.items():
            if handler is not None:
                signal.signal(signum, handler)
        if self._mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self._mask)
        if exc_type is KeyboardInterrupt and self.received:
            self._say_stopping()
            return True  # a stop asked for while starting: no traceback
        return False


def served(node: LocalNode) -> list[tuple[str, str, str]]:
    """What a started ``node`` serves, in the order ``ledgerkit node`` prints it: ``(label,
    URL, note)`` for each server beside the node API (the one place a new one is added)."""
    rows: list[tuple[str, str, str]] = []
    if node.archive_url is not None:
        rows.append(("archive", node.archive_url, "all of history; no API key"))
    if node.faucet_url is not None:
        protected = node.faucet_settings is not None and not node.faucet_settings.open
        note = "an ID token of an issuer below" if protected else "open: POST /mint, POST /fund"
        rows.append(("faucet", node.faucet_url, note))
        rows += [
            ("issuer", url, f"{name}; sign in: POST {url}/sign_in")
            for name, url in node.issuers.items()
        ]
    if node.docs_url is not None:
        rows.append(("docs", node.docs_url, ""))
    if node.indexer_url is not None:
        rows.append(("indexer", node.indexer_url, "GraphQL"))
    return rows


@contextlib.contextmanager
def indexer_progress_shown() -> Iterator[None]:
    """The indexer's INFO lines (how far a long catch-up is) on standard error, as
    ``ledgerkit: indexer: ...``, while the block runs; nothing is added when logging is
    configured already (the root logger has handlers), as a program calling
    :func:`serve` may have done."""
    shown = logging.getLogger("ledgerkit.localnet.indexer")
    if logging.getLogger().handlers or shown.handlers:
        yield
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("ledgerkit: %(message)s"))
    level = shown.level
    shown.addHandler(handler)
    shown.setLevel(logging.INFO)
    try:
        yield
    finally:
        shown.removeHandler(handler)
        shown.setLevel(level)


def serve(
    *, db: str | Path | None, host: str, port: int, log_level: str = "info", **options: Any
) -> None:
    """Run the node in the foreground until Ctrl-C or SIGTERM (the ``ledgerkit node`` command).

    Either signal stops it cleanly: the server stops listening, the block producer finishes
    its block, the ledger is closed, and the function returns. Call it from the main thread,
    where signal handlers live. ``options`` are :class:`LocalNode`'s (``faucet_port``,
    ``faucet``, ``profile`` ...).

    Raises
    ------
    PortInUseError
        A port asked for is taken.
    """
    node = LocalNode(db=db, host=host, port=port, log_level=log_level, **options)
    with _SignalStop() as stop, contextlib.ExitStack() as stack:
        stack.enter_context(indexer_progress_shown())  # a long first indexing says so
        stack.callback(node.stop)
        node.start()
        print(f"ledgerkit local node: {node.url}", flush=True)
        clock = "chain"
        if node.config.clock == "wall":
            clock = f"wall (an empty block after {node.config.idle_interval:g} s idle)"
        print(
            f"  chain id {node.config.chain_id}, seed {node.config.seed}, clock {clock}", flush=True
        )
        if node.public is not None:
            window = node.public.prune_window
            print(
                f"  profile     public: the fullnode keeps the newest {window} versions",
                flush=True,
            )
        for label, url, note in served(node):
            print(f"  {label:<11} {url}" + (f"  ({note})" if note else ""), flush=True)
        if node.api_key is not None:
            # Like the dev keys below: printed for the user, never logged.
            print(
                f"  api key     {node.api_key}  (Authorization: Bearer; keep it here)", flush=True
            )
        print("  dev accounts (funded; keep these keys to this machine):", flush=True)
        for account in node.dev_accounts:
            # AIP-80 text: what the SDKs, the CLI and wallets import without a warning.
            print(f"    {account.address}  {account.private_key.secret_aip80()}", flush=True)
        print("Press Ctrl-C to stop.", flush=True)
        stop.wait()
