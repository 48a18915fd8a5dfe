"""How a method is declared once for both clients: :class:`endpoint` (one request),
:class:`paged` (a walk over pages, and the pagers that say which page comes next) and
:class:`flow` (several requests and pauses, written as a generator). No I/O here.

An endpoint is its request builder: a function of :mod:`ledgerkit.client.calls` with the
method's public signature (without ``self``) and docstring, that checks the inputs and
returns what to send::

    @endpoint
    def block_by_height(height: int, *, with_transactions: bool = False) -> Call[Block]:
        \"\"\"The block at ``height`` ...\"\"\"
        route = _route("get_block_by_height", block_height=_u64(height, "height"))
        return _block(route, with_transactions)

Called, it is the builder: ``calls.block_by_height(5)`` is the :class:`Call`, named
``"block_by_height"`` after it (a builder that is no method, :func:`builder`, names its
calls the same way). Named in the body of :class:`~ledgerkit.client._methods.Endpoints`
(``block_by_height = calls.block_by_height``), it is the method of both clients. Read
from a client whose ``_send`` is a plain method (:class:`~ledgerkit.Client`), it is a
method that sends the :class:`Call` and returns its :class:`Result`; from one whose
``_send`` is a coroutine function (:class:`~ledgerkit.AsyncClient`), an ``async`` method
that awaits it.

A :class:`flow` declaration returns a flow (a generator of
:mod:`~ledgerkit.client._driver`, ``Flow[R]``): the client's ``_drive`` runs it and the
method returns ``R``; whether the method is ``async`` follows the client's ``_drive``.
It takes, as its first parameter, the ``_state`` of the client that runs it, handed to
it explicitly (a node client's :class:`~ledgerkit.client._flows.ClientState`: the build
state, the ABIs learnt, its clock; a faucet or docs client's URL); the public signature
leaves it out::

    @flow
    def wait_for_transaction(
        state: ClientState, txn_hash: str | bytes, *, timeout: float = 60.0
    ) -> Flow[Result[Transaction]]:
        \"\"\"Wait until the transaction is committed ...\"\"\"
        return waiting(txn_hash, timeout)

A :class:`paged` builder, written in ``Endpoints`` (a walk is no request of its own),
returns a :class:`Pager`: its method walks the pages (``_walk``), an iterator of
``Result`` for the sync client and an async iterator for the asyncio one.

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

import abc
import dataclasses
import functools
import inspect
import re
from collections.abc import (
    AsyncIterator,
    Callable,
    Coroutine,
    Generator,
    Iterator,
)
from typing import (
    Any,
    Concatenate,
    Final,
    Generic,
    ParamSpec,
    Protocol,
    TypeVar,
    overload,
)

from ledgerkit._errors import DecodingError
from ledgerkit.client._call import Call
from ledgerkit.client._driver import Flow
from ledgerkit.types import Result

__all__ = [
    "AsyncSender",
    "CursorPager",
    "EventPager",
    "Pager",
    "SyncSender",
    "VersionRangePager",
    "builder",
    "endpoint",
    "flow",
    "paged",
]

P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S")
S_co = TypeVar("S_co", covariant=True)
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


class SyncDriver(Protocol[S_co]):
    """A client that runs flows in the caller's thread: ``Client``, ``DocsClient``,
    ``FaucetClient``. ``_state`` is what its flow declarations are handed first."""

    @property
    def _state(self) -> S_co: ...

    def _drive(self, flow: Flow[T], /) -> T: ...


class AsyncDriver(Protocol[S_co]):
    """A client whose flows are awaited: ``AsyncClient``, ``AsyncDocsClient``,
    ``AsyncFaucetClient``."""

    @property
    def _state(self) -> S_co: ...

    def _drive(self, flow: Flow[T], /) -> Coroutine[Any, Any, T]: ...


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


def _dress(
    method: Callable[..., Any], build: Callable[..., Any], answer: object, *, skip: int = 0
) -> None:
    """Give ``method`` the builder's name, docstring and signature, ``self`` first (in
    place of the builder's first ``skip`` parameters, which the client fills in)."""
    signature = inspect.signature(build)
    me = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)
    shown = list(signature.parameters.values())[skip:]
    hidden = list(signature.parameters)[:skip]
    method.__name__ = build.__name__
    method.__qualname__ = build.__qualname__
    method.__module__ = build.__module__
    method.__doc__ = build.__doc__
    kept = {k: v for k, v in build.__annotations__.items() if k not in hidden}
    method.__annotations__ = {**kept, "return": answer}
    method.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[me, *shown], return_annotation=answer
    )
    method.__wrapped__ = build  # type: ignore[attr-defined]


