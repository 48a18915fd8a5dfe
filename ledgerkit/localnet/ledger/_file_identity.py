"""Which chain a ledger file holds, and which build of the node serves it.

A file remembers the options that generated its chain (seed, chain id, anchor): opening
it with other options is refused rather than mixing two chains. The build's identity is
the ``git_hash`` of ``GET /``.
"""

from __future__ import annotations

import hashlib
from importlib import metadata

from ledgerkit.localnet._node_config import NodeConfig, anchor_usec
from ledgerkit.localnet._node_errors import NodeConfigError
from ledgerkit.localnet.store import Store

__all__ = ["build_hash", "check_identity"]


def build_hash() -> str:
    """The ``git_hash`` this node reports: a digest of the installed ledgerkit version."""
    try:
        version = metadata.version("ledgerkit")
    except metadata.PackageNotFoundError:
        version = "unknown"
    return hashlib.sha1(f"ledgerkit-localnet {version}".encode()).hexdigest()


def check_identity(store: Store, config: NodeConfig) -> None:
    """Refuse a file holding another chain than ``config`` asks for.

    Raises
    ------
    NodeConfigError
        The file holds a chain of another seed, chain id or anchor.
    """
    expected = [("chain_id", str(config.chain_id)), ("seed", str(config.seed))]
    if config.anchor not in (None, "now") and store.reads.meta("anchor_usec") is not None:
        expected.append(("anchor_usec", str(anchor_usec(config.anchor))))
    for key, value in expected:
        if store.reads.meta(key) != value:
            found = store.reads.meta(key)
            raise NodeConfigError(f"{store.path} holds the chain of {key} {found}, not {value}")
