"""Transactions signed with zeros, for simulation.

Nodes refuse to simulate a transaction whose signatures verify (a simulation must not be
replayable as the real thing), yet they check each signer's public key against its
account's authentication key. So each signer is given its public key and a signature of
zeros: an Ed25519 key as a plain Ed25519 authenticator, a secp256k1 key (or any
:class:`~ledgerkit.bcs.AnyPublicKey`) as a single-key one. A signer whose key is not
given gets no authenticator at all (``NoAccountAuthenticator``), which nodes with the
simulation enhancements accept in place of the signature checks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ledgerkit._errors import InputError, SigningError
from ledgerkit.bcs import (
    AccountAuthenticator,
    AnyPublicKey,
    AnySignature,
    Ed25519Authenticator,
    FeePayerRawTransaction,
    MultiAgentRawTransaction,
    NoAccountAuthenticator,
    RawTransaction,
    SignedTransaction,
    SingleKeyAuthenticator,
    SingleSenderAuthenticator,
)
from ledgerkit.keys import Ed25519PublicKey, Secp256k1PublicKey
from ledgerkit.tx._signing import UnsignedTransaction
from ledgerkit.types import HexBytes

__all__ = ["KeyLike", "UnsignedTransaction", "signed_with_zeros", "zero_authenticator"]

_ZERO_SIGNATURE: Final = bytes(64)

#: A signer (anything with ``public_key``), a public key, or its bytes or hex (32 bytes:
#: Ed25519, 65 bytes: secp256k1).
KeyLike = object


def _public_key(key: object, what: str) -> Ed25519PublicKey | Secp256k1PublicKey | AnyPublicKey:
    inner = getattr(key, "public_key", None)  # an account or a private key
    if inner is not None and not callable(inner):
        key = inner
    if isinstance(key, Ed25519PublicKey | Secp256k1PublicKey | AnyPublicKey):
        return key
    if isinstance(key, str | bytes | bytearray):
        try:
            raw = bytes(HexBytes.parse(key)) if isinstance(key, str) else bytes(key)
        except InputError:
            raw = b""
        try:
            if len(raw) == 32:
                return Ed25519PublicKey(raw)
            if len(raw) == 65:
                return Secp256k1PublicKey(raw)
        except SigningError as exc:
            raise InputError(f"{what}: {exc}") from None
    raise InputError(
        f"{what} must be an account or a private key (anything with public_key), or an "
        f"Ed25519 or secp256k1 public key, got {type(key).__name__}"
    )


def zero_authenticator(key: KeyLike | None, what: str = "the key") -> AccountAuthenticator:
    """An account authenticator carrying ``key``'s public key and a signature of zeros
    (``NoAccountAuthenticator`` when ``key`` is None)."""
    if key is None:
        return NoAccountAuthenticator()
    public = _public_key(key, what)
    if isinstance(public, Ed25519PublicKey):
        return Ed25519Authenticator(bytes(public), _ZERO_SIGNATURE)
    if isinstance(public, Secp256k1PublicKey):
        public = AnyPublicKey("secp256k1_ecdsa", bytes(public))
    if public.scheme not in ("ed25519", "secp256k1_ecdsa"):
        raise InputError(f"{what}: cannot sign with zeros for a {public.scheme} key")
    return SingleKeyAuthenticator(public, AnySignature(public.scheme, _ZERO_SIGNATURE))


def signed_with_zeros(
    transaction: UnsignedTransaction,
    sender: KeyLike,
    *,
    secondary_signers: Sequence[KeyLike | None] | None = None,
    fee_payer: KeyLike | None = None,
) -> SignedTransaction:
    """``transaction`` signed with zeros by each signer, ready to simulate.

    Parameters
    ----------
    transaction : RawTransaction, MultiAgentRawTransaction or FeePayerRawTransaction
        What to sign; the multi-agent and fee-payer forms name their secondary signers
        and fee payer.
    sender : account or public key
        The sender's key.
    secondary_signers : sequence, optional
        One key (or None) per secondary signer, in the transaction's order; omitted,
        none of them gets an authenticator.
    fee_payer : account or public key, optional
        The fee payer's key; omitted, it gets no authenticator (which is what a fee
        payer ``0x0``, "not known yet", takes).

    Raises
    ------
    InputError
        A key is of no known kind, the number of secondary keys is wrong, or keys are
        given for signers the transaction does not have.
    """
    sender_auth = zero_authenticator(sender, "the sender's key")
    if isinstance(transaction, RawTransaction):
        if secondary_signers or fee_payer is not None:
            raise InputError(
                "a RawTransaction has no secondary signers or fee payer: wrap it in a "
                "MultiAgentRawTransaction or a FeePayerRawTransaction"
            )
        if isinstance(sender_auth, Ed25519Authenticator):
            return SignedTransaction(transaction, sender_auth)
        return SignedTransaction(transaction, SingleSenderAuthenticator(sender_auth))
    if not isinstance(transaction, MultiAgentRawTransaction | FeePayerRawTransaction):
        raise InputError(
            "simulate a RawTransaction, MultiAgentRawTransaction, FeePayerRawTransaction or "
            f"SignedTransaction, got {type(transaction).__name__}"
        )
    addresses = transaction.secondary_signers
    keys = list(secondary_signers) if secondary_signers is not None else [None] * len(addresses)
    if isinstance(secondary_signers, str | bytes) or len(keys) != len(addresses):
        raise InputError(
            f"the transaction has {len(addresses)} secondary signer(s): give one key "
            "(or None) for each"
        )
    secondary = tuple(
        zero_authenticator(key, f"secondary signer {i}'s key") for i, key in enumerate(keys)
    )
    if isinstance(transaction, MultiAgentRawTransaction):
        if fee_payer is not None:
            raise InputError("a MultiAgentRawTransaction has no fee payer")
        return transaction.authenticate(sender_auth, secondary)
    payer = zero_authenticator(fee_payer, "the fee payer's key")
    return transaction.authenticate(sender_auth, secondary, payer)
