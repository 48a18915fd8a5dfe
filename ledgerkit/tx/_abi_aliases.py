"""The toolkit's two ABI holders before :class:`~ledgerkit.AbiCache`, kept as deprecated
aliases: ``ledgerkit.tx.ModuleAbis`` (what ``explain_transaction`` typed arguments by)
and ``ledgerkit.tx.AbiLayouts`` (struct layouts for the codec). Each is an
:class:`~ledgerkit.AbiCache`, unbounded as they were, whose methods that read otherwise
keep their old form; naming either warns (see ``ledgerkit.tx.__getattr__``).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any, Final

from ledgerkit.bcs import EntryFunction
from ledgerkit.models import AbiCache, MoveModule, MoveModuleBytecode
from ledgerkit.tx._explain import argument_types
from ledgerkit.types import ModuleId, MoveType

__all__ = ["AbiLayouts", "ModuleAbis"]

#: Neither held a bounded number of modules.
_UNBOUNDED: Final = sys.maxsize
_NOT_GIVEN: Final = object()


class ModuleAbis(AbiCache):
    """Deprecated: use :class:`ledgerkit.AbiCache`. Module ABIs by module id, as fetched;
    ``add(module_id, module)`` (None: not published) and ``parameter_types(ef)`` as
    before."""

    def __init__(self, modules: Iterable[MoveModule | MoveModuleBytecode] = ()) -> None:
        super().__init__(modules, max_modules=_UNBOUNDED)

    def add(self, module_id: Any, module: Any = _NOT_GIVEN) -> None:  # type: ignore[override]
        """Remember ``module_id``'s ABI (None: the node has no such module); ``add(module)``
        as :meth:`AbiCache.add <ledgerkit.AbiCache.add>` takes it works too."""
        if module is _NOT_GIVEN:
            super().add(module_id)
        elif module is None:
            self.add_missing(module_id)
        else:
            super().add(module)

    def parameter_types(self, ef: EntryFunction) -> list[MoveType] | None:
        """The Move types of ``ef``'s arguments (signers left out, generics filled in from
        its type arguments), or None when its ABI is unknown or does not fit the call."""
        return argument_types(ef, self.module(ef.module))


class AbiLayouts(AbiCache):
    """Deprecated: use :class:`ledgerkit.AbiCache`, a layout source for the codec too.
    ``knows(module_id)`` and ``missing_modules(types)`` (a set, for BCS values) as
    before."""

    def __init__(self, modules: Iterable[MoveModule | MoveModuleBytecode] = ()) -> None:
        super().__init__(modules, max_modules=_UNBOUNDED)

    def knows(self, module_id: ModuleId) -> bool:
        """Whether the ABI of ``module_id`` was added."""
        return self.module(module_id) is not None

    def missing_modules(  # type: ignore[override]
        self, types: Iterable[MoveType | str], *, fresh: Iterable[ModuleId] = (), bcs: bool = True
    ) -> set[ModuleId]:
        """The modules whose ABI is still needed to encode or decode values of ``types``."""
        return set(super().missing_modules(types, fresh=fresh, bcs=bcs))