def _not_a_step(build: Callable[..., Any], made: object, wanted: str) -> TypeError:
    return TypeError(f"{build.__qualname__} returned {made!r}, not {wanted}")


def _named(build: Callable[..., Any], made: object) -> Call[Any]:
    """The call ``build`` made, named after it (``Call.name`` is its builder's name)."""
    if not isinstance(made, Call):
        raise _not_a_step(build, made, "a Call")
    name = build.__name__
    return made if made.name == name else dataclasses.replace(made, name=name)


def builder(build: Callable[P, Call[T]]) -> Callable[P, Call[T]]:
    """A request builder of :mod:`~ledgerkit.client.calls` that is no client method (a
    flow's request, or one whose method takes more kinds of input): it returns its calls
    named after it, as an :class:`endpoint` does."""

    @functools.wraps(build)
    def named(*args: P.args, **kwargs: P.kwargs) -> Call[T]:
        return _named(build, build(*args, **kwargs))

    return named


class endpoint(Generic[P, T]):  # noqa: N801 (a decorator, named as one)
    """An endpoint method of both clients, declared by its request builder, which it
    stays when called.

    Parameters
    ----------
    build : callable
        Takes the method's arguments and returns the :class:`Call` to send; the method
        returns its ``Result``. (A method of several requests is a :class:`flow`.)

    Notes
    -----
    Called, an endpoint returns its builder's :class:`Call`, named after the builder;
    read from a client (class or instance), it is the method that sends that call.
    ``__name__``, ``__doc__``, ``__wrapped__`` and so :func:`inspect.signature` are the
    builder's.
    """

    def __init__(self, build: Callable[P, Call[T]]) -> None:
        functools.update_wrapper(self, build)
        self.build = build
        answer = _answer(inspect.signature(build).return_annotation, {"Call": "Result[{}]"})

        def sync_method(self: SyncSender, /, *args: Any, **kwargs: Any) -> Any:
            return self._send(_named(build, build(*args, **kwargs)))

        async def async_method(self: AsyncSender, /, *args: Any, **kwargs: Any) -> Any:
            return await self._send(_named(build, build(*args, **kwargs)))

        _dress(sync_method, build, answer)
        _dress(async_method, build, answer)
        self._sync: Callable[..., Any] = sync_method
        self._async: Callable[..., Any] = async_method

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> Call[T]:
        return _named(self.build, self.build(*args, **kwargs))

    def __repr__(self) -> str:
        return f"<endpoint {self.build.__module__}.{self.build.__qualname__}>"

    @overload
    def __get__(self, instance: None, owner: type) -> Callable[..., Any]: ...
    @overload
    def __get__(self, instance: SyncSender, owner: type) -> Callable[P, Result[T]]: ...
    @overload
    def __get__(
        self, instance: AsyncSender, owner: type
    ) -> Callable[P, Coroutine[Any, Any, Result[T]]]: ...
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


