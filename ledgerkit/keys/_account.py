"""Accounts: a private key and the address it signs for.

An :class:`Account` pairs an Ed25519 key (the legacy Ed25519 scheme, as the SDKs use it)
or a secp256k1 key (a single key) with its address, which is the one its public key gives
unless the key was rotated. It signs transactions and messages; its secret never shows
in ``repr``, ``str``, formatting, logs or the errors raised about it.
"""

from __future__ import annotations

import re
from typing import Any, Final, Literal, Self, overload

from ledgerkit._errors import InputError, InvalidKeyError, SigningError
from ledgerkit.bcs import (
    AccountAuthenticator,
    FeePayerRawTransaction,
    MultiAgentRawTransaction,
    RawTransaction,
    SignedTransaction,
)
from ledgerkit.keys._keys import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
    Secp256k1PrivateKey,
    Secp256k1PublicKey,
)
from ledgerkit.types import Address

__all__ = ["Account"]

#: The signature schemes an account signs with.
Scheme = Literal["ed25519", "secp256k1"]
PrivateKey = Ed25519PrivateKey | Secp256k1PrivateKey

_KEY_CLASSES: Final[dict[str, type[PrivateKey]]] = {
    "ed25519": Ed25519PrivateKey,
    "secp256k1": Secp256k1PrivateKey,
}
_AIP80: Final = re.compile(r"\s*([a-z0-9]+)-priv-")
_FORMS: Final = (
    "an AIP-80 string (ed25519-priv-0x... or secp256k1-priv-0x...), 64 hex digits "
    "(0x optional; Ed25519 unless scheme= says otherwise), 32 bytes, or a private key "
    "of ledgerkit.keys"
)


def _scheme(scheme: object) -> Scheme:
    if scheme == "ed25519":
        return "ed25519"
    if scheme == "secp256k1":
        return "secp256k1"
    raise InputError(f"scheme is 'ed25519' or 'secp256k1', got {scheme!r}")


def _private_key(key: object, scheme: Scheme | None) -> PrivateKey:
    """The private key of ``key`` given in any of :data:`_FORMS`.

    Errors name the forms taken and never quote ``key``.
    """
    if isinstance(key, Ed25519PrivateKey | Secp256k1PrivateKey):
        given: Scheme = "ed25519" if isinstance(key, Ed25519PrivateKey) else "secp256k1"
        if scheme is not None and scheme != given:
            raise InvalidKeyError(f"scheme={scheme!r} but the key is a {given} key")
        return key
    if isinstance(key, str):
        prefix = _AIP80.match(key)
        if prefix is not None:
            if prefix[1] not in _KEY_CLASSES:
                raise InvalidKeyError(
                    f"an account key is {_FORMS}; got an AIP-80 '{prefix[1]}' key"
                )
            named = _scheme(prefix[1])
            if scheme is not None and scheme != named:
                raise InvalidKeyError(f"scheme={scheme!r} but the key is a {named} key")
            scheme = named
    elif not isinstance(key, bytes | bytearray | memoryview):
        raise InvalidKeyError(f"an account key is {_FORMS}; got a {type(key).__name__}")
    else:
        key = bytes(key)
    return _KEY_CLASSES[scheme or "ed25519"](key)


