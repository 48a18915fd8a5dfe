"""``events_of_type``: the events of one Move type over a version range, module events
included, found by scanning the range's transactions.

The node answers event streams by handle or creation number, never by type, and module
events belong to no stream. So the range is extracted as a ``transaction_events`` dataset
(concurrent, checked, resumable, with a progress bar) and the events of the type are read
back from it; a dataset kept on disk (``dataset=``) serves any later call over the same
versions, whatever the type, without a request for those versions.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

import httpx
import pandas as pd

from ledgerkit._errors import InputError
from ledgerkit.client import AsyncClient, Client
from ledgerkit.extract._dataset import write_dataset
from ledgerkit.extract._entry import CONCURRENCY
from ledgerkit.extract._fetch import blocking_twin, transaction_events_source
from ledgerkit.extract._options import (
    PARTITION_SIZE,
    ExtractOptions,
    node_access,
    resolve_options,
)
from ledgerkit.frames import (
    EVENT_COLUMNS,
    empty_frame,
    event_type_matches,
    expand_event_data,
)
from ledgerkit.models import AbiCache
from ledgerkit.types import StructTag

__all__ = ["aevents_of_type", "events_of_type"]

_KIND = "transaction_events"


def _bound(value: int | None, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(f"{name} must be a non-negative integer or None, got {value!r}")
    return value


def _read_back(root: Path, wanted: StructTag, start: int, stop: int) -> pd.DataFrame:
    """The events of ``wanted`` with versions in ``[start, stop)`` from the dataset in
    ``root``, in (version, event_index) order, as :data:`EVENT_COLUMNS`."""
    import pyarrow.compute as pc
    import pyarrow.dataset as ds

    folder = root / _KIND
    files = sorted(str(p) for p in folder.glob("part-*.parquet"))
    if not files:
        return empty_frame(EVENT_COLUMNS)
    data = ds.dataset(files, format="parquet")
    in_range = (pc.field("version") >= start) & (pc.field("version") < stop)
    # The types are a dictionary: read them alone, match each once.
    kinds = data.to_table(columns=["type"], filter=in_range).column("type")
    names = pc.unique(kinds.cast("string")).to_pylist() if len(kinds) else []
    chosen = [t for t in names if t is not None and event_type_matches(wanted, t)]
    if not chosen:
        return empty_frame(EVENT_COLUMNS)
    table = data.to_table(filter=in_range & pc.field("type").cast("string").isin(chosen))
    frame = table.to_pandas()
    frame = frame.sort_values(["version", "event_index"], kind="stable", ignore_index=True)
    for name in ("account_address", "type"):
        frame[name] = frame[name].cat.remove_unused_categories()
    return frame[list(EVENT_COLUMNS)]


async def aevents_of_type(
    url: str | Client | AsyncClient,
    event_type: str | StructTag,
    *,
    start_version: int | None = None,
    end_version: int | None = None,
    dataset: str | os.PathLike[str] | None = None,
    typed: bool = False,
    cache: AbiCache | None = None,
    options: ExtractOptions | None = None,
    partition_size: int | None = None,
    concurrency: int | None = None,
    max_rps: float | None = None,
    progress: bool | None = None,
    api_key: str | None = None,
    headers: Mapping[str, str] | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> pd.DataFrame:
    """Coroutine twin of :func:`events_of_type`."""
    wanted = StructTag.parse(event_type)
    if cache is not None and not typed:
        raise InputError("cache= holds ABIs for typing the events: give typed=True with it")
    first = _bound(start_version, "start_version")
    end = _bound(end_version, "end_version")
    start: int | Literal["oldest"] = "oldest" if first is None else first
    stop: int | Literal["head"] = "head" if end is None else end
    source = transaction_events_source()
    given = {
        "partition_size": partition_size,
        "concurrency": concurrency,
        "max_rps": max_rps,
        "progress": progress,
    }
    overrides = {name: value for name, value in given.items() if value is not None}
    resolved = resolve_options(
        options, overrides, partition_size=PARTITION_SIZE[_KIND], concurrency=CONCURRENCY
    )
    node = node_access(url, api_key=api_key, headers=headers)

    async def scan(root: Path) -> pd.DataFrame:
        summary = await write_dataset(
            source, node, root, start=start, stop=stop, options=resolved, transport=transport
        )
        return _read_back(root, wanted, summary.start, summary.stop)

    if dataset is not None:
        frame = await scan(Path(dataset))
    else:
        with tempfile.TemporaryDirectory(prefix="ledgerkit-events-") as scratch:
            frame = await scan(Path(scratch))
    if not typed:
        return frame
    cache = AbiCache() if cache is None else cache
    types = [StructTag.parse(t) for t in pd.unique(frame["type"].astype(str))] or [wanted]
    async with node.client(resolved, transport) as client:
        await client.load_abis(types, cache=cache)
    return expand_event_data(frame, wanted, modules=cache)


events_of_type = blocking_twin(
    aevents_of_type,
    "events_of_type",
    """The events of one Move type emitted in a version range, module events and handle
    events alike, found by scanning the range's transactions.

    Parameters
    ----------
    url : str, Client or AsyncClient
        The node, as for :func:`extract` (its address, api key and headers are used).
    event_type : str or StructTag
        ``address::module::Struct``. With type arguments, only that instantiation of a
        generic struct; without, the struct with any type arguments.
    start_version, end_version : int, optional
        The versions ``[start_version, end_version)`` (half-open, as every range of
        ``ledgerkit.extract``). Default: from the oldest version the node keeps, through
        its newest (read once when the scan begins).
    dataset : path, optional
        A directory for the ``transaction_events`` dataset of the range (every event of
        every transaction, see :func:`extract`): a run that stops resumes there, and a
        later call over versions already in it, of any type, fetches none of them again.
        Default: a temporary directory, removed afterwards.
    typed : bool, default False
        The events' fields as typed columns, read from the ABIs of the modules that
        declare them (see :func:`ledgerkit.typed_events`), instead of ``data`` as JSON.
    cache : AbiCache, optional
        With ``typed``: the ABIs at hand, those missing fetched into it.
    options : ExtractOptions, optional
        How the scan runs, as for :func:`extract` (retries, timeout...).
    partition_size, concurrency, max_rps, progress : optional
        Fields of ``options`` given one by one (they win over it): versions per file of
        the dataset (10,000), requests in flight (16), requests per second, progress bar
        (by default when interactive).
    api_key, headers, transport : optional
        As for :func:`extract`.

    Returns
    -------
    pandas.DataFrame
        :data:`ledgerkit.frames.EVENT_COLUMNS`, one row per event, in (``version``,
        ``event_index``) order, ``event_index`` being the event's index within its
        transaction; typed: as :func:`ledgerkit.frames.expand_event_data` gives it.

    Raises
    ------
    InputError
        A malformed type or range (nothing sent).
    RangeBeyondLedgerError, IncompleteExtractionError
        As for :func:`extract`.
    UnknownStructError
        With ``typed``: a struct whose module is not published or does not declare it.

    Notes
    -----
    The cost is that of extracting the range's transactions: one request per 100
    versions (``concurrency`` at once), each answer a whole page of transactions, read
    for its events alone. On the embedded node, 1,000 versions take 10 requests.

    Examples
    --------
    >>> deposits = events_of_type(client, "0x1::fungible_asset::Deposit",
    ...                           start_version=0, end_version=5_000, typed=True)  # doctest: +SKIP
    """,
)
