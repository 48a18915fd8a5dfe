"""The Arrow table of a partition, built while its pages arrive.

:func:`arrow_table` converts records to the table a partition file holds.
:class:`TableBuilder` makes the same table from the records handed to it in key order,
page after page: every :data:`CHUNK_ROWS` records are converted as soon as they are all
there, while later pages are still being fetched, so that what is left to do after the
last page is the last chunk and a merge. The merge gives the table :func:`arrow_table`
gives for all the records at once, schema and metadata included (so the Parquet file is
the same, byte for byte): the frame converters put categories in order of first
appearance, and unifying the chunks' dictionaries in order keeps that order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import pandas as pd

from ledgerkit.extract._convert import CONVERTERS

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["CHUNK_ROWS", "TableBuilder", "arrow_table"]

#: Records converted at a time while a partition is fetched: enough that a chunk's fixed
#: costs are small beside its rows, few enough that the last one is quick.
CHUNK_ROWS: Final = 2_000


def _text_or(value_type: pa.DataType) -> pa.DataType:
    import pyarrow as pa

    return pa.large_string() if pa.types.is_null(value_type) else value_type


def _frame_table(frame: pd.DataFrame) -> pa.Table:
    import pyarrow as pa

    table = pa.Table.from_pandas(frame, preserve_index=False)
    # pandas picks the narrowest codes (int8 below 128 categories); a dataset read across
    # partitions unifies their dictionaries, which overflows such codes. int32 always fits.
    # A categorical without categories (no fee payer in the partition) has null values:
    # text like the others, so that partitions unify.
    schema = pa.schema(
        [
            field.with_type(pa.dictionary(pa.int32(), _text_or(field.type.value_type)))
            if pa.types.is_dictionary(field.type)
            else field
            for field in table.schema
        ],
        metadata=table.schema.metadata,
    )
    return table.cast(schema)


def arrow_table(kind: str, records: Sequence[Any]) -> pa.Table:
    """The records of a partition as the Arrow table of its file."""
    return _frame_table(CONVERTERS[kind](records))


class TableBuilder:
    """The table of one partition from its records, given in key order in any number of
    pieces (:meth:`add`), converted a chunk at a time; :meth:`finish` returns it.

    Conversion is Python work that holds the interpreter: it runs on the caller's thread
    (the event loop of an extraction), in between the answers it is waiting for.
    """

    def __init__(self, kind: str, chunk_rows: int | None = None) -> None:
        self._kind = kind
        self._chunk_rows = CHUNK_ROWS if chunk_rows is None else chunk_rows
        if self._chunk_rows < 1:
            raise ValueError(f"chunk_rows must be at least 1, got {chunk_rows}")
        self._pending: list[Any] = []
        self._empty: pd.DataFrame | None = None  # the columns and dtypes, no rows
        self._tables: list[pa.Table] = []

    @property
    def rows(self) -> int:
        """Records added so far."""
        return sum(len(t) for t in self._tables) + len(self._pending)

    def add(self, records: Sequence[Any]) -> None:
        """The next records in key order; a full chunk is converted now."""
        self._pending.extend(records)
        while len(self._pending) >= self._chunk_rows:
            chunk = self._pending[: self._chunk_rows]
            del self._pending[: self._chunk_rows]
            self._convert(chunk)

    def _convert(self, records: list[Any]) -> None:
        frame = CONVERTERS[self._kind](records)
        if self._empty is None:
            self._empty = frame.iloc[:0].copy()
        self._tables.append(_frame_table(frame))

    def finish(self) -> pa.Table:
        """The table of every record added (the builder is spent)."""
        if self._pending or not self._tables:
            self._convert(self._pending)
            self._pending = []
        tables, self._tables = self._tables, []
        if len(tables) == 1:
            return tables[0]
        import pyarrow as pa

        merged = pa.concat_tables(tables).unify_dictionaries().combine_chunks()
        # The schema's pandas metadata tells each categorical's count and code width:
        # those of the whole, as pandas gives them for the merged categories.
        assert self._empty is not None
        empty, self._empty = self._empty, None
        for name in empty.columns:
            if isinstance(empty[name].dtype, pd.CategoricalDtype):
                categories = merged.column(name).chunk(0).dictionary.to_pylist()
                empty[name] = pd.Categorical([], categories=categories)
        metadata = pa.Table.from_pandas(empty, preserve_index=False).schema.metadata
        return merged.replace_schema_metadata(metadata)
