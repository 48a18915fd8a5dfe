"""Every converter takes what the client returns, and refuses anything else with an
``InputError`` that says what it expected."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pandas as pd
import pytest

import ledgerkit
from ledgerkit import InputError, frames


@pytest.fixture(scope="module")
def client() -> Iterator[ledgerkit.Client]:
    with (
        ledgerkit.LocalNode(seed=7, blocks=5) as node,
        ledgerkit.Client(node.url, cache=False) as running,
    ):
        yield running


def test_transactions_to_frame_takes_the_clients_result(client: ledgerkit.Client) -> None:
    result = client.transactions(start=0, limit=100)
    frame = frames.transactions_to_frame(result)
    assert frame["version"].tolist() == list(range(len(result.value)))
    pd.testing.assert_frame_equal(frame, frames.transactions_to_frame(result.value))
    one = frames.transactions_to_frame(client.transaction_by_version(1))
    pd.testing.assert_frame_equal(
        one, frame.iloc[1:2].reset_index(drop=True), check_categorical=False
    )


@pytest.mark.parametrize(
    "convert", [frames.payloads_to_frame, frames.events_to_frame, frames.changes_to_frame]
)
def test_transaction_converters_take_the_clients_result(
    client: ledgerkit.Client, convert: Callable[[Any], pd.DataFrame]
) -> None:
    result = client.transactions(start=0, limit=100)
    frame = convert(result)
    assert len(frame) > 0
    pd.testing.assert_frame_equal(frame, convert(result.value))


def test_blocks_to_frame_takes_one_block(client: ledgerkit.Client) -> None:
    frame = frames.blocks_to_frame(client.block_by_height(1))
    assert frame["block_height"].tolist() == [1]
    assert frame["first_version"].tolist() == [client.block_by_height(1).value.first_version]


def test_resources_to_frame_takes_the_result_and_its_version(client: ledgerkit.Client) -> None:
    result = client.account_resources("0x1")
    frame = frames.resources_to_frame(result, address="0x1")
    assert len(frame) == len(result.value)
    assert frame["version"].unique().tolist() == [result.ledger.ledger_version]
    assert frame["type"].tolist() == [r.type for r in result.value]


def test_module_converters_take_the_result(client: ledgerkit.Client) -> None:
    result = client.account_modules("0x1")
    modules = frames.modules_to_frame(result)
    assert modules["name"].tolist() == [m.abi.name for m in result.value if m.abi is not None]
    functions = frames.functions_to_frame(result)
    assert len(functions) == sum(
        len(m.abi.exposed_functions) for m in result.value if m.abi is not None
    )
    one = frames.structs_to_frame(client.account_module("0x1", "account"))
    assert set(one["module"]) == {"0x" + "0" * 63 + "1::account"}


def test_gas_and_view_converters_take_one_result(client: ledgerkit.Client) -> None:
    estimate = client.estimate_gas_price()
    gas = frames.gas_estimates_to_frame(estimate)
    assert gas["gas_estimate"].tolist() == [estimate.value.gas_estimate]


# -- refusals -----------------------------------------------------------------------------

RECORD_CONVERTERS: dict[str, tuple[Callable[[Any], pd.DataFrame], str]] = {
    "transactions_to_frame": (frames.transactions_to_frame, "transaction records"),
    "payloads_to_frame": (frames.payloads_to_frame, "transaction records"),
    "changes_to_frame": (frames.changes_to_frame, "transaction records"),
    "events_to_frame": (frames.events_to_frame, "events or transactions"),
    "blocks_to_frame": (frames.blocks_to_frame, "blocks"),
    "resources_to_frame": (frames.resources_to_frame, "resources"),
    "modules_to_frame": (frames.modules_to_frame, "modules"),
    "functions_to_frame": (frames.functions_to_frame, "modules"),
    "structs_to_frame": (frames.structs_to_frame, "modules"),
}


@pytest.mark.parametrize("name", sorted(RECORD_CONVERTERS))
@pytest.mark.parametrize(
    ("bad", "named"),
    [(5, "int 5"), (None, "NoneType"), (3.5, "float 3.5"), (object(), "object")],
)
def test_a_value_that_is_no_records_is_an_input_error(name: str, bad: Any, named: str) -> None:
    convert, expected = RECORD_CONVERTERS[name]
    with pytest.raises(InputError) as caught:
        convert(bad)
    message = str(caught.value)
    assert message.startswith(f"{name} expects {expected}")
    assert f"got {named}" in message


@pytest.mark.parametrize("name", sorted(RECORD_CONVERTERS))
@pytest.mark.parametrize(
    ("bad", "named"),
    [([1, 2], "int 1 at position 0"), ([[]], "list at position 0"), ([{}.keys()], "dict_keys")],
)
def test_a_list_of_wrong_things_is_an_input_error(name: str, bad: Any, named: str) -> None:
    convert, expected = RECORD_CONVERTERS[name]
    with pytest.raises(InputError, match=rf"^{name} expects {expected}.*got {named}"):
        convert(bad)


@pytest.mark.parametrize("name", sorted(set(RECORD_CONVERTERS) - {"transactions_to_frame"}))
def test_a_string_is_an_input_error(name: str) -> None:
    convert, expected = RECORD_CONVERTERS[name]
    with pytest.raises(InputError, match=rf"^{name} expects {expected}.*got str '0x1'"):
        convert("0x1")


def test_records_of_another_kind_are_refused(client: ledgerkit.Client) -> None:
    blocks = client.block_by_height(1)
    with pytest.raises(InputError, match="transactions_to_frame expects transaction records"):
        frames.transactions_to_frame(blocks)
    with pytest.raises(InputError, match=r"blocks_to_frame expects blocks.*at position 0"):
        frames.blocks_to_frame(client.transactions(start=0, limit=3))
    with pytest.raises(InputError, match="modules_to_frame expects modules"):
        frames.modules_to_frame(client.account_resources("0x1"))


@pytest.mark.parametrize(
    ("convert", "bad"),
    [
        (frames.balances_to_frame, 5),
        (frames.balances_to_frame, [("0x1", "0xa")]),
        (frames.gas_estimates_to_frame, 5),
        (frames.gas_estimates_to_frame, [5]),
        (frames.gas_estimates_to_frame, [(1, 2)]),
        (
            frames.gas_estimates_to_frame,
            [("yesterday", ledgerkit.models.GasEstimate(gas_estimate=1))],
        ),
        (frames.view_results_to_frame, 5),
        (frames.view_results_to_frame, [5]),
    ],
)
def test_state_converters_refuse_bad_input_with_an_input_error(
    convert: Callable[[Any], pd.DataFrame], bad: Any
) -> None:
    with pytest.raises(InputError, match=convert.__name__ + " expects"):
        convert(bad)


def test_expand_event_data_wants_an_events_frame() -> None:
    with pytest.raises(InputError, match="expand_event_data expects a frame of events_to_frame"):
        frames.expand_event_data(pd.DataFrame({"x": [1]}), "0x1::m::E", {})
    with pytest.raises(InputError, match="expand_event_data expects"):
        frames.expand_event_data([], "0x1::m::E", {})  # type: ignore[arg-type]


def test_input_errors_are_value_errors_of_the_tree() -> None:
    with pytest.raises(ledgerkit.LedgerError):
        frames.transactions_to_frame(5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="transactions_to_frame expects"):
        frames.transactions_to_frame(5)  # type: ignore[arg-type]
