"""What the Move interpreter asks of the node: the :class:`MoveHost` protocol, and the
bounds of one execution (:class:`Limits`).

The interpreter holds no state of its own between executions: published modules, global
resources, events and the framework (whose Move code the node does not have: its
functions are Python bodies) all come through the host. The node implements it over its
ledger state; the tests implement it over dicts.

Part of the node's own Move interpreter: no Move VM can be installed from the package
registries (see ``_interpreter``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ledgerkit.localnet.vm.move._format import CompiledModule
from ledgerkit.localnet.vm.move._runtime_types import RuntimeType, StructType
from ledgerkit.localnet.vm.move._values import StructValue, Value

if TYPE_CHECKING:
    from ledgerkit.localnet.vm.move._interp_gas import GasMeter

__all__ = ["Limits", "MoveHost"]


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds of one execution.

    ``max_call_depth`` and ``max_stack`` are a node's (1024 frames, 1024 operand stack
    slots: ``CALL_STACK_OVERFLOW``, ``EXECUTION_STACK_OVERFLOW``). ``max_steps`` bounds
    the instructions run whatever the gas budget (``EXECUTION_LIMIT_REACHED``; a copy,
    read or comparison of a large value counts one more per 64 units of its size): this
    interpreter runs a few hundred thousand instructions a second, far fewer than a
    node, so a budget a node spends in a second would take it minutes; 2,000,000 is a
    few seconds.
    ``max_vector_length`` bounds any vector (``MEMORY_LIMIT_EXCEEDED``).
    """

    max_call_depth: int = 1024
    max_stack: int = 1024
    max_steps: int = 2_000_000
    max_vector_length: int = 1 << 20


class MoveHost(Protocol):
    """The node's side of an execution (addresses are 32 bytes)."""

    def load_module(self, address: bytes, name: str) -> CompiledModule | None:
        """The module published at ``address`` under ``name``, or None."""
        ...

    def call_framework(
        self,
        address: bytes,
        module: str,
        function: str,
        type_args: Sequence[RuntimeType],
        args: list[Value],
        meter: GasMeter,
    ) -> list[Value] | None:
        """Run a framework function that has no bytecode here; its results, or None if
        the host has no such function (the call fails with ``LINKER_ERROR``).

        It may charge ``meter``, and raise :class:`MoveExecutionError` (an abort:
        status ``ABORTED`` with ``abort_code``) or the framework's own abort error.
        ``args`` are the call's values (references as :class:`Reference`).
        """
        ...

    def resource_exists(self, address: bytes, ty: StructType) -> bool:
        """Whether a resource of ``ty`` is stored at ``address``."""
        ...

    def borrow_resource(self, address: bytes, ty: StructType, mutable: bool) -> StructValue | None:
        """The resource of ``ty`` at ``address`` (None: absent). The interpreter mutates
        the returned value in place when ``mutable``; the host keeps it and writes it
        back when the execution succeeds."""
        ...

    def move_resource_to(self, address: bytes, ty: StructType, value: StructValue) -> bool:
        """Store ``value`` at ``address``; False (and nothing stored) if one exists."""
        ...

    def move_resource_from(self, address: bytes, ty: StructType) -> StructValue | None:
        """Remove and return the resource of ``ty`` at ``address`` (None: absent)."""
        ...

    def emit_event(self, ty: StructType, value: StructValue) -> None:
        """Record a module event (``0x1::event::emit<T>``) of type ``ty``."""
        ...
