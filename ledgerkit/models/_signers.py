"""Who signed a user transaction and who paid for it, read from its signature: the fee
payer, the secondary signers, and one name for the kind of authenticator.

The kinds follow the node's signature schemas: see :func:`signature_kind`.

The readers take a full record (a user or pending transaction, or its signature) or the
rows :func:`~ledgerkit.models.decode_transaction_rows` reads; both give the same answers.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from ledgerkit.models._base import Record, UnknownVariant
from ledgerkit.models._signatures import UnknownSignature

__all__ = [
    "SignatureRow",
    "fee_payer",
    "secondary_signers",
    "signature_kind",
    "signature_row",
]

_TOP_LEVEL: Final = {
    "ed25519_signature": "ed25519",
    "multi_ed25519_signature": "multi_ed25519",
    "multi_agent_signature": "multi_agent",
    "fee_payer_signature": "fee_payer",
    "no_account_signature": "no_account",
}


# ``single_sender`` holds one account signature's fields under its own tag; an account
# signature given alone (the sender of a multi-agent transaction) has its own tag.
_ACCOUNT_SIGNATURES: Final = frozenset(
    {
        "single_sender",
        "single_key_signature",
        "multi_key_signature",
        "abstract_signature",
        "abstraction_signature",
    }
)


_WITH_SIGNERS: Final = frozenset({"multi_agent_signature", "fee_payer_signature"})


class SignatureRow(Record, frozen=True, kw_only=True):
    """The fields of a transaction signature that tell its kind and its signers.

    Every field but ``type`` is read as the node sent it, whatever its shape (a newer
    scheme may reuse a name with another shape): the readers check shapes, so a row never
    fails to decode where the full record would decode as an unknown signature. The keys
    and signatures themselves are skipped.
    """

    type: str
    public_key: Any = None
    public_keys: Any = None
    signatures_required: Any = None
    threshold: Any = None
    function_info: Any = None
    secondary_signer_addresses: Any = None
    fee_payer_address: Any = None


_ROW: Final = msgspec.json.Decoder(SignatureRow)
_ENCODE: Final = msgspec.json.Encoder().encode


def _decode_row(body: bytes, kind: Any) -> SignatureRow:
    try:
        return _ROW.decode(body)
    except msgspec.ValidationError:
        return SignatureRow(type=str(kind))


def signature_row(signature: Any) -> SignatureRow | None:
    """The :class:`SignatureRow` of a signature record (None for None)."""
    if signature is None or isinstance(signature, SignatureRow):
        return signature
    if isinstance(signature, UnknownVariant):
        return _decode_row(_ENCODE(signature.raw), signature.type)
    return _decode_row(_ENCODE(signature), signature.__struct_config__.tag)


def _row_of(value: Any) -> SignatureRow | None:
    """The signature row of a transaction, a transaction row or a signature."""
    if value is None or isinstance(value, SignatureRow | UnknownSignature):
        return signature_row(value)
    if isinstance(value, UnknownVariant):  # a transaction of a newer type
        raw = value.raw.get("signature")
        if isinstance(raw, dict) and isinstance(raw.get("type"), str):
            return _decode_row(_ENCODE(raw), raw["type"])
        return None
    if not isinstance(value, Record):
        return None
    tag = value.__struct_config__.tag
    if isinstance(tag, str) and (tag.endswith("_signature") or tag == "single_sender"):
        return signature_row(value)
    return signature_row(getattr(value, "signature", None))


def _single_sender_kind(row: SignatureRow) -> str:
    key, keys = row.public_key, row.public_keys
    if keys is None and row.function_info is None:
        if isinstance(key, dict) and isinstance(key.get("type"), str):
            return f"single_key:{key['type']}"
        if isinstance(key, str):
            return "ed25519"
        if key is None:
            return "no_account"
    elif isinstance(keys, list) and key is None and row.function_info is None:
        if row.signatures_required is not None and row.threshold is None:
            return "multi_key"
        if row.threshold is not None and row.signatures_required is None:
            return "multi_ed25519"
    elif isinstance(row.function_info, str) and key is None and keys is None:
        return "abstract"
    return "single_sender"


def signature_kind(value: Any) -> str | None:
    """The kind of authenticator that signed a transaction (the names are in Notes).

    Parameters
    ----------
    value : Transaction, TransactionRow, TransactionSignature or SignatureRow
        A transaction (user or pending), its row, or its signature; an account
        signature (the sender's or a secondary signer's, inside a multi-agent one) is
        named as it would be under ``single_sender``.

    Returns
    -------
    str or None
        ``"ed25519"``, ``"fee_payer"``, ``"single_key:secp256k1_ecdsa"``...; None for a
        transaction without a signature (every type but user and pending transactions,
        and a user transaction the node sent without one).

    Notes
    -----
    The kinds follow the node API's signature schemas (the ``TransactionSignature`` union
    and, inside ``single_sender``, the ``AccountSignature`` and ``PublicKey`` unions):

    ===================================  ==================================================
    kind                                 the signature
    ===================================  ==================================================
    ``ed25519``                          ``ed25519_signature``, or ``single_sender`` over an
                                         Ed25519 account signature
    ``multi_ed25519``                    ``multi_ed25519_signature``, or ``single_sender``
                                         over one
    ``multi_agent``                      ``multi_agent_signature``: sender and secondary signers
    ``fee_payer``                        ``fee_payer_signature``: another account pays the gas
    ``single_key:<key>``                 ``single_sender`` over a single-key account signature;
                                         ``<key>`` is the public key's type: ``ed25519``,
                                         ``secp256k1_ecdsa``, ``secp256r1_ecdsa`` (WebAuthn
                                         passkeys too), ``keyless``, ``federated_keyless``,
                                         ``slh_dsa__sha2_128s``, or a newer one as sent
    ``multi_key``                        ``single_sender`` over a multi-key account signature
    ``abstract``                         ``single_sender`` over an account-abstraction signature
    ``no_account``                       ``no_account_signature``, or ``single_sender`` with none
    ===================================  ==================================================

    A signature ``type`` this version does not know is named by that ``type`` as the node
    sent it; a ``single_sender`` of a shape no account signature has is ``single_sender``.

    Examples
    --------
    >>> signature_kind(client.transaction_by_version(1234).value)  # doctest: +SKIP
    'single_key:keyless'
    """
    row = value if type(value) is SignatureRow else _row_of(value)
    if row is None:
        return None
    kind = row.type
    if kind in _ACCOUNT_SIGNATURES:
        return _single_sender_kind(row)
    return _TOP_LEVEL.get(kind, kind)


def fee_payer(value: Any) -> str | None:
    """The address of the account that pays a transaction's gas, when another than the
    sender does (a ``fee_payer_signature``); None otherwise.

    ``value`` is read as by :func:`signature_kind`; the address is as the node wrote it
    (``Address.parse(...)`` gives the long form).
    """
    row = value if type(value) is SignatureRow else _row_of(value)
    if row is None or row.type != "fee_payer_signature":
        return None
    payer = row.fee_payer_address
    return payer if isinstance(payer, str) else None


def secondary_signers(value: Any) -> tuple[str, ...]:
    """The secondary signers of a multi-agent or fee-payer transaction, in the order the
    transaction lists them (empty for other signatures).

    ``value`` is read as by :func:`signature_kind`; addresses are as the node wrote them.
    """
    row = value if type(value) is SignatureRow else _row_of(value)
    if row is None or row.type not in _WITH_SIGNERS:
        return ()
    found = row.secondary_signer_addresses
    if not isinstance(found, list):
        return ()
    return tuple(item for item in found if isinstance(item, str))
