"""BCS the assembler writes besides bytecode: constant values, the ``aptos::metadata_v1``
entry of a module (error map, ``#[event]`` structs, ``#[view]`` functions) and the
``0x1::code::PackageMetadata`` a publishing transaction carries.

Layouts (facts from aptos-core): ``RuntimeModuleMetadataV1`` is
``{error_map: BTreeMap<u64, {code_name: String, code_description: String}>,
struct_attributes: BTreeMap<String, Vec<{kind: u8, args: Vec<String>}>>,
fun_attributes: (same)}`` with attribute kinds view = 1, event = 4; ``PackageMetadata`` is
``{name, upgrade_policy: {policy: u8}, upgrade_number: u64, source_digest: String,
manifest: vector<u8> (gzipped Move.toml), modules: vector<{name, source, source_map,
extension: Option<Any>}>, deps: vector<{account: address, package_name}>,
extension: Option<Any>}``.
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ledgerkit.bcs import Serializer
from ledgerkit.types import Address

from ._types import AssemblyError, TypeText

#: The metadata key of Aptos' runtime module metadata, version 1.
METADATA_V1_KEY = b"aptos::metadata_v1"
#: ``KnownAttributeKind`` values.
ATTRIBUTE_VIEW = 1
ATTRIBUTE_EVENT = 4
#: ``UpgradePolicy.policy`` values, by the names ``Move.toml`` uses.
UPGRADE_POLICIES: Mapping[str, int] = {"arbitrary": 0, "compatible": 1, "immutable": 2}
#: The framework packages a package built against the Aptos framework lists as deps.
FRAMEWORK_DEPS = (("0x1", "AptosFramework"), ("0x1", "AptosStdlib"), ("0x1", "MoveStdlib"))

_UNSIGNED = {"u8": 8, "u16": 16, "u32": 32, "u64": 64, "u128": 128, "u256": 256}
_SIGNED = {"i8": 8, "i16": 16, "i32": 32, "i64": 64, "i128": 128, "i256": 256}
#: Bound on a constant's elements (the format's constant size limit is 65,535 bytes).
MAX_CONSTANT_ITEMS = 65535


def encode_value(type_: TypeText, value: object) -> bytes:
    """The BCS of ``value`` as a constant of ``type_`` (primitives and vectors of them:
    what the constant pool may hold). ``vector<u8>`` also takes ``bytes`` or ``str``."""
    out = Serializer()
    _encode(out, type_, value)
    return out.output()


def _encode(out: Serializer, type_: TypeText, value: object) -> None:
    if type_.kind == "prim":
        _encode_prim(out, type_.name, value)
    elif type_.kind == "vector":
        inner = type_.args[0]
        if isinstance(value, str) and inner == TypeText("prim", "u8"):
            value = value.encode()
        if isinstance(value, bytes | bytearray):
            value = list(value)
        if not isinstance(value, list | tuple) or len(value) > MAX_CONSTANT_ITEMS:
            raise AssemblyError(f"not a vector constant: {value!r}")
        out.uleb128(len(value))
        for item in value:
            _encode(out, inner, item)
    else:
        raise AssemblyError(f"a constant is a primitive or a vector, not {type_!r}")


def _encode_prim(out: Serializer, name: str, value: object) -> None:
    if name == "bool":
        if not isinstance(value, bool):
            raise AssemblyError(f"not a bool: {value!r}")
        out.boolean(value)
        return
    if name == "address":
        if not isinstance(value, str | bytes | Address):
            raise AssemblyError(f"not an address: {value!r}")
        out.fixed_bytes(bytes(Address.parse(value)), 32)
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise AssemblyError(f"not an integer for {name}: {value!r}")
    if name in _UNSIGNED:
        bits = _UNSIGNED[name]
        if not 0 <= value < 1 << bits:
            raise AssemblyError(f"{value} does not fit {name}")
    elif name in _SIGNED:
        bits = _SIGNED[name]
        if not -(1 << (bits - 1)) <= value < 1 << (bits - 1):
            raise AssemblyError(f"{value} does not fit {name}")
        value %= 1 << bits
    else:
        raise AssemblyError(f"{name} is not a constant type")
    out.fixed_bytes(value.to_bytes(bits // 8, "little"), bits // 8)


@dataclass(frozen=True, slots=True)
class ErrorCode:
    """One abort code of a module's error map: the constant's name and its doc comment."""

    code: int
    name: str
    description: str


def runtime_metadata_v1(
    errors: Sequence[ErrorCode], events: Sequence[str], views: Sequence[str]
) -> bytes:
    """The BCS of ``RuntimeModuleMetadataV1`` (maps in BCS canonical order: by the bytes
    of their encoded keys)."""
    out = Serializer()
    error_map = {e.code: e for e in errors}
    out.map(error_map, _u64_key, _error_description)
    for names, kind in ((events, ATTRIBUTE_EVENT), (views, ATTRIBUTE_VIEW)):
        out.map(dict.fromkeys(names, kind), _string_key, _attributes)
    return out.output()


def _u64_key(out: Serializer, code: int) -> None:
    out.u64(code)


def _string_key(out: Serializer, name: str) -> None:
    out.string(name)


def _error_description(out: Serializer, error: ErrorCode) -> None:
    out.string(error.name)
    out.string(error.description)


def _attributes(out: Serializer, kind: int) -> None:
    out.uleb128(1)  # one attribute
    out.u8(kind)
    out.uleb128(0)  # no arguments


@dataclass(frozen=True, slots=True)
class PackageModule:
    """A module of a package: its name, and the Move source (gzipped into ``source``)."""

    name: str
    source: str = ""


def manifest_text(name: str, upgrade_policy: str, version: str = "1.0.0") -> str:
    """The ``Move.toml`` a package of this name would have."""
    return (
        f'[package]\nname = "{name}"\nversion = "{version}"\n'
        f'upgrade_policy = "{upgrade_policy}"\n\n'
        '[dependencies.AptosFramework]\ngit = "https://github.com/aptos-labs/aptos-framework.git"\n'
        'rev = "mainnet"\nsubdir = "aptos-framework"\n'
    )


def _gzip(text: str) -> bytes:
    # mtime=0: the same text always gzips to the same bytes.
    return gzip.compress(text.encode(), mtime=0) if text else b""


def source_digest(texts: Sequence[str]) -> str:
    """The Move package tool's source digest: each file's sha256 as upper-case hex, the
    hex strings sorted, their concatenation hashed, upper-case hex."""
    hexes = sorted(hashlib.sha256(t.encode()).hexdigest().upper() for t in texts)
    return hashlib.sha256("".join(hexes).encode()).hexdigest().upper()


def package_metadata(
    name: str,
    modules: Sequence[PackageModule | str],
    *,
    upgrade_policy: str = "compatible",
    upgrade_number: int = 0,
    deps: Sequence[tuple[str, str]] = FRAMEWORK_DEPS,
    with_sources: bool = True,
) -> bytes:
    """The BCS of ``0x1::code::PackageMetadata`` for ``publish_package_txn``.

    ``modules`` in the order their bytecode is published (names, or ``PackageModule``
    with source text). ``upgrade_policy`` is ``"arbitrary"``, ``"compatible"`` or
    ``"immutable"``. Sources are gzipped into each module's ``source`` when
    ``with_sources``; the manifest is always gzipped in.
    """
    if upgrade_policy not in UPGRADE_POLICIES:
        raise AssemblyError(f"unknown upgrade policy {upgrade_policy!r}")
    mods = [m if isinstance(m, PackageModule) else PackageModule(m) for m in modules]
    manifest = manifest_text(name, upgrade_policy)
    out = Serializer()
    out.string(name)
    out.u8(UPGRADE_POLICIES[upgrade_policy])
    out.u64(upgrade_number)
    out.string(source_digest([manifest, *(m.source for m in mods if m.source)]))
    out.var_bytes(_gzip(manifest))
    out.uleb128(len(mods))
    for module in mods:
        out.string(module.name)
        out.var_bytes(_gzip(module.source) if with_sources else b"")
        out.var_bytes(b"")  # no source map
        out.option(None, out.u8)
    out.uleb128(len(deps))
    for account, package in deps:
        out.address(Address.parse(account))
        out.string(package)
    out.option(None, out.u8)
    return out.output()
