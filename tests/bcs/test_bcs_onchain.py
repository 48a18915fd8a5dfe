"""Committed-transaction BCS (TransactionData and its parts): hand-computed encodings,
round trips, and bounded, typed refusals of bad bytes."""

from __future__ import annotations

from typing import Final

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledgerkit import BCSDecodeError, BCSEncodeError
from ledgerkit.bcs import (
    BlockEpilogue,
    ContractEvent,
    ExecutionStatus,
    StateCheckpoint,
    StateKey,
    StateValueMetadata,
    TransactionData,
    TransactionInfo,
    TransactionOnChainData,
    WriteOp,
    WriteSet,
)
from ledgerkit.types import Address, ModuleId, MoveType

ONE: Final = bytes(31) + b"\x01"
H1: Final = bytes([1]) * 32
H2: Final = bytes([2]) * 32
H3: Final = bytes([3]) * 32


def u64(n: int) -> bytes:
    return n.to_bytes(8, "little")


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (ExecutionStatus(), b"\x00"),
        (ExecutionStatus("OutOfGas"), b"\x01"),
        (
            ExecutionStatus("MoveAbort", ModuleId(Address.parse("0x1"), "coin"), 6, "E", "d"),
            b"\x02\x00" + ONE + b"\x04coin" + u64(6) + b"\x01\x01E\x01d",
        ),
        (ExecutionStatus("MoveAbort", None, 2**64 - 1), b"\x02\x01" + u64(2**64 - 1) + b"\x00"),
        (
            ExecutionStatus("ExecutionFailure", None, function=3, code_offset=258),
            b"\x03\x01\x03\x00\x02\x01",
        ),
        (ExecutionStatus("MiscellaneousError"), b"\x04\x00"),
        (ExecutionStatus("MiscellaneousError", status_code=4016), b"\x04\x01" + u64(4016)),
    ],
)
def test_execution_statuses_encode_as_the_ledger_enum(
    status: ExecutionStatus, expected: bytes
) -> None:
    assert status.to_bcs() == expected
    assert ExecutionStatus.from_bcs(expected) == status


def test_events_are_v1_with_a_stream_and_v2_without() -> None:
    v2 = ContractEvent(MoveType.parse("u64"), b"\x05")
    assert v2.to_bcs() == b"\x01\x02\x01\x05"
    v1 = ContractEvent(MoveType.parse("bool"), b"", 3, Address.parse("0x1"), 7)
    assert v1.to_bcs() == b"\x00" + u64(3) + ONE + u64(7) + b"\x00\x00"
    for event in (v1, v2):
        assert ContractEvent.from_bcs(event.to_bcs()) == event
    with pytest.raises(BCSEncodeError):
        ContractEvent(MoveType.parse("u8"), b"", account=Address.parse("0x1"))


def test_write_ops_and_write_sets() -> None:
    assert WriteOp("Deletion").to_bcs() == b"\x02"
    assert WriteOp("Creation", b"\xaa").to_bcs() == b"\x00\x01\xaa"
    with_meta = WriteOp("CreationWithMetadata", b"", StateValueMetadata(1, 2, 3))
    assert with_meta.to_bcs() == b"\x03\x00\x01" + u64(1) + u64(2) + u64(3)
    old = WriteOp("DeletionWithMetadata", None, StateValueMetadata(9, 0, 4, "V0"))
    assert old.to_bcs() == b"\x05\x00" + u64(9) + u64(4)
    for op in (with_meta, old):
        assert WriteOp.from_bcs(op.to_bcs()) == op
    with pytest.raises(BCSEncodeError):
        WriteOp("Creation")
    with pytest.raises(BCSEncodeError):
        WriteOp("Deletion", b"\x00")

    raw_b, raw_a = StateKey("Raw", None, b"b"), StateKey("Raw", None, b"a")
    ws = WriteSet(((raw_b, WriteOp("Deletion")), (raw_a, WriteOp("Modification", b"\x07"))))
    # Entries go out in the order of their keys' bytes: "a" before "b".
    expected = b"\x00\x02" + b"\x02\x01a" + b"\x01\x01\x07" + b"\x02\x01b" + b"\x02"
    assert ws.to_bcs() == expected
    assert WriteSet.from_bcs(expected).changes == (
        (raw_a, WriteOp("Modification", b"\x07")),
        (raw_b, WriteOp("Deletion")),
    )
    swapped = b"\x00\x02" + b"\x02\x01b" + b"\x02" + b"\x02\x01a" + b"\x01\x01\x07"
    with pytest.raises(BCSDecodeError, match="order"):
        WriteSet.from_bcs(swapped)
    with pytest.raises(BCSEncodeError, match="once"):
        WriteSet(((raw_a, WriteOp("Deletion")), (raw_a, WriteOp("Deletion")))).to_bcs()


def sample() -> TransactionData:
    info = TransactionInfo(0, ExecutionStatus(), H1, H2, H3, state_checkpoint_hash=H1)
    onchain = TransactionOnChainData(12, StateCheckpoint(H3), info, (), H2, WriteSet())
    return TransactionData(onchain=onchain)


