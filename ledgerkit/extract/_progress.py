"""The progress bar of a run: ``tqdm``'s (a widget in Jupyter), off when nobody watches,
counting the keys written and showing what the run costs so far: the requests sent and
the time the node's rate limit (its budget) held them.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncIterator
from typing import Any

from ledgerkit.extract._fetch import Counter, Source

__all__ = ["Relay", "progress_bar"]


class Relay:
    """A progress counter that keeps the counts made before the bar exists, then passes
    them on to it."""

    def __init__(self) -> None:
        self._target: Counter | None = None
        self._pending = 0.0

    def to(self, target: Counter) -> None:
        self._target = target
        if self._pending:
            target.update(self._pending)

    def update(self, n: float | None = 1) -> bool | None:
        if self._target is not None:
            return self._target.update(n)
        self._pending += 1 if n is None else n
        return None


def _costs(requests: int, waited: Any) -> str:
    """What a run has cost so far, as its bar shows it: the requests sent, the time the
    node's rate limit held them, and while it holds them, for how long still."""
    text = f"{requests} requests"
    if waited.holds:
        text += f", waited {waited.seconds:.0f} s"
    if waited.remaining > 0:
        text += f" (rate limit: waiting {waited.remaining:.0f} s)"
    return text


async def _tell_costs(client: Any, bar: Any) -> None:
    """Keep the bar's costs (:func:`_costs`) up to date while the run goes."""
    shown = ""
    while True:
        text = _costs(client.requests_sent, client.waited)
        if text != shown:
            bar.set_postfix_str(text, refresh=True)
            shown = text
        await asyncio.sleep(0.5)


def _interactive(progress: bool | None) -> bool:
    if progress is not None:
        return progress
    return "ipykernel" in sys.modules or sys.stderr.isatty()


@contextlib.asynccontextmanager
async def progress_bar(
    client: Any, source: Source, keys: int, relay: Relay, progress: bool | None
) -> AsyncIterator[Any]:
    """The run's progress bar over ``keys`` keys (off when not interactive), given the
    counts made before it, and showing the requests sent and the time the node's rate
    limit held them."""
    from tqdm.auto import tqdm

    with tqdm(
        total=keys,
        unit=" " + source.key_name,
        desc=source.kind,
        disable=not _interactive(progress),
        # The rate over the whole run, waits included: an honest ETA under a budget.
        smoothing=0,
    ) as bar:
        relay.to(bar)
        telling = None if bar.disable else asyncio.ensure_future(_tell_costs(client, bar))
        try:
            yield bar
        finally:
            if telling is not None:
                telling.cancel()
                await asyncio.wait([telling])
            if not bar.disable:
                bar.set_postfix_str(_costs(client.requests_sent, client.waited), refresh=False)
