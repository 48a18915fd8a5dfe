"""How a snapshot store compresses answer bodies: zstd frames (level 1), through the zstd
codec pyarrow ships; zlib (the standard library's) is read too.

zstd at level 1 compresses a page of transactions some four times faster than zlib at
level 1 and smaller, and reads back several times faster: on a machine whose other core
serves the node, recording keeps pace with the extraction it records. Its frames are the
standard ones (RFC 8878): any zstd tool reads a body taken out of the file.
"""

from __future__ import annotations

import threading
import zlib
from typing import Any, Final

from ledgerkit._errors import SnapshotError

__all__ = ["CODEC", "CODECS", "compress", "decompress"]

#: The codec new stores write.
CODEC: Final = "zstd"
#: The codecs a store may name (its ``meta.compression``).
CODECS: Final = frozenset({"zstd", "zlib"})
_ZSTD_LEVEL: Final = 1

_local = threading.local()


def _zstd() -> Any:
    """This thread's zstd codec (pyarrow is imported when a store first needs it)."""
    codec = getattr(_local, "zstd", None)
    if codec is None:
        import pyarrow

        codec = _local.zstd = pyarrow.Codec("zstd", compression_level=_ZSTD_LEVEL)
    return codec


def compress(body: bytes, codec: str = CODEC) -> bytes:
    """``body`` compressed with ``codec``."""
    if codec == "zlib":
        return zlib.compress(body, 6)
    return bytes(_zstd().compress(body, asbytes=True))


def decompress(data: bytes, size: int, codec: str, where: str) -> bytes:
    """The ``size`` bytes compressed in ``data``; a :class:`SnapshotError` if they are not."""
    try:
        if codec == "zlib":
            inflater = zlib.decompressobj()
            body = inflater.decompress(data, size + 1)
            complete = inflater.eof and not inflater.unused_data
        else:
            body = bytes(_zstd().decompress(data, decompressed_size=size, asbytes=True))
            complete = True
    except (zlib.error, OSError, ValueError):  # pyarrow's errors derive from these
        raise SnapshotError(f"{where}: an answer body is corrupt") from None
    if len(body) != size or not complete:
        raise SnapshotError(f"{where}: an answer body is corrupt (not the size recorded)")
    return body
