"""The short forms the explorers show, one for each thing, everywhere: addresses (the
special ``0x0`` .. ``0xf`` in full, as AIP-40 writes them; others ``0x1234…cdef``),
hashes, Move types without their addresses (``CoinStore<AptosCoin>``), and amounts
with their digits grouped, exact.

The grid's browser side shortens long addresses and hashes the same way (first six
characters, an ellipsis, last four), so a breadcrumb and a cell name an account alike.
"""

from __future__ import annotations

import html
import re
from typing import Final

from ledgerkit.types import Address

__all__ = ["amount_text", "grouped", "short", "short_id_html", "short_move", "short_type"]

#: An address written with all 64 hex digits.
_LONG_ADDRESS: Final = re.compile(r"0x[0-9a-fA-F]{64}")
#: A long address before ``::`` in a Move type or function.
_QUALIFYING_ADDRESS: Final = re.compile(r"0x[0-9a-fA-F]{15,}(?=::)")
#: The ``address::module::`` before a struct's name in a Move type.
_QUALIFIER: Final = re.compile(r"0x[0-9a-fA-F]+::[A-Za-z_][A-Za-z0-9_]*::")


def short(text: str | Address, keep: int = 6) -> str:
    """``0x1234…abcd`` for a long address or hash; a special address as AIP-40 writes
    it (``0x1``, never ``0x0000…0001``); anything short as it is.

    Examples
    --------
    >>> short("0x" + "00" * 31 + "01")
    '0x1'
    >>> short("0x" + "a1" * 32)
    '0xa1a1…a1a1'
    """
    if isinstance(text, Address):
        text = text.standard
    elif _LONG_ADDRESS.fullmatch(text):
        address = Address.parse(text)
        if address.is_special:
            return address.short
    if len(text) <= 2 * keep + 3:
        return text
    return f"{text[:keep]}…{text[-4:]}"


def short_id_html(value: str) -> str:
    """``value`` (an address, a key, a hash) shown as :func:`short` writes it, in HTML:
    the full value in its tooltip and in its text, whose middle is there unseen
    (``font-size: 0``, an ellipsis drawn in its place by the grid's style sheet), so
    that a click selects the whole value and copying copies it whole.

    Examples
    --------
    >>> short_id_html("0x1")
    '<code>0x1</code>'
    """
    text = html.escape(value)
    if short(value) == value:
        return f"<code>{text}</code>"
    head, middle, tail = (html.escape(part) for part in (value[:6], value[6:-4], value[-4:]))
    return (
        f"<code class='lk-id' title='{text}'><span class='lk-id-head'>{head}</span>"
        f"<span class='lk-id-middle' style='font-size:0'>{middle}</span>{tail}</code>"
    )


def short_move(text: str) -> str:
    """A Move type or function with each long address in it written short, module and
    names whole, as the grid's ``move`` cells show it.

    Examples
    --------
    >>> short_move("0x" + "5a" * 32 + "::board::play")
    '0x5a5a…5a5a::board::play'
    """
    return _QUALIFYING_ADDRESS.sub(lambda found: short(found.group()), text)


def short_type(move_type: str) -> str:
    """A Move type without the address and module of each struct: what a reader
    recognises (``AptosCoin``, ``CoinStore<AptosCoin>``); the full type says where
    each is defined.

    Examples
    --------
    >>> short_type("0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>")
    'CoinStore<AptosCoin>'
    """
    return _QUALIFIER.sub("", move_type)


def grouped(number: int) -> str:
    """An integer with its digits grouped by thousands, exact at any size:
    ``18,446,744,073,709,551,615``."""
    return f"{number:,}"


def amount_text(base_units: int, decimals: int | None, *, signed: bool = False) -> str:
    """``base_units`` in display units, exact, digits grouped and trailing zeros dropped
    (``123456789`` with 8 decimals is ``1.23456789``); in base units when ``decimals``
    is unknown. ``signed``: a ``+`` before a rise (a fall always has its ``-``)."""
    sign = "-" if base_units < 0 else ("+" if signed and base_units > 0 else "")
    magnitude = abs(base_units)
    if not decimals:
        return sign + grouped(magnitude)
    whole, part = divmod(magnitude, 10**decimals)
    text = grouped(whole)
    if part:
        text += "." + f"{part:0{decimals}d}".rstrip("0")
    return sign + text
