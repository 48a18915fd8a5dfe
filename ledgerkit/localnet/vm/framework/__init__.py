"""The framework at ``0x1`` and the digital asset package at ``0x4``: module declarations
with ABIs, and their Python bodies.

* ``_abi``: declarations as data, their API JSON and the stand-in bytecode;
* ``_module_specs``: the modules themselves;
* ``_move_values``: type text, standard addresses, struct layouts for the BCS codec;
* ``_state_keys``: state keys, their hashes and the pagination cursor;
* ``_resource_groups``: an object's resources as one group, written and listed whole;
* ``_context``: what a function body sees (state, tables, events, gas, aborts);
* ``_nonces``: the orderless transactions' nonces an account has used;
* ``_token_objects_specs``: the digital asset package at ``0x4``;
* ``_asset_modules``, ``_object_module``, ``_token_objects``, ``_property_map``,
  ``_token_views``, ``_account_rotation``, ``_coin_modules``, ``_coin_api``,
  ``_fungible_api``, ``_fungible_refs`` and ``_managed_coin`` (the public coin and asset
  functions published code calls, declared in ``_asset_api_specs``), ``_system_modules``,
  ``_demo_module``, ``_multisig_account``, ``_multisig_views`` and ``_code_module``
  (package publishing, declared in ``_code_specs``): the bodies
  (``_multisig_specs`` declares the multisig module; importing ``_multisig_views``
  for the executor's steps registers both multisig bodies).

:data:`FRAMEWORK` gathers them: look up a module or a function, its body, the codec.
Exported beside it for the executor, the chain and the ledger: the :class:`Context` and
its errors, the state keys (:func:`resource_key`, :func:`module_key`, :func:`table_key`,
their hashes and BCS, the cursor), the resource types and addresses the node reads
(``ACCOUNT``, ``APT_METADATA``, ``FUNGIBLE_STORE``...), the asset operations genesis and
the epilogue run (:func:`create_account`, :func:`deposit`, :func:`charge_fee`...), the
block prologue and the nonce record of orderless transactions.
"""

from __future__ import annotations

from functools import cached_property
from typing import Final

import orjson

from ledgerkit.bcs import MoveValueCodec
from ledgerkit.localnet.vm.framework import (  # noqa: F401 - registers bodies
    _account_public,
    _asset_modules,
    _code_module,
    _coin_api,
    _demo_module,
    _fungible_api,
    _fungible_refs,
    _managed_coin,
    _object_module,
    _object_refs,
    _system_modules,
    _token_objects,
    _token_v1_changes,
    _token_v1_offers,
    _token_views,
)
from ledgerkit.localnet.vm.framework._abi import (
    FRAMEWORK_ADDRESS,
    FunctionSpec,
    ModuleSpec,
    StructSpec,
)
from ledgerkit.localnet.vm.framework._account_rotation import (
    ORIGINATING_ADDRESS,
    ORIGINATING_ADDRESS_TABLE,
)
from ledgerkit.localnet.vm.framework._asset_modules import (
    APT_METADATA,
    APT_TYPE,
    BURNED_FEES,
    CONCURRENT_SUPPLY,
    DEMO_TOKEN_METADATA,
    FUNGIBLE_STORE,
    METADATA,
    OBJECT_CORE,
    PAIRED_COIN_TYPE,
    account_data,
    charge_fee,
    create_account,
    deposit,
    object_core,
    primary_store_address,
    store_balance,
    type_info,
)
from ledgerkit.localnet.vm.framework._block_state import (
    BlockFacts,
    genesis_block_state,
    randomness_seed,
)
from ledgerkit.localnet.vm.framework._coin_modules import monitored_supply
from ledgerkit.localnet.vm.framework._context import (
    ACCOUNT,
    NATIVES,
    Context,
    MoveAbortError,
    Native,
    ReadFn,
    VMStatusError,
    Write,
    sorted_fields,
)
from ledgerkit.localnet.vm.framework._module_specs import MODULES
from ledgerkit.localnet.vm.framework._move_values import (
    FrameworkLayouts,
    make_codec,
    render_type,
    standardizer,
)
from ledgerkit.localnet.vm.framework._multisig_views import (
    execution_cleanup,
    next_payload,
    validate_multisig_transaction,
)
from ledgerkit.localnet.vm.framework._nonces import nonce_used, record_nonce
from ledgerkit.localnet.vm.framework._resource_groups import (
    GROUP_MEMBERS,
    OBJECT_GROUP,
    expand_groups,
    is_group_member,
    member_order,
)
from ledgerkit.localnet.vm.framework._state_keys import (
    MODULE,
    RESOURCE,
    decode_cursor,
    encode_cursor,
    group_key_bcs,
    group_key_hash,
    module_key,
    resource_key,
    state_key_bcs,
    state_key_hash,
    table_key,
)
from ledgerkit.localnet.vm.framework._system_modules import (
    BLOCK_RESOURCE,
    CHAIN_ID,
    CURRENT_TIME,
    block_prologue,
)
from ledgerkit.types import Address, EntryFunctionId, MoveType

