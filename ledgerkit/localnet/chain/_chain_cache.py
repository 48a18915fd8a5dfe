"""Generated chains kept in the user cache directory, so each one is generated once.

A new ledger file is a copy of the cached chain of its options; the first node of a seed
generates it into the cache. The cache key covers everything that decides the chain's
bytes: seed, blocks, chain id, dev accounts, anchor, the generator version and a digest
of the node's own code (so an edited generator never reuses a stale chain). Chains
anchored at ``"now"`` are never cached: each is new.

The directory is ``$LEDGERKIT_CHAIN_CACHE`` when set (``off`` switches the cache off),
else ``chains`` in the user cache directory (``platformdirs``). Writers generate into a
file of their own and rename it into place, so concurrent creators never leave a
half-written chain under a key; readers copy a file that is complete once visible.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
import shutil
import time
import uuid
from pathlib import Path
from typing import Final

from ledgerkit.localnet._node_config import NodeConfig
from ledgerkit.localnet.chain._generator import GENERATOR_VERSION, chain_anchor, generate
from ledgerkit.localnet.store import Store

__all__ = ["CHAIN_CACHE_ENV", "chain_cache_dir", "chain_key", "copy_cached_chain"]

#: Environment variable naming the chain cache directory (``off``: no cache).
CHAIN_CACHE_ENV: Final = "LEDGERKIT_CHAIN_CACHE"
_OFF: Final = frozenset({"", "0", "off", "no", "none", "false"})
#: Packages of ledgerkit whose code decides a generated chain's bytes (with the modules at
#: the package's root, which they import).
_CODE_PACKAGES: Final = ("localnet", "bcs", "keys", "models", "tx", "types")
#: Chains kept; past it the least recently used go (each is a few to tens of MB).
MAX_CACHED_CHAINS: Final = 16
#: A creator's file this old was left by a process that died mid-generation.
STALE_PART_SECONDS: Final = 3600.0

_log = logging.getLogger("ledgerkit.localnet")


def chain_cache_dir() -> Path | None:
    """Where generated chains are cached, or None when the cache is off."""
    configured = os.environ.get(CHAIN_CACHE_ENV)
    if configured is not None:
        if configured.strip().lower() in _OFF:
            return None
        return Path(configured).expanduser()
    try:
        import platformdirs
    except ImportError:  # pragma: no cover - platformdirs is a dependency
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        return Path(base).expanduser() / "ledgerkit" / "chains"
    return Path(platformdirs.user_cache_dir("ledgerkit", appauthor=False)) / "chains"


@functools.cache
def _code_files() -> list[Path]:
    """The sources a chain's bytes depend on, relative to the ``ledgerkit`` package."""
    root = Path(__file__).resolve().parents[2]
    found = list(root.glob("*.py"))
    for package in _CODE_PACKAGES:
        for pattern in ("*.py", "*.mv", "*.bcs"):  # the issuers' modules are package data
            found.extend((root / package).rglob(pattern))
    return sorted(path.relative_to(root) for path in found)


@functools.cache
def _code_digest() -> str:
    """A digest of :func:`_code_files`: changed code generates (and caches) chains anew."""
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha256()
    for source in _code_files():
        digest.update(source.as_posix().encode() + b"\0")
        digest.update((root / source).read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def chain_key(config: NodeConfig, anchor: int) -> str:
    """The cache file name of the chain ``config`` generates, ending at ``anchor``."""
    parts = (
        f"v{GENERATOR_VERSION}",
        f"seed{config.seed}",
        f"blocks{config.blocks}",
        f"chain{config.chain_id}",
        f"dev{config.dev_accounts}",
        f"anchor{anchor}",
        _code_digest(),
    )
    return "-".join(parts) + ".sqlite3"


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            Path(str(path) + suffix).unlink()


def _cached(directory: Path, config: NodeConfig) -> Path:
    """The cached chain of ``config``, generated into the cache first when missing."""
    final = directory / chain_key(config, chain_anchor(config))
    if final.exists():
        with contextlib.suppress(OSError):
            os.utime(final)  # recently used: kept by the pruning below
        return final
    directory.mkdir(parents=True, exist_ok=True)
    part = directory / f"{final.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.part"
    try:
        store = Store(part)
        try:
            generate(store, config)
        finally:
            store.close()
        os.replace(part, final)  # atomic: the key names a whole chain or nothing
    finally:
        _remove(part)
    _prune(directory, keep=final)
    return final


def _prune(directory: Path, *, keep: Path) -> None:
    """Drop the least recently used chains past :data:`MAX_CACHED_CHAINS`, and files
    left by creators that died mid-generation."""
    now = time.time()
    chains: list[tuple[float, Path]] = []
    for entry in directory.iterdir():
        try:
            modified = entry.stat().st_mtime
        except OSError:
            continue
        if ".part" in entry.name:
            if now - modified > STALE_PART_SECONDS:
                with contextlib.suppress(OSError):
                    entry.unlink()
        elif entry.suffix == ".sqlite3" and entry != keep:
            chains.append((modified, entry))
    chains.sort(reverse=True)
    for _, old in chains[MAX_CACHED_CHAINS - 1 :]:
        with contextlib.suppress(OSError):
            _remove(old)


def copy_cached_chain(path: Path, config: NodeConfig) -> bool:
    """Make ``path`` (a new ledger file) a copy of the cached chain of ``config``.

    Returns
    -------
    bool
        False when the chain is not cached (anchor ``"now"``, the cache switched off or
        not writable): the caller then generates into ``path`` itself.
    """
    directory = chain_cache_dir()
    if directory is None or config.anchor == "now":
        return False
    try:
        source = _cached(directory, config)
        _remove(path)  # a stale WAL beside a missing file would be replayed into the copy
        part = path.with_name(f"{path.name}.{uuid.uuid4().hex[:8]}.part")
        try:
            shutil.copyfile(source, part)
            os.replace(part, path)
        finally:
            _remove(part)
    except OSError as error:
        _log.warning("chain cache %s not used: %s", directory, error)
        return False
    return True
