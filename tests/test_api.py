"""The front door: the public names are a contract, and ``import ledgerkit`` stays light."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

import ledgerkit

# The public names of ``ledgerkit``. Adding one is a decision; removing one breaks users.
EXPECTED_PUBLIC_NAMES = [
    "U8",
    "U16",
    "U32",
    "U64",
    "U128",
    "U256",
    "APIDisabledError",
    "AbiCache",
    "Account",
    "AccountNotFoundError",
    "Address",
    "ArgumentError",
    "AsyncClient",
    "AsyncDocsClient",
    "AsyncFaucetClient",
    "AuthTokenInvalidError",
    "BCSDecodeError",
    "BCSEncodeError",
    "BCSError",
    "BCSNotSupportedError",
    "BlockNotFoundError",
    "BlockPrunedError",
    "ChainMismatchError",
    "Client",
    "ClientClosedError",
    "ConnectedClient",
    "DatasetMismatchError",
    "DecodingError",
    "DocsClient",
    "DocsError",
    "Ed25519PrivateKey",
    "Ed25519PublicKey",
    "EntryFunctionId",
    "ErrorCode",
    "ExtractionError",
    "FaucetClient",
    "FaucetError",
    "FaucetRateLimitedError",
    "FaucetRejectedError",
    "FaucetUnavailableError",
    "HealthCheckFailedError",
    "HexBytes",
    "HistoryMismatchError",
    "IncompleteExtractionError",
    "IndexerError",
    "InputError",
    "InvalidAddressError",
    "InvalidHexError",
    "InvalidInputError",
    "InvalidIntegerError",
    "InvalidKeyError",
    "InvalidTransactionUpdateError",
    "LedgerError",
    "LedgerMeta",
    "LocalNode",
    "LocalNodeError",
    "MempoolFullError",
    "MissingExtraError",
    "ModuleId",
    "MoveModuleNotFoundError",
    "MoveStructTag",
    "MoveType",
    "MoveTypeSyntaxError",
    "MoveValueCodec",
    "MoveValueError",
    "NodeAPIError",
    "NodeConfig",
    "NodeStoppedError",
    "NotFoundError",
    "PageNotFoundError",
    "PrunedError",
    "PrunedRangeError",
    "RangeBeyondLedgerError",
    "RateLimitedError",
    "RejectedByFilterError",
    "RequestTimeoutError",
    "ResourceNotFoundError",
    "Result",
    "Secp256k1PrivateKey",
    "Secp256k1PublicKey",
    "SequenceNumberTooOldError",
    "ServerError",
    "ServiceUnavailableError",
    "SigningError",
    "SnapshotError",
    "SnapshotMissError",
    "StateValueNotFoundError",
    "StructFieldNotFoundError",
    "StructTag",
    "TableItemNotFoundError",
    "TokenProvider",
    "TransactionNotFoundError",
    "TransactionRejectedError",
    "TransportError",
    "UnknownStructError",
    "VMError",
    "VersionNotFoundError",
    "VersionPrunedError",
    "WebFrameworkError",
    "__version__",
    "aaccount_activity",
    "account_activity",
    "account_balances",
    "atyped_events",
    "balances_to_frame",
    "blocks_to_frame",
    "changes_to_frame",
    "connect",
    "events_of_type",
    "events_to_frame",
    "explain",
    "functions_to_frame",
    "gas_estimates_to_frame",
    "modules_to_frame",
    "payloads_to_frame",
    "resources_to_frame",
    "structs_to_frame",
    "transactions_to_frame",
    "typed_events",
]

HEAVY = [
    "pandas",
    "httpx",
    "starlette",
    "uvicorn",
    "ipywidgets",
    "altair",
    "pyarrow",
    "dask",
    "distributed",
]


def _isort_style_key(name: str) -> tuple[int, list[int | str]]:
    """The order ruff's RUF022 keeps ``__all__`` in: CONSTANTS, then Classes, then the rest,
    each in natural order (digits compare as numbers), case-sensitively."""
    if name.isupper() and len(name) > 1:
        group = 0
    elif name[:1].isupper():
        group = 1
    else:
        group = 2
    natural: list[int | str] = [
        int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)
    ]
    return group, natural


def test_public_names_are_exactly_the_contract() -> None:
    assert ledgerkit.__all__ == EXPECTED_PUBLIC_NAMES


@pytest.mark.parametrize(
    "module",
    [
        "ledgerkit",
        "ledgerkit.types",
        "ledgerkit.bcs",
        "ledgerkit.keys",
        "ledgerkit.tx",
        "ledgerkit._errors",
    ],
)
def test_all_has_no_duplicates(module: str) -> None:
    names = importlib.import_module(module).__all__
    assert len(names) == len(set(names))


@pytest.mark.parametrize("module", ["ledgerkit", "ledgerkit.types", "ledgerkit._errors"])
def test_all_is_sorted_the_way_ruff_sorts_it(module: str) -> None:
    names = importlib.import_module(module).__all__
    assert names == sorted(names, key=_isort_style_key)


def test_the_sort_key_agrees_with_ruff_on_the_tricky_cases() -> None:
    # The expected order is what `ruff check --select RUF022 --fix` (ruff 0.17) wrote.
    names = [
        "__version__", "VersionError", "VMError", "U16", "U8", "AccountNotFoundError",
        "APIDisabledError", "U64_MAX", "parse_u64", "parse_uint", "U128_MAX", "U128", "X",
        "_x", "a1", "a10", "a2", "Ab", "AB",
    ]  # fmt: skip
    assert sorted(names, key=_isort_style_key) == [
        "AB", "U8", "U16", "U64_MAX", "U128", "U128_MAX", "APIDisabledError", "Ab",
        "AccountNotFoundError", "VMError", "VersionError", "X", "__version__", "_x", "a1",
        "a2", "a10", "parse_u64", "parse_uint",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "module", ["ledgerkit", "ledgerkit.types", "ledgerkit.bcs", "ledgerkit.keys", "ledgerkit.tx"]
)
def test_every_public_name_is_importable(module: str) -> None:
    mod = importlib.import_module(module)
    for name in mod.__all__:
        assert hasattr(mod, name), f"{module}.{name} is in __all__ but missing"
    namespace: dict[str, object] = {}
    exec(f"from {module} import *", namespace)
    assert set(mod.__all__) <= set(namespace)


def test_no_private_names_in_the_front_door() -> None:
    for name in ledgerkit.__all__:
        assert not name.startswith("_") or name == "__version__", name


def test_every_public_object_is_ledgerkits_own() -> None:
    """Classes and functions say they are ``ledgerkit.X`` (where users import them),
    and every object is ledgerkit's own, not a third party's."""
    for name in ledgerkit.__all__:
        if name == "__version__":
            continue
        value = getattr(ledgerkit, name)
        if isinstance(value, type | types.FunctionType):
            assert value.__module__ == "ledgerkit", name
        else:
            assert type(value).__module__.startswith("ledgerkit"), name


def test_nothing_public_leaks_beyond_all() -> None:
    """Names a user can reach without an underscore are in __all__ or are subpackages."""
    allowed = set(ledgerkit.__all__) | {"annotations"}  # the __future__ import
    for name, value in vars(ledgerkit).items():
        if name.startswith("_") or name in allowed:
            continue
        assert isinstance(value, types.ModuleType), f"ledgerkit.{name} leaks"
        assert value.__name__ == f"ledgerkit.{name}"


def test_version_is_a_pep440_string() -> None:
    assert isinstance(ledgerkit.__version__, str)
    assert re.fullmatch(
        r"\d+\.\d+\.\d+((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?", ledgerkit.__version__
    )


def test_a_built_package_carries_the_front_doors_version() -> None:
    # setuptools reads pyproject.toml as a build would, its dynamic version included.
    from setuptools.config.pyprojecttoml import read_configuration

    pyproject = Path(ledgerkit.__file__).parents[1] / "pyproject.toml"
    built = read_configuration(pyproject, expand=True)["project"]["version"]
    assert built == ledgerkit.__version__


def test_the_front_door_and_the_subpackages_hand_out_the_same_objects() -> None:
    import ledgerkit.bcs
    import ledgerkit.keys
    import ledgerkit.tx
    import ledgerkit.types

    for name in ledgerkit.__all__:
        for sub in (
            ledgerkit.types,
            ledgerkit.bcs,
            ledgerkit.keys,
            ledgerkit.tx,
            ledgerkit._errors,
        ):
            if name in sub.__all__:
                assert getattr(sub, name) is getattr(ledgerkit, name), name


_PROBE = """
import json, sys
before = set(sys.modules)
import ledgerkit
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def _modules_loaded_by_import() -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True, timeout=120
    )
    loaded: list[str] = json.loads(done.stdout)
    return loaded


def test_import_ledgerkit_stays_light_and_loads_the_same_modules_each_time() -> None:
    first = _modules_loaded_by_import()
    assert "ledgerkit" in first
    heavy = [m for m in first if m.split(".")[0] in HEAVY]
    assert heavy == []
    assert _modules_loaded_by_import() == first
