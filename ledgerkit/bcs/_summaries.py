"""An account's transaction summaries as the node's BCS answer holds them.

A BCS answer of ``GET /accounts/{address}/transaction_summaries`` is a sequence of
``IndexedTransactionSummary``, whose only variant ``V1`` (0) holds the sender, the
version, the transaction hash and the ``ReplayProtector``: ``Nonce`` (0) or
``SequenceNumber`` (1), each a u64 (aptos-core ``types/src/transaction/mod.rs``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ledgerkit._errors import BCSEncodeError
from ledgerkit.bcs._codec import BCSStruct, Deserializer, Serializer
from ledgerkit.types import Address

__all__ = ["REPLAY_PROTECTORS", "IndexedTransactionSummary"]

#: The ``ReplayProtector`` variants, in their BCS order, as the JSON answer names them.
REPLAY_PROTECTORS: Final = ("nonce", "sequence_number")
_VERSIONS: Final = ("V1",)
_VARIANTS: Final = ("Nonce", "SequenceNumber")
_HASH: Final = 32


@dataclass(frozen=True, slots=True)
class IndexedTransactionSummary(BCSStruct):
    """One transaction an account sent: who, where, its hash and what kept it unique.

    Attributes
    ----------
    sender : Address
        The account.
    version : int
        Its ledger version.
    transaction_hash : bytes
        32 bytes.
    replay_protector : str
        ``"sequence_number"`` or ``"nonce"`` (an orderless transaction).
    replay_value : int
        The sequence number or the nonce.
    """

    sender: Address
    version: int
    transaction_hash: bytes
    replay_protector: str
    replay_value: int

    def serialize(self, s: Serializer) -> None:
        if self.replay_protector not in REPLAY_PROTECTORS:
            raise BCSEncodeError(
                f"replay_protector must be one of {REPLAY_PROTECTORS}, "
                f"got {self.replay_protector!r}"
            )
        s.uleb128(0)
        s.address(self.sender)
        s.u64(self.version)
        s.fixed_bytes(self.transaction_hash, _HASH)
        s.uleb128(REPLAY_PROTECTORS.index(self.replay_protector))
        s.u64(self.replay_value)

    @classmethod
    def deserialize(cls, d: Deserializer) -> IndexedTransactionSummary:
        d.variant(_VERSIONS, "IndexedTransactionSummary")
        sender = d.field("sender", d.address)
        version = d.field("version", d.u64)
        txn_hash = d.field("transaction_hash", d.fixed_bytes, _HASH)
        kind = REPLAY_PROTECTORS[d.variant(_VARIANTS, "ReplayProtector")]
        value = d.field("replay_protector", d.u64)
        return cls(sender, version, txn_hash, kind, value)
