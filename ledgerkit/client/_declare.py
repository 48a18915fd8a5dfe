"""How an endpoint method is declared once for both clients: :class:`endpoint` and
:class:`paged`. No I/O here.

A declaration is the method's request builder: a function with the method's public
signature (without ``self``) and docstring that returns what to send, written in the
body of :class:`~ledgerkit.client._methods.Endpoints`::

    @endpoint
    def block_by_height(height: int, *, with_transactions: bool = False) -> Call[Block]:
        \"\"\"The block at ``height`` ...\"\"\"
        return calls.block_by_height(height, with_transactions)

Read from a client whose ``_send`` is a plain method (:class:`~ledgerkit.Client`), the
declaration is a method that sends the :class:`Call` and returns its :class:`Result`;
from one whose ``_send`` is a coroutine function (:class:`~ledgerkit.AsyncClient`), an
``async`` method that awaits it. A builder that returns a flow of
:mod:`~ledgerkit.client._flows` (``Flow[R]``) instead of a call is driven by the client's
``_drive`` and its method returns ``R``. A :class:`paged` builder returns a
:class:`~ledgerkit.client._paging.Pager`: its method walks the pages (``_walk``), an
iterator of ``Result`` for the sync client and an async iterator for the asyncio one.

Each method is a real function carrying the builder's name, docstring and signature
(``self`` first, the answer as return annotation: ``Call[X]`` reads ``Result[X]``,
``Flow[R]`` reads ``R``, ``Pager[X]`` reads ``Iterator[Result[X]]`` or
``AsyncIterator[Result[X]]``), so ``help()``, :func:`inspect.signature` and Sphinx show
it as written; ``__wrapped__`` is the builder, so :func:`typing.get_type_hints` reads
the annotations in the builder's module (which imports every name they use). For type
checkers, the overloads of ``__get__`` give ``client.block_by_height(5)`` the type
``Result[Block]`` and ``aclient.block_by_height(5)`` the type of a coroutine of it.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import (
    AsyncIterator,
    Callable,
    Coroutine,
    Generator,
    Iterator,
)
from typing import Any, Generic, ParamSpec, Protocol, TypeVar, overload

from ledgerkit.client._base import Call, Result
from ledgerkit.client._flows import Flow
from ledgerkit.client._paging import Pager

__all__ = ["AsyncSender", "SyncSender", "endpoint", "paged", "twin_doc"]

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")


class SyncSender(Protocol):
    """A client that sends and waits in the caller's thread (``Client``)."""

    def _send(self, call: Call[T], /) -> Result[T]: ...

    def _drive(self, flow: Flow[T], /) -> T: ...

    def _walk(self, pager: Pager[T], /) -> Iterator[Result[T]]: ...


class AsyncSender(Protocol):
    """A client whose sending is awaited (``AsyncClient``)."""

    def _send(self, call: Call[T], /) -> Coroutine[Any, Any, Result[T]]: ...

    def _drive(self, flow: Flow[T], /) -> Coroutine[Any, Any, T]: ...

    def _walk(self, pager: Pager[T], /) -> AsyncIterator[Result[T]]: ...


def _is_async(owner: type) -> bool:
    """Whether a client class awaits its sending (its ``_send`` is a coroutine function)."""
    return inspect.iscoroutinefunction(getattr(owner, "_send", None))


_WRAPPED = re.compile(r"(\w+)\[(.*)\]", re.DOTALL)


def _answer(annotation: object, kinds: dict[str, str]) -> object:
    """The method's return annotation for a builder's: ``Call[X]`` -> ``Result[X]`` ...

    ``kinds`` maps the builder's outer name to a template of the method's (``{}`` is the
    inner annotation). Annotations are text (``from __future__ import annotations``);
    anything else is left as written.
    """
    if isinstance(annotation, str) and (found := _WRAPPED.fullmatch(annotation.strip())):
        outer, inner = found.groups()
        if outer in kinds:
            return kinds[outer].format(inner)
    return annotation


def _dress(method: Callable[..., Any], build: Callable[..., Any], answer: object) -> None:
    """Give ``method`` the builder's name, docstring and signature, ``self`` first."""
    signature = inspect.signature(build)
    me = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    method.__name__ = build.__name__
    method.__qualname__ = build.__qualname__
    method.__module__ = build.__module__
    method.__doc__ = build.__doc__
    method.__annotations__ = {**build.__annotations__, "return": answer}
    method.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[me, *signature.parameters.values()], return_annotation=answer
    )
    method.__wrapped__ = build  # type: ignore[attr-defined]


