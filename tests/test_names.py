"""Names users see: public classes and functions report where users import them from,
still pickle, and public signatures mention only public types."""

from __future__ import annotations

import builtins
import collections.abc
import importlib
import inspect
import json
import pickle
import pydoc
import re
import traceback
import types
import typing
from typing import Any

import msgspec
import pytest

import ledgerkit

PUBLIC_PACKAGES = [
    "ledgerkit.bcs",
    "ledgerkit.charts",
    "ledgerkit.client",
    "ledgerkit.client.snapshot",
    "ledgerkit.docsite",
    "ledgerkit.extract",
    "ledgerkit.faucet",
    "ledgerkit.frames",
    "ledgerkit.localnet",
    "ledgerkit.models",
    "ledgerkit.tx",
    "ledgerkit.types",
    "ledgerkit.widgets",
]


def _published(module: str) -> list[tuple[str, Any]]:
    mod = importlib.import_module(module)
    return [
        (name, value)
        for name in mod.__all__
        if isinstance(value := getattr(mod, name), type | types.FunctionType)
    ]


def _importable_where_it_says(value: Any) -> bool:
    home = importlib.import_module(value.__module__)
    found: Any = home
    for part in value.__qualname__.split("."):
        found = getattr(found, part)
    return found is value


def test_the_front_door_names_are_ledgerkit_dot_name() -> None:
    assert repr(ledgerkit.Client) == "<class 'ledgerkit.Client'>"
    assert ledgerkit.AsyncClient.__module__ == "ledgerkit"
    assert ledgerkit.LocalNode.__module__ == "ledgerkit"
    assert ledgerkit.NotFoundError.__module__ == "ledgerkit"
    assert ledgerkit.Address.__module__ == "ledgerkit"
    assert ledgerkit.transactions_to_frame.__module__ == "ledgerkit"
    assert ledgerkit.connect.__module__ == "ledgerkit"
    for name, value in _published("ledgerkit"):
        assert value.__module__ == "ledgerkit", name
        assert _importable_where_it_says(value), name


@pytest.mark.parametrize("package", PUBLIC_PACKAGES)
def test_subpackage_names_report_their_package_or_the_front_door(package: str) -> None:
    for name, value in _published(package):
        at_the_front_door = getattr(ledgerkit, name, None) is value
        assert value.__module__ == ("ledgerkit" if at_the_front_door else package), name
        assert _importable_where_it_says(value), name


def test_records_and_results_name_their_public_package() -> None:
    import ledgerkit.client
    import ledgerkit.models

    assert repr(ledgerkit.models.UserTransaction) == "<class 'ledgerkit.models.UserTransaction'>"
    # Result is plain data on the ground floor, at the front door as ledgerkit.Result.
    assert ledgerkit.client.Result is ledgerkit.Result
    assert repr(ledgerkit.client.Result) == "<class 'ledgerkit.Result'>"
    assert ledgerkit.models.decode_transactions.__module__ == "ledgerkit.models"


def test_errors_read_well_in_tracebacks_and_help() -> None:
    try:
        ledgerkit.transactions_to_frame(5)  # type: ignore[arg-type]
    except ledgerkit.InputError as exc:
        (line,) = traceback.format_exception_only(exc)
    assert line.startswith("ledgerkit.InputError: transactions_to_frame expects ")
    text = pydoc.render_doc(ledgerkit.Client, renderer=pydoc.plaintext)
    assert "class Client in module ledgerkit" in text


def test_records_still_decode_and_their_type_hints_resolve() -> None:
    import ledgerkit.models as m

    info = m.decode_ledger_info(
        json.dumps(
            {
                "chain_id": 4,
                "epoch": "1",
                "ledger_version": "18446744073709551615",
                "oldest_ledger_version": "0",
                "ledger_timestamp": "9007199254740993",
                "node_role": "full_node",
                "oldest_block_height": "0",
                "block_height": "7",
            }
        ).encode()
    )
    assert info.ledger_version == 2**64 - 1
    assert typing.get_type_hints(m.MoveModule)["exposed_functions"] == list[m.MoveFunction]
    assert typing.get_type_hints(ledgerkit.LedgerMeta)["cursor"] == str | None
    assert msgspec.convert({"gas_estimate": 5}, m.GasEstimate).gas_estimate == 5


TRANSACTION = {
    "type": "user_transaction",
    "version": "9007199254740993",
    "hash": "0x" + "11" * 32,
    "state_change_hash": "0x" + "22" * 32,
    "event_root_hash": "0x" + "33" * 32,
    "gas_used": "7",
    "success": True,
    "vm_status": "Executed successfully",
    "accumulator_root_hash": "0x" + "44" * 32,
    "changes": [],
    "sender": "0x1",
    "sequence_number": "18446744073709551615",
    "max_gas_amount": "100",
    "gas_unit_price": "100",
    "expiration_timestamp_secs": "1",
    "payload": {
        "type": "entry_function_payload",
        "function": "0x1::coin::transfer",
        "type_arguments": [],
        "arguments": ["340282366920938463463374607431768211455"],
    },
    "signature": {
        "type": "ed25519_signature",
        "public_key": "0x" + "ed" * 32,
        "signature": "0x" + "5e" * 64,
    },
    "events": [],
    "timestamp": "1",
}


