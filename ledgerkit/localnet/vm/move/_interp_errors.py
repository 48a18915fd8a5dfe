"""The one error the Move interpreter raises: :class:`MoveExecutionError`, named by the
real VM status (aptos-core ``vm_status.rs``) so the node reports what a node reports.

The interpreter never lets a bare Python exception out: arithmetic failures, missing
resources, bad vector indices, aborts and exhausted budgets all end here, and bytecode a
verifier would have refused (a ``u8`` added to a ``u64``, a pop below the frame, a jump
out of the code) is reported as ``UNKNOWN_INVARIANT_VIOLATION_ERROR``, the status the
real VM gives its own dynamic checks, with a message saying what was wrong.

Part of the node's own Move interpreter: no Move VM can be installed from the package
registries (see ``_interpreter``).
"""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.vm.framework._context import VMStatusError

__all__ = ["INVARIANT", "MoveExecutionError", "invariant"]

#: The status of what the bytecode verifier would have refused.
INVARIANT: Final = "UNKNOWN_INVARIANT_VIOLATION_ERROR"

#: ``VECTOR_OPERATION_ERROR`` sub-statuses (aptos-core ``vector`` natives' codes).
VEC_INDEX_OUT_OF_BOUNDS: Final = 1
VEC_POP_EMPTY: Final = 2
VEC_DESTROY_NON_EMPTY: Final = 3
VEC_UNPACK_PARITY: Final = 4


class MoveExecutionError(VMStatusError):
    """Execution stopped with ``status`` (``ARITHMETIC_ERROR``, ``ABORTED``...).

    ``abort_code`` is set for ``ABORTED``; ``location`` is the ``(address, module
    name)`` the failing instruction ran in (None: a script), ``function`` its function's
    name and ``offset`` the instruction's index; ``sub_status`` the vector operation's
    code for ``VECTOR_OPERATION_ERROR``.
    """

    def __init__(
        self,
        status: str,
        message: str = "",
        *,
        abort_code: int | None = None,
        sub_status: int | None = None,
    ) -> None:
        super().__init__(status, f"{status}: {message}" if message else status)
        self.message = message or status
        self.abort_code = abort_code
        self.sub_status = sub_status
        self.location: tuple[bytes, str] | None = None
        self.function: str | None = None
        self.offset: int | None = None

    @property
    def vm_status(self) -> str:
        """The transaction's ``vm_status`` text for this failure."""
        where = ""
        if self.location is not None:
            where = f"0x{self.location[0].hex().lstrip('0') or '0'}::{self.location[1]}"
        if self.status == "ABORTED" and self.abort_code is not None:
            return f"Move abort in {where or 'script'}: {self.abort_code:#x}"
        return f"{self.status} in {where or 'script'}: {self.message}"


def invariant(message: str) -> MoveExecutionError:
    """An error for bytecode a verifier would have refused."""
    return MoveExecutionError(INVARIANT, message)
