"""View functions: Move ``#[view]`` functions run at a version, read-only.

Arguments come as JSON (``POST /view``) or BCS (a BCS view request); the results come
back as JSON values and as BCS (a ULEB128 count, then each value), with the gas used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledgerkit.bcs import EntryFunction
from ledgerkit.localnet.ledger._ledger_reads import LedgerReads, ViewResult
from ledgerkit.localnet.vm import run_view
from ledgerkit.types import EntryFunctionId, MoveType

__all__ = ["LedgerViews"]


class LedgerViews:
    """The view functions of a :class:`~ledgerkit.localnet.ledger.Ledger` (its ``views``).

    Parameters
    ----------
    reads : LedgerReads
        The ledger's reads: its store, its head and the versions it holds.
    chain_id : int
        The chain id view functions see.
    """

    def __init__(self, reads: LedgerReads, *, chain_id: int) -> None:
        self._reads = reads
        self._chain_id = chain_id

    def view_function(
        self,
        function: EntryFunctionId,
        type_arguments: Sequence[MoveType],
        arguments: Sequence[Any],
        version: int | None,
        *,
        bcs_args: bool = False,
    ) -> ViewResult:
        """Run a view function at ``version``; arguments are JSON, or BCS with ``bcs_args``."""
        v = self._reads.checked_version(version)
        store = self._reads.store
        values, encoded, gas = run_view(
            lambda skey: store.reads.state(skey, v),
            function,
            type_arguments,
            arguments,
            bcs_args=bcs_args,
            timestamp_usec=self._reads.head.block.timestamp,
            chain_id=self._chain_id,
        )
        return ViewResult(values, encoded, gas)

    def view(
        self,
        function: EntryFunctionId,
        type_arguments: Sequence[MoveType],
        arguments: Sequence[Any],
        version: int | None,
    ) -> tuple[list[Any], int]:
        """JSON results of a view function and the gas it used."""
        result = self.view_function(function, type_arguments, arguments, version)
        return result.values, result.gas_used

    def view_bcs(self, payload: EntryFunction, version: int | None) -> tuple[bytes, int]:
        """BCS results (ULEB128 count, then each value) of a BCS view request, and gas."""
        result = self.view_function(
            payload.function_id, payload.type_args, payload.args, version, bcs_args=True
        )
        return result.encoded, result.gas_used
