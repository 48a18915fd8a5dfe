"""What every record shares: the frozen base classes, the integer field types and the
record kept for a variant this version of ledgerkit does not know."""

from __future__ import annotations

from typing import Annotated, Any, TypeAlias

import msgspec

from ledgerkit.types import U8, U32, U64_MAX

__all__ = [
    "Record",
    "TaggedRecord",
    "U8Int",
    "U32Int",
    "U64Int",
    "UnknownVariant",
    "check_u64",
]

# The integer fields of records: plain ``int`` (msgspec decodes them in C), in the range
# of the ground floor's ``ledgerkit.types.U8`` ... ``U64``. msgspec checks bounds in C,
# but only bounds that fit an int64: the lower bound of a u64 is checked there and the
# upper one by ``check_u64`` in the records' ``__post_init__``.
U64Int: TypeAlias = Annotated[int, msgspec.Meta(ge=0)]
U32Int: TypeAlias = Annotated[int, msgspec.Meta(ge=0, le=U32.MAX)]
U8Int: TypeAlias = Annotated[int, msgspec.Meta(ge=0, le=U8.MAX)]


def check_u64(*values: int | None) -> None:
    """Raise ``ValueError`` (msgspec reports it as a validation error) above ``2**64 - 1``."""
    for value in values:
        if value is not None and value > U64_MAX:
            raise ValueError(f"{value} does not fit in a u64")


class Record(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Base of every response record: immutable, keyword-only, compared by value.

    ``gc=False`` keeps the many small records of a page out of the cycle collector
    (decoding a page is noticeably faster); records never refer back to themselves,
    and only a deliberate cycle through a contained list or dict would go uncollected.
    """

    def to_dict(self) -> dict[str, Any]:
        """The record as a plain ``dict``: one key per field, named as the attribute.

        Nested records become dicts too (in lists and dicts as well), and a record of a
        union told apart by ``type`` starts with its ``type``. Values are not converted:
        integers stay exact ``int`` (u64 and wider included) and Move values stay the
        plain JSON the node sent. The dict is a copy; changing it leaves the record alone.
        Records are not mappings themselves (``dict(record)`` is refused), so their
        attributes and methods never clash with dict methods.

        Examples
        --------
        >>> from ledgerkit.models import GasEstimate
        >>> GasEstimate(gas_estimate=100).to_dict()
        {'gas_estimate': 100, 'deprioritized_gas_estimate': None, 'prioritized_gas_estimate': None}
        >>> pandas.DataFrame([info.to_dict()])  # doctest: +SKIP
        """
        return _as_dict(self)


def _as_dict(record: msgspec.Struct) -> dict[str, Any]:
    out: dict[str, Any] = {}
    config = record.__struct_config__
    if config.tag_field is not None and isinstance(config.tag, str):
        out[config.tag_field] = config.tag
    for name in record.__struct_fields__:
        out[name] = _plain(getattr(record, name))
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, msgspec.Struct):
        return _as_dict(value)
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


class TaggedRecord(Record, frozen=True, kw_only=True, tag_field="type"):
    """Base of the members of a union told apart by the JSON field ``type``.

    ``record.type`` is that field, as the node writes it and :meth:`to_dict` starts with
    (``"user_transaction"``, ``"entry_function_payload"``, ``"ed25519_signature"``,
    ``"write_resource"``...); a variant this version does not know keeps the node's own
    in :attr:`UnknownVariant.type`, so ``.type`` answers for every member of a union.
    """

    @property
    def type(self) -> str:
        """The variant's ``type``, as the node writes it (``"user_transaction"``...)."""
        tag = self.__struct_config__.tag
        assert isinstance(tag, str)  # every variant declares its own
        return tag


class UnknownVariant(Record, frozen=True, kw_only=True):
    """A union member whose ``type`` this version does not know, kept whole.

    Newer nodes add variants (a transaction type, a payload, a signature scheme, a kind
    of state change); decoding keeps them instead of failing or dropping them.

    Attributes
    ----------
    type : str
        The ``type`` the node sent.
    raw : dict
        The whole JSON object as received (``type`` included); :func:`to_builtins`
        gives it back unchanged.
    """

    type: str
    raw: dict[str, Any]
