"""Calling framework bodies directly, as Move code's calls into the framework reach them:
a :class:`Context` over a small state (accounts made as genesis makes them), and a call
by ``module::function`` with type arguments and JSON arguments."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from ledgerkit.localnet.vm.framework import FRAMEWORK, Context, MoveAbortError, create_account
from ledgerkit.localnet.vm.framework._context import NATIVES
from ledgerkit.types import Address, MoveType

ALICE = Address.parse("0x" + "a1" * 32)
BOB = Address.parse("0x" + "b0" * 32)
TXN_HASH = bytes(range(32))
#: 2^50, where an object's GUID numbers start.
OBJECT_GUID_START = 1125899906842624


def context(*signers: Address, accounts: tuple[Address, ...] = (ALICE, BOB)) -> Context:
    """A transaction's context over a state holding ``accounts`` and nothing else."""
    ctx = Context(
        lambda key: None,
        FRAMEWORK.codec,
        timestamp_usec=1_700_000_000_000_000,
        chain_id=4,
        signers=signers,
        txn_hash=TXN_HASH,
    )
    for address in accounts:
        create_account(ctx, address)
    return ctx


def call(ctx: Context, function: str, *args: Any, ty: tuple[str, ...] = ()) -> list[Any] | None:
    """Run the body of ``module::function`` at 0x1."""
    module, name = function.split("::")
    body = NATIVES[(Address.from_int(1), module, name)]
    return body(ctx, tuple(MoveType.parse(t) for t in ty), list(args))


def aborts(ctx: Context, code: int, name: str | None, function: str, *args: Any, **kw: Any) -> None:
    with pytest.raises(MoveAbortError) as caught:
        call(ctx, function, *args, **kw)
    assert (caught.value.code, caught.value.name) == (code, name)


def sha3(*parts: bytes) -> Address:
    return Address(hashlib.sha3_256(b"".join(parts)).digest())


def auid(n: int) -> Address:
    """The transaction's ``n``-th unique address: SHA3-256(hash ‖ u64_le(n) ‖ 0xFB)."""
    return sha3(TXN_HASH, n.to_bytes(8, "little"), b"\xfb")
