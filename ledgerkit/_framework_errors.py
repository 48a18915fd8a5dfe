"""The error constants the framework modules declare, as one table for the client and the
embedded node.

Move aborts with a ``u64`` code; by the ``std::error`` convention it is
``category << 16 | reason``, where the category says what kind of failure it is and the
reason is the module's own ``E...`` constant. A module declares each constant's name and
what it means (its error map); a node names an abort from the aborting module's map, found
by the code's low 12 bits, then by the whole code (:func:`declared_error`). The embedded
node's modules declare these constants and name their aborts from this table; the client
names from it what a node left unnamed, so both give an abort code one name.

Keys are ``(module, reason)`` with the module as ``address::name`` (short address form).
Names are the framework's constants; the descriptions are written for this table.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

__all__ = ["FRAMEWORK_ERRORS", "declared_error"]

_COIN: Final = {
    1: (
        "ECOIN_INFO_ADDRESS_MISMATCH",
        "The coin was initialized by an account other than its module's publisher",
    ),
    2: ("ECOIN_INFO_ALREADY_PUBLISHED", "The coin type is initialized already"),
    3: ("ECOIN_INFO_NOT_PUBLISHED", "The coin type has not been initialized"),
    4: ("ECOIN_STORE_ALREADY_PUBLISHED", "The account already has a CoinStore for this coin type"),
    5: ("ECOIN_STORE_NOT_PUBLISHED", "The account has no CoinStore for this coin type"),
    6: ("EINSUFFICIENT_BALANCE", "The balance is too small for the amount asked"),
    7: ("EDESTRUCTION_OF_NONZERO_TOKEN", "Coins with a non-zero value cannot be destroyed"),
    10: ("EFROZEN", "The CoinStore is frozen: nothing can be deposited or withdrawn"),
    11: ("ECOIN_SUPPLY_UPGRADE_NOT_SUPPORTED", "The coin's supply cannot change implementation"),
    12: ("ECOIN_NAME_TOO_LONG", "The coin's name is too long"),
    13: ("ECOIN_SYMBOL_TOO_LONG", "The coin's symbol is too long"),
    14: (
        "EAGGREGATABLE_COIN_VALUE_TOO_LARGE",
        "An aggregatable coin's value does not fit in a u64",
    ),
    15: ("EPAIRED_COIN", "The fungible asset has no paired coin type"),
    16: ("EPAIRED_FUNGIBLE_ASSET", "The coin type has no paired fungible asset"),
    17: ("ECOIN_TYPE_MISMATCH", "The paired coin type is not the type argument given"),
    18: (
        "ECOIN_TO_FUNGIBLE_ASSET_FEATURE_NOT_ENABLED",
        "Coin to fungible asset migration is not enabled",
    ),
    19: ("EPAIRED_FUNGIBLE_ASSET_REFS_NOT_FOUND", "The paired fungible asset's refs are missing"),
    20: ("EMINT_REF_RECEIPT_MISMATCH", "The mint ref receipt is for another mint ref"),
    21: ("EMINT_REF_NOT_FOUND", "The mint ref is missing"),
    22: ("ETRANSFER_REF_RECEIPT_MISMATCH", "The transfer ref receipt is for another transfer ref"),
    23: ("ETRANSFER_REF_NOT_FOUND", "The transfer ref is missing"),
    24: ("EBURN_REF_RECEIPT_MISMATCH", "The burn ref receipt is for another burn ref"),
    25: ("EBURN_REF_NOT_FOUND", "The burn ref is missing"),
    26: (
        "EMIGRATION_FRAMEWORK_NOT_ENABLED",
        "Migration from coin to fungible asset is not enabled yet",
    ),
    27: ("ECOIN_CONVERSION_MAP_NOT_FOUND", "The coin conversion map has not been created"),
    28: ("EAPT_PAIRING_IS_NOT_ENABLED", "Pairing APT with a fungible asset is not enabled yet"),
    29: ("ECOIN_DECIMALS_TOO_LARGE", "The coin has more than 32 decimals"),
}

_FUNGIBLE_ASSET: Final = {
    1: ("EAMOUNT_CANNOT_BE_ZERO", "The amount must not be zero"),
    2: ("ETRANSFER_REF_AND_FUNGIBLE_ASSET_MISMATCH", "The transfer ref is for another asset"),
    3: ("ESTORE_IS_FROZEN", "The store is frozen: it can neither send nor receive this asset"),
    4: ("EINSUFFICIENT_BALANCE", "The store's balance is too small for the amount asked"),
    5: ("EMAX_SUPPLY_EXCEEDED", "The asset's supply would exceed its maximum"),
    6: ("EFUNGIBLE_ASSET_MISMATCH", "Two different assets cannot be merged"),
    7: ("EMINT_REF_AND_STORE_MISMATCH", "The mint ref is for another store's asset"),
    8: ("ENOT_STORE_OWNER", "The signer does not own the store"),
    9: ("ETRANSFER_REF_AND_STORE_MISMATCH", "The transfer ref is for another store's asset"),
    10: ("EBURN_REF_AND_STORE_MISMATCH", "The burn ref is for another store's asset"),
    11: ("EFUNGIBLE_ASSET_AND_STORE_MISMATCH", "The asset is not the one the store holds"),
    12: ("EAMOUNT_IS_NOT_ZERO", "A non-empty fungible asset cannot be destroyed"),
    13: ("EBURN_REF_AND_FUNGIBLE_ASSET_MISMATCH", "The burn ref is for another asset"),
    14: ("EBALANCE_IS_NOT_ZERO", "A store with a balance cannot be deleted"),
    15: ("ENAME_TOO_LONG", "The asset's name is too long"),
    16: ("ESYMBOL_TOO_LONG", "The asset's symbol is too long"),
    17: ("EDECIMALS_TOO_LARGE", "The asset has more than 32 decimals"),
    18: ("EOBJECT_IS_DELETABLE", "Only objects that cannot be deleted can be made fungible"),
    19: ("EURI_TOO_LONG", "A URI of the asset's metadata is too long"),
    20: ("ESUPPLY_UNDERFLOW", "The asset's supply would go below zero"),
    21: ("ESUPPLY_NOT_FOUND", "The asset's metadata object has no supply"),
    22: ("ECONCURRENT_SUPPLY_NOT_ENABLED", "Concurrent supply is not enabled"),
    23: ("EFUNGIBLE_STORE_EXISTENCE", "No fungible store exists at that address"),
    24: ("ENOT_METADATA_OWNER", "The signer does not own the asset's metadata object"),
    25: ("EWITHDRAW_FUNCTION_SIGNATURE_MISMATCH", "The withdraw hook has the wrong signature"),
    26: ("EDEPOSIT_FUNCTION_SIGNATURE_MISMATCH", "The deposit hook has the wrong signature"),
    27: (
        "EDERIVED_BALANCE_FUNCTION_SIGNATURE_MISMATCH",
        "The derived balance hook has the wrong signature",
    ),
    28: (
        "EINVALID_DISPATCHABLE_OPERATIONS",
        "This asset has dispatch hooks: move it through dispatchable_fungible_asset",
    ),
    29: ("EALREADY_REGISTERED", "Dispatch hooks are registered already"),
    30: ("EFUNGIBLE_METADATA_EXISTENCE", "No fungible asset metadata exists at that address"),
    31: ("EAPT_NOT_DISPATCHABLE", "APT cannot have dispatch hooks"),
    32: ("ECONCURRENT_BALANCE_NOT_ENABLED", "Concurrent balances are not enabled"),
    33: (
        "EDERIVED_SUPPLY_FUNCTION_SIGNATURE_MISMATCH",
        "The derived supply hook has the wrong signature",
    ),
    34: (
        "ERAW_BALANCE_REF_AND_FUNGIBLE_ASSET_MISMATCH",
        "The raw balance ref is for another asset",
    ),
    35: ("ERAW_SUPPLY_REF_AND_FUNGIBLE_ASSET_MISMATCH", "The raw supply ref is for another asset"),
    36: ("EWITHDRAW_PERMISSION_DENIED", "The signer may not withdraw from this store"),
}

_ACCOUNT: Final = {
    1: ("EACCOUNT_ALREADY_EXISTS", "An account exists at that address already"),
    2: ("EACCOUNT_DOES_NOT_EXIST", "No account exists at that address"),
    3: ("ESEQUENCE_NUMBER_TOO_BIG", "The sequence number would not fit in a u64"),
    4: ("EMALFORMED_AUTHENTICATION_KEY", "The authentication key is not 32 bytes"),
    5: ("ECANNOT_RESERVED_ADDRESS", "Accounts cannot be created at a reserved address"),
    6: ("EOUT_OF_GAS", "The transaction ran out of its max gas"),
    7: ("EWRONG_CURRENT_PUBLIC_KEY", "The current public key given is not the account's"),
    8: ("EINVALID_PROOF_OF_KNOWLEDGE", "The proof of knowledge of the new key does not verify"),
    9: ("ENO_CAPABILITY", "The caller holds no signature-based capability for this"),
    10: (
        "EINVALID_ACCEPT_ROTATION_CAPABILITY",
        "No valid rotation capability offer from that account",
    ),
    11: ("ENO_VALID_FRAMEWORK_RESERVED_ADDRESS", "Not a reserved address of the framework"),
    12: ("EINVALID_SCHEME", "The key scheme is not one this operation takes"),
    13: ("EINVALID_ORIGINATING_ADDRESS", "The originating address is not the one on chain"),
    14: ("ENO_SUCH_SIGNER_CAPABILITY", "No signer capability offer at that address"),
    15: (
        "ERESOURCE_ACCCOUNT_EXISTS",
        "A resource account cannot be created over a claimed account",
    ),
    16: (
        "EACCOUNT_ALREADY_USED",
        "A resource account cannot be created over an account that has transacted",
    ),
    17: ("EOFFERER_ADDRESS_DOES_NOT_EXIST", "The offering account does not exist"),
    18: ("ENO_SUCH_ROTATION_CAPABILITY_OFFER", "No rotation capability offer at that address"),
    19: ("ENO_SIGNER_CAPABILITY_OFFERED", "The signer capability is offered to no one"),
    20: ("EEXCEEDED_MAX_GUID_CREATION_NUM", "The account has created as many GUIDs as it may"),
    21: (
        "ENEW_AUTH_KEY_ALREADY_MAPPED",
        "The new authentication key is mapped to an address already",
    ),
    22: ("ENEW_AUTH_KEY_SAME_AS_CURRENT", "The new authentication key is the current one"),
    24: ("EUNRECOGNIZED_SCHEME", "The key scheme is not one the framework knows"),
    25: ("ENOT_A_KEYLESS_PUBLIC_KEY", "The public key is not a keyless one"),
    26: (
        "ENOT_THE_ORIGINAL_PUBLIC_KEY",
        "The public key is not the account's original one",
    ),
    27: ("ESET_ORIGINATING_ADDRESS_DISABLED", "Setting the originating address is disabled"),
    28: ("EENCRYPTED_DK_TOO_LONG", "The encrypted decryption key is too long"),
    29: ("EENCRYPTED_DK_NOT_FOUND", "No encrypted decryption key at that address"),
    30: ("EPERMISSIONED_SIGNER_REMOVED", "Permissioned signers are no longer supported"),
    31: (
        "ESEQ_NUM_PROOF_REPLAYABLE_CONTEXT",
        "A proof over a sequence number cannot be used in an orderless or multisig transaction",
    ),
}

_APTOS_ACCOUNT: Final = {
    1: ("EACCOUNT_NOT_FOUND", "No account exists at that address"),
    2: ("EACCOUNT_NOT_REGISTERED_FOR_APT", "The account is not registered to receive APT"),
    3: (
        "EACCOUNT_DOES_NOT_ACCEPT_DIRECT_COIN_TRANSFERS",
        "The account takes no coins it has not registered for",
    ),
    4: (
        "EACCOUNT_DOES_NOT_ACCEPT_DIRECT_TOKEN_TRANSFERS",
        "The account takes no direct token transfers",
    ),
    5: (
        "EMISMATCHING_RECIPIENTS_AND_AMOUNTS_LENGTH",
        "There are not as many amounts as recipients",
    ),
}

_OBJECT: Final = {
    1: ("EOBJECT_EXISTS", "An object exists at that address already"),
    2: ("EOBJECT_DOES_NOT_EXIST", "No object exists at that address"),
    3: ("ENO_UNGATED_TRANSFERS", "The object can only be transferred with its transfer ref"),
    4: ("ENOT_OBJECT_OWNER", "The signer does not own the object"),
    5: ("ECANNOT_DELETE", "The object cannot be deleted"),
    6: ("EMAXIMUM_NESTING", "The object is nested too deep to transfer"),
    7: ("ERESOURCE_DOES_NOT_EXIST", "The object holds no resource of that type"),
    8: ("EOBJECT_NOT_BURNT", "Only a burnt object can be reclaimed"),
    9: ("EOBJECT_NOT_TRANSFERRABLE", "The object cannot be transferred at all"),
    10: ("EOBJECT_ALREADY_BURNT", "The object is burnt already"),
}

_TRANSACTION_VALIDATION: Final = {
    1005: ("PROLOGUE_ECANT_PAY_GAS_DEPOSIT", "The gas payer's balance cannot cover the gas fee"),
}

_MULTISIG_ACCOUNT: Final = {
    1: ("EDUPLICATE_OWNER", "An owner is listed twice"),
    2002: ("EACCOUNT_NOT_MULTISIG", "The account is not a multisig account"),
    2003: ("ENOT_OWNER", "The signer is not an owner of the multisig account"),
    4: ("EPAYLOAD_CANNOT_BE_EMPTY", "A call's payload cannot be empty"),
    5: ("ENOT_ENOUGH_OWNERS", "There are fewer owners than the signatures required"),
    2006: ("ETRANSACTION_NOT_FOUND", "No pending call has that sequence number"),
    2008: ("EPAYLOAD_DOES_NOT_MATCH_HASH", "The payload's hash is not the one stored"),
    2009: ("ENOT_ENOUGH_APPROVALS", "The call has fewer approvals than required"),
    2010: ("EPAYLOAD_DOES_NOT_MATCH", "The payload is not the one stored"),
    10: ("ENOT_ENOUGH_REJECTIONS", "The call has fewer rejections than required"),
    11: (
        "EINVALID_SIGNATURES_REQUIRED",
        "The signatures required must be above zero and at most the number of owners",
    ),
    12: ("EINVALID_PAYLOAD_HASH", "A payload hash is 32 bytes"),
    13: (
        "EOWNER_CANNOT_BE_MULTISIG_ACCOUNT_ITSELF",
        "The multisig account cannot own itself",
    ),
    14: ("EMULTISIG_ACCOUNTS_NOT_ENABLED_YET", "Multisig accounts are not enabled yet"),
    15: (
        "ENUMBER_OF_METADATA_KEYS_AND_VALUES_DONT_MATCH",
        "There are not as many metadata values as keys",
    ),
    16: ("EDUPLICATE_METADATA_KEY", "A metadata key is listed twice"),
    17: ("EINVALID_SEQUENCE_NUMBER", "No call has that sequence number"),
    18: (
        "EOWNERS_TO_REMOVE_NEW_OWNERS_OVERLAP",
        "An owner cannot be added and removed at once",
    ),
    19: ("EMAX_PENDING_TRANSACTIONS_EXCEEDED", "The account has as many pending calls as it may"),
    20: ("EMULTISIG_V2_ENHANCEMENT_NOT_ENABLED", "Multisig v2 enhancements are not enabled yet"),
}

# The demo application of the embedded node.
_LEDGER_DEMO: Final = {
    1: ("ELEVEL_TOO_HIGH", "A profile's level is above the highest allowed"),
    2: ("ESCORE_OVERFLOW", "The score would overflow a u64"),
}

# The token standard v1 at 0x3 (aptos-token), and the simple map its property maps use.
_TOKEN_V1: Final = {
    0: ("EALREADY_HAS_BALANCE", "The account already holds a balance of this token"),
    1: ("ECOLLECTIONS_NOT_PUBLISHED", "The creator has no Collections resource"),
    2: ("ECOLLECTION_NOT_PUBLISHED", "The creator has no collection of that name"),
    3: ("ECOLLECTION_ALREADY_EXISTS", "The creator has a collection of that name already"),
    4: (
        "ECREATE_WOULD_EXCEED_COLLECTION_MAXIMUM",
        "One more token data would pass the collection's maximum",
    ),
    5: ("EINSUFFICIENT_BALANCE", "The token balance is smaller than the amount asked"),
    6: ("EINVALID_TOKEN_MERGE", "Only tokens of the same id can be merged"),
    7: ("EMINT_WOULD_EXCEED_TOKEN_MAXIMUM", "Minting that amount would pass the token's maximum"),
    8: ("ENO_BURN_CAPABILITY", "The signer cannot burn this token"),
    9: ("ETOKEN_DATA_ALREADY_EXISTS", "The collection has a token data of that name already"),
    10: ("ETOKEN_DATA_NOT_PUBLISHED", "No token data of that id exists"),
    11: ("ETOKEN_STORE_NOT_PUBLISHED", "The account has no TokenStore"),
    12: (
        "ETOKEN_SPLIT_AMOUNT_LARGER_OR_EQUAL_TO_TOKEN_AMOUNT",
        "A split must leave some of the token behind",
    ),
    13: ("EFIELD_NOT_MUTABLE", "That field was created immutable"),
    14: ("ENO_MUTATE_CAPABILITY", "Only the creator can change this token"),
    15: ("ENO_TOKEN_IN_TOKEN_STORE", "The TokenStore holds no token of that id"),
    16: ("EUSER_NOT_OPT_IN_DIRECT_TRANSFER", "The receiver has not opted in to direct transfers"),
    17: ("EWITHDRAW_ZERO", "A withdrawal of zero tokens is refused"),
    18: ("ENFT_NOT_SPLITABLE", "A token with a property version above 0 cannot be split"),
    19: ("ENO_MINT_CAPABILITY", "Only the creator can mint this token"),
    25: ("ECOLLECTION_NAME_TOO_LONG", "The collection name is longer than 128 bytes"),
    26: ("ENFT_NAME_TOO_LONG", "The token name is longer than 128 bytes"),
    27: ("EURI_TOO_LONG", "The URI is longer than 512 bytes"),
    28: ("ENO_DEPOSIT_TOKEN_WITH_ZERO_AMOUNT", "A deposit of zero tokens is refused"),
    29: ("ENO_BURN_TOKEN_WITH_ZERO_AMOUNT", "Burning zero tokens is refused"),
    30: ("EOWNER_CANNOT_BURN_TOKEN", "The token's properties do not let its owner burn it"),
    31: ("ECREATOR_CANNOT_BURN_TOKEN", "The token's properties do not let its creator burn it"),
    32: ("ECANNOT_UPDATE_RESERVED_PROPERTY", "A reserved property cannot be changed"),
    33: ("ETOKEN_CANNOT_HAVE_ZERO_AMOUNT", "A token must have an amount above zero"),
    34: (
        "EINVALID_ROYALTY_NUMERATOR_DENOMINATOR",
        "The royalty's numerator is larger than its denominator",
    ),
    35: ("EROYALTY_PAYEE_ACCOUNT_DOES_NOT_EXIST", "The royalty payee account does not exist"),
    36: ("EINVALID_MAXIMUM", "The new maximum is invalid for this supply"),
    37: ("ETOKEN_PROPERTIES_COUNT_NOT_MATCH", "Keys, values and types differ in number"),
    38: (
        "EINSUFFICIENT_WITHDRAW_CAPABILITY_AMOUNT",
        "The withdraw capability is for a smaller amount",
    ),
    39: ("EWITHDRAW_PROOF_EXPIRES", "The withdraw capability has expired"),
    40: ("EPROPERTY_RESERVED_BY_STANDARD", "Property keys starting TOKEN_ are the standard's"),
}

_TOKEN_TRANSFERS: Final = {
    1: ("ETOKEN_OFFER_NOT_EXIST", "No such token offer exists"),
}

_PROPERTY_MAP_V1: Final = {
    1: ("EKEY_AREADY_EXIST_IN_PROPERTY_MAP", "The property map has that key already"),
    2: ("EPROPERTY_NUMBER_EXCEED_LIMIT", "A property map holds at most 1000 properties"),
    3: ("EPROPERTY_NOT_EXIST", "The property map has no such key"),
    4: ("EKEY_COUNT_NOT_MATCH_VALUE_COUNT", "There are not as many values as keys"),
    5: ("EKEY_COUNT_NOT_MATCH_TYPE_COUNT", "There are not as many types as keys"),
    6: ("ETYPE_NOT_MATCH", "The property is of another type"),
    7: ("EPROPERTY_MAP_NAME_TOO_LONG", "A property key is longer than 128 bytes"),
}

_SIMPLE_MAP: Final = {
    1: ("EKEY_ALREADY_EXISTS", "The map has that key already"),
    2: ("EKEY_NOT_FOUND", "The map has no such key"),
}

_ED25519: Final = {
    1: ("E_WRONG_PUBKEY_SIZE", "An Ed25519 public key is 32 bytes"),
    2: ("E_WRONG_SIGNATURE_SIZE", "An Ed25519 signature is 64 bytes"),
}

_MULTI_ED25519: Final = {
    1: (
        "E_WRONG_PUBKEY_SIZE",
        "A multi-Ed25519 public key is 1 to 32 keys of 32 bytes and a threshold",
    ),
    2: (
        "E_WRONG_SIGNATURE_SIZE",
        "A multi-Ed25519 signature is 64-byte signatures and a 4-byte bitmap",
    ),
    3: (
        "E_INVALID_THRESHOLD_OR_NUMBER_OF_SIGNERS",
        "The threshold is not between 1 and the number of keys",
    ),
    4: ("E_NATIVE_FUN_NOT_AVAILABLE", "The native function is not available yet"),
}

#: ``0x1::option`` declares whole codes, category included.
_OPTION: Final = {
    0x40000: ("EOPTION_IS_SET", "The option holds a value where it should hold none"),
    0x40001: ("EOPTION_NOT_SET", "The option holds no value where it should hold one"),
    0x40002: ("EOPTION_VEC_TOO_LONG", "An option cannot be made of two or more values"),
}

_STRING: Final = {
    1: ("EINVALID_UTF8", "The bytes are not valid UTF-8"),
    2: ("EINVALID_INDEX", "The index is out of range or not at a character boundary"),
}

_MANAGED_COIN: Final = {
    1: ("ENO_CAPABILITIES", "The account holds no mint and burn capabilities of the coin"),
}
# The digital asset package at 0x4 and the standard modules it aborts in.
_APTOS_TOKEN: Final = {
    1: ("ECOLLECTION_DOES_NOT_EXIST", "The collection does not exist"),
    2: ("ETOKEN_DOES_NOT_EXIST", "The token does not exist"),
    3: ("ENOT_CREATOR", "The signer is not the creator of the collection or token"),
    4: ("EFIELD_NOT_MUTABLE", "The collection does not allow that field to change"),
    5: ("ETOKEN_NOT_BURNABLE", "The collection does not let its creator burn tokens"),
    6: ("EPROPERTIES_NOT_MUTABLE", "The collection does not allow token properties to change"),
}
_COLLECTION: Final = {
    1: ("ECOLLECTION_DOES_NOT_EXIST", "The collection does not exist"),
    2: ("ECOLLECTION_SUPPLY_EXCEEDED", "The collection has reached its maximum supply"),
    3: ("ECOLLECTION_NAME_TOO_LONG", "The collection name is over 128 bytes"),
    4: ("EURI_TOO_LONG", "The URI is over 512 bytes"),
    5: ("EDESCRIPTION_TOO_LONG", "The description is over 2048 bytes"),
    6: ("EMAX_SUPPLY_CANNOT_BE_ZERO", "A fixed supply collection needs a maximum above zero"),
    7: ("ECONCURRENT_NOT_ENABLED", "Concurrent supply is not enabled"),
    8: ("EALREADY_CONCURRENT", "The collection's supply is concurrent already"),
    9: ("EINVALID_MAX_SUPPLY", "The new maximum supply is below the current supply"),
    10: ("ENO_MAX_SUPPLY_IN_COLLECTION", "The collection has no maximum supply to change"),
    11: ("ECOLLECTION_OWNER_NOT_SUPPORTED", "Collection owners are not enabled"),
}
_TOKEN: Final = {
    1: ("ETOKEN_DOES_NOT_EXIST", "The token does not exist"),
    2: ("ENOT_CREATOR", "The signer is not the creator of the collection"),
    3: ("EFIELD_NOT_MUTABLE", "The field cannot change"),
    4: ("ETOKEN_NAME_TOO_LONG", "The token name is over 128 bytes"),
    5: ("EURI_TOO_LONG", "The URI is over 512 bytes"),
    6: ("EDESCRIPTION_TOO_LONG", "The description is over 2048 bytes"),
    7: ("ESEED_TOO_LONG", "The seed is over 128 bytes"),
    8: ("ENOT_OWNER", "The signer does not own the collection"),
    9: ("ECOLLECTION_OWNER_NOT_SUPPORTED", "Collection owners are not enabled"),
}
_ROYALTY: Final = {
    1: ("EROYALTY_DOES_NOT_EXIST", "No royalty exists there"),
    2: ("EROYALTY_EXCEEDS_MAXIMUM", "The royalty numerator is above its denominator"),
    3: ("EROYALTY_DENOMINATOR_IS_ZERO", "The royalty denominator is zero"),
}
_PROPERTY_MAP: Final = {
    1: ("EPROPERTY_MAP_DOES_NOT_EXIST", "The object has no property map"),
    2: ("EKEY_ALREADY_EXISTS_IN_PROPERTY_MAP", "The property exists already"),
    3: ("ETOO_MANY_PROPERTIES", "More than 1000 properties"),
    4: ("EKEY_VALUE_COUNT_MISMATCH", "There are not as many values as keys"),
    5: ("EKEY_TYPE_COUNT_MISMATCH", "There are not as many types as keys"),
    6: ("ETYPE_MISMATCH", "The property has another type"),
    7: ("ETYPE_INVALID", "The property type is not one a property map holds"),
    8: ("EPROPERTY_MAP_KEY_TOO_LONG", "The property name is over 128 bytes"),
}
_CODE: Final = {
    1: ("EMODULE_NAME_CLASH", "A module of the package is published by another package here"),
    2: ("EUPGRADE_IMMUTABLE", "The package is immutable: it cannot be upgraded"),
    3: ("EUPGRADE_WEAKER_POLICY", "An upgrade cannot weaken the package's upgrade policy"),
    4: ("EMODULE_MISSING", "An upgrade must keep every module of the package"),
    5: ("EPACKAGE_DEP_MISSING", "A dependency is not a package published at its address"),
    6: ("EDEP_WEAKER_POLICY", "A dependency's upgrade policy is weaker than the package's"),
    7: (
        "EDEP_ARBITRARY_NOT_SAME_ADDRESS",
        "A dependency with the arbitrary policy must be at the publisher's address",
    ),
    8: ("EINCOMPATIBLE_POLICY_DISABLED", "The arbitrary upgrade policy cannot be used"),
    9: ("ENOT_PACKAGE_OWNER", "The signer does not own the code object"),
    10: ("ECODE_OBJECT_DOES_NOT_EXIST", "No package registry at the code object's address"),
    12: ("EPERMISSIONED_SIGNER_REMOVED", "Permissioned signers are no longer supported"),
}
_OBJECT_CODE_DEPLOYMENT: Final = {
    1: ("EOBJECT_CODE_DEPLOYMENT_NOT_SUPPORTED", "Publishing to an object is not enabled"),
    2: ("ENOT_CODE_OBJECT_OWNER", "The signer does not own the code object"),
    3: ("ECODE_OBJECT_DOES_NOT_EXIST", "The object holds no published code"),
}
_FROM_BCS: Final = {1: ("EINVALID_UTF8", "The bytes are not the BCS of a value of that type")}

#: ``(module, reason) -> (name, description)``.
FRAMEWORK_ERRORS: Final[Mapping[tuple[str, int], tuple[str, str]]] = MappingProxyType(
    {
        (module, reason): entry
        for module, table in (
            ("0x1::coin", _COIN),
            ("0x1::fungible_asset", _FUNGIBLE_ASSET),
            ("0x1::account", _ACCOUNT),
            ("0x1::ed25519", _ED25519),
            ("0x1::multi_ed25519", _MULTI_ED25519),
            ("0x1::option", _OPTION),
            ("0x1::managed_coin", _MANAGED_COIN),
            ("0x1::string", _STRING),
            ("0x1::aptos_account", _APTOS_ACCOUNT),
            ("0x1::object", _OBJECT),
            ("0x1::transaction_validation", _TRANSACTION_VALIDATION),
            ("0x1::ledger_demo", _LEDGER_DEMO),
            ("0x1::simple_map", _SIMPLE_MAP),
            ("0x3::token", _TOKEN_V1),
            ("0x3::token_transfers", _TOKEN_TRANSFERS),
            ("0x3::property_map", _PROPERTY_MAP_V1),
            ("0x1::multisig_account", _MULTISIG_ACCOUNT),
            ("0x4::aptos_token", _APTOS_TOKEN),
            ("0x4::collection", _COLLECTION),
            ("0x4::token", _TOKEN),
            ("0x4::royalty", _ROYALTY),
            ("0x4::property_map", _PROPERTY_MAP),
            ("0x1::from_bcs", _FROM_BCS),
            ("0x1::code", _CODE),
            ("0x1::object_code_deployment", _OBJECT_CODE_DEPLOYMENT),
        )
        for reason, entry in table.items()
    }
)


def declared_error(module: str, code: int) -> tuple[str, str] | None:
    """The ``(name, description)`` ``module`` declares for the abort ``code``, or ``None``.

    Looked up as nodes look an abort up in a module's error map: by the code's low 12
    bits (the reason, whatever the category), then by the whole code.

    Parameters
    ----------
    module : str
        ``address::name`` with the short address, ``"0x1::coin"``.
    code : int
        The abort code.
    """
    return FRAMEWORK_ERRORS.get((module, code & 0xFFF)) or FRAMEWORK_ERRORS.get((module, code))
