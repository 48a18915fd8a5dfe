"""Who signs: any account-like object, and the authenticators built from it.

A *signer* is anything with an ``address`` and a key: an object with ``address`` and
``private_key`` attributes (an account, the embedded node's dev accounts), an object with
``address``, ``public_key`` and ``sign(message)``, or a private key itself
(:class:`~ledgerkit.keys.Ed25519PrivateKey`, :class:`~ledgerkit.keys.Secp256k1PrivateKey`),
whose address is the one its public key gives. A key with an ``authenticator(message)``
method chooses its own account authenticator; otherwise a 32-byte public key signs as
Ed25519 and a 65-byte one as secp256k1 (single key). Where only an address is needed (a
secondary signer when building, a recipient) a bare address is taken too.

:func:`sign_transaction` signs a built transaction (plain, multi-agent or fee-payer) with
every signer it needs. The authenticators a simulation carries (real public keys, zero
signatures) are :func:`~ledgerkit.tx.zero_authenticator`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Protocol, runtime_checkable

from ledgerkit._errors import InputError, InvalidAddressError, SigningError
from ledgerkit.bcs import (
    AccountAuthenticator,
    AnyPublicKey,
    AnySignature,
    Ed25519Authenticator,
    FeePayerRawTransaction,
    MultiAgentRawTransaction,
    MultiEd25519Authenticator,
    RawTransaction,
    SignedTransaction,
    SingleKeyAuthenticator,
    SingleSenderAuthenticator,
    TransactionAuthenticator,
)
from ledgerkit.keys import Ed25519PrivateKey, Secp256k1PrivateKey
from ledgerkit.types import Address

__all__ = [
    "NO_FEE_PAYER",
    "SignerParts",
    "SigningKey",
    "UnsignedTransaction",
    "as_signer",
    "sender_authenticator",
    "sign_transaction",
]

#: The fee payer address of a fee-payer transaction whose fee payer is not known yet.
NO_FEE_PAYER: Final = Address(bytes(32))
_ED25519_KEY_LENGTH: Final = 32

#: The three forms of a transaction before it is signed.
UnsignedTransaction = RawTransaction | MultiAgentRawTransaction | FeePayerRawTransaction


@runtime_checkable
class SigningKey(Protocol):
    """A private key as the toolkit uses it: its public key bytes and ``sign(message)``.

    Keys with an ``authenticator(message)`` method (both key classes of
    :mod:`ledgerkit.keys`) choose their own account authenticator; others are taken
    as Ed25519 keys.
    """

    @property
    def public_key_bytes(self) -> bytes: ...

    def sign(self, message: bytes) -> bytes: ...


@dataclass(frozen=True, slots=True)
class SignerParts:
    """A signer taken apart: its address and, when it has one, its key."""

    address: Address
    key: SigningKey | None = None

    def __repr__(self) -> str:
        return f"SignerParts(address={self.address.standard!r}, has_key={self.key is not None})"


def as_signer(value: Any, *, what: str = "signer", key_required: bool = False) -> SignerParts:
    """Take a signer (account, dev account, private key) or, unless ``key_required``,
    an address apart.

    Raises
    ------
    InputError
        Neither a signer nor an address (or no key where one is required).
    """
    if isinstance(value, SignerParts):
        parts = value
    elif isinstance(value, Address | str | bytes | bytearray):
        try:
            parts = SignerParts(Address.parse(value))
        except InvalidAddressError as exc:
            raise InputError(f"{what}: {exc}") from None
    elif hasattr(value, "private_key") and hasattr(value, "address"):
        key = _signing_key(value.private_key)
        if key is None:
            raise InputError(f"{what}: its private_key cannot sign ({type(value).__name__})")
        parts = SignerParts(_address_of(value.address, what), key)
    elif hasattr(value, "address") and (key := _signing_key(value)) is not None:
        parts = SignerParts(_address_of(value.address, what), key)
    else:
        raise InputError(
            f"{what} must be an account, a private key or an address, got {type(value).__name__}"
        )
    if key_required and parts.key is None:
        raise InputError(
            f"{what} must be able to sign (an account or a private key), got an address"
        )
    return parts


class _PublicKeyBytes:
    """A key whose public key is an object (``bytes(key.public_key)``), seen as a
    :class:`SigningKey`."""

    __slots__ = ("_key", "public_key_bytes")

    def __init__(self, key: Any, public_key_bytes: bytes) -> None:
        self._key = key
        self.public_key_bytes = public_key_bytes

    def sign(self, message: bytes) -> bytes:
        return bytes(self._key.sign(message))

    def authenticator(self, message: bytes) -> AccountAuthenticator:
        return _account_authenticator(self._key, message)

    def __repr__(self) -> str:
        return f"<signing key of {type(self._key).__name__}>"


def _signing_key(value: Any) -> SigningKey | None:
    """``value`` as a signing key: it signs and tells its public key (as bytes, or as
    an object ``bytes()`` reads); ``None`` when it cannot sign."""
    if isinstance(value, _KEY_CLASSES):  # the common case, without a protocol check
        return value
    if not callable(getattr(value, "sign", None)):
        return None
    if isinstance(value, SigningKey):
        return value
    public = getattr(value, "public_key", None)
    if public is None:
        return None
    try:
        raw = bytes(public)
    except TypeError:
        return None
    return _PublicKeyBytes(value, raw)


_KEY_CLASSES: Final = (Ed25519PrivateKey, Secp256k1PrivateKey)


def _address_of(attribute: Any, what: str) -> Address:
    value = attribute() if callable(attribute) else attribute
    try:
        return Address.parse(value)
    except InvalidAddressError as exc:
        raise InputError(f"{what}: {exc}") from None


def _account_authenticator(key: Any, message: bytes) -> AccountAuthenticator:
    make = getattr(key, "authenticator", None)
    if callable(make):
        return make(message)  # type: ignore[no-any-return]
    public = getattr(key, "public_key_bytes", None)
    raw = bytes(public if public is not None else key.public_key)
    if len(raw) == _ED25519_KEY_LENGTH:
        return Ed25519Authenticator(raw, bytes(key.sign(message)))
    signature = bytes(key.sign(message))
    return SingleKeyAuthenticator(
        AnyPublicKey("secp256k1_ecdsa", raw), AnySignature("secp256k1_ecdsa", signature)
    )


def sender_authenticator(auth: AccountAuthenticator) -> TransactionAuthenticator:
    """The transaction authenticator of a single signer's account authenticator."""
    if isinstance(auth, Ed25519Authenticator | MultiEd25519Authenticator):
        return auth
    return SingleSenderAuthenticator(auth)


