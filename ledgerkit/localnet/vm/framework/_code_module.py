"""``0x1::code::publish_package_txn``: publishing a Move package, as aptos-framework's
``code.move`` and the VM's publish request do it.

The package's metadata (the BCS of ``PackageMetadata``) is checked against the
publisher's ``PackageRegistry`` (kept at the publisher's address, created on its first
package): the upgrade policy (``arbitrary`` refused; an immutable package is never
upgraded; a policy only strengthens), module names clashing with another package's,
dependencies (each package present, with a policy at least as strong, an ``arbitrary``
one only at the same address). The package is recorded (an upgrade replaces it and
counts ``upgrade_number`` up), ``0x1::code::PublishPackage`` is emitted, and the VM's
checks run on the bundle (:mod:`ledgerkit.localnet.vm.move`); the modules are written
with their bytecode as given and served with the ABI derived from it.

``0x1::object_code_deployment::publish`` publishes the same way at a new object's
address (named by the publisher and its next sequence number), owned by the publisher,
and keeps the object's ``ExtendRef`` in ``ManagingRefs``. Its ``upgrade`` republishes
there for the object's owner (the same checks as a republish, then the ``Upgrade`` event),
and ``freeze_code_object`` (``code::freeze_code_object``) makes every package of the
object's registry immutable, then checks each one's dependencies again, as the framework
does (an immutable package may only depend on immutable ones).

Abort codes are the module's: ``std::error`` categories over ``code.move``'s reasons.
The framework's own packages (``0x1`` .. ``0xa``) count as present for dependencies:
this node's genesis writes no registry for its Python framework. The executor runs a
first-published module's ``init_module`` after this body (``vm._move_calls``).
"""

from __future__ import annotations

from typing import Any, Final

from ledgerkit._errors import BCSError
from ledgerkit.bcs import Deserializer, Serializer
from ledgerkit.localnet.vm.framework._code_specs import MANAGING_REFS, PACKAGE_REGISTRY
from ledgerkit.localnet.vm.framework._context import ACCOUNT, Context, MoveAbortError, native
from ledgerkit.localnet.vm.framework._object_module import (
    create_object,
    named_object_address,
    object_arg,
    owner_of,
)
from ledgerkit.types import Address, MoveType

__all__ = [
    "code_object_address",
    "decode_package_metadata",
    "freeze_code_object",
    "publish_package",
]

ARBITRARY: Final = 0
COMPATIBLE: Final = 1
IMMUTABLE: Final = 2
#: ``util::from_bytes`` fails so on bytes that are not the BCS of the type.
_BCS_FAILURE: Final = 0x1C5
_MAX_METADATA: Final = 1 << 20
_DOMAIN: Final = b"aptos_framework::object_code_deployment"


def _hex(raw: bytes) -> str:
    return "0x" + raw.hex()


def _extension(d: Deserializer) -> dict[str, Any]:
    found = d.option(lambda: {"type_name": d.string(), "data": _hex(d.var_bytes())})
    return {"vec": [] if found is None else [found]}


def _module_metadata(d: Deserializer) -> dict[str, Any]:
    return {
        "name": d.string(),
        "source": _hex(d.var_bytes()),
        "source_map": _hex(d.var_bytes()),
        "extension": _extension(d),
    }


def _dep(d: Deserializer) -> dict[str, Any]:
    return {"account": d.address().standard, "package_name": d.string()}


def decode_package_metadata(raw: bytes) -> dict[str, Any]:
    """``PackageMetadata`` from its BCS, in the API's JSON shape.

    Raises
    ------
    MoveAbortError
        ``0x1::util`` ``0x1c5`` when ``raw`` is not its BCS, as ``util::from_bytes``.
    """
    if len(raw) > _MAX_METADATA:
        raise MoveAbortError("util", _BCS_FAILURE)
    try:
        d = Deserializer(raw)
        metadata = {
            "name": d.string(),
            "upgrade_policy": {"policy": d.u8()},
            "upgrade_number": str(d.u64()),
            "source_digest": d.string(),
            "manifest": _hex(d.var_bytes()),
            "modules": d.sequence(lambda: _module_metadata(d)),
            "deps": d.sequence(lambda: _dep(d)),
            "extension": _extension(d),
        }
        d.finish()
    except BCSError:
        raise MoveAbortError("util", _BCS_FAILURE) from None
    return metadata


