"""The ``std::error`` categories and the error constants of the framework modules that
transfers and accounts go through (:data:`FRAMEWORK_ERRORS`, shared with the embedded
node: see :mod:`ledgerkit._framework_errors`).

A node names the constant in ``vm_status`` when the module's metadata carries it; this
table names it when the node did not.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from ledgerkit._framework_errors import FRAMEWORK_ERRORS, declared_error

__all__ = ["CATEGORIES", "FRAMEWORK_ERRORS", "UNSPECIFIED_ABORT_CODE", "declared_error"]

#: ``std::error`` categories, by number.
CATEGORIES: Final[Mapping[int, str]] = MappingProxyType(
    {
        0x1: "INVALID_ARGUMENT",
        0x2: "OUT_OF_RANGE",
        0x3: "INVALID_STATE",
        0x4: "UNAUTHENTICATED",
        0x5: "PERMISSION_DENIED",
        0x6: "NOT_FOUND",
        0x7: "ABORTED",
        0x8: "ALREADY_EXISTS",
        0x9: "RESOURCE_EXHAUSTED",
        0xA: "CANCELLED",
        0xB: "INTERNAL",
        0xC: "NOT_IMPLEMENTED",
        0xD: "UNAVAILABLE",
    }
)

#: The code of a Move 2 ``assert!`` (or ``abort`` with a message) that names no code.
UNSPECIFIED_ABORT_CODE: Final = 0xCA26CBD9BE0B0000
