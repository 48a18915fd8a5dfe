"""The VM's side of publishing a package: the checks a node runs on a module bundle.

``0x1::code::publish_package`` checks the package's metadata against the registry, then
hands the bundle to the VM, which (facts from aptos-core's ``aptos_vm.rs`` publish flow
and the module storage's staging checks; no Move VM can be installed here, so the node
runs them itself) refuses it with the status a node gives when:

* a module does not deserialize: ``CODE_DESERIALIZATION_ERROR``;
* a module uses or befriends a module neither on chain nor in the bundle:
  ``LINKER_ERROR``;
* a module is not one the metadata names, one the metadata names is missing, a module
  uses a module of a package the metadata does not list as a dependency, two modules
  share a name, or a module's own metadata is malformed: ``CONSTRAINT_NOT_SATISFIED``;
* a module emits (``0x1::event::emit``) a struct that is not its own ``#[event]``, or an
  upgrade drops an ``#[event]``: ``EVENT_METADATA_VALIDATION_ERROR``;
* a module's address is not the publisher's: ``MODULE_ADDRESS_DOES_NOT_MATCH_SENDER``;
* a module replaces a published one incompatibly: ``BACKWARD_INCOMPATIBLE_MODULE_UPDATE``.

The bytecode verifier's checks (types, references, stack balance) are not run: a module
that passes the above is published with its bytes as given.

Modules at the framework's addresses (``0x1`` .. ``0xa``) that the node does not hold
(its framework is a Python model, without ``0x1::signer``, ``0x1::vector``...) are taken
as present when a module links to them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ledgerkit.localnet.vm.framework._context import VMStatusError
from ledgerkit.localnet.vm.move._abi import module_abi
from ledgerkit.localnet.vm.move._compatibility import check_compatible
from ledgerkit.localnet.vm.move._format import BytecodeError, CompiledModule
from ledgerkit.localnet.vm.move._metadata import check_events, check_metadata

__all__ = ["MAX_BUNDLE_MODULES", "PublishedModule", "check_bundle", "is_framework_address"]

#: At most this many modules in one bundle (a transaction's size bounds it well below).
MAX_BUNDLE_MODULES: Final = 1024
_CONSTRAINT: Final = "CONSTRAINT_NOT_SATISFIED"

#: Reads a module's stored bytecode at ``(address, name)``; None when there is none.
StoredCode = Callable[[bytes, str], bytes | None]
ReadModule = Callable[[bytes], CompiledModule]


@dataclass(frozen=True, slots=True)
class PublishedModule:
    """A module that passed the checks: its name, bytecode as given and ABI."""

    name: str
    bytecode: bytes
    abi: dict[str, Any]

    def json(self) -> dict[str, Any]:
        """``{bytecode, abi}`` as the module endpoints answer."""
        return {"bytecode": "0x" + self.bytecode.hex(), "abi": self.abi}


def is_framework_address(address: bytes) -> bool:
    """``0x1`` .. ``0xa``: the addresses whose packages every package may use."""
    return address[:31] == bytes(31) and 1 <= address[31] <= 10


def _deserialize(bundle: Sequence[bytes], read: ReadModule) -> list[CompiledModule]:
    modules = []
    for blob in bundle:
        try:
            modules.append(read(blob))
        except BytecodeError as exc:
            raise VMStatusError("CODE_DESERIALIZATION_ERROR", str(exc)) from None
    return modules


def _uses(module: CompiledModule) -> list[tuple[bytes, str]]:
    """The modules ``module`` uses (its module handles but its own)."""
    return [
        module.module_id(i) for i in range(len(module.module_handles)) if i != module.self_handle
    ]


def _dependencies(module: CompiledModule) -> list[tuple[bytes, str]]:
    """The modules ``module`` uses, then those it befriends."""
    friends = [
        (module.address_identifiers[f.address], module.identifier(f.name))
        for f in module.friend_decls
    ]
    return _uses(module) + friends


def _link(modules: list[CompiledModule], stored: StoredCode) -> None:
    in_bundle = {(m.address, m.name) for m in modules}
    for module in modules:
        for address, name in _dependencies(module):
            if (address, name) in in_bundle or is_framework_address(address):
                continue
            if stored(address, name) is None:
                raise VMStatusError(
                    "LINKER_ERROR", f"module 0x{address.hex()}::{name} does not exist"
                )


def _validate_request(
    modules: list[CompiledModule],
    expected: Sequence[str],
    allowed: Mapping[bytes, frozenset[str]] | None,
    old: Mapping[str, CompiledModule],
) -> None:
    remaining = set(expected)
    for module in modules:
        if module.name not in remaining:
            raise VMStatusError(_CONSTRAINT, f"unregistered module: '{module.name}'")
        remaining.discard(module.name)
        if allowed is not None:
            for address, name in _uses(module):
                names = allowed.get(address, frozenset())
                if "" not in names and name not in names:
                    raise VMStatusError(
                        _CONSTRAINT, f"unregistered dependency: '0x{address.hex()}::{name}'"
                    )
        check_metadata(module)
    for module in modules:
        check_events(module, old.get(module.name))
    if remaining:
        raise VMStatusError(_CONSTRAINT, "not all registered modules published")


def check_bundle(
    destination: bytes,
    bundle: Sequence[bytes],
    expected: Sequence[str],
    allowed: Mapping[bytes, frozenset[str]] | None,
    *,
    stored: StoredCode,
    read: ReadModule,
) -> list[PublishedModule]:
    """Check a bundle published at ``destination`` (32 bytes) as a node does.

    Parameters
    ----------
    bundle
        The modules' bytecode, in the order given.
    expected
        The module names the package metadata lists.
    allowed
        The modules each address may provide to the bundle (``""``: any), or None to
        skip that check.
    stored
        The stored bytecode of a module, or None.
    read
        The deserializer.

    Raises
    ------
    VMStatusError
        The first check that failed, with the status a node gives.
    """
    if len(bundle) > MAX_BUNDLE_MODULES:
        raise VMStatusError(_CONSTRAINT, f"more than {MAX_BUNDLE_MODULES} modules")
    modules = _deserialize(bundle, read)
    _link(modules, stored)
    old: dict[str, CompiledModule] = {}
    for module in modules:
        old_code = stored(module.address, module.name)
        if old_code is not None:
            old[module.name] = _deserialize([old_code], read)[0]
    _validate_request(modules, expected, allowed, old)
    for module in modules:
        if module.address != destination:
            raise VMStatusError("MODULE_ADDRESS_DOES_NOT_MATCH_SENDER")
        if module.name in old:
            check_compatible(old[module.name], module)
    return [
        PublishedModule(module.name, blob, module_abi(module))
        for module, blob in zip(modules, bundle, strict=True)
    ]