def sign_transaction(
    transaction: UnsignedTransaction,
    sender: Any,
    *,
    secondary_signers: Sequence[Any] = (),
    fee_payer: Any = None,
) -> SignedTransaction:
    """Sign a built transaction with every signer it needs.

    Parameters
    ----------
    transaction : RawTransaction, MultiAgentRawTransaction or FeePayerRawTransaction
        What ``client.build_transaction`` returns.
    sender : signer
        The sender's account or private key.
    secondary_signers : sequence of signers
        One per secondary signer of the transaction, in its order.
    fee_payer : signer, optional
        The fee payer, for a fee-payer transaction. When the transaction was built
        without knowing it (``fee_payer=True``), its address is filled in here.

    Returns
    -------
    SignedTransaction
        Ready for ``client.submit_transaction``.

    Raises
    ------
    SigningError
        A signer's address is not the one the transaction names, or one is missing.
    InputError
        A signer is not an account or a key.
    """
    parts = as_signer(sender, what="sender", key_required=True)
    if isinstance(transaction, RawTransaction):
        if secondary_signers or fee_payer is not None:
            raise SigningError("a plain transaction has neither secondary signers nor a fee payer")
        _check(parts, transaction.sender, "sender")
        assert parts.key is not None
        auth = _account_authenticator(parts.key, transaction.signing_message())
        return SignedTransaction(transaction, sender_authenticator(auth))
    if not isinstance(transaction, MultiAgentRawTransaction | FeePayerRawTransaction):
        raise InputError(
            f"sign a RawTransaction, MultiAgentRawTransaction or FeePayerRawTransaction, got "
            f"{type(transaction).__name__}"
        )
    _check(parts, transaction.raw.sender, "sender")
    others = [
        as_signer(s, what=f"secondary signer {i}", key_required=True)
        for i, s in enumerate(secondary_signers)
    ]
    if len(others) != len(transaction.secondary_signers):
        raise SigningError(
            f"the transaction has {len(transaction.secondary_signers)} secondary signer(s), "
            f"{len(others)} given"
        )
    for i, (signer, address) in enumerate(zip(others, transaction.secondary_signers, strict=True)):
        _check(signer, address, f"secondary signer {i}")
    if isinstance(transaction, MultiAgentRawTransaction):
        if fee_payer is not None:
            raise SigningError("a multi-agent transaction without a fee payer was built")
        message = transaction.signing_message()
        return transaction.authenticate(
            _account_authenticator(parts.key, message),
            tuple(_account_authenticator(s.key, message) for s in others),
        )
    if fee_payer is None:
        raise SigningError("a fee-payer transaction needs its fee_payer to sign")
    payer = as_signer(fee_payer, what="fee_payer", key_required=True)
    if transaction.fee_payer == NO_FEE_PAYER:
        transaction = replace(transaction, fee_payer=payer.address)
    _check(payer, transaction.fee_payer, "fee_payer")
    message = transaction.signing_message()
    return transaction.authenticate(
        _account_authenticator(parts.key, message),
        tuple(_account_authenticator(s.key, message) for s in others),
        _account_authenticator(payer.key, message),
    )


def _check(parts: SignerParts, expected: Address, what: str) -> None:
    if parts.address != expected:
        raise SigningError(
            f"the {what} signing is {parts.address}, the transaction names {expected}"
        )