class flow(Generic[S, P, R]):  # noqa: N801 (a decorator, named as one)
    """A multi-step method of both clients, declared by the function that starts its flow.

    Parameters
    ----------
    build : callable
        Takes the running client's state (its ``_state``: a node client's
        :class:`~ledgerkit.client._flows.ClientState`, a docs or faucet client's own),
        then the method's arguments, and returns the flow (``Flow[R]``); the method
        returns what the flow returns. The public signature is the builder's without its
        first parameter.

    Notes
    -----
    The client runs the flow with its ``_drive``: a coroutine function (an asyncio
    client's) makes the method ``async``.
    """

    def __init__(self, build: Callable[Concatenate[S, P], Flow[R]]) -> None:
        self.build = build
        self.__doc__ = build.__doc__
        answer = _answer(inspect.signature(build).return_annotation, {"Flow": "{}"})

        def sync_method(self: SyncDriver[S], /, *args: Any, **kwargs: Any) -> Any:
            made = build(self._state, *args, **kwargs)
            if not isinstance(made, Generator):
                raise _not_a_step(build, made, "a flow")
            return self._drive(made)

        async def async_method(self: AsyncDriver[S], /, *args: Any, **kwargs: Any) -> Any:
            made = build(self._state, *args, **kwargs)
            if not isinstance(made, Generator):
                raise _not_a_step(build, made, "a flow")
            return await self._drive(made)

        _dress(sync_method, build, answer, skip=1)
        _dress(async_method, build, answer, skip=1)
        self._sync: Callable[..., Any] = sync_method
        self._async: Callable[..., Any] = async_method

    @overload
    def __get__(self, instance: None, owner: type) -> Callable[..., Any]: ...
    @overload
    def __get__(self, instance: SyncDriver[S], owner: type) -> Callable[P, R]: ...
    @overload
    def __get__(
        self, instance: AsyncDriver[S], owner: type
    ) -> Callable[P, Coroutine[Any, Any, R]]: ...
    def __get__(self, instance: object, owner: type | None = None) -> Any:
        kind = type(instance) if owner is None else owner
        driver = getattr(kind, "_drive", None)
        method = self._async if inspect.iscoroutinefunction(driver) else self._sync
        return method if instance is None else method.__get__(instance, kind)


# -- walks -----------------------------------------------------------------------------------
#
# A pager answers two questions: the first :class:`Call`, and, given a page, the items to
# yield and the next call (``None`` at the end). ``Client`` and ``AsyncClient`` each run the
# same loop over it (``_walk``). Pagers trust what the node sends, not what was asked: nodes
# clamp ``limit`` to their own maximum, so page sizes are learned from the pages themselves.

#: First guess of a page size when walking backwards from a given sequence number
#: (the usual node maximum); a node that serves fewer teaches the walk its size.
BACKWARD_PAGE_GUESS: Final = 100


class Pager(abc.ABC, Generic[T]):
    """The calls of a walk over a paged endpoint."""

    @abc.abstractmethod
    def first(self) -> Call[list[T]] | None:
        """The first page to ask for; ``None`` when the walk is empty from the start."""

    @abc.abstractmethod
    def feed(self, page: Result[list[T]]) -> tuple[list[T], Call[list[T]] | None]:
        """The items of ``page`` to hand out, in order, and the next call."""


class CursorPager(Pager[T]):
    """Resources or modules: follow ``X-NODE-CURSOR`` until a page comes without one.

    Every page after the first is asked at the first page's ledger version, so the walk
    sees one consistent state even while the chain moves.
    """

    def __init__(
        self,
        make: Callable[[int | None, str | None], Call[list[T]]],
        ledger_version: int | None,
    ) -> None:
        self._make = make
        self._version = ledger_version
        self._seen: set[str] = set()

    def first(self) -> Call[list[T]]:
        return self._make(self._version, None)

    def feed(self, page: Result[list[T]]) -> tuple[list[T], Call[list[T]] | None]:
        cursor = page.ledger.cursor
        if cursor is None:
            return page.value, None
        if cursor in self._seen:
            raise DecodingError(f"the node sent the cursor {cursor!r} twice; the walk would loop")
        self._seen.add(cursor)
        if self._version is None:
            self._version = page.ledger.ledger_version
        return page.value, self._make(self._version, cursor)