__all__ = [
    "ACCOUNT",
    "APT_METADATA",
    "APT_TYPE",
    "BLOCK_RESOURCE",
    "BURNED_FEES",
    "CHAIN_ID",
    "CONCURRENT_SUPPLY",
    "CURRENT_TIME",
    "DEMO_TOKEN_METADATA",
    "FRAMEWORK",
    "FRAMEWORK_ADDRESS",
    "FUNGIBLE_STORE",
    "GROUP_MEMBERS",
    "METADATA",
    "MODULE",
    "OBJECT_CORE",
    "OBJECT_GROUP",
    "ORIGINATING_ADDRESS",
    "ORIGINATING_ADDRESS_TABLE",
    "PAIRED_COIN_TYPE",
    "RESOURCE",
    "BlockFacts",
    "Context",
    "Framework",
    "FunctionSpec",
    "ModuleSpec",
    "MoveAbortError",
    "Native",
    "ReadFn",
    "StructSpec",
    "VMStatusError",
    "Write",
    "account_data",
    "block_prologue",
    "charge_fee",
    "create_account",
    "decode_cursor",
    "deposit",
    "encode_cursor",
    "execution_cleanup",
    "expand_groups",
    "genesis_block_state",
    "group_key_bcs",
    "group_key_hash",
    "is_group_member",
    "member_order",
    "module_key",
    "monitored_supply",
    "next_payload",
    "nonce_used",
    "object_core",
    "primary_store_address",
    "randomness_seed",
    "record_nonce",
    "render_type",
    "resource_key",
    "sorted_fields",
    "state_key_bcs",
    "state_key_hash",
    "store_balance",
    "table_key",
    "type_info",
    "validate_multisig_transaction",
]


class Framework:
    """Modules by name, functions by id, struct layouts and the codec that uses them."""

    def __init__(self, modules: tuple[ModuleSpec, ...]) -> None:
        #: By ``(address, name)``, in the order genesis writes them.
        self.modules = {module.key: module for module in modules}
        self.layouts = FrameworkLayouts(modules)
        self.codec: MoveValueCodec = make_codec(self.layouts)

    def module(self, name: str, address: Address = FRAMEWORK_ADDRESS) -> ModuleSpec | None:
        return self.modules.get((address, name))

    def function(self, fid: EntryFunctionId) -> tuple[ModuleSpec | None, FunctionSpec | None]:
        """The module and function of ``fid`` (either None when it does not exist)."""
        module = self.modules.get((fid.address, fid.module.name))
        return module, None if module is None else module.function(fid.name)

    @staticmethod
    def body(fid: EntryFunctionId) -> Native | None:
        return NATIVES.get((fid.address, fid.module.name, fid.name))

    @cached_property
    def module_payloads(
        self,
    ) -> dict[tuple[Address, str], tuple[dict[str, object], bytes, bytes]]:
        """Each module's ``{bytecode, abi}``, that as JSON bytes, and the bytecode, by
        ``(address, name)``."""
        out: dict[tuple[Address, str], tuple[dict[str, object], bytes, bytes]] = {}
        for key, module in self.modules.items():
            body = module.json()
            out[key] = (body, orjson.dumps(body), module.bytecode())
        return out

    def standardize(self, t: MoveType, value: object) -> object:
        """A decoded value of type ``t`` with its addresses in the node's standard form."""
        return standardizer(t, self.layouts)(value)


FRAMEWORK: Final = Framework(MODULES)
