"""``0x1::ledger_demo``: a small app with tables keyed by primitives and structs, and events.

Each account that uses it gets a ``Board`` resource on first use, holding three tables
and an event handle. Table handles are derived, not random:
``SHA3-256("ledgerkit::ledger_demo::" ‖ field ‖ owner)``, so the same chain always has
the same handles. ``set_score`` emits ``ScoreChanged`` to the board's handle;
``add_score`` emits the same event type as a module event, as does ``set_cell`` with
``CellChanged``; ``fail_if`` aborts with the code it is given, to make failing
transactions on purpose. ``echo`` and ``echo_signed`` (views) answer their arguments, and
``record`` and ``record_signed`` (entry functions) take them and change nothing: one
parameter of every kind an argument can be, so that a client's encoding of each is
checked by the node's own reading.
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit.localnet.vm.framework._context import Context, native
from ledgerkit.localnet.vm.framework._state_keys import table_handle
from ledgerkit.types import U64_MAX, Address, MoveType

__all__ = ["BOARD"]

BOARD: Final = "0x1::ledger_demo::Board"
SCORE_CHANGED: Final = "0x1::ledger_demo::ScoreChanged"
CELL_CHANGED: Final = "0x1::ledger_demo::CellChanged"
PROFILE: Final = "0x1::ledger_demo::Profile"
POINT: Final = "0x1::ledger_demo::Point"
STRING: Final = "0x1::string::String"
MAX_LEVEL: Final = 100


def _board(ctx: Context, owner: Address, *, create: bool) -> Any:
    board = ctx.resource(owner, BOARD)
    if board is None and create:
        board = {
            "scores": {"handle": table_handle("ledger_demo", "scores", owner).standard},
            "names": {"handle": table_handle("ledger_demo", "names", owner).standard},
            "cells": {"handle": table_handle("ledger_demo", "cells", owner).standard},
            "score_events": ctx.new_handle(owner),
        }
        ctx.put(owner, BOARD, board)
    return board


def _handle(board: Any, field: str) -> Address:
    return Address.parse(board[field]["handle"])


def _score(ctx: Context, board: Any, player: Address) -> int:
    if board is None:
        return 0
    value = ctx.table_get(_handle(board, "scores"), "address", player.standard)
    return 0 if value is None else int(value)


@native("ledger_demo", "set_score")
def _set_score(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    player, score = Address.parse(args[0]), int(args[1])
    board = _board(ctx, ctx.signer, create=True)
    old = _score(ctx, board, player)
    ctx.table_put(_handle(board, "scores"), "address", "u64", player.standard, str(score))
    data = {"player": player.standard, "old": str(old), "new": str(score)}
    ctx.emit(board["score_events"], SCORE_CHANGED, data)
    ctx.put(ctx.signer, BOARD, board)


@native("ledger_demo", "add_score")
def _add_score(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    player, delta = Address.parse(args[0]), int(args[1])
    board = _board(ctx, ctx.signer, create=True)
    old = _score(ctx, board, player)
    if old + delta > U64_MAX:
        raise ctx.abort("ledger_demo", 0x20002, "ESCORE_OVERFLOW")
    ctx.table_put(_handle(board, "scores"), "address", "u64", player.standard, str(old + delta))
    ctx.emit_module(
        SCORE_CHANGED, {"player": player.standard, "old": str(old), "new": str(old + delta)}
    )


@native("ledger_demo", "set_profile")
def _set_profile(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    name, level, tags = args
    if level > MAX_LEVEL:
        raise ctx.abort("ledger_demo", 0x10001, "ELEVEL_TOO_HIGH")
    board = _board(ctx, ctx.signer, create=True)
    profile = {"name": name, "level": level, "tags": list(tags)}
    ctx.table_put(_handle(board, "names"), STRING, PROFILE, name, profile)


@native("ledger_demo", "set_cell")
def _set_cell(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    x, y, value = (str(int(a)) for a in args)
    board = _board(ctx, ctx.signer, create=True)
    ctx.table_put(_handle(board, "cells"), POINT, "u64", {"x": x, "y": y}, value)
    ctx.emit_module(CELL_CHANGED, {"owner": ctx.signer.standard, "x": x, "y": y, "value": value})


@native("ledger_demo", "fail_if")
def _fail_if(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    code = int(args[0])
    if code:
        raise ctx.abort("ledger_demo", code)


@native("ledger_demo", "board_exists")
def _board_exists(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return [ctx.exists(Address.parse(args[0]), BOARD)]


@native("ledger_demo", "score")
def _score_view(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    board = _board(ctx, Address.parse(args[0]), create=False)
    return [str(_score(ctx, board, Address.parse(args[1])))]


@native("ledger_demo", "cell")
def _cell_view(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    board = _board(ctx, Address.parse(args[0]), create=False)
    if board is None:
        return ["0"]
    key = {"x": str(int(args[1])), "y": str(int(args[2]))}
    value = ctx.table_get(_handle(board, "cells"), POINT, key)
    return ["0" if value is None else value]


@native("ledger_demo", "profile")
def _profile_view(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    board = _board(ctx, Address.parse(args[0]), create=False)
    if board is None:
        return [{"vec": []}]
    value = ctx.table_get(_handle(board, "names"), STRING, args[1])
    return [{"vec": [] if value is None else [value]}]


@native("ledger_demo", "echo")
def _echo(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return list(args)


@native("ledger_demo", "echo_signed")
def _echo_signed(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> list[Any]:
    return list(args)


@native("ledger_demo", "record")
def _record(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    return None


@native("ledger_demo", "record_signed")
def _record_signed(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    return None
