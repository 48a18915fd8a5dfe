"""The VM's checks of a published bundle, each refusal with the status aptos-core gives,
and the compatibility rules of an upgrade (aptos-core's compatibility.rs), on modules
built as data (the deserializer stands behind a dictionary here)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from publish_modules import (
    BEEF,
    CAFE,
    ONE,
    at,
    counter_module,
    emitting,
    metadata_v1,
    named,
    using,
)

from ledgerkit.localnet.vm.framework import VMStatusError
from ledgerkit.localnet.vm.move import (
    ABILITY_COPY,
    ABILITY_DROP,
    ABILITY_KEY,
    ABILITY_STORE,
    VISIBILITY_FRIEND,
    VISIBILITY_PRIVATE,
    VISIBILITY_PUBLIC,
    BytecodeError,
    CompiledModule,
    FieldDefinition,
    Metadata,
    StructTypeParameter,
    check_bundle,
    incompatibilities,
)

M = counter_module()
#: The friend ``M`` declares, on chain: a friend must exist, as a dependency must.
PAL = named(M, "pal")


def reader(*modules: CompiledModule) -> tuple[list[bytes], Callable[[bytes], CompiledModule]]:
    """Stand-in bytecode for ``modules`` and a deserializer of it."""
    blobs = [f"module {i}".encode() for i in range(len(modules))]
    table = dict(zip(blobs, modules, strict=True))

    def read(blob: bytes) -> CompiledModule:
        if blob not in table:
            raise BytecodeError("BAD_MAGIC")
        return table[blob]

    return blobs, read


def status(
    *modules: CompiledModule,
    names: list[str] | None = None,
    allowed: dict[bytes, frozenset[str]] | None = None,
    on_chain: dict[tuple[bytes, str], CompiledModule] | None = None,
    extra: list[bytes] | None = None,
    destination: bytes = CAFE,
) -> str:
    chain = {(CAFE, "pal"): PAL, **(on_chain or {})}
    blobs, read = reader(*modules, *chain.values())
    stored_blobs = dict(zip(chain.keys(), blobs[len(modules) :], strict=True))
    expected = names if names is not None else [m.name for m in modules]
    try:
        published = check_bundle(
            destination,
            blobs[: len(modules)] + (extra or []),
            expected,
            allowed,
            stored=lambda a, n: stored_blobs.get((a, n)),
            read=read,
        )
    except VMStatusError as failure:
        return failure.status
    assert [p.name for p in published] == expected
    return "ok"


def test_a_bundle_that_passes_is_published_with_its_abi() -> None:
    blobs, read = reader(M, PAL)
    stored = {(CAFE, "pal"): blobs[1]}
    (published,) = check_bundle(
        CAFE, blobs[:1], ["m"], None, stored=lambda a, n: stored.get((a, n)), read=read
    )
    assert published.name == "m"
    assert published.bytecode == blobs[0]
    assert published.json()["bytecode"] == "0x" + blobs[0].hex()
    assert published.json()["abi"]["name"] == "m"


def test_bytes_that_do_not_deserialize() -> None:
    assert status(M, names=["m", "x"], extra=[b"\xa1\x1c\xeb"]) == "CODE_DESERIALIZATION_ERROR"


def test_a_module_using_a_module_nobody_published() -> None:
    assert status(using(M, BEEF, "gone")) == "LINKER_ERROR"
    # On chain, in the bundle, or at a framework address: it links.
    gone = named(at(M, BEEF), "gone")
    assert status(using(M, BEEF, "gone"), on_chain={(BEEF, "gone"): gone}) == "ok"
    assert status(using(M, ONE, "signer")) == "ok"


def test_the_metadata_names_exactly_the_bundle() -> None:
    assert status(M, names=["other"]) == "CONSTRAINT_NOT_SATISFIED"
    assert status(M, names=["m", "n"]) == "CONSTRAINT_NOT_SATISFIED"
    # Two modules of one name: the second is not a module the metadata registers.
    assert status(M, M, names=["m", "m"]) == "CONSTRAINT_NOT_SATISFIED"


def test_a_dependency_must_come_from_a_listed_package() -> None:
    user = using(M, BEEF, "lib")
    lib = named(at(M, BEEF), "lib")
    chain = {(BEEF, "lib"): lib}
    # It also uses 0x1::string: the framework's package must be listed too.
    framework = {ONE: frozenset({""})}
    assert status(user, on_chain=chain, allowed=framework) == "CONSTRAINT_NOT_SATISFIED"
    only_lib = {BEEF: frozenset({"lib"})}
    assert status(user, on_chain=chain, allowed=only_lib) == "CONSTRAINT_NOT_SATISFIED"
    assert status(user, on_chain=chain, allowed={**framework, **only_lib}) == "ok"
    assert status(user, on_chain=chain, allowed={**framework, BEEF: frozenset({""})}) == "ok"


def test_malformed_metadata_is_refused() -> None:
    unknown_key = replace(M, metadata=(Metadata(b"mystery", b""),))
    assert status(unknown_key) == "CONSTRAINT_NOT_SATISFIED"
    twice = replace(M, metadata=(M.metadata[0], M.metadata[0]))
    assert status(twice) == "CONSTRAINT_NOT_SATISFIED"
    # #[view] on a function that returns nothing (bump).
    bad_view = replace(M, metadata=(metadata_v1({}, {}, {"bump": [1]}),))
    assert status(bad_view) == "CONSTRAINT_NOT_SATISFIED"
    not_decoding = replace(M, metadata=(Metadata(b"aptos::metadata_v1", b"\x01"),))
    assert status(not_decoding) == "CONSTRAINT_NOT_SATISFIED"


def test_a_module_emits_only_its_own_event_structs() -> None:
    # Bumped (handle 3) is an #[event]; Counter (0) is not; String (1) is 0x1's.
    assert status(emitting(M, 3)) == "ok"
    assert status(emitting(M, 0)) == "EVENT_METADATA_VALIDATION_ERROR"
    assert status(emitting(M, 1)) == "EVENT_METADATA_VALIDATION_ERROR"
    # An upgrade may not drop an #[event].
    plain = replace(M, metadata=(metadata_v1({}, {}, {"get": [1], "peek": [1]}),))
    assert status(plain, on_chain={(CAFE, "m"): M}) == "EVENT_METADATA_VALIDATION_ERROR"
    assert status(M, on_chain={(CAFE, "m"): plain}) == "ok"


def test_a_module_at_another_address() -> None:
    assert status(M, destination=BEEF) == "MODULE_ADDRESS_DOES_NOT_MATCH_SENDER"


def test_an_upgrade_is_checked_against_the_module_on_chain() -> None:
    assert status(M, on_chain={(CAFE, "m"): M}) == "ok"
    without_bump = replace(M, function_defs=M.function_defs[1:])
    assert status(without_bump, on_chain={(CAFE, "m"): M}) == "BACKWARD_INCOMPATIBLE_MODULE_UPDATE"


# -- compatibility, rule by rule ------------------------------------------------------------


def _with_function(module: CompiledModule, index: int, **changes: object) -> CompiledModule:
    defs = list(module.function_defs)
    defs[index] = replace(defs[index], **changes)  # type: ignore[arg-type]
    return replace(module, function_defs=tuple(defs))


def _with_handle(module: CompiledModule, index: int, **changes: object) -> CompiledModule:
    handles = list(module.function_handles)
    handles[index] = replace(handles[index], **changes)  # type: ignore[arg-type]
    return replace(module, function_handles=tuple(handles))


def _with_struct(module: CompiledModule, index: int, **changes: object) -> CompiledModule:
    handles = list(module.struct_handles)
    handles[index] = replace(handles[index], **changes)  # type: ignore[arg-type]
    return replace(module, struct_handles=tuple(handles))


def test_the_same_module_is_compatible() -> None:
    assert incompatibilities(M, M) == []


@pytest.mark.parametrize(
    ("new", "problem"),
    [
        (replace(M, function_defs=M.function_defs[1:]), "removed function `bump`"),
        (
            _with_function(M, 1, visibility=VISIBILITY_FRIEND),
            "changed visibility of function `get`",
        ),
        (
            _with_function(M, 0, is_entry=False),
            "removed `entry` modifier of function `bump`",
        ),
        (_with_handle(M, 1, parameters=3), "changed parameter types of function `get`"),
        (_with_handle(M, 1, return_=2), "changed return type of function `get`"),
        (
            _with_handle(M, 2, type_parameters=(0,)),
            "changed type parameters of function `adjust`",
        ),
        (replace(M, struct_defs=M.struct_defs[1:]), "removed struct `Counter`"),
        (
            _with_struct(M, 0, abilities=ABILITY_STORE),
            "removed abilities from struct `Counter`",
        ),
        (
            _with_struct(
                M,
                2,
                type_parameters=(
                    StructTypeParameter(ABILITY_STORE, False),
                    StructTypeParameter(ABILITY_COPY | ABILITY_DROP, False),
                ),
            ),
            "changed type parameters of struct `Box`",
        ),
        (
            replace(
                M,
                struct_defs=(
                    replace(M.struct_defs[0], fields=M.struct_defs[0].fields[:1]),  # type: ignore[index]
                    *M.struct_defs[1:],
                ),
            ),
            "changed layout of struct `Counter`",
        ),
        (
            replace(
                M,
                struct_defs=(
                    replace(
                        M.struct_defs[0],
                        fields=(FieldDefinition(4, ("u128",)), FieldDefinition(5, ("address",))),
                    ),
                    *M.struct_defs[1:],
                ),
            ),
            "changed layout of struct `Counter`",
        ),
        (replace(M, friend_decls=()), "removed friend declaration"),
    ],
)
def test_what_an_upgrade_may_not_change(new: CompiledModule, problem: str) -> None:
    found = incompatibilities(M, new)
    assert len(found) == 1, found
    assert found[0].startswith(problem), found


def test_what_an_upgrade_may_change() -> None:
    # A private function may go; a friend one may become public; a function may become
    # an entry function; a struct may gain abilities; a type parameter may lose
    # constraints or become phantom.
    loosened = _with_struct(
        M,
        2,
        type_parameters=(
            StructTypeParameter(0, True),
            StructTypeParameter(ABILITY_COPY, True),
        ),
    )
    for new in (
        replace(M, function_defs=M.function_defs[:4]),
        _with_function(M, 2, visibility=VISIBILITY_PUBLIC),
        _with_function(M, 1, is_entry=True),
        _with_function(M, 4, visibility=VISIBILITY_PUBLIC),
        _with_struct(M, 0, abilities=ABILITY_KEY | ABILITY_STORE),
        _with_handle(M, 3, type_parameters=(ABILITY_DROP,)),
        loosened,
    ):
        assert incompatibilities(M, new) == []
    # A private function that was not exposed may change in any way.
    assert incompatibilities(M, _with_function(M, 4, visibility=VISIBILITY_PRIVATE)) == []
