"""Endpoint methods declared once: each reads, for help(), inspect and type checkers, as
the method it is on each client; the async one is a coroutine function; a declaration's
call or flow is sent by the client that reads it."""

from __future__ import annotations

import asyncio
import inspect
import os
import pydoc
import subprocess
import sys
import textwrap
import typing
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from client_fakes import META

import ledgerkit
from ledgerkit import AsyncClient, Client, DecodingError, InputError, Result
from ledgerkit.client import Call
from ledgerkit.client._answers import reader
from ledgerkit.client._declare import endpoint, flow, paged
from ledgerkit.client._driver import Flow, Pause
from ledgerkit.client._flows import Flows
from ledgerkit.models import Block, Transaction

DECLARED = sorted(
    n
    for n in dir(Flows)
    if isinstance(inspect.getattr_static(Flows, n, None), endpoint | paged | flow)
)
#: The flows whose answer is not a ``Result`` (the others, like every endpoint, answer one).
NOT_RESULTS = {
    "account_assets",
    "build_transaction",
    "explain",
    "graphql",  # the indexer's data: no ledger metadata comes with it
    "load_abis",
    "simulate",
}
WALKS = {
    "iter_account_modules",
    "iter_account_transaction_summaries",
    "iter_account_resources",
    "iter_blocks",
    "iter_events",
    "iter_transactions",
}


def test_a_method_reads_as_written_on_both_clients() -> None:
    expected = "(self, height: 'int', *, with_transactions: 'bool' = False) -> 'Result[Block]'"
    assert str(inspect.signature(Client.block_by_height)) == expected
    assert str(inspect.signature(AsyncClient.block_by_height)) == expected
    flow = "(self, txn_hash: 'str | bytes', *, timeout: 'float' = 60.0) -> 'Result[Transaction]'"
    assert str(inspect.signature(Client.wait_for_transaction)) == flow
    walk = "(self, start: 'int' = 0, stop: 'int | None' = None, *, limit: 'int' = 100)"
    assert str(inspect.signature(Client.iter_transactions)) == (
        walk + " -> 'Iterator[Result[Transaction]]'"
    )
    assert str(inspect.signature(AsyncClient.iter_transactions)) == (
        walk + " -> 'AsyncIterator[Result[Transaction]]'"
    )
    doc = Client.block_by_height.__doc__
    assert doc is not None
    assert doc.startswith("The block at ``height``, with its transactions when asked")
    assert AsyncClient.block_by_height.__doc__ == doc
    assert Client.block_by_height.__name__ == "block_by_height"


@pytest.mark.parametrize("name", DECLARED)
def test_every_method_has_one_signature_and_docstring_for_both(name: str) -> None:
    sync, asynchronous = getattr(Client, name), getattr(AsyncClient, name)
    assert inspect.isfunction(sync)
    assert inspect.isfunction(asynchronous)
    assert sync.__doc__
    assert sync.__doc__ == asynchronous.__doc__
    mine, theirs = inspect.signature(sync), inspect.signature(asynchronous)
    assert next(iter(mine.parameters)) == "self"
    assert mine.parameters == theirs.parameters
    assert inspect.iscoroutinefunction(asynchronous) == (name not in WALKS)
    assert not inspect.iscoroutinefunction(sync)
    if name not in WALKS:
        assert mine.return_annotation == theirs.return_annotation
        assert str(mine.return_annotation).startswith("Result[") == (name not in NOT_RESULTS)


def test_the_bound_async_method_is_a_coroutine_function() -> None:
    client = AsyncClient("http://node.test/v1", cache=False)
    assert inspect.iscoroutinefunction(client.block_by_height)
    assert inspect.iscoroutinefunction(client.wait_for_transaction)
    assert not inspect.iscoroutinefunction(client.iter_events)
    assert str(inspect.signature(client.block_by_height)) == (
        "(height: 'int', *, with_transactions: 'bool' = False) -> 'Result[Block]'"
    )
    asyncio.run(client.aclose())


def test_annotations_resolve_for_documentation_tools() -> None:
    assert typing.get_type_hints(Client.block_by_height) == {
        "height": int,
        "with_transactions": bool,
        "return": Result[Block],
    }
    assert typing.get_type_hints(Client.wait_for_transaction)["return"] == Result[Transaction]
    hints = typing.get_type_hints(AsyncClient.iter_transactions)
    assert hints["return"] == AsyncIterator[Result[Transaction]]
    hints = typing.get_type_hints(Client.iter_transactions)
    assert hints["return"] == Iterator[Result[Transaction]]


def test_help_shows_the_async_methods_as_async() -> None:
    text = pydoc.render_doc(ledgerkit.AsyncClient, renderer=pydoc.plaintext)
    assert (
        "async block_by_height(self, height: 'int', *, with_transactions: 'bool' = False)"
        " -> 'Result[Block]'"
    ) in text
    assert "The block at ``height``, with its transactions when asked" in text


def test_a_record_is_read_without_a_decoder_of_its_own() -> None:
    body = (
        b'{"block_height": "18446744073709551615", "block_hash": "0xab",'
        b' "block_timestamp": "9007199254740993", "first_version": "3", "last_version": "4"}'
    )
    block = reader(Block)(body)
    assert block == Block(
        block_height=2**64 - 1,
        block_hash="0xab",
        block_timestamp=2**53 + 1,
        first_version=3,
        last_version=4,
    )
    assert reader(list[Block])(b"[" + body + b"]") == [block]
    with pytest.raises(DecodingError, match="expected Block"):
        reader(Block)(b'{"block_height": "-1"}')


# -- a declaration of our own, on clients that only record ---------------------------------


def _echo(value: str) -> bytes:
    return value.encode()


