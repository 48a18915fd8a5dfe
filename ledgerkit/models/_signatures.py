"""Signatures: the transaction signature union and the account signatures inside it.

Both unions are told apart by ``type``. A transaction signed by one account with one
scheme is ``ed25519_signature`` or ``multi_ed25519_signature``; multi-agent and fee-payer
transactions hold an account signature per signer; ``single_sender`` wraps one account
signature (single-key, multi-key, abstraction...).

The node writes ``single_sender`` *over* the inner account signature's own ``type``
(facts §5.4): ``{"type": "single_sender", "public_key": {...}, "signature": {...}}``.
:class:`SingleSenderSignature` therefore holds the fields of every account signature
shape, each optional, exactly as sent; its :attr:`~SingleSenderSignature.sender` property
tells the shape by its field names and returns the typed account signature
(:class:`SingleKeySignature`, :class:`MultiKeySignature`, ...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from ledgerkit.models._base import Record, TaggedRecord, U8Int, UnknownVariant

__all__ = [
    "AbstractSignature",
    "AbstractionSignature",
    "AccountSignature",
    "AnyPublicKey",
    "AnySignature",
    "Ed25519Signature",
    "FeePayerSignature",
    "IndexedSignature",
    "KnownAccountSignature",
    "KnownTransactionSignature",
    "MultiAgentSignature",
    "MultiEd25519Signature",
    "MultiKeySignature",
    "NoAccountSignature",
    "SingleKeySignature",
    "SingleSenderSignature",
    "TransactionSignature",
    "UnknownSignature",
]


class AnyPublicKey(Record, frozen=True, kw_only=True):
    """A public key of a named scheme: ``ed25519``, ``secp256k1_ecdsa``, ``secp256r1_ecdsa``,
    ``keyless``, ``federated_keyless``, ``slh_dsa__sha2_128s``...; ``value`` is hex.

    ``type`` is a plain string, so a scheme added by a newer node decodes as well.
    """

    type: str
    value: str


class AnySignature(Record, frozen=True, kw_only=True):
    """A signature of a named scheme: ``ed25519``, ``secp256k1_ecdsa``, ``web_authn``,
    ``keyless``...; ``value`` is hex."""

    type: str
    value: str


class IndexedSignature(Record, frozen=True, kw_only=True):
    """A signature of a multi-key account, with the index of its key in ``public_keys``."""

    index: U8Int
    signature: AnySignature


class Ed25519Signature(TaggedRecord, frozen=True, kw_only=True, tag="ed25519_signature"):
    """One Ed25519 key and its signature (hex): the common transaction signature."""

    public_key: str
    signature: str


class MultiEd25519Signature(TaggedRecord, frozen=True, kw_only=True, tag="multi_ed25519_signature"):
    """A k-of-n Ed25519 account: every key, the signatures given, ``threshold`` (k) and
    the 4-byte ``bitmap`` of which keys signed."""

    public_keys: list[str]
    signatures: list[str]
    threshold: U8Int
    bitmap: str


class SingleKeySignature(TaggedRecord, frozen=True, kw_only=True, tag="single_key_signature"):
    """One key of any scheme and its signature."""

    public_key: AnyPublicKey
    signature: AnySignature


class MultiKeySignature(TaggedRecord, frozen=True, kw_only=True, tag="multi_key_signature"):
    """A k-of-n account whose keys may mix schemes; ``signatures_required`` is k."""

    public_keys: list[AnyPublicKey]
    signatures: list[IndexedSignature]
    signatures_required: U8Int


class NoAccountSignature(TaggedRecord, frozen=True, kw_only=True, tag="no_account_signature"):
    """No signature (an account that needs none, or a simulation)."""


class AbstractSignature(TaggedRecord, frozen=True, kw_only=True, tag="abstract_signature"):
    """Account abstraction: the authenticating function and its data (hex)."""

    function_info: str
    auth_data: str


class AbstractionSignature(
    AbstractSignature, frozen=True, kw_only=True, tag="abstraction_signature"
):
    """:class:`AbstractSignature` under the name the Aug-2025 API gave it."""


class UnknownSignature(UnknownVariant, frozen=True, kw_only=True):
    """A signature (transaction or account) of a ``type`` this version does not know."""


KnownAccountSignature: TypeAlias = (
    Ed25519Signature
    | MultiEd25519Signature
    | SingleKeySignature
    | MultiKeySignature
    | NoAccountSignature
    | AbstractSignature
    | AbstractionSignature
)
AccountSignature: TypeAlias = KnownAccountSignature | UnknownSignature

if TYPE_CHECKING:  # see _changes.py: known variants at run time, all of them for mypy
    AccountSignatureField: TypeAlias = AccountSignature
else:
    AccountSignatureField = KnownAccountSignature


class MultiAgentSignature(TaggedRecord, frozen=True, kw_only=True, tag="multi_agent_signature"):
    """A transaction signed by its sender and secondary signers, in address order."""

    sender: AccountSignatureField
    secondary_signer_addresses: list[str]
    secondary_signers: list[AccountSignatureField]


class FeePayerSignature(TaggedRecord, frozen=True, kw_only=True, tag="fee_payer_signature"):
    """A multi-agent transaction whose gas another account (the fee payer) pays."""

    sender: AccountSignatureField
    secondary_signer_addresses: list[str]
    secondary_signers: list[AccountSignatureField]
    fee_payer_address: str
    fee_payer_signer: AccountSignatureField


class SingleSenderSignature(
    TaggedRecord,
    frozen=True,
    kw_only=True,
    tag="single_sender",
    omit_defaults=True,
    forbid_unknown_fields=True,
):
    """One account signature, flattened into ``single_sender`` by the node.

    The fields are those of whichever account signature the node flattened, each None
    when absent: ``public_key`` + ``signature`` as ``{type, value}`` objects (single
    key) or as hex (Ed25519); ``public_keys`` + ``signatures`` + ``signatures_required``
    (multi-key, signatures are ``{index, signature}``) or + ``threshold`` + ``bitmap``
    (multi-Ed25519); ``function_info`` + ``auth_data`` (abstraction); nothing at all (no
    account signature). Absent fields stay absent in :func:`~ledgerkit.models.to_builtins`.

    Only those shapes decode into this record: a ``single_sender`` with fields of another
    shape (a scheme added by a newer node) decodes as :class:`UnknownSignature`, whole.

    Examples
    --------
    >>> sig = SingleSenderSignature(
    ...     public_key=AnyPublicKey(type="secp256k1_ecdsa", value="0x04ab"),
    ...     signature=AnySignature(type="secp256k1_ecdsa", value="0x1234"),
    ... )
    >>> sig.scheme, sig.is_multi_key
    ('single_key', False)
    >>> sig.sender.public_key.type
    'secp256k1_ecdsa'
    """

    public_key: AnyPublicKey | str | None = None
    signature: AnySignature | str | None = None
    public_keys: list[AnyPublicKey | str] | None = None
    signatures: list[IndexedSignature | str] | None = None
    signatures_required: U8Int | None = None
    threshold: U8Int | None = None
    bitmap: str | None = None
    function_info: str | None = None
    auth_data: str | None = None

    def __post_init__(self) -> None:
        self.sender  # noqa: B018 - raises ValueError on a mix of shapes

    @property
    def scheme(self) -> str:
        """Which account signature this is, told by its fields: ``"single_key"``,
        ``"multi_key"``, ``"ed25519"``, ``"multi_ed25519"``, ``"abstract"`` or
        ``"no_account"``."""
        return _SCHEMES[type(self.sender)]

    @property
    def is_multi_key(self) -> bool:
        """True for a multi-key account (``public_keys`` with ``signatures_required``)."""
        return isinstance(self.sender, MultiKeySignature)

    @property
    def sender(self) -> KnownAccountSignature:
        """The account signature with its own ``type`` restored.

        Raises
        ------
        ValueError
            When the fields are a mix no account signature has (never for a decoded
            record: such a body decodes as :class:`UnknownSignature`).
        """
        pk, sig, keys, sigs = self.public_key, self.signature, self.public_keys, self.signatures
        rest = (self.signatures_required, self.threshold, self.bitmap)
        if keys is None and sigs is None and rest == (None, None, None):
            abstract = (self.function_info, self.auth_data)
            if pk is None and sig is None:
                if abstract == (None, None):
                    return NoAccountSignature()
                if self.function_info is not None and self.auth_data is not None:
                    return AbstractSignature(
                        function_info=self.function_info, auth_data=self.auth_data
                    )
            elif abstract == (None, None):
                if isinstance(pk, AnyPublicKey) and isinstance(sig, AnySignature):
                    return SingleKeySignature(public_key=pk, signature=sig)
                if isinstance(pk, str) and isinstance(sig, str):
                    return Ed25519Signature(public_key=pk, signature=sig)
        elif (
            keys is not None
            and sigs is not None
            and (pk, sig, self.function_info, self.auth_data) == (None, None, None, None)
        ):
            typed_keys = [k for k in keys if isinstance(k, AnyPublicKey)]
            indexed = [s for s in sigs if isinstance(s, IndexedSignature)]
            hex_keys = [k for k in keys if isinstance(k, str)]
            hex_sigs = [s for s in sigs if isinstance(s, str)]
            required, threshold, bitmap = rest
            if (
                required is not None
                and (threshold, bitmap) == (None, None)
                and len(typed_keys) == len(keys)
                and len(indexed) == len(sigs)
            ):
                return MultiKeySignature(
                    public_keys=typed_keys, signatures=indexed, signatures_required=required
                )
            if (
                required is None
                and threshold is not None
                and bitmap is not None
                and len(hex_keys) == len(keys)
                and len(hex_sigs) == len(sigs)
            ):
                return MultiEd25519Signature(
                    public_keys=hex_keys, signatures=hex_sigs, threshold=threshold, bitmap=bitmap
                )
        raise ValueError("single_sender fields that match no account signature shape")


_SCHEMES: dict[type[Record], str] = {
    SingleKeySignature: "single_key",
    MultiKeySignature: "multi_key",
    Ed25519Signature: "ed25519",
    MultiEd25519Signature: "multi_ed25519",
    AbstractSignature: "abstract",
    NoAccountSignature: "no_account",
}

KnownTransactionSignature: TypeAlias = (
    Ed25519Signature
    | MultiEd25519Signature
    | MultiAgentSignature
    | FeePayerSignature
    | SingleSenderSignature
    | NoAccountSignature
)
TransactionSignature: TypeAlias = KnownTransactionSignature | UnknownSignature

if TYPE_CHECKING:
    TransactionSignatureField: TypeAlias = TransactionSignature
else:
    TransactionSignatureField = KnownTransactionSignature