def _abort(code: int, name: str) -> MoveAbortError:
    return MoveAbortError("code", code, name)


def _policy(pack: dict[str, Any]) -> int:
    return int(pack["upgrade_policy"]["policy"])


def _exempted(address: Address) -> bool:
    raw = bytes(address)
    return raw[:31] == bytes(31) and 1 <= raw[31] <= 10


def _allowed_deps(
    ctx: Context, publisher: Address, pack: dict[str, Any]
) -> dict[bytes, frozenset[str]]:
    """``check_dependencies``: the modules each dependency's address may provide."""
    allowed: dict[bytes, set[str]] = {}
    for dep in pack["deps"]:
        account = Address.parse(dep["account"])
        registry = ctx.resource(account, PACKAGE_REGISTRY)
        if _exempted(account):
            allowed.setdefault(bytes(account), set()).add("")
            continue
        if registry is None:
            raise _abort(0x60005, "EPACKAGE_DEP_MISSING")
        found = False
        for dep_pack in registry["packages"]:
            if dep_pack["name"] != dep["package_name"]:
                continue
            found = True
            if _policy(dep_pack) < _policy(pack):
                raise _abort(0x10006, "EDEP_WEAKER_POLICY")
            if _policy(dep_pack) == ARBITRARY and account != publisher:
                raise _abort(0x10007, "EDEP_ARBITRARY_NOT_SAME_ADDRESS")
            allowed.setdefault(bytes(account), set()).update(m["name"] for m in dep_pack["modules"])
        if not found:
            raise _abort(0x60005, "EPACKAGE_DEP_MISSING")
    return {address: frozenset(names) for address, names in allowed.items()}


def _check_against(packages: list[dict[str, Any]], pack: dict[str, Any]) -> tuple[int, int]:
    """The upgrade and coexistence checks: (index of the package replaced or
    ``len(packages)``, the new upgrade number)."""
    names = [m["name"] for m in pack["modules"]]
    index, upgrade_number = len(packages), 0
    for i, old in enumerate(packages):
        if old["name"] == pack["name"]:
            upgrade_number = int(old["upgrade_number"]) + 1
            if _policy(old) >= IMMUTABLE:
                raise _abort(0x10002, "EUPGRADE_IMMUTABLE")
            if _policy(old) > _policy(pack):
                raise _abort(0x10003, "EUPGRADE_WEAKER_POLICY")
            if any(m["name"] not in names for m in old["modules"]):
                raise _abort(0x4, "EMODULE_MISSING")
            index = i
        elif any(m["name"] in names for m in old["modules"]):
            raise _abort(0x80001, "EMODULE_NAME_CLASH")
    return index, upgrade_number


def publish_package(ctx: Context, owner: Address, pack: dict[str, Any], code: list[bytes]) -> None:
    """``code::publish_package``: record ``pack`` in ``owner``'s registry and publish
    ``code`` there, or abort / fail as a node does."""
    # Imported here: the Move package's model imports this package's context.
    from ledgerkit.localnet.vm.move import check_bundle, read_module

    if _policy(pack) <= ARBITRARY:
        raise _abort(0x10008, "EINCOMPATIBLE_POLICY_DISABLED")
    registry = ctx.resource(owner, PACKAGE_REGISTRY) or {"packages": []}
    allowed = _allowed_deps(ctx, owner, pack)
    packages = list(registry["packages"])
    index, upgrade_number = _check_against(packages, pack)
    pack["upgrade_number"] = str(upgrade_number)
    if index < len(packages):
        packages[index] = pack
    else:
        packages.append(pack)
    ctx.put(owner, PACKAGE_REGISTRY, {"packages": packages})
    ctx.emit_module(
        "0x1::code::PublishPackage",
        {"code_address": owner.standard, "is_upgrade": upgrade_number > 0},
    )
    names = [m["name"] for m in pack["modules"]]
    # The package's own modules may use each other.
    allowed[bytes(owner)] = allowed.get(bytes(owner), frozenset()) | frozenset(names)
    published = check_bundle(
        bytes(owner),
        code,
        names,
        allowed,
        stored=lambda address, name: ctx.module_code(Address(address), name),
        read=read_module,
    )
    for module in published:
        ctx.put_module(owner, module.name, module.json(), module.bytecode)


