"""Bulk extraction of ledger ranges: concurrent, retried, checked for completeness, and
written to resumable Parquet datasets (or handed to Dask).

- :func:`extract` writes a dataset directory (``manifest.json`` plus
  ``<kind>/part-*.parquet``) of one kind: ``"transactions"``, ``"blocks"``,
  ``"events"``, ``"transaction_events"`` or ``"activity"`` (:data:`ExtractKind`);
  :func:`aextract` is its coroutine twin, and
  ``extract_transactions``, ``extract_blocks``, ``extract_events`` (``aextract_*``) are
  its aliases for each kind.
- :func:`fetch_transactions` returns the records of a version range, checked.
- :func:`events_of_type` (``aevents_of_type``) returns the events of one Move type over a
  version range, module events included, from a ``"transaction_events"`` extraction.
- :func:`read_activity` reads one account's rows from an ``"activity"`` dataset;
  :func:`scan_activity` (:func:`ascan_activity`) extracts a range first, and
  :func:`account_activity` (:func:`aaccount_activity`) does so for a client's node up to
  its head, in the chain's :func:`activity_dataset` (what ``ledgerkit.account_activity``
  does).
- :func:`extract_dask` gives the same kinds as lazy Dask DataFrames (the ``dask`` extra:
  ``pip install 'ledgerkit[dask]'``); :func:`transactions_dask`, :func:`blocks_dask` and
  :func:`events_dask` are its aliases for those kinds.

Every one of them takes the node as a URL or as a configured :class:`~ledgerkit.Client` /
:class:`~ledgerkit.AsyncClient` (its address, api key and headers are used), or a URL with
``api_key=`` / ``headers=``; and its options as one :class:`ExtractOptions` (``options=``),
whose fields may also be given one by one as keyword arguments; :data:`PARTITION_SIZE`
holds each kind's partition size when the options leave it unset.

See ``docs/extract.md``.
"""

from __future__ import annotations

from ledgerkit._public import publish as _publish
from ledgerkit.extract._activity import (
    ActivityWindow,
    aaccount_activity,
    account_activity,
    activity_dataset,
    ascan_activity,
    read_activity,
    scan_activity,
)
from ledgerkit.extract._dask import blocks_dask, events_dask, extract_dask, transactions_dask
from ledgerkit.extract._dataset import ExtractionSummary
from ledgerkit.extract._entry import (
    aextract,
    aextract_blocks,
    aextract_events,
    aextract_transactions,
    extract,
    extract_blocks,
    extract_events,
    extract_transactions,
    fetch_transactions,
)
from ledgerkit.extract._events_of_type import aevents_of_type, events_of_type
from ledgerkit.extract._manifest import MANIFEST, SCHEMA_VERSION, read_manifest
from ledgerkit.extract._options import PARTITION_SIZE, ExtractOptions
from ledgerkit.extract._sources import KINDS, ExtractKind

__all__ = [
    "KINDS",
    "MANIFEST",
    "PARTITION_SIZE",
    "SCHEMA_VERSION",
    "ActivityWindow",
    "ExtractKind",
    "ExtractOptions",
    "ExtractionSummary",
    "aaccount_activity",
    "account_activity",
    "activity_dataset",
    "aevents_of_type",
    "aextract",
    "aextract_blocks",
    "aextract_events",
    "aextract_transactions",
    "ascan_activity",
    "blocks_dask",
    "events_dask",
    "events_of_type",
    "extract",
    "extract_blocks",
    "extract_dask",
    "extract_events",
    "extract_transactions",
    "fetch_transactions",
    "read_activity",
    "read_manifest",
    "scan_activity",
    "transactions_dask",
]

# Public names report where users import them from (see ledgerkit._public).
_publish(globals(), __all__, __name__)
# A front-door name (see ledgerkit._public).
_publish(globals(), ("aaccount_activity", "account_activity", "events_of_type"), "ledgerkit")