def _steps(word: str) -> Flow[Result[str]]:
    """Pause, then send one call, and return its answer with the time it was sent."""
    yield Pause(1.0)
    sent_at: float = yield Pause(0.0)
    result: Result[str] = yield Call("echo", "GET", f"/echo/{word}", bytes.decode)
    return Result(f"{result.value}@{sent_at}", result.ledger)


class _Declared:
    @endpoint
    def echo(word: str, *, twice: bool = False) -> Call[str]:
        """Send ``word`` back."""
        if not word:
            raise InputError("an empty word")
        return Call("echo", "GET", f"/echo/{word * (2 if twice else 1)}", bytes.decode)

    @flow
    def echo_later(state: object, word: str) -> Flow[Result[str]]:
        """Send ``word`` back after a pause."""
        return _steps(word)

    @endpoint
    def broken() -> Call[str]:
        """Returns neither a call nor a flow."""
        return "not a call"  # type: ignore[return-value]


class _SyncRecorder(_Declared):
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.now = 0.0
        self._state = None

    def _send(self, call: Call[Any]) -> Result[Any]:
        self.sent.append(call.path)
        return Result(call.path.rsplit("/", 1)[1], META)

    def _drive(self, flow: Flow[Any]) -> Any:
        step = next(flow)
        try:
            while True:
                if isinstance(step, Pause):
                    self.now += step.seconds
                    step = flow.send(self.now)
                else:
                    step = flow.send(self._send(step))
        except StopIteration as stop:
            return stop.value

    def _walk(self, pager: Any) -> Iterator[Any]:
        raise NotImplementedError


class _AsyncRecorder(_Declared):
    def __init__(self) -> None:
        self.sync = _SyncRecorder()
        self._state = None

    async def _send(self, call: Call[Any]) -> Result[Any]:
        return self.sync._send(call)

    async def _drive(self, flow: Flow[Any]) -> Any:
        return self.sync._drive(flow)

    def _walk(self, pager: Any) -> AsyncIterator[Any]:
        raise NotImplementedError


def test_a_declared_call_is_sent_by_either_client() -> None:
    sync = _SyncRecorder()
    assert sync.echo("ab", twice=True) == Result("abab", META)
    asynchronous = _AsyncRecorder()
    assert asyncio.run(asynchronous.echo("cd")) == Result("cd", META)
    assert sync.sent == ["/echo/abab"]
    assert asynchronous.sync.sent == ["/echo/cd"]


def test_a_declared_flow_is_driven_by_either_client() -> None:
    assert _SyncRecorder().echo_later("x") == Result("x@1.0", META)
    assert asyncio.run(_AsyncRecorder().echo_later("y")) == Result("y@1.0", META)


def test_bad_input_fails_at_the_call_and_when_awaited() -> None:
    sync = _SyncRecorder()
    with pytest.raises(InputError, match="an empty word"):
        sync.echo("")
    assert sync.sent == []
    pending = _AsyncRecorder().echo("")
    with pytest.raises(InputError, match="an empty word"):
        asyncio.run(pending)


def test_a_builder_that_returns_neither_is_a_programming_error() -> None:
    with pytest.raises(TypeError, match=r"_Declared.broken returned 'not a call'"):
        _SyncRecorder().broken()
    with pytest.raises(TypeError, match=r"_Declared.broken returned 'not a call'"):
        asyncio.run(_AsyncRecorder().broken())


# -- what a type checker sees -------------------------------------------------------------

_REVEAL = """
from ledgerkit import AsyncClient, Client

def sync(client: Client) -> None:
    reveal_type(client.block_by_height(5))
    reveal_type(client.wait_for_transaction("0x1", timeout=3.0))
    reveal_type(client.iter_events("0x1", 0))
    client.block_by_height("5")
    client.account("0x1", 3)

async def asynchronous(client: AsyncClient) -> None:
    reveal_type(await client.block_by_height(5))
    reveal_type(await client.wait_for_transaction("0x1"))
    reveal_type(client.iter_events("0x1", 0))
    await client.block_by_height(5, with_transactions=1.5)
"""


def test_a_type_checker_sees_each_clients_answer(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    (tmp_path / "snippet.py").write_text(textwrap.dedent(_REVEAL))
    # In a process of its own: mypy raises the interpreter's recursion limit.
    env = {**os.environ, "MYPYPATH": str(Path(ledgerkit.__file__).parent.parent)}
    command = [sys.executable, "-m", "mypy", "--strict", "--config-file=", "--no-error-summary"]
    command += [f"--cache-dir={tmp_path / 'cache'}", str(tmp_path / "snippet.py")]
    out = subprocess.run(command, capture_output=True, text=True, env=env, check=False).stdout
    lines = [line.split(": ", 1)[1] for line in out.splitlines() if str(tmp_path) in line]
    block = 'note: Revealed type is "tuple[ledgerkit.models._blocks.Block, '
    assert lines[0].startswith(block), out
    assert "fallback=ledgerkit.types._result.Result[" in lines[1], out
    assert lines[2].startswith('note: Revealed type is "typing.Iterator[tuple['), out
    assert lines[3] == 'error: Argument 1 has incompatible type "str"; expected "int"  [arg-type]'
    assert lines[4] == "error: Too many positional arguments  [call-arg]"
    assert lines[5].startswith(block), out
    assert "fallback=ledgerkit.types._result.Result[" in lines[6], out
    assert lines[7].startswith('note: Revealed type is "typing.AsyncIterator[tuple['), out
    assert lines[8] == (
        'error: Argument "with_transactions" has incompatible type "float"; expected "bool"'
        "  [arg-type]"
    )
    assert len(lines) == 9, out
