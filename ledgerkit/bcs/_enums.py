"""BCS enums whose variants are structs: one table per enum, read and written one way.

An enum value is its variant index (ULEB128) followed by the variant's struct. The table
names every variant in index order (so a trace shows the name of the one read) and gives
the class of each variant ledgerkit reads and writes; a variant named without a class is
known but refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Generic, Protocol, Self, TypeVar

from ledgerkit._errors import BCSDecodeError, BCSEncodeError
from ledgerkit.bcs._codec import Deserializer, Serializer

__all__ = ["StructEnum"]


class _Struct(Protocol):
    """What a variant's class does: write itself, and read one of its kind."""

    def serialize(self, s: Serializer) -> None: ...

    @classmethod
    def deserialize(cls, d: Deserializer) -> Self: ...


E = TypeVar("E", bound=_Struct)

_UNSUPPORTED: Final = "the {name} {what} variant is not supported"


class StructEnum(Generic[E]):
    """The variants of one BCS enum of structs.

    Parameters
    ----------
    names : tuple of str
        Every variant's name, in index order.
    classes : mapping of int to class
        The class of each variant read and written, by index.
    what : str
        The enum as errors and traces name it (``"transaction payload"``).
    noun : str
        The enum with its article, for the error on writing something else
        (``"a transaction payload"``).
    unsupported : str, optional
        The error on reading a variant without a class; ``{name}`` is its name.
    """

    __slots__ = ("_classes", "_index", "names", "noun", "unsupported", "what")

    def __init__(
        self,
        names: tuple[str, ...],
        classes: Mapping[int, type[E]],
        *,
        what: str,
        noun: str,
        unsupported: str | None = None,
    ) -> None:
        self.names = names
        self.what = what
        self.noun = noun
        self.unsupported = unsupported or _UNSUPPORTED.replace("{what}", what)
        self._classes = dict(classes)
        self._index: dict[type, int] = {cls: i for i, cls in self._classes.items()}

    def serialize(self, s: Serializer, value: E) -> None:
        """Write ``value`` with its variant index."""
        index = self._index.get(type(value))
        if index is None:
            raise BCSEncodeError(f"not {self.noun}: {type(value).__name__}")
        s.uleb128(index)
        value.serialize(s)

    def deserialize(self, d: Deserializer) -> E:
        """Read a variant index and the struct it announces."""
        start = d.position
        index = d.variant(self.names, self.what)
        name = self.names[index]
        cls = self._classes.get(index)
        if cls is None:
            raise BCSDecodeError(self.unsupported.format(name=name), offset=start)
        return d.field(name, cls.deserialize, d)
