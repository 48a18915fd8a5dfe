"""ABI-driven arguments: Python values checked against a function's ABI and BCS-encoded.

Given a function's ABI (:class:`~ledgerkit.models.MoveFunction`), its type arguments and
plain Python values, :func:`encode_call` checks the counts (``signer`` and ``&signer``
parameters are filled by the transaction's signers, not given), checks each value
against its Move type (``T0``... replaced by the type arguments) and encodes it with a
:class:`~ledgerkit.bcs.MoveValueCodec` into an :class:`~ledgerkit.bcs.EntryFunction`.
Anything that does not fit raises :class:`~ledgerkit.ArgumentError` naming the argument,
its parameter position, the Move type expected and the value. No I/O: the struct
layouts come from the codec's layout source (e.g. :class:`AbiLayouts`), filled by the
caller beforehand (:meth:`AbiLayouts.missing_modules` says what is still needed).

How Python values are read, by Move type:

==========================  =====================================================
``u8`` ... ``u256``         ``int`` (or a decimal ``str``), range-checked; not ``bool``
``i8`` ... ``i256``         ``int`` (or a decimal ``str`` with an optional ``-``)
``bool``                    ``True`` / ``False``
``address``                 :class:`~ledgerkit.types.Address`, hex ``str`` with or
                            without ``0x``, long or short, or 32 ``bytes``
``vector<u8>``              ``bytes``, ``0x`` hex ``str``, or a list of ints 0..255
``vector<T>``               a list or tuple of ``T``
``0x1::string::String``     ``str``
``0x1::option::Option<T>``  ``None``, or a ``T`` (``{"vec": [...]}`` is read too)
``0x1::object::Object<T>``  an address (or ``{"inner": address}``)
any other struct            a dict of its fields (layout from the module's ABI)
==========================  =====================================================
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from ledgerkit._errors import ArgumentError, BCSEncodeError, InputError, MoveTypeSyntaxError
from ledgerkit.bcs import EntryFunction, MoveValueCodec, Serializer
from ledgerkit.models import MoveFunction
from ledgerkit.tx._json_form import to_json_form
from ledgerkit.types import EntryFunctionId, MoveType, PrimitiveType, ReferenceType

__all__ = ["encode_call", "parameter_types", "type_arguments_of", "value_repr"]

_SIGNER: Final = PrimitiveType("signer")
_REPR_LIMIT: Final = 80


def value_repr(value: Any) -> str:
    """``repr(value)``, cut to a readable length."""
    try:
        shown = repr(value)
    except Exception:  # a broken __repr__ must not hide the real fault
        shown = f"<{type(value).__name__} object>"
    return shown if len(shown) <= _REPR_LIMIT else shown[: _REPR_LIMIT - 3] + "..."


def _is_signer(t: MoveType) -> bool:
    return t == _SIGNER or (isinstance(t, ReferenceType) and t.referent == _SIGNER)


def type_arguments_of(
    function: str | EntryFunctionId, abi: MoveFunction, type_arguments: Iterable[str | MoveType]
) -> tuple[MoveType, ...]:
    """The type arguments parsed and counted against the function's generic parameters.

    Raises
    ------
    ArgumentError
        A type argument does not parse, or there are too few or too many.
    """
    name = str(function)
    if isinstance(type_arguments, str | bytes) or not isinstance(type_arguments, Iterable):
        raise ArgumentError(
            f"{name}: type_arguments must be a list of Move types, got "
            f"{type(type_arguments).__name__} {value_repr(type_arguments)}",
            function=name,
            value=value_repr(type_arguments),
        )
    parsed: list[MoveType] = []
    for i, t in enumerate(type_arguments):
        try:
            parsed.append(MoveType.parse(t))
        except MoveTypeSyntaxError as exc:
            raise ArgumentError(
                f"{name}: type argument {i} is not a Move type: {exc}",
                function=name,
                index=i,
                value=value_repr(t),
            ) from None
    expected = len(abi.generic_type_params)
    if len(parsed) != expected:
        raise ArgumentError(
            f"{name} takes {expected} type argument(s), got {len(parsed)}: "
            f"{[str(t) for t in parsed]}",
            function=name,
        )
    return tuple(parsed)


def parameter_types(
    function: str | EntryFunctionId, abi: MoveFunction, type_args: tuple[MoveType, ...]
) -> list[tuple[int, MoveType]]:
    """``(position, type)`` of each parameter a caller gives, type arguments substituted.

    ``signer`` and ``&signer`` parameters are left out: the transaction's signers fill them.
    """
    out = []
    for position, text in enumerate(abi.params):
        try:
            t = MoveType.parse(text)
            if _is_signer(t):
                continue
            out.append((position, t.substitute(type_args)))
        except MoveTypeSyntaxError as exc:
            raise InputError(f"{function}: parameter {position} of the ABI: {exc}") from None
    return out


def encode_call(
    function: str | EntryFunctionId,
    type_args: tuple[MoveType, ...],
    params: Sequence[tuple[int, MoveType]],
    arguments: Sequence[Any],
    codec: MoveValueCodec,
) -> EntryFunction:
    """Check ``arguments`` against ``params`` and encode the call.

    Parameters
    ----------
    function : str or EntryFunctionId
        The function called.
    type_args : tuple of MoveType
        Its type arguments (see :func:`type_arguments_of`).
    params : sequence of (int, MoveType)
        Its value parameters (see :func:`parameter_types`).
    arguments : sequence
        The Python values, one per parameter.
    codec : MoveValueCodec
        Whose layout source knows the structs among the parameter types.

    Raises
    ------
    ArgumentError
        A wrong number of arguments, or a value that does not fit its type.
    """
    fid = EntryFunctionId.parse(function)
    name = str(fid)
    if isinstance(arguments, str | bytes | Mapping) or not isinstance(arguments, Sequence):
        raise ArgumentError(
            f"{name}: arguments must be a list, got {type(arguments).__name__} "
            f"{value_repr(arguments)}",
            function=name,
            value=value_repr(arguments),
        )
    if len(arguments) != len(params):
        wanted = ", ".join(f"{position}: {t}" for position, t in params) or "none"
        raise ArgumentError(
            f"{name} takes {len(params)} argument(s) (parameters {wanted}; signers are "
            f"not given), got {len(arguments)}",
            function=name,
        )
    s = Serializer()
    cuts = [0]
    for index, ((position, t), value) in enumerate(zip(params, arguments, strict=True)):
        try:
            codec.encoder(t)(s, to_json_form(t, value, codec.layouts), f"argument {index}")
        except (InputError, BCSEncodeError) as exc:
            shown = value_repr(value)
            # The codec's message names the argument again: keep only what it adds.
            detail = re.sub(rf"^argument {index}(?: \([^)]*\))?:?\s*", "", str(exc))
            raise ArgumentError(
                f"{name}: argument {index} (parameter {position}) expects {t}, got {shown}: "
                f"{detail}",
                function=name,
                index=index,
                position=position,
                move_type=str(t),
                value=shown,
            ) from None
        cuts.append(len(s))
    out = s.output()
    encoded = tuple(out[a:b] for a, b in itertools.pairwise(cuts))
    return EntryFunction(fid.module, fid.name, type_args, encoded)
