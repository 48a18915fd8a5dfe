"""Methods the clients keep for a while under an old name, each warning where it moved.

``Client.account_activity`` scanned a range through the extraction, which sits above the
client: it now lives there, as ``ledgerkit.account_activity`` (``aaccount_activity`` for
an ``AsyncClient``). The methods forward to it through the front door, the package the
client belongs to, which is loaded before any of its modules; nothing else in the client
reaches above it. To be removed in 0.3.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from ledgerkit.types import Address

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["AsyncDeprecatedMethods", "DeprecatedMethods"]

_DOC = """Deprecated: ``ledgerkit.account_activity(client, address, ...)``, or ``await
        ledgerkit.aaccount_activity(aclient, address, ...)`` for an ``AsyncClient``, which
        this forwards its keyword options to (``start_version``, ``end_version``,
        ``dataset``, ``progress``), with a ``DeprecationWarning``."""


def _warn(new: str) -> None:
    warnings.warn(
        f"client.account_activity(...) is deprecated; use {new}(client, address, ...)",
        DeprecationWarning,
        stacklevel=3,
    )


class DeprecatedMethods:
    """Old names of :class:`~ledgerkit.Client` (see the module)."""

    def account_activity(self, address: str | Address, **options: Any) -> pd.DataFrame:
        import ledgerkit

        _warn("ledgerkit.account_activity")
        return ledgerkit.account_activity(self, address, **options)  # type: ignore[arg-type]

    account_activity.__doc__ = _DOC


class AsyncDeprecatedMethods:
    """Old names of :class:`~ledgerkit.AsyncClient` (see the module)."""

    async def account_activity(self, address: str | Address, **options: Any) -> pd.DataFrame:
        import ledgerkit

        _warn("await ledgerkit.aaccount_activity")
        return await ledgerkit.aaccount_activity(self, address, **options)  # type: ignore[arg-type]

    account_activity.__doc__ = _DOC
