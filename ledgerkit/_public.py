"""Public names report where users import them from.

Implementation lives in private modules; a public class or function says it is
``ledgerkit.Client`` or ``ledgerkit.models.UserTransaction``, not
``ledgerkit.client._client.Client``, in reprs, tracebacks, ``help()`` and the API
reference (httpx sets ``__module__`` on its re-exports the same way). Pickling finds a
class by ``__module__`` and ``__qualname__``, so a name is only ever published where it
can be imported from.
"""

from __future__ import annotations

import contextlib
import sys
import types
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["moved_names", "publish"]


def publish(namespace: Mapping[str, Any], names: Iterable[str], module: str) -> None:
    """Set ``__module__`` to ``module`` on the classes and functions of ``names``.

    Parameters
    ----------
    namespace : mapping
        The package's globals, where each name is found (names it lacks are skipped).
    names : iterable of str
        The names to publish, usually the package's ``__all__``; constants and aliases
        among them are left alone.
    module : str
        Where users import them from, and where they must be importable.
    """
    for name in names:
        value = namespace.get(name)
        if isinstance(value, type):
            _resolve_annotations(value)
        elif not isinstance(value, types.FunctionType):
            continue
        value.__module__ = module


def _resolve_annotations(cls: type) -> None:
    """Evaluate a class's own annotations where it was written.

    ``from __future__ import annotations`` keeps them as text, which msgspec (decoding
    into a record), dataclasses and ``typing.get_type_hints`` evaluate later in the
    namespace of ``cls.__module__``: once that names the public package, the private
    names the text uses would no longer be found. So they are evaluated now, while
    ``__module__`` still names the module that defines the class.
    """
    # Not inspect.get_annotations: importing inspect would cost ``import ledgerkit`` ~5 ms.
    own = cls.__dict__.get("__annotations__")  # noqa: RUF063
    if not own or not any(isinstance(value, str) for value in own.values()):
        return
    defined_in = sys.modules.get(cls.__module__)
    global_names = dict(vars(defined_in)) if defined_in is not None else {}
    local_names = dict(vars(cls))
    resolved: dict[str, Any] = {}
    for key, value in own.items():
        resolved[key] = value
        # A name only type checkers see (imported under TYPE_CHECKING) stays text.
        if isinstance(value, str):
            with contextlib.suppress(Exception):
                resolved[key] = eval(value, global_names, local_names)
    cls.__annotations__ = resolved


def moved_names(
    module: str, moved: Mapping[str, tuple[str, Callable[[], Any]]]
) -> Callable[[str], Any]:
    """A module ``__getattr__`` for names that moved or were renamed: each still gives
    its object (``moved[name]``: where it is now, and how to get it) with a
    ``DeprecationWarning`` saying where it went; any other name is an ``AttributeError``.
    """

    def attribute(name: str) -> Any:
        entry = moved.get(name)
        if entry is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        home, get = entry
        warnings.warn(
            f"{module}.{name} is deprecated; use {home}", DeprecationWarning, stacklevel=2
        )
        return get()

    return attribute