@native("code", "publish_package_txn")
def _publish_package_txn(ctx: Context, _: tuple[MoveType, ...], args: list[Any]) -> None:
    metadata_hex, code_hex = args
    pack = decode_package_metadata(bytes.fromhex(metadata_hex[2:]))
    publish_package(ctx, ctx.signer, pack, [bytes.fromhex(c[2:]) for c in code_hex])


def code_object_address(publisher: Address, sequence_number: int) -> Address:
    """The object ``object_code_deployment::publish`` creates for a publisher whose
    sequence number is ``sequence_number`` as it runs: a named object of the seed
    ``BCS(b"aptos_framework::object_code_deployment") ‖ BCS(u64 sequence_number + 1)``."""
    seed = Serializer()
    seed.var_bytes(_DOMAIN)
    seed.u64(sequence_number + 1)
    return named_object_address(publisher, seed.output())


@native("object_code_deployment", "publish")
def _publish_to_object(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    publisher = ctx.signer
    sequence_number = int(ctx.resource(publisher, ACCOUNT)["sequence_number"])
    address = code_object_address(publisher, sequence_number)
    create_object(ctx, address, publisher)
    metadata_hex, code_hex = args
    pack = decode_package_metadata(bytes.fromhex(metadata_hex[2:]))
    publish_package(ctx, address, pack, [bytes.fromhex(c[2:]) for c in code_hex])
    ctx.emit_module("0x1::object_code_deployment::Publish", {"object_address": address.standard})
    ctx.put(address, MANAGING_REFS, {"extend_ref": {"self": address.standard}})


def _owned_code_object(ctx: Context, value: Any) -> Address:
    """``upgrade``'s checks of its ``Object<PackageRegistry>``: built as the VM builds the
    argument, owned by the signer, holding ``ManagingRefs``."""
    address = object_arg(ctx, value, PACKAGE_REGISTRY)
    if owner_of(ctx, address) != ctx.signer:
        raise ctx.abort("object_code_deployment", 0x50002, "ENOT_CODE_OBJECT_OWNER")
    if not ctx.exists(address, MANAGING_REFS):
        raise ctx.abort("object_code_deployment", 0x60003, "ECODE_OBJECT_DOES_NOT_EXIST")
    return address


@native("object_code_deployment", "upgrade")
def _upgrade_code_object(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    metadata_hex, code_hex, code_object = args
    address = _owned_code_object(ctx, code_object)
    pack = decode_package_metadata(bytes.fromhex(metadata_hex[2:]))
    publish_package(ctx, address, pack, [bytes.fromhex(c[2:]) for c in code_hex])
    ctx.emit_module("0x1::object_code_deployment::Upgrade", {"object_address": address.standard})


def freeze_code_object(ctx: Context, publisher: Address, address: Address) -> None:
    """``code::freeze_code_object``: every package of the registry at ``address`` made
    immutable, then each one's dependencies checked again (``EDEP_WEAKER_POLICY`` for a
    dependency that is not immutable itself)."""
    registry = ctx.resource(address, PACKAGE_REGISTRY)
    if registry is None:
        raise _abort(0x6000A, "ECODE_OBJECT_DOES_NOT_EXIST")
    if owner_of(ctx, address) != publisher:
        raise _abort(0x50009, "ENOT_PACKAGE_OWNER")
    packages = [{**pack, "upgrade_policy": {"policy": IMMUTABLE}} for pack in registry["packages"]]
    ctx.put(address, PACKAGE_REGISTRY, {"packages": packages})
    for pack in packages:
        _allowed_deps(ctx, address, pack)


@native("code", "freeze_code_object")
def _code_freeze_code_object(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    address = object_arg(ctx, args[0], PACKAGE_REGISTRY)
    freeze_code_object(ctx, ctx.signer, address)


@native("object_code_deployment", "freeze_code_object")
def _freeze_code_object(ctx: Context, ty: tuple[MoveType, ...], args: list[Any]) -> None:
    address = object_arg(ctx, args[0], PACKAGE_REGISTRY)
    freeze_code_object(ctx, ctx.signer, address)
    ctx.emit_module("0x1::object_code_deployment::Freeze", {"object_address": address.standard})
