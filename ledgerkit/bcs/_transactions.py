"""Raw and signed transactions, their signing messages and the committed transaction hash.

* Signing message of a plain transaction: ``SHA3-256(b"APTOS::RawTransaction") || BCS(raw)``.
* Multi-agent and fee-payer transactions sign
  ``SHA3-256(b"APTOS::RawTransactionWithData") || BCS(RawTransactionWithData)``.
* Hash of a committed user transaction:
  ``SHA3-256(SHA3-256(b"APTOS::Transaction") || 0x00 || BCS(SignedTransaction))``.

The 32-byte hashes that open these (``*_PREFIX``) are fixed domain separators, one per
kind of signed or hashed data, not salts.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol

import nacl.exceptions
import nacl.signing

from ledgerkit._errors import BCSDecodeError, InputError, SigningError
from ledgerkit.bcs._account_authenticators import (
    AbstractionAuthenticator,
    AccountAuthenticator,
    Ed25519Authenticator,
    MultiEd25519Authenticator,
    MultiKeyAuthenticator,
    NoAccountAuthenticator,
    SingleKeyAuthenticator,
)
from ledgerkit.bcs._any_keys import AnyPublicKey, AnySignature
from ledgerkit.bcs._codec import BCSStruct, Deserializer, Serializer
from ledgerkit.bcs._payloads import TransactionPayload, deserialize_payload, serialize_payload
from ledgerkit.bcs._secp256k1 import secp256k1_verify
from ledgerkit.bcs._transaction_authenticators import (
    FeePayerAuthenticator,
    MultiAgentAuthenticator,
    SingleSenderAuthenticator,
    TransactionAuthenticator,
    deserialize_transaction_authenticator,
    serialize_transaction_authenticator,
)
from ledgerkit.types import Address, HexBytes

__all__ = [
    "RAW_TRANSACTION_PREFIX",
    "RAW_TRANSACTION_WITH_DATA_PREFIX",
    "TRANSACTION_PREFIX",
    "FeePayerRawTransaction",
    "MultiAgentRawTransaction",
    "RawTransaction",
    "SignedTransaction",
    "Signer",
    "decode_signing_message",
]


def _prefix(name: bytes) -> bytes:
    return hashlib.sha3_256(b"APTOS::" + name).digest()


#: ``SHA3-256(b"APTOS::RawTransaction")``: opens the signing message of a plain transaction.
RAW_TRANSACTION_PREFIX: Final = _prefix(b"RawTransaction")
#: ``SHA3-256(b"APTOS::RawTransactionWithData")``: opens a multi-agent or fee-payer one.
RAW_TRANSACTION_WITH_DATA_PREFIX: Final = _prefix(b"RawTransactionWithData")
#: ``SHA3-256(b"APTOS::Transaction")``: opens what a committed transaction's hash hashes.
TRANSACTION_PREFIX: Final = _prefix(b"Transaction")
_USER_TRANSACTION: Final = b"\x00"
_pack_tail: Final = struct.Struct("<QQQB").pack


class Signer(Protocol):
    """Anything that signs with Ed25519: ``public_key`` bytes and ``sign(message)``."""

    @property
    def public_key_bytes(self) -> bytes: ...

    def sign(self, message: bytes) -> bytes: ...


@dataclass(frozen=True, slots=True)
class RawTransaction(BCSStruct):
    """An unsigned transaction.

    Field order is the BCS order: sender, sequence_number, payload, max_gas_amount,
    gas_unit_price, expiration_timestamp_secs, chain_id.
    """

    sender: Address
    sequence_number: int
    payload: TransactionPayload
    max_gas_amount: int
    gas_unit_price: int
    expiration_timestamp_secs: int
    chain_id: int
    # The encoding, kept after the first use: signing and submitting both need it.
    _bcs: bytes | None = field(default=None, init=False, repr=False, compare=False)

    def to_bcs(self) -> bytes:
        encoded = self._bcs
        if encoded is None:
            s = Serializer()
            self._write(s)
            encoded = s.output()
            object.__setattr__(self, "_bcs", encoded)
        return encoded

    def serialize(self, s: Serializer) -> None:
        s.fixed_bytes(self.to_bcs())

    def _write(self, s: Serializer) -> None:
        gas = (self.max_gas_amount, self.gas_unit_price, self.expiration_timestamp_secs)
        s.address(self.sender)
        s.u64(self.sequence_number)
        serialize_payload(s, self.payload)
        # The four trailing fields in one pack when they are plain ints (the usual case);
        # anything else goes field by field for a precise error.
        if all(type(x) is int for x in gas) and type(self.chain_id) is int:
            try:
                s.fixed_bytes(_pack_tail(*gas, self.chain_id))
                return
            except struct.error:
                pass
        for value in gas:
            s.u64(value)
        s.u8(self.chain_id)

    @classmethod
    def deserialize(cls, d: Deserializer) -> RawTransaction:
        return cls(
            sender=d.field("sender", d.address),
            sequence_number=d.field("sequence_number", d.u64),
            payload=d.field("payload", deserialize_payload, d),
            max_gas_amount=d.field("max_gas_amount", d.u64),
            gas_unit_price=d.field("gas_unit_price", d.u64),
            expiration_timestamp_secs=d.field("expiration_timestamp_secs", d.u64),
            chain_id=d.field("chain_id", d.u8),
        )

    def signing_message(self) -> bytes:
        """The bytes a single signer signs."""
        return RAW_TRANSACTION_PREFIX + self.to_bcs()

    def sign(self, signer: Signer) -> SignedTransaction:
        """Sign with one Ed25519 key and return the signed transaction."""
        signature = signer.sign(self.signing_message())
        return SignedTransaction(self, Ed25519Authenticator(signer.public_key_bytes, signature))


@dataclass(frozen=True, slots=True)
class MultiAgentRawTransaction(BCSStruct):
    """A raw transaction with the addresses of its secondary signers (signing form)."""

    raw: RawTransaction
    secondary_signers: tuple[Address, ...]

    def serialize(self, s: Serializer) -> None:
        s.uleb128(0)
        self.raw.serialize(s)
        s.sequence(self.secondary_signers, s.address)

    @classmethod
    def deserialize(cls, d: Deserializer) -> MultiAgentRawTransaction:
        d.variant(("MultiAgent",), "raw transaction with data")
        raw = d.field("raw_txn", RawTransaction.deserialize, d)
        return cls(raw, tuple(d.field("secondary_signer_addresses", d.sequence, d.address)))

    def signing_message(self) -> bytes:
        """The bytes the sender and every secondary signer sign."""
        return RAW_TRANSACTION_WITH_DATA_PREFIX + self.to_bcs()

    def authenticate(
        self, sender: AccountAuthenticator, secondary: Sequence[AccountAuthenticator]
    ) -> SignedTransaction:
        """Assemble the signed transaction from each signer's authenticator.

        Parameters
        ----------
        sender : AccountAuthenticator
            The sender's, over :meth:`signing_message` (``Account.sign(this)``).
        secondary : sequence of AccountAuthenticator
            The secondary signers', in the order of :attr:`secondary_signers`.
        """
        auth = MultiAgentAuthenticator(sender, self.secondary_signers, tuple(secondary))
        return SignedTransaction(self.raw, auth)


@dataclass(frozen=True, slots=True)
class FeePayerRawTransaction(BCSStruct):
    """A raw transaction with secondary signers and a fee payer (signing form).

    Sign with ``fee_payer=Address(0x0)`` when the fee payer is not known yet; the fee
    payer itself signs with its real address.
    """

    raw: RawTransaction
    secondary_signers: tuple[Address, ...]
    fee_payer: Address

    def serialize(self, s: Serializer) -> None:
        s.uleb128(1)
        self.raw.serialize(s)
        s.sequence(self.secondary_signers, s.address)
        s.address(self.fee_payer)

    @classmethod
    def deserialize(cls, d: Deserializer) -> FeePayerRawTransaction:
        start = d.position
        if d.variant(("MultiAgent", "MultiAgentWithFeePayer"), "raw transaction with data") != 1:
            raise BCSDecodeError("expected the fee-payer form (variant 1)", offset=start)
        raw = d.field("raw_txn", RawTransaction.deserialize, d)
        secondary = tuple(d.field("secondary_signer_addresses", d.sequence, d.address))
        return cls(raw, secondary, d.field("fee_payer_address", d.address))

    def signing_message(self) -> bytes:
        """The bytes the sender, the secondary signers and the fee payer sign."""
        return RAW_TRANSACTION_WITH_DATA_PREFIX + self.to_bcs()

    def authenticate(
        self,
        sender: AccountAuthenticator,
        secondary: Sequence[AccountAuthenticator],
        fee_payer: AccountAuthenticator,
    ) -> SignedTransaction:
        """Assemble the signed transaction from each signer's authenticator.

        Parameters
        ----------
        sender : AccountAuthenticator
            The sender's (``Account.sign(this)``).
        secondary : sequence of AccountAuthenticator
            The secondary signers', in the order of :attr:`secondary_signers`.
        fee_payer : AccountAuthenticator
            The fee payer's, over the signing message with its real address.
        """
        auth = FeePayerAuthenticator(
            sender, self.secondary_signers, tuple(secondary), self.fee_payer, fee_payer
        )
        return SignedTransaction(self.raw, auth)


@dataclass(frozen=True, slots=True)
class SignedTransaction(BCSStruct):
    """A raw transaction and its authenticator: what is submitted to a node."""

    raw: RawTransaction
    authenticator: TransactionAuthenticator

    def serialize(self, s: Serializer) -> None:
        self.raw.serialize(s)
        serialize_transaction_authenticator(s, self.authenticator)

    def to_bcs(self) -> bytes:
        s = Serializer()
        serialize_transaction_authenticator(s, self.authenticator)
        return self.raw.to_bcs() + s.output()

    @classmethod
    def deserialize(cls, d: Deserializer) -> SignedTransaction:
        raw = d.field("raw_txn", RawTransaction.deserialize, d)
        auth = d.field("authenticator", deserialize_transaction_authenticator, d)
        return cls(raw, auth)

    @classmethod
    def from_signing_message(
        cls,
        message: bytes | str,
        public_key: object,
        signature: bytes | str,
    ) -> SignedTransaction:
        """Rebuild a single-signer transaction from its signing message and a detached
        signature: what ``encode_submission`` answers and what a signer returned.

        Parameters
        ----------
        message : bytes or str
            The signing message (bytes or ``0x`` hex):
            ``SHA3-256(b"APTOS::RawTransaction") || BCS(RawTransaction)``.
        public_key : bytes, str, AnyPublicKey or a public key of ledgerkit.keys
            32 bytes make a legacy Ed25519 authenticator; 65 (``0x04`` and the point) a
            secp256k1 single key. An :class:`AnyPublicKey` signs as a single key.
        signature : bytes or str
            The 64-byte signature of ``message``.

        Raises
        ------
        InputError
            ``message`` is not a single signer's signing message (a multi-agent one
            takes each signer's authenticator: ``MultiAgentRawTransaction.authenticate``),
            or the key or signature is not bytes or hex.
        BCSDecodeError
            The bytes after the prefix are not a raw transaction.
        SigningError
            The signature does not verify against the message and key.
        """
        data = _bytes_of(message, "message")
        raw = decode_signing_message(data)
        if not isinstance(raw, RawTransaction):
            raise InputError(
                "a multi-agent or fee-payer signing message has several signers: assemble "
                "their authenticators with MultiAgentRawTransaction.authenticate or "
                "FeePayerRawTransaction.authenticate"
            )
        sig = _bytes_of(signature, "signature")
        auth: TransactionAuthenticator
        if isinstance(public_key, AnyPublicKey):
            scheme = public_key.scheme
            any_sig = AnySignature(scheme, sig)
            auth = SingleSenderAuthenticator(SingleKeyAuthenticator(public_key, any_sig))
        else:
            key = _bytes_of(public_key, "public_key")
            if len(key) == 32:
                auth = Ed25519Authenticator(key, sig)
            elif len(key) == 65 and key[0] == 4:
                single = SingleKeyAuthenticator(
                    AnyPublicKey("secp256k1_ecdsa", key), AnySignature("secp256k1_ecdsa", sig)
                )
                auth = SingleSenderAuthenticator(single)
            else:
                raise InputError(
                    "public_key is 32 bytes (Ed25519) or 65 bytes starting 0x04 (secp256k1), "
                    f"got {len(key)} bytes"
                )
        signed = cls(raw, auth)
        if not signed.verify():
            raise SigningError(
                "the signature does not verify against this signing message and public key"
            )
        return signed

    def hash(self) -> HexBytes:
        """The hash the ledger gives this transaction once committed."""
        body = self.to_bcs()
        return HexBytes(hashlib.sha3_256(TRANSACTION_PREFIX + _USER_TRANSACTION + body).digest())

    def verify(self) -> bool:
        """Check every signature inside against the right signing message.

        Ed25519 (legacy, multi-Ed25519, single-key and multi-key) and secp256k1 ECDSA
        (single-key and multi-key: SHA3-256 of the message, low-S only) are checked.
        Returns False when any signature does not verify (or a signer gave none).

        Raises
        ------
        SigningError
            For schemes ledgerkit cannot check (secp256r1, keyless, abstraction...).
        """
        auth = self.authenticator
        raw = self.raw
        if isinstance(auth, MultiAgentAuthenticator):
            message = MultiAgentRawTransaction(raw, auth.secondary_signer_addresses)
            return all(
                _verify_account(a, message.signing_message())
                for a in (auth.sender, *auth.secondary_signers)
            )
        if isinstance(auth, FeePayerAuthenticator):
            signers = (auth.sender, *auth.secondary_signers, auth.fee_payer_signer)
            real = FeePayerRawTransaction(
                raw, auth.secondary_signer_addresses, auth.fee_payer_address
            ).signing_message()
            # Sender and secondary signers may have signed before the fee payer was known.
            unknown = FeePayerRawTransaction(
                raw, auth.secondary_signer_addresses, _NO_FEE_PAYER
            ).signing_message()
            return _verify_account(auth.fee_payer_signer, real) and all(
                _verify_account(a, real) or _verify_account(a, unknown) for a in signers[:-1]
            )
        if isinstance(auth, SingleSenderAuthenticator):
            return _verify_account(auth.sender, raw.signing_message())
        return _verify_account(auth, raw.signing_message())


_NO_FEE_PAYER: Final = Address(bytes(32))


def _bytes_of(value: object, what: str) -> bytes:
    """Bytes given as bytes, ``0x`` hex or an object with ``__bytes__`` (a key)."""
    if isinstance(value, str):
        return bytes(HexBytes.parse(value))
    if isinstance(value, bytes | bytearray | memoryview) or hasattr(value, "__bytes__"):
        return bytes(value)
    raise InputError(f"{what} is bytes or 0x hex, got {type(value).__name__}")


def decode_signing_message(
    message: bytes | bytearray | memoryview,
) -> RawTransaction | MultiAgentRawTransaction | FeePayerRawTransaction:
    """The transaction a signing message is of (the inverse of ``signing_message()``).

    Raises
    ------
    InputError
        ``message`` opens with neither signing prefix.
    BCSDecodeError
        The rest is not a transaction of that kind, or has bytes left over.

    Examples
    --------
    >>> from ledgerkit.bcs import EntryFunction
    >>> call = EntryFunction.build("0x1::aptos_account::transfer", (), [("address", "0x2"),
    ...                            ("u64", 1)])
    >>> raw = RawTransaction(Address.parse("0x1"), 0, call, 1000, 100, 2, 4)
    >>> decode_signing_message(raw.signing_message()) == raw
    True
    """
    data = bytes(message)
    head, body = data[:32], data[32:]
    if head == RAW_TRANSACTION_PREFIX:
        return RawTransaction.from_bcs(body)
    if head == RAW_TRANSACTION_WITH_DATA_PREFIX:
        if body[:1] == b"\x01":
            return FeePayerRawTransaction.from_bcs(body)
        return MultiAgentRawTransaction.from_bcs(body)
    raise InputError(
        "not a signing message: it opens with SHA3-256(b'APTOS::RawTransaction') or "
        "SHA3-256(b'APTOS::RawTransactionWithData')"
    )


def _ed25519_ok(public_key: bytes, message: bytes, signature: bytes) -> bool:
    try:
        nacl.signing.VerifyKey(public_key).verify(message, signature)
    except (nacl.exceptions.BadSignatureError, nacl.exceptions.ValueError, ValueError):
        return False
    return True


_CHECKED_SCHEMES: Final = ("ed25519", "secp256k1_ecdsa")


def _any_ok(key: AnyPublicKey, signature: AnySignature, message: bytes) -> bool:
    if key.scheme not in _CHECKED_SCHEMES:
        raise SigningError(f"cannot check {key.scheme} signatures")
    if signature.scheme != key.scheme:
        return False  # a key signs in its own scheme only
    if key.scheme == "ed25519":
        return _ed25519_ok(key.value, message, signature.value)
    return secp256k1_verify(key.value, message, signature.value)


def _bits(bitmap: bytes) -> list[int]:
    return [i for i in range(len(bitmap) * 8) if bitmap[i // 8] & (0x80 >> (i % 8))]


def _verify_account(auth: AccountAuthenticator, message: bytes) -> bool:
    if isinstance(auth, Ed25519Authenticator):
        return _ed25519_ok(auth.public_key, message, auth.signature)
    if isinstance(auth, MultiEd25519Authenticator):
        signers = _bits(auth.bitmap)
        if len(signers) < auth.threshold or signers[-1] >= len(auth.public_keys):
            return False
        return all(
            _ed25519_ok(auth.public_keys[i], message, sig)
            for i, sig in zip(signers, auth.signatures, strict=True)
        )
    if isinstance(auth, SingleKeyAuthenticator):
        return _any_ok(auth.public_key, auth.signature, message)
    if isinstance(auth, MultiKeyAuthenticator):
        signers = _bits(auth.bitmap)
        if len(signers) != len(auth.signatures) or len(signers) < auth.signatures_required:
            return False
        if signers and signers[-1] >= len(auth.public_keys):
            return False
        return all(
            _any_ok(auth.public_keys[i], sig, message)
            for i, sig in zip(signers, auth.signatures, strict=True)
        )
    if isinstance(auth, NoAccountAuthenticator):
        return False
    if isinstance(auth, AbstractionAuthenticator):
        raise SigningError("account abstraction is checked by Move code, not here")
    raise SigningError(f"unknown authenticator {type(auth).__name__}")