class VersionRangePager(Pager[T]):
    """Transactions with versions in ``[start, stop)``, page after page.

    ``stop=None`` means the ledger version of the first answer plus one. A ``stop`` past
    the ledger's head ends at the head. Each page starts right after the last version the
    node sent, whatever page size it chose.
    """

    def __init__(
        self,
        make: Callable[[int, int], Call[list[T]]],
        version_of: Callable[[T], int | None],
        *,
        start: int,
        stop: int | None,
        limit: int,
    ) -> None:
        self._make = make
        self._version_of = version_of
        self._start = start
        self._stop = stop
        self._limit = limit
        self._fixed_stop = stop is not None

    def _call(self, start: int) -> Call[list[T]]:
        size = self._limit if self._stop is None else min(self._limit, self._stop - start)
        return self._make(start, size)

    def first(self) -> Call[list[T]] | None:
        if self._stop is not None and self._start >= self._stop:
            return None
        return self._call(self._start)

    def feed(self, page: Result[list[T]]) -> tuple[list[T], Call[list[T]] | None]:
        head = page.ledger.ledger_version + 1
        self._stop = head if self._stop is None else min(self._stop, head)
        stop = self._stop
        if not page.value:
            return [], None
        versions = [self._version_of(item) for item in page.value]
        items = [t for t, v in zip(page.value, versions, strict=True) if v is not None and v < stop]
        last = versions[-1]
        if last is None:
            raise DecodingError("a transaction in a version range came without a version")
        following = last + 1
        return items, (self._call(following) if following < stop else None)


class EventPager(Pager[T]):
    """An event stream by sequence number: newest first, or oldest first when ``forward``.

    Backwards, the walk starts at the newest page (or at ``start``) and asks for the
    ``page`` events just below the lowest seen. ``page`` is the number of events the node
    actually served: when it serves fewer than asked, the walk shrinks its page to that
    and asks again, so no event is skipped. Forwards, it asks from the event after the
    last seen, and ends at an empty page or at a page shorter than an earlier one.
    """

    def __init__(
        self,
        make: Callable[[int | None, int | None], Call[list[T]]],
        sequence_of: Callable[[T], int],
        *,
        start: int | None,
        limit: int | None,
        forward: bool,
    ) -> None:
        self._make = make
        self._seq = sequence_of
        self._start = start
        self._limit = limit
        self._forward = forward
        self._page = limit or BACKWARD_PAGE_GUESS
        self._upper: int | None = None  # backwards: everything at or above is handed out
        self._asked_from = 0
        self._next = start or 0  # forwards: the next sequence number wanted
        self._longest = 0

    def first(self) -> Call[list[T]] | None:
        if self._forward:
            return self._make(self._next, self._limit)
        if self._start is None:
            return self._make(None, self._limit)
        self._upper = self._start + 1
        return self._below()

    def _below(self) -> Call[list[T]] | None:
        assert self._upper is not None
        if self._upper <= 0:
            return None
        self._asked_from = max(0, self._upper - self._page)
        return self._make(self._asked_from, self._upper - self._asked_from)

    def feed(self, page: Result[list[T]]) -> tuple[list[T], Call[list[T]] | None]:
        if self._forward:
            return self._feed_forward(page.value)
        return self._feed_backward(page.value)

    def _feed_forward(self, events: list[T]) -> tuple[list[T], Call[list[T]] | None]:
        items = [e for e in events if self._seq(e) >= self._next]
        if not items:
            return [], None
        self._longest = max(self._longest, len(events))
        self._next = self._seq(items[-1]) + 1
        if len(events) < self._longest:  # a short page after a fuller one: the end
            return items, None
        return items, self._make(self._next, self._limit)

    def _feed_backward(self, events: list[T]) -> tuple[list[T], Call[list[T]] | None]:
        if self._upper is None:  # the newest page: its length is the node's page size
            if not events:
                return [], None
            self._page = len(events)
            self._upper = self._seq(events[0])
            return events[::-1], self._below()
        upper = self._upper
        items = [e for e in events if self._asked_from <= self._seq(e) < upper]
        if not items:  # nothing older is held (pruned, or the stream's start)
            return [], None
        if self._seq(items[-1]) < upper - 1:
            # The node served fewer than asked: its page is smaller. Ask again just below.
            self._page = len(items)
            return [], self._below()
        self._upper = self._seq(items[0])
        return items[::-1], self._below()
