"""Move aborts read from a transaction's ``vm_status``: module, code, category, reason, name.

Nodes write an abort as ``Move abort in 0x1::coin: EINSUFFICIENT_BALANCE(0x10006): Not
enough coins...`` when the module names its error constants, ``Move abort in 0x1::m:
0x10006`` when it does not, and ``Move abort: code 0x2a`` for a script. The code splits
as ``std::error`` does: category ``(code >> 16) & 0xff``, reason ``code & 0xffff``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from ledgerkit.tx._abort_codes import CATEGORIES, UNSPECIFIED_ABORT_CODE, declared_error
from ledgerkit.types import Address

__all__ = ["MoveAbort", "parse_abort"]

_IN_MODULE: Final = re.compile(
    r"Move abort in (?P<address>0x[0-9a-fA-F]+)::(?P<module>\w+): "
    r"(?:(?P<name>\w+)\((?P<named_code>0x[0-9a-fA-F]+)\)(?:: (?P<description>.*))?"
    r"|(?P<code>0x[0-9a-fA-F]+))\s*",
    re.DOTALL,
)
_IN_SCRIPT: Final = re.compile(r"Move abort: code (?P<code>0x[0-9a-fA-F]+|\d+)\s*")


@dataclass(frozen=True, slots=True)
class MoveAbort:
    """A Move ``abort``: where, with which code, and what the code means when known.

    Attributes
    ----------
    module : str or None
        The aborting module as ``address::name`` (short address, ``0x1::coin``); None
        for a script.
    code : int
        The abort code, a u64.
    name : str or None
        The error constant (``EINSUFFICIENT_BALANCE``), as the node named it or, failing
        that, as the framework table knows it.
    description : str or None
        What the constant means, likewise.

    Examples
    --------
    >>> abort = parse_abort(
    ...     "Move abort in 0x1::coin: EINSUFFICIENT_BALANCE(0x10006): Not enough coins"
    ... )
    >>> abort.module, abort.category_name, abort.reason, abort.name
    ('0x1::coin', 'INVALID_ARGUMENT', 6, 'EINSUFFICIENT_BALANCE')
    """

    module: str | None
    code: int
    name: str | None = None
    description: str | None = None

    @property
    def category(self) -> int:
        """The ``std::error`` category: bits 16-23 of the code."""
        return (self.code >> 16) & 0xFF

    @property
    def reason(self) -> int:
        """The module's own error number: the low 16 bits of the code."""
        return self.code & 0xFFFF

    @property
    def category_name(self) -> str | None:
        """``INVALID_ARGUMENT``, ``NOT_FOUND``...; None for a code outside the convention."""
        if self.code >> 24 and self.code != UNSPECIFIED_ABORT_CODE:
            return None
        return CATEGORIES.get(self.category)

    def __str__(self) -> str:
        where = f"in {self.module}" if self.module else "in a script"
        label = f"{self.name}({self.code:#x})" if self.name else f"{self.code:#x}"
        text = f"Move abort {where}: {label}"
        return f"{text}: {self.description}" if self.description else text


def _known(module: str | None, code: int) -> tuple[str | None, str | None]:
    if code == UNSPECIFIED_ABORT_CODE:
        return None, "An assert! or abort without an error code of its own"
    declared = None if module is None else declared_error(module, code)
    return declared if declared is not None else (None, None)


def parse_abort(vm_status: str) -> MoveAbort | None:
    """The abort a ``vm_status`` reports, or None when it reports something else.

    The node's name and description win; a code the node did not name is looked up in
    the table of framework error constants (``coin``, ``fungible_asset``, ``account``,
    ``aptos_account``, ``object``...) as a node looks it up in the module's error map
    (by the code's low 12 bits, then the whole code). The embedded node names its aborts
    from the same table, so an abort reads the same either way.
    """
    if not isinstance(vm_status, str):
        return None
    found = _IN_MODULE.fullmatch(vm_status)
    if found is not None:
        module = f"{Address.parse(found['address']).short}::{found['module']}"
        code = int(found["named_code"] or found["code"], 16)
        name, description = found["name"], found["description"]
        if name is None:
            name, description = _known(module, code)
        elif not description:
            description = None
        return MoveAbort(module, code, name, description)
    found = _IN_SCRIPT.fullmatch(vm_status)
    if found is not None:
        code = int(found["code"], 0)
        return MoveAbort(None, code, *_known(None, code))
    return None