def test_a_whole_transaction_data_by_hand() -> None:
    expected = (
        b"\x00"  # OnChain
        + u64(12)
        + b"\x03" + H3  # Transaction::StateCheckpoint(block id)
        + b"\x00" + u64(0) + b"\x00" + H1 + H2 + H3 + b"\x01" + H1 + b"\x00"  # info V0
        + b"\x00"  # no events
        + H2  # accumulator root hash
        + b"\x00\x00"  # WriteSet V0, no changes
    )  # fmt: skip
    assert sample().to_bcs() == expected
    decoded = TransactionData.from_bcs(expected)
    assert decoded == sample()
    assert decoded.bytes == expected
    assert decoded.signed is None
    assert not decoded.is_pending


def test_block_epilogue_v0() -> None:
    epilogue = BlockEpilogue(H1, True, False, 138, 931)
    s_bytes = TransactionData(
        onchain=TransactionOnChainData(
            1, epilogue, TransactionInfo(0, ExecutionStatus(), H1, H2, H3), (), H1, WriteSet()
        )
    ).to_bcs()
    assert s_bytes[9:].startswith(b"\x06\x00" + H1 + b"\x00\x01\x00" + u64(138) + u64(931))
    assert TransactionData.from_bcs(s_bytes).onchain.transaction == epilogue  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("data", "match"),
    [
        (b"", "truncated"),
        (b"\x02", "TransactionData variant"),
        (b"\x00" + u64(1) + b"\x04", "ValidatorTransaction"),
        (b"\x00" + u64(1) + b"\x05", "BlockMetadataExt"),
        (b"\x00" + u64(1) + b"\x07", "Transaction variant"),
        (sample().to_bcs()[:-1], "truncated"),
        (sample().to_bcs() + b"\x00", "trailing"),
        # A write set claiming 2^31 - 1 changes with nothing behind: refused at once.
        (sample().to_bcs()[:-1] + b"\xff\xff\xff\xff\x07", "byte"),
    ],
)
def test_bad_bytes_are_refused_with_a_typed_error(data: bytes, match: str) -> None:
    with pytest.raises(BCSDecodeError, match=match):
        TransactionData.from_bcs(data)


def test_an_event_type_nested_too_deep_is_refused() -> None:
    deep = b"\x01" + b"\x06" * 10_000 + b"\x02" + b"\x00"  # V2, vector<vector<...<u64>>>
    with pytest.raises(BCSDecodeError):
        ContractEvent.from_bcs(deep)


def test_listings_decode_every_item_or_refuse() -> None:
    one = sample().onchain
    assert one is not None
    body = b"\x02" + one.to_bcs() + one.to_bcs()
    assert TransactionOnChainData.list_from_bcs(body) == [one, one]
    with pytest.raises(BCSDecodeError):
        TransactionOnChainData.list_from_bcs(b"\x03" + one.to_bcs())


def test_transaction_data_is_onchain_or_pending() -> None:
    with pytest.raises(BCSEncodeError):
        TransactionData()


# -- properties -------------------------------------------------------------------------------

hashes = st.binary(min_size=32, max_size=32)
addresses = st.binary(min_size=32, max_size=32).map(Address)
u64s = st.integers(0, 2**64 - 1)
types = st.sampled_from(["u8", "u64", "address", "vector<u8>", "0x1::string::String"]).map(
    MoveType.parse
)
metadata = st.builds(StateValueMetadata, u64s, u64s, u64s) | st.builds(
    lambda d, t: StateValueMetadata(d, 0, t, "V0"), u64s, u64s
)
state_keys = st.one_of(
    st.builds(StateKey, st.just("AccessPath"), addresses, st.binary(max_size=40)),
    st.builds(StateKey, st.just("TableItem"), addresses, st.binary(max_size=40)),
    st.builds(StateKey, st.just("Raw"), st.none(), st.binary(max_size=40)),
)
write_ops = st.one_of(
    st.builds(WriteOp, st.sampled_from(["Creation", "Modification"]), st.binary(max_size=40)),
    st.just(WriteOp("Deletion")),
    st.builds(
        WriteOp,
        st.sampled_from(["CreationWithMetadata", "ModificationWithMetadata"]),
        st.binary(max_size=40),
        metadata,
    ),
    st.builds(lambda m: WriteOp("DeletionWithMetadata", None, m), metadata),
)
events = st.one_of(
    st.builds(ContractEvent, types, st.binary(max_size=40)),
    st.builds(ContractEvent, types, st.binary(max_size=40), u64s, addresses, u64s),
)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(state_keys, write_ops, max_size=6),
    st.lists(events, max_size=4),
    u64s,
    hashes,
    st.none() | hashes,
)
def test_committed_transactions_round_trip(
    changes: dict[StateKey, WriteOp],
    emitted: list[ContractEvent],
    version: int,
    block: bytes,
    checkpoint: bytes | None,
) -> None:
    info = TransactionInfo(version, ExecutionStatus(), block, H1, H2, checkpoint)
    onchain = TransactionOnChainData(
        version,
        BlockEpilogue(block, False, True, version, 0),
        info,
        tuple(emitted),
        H3,
        WriteSet(tuple(changes.items())),
    )
    data = TransactionData(onchain=onchain)
    encoded = data.to_bcs()
    decoded = TransactionData.from_bcs(encoded)
    assert decoded.to_bcs() == encoded
    assert decoded.onchain is not None
    assert dict(decoded.onchain.changes.changes) == changes
    assert decoded.onchain.events == tuple(emitted)
    # Every strict prefix is refused with a typed error, never anything else.
    for cut in range(0, len(encoded), max(1, len(encoded) // 7)):
        with pytest.raises(BCSDecodeError):
            TransactionData.from_bcs(encoded[:cut])