def _not_a_step(build: Callable[..., Any], made: object) -> TypeError:
    return TypeError(f"{build.__qualname__} returned {made!r}, not a Call or a flow")


class endpoint(Generic[P, R]):  # noqa: N801 (a decorator, named as one)
    """An endpoint method of both clients, declared by its request builder.

    Parameters
    ----------
    build : callable
        Takes the method's arguments and returns the :class:`Call` to send (the method
        returns its ``Result``) or a flow (the method returns what the flow returns).
    """

    @overload
    def __init__(self: endpoint[P, Result[T]], build: Callable[P, Call[T]]) -> None: ...
    @overload
    def __init__(self: endpoint[P, R], build: Callable[P, Flow[R]]) -> None: ...
    def __init__(self, build: Callable[P, Any]) -> None:
        self.build = build
        self.__doc__ = build.__doc__
        kinds = {"Call": "Result[{}]", "Flow": "{}"}
        answer = _answer(inspect.signature(build).return_annotation, kinds)

        def sync_method(self: SyncSender, /, *args: Any, **kwargs: Any) -> Any:
            made = build(*args, **kwargs)
            if isinstance(made, Call):
                return self._send(made)
            if isinstance(made, Generator):
                return self._drive(made)
            raise _not_a_step(build, made)

        async def async_method(self: AsyncSender, /, *args: Any, **kwargs: Any) -> Any:
            made = build(*args, **kwargs)
            if isinstance(made, Call):
                return await self._send(made)
            if isinstance(made, Generator):
                return await self._drive(made)
            raise _not_a_step(build, made)

        _dress(sync_method, build, answer)
        _dress(async_method, build, answer)
        self._sync: Callable[..., Any] = sync_method
        self._async: Callable[..., Any] = async_method

    @overload
    def __get__(self, instance: None, owner: type) -> Callable[..., Any]: ...
    @overload
    def __get__(self, instance: SyncSender, owner: type) -> Callable[P, R]: ...
    @overload
    def __get__(
        self, instance: AsyncSender, owner: type
    ) -> Callable[P, Coroutine[Any, Any, R]]: ...
    def __get__(self, instance: object, owner: type | None = None) -> Any:
        kind = type(instance) if owner is None else owner
        method = self._async if _is_async(kind) else self._sync
        return method if instance is None else method.__get__(instance, kind)


class paged(Generic[P, T]):  # noqa: N801 (a decorator, named as one)
    """A walk over a paged endpoint for both clients, declared by its pager's builder.

    Parameters
    ----------
    build : callable
        Takes the method's arguments and returns the :class:`Pager` of the walk; the
        method returns an iterator (async iterator) of one ``Result`` per item.
    """

    def __init__(self, build: Callable[P, Pager[T]]) -> None:
        self.build = build
        self.__doc__ = build.__doc__
        returned = inspect.signature(build).return_annotation

        def sync_method(self: SyncSender, /, *args: Any, **kwargs: Any) -> Any:
            return self._walk(build(*args, **kwargs))

        def async_method(self: AsyncSender, /, *args: Any, **kwargs: Any) -> Any:
            return self._walk(build(*args, **kwargs))

        _dress(sync_method, build, _answer(returned, {"Pager": "Iterator[Result[{}]]"}))
        _dress(async_method, build, _answer(returned, {"Pager": "AsyncIterator[Result[{}]]"}))
        self._sync: Callable[..., Any] = sync_method
        self._async: Callable[..., Any] = async_method

    @overload
    def __get__(self, instance: None, owner: type) -> Callable[..., Any]: ...
    @overload
    def __get__(self, instance: SyncSender, owner: type) -> Callable[P, Iterator[Result[T]]]: ...
    @overload
    def __get__(
        self, instance: AsyncSender, owner: type
    ) -> Callable[P, AsyncIterator[Result[T]]]: ...
    def __get__(self, instance: object, owner: type | None = None) -> Any:
        kind = type(instance) if owner is None else owner
        method = self._async if _is_async(kind) else self._sync
        return method if instance is None else method.__get__(instance, kind)


F = TypeVar("F", bound=Callable[..., Any])


def twin_doc(twin: Callable[..., Any]) -> Callable[[F], F]:
    """Give a hand-written async method the documentation of its sync twin (the methods
    that keep per-client state, which :func:`endpoint` builders have no place for)."""

    def apply(method: F) -> F:
        method.__doc__ = twin.__doc__
        return method

    return apply
