"""How the embedded node's servers run: the block producer, the HTTP protocol that answers
requests uvicorn cannot parse with the node's error record, binding a loopback socket,
and every server of a node in one thread's event loop. :class:`LocalNode` puts them
together (``_server``).

A block producer thread makes a block shortly after each submission, or every
``block_interval`` seconds with a background workload in live mode, or, on the wall
clock, an empty one whenever the node is idle a second (:meth:`Ledger.idle_tick`); and
drops expired transactions from the mempool every :data:`SWEEP_SECONDS` in any mode.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, ClassVar, Final, Protocol

import httptools
import orjson
import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ledgerkit._errors import ErrorCode
from ledgerkit.localnet._node_errors import NodeError
from ledgerkit.localnet.app import MAX_ECHO_CHARS, meta_headers
from ledgerkit.localnet.ledger import Ledger
from ledgerkit.types import LedgerMeta

__all__ = [
    "BATCH_SECONDS",
    "IDLE_CHECK_SECONDS",
    "KEEP_ALIVE_SECONDS",
    "SWEEP_SECONDS",
    "BlockProducer",
    "NodeHttpProtocol",
    "bind",
    "protocol_for",
    "serve_together",
    "uvicorn_server",
]

_log = logging.getLogger("ledgerkit.localnet")

#: How long the producer waits after a submission for more to batch into one block.
BATCH_SECONDS: Final = 0.02
#: How often the producer drops expired transactions from the mempool.
SWEEP_SECONDS: Final = 1.0
#: How often the producer of a node on the wall clock asks whether an idle block is due.
IDLE_CHECK_SECONDS: Final = 0.1
#: How long an idle keep-alive connection stays open (longer than any common client keeps one).
KEEP_ALIVE_SECONDS: Final = 75


class _Positioned(Protocol):
    """A ledger that knows its position (what a refusal's headers carry)."""

    def meta(self) -> LedgerMeta: ...


class BlockProducer:
    """Makes blocks: promptly after submissions, on a timer in live mode, and while idle
    on the wall clock."""

    def __init__(self, ledger: Ledger, interval: float | None) -> None:
        self._ledger = ledger
        self._interval = interval
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name="ledgerkit-block-producer", daemon=True
        )

    def start(self) -> None:
        if len(self._ledger.mempool):  # accepted before a restart: carry on with them
            self._wake.set()
        self._thread.start()

    def nudge(self) -> None:
        """A transaction was submitted: make a block soon."""
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread.ident is not None:  # a node stopped while starting never started it
            self._thread.join(timeout=10)

    def _run(self) -> None:
        interval = self._interval
        tick = None if interval is None else time.monotonic() + interval
        sweep = IDLE_CHECK_SECONDS if self._ledger.config.clock == "wall" else SWEEP_SECONDS
        while not self._stop.is_set():
            wait = sweep if tick is None else min(sweep, tick - time.monotonic())
            woke = self._wake.wait(timeout=max(0.0, wait))
            if self._stop.is_set():
                return
            try:
                if woke:
                    self._wake.clear()
                    time.sleep(BATCH_SECONDS)
                    while self._ledger.produce_block() is not None:
                        pass  # drain what the block gas limit left over
                elif tick is not None and interval is not None and time.monotonic() >= tick:
                    tick = time.monotonic() + interval  # live mode tick
                    self._ledger.live_tick()
                elif tick is None:
                    self._ledger.idle_tick()  # on the wall clock: an empty block if due
                self._ledger.expire_pending()
            except Exception:  # keep producing; a bad block must not stop the node
                _log.exception("block production failed")


class NodeHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, answering unparsable requests as the node answers.

    A method the parser does not know, bytes that are not ASCII in the path, a malformed
    ``Content-Length`` or an overlong request line never reach the app: uvicorn writes a
    plain-text 400 for them. This protocol writes the node's error record
    (``web_framework_error``, saying what the parser refused; 414 for a URL over 64 KiB,
    400 otherwise) with the ledger headers, and logs the refusal at debug level only.
    ``ledger`` is bound per node by :func:`protocol_for`.
    """

    ledger: ClassVar[_Positioned | None] = None
    _refusal = ""
    _status = 400

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            super().data_received(b"")  # uvicorn's own upgrade handling (none is served)
        except httptools.HttpParserError as exc:
            # A callback's own error (the URL parser's, for one) says more than the wrapper.
            cause = exc.__context__ if exc.__context__ is not None else exc
            self._refusal = str(cause)
            if isinstance(cause, httptools.HttpParserInvalidURLError) and "too long" in str(cause):
                self._status = 414
            # Debug, not uvicorn's warning: the client is answered with the record, and
            # whatever else dials a local port (a ZeroMQ socket of a notebook's kernel
            # reconnecting to a port this node now holds, several times a second) would
            # otherwise print into the notebook or terminal that runs the node.
            self.logger.debug("Invalid HTTP request received: %s", self._refusal)
            self.send_400_response("Invalid HTTP request received.")

    def send_400_response(self, msg: str) -> None:
        reason = self._refusal.encode("ascii", "replace").decode()[:MAX_ECHO_CHARS]
        message = "the request is not valid HTTP/1.1" + (f" ({reason})" if reason else "")
        error = NodeError(ErrorCode.WEB_FRAMEWORK_ERROR, message, status=self._status)
        try:
            headers = meta_headers(self.ledger.meta()) if self.ledger is not None else {}
        except Exception:  # a closed ledger still gets the record, without the position
            headers = {}
        body = orjson.dumps(error.record())
        status = b"400 Bad Request" if self._status == 400 else b"414 URI Too Long"
        lines = [b"HTTP/1.1 " + status]
        lines += [name + b": " + value for name, value in self.server_state.default_headers]
        lines += [f"{name}: {value}".encode("ascii") for name, value in headers.items()]
        lines += [
            b"content-type: application/json",
            b"content-length: " + str(len(body)).encode("ascii"),
            b"connection: close",
        ]
        self.transport.write(b"\r\n".join(lines) + b"\r\n\r\n" + body)
        self.transport.close()


def serve_together(
    plan: list[tuple[uvicorn.Server, socket.socket]],
    closers: Sequence[Callable[[], Awaitable[None]]] = (),
) -> None:
    """Run every server of ``plan`` on its socket, in this thread's one event loop; then
    run ``closers`` in that loop (clients the apps opened in it)."""

    async def all_of() -> None:
        try:
            await asyncio.gather(*(server.serve(sockets=[sock]) for server, sock in plan))
        finally:
            for close in closers:
                await close()

    loop_factory = plan[0][0].config.get_loop_factory()
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        runner.run(all_of())


def protocol_for(ledger: _Positioned) -> type[NodeHttpProtocol]:
    """A :class:`NodeHttpProtocol` whose refusals carry ``ledger``'s position."""
    return type("NodeHttpProtocol", (NodeHttpProtocol,), {"ledger": ledger})


def bind(host: str, port: int, *, wait: float = 0.0) -> socket.socket:
    """A listening, non-blocking socket on ``host:port``; a port in use is tried again
    for up to ``wait`` seconds (one the node gave up a moment ago) before ``OSError``."""
    deadline = time.monotonic() + wait
    while True:
        try:
            return _bind(host, port)
        except OSError:
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.05)


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Accepted connections inherit this: without it, small answers written in two
        # parts (headers, then body) wait on delayed ACKs for tens of milliseconds.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except BaseException:
        sock.close()
        raise
    sock.setblocking(False)
    return sock


def uvicorn_server(app: Any, *, log_level: str, protocol: Any = "auto") -> uvicorn.Server:
    """The uvicorn server of one of the node's apps (served on a socket of :func:`bind`)."""
    config = uvicorn.Config(
        app,
        http=protocol,
        log_level=log_level,
        access_log=False,
        lifespan="off",
        loop="auto",
        # Idle keep-alive connections outlive the clients' own expiry (httpx 5 s, aiohttp
        # 15 s): closed by the server first, a connection reused at that moment would
        # answer a request with a reset instead of a response.
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
    )
    return uvicorn.Server(config)
