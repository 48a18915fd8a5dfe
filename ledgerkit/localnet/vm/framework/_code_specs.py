"""``0x1::code`` (package publishing) and ``0x1::copyable_any`` declared: structs and
functions as aptos-framework's ``code.move`` declares them."""

from __future__ import annotations

from typing import Final

from ledgerkit.localnet.vm.framework._abi import FunctionSpec, ModuleSpec, StructSpec

__all__ = [
    "CODE",
    "CODE_MODULES",
    "COPYABLE_ANY",
    "MANAGING_REFS",
    "OBJECT_CODE_DEPLOYMENT",
    "PACKAGE_REGISTRY",
]

PACKAGE_REGISTRY: Final = "0x1::code::PackageRegistry"
MANAGING_REFS: Final = "0x1::object_code_deployment::ManagingRefs"
_COPY_DROP_STORE: Final = ("copy", "drop", "store")
_EXTENSION: Final = "0x1::option::Option<0x1::copyable_any::Any>"
_CODE_OBJECT: Final = "0x1::object::Object<0x1::code::PackageRegistry>"

COPYABLE_ANY: Final = ModuleSpec(
    "copyable_any",
    structs=(
        StructSpec(
            "Any", _COPY_DROP_STORE, (("type_name", "0x1::string::String"), ("data", "vector<u8>"))
        ),
    ),
)

CODE: Final = ModuleSpec(
    "code",
    structs=(
        StructSpec(
            "AllowedDep",
            ("drop",),
            (("account", "address"), ("module_name", "0x1::string::String")),
        ),
        StructSpec(
            "ModuleMetadata",
            _COPY_DROP_STORE,
            (
                ("name", "0x1::string::String"),
                ("source", "vector<u8>"),
                ("source_map", "vector<u8>"),
                ("extension", _EXTENSION),
            ),
        ),
        StructSpec(
            "PackageDep",
            _COPY_DROP_STORE,
            (("account", "address"), ("package_name", "0x1::string::String")),
        ),
        StructSpec(
            "PackageMetadata",
            _COPY_DROP_STORE,
            (
                ("name", "0x1::string::String"),
                ("upgrade_policy", "0x1::code::UpgradePolicy"),
                ("upgrade_number", "u64"),
                ("source_digest", "0x1::string::String"),
                ("manifest", "vector<u8>"),
                ("modules", "vector<0x1::code::ModuleMetadata>"),
                ("deps", "vector<0x1::code::PackageDep>"),
                ("extension", _EXTENSION),
            ),
        ),
        StructSpec(
            "PackageRegistry",
            ("drop", "store", "key"),
            (("packages", "vector<0x1::code::PackageMetadata>"),),
        ),
        StructSpec(
            "PublishPackage",
            ("drop", "store"),
            (("code_address", "address"), ("is_upgrade", "bool")),
            is_event=True,
        ),
        StructSpec("UpgradePolicy", _COPY_DROP_STORE, (("policy", "u8"),)),
    ),
    functions=(
        FunctionSpec("freeze_code_object", ("&signer", _CODE_OBJECT)),
        FunctionSpec(
            "publish_package_txn", ("&signer", "vector<u8>", "vector<vector<u8>>"), entry=True
        ),
    ),
)


def _event(name: str) -> StructSpec:
    return StructSpec(name, ("drop", "store"), (("object_address", "address"),), is_event=True)


OBJECT_CODE_DEPLOYMENT: Final = ModuleSpec(
    "object_code_deployment",
    structs=(
        _event("Freeze"),
        StructSpec("ManagingRefs", ("key",), (("extend_ref", "0x1::object::ExtendRef"),)),
        _event("Publish"),
        _event("Upgrade"),
    ),
    functions=(
        FunctionSpec("freeze_code_object", ("&signer", _CODE_OBJECT), entry=True),
        FunctionSpec("publish", ("&signer", "vector<u8>", "vector<vector<u8>>"), entry=True),
        FunctionSpec(
            "upgrade",
            ("&signer", "vector<u8>", "vector<vector<u8>>", _CODE_OBJECT),
            entry=True,
        ),
    ),
)

#: The modules of this file, for the framework's module list.
CODE_MODULES: Final = (CODE, COPYABLE_ANY, OBJECT_CODE_DEPLOYMENT)
