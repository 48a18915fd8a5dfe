"""What every request builder starts from: the method and path of a row of the endpoint
table (:func:`route`), and a read of ledger state at the latest or an explicit version
(:func:`state_read`). No I/O here.

The builders of ``_calls`` and the declarations of ``_methods`` both use them, so a path
is only ever written in the table (``ledgerkit._endpoints``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ledgerkit._endpoints import OPERATIONS
from ledgerkit.client import _inputs as inputs
from ledgerkit.client import _policies as policy
from ledgerkit.client._base import JSON, Call

__all__ = ["route", "state_read"]

T = TypeVar("T")


def route(op_id: str, **segments: object) -> tuple[str, str]:
    """The method and path of an operation of the table, its path segments filled in."""
    op = OPERATIONS[op_id]
    return op.method, op.url_path(**segments)


def state_read(
    name: str,
    route: tuple[str, str],
    decode: Callable[[bytes], T],
    ledger_version: int | None,
    *,
    accept: str = JSON,
    body: bytes | None = None,
    content_type: str | None = None,
    **params: str | int | None,
) -> Call[T]:
    """A read of state: the latest, or at ``ledger_version`` (then fixed, and cached)."""
    version = None if ledger_version is None else int(inputs.u64(ledger_version, "ledger_version"))
    return Call(
        name,
        *route,
        decode,
        inputs.params(ledger_version=version, **params),
        body=body,
        content_type=content_type,
        accept=accept,
        storable=policy.at_version(version),
    )