def _pickled_values() -> list[Any]:
    import ledgerkit.client
    import ledgerkit.models as m

    (tx,) = m.decode_transactions(json.dumps([TRANSACTION]).encode())
    meta = ledgerkit.LedgerMeta(
        chain_id=4,
        ledger_version=2**64 - 1,
        oldest_ledger_version=0,
        ledger_timestamp_usec=1,
        epoch=1,
        block_height=2,
        oldest_block_height=0,
    )
    return [
        tx,
        m.GasEstimate(gas_estimate=2**64 - 1),
        ledgerkit.client.Result(value=[tx], ledger=meta),
        meta,
        ledgerkit.Address.parse("0x1"),
        ledgerkit.U64(2**64 - 1),
        ledgerkit.StructTag.parse("0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>"),
        ledgerkit.ErrorCode("account_not_found"),
        ledgerkit.InputError("transactions_to_frame expects transaction records"),
        ledgerkit.RangeBeyondLedgerError("blocks", 9, 4),
        ledgerkit.AccountNotFoundError(
            "no account", status=404, error_code="account_not_found", ledger=meta
        ),
        ledgerkit.Ed25519PrivateKey.from_seed(b"\x01" * 32).public_key,
        ledgerkit.client.Retry(),
    ]


@pytest.mark.parametrize("value", _pickled_values(), ids=lambda v: type(v).__name__)
def test_pickling_round_trips(value: Any) -> None:
    back = pickle.loads(pickle.dumps(value))
    assert type(back) is type(value)
    if isinstance(value, BaseException):
        assert str(back) == str(value)
        assert vars(back) == vars(value)
    else:
        assert back == value


# -- public signatures ---------------------------------------------------------------------

_PUBLIC = (
    set(dir(builtins))
    | set(typing.__all__)
    | set(collections.abc.__all__)
    | {"Path"}  # pathlib's
    | set(ledgerkit.__all__)
    | {name for package in PUBLIC_PACKAGES for name in importlib.import_module(package).__all__}
)
# Modules a signature may name its types through (``pd.DataFrame``, ``httpx.BaseTransport``).
_MODULES = {"datetime", "dt", "httpx", "os", "pd", "pathlib"}
_LITERALS = re.compile(r"'[^']*'|\"[^\"]*\"")
_IDENTIFIER = re.compile(r"[A-Za-z_][\w.]*")


def _front_door_callables() -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    for name, value in _published("ledgerkit"):
        if isinstance(value, types.FunctionType):
            found.append((name, value))
            continue
        for member, attr in vars(value).items():
            if member == "__init__" or not member.startswith("_"):
                if isinstance(attr, staticmethod | classmethod):
                    attr = attr.__func__
                if isinstance(attr, property):
                    attr = attr.fget
                if isinstance(attr, types.FunctionType):
                    found.append((f"{name}.{member}", attr))
    for cls in (ledgerkit.Client, ledgerkit.AsyncClient):
        for member, attr in inspect.getmembers(cls, inspect.isfunction):
            if not member.startswith("_") or member == "__init__":
                found.append((f"{cls.__name__}.{member}", attr))
    return found


def _names_in(annotation: Any) -> list[str]:
    text = annotation if isinstance(annotation, str) else inspect.formatannotation(annotation)
    return _IDENTIFIER.findall(_LITERALS.sub("", text))


def _is_public(name: str) -> bool:
    if "." in name:
        head, *rest = name.split(".")
        return head in _MODULES and not any(part.startswith("_") for part in rest)
    return name in _PUBLIC


def test_public_signatures_name_only_public_types() -> None:
    callables = _front_door_callables()
    assert {"Client.transactions", "AsyncClient.block_by_height", "connect"} <= {
        name for name, _ in callables
    }
    private: list[str] = []
    for where, function in callables:
        signature = inspect.signature(function)
        annotations = [p.annotation for p in signature.parameters.values()]
        annotations.append(signature.return_annotation)
        for annotation in annotations:
            if annotation is inspect.Parameter.empty:
                continue
            private += [f"{where}: {n}" for n in _names_in(annotation) if not _is_public(n)]
    assert private == []


def test_the_clients_answers_name_the_models() -> None:
    annotation = inspect.signature(ledgerkit.Client.transactions).return_annotation
    assert annotation == "Result[list[Transaction]]"
    annotation = inspect.signature(ledgerkit.AsyncClient.ledger_info).return_annotation
    assert annotation == "Result[LedgerInfo]"