class Account:
    """A private key and the address it signs for.

    Ed25519 accounts use the legacy Ed25519 authenticator and address scheme;
    secp256k1 accounts sign as a single key. Both give the bytes the official SDKs give
    for the same key and transaction.

    Parameters
    ----------
    private_key : Ed25519PrivateKey or Secp256k1PrivateKey
        The signing key.
    address : Address or str, optional
        The account's address, when the key was rotated to it; by default the address
        the public key gives.

    Examples
    --------
    >>> alice = Account.from_key(Ed25519PrivateKey.from_seed(b"alice"))
    >>> alice.address == alice.public_key.address()
    True
    >>> alice.private_key.secret_hex()[2:] in repr(alice), alice.scheme
    (False, 'ed25519')
    >>> alice.public_key.verify(b"hello", alice.sign_message(b"hello"))
    True
    """

    __slots__ = ("_address", "_key")

    def __init__(
        self,
        private_key: Ed25519PrivateKey | Secp256k1PrivateKey,
        *,
        address: Address | str | None = None,
    ) -> None:
        if not isinstance(private_key, Ed25519PrivateKey | Secp256k1PrivateKey):
            raise InvalidKeyError(
                f"Account() takes a private key of ledgerkit.keys; Account.from_key takes {_FORMS}"
            )
        self._key: Ed25519PrivateKey | Secp256k1PrivateKey = private_key
        self._address = private_key.address() if address is None else Address.parse(address)

    @classmethod
    def generate(cls, scheme: Literal["ed25519", "secp256k1"] = "ed25519") -> Self:
        """A new account with a random key of ``scheme`` (``"ed25519"`` or ``"secp256k1"``)."""
        return cls(_KEY_CLASSES[_scheme(scheme)].generate())

    @classmethod
    def from_key(
        cls,
        key: Ed25519PrivateKey | Secp256k1PrivateKey | str | bytes,
        *,
        scheme: Literal["ed25519", "secp256k1"] | None = None,
        address: Address | str | None = None,
    ) -> Self:
        """The account of a private key.

        Parameters
        ----------
        key : str, bytes, Ed25519PrivateKey or Secp256k1PrivateKey
            AIP-80 text (``ed25519-priv-0x…`` or ``secp256k1-priv-0x…``, which names
            its scheme), 64 hex digits (``0x`` optional) or 32 bytes, or a key object.
        scheme : {"ed25519", "secp256k1"}, optional
            The scheme of bare hex or bytes (Ed25519 when not given); when the key says
            its own scheme, it must agree.
        address : Address or str, optional
            The address, for a key that was rotated to an existing account.

        Raises
        ------
        InvalidKeyError
            ``key`` is none of those forms, or not of ``scheme``. The message names the
            forms taken and never quotes the key.
        """
        return cls(_private_key(key, None if scheme is None else _scheme(scheme)), address=address)

    @property
    def address(self) -> Address:
        """The account's address."""
        return self._address

    @property
    def scheme(self) -> Literal["ed25519", "secp256k1"]:
        """``"ed25519"`` or ``"secp256k1"``."""
        return "ed25519" if isinstance(self._key, Ed25519PrivateKey) else "secp256k1"

    @property
    def public_key(self) -> Ed25519PublicKey | Secp256k1PublicKey:
        """The public key."""
        return self._key.public_key

    @property
    def private_key(self) -> Ed25519PrivateKey | Secp256k1PrivateKey:
        """The private key (whose own ``repr`` hides the secret too)."""
        return self._key

    def sign_message(self, message: bytes) -> bytes:
        """The signature of ``message`` (64 bytes in both schemes)."""
        if not isinstance(message, bytes | bytearray | memoryview):
            raise InputError(f"sign_message takes bytes, got {type(message).__name__}")
        return self._key.sign(bytes(message))

    @overload
    def sign(self, raw: RawTransaction) -> SignedTransaction: ...

    @overload
    def sign(
        self, raw: MultiAgentRawTransaction | FeePayerRawTransaction
    ) -> AccountAuthenticator: ...

    def sign(
        self, raw: RawTransaction | MultiAgentRawTransaction | FeePayerRawTransaction
    ) -> SignedTransaction | AccountAuthenticator:
        """Sign a transaction.

        Parameters
        ----------
        raw : RawTransaction, MultiAgentRawTransaction or FeePayerRawTransaction
            A single-signer transaction, whose sender must be this account; or the
            signing form of a transaction several accounts sign, where this account is
            the sender, a secondary signer or the fee payer.

        Returns
        -------
        SignedTransaction or AccountAuthenticator
            The signed transaction, ready to submit, for a single-signer transaction;
            this account's authenticator otherwise, for
            ``MultiAgentRawTransaction.authenticate`` (or
            ``FeePayerRawTransaction.authenticate``) to combine with the others'.

        Raises
        ------
        SigningError
            This account is not among the transaction's signers.
        """
        if isinstance(raw, RawTransaction):
            if raw.sender != self._address:
                raise SigningError(
                    f"the transaction's sender is {raw.sender}, this account is "
                    f"{self._address} (pass address= for a key rotated to another account)"
                )
            return self._key.sign_transaction(raw)
        if isinstance(raw, MultiAgentRawTransaction | FeePayerRawTransaction):
            signers = [raw.raw.sender, *raw.secondary_signers]
            if isinstance(raw, FeePayerRawTransaction):
                signers.append(raw.fee_payer)
            if self._address not in signers:
                payer = isinstance(raw, FeePayerRawTransaction)
                raise SigningError(
                    f"{self._address} is neither the sender nor a secondary signer"
                    + (" nor the fee payer" if payer else "")
                    + " of this transaction"
                    + (" (the fee payer signs with its address set)" if payer else "")
                )
            return self._key.authenticator(raw.signing_message())
        raise InputError(
            "sign takes a RawTransaction, MultiAgentRawTransaction or FeePayerRawTransaction, "
            f"got {type(raw).__name__} (sign_message signs bytes)"
        )

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(address={self._address}, scheme={self.scheme!r}, "
            f"public_key={self.public_key}, private_key=<secret>)"
        )

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Account)
            and other._address == self._address
            and other._key == self._key
        )

    def __hash__(self) -> int:
        return hash((self._address, self._key))

    def __reduce__(self) -> Any:
        raise TypeError("accounts are not pickled; export the key with secret_hex() on purpose")
