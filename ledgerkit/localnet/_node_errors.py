"""The node's side of errors: what a handler raises to answer with the error record."""

from __future__ import annotations

from ledgerkit._errors import ErrorCode, InputError, LedgerError, LocalNodeError

__all__ = ["IncompleteChainError", "NodeConfigError", "NodeError", "PortInUseError"]


class NodeConfigError(InputError):
    """A setting of the embedded node is out of range or malformed (an unknown endpoint
    group, a chain id beyond a u8, an anchor that is no time), or names another chain
    than the ledger file holds. Nothing was started.

    A :class:`ValueError` too, as these settings were refused before it existed.
    """


class PortInUseError(LocalNodeError):
    """A port the embedded node was told to serve one of its servers on is taken (by
    another program, or a node already running). Nothing was started.

    Attributes
    ----------
    service : str
        The server that could not listen: ``"node"`` (the node API), ``"faucet"`` ...
    port : int
        The port asked for.
    """

    def __init__(self, service: str, host: str, port: int, reason: str) -> None:
        super().__init__(
            f"the {service} cannot listen on {host}:{port}: the port is taken ({reason}); "
            "free it, or ask for another port (0 picks a free one)"
        )
        self.service = service
        self.port = port


class IncompleteChainError(LedgerError, ValueError):
    """A ledger file holds a chain whose generation stopped midway and cannot go on here.

    Attributes
    ----------
    path : str
        The ledger file.
    """

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


class NodeError(Exception):
    """Answer the request with ``{message, error_code, vm_error_code}`` and the code's status.

    ``status`` overrides the code's usual status where the node differs (413 on a large
    body, for instance).
    """

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        vm_error_code: int | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.vm_error_code = vm_error_code
        self.status = status if status is not None else code.status

    def record(self) -> dict[str, object]:
        """The error record as the node sends it."""
        body: dict[str, object] = {"message": self.message, "error_code": self.code.value}
        if self.vm_error_code is not None:
            body["vm_error_code"] = self.vm_error_code
        return body
