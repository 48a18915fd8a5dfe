"""Keys, accounts and transaction building, signing, simulation, submission and
explanation, and the JSON forms of a transaction for signers without BCS
(:class:`EncodedSubmission`).

I/O-free: checking Python values against a function's ABI and encoding them
(:func:`encode_call`, with struct layouts from the module ABIs an
:class:`~ledgerkit.AbiCache` holds), Move
values between Python and the JSON form (:func:`to_json_form`, :func:`from_json_form`)
and signing a built transaction with its signers (:func:`sign_transaction`). The client
fetches what these need (``client.build_transaction``, ``client.view``,
``client.transfer``).

Simulation is read here without I/O too: :class:`Simulation` (what ``client.simulate``
returns) with its decoded :class:`MoveAbort` and balance changes, and
:func:`signed_with_zeros`, the transaction a node simulates.

The key classes and :class:`~ledgerkit.Account` live in :mod:`ledgerkit.keys`; they are
named here too.
"""

from __future__ import annotations

import warnings
from typing import Any as _Any

from ledgerkit._public import publish as _publish
from ledgerkit.keys import (
    Account,
    Ed25519PrivateKey,
    Ed25519PublicKey,
    Secp256k1PrivateKey,
    Secp256k1PublicKey,
)

# Also named here, where they were first published; at home in ledgerkit.models.
from ledgerkit.models import balance_deltas as balance_deltas
from ledgerkit.models import primary_store_address as primary_store_address
from ledgerkit.models import stores_to_look_up as stores_to_look_up
from ledgerkit.tx import _abi_aliases as _aliases
from ledgerkit.tx._abort_codes import FRAMEWORK_ERRORS
from ledgerkit.tx._aborts import MoveAbort, parse_abort
from ledgerkit.tx._arguments import encode_call, parameter_types, type_arguments_of, value_repr
from ledgerkit.tx._encoded import EncodedSubmission, submission_request
from ledgerkit.tx._explain import (
    EXPLANATION_COLUMNS,
    ExplainedField,
    TransactionExplanation,
    entry_function_of,
    explain_transaction,
)
from ledgerkit.tx._json_form import from_json_form, to_json_form
from ledgerkit.tx._layouts import is_builtin_struct
from ledgerkit.tx._signing import (
    NO_FEE_PAYER,
    SignerParts,
    SigningKey,
    UnsignedTransaction,
    as_signer,
    sender_authenticator,
    sign_transaction,
)
from ledgerkit.tx._simulation import Simulation
from ledgerkit.tx._zero_signatures import signed_with_zeros, zero_authenticator

__all__ = [
    "BALANCE_CHANGE_COLUMNS",
    "EXPLANATION_COLUMNS",
    "FRAMEWORK_ERRORS",
    "NO_FEE_PAYER",
    "Account",
    "Ed25519PrivateKey",
    "Ed25519PublicKey",
    "EncodedSubmission",
    "ExplainedField",
    "MoveAbort",
    "Secp256k1PrivateKey",
    "Secp256k1PublicKey",
    "SignerParts",
    "SigningKey",
    "Simulation",
    "TransactionExplanation",
    "UnsignedTransaction",
    "as_signer",
    "encode_call",
    "entry_function_of",
    "explain_transaction",
    "from_json_form",
    "is_builtin_struct",
    "parameter_types",
    "parse_abort",
    "sender_authenticator",
    "sign_transaction",
    "signed_with_zeros",
    "submission_request",
    "to_json_form",
    "type_arguments_of",
    "value_repr",
    "zero_authenticator",
]

# Public names report where users import them from (see ledgerkit._public); the key
# classes and Account keep their home in ledgerkit.keys.
_KEYS = {
    "Account",
    "Ed25519PrivateKey",
    "Ed25519PublicKey",
    "Secp256k1PrivateKey",
    "Secp256k1PublicKey",
}
_publish(globals(), [n for n in __all__ if n not in _KEYS], __name__)

# The toolkit's ABI holders before the one cache, ledgerkit.AbiCache: deprecated names.
_publish(vars(_aliases), _aliases.__all__, __name__)


def __getattr__(name: str) -> _Any:
    # The columns of Simulation.balance_changes are pandas dtypes: named here, read from
    # ledgerkit.frames when first asked for, so that the client (which builds and
    # simulates through this package) loads no pandas.
    if name == "BALANCE_CHANGE_COLUMNS":
        from ledgerkit.frames import BALANCE_CHANGE_COLUMNS

        return BALANCE_CHANGE_COLUMNS
    if name in _aliases.__all__:
        warnings.warn(
            f"ledgerkit.tx.{name} is deprecated; use ledgerkit.AbiCache, the one cache of ABIs",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(_aliases, name)
    raise AttributeError(f"module 'ledgerkit.tx' has no attribute {name!r}")
