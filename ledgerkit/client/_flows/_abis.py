"""Module ABIs read into the one cache, :class:`~ledgerkit.AbiCache`, as flows written once
for both clients. No I/O here.

Every read of ABIs a node client makes goes through here: one module (the one whose
function a build calls, or a transaction being explained calls) with :func:`module_abi`,
and every module a set of types needs with :func:`loading_abis`, which runs
:func:`ledgerkit.models.abi_requests` and reads each nesting level's modules together
(an :class:`~ledgerkit.AsyncClient` sends them concurrently). A module the node answers
404 for is remembered in the cache as not published, except by :func:`module_abi`, whose
caller says what the 404 means (a build's function that does not exist is an error).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ledgerkit._errors import LedgerError, NotFoundError
from ledgerkit.client import calls
from ledgerkit.client._driver import Flow, send, send_together
from ledgerkit.models import AbiCache, MoveModule, abi_requests
from ledgerkit.types import LedgerMeta, ModuleId, MoveType

__all__ = ["level", "loading_abis", "module_abi"]

#: What a flow tells of each answer's ledger (the build state notes the chain).
Observe = Callable[[LedgerMeta | None], None]


def module_abi(
    cache: AbiCache, module_id: ModuleId, observe: Observe | None = None
) -> Flow[MoveModule | None]:
    """Read ``module_id`` from the node into ``cache``: its ABI, or None when the node
    sends the module without one. A 404 is raised: what it means is the caller's to say."""
    result = yield from send(calls.account_module(module_id.address, module_id.name))
    if observe is not None:
        observe(result.ledger)
    abi = result.value.abi
    if abi is None:
        cache.add_missing(module_id)
    else:
        cache.add(abi)
    return abi


def level(
    needed: list[ModuleId], observe: Observe | None = None
) -> Flow[dict[ModuleId, MoveModule | None]]:
    """The ABIs of ``needed``, read together; None for a module the node does not publish
    (404) or sends without its ABI."""
    reads = [calls.account_module(m.address, m.name) for m in needed]
    outcomes = yield from send_together(reads)
    found: dict[ModuleId, MoveModule | None] = {}
    for module_id, outcome in zip(needed, outcomes, strict=True):
        if isinstance(outcome, NotFoundError):
            found[module_id] = None
        elif isinstance(outcome, LedgerError):
            raise outcome
        else:
            if observe is not None:
                observe(outcome.ledger)
            found[module_id] = outcome.value.abi
    return found


def loading_abis(
    cache: AbiCache,
    types: Iterable[MoveType | str],
    *,
    bcs: bool = False,
    observe: Observe | None = None,
) -> Flow[AbiCache]:
    """Fill ``cache`` with the ABIs ``types`` need, a nesting level's modules read
    together, each module at most once; returns ``cache``. By default ``types`` are event
    types to lay out as columns; with ``bcs``, the types of values to encode or decode
    (see :meth:`AbiCache.missing_modules <ledgerkit.AbiCache.missing_modules>`)."""
    flow = abi_requests(cache, types, bcs=bcs, fetch=lambda needed: level(needed, observe))
    return (yield from flow)
