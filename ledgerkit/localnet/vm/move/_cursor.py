"""A bounded cursor over bytecode, failing with the VM statuses aptos-core's reader gives.

Every read is bounded by the cursor's end (a table's end, or the binary's); ULEB128
integers follow aptos-core's rules: at most 64 bits, no overlong form (a last group of
zero after the first byte is refused), and each integer has a maximum per field.
"""

from __future__ import annotations

from ledgerkit.localnet.vm.move._format import BytecodeError

__all__ = ["Cursor"]

_U64_LIMIT = 1 << 64


class Cursor:
    """Reads ``data[pos:end]`` for a binary of bytecode ``version``."""

    __slots__ = ("data", "end", "pos", "version")

    def __init__(self, data: bytes, pos: int, end: int, version: int) -> None:
        self.data = data
        self.pos = pos
        self.end = end
        self.version = version

    def sub(self, start: int, end: int) -> Cursor:
        return Cursor(self.data, start, end, self.version)

    def at_end(self) -> bool:
        return self.pos >= self.end

    def u8(self, message: str = "Unexpected EOF") -> int:
        pos = self.pos
        if pos >= self.end:
            raise BytecodeError("MALFORMED", message)
        self.pos = pos + 1
        return self.data[pos]

    def take(self, count: int, message: str) -> bytes:
        """``count`` bytes, or MALFORMED with ``message`` when fewer are left."""
        pos = self.pos
        if pos + count > self.end:
            raise BytecodeError("MALFORMED", message)
        self.pos = pos + count
        return self.data[pos : pos + count]

    def fixed(self, width: int, status: str, *, signed: bool = False) -> int:
        """A little-endian integer of ``width`` bytes (``status`` when cut short)."""
        pos = self.pos
        if pos + width > self.end:
            raise BytecodeError(status, f"{width}-byte integer cut short")
        self.pos = pos + width
        return int.from_bytes(self.data[pos : pos + width], "little", signed=signed)

    def uleb(self, maximum: int) -> int:
        """A ULEB128 integer of at most ``maximum`` (MALFORMED otherwise)."""
        data = self.data
        pos = self.pos
        end = self.end
        value = 0
        shift = 0
        while pos < end:
            byte = data[pos]
            pos += 1
            cur = byte & 0x7F
            if (cur << shift) >= _U64_LIMIT:
                break
            value |= cur << shift
            if not byte & 0x80:
                if shift and not cur:
                    break
                self.pos = pos
                if value > maximum:
                    raise BytecodeError("MALFORMED", "Uleb greater than max requested")
                return value
            shift += 7
            if shift > 64:
                break
        raise BytecodeError("MALFORMED", "Bad Uleb")

    def option(self) -> bool:
        """An option marker: False for none, True for some."""
        byte = self.u8()
        if byte == 1:
            return False
        if byte == 2:
            return True
        raise BytecodeError("MALFORMED", "malformed option")

    def flag(self) -> bool:
        """A serialized boolean (1 false, 2 true)."""
        byte = self.u8()
        if byte == 1:
            return False
        if byte == 2:
            return True
        raise BytecodeError("MALFORMED", "malformed boolean")
