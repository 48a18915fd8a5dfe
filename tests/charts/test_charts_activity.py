"""Activity charts: by outcome (as before), and ranked by entry function or sender."""

from __future__ import annotations

import pytest
import vl_convert
from chart_frames import block, chart_rows, txns

from ledgerkit import InputError
from ledgerkit.charts import activity_chart

ADA = "0x" + "ad" * 32
BOB = "0x" + "b0" * 32
SET = "0x1::ledger_demo::set_score"
PAY = "0x1::aptos_account::transfer"


def _frame() -> object:
    """Minute 0: Ada pays twice and sets a score; minute 1: Bob sets two scores (the
    second fails) and calls a function of his own module once."""
    other = "0x" + "cd" * 32 + "::game::play"
    return txns(
        [
            *block(1, 5, [(10, 100), (10, 100)], sender=ADA, function=PAY),
            *block(5, 20, [(7, 100)], sender=ADA, function=SET),
            *block(8, 70, [(30, 100)], sender=BOB, function=SET),
            *block(11, 80, [(30, 100)], sender=BOB, function=SET, success=False),
            *block(14, 90, [(1, 100)], sender=BOB, function=other),
        ]
    )


def test_outcomes_stack_per_bucket() -> None:
    (rows,) = chart_rows(activity_chart(_frame(), freq="1min"))
    counts = {(r["time"][11:16], r["outcome"]): r["transactions"] for r in rows}
    assert counts == {("00:00", "succeeded"): 3, ("00:01", "succeeded"): 2, ("00:01", "failed"): 1}
    failed = next(r for r in rows if r["outcome"] == "failed")
    assert (failed["stack_low"], failed["stack_high"]) == (2, 3)  # stacked on the succeeded


def test_functions_are_ranked_with_the_rest_as_other() -> None:
    chart = activity_chart(_frame(), by="function", top=1, freq="1min")
    over_time, ranked = chart_rows(chart)
    assert [r["group"] for r in ranked] == [SET, "other"]
    assert [r["transactions"] for r in ranked] == [3, 3]
    assert [r["gas_used"] for r in ranked] == [67, 21]
    assert ranked[0]["failed"] == 1
    assert ranked[1]["members_text"] == "2 functions"
    assert ranked[0]["share_text"] == "50.0%"
    per_minute = {(r["time"][11:16], r["group"]): r["transactions"] for r in over_time}
    assert per_minute == {
        ("00:00", SET): 1,
        ("00:00", "other"): 2,
        ("00:01", SET): 2,
        ("00:01", "other"): 1,
    }


def test_ties_rank_by_gas_then_name_and_long_addresses_are_shortened() -> None:
    chart = activity_chart(_frame(), by="function", top=3, freq="1min")
    _, ranked = chart_rows(chart)
    assert [r["group"] for r in ranked] == [SET, PAY, "0x" + "cd" * 32 + "::game::play"]
    assert ranked[2]["label"] == "0xcdcd…cdcd::game::play"
    senders = chart_rows(activity_chart(_frame(), by="sender"))[1]
    assert [(r["label"], r["transactions"]) for r in senders] == [
        ("0xb0b0…b0b0", 3),
        ("0xadad…adad", 3),
    ]  # equal counts: Bob's 61 gas units before Ada's 27
    spec = activity_chart(_frame(), by="sender").to_dict()
    color = spec["vconcat"][0]["hconcat"][0]["encoding"]["color"]
    assert color["scale"]["domain"] == ["0xb0b0…b0b0", "0xadad…adad"]


def test_other_is_grey_and_charts_render() -> None:
    chart = activity_chart(_frame(), by="function", top=1)
    color = chart.to_dict()["vconcat"][0]["hconcat"][0]["encoding"]["color"]
    assert color["scale"]["range"][-1] == "#bab0ac"
    svg = vl_convert.vegalite_to_svg(chart.to_json())
    assert svg == vl_convert.vegalite_to_svg(
        activity_chart(_frame(), by="function", top=1).to_json()
    )


def test_bad_options_are_input_errors() -> None:
    with pytest.raises(InputError, match="by must be"):
        activity_chart(_frame(), by="module")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="top must be"):
        activity_chart(_frame(), by="sender", top=0)
    with pytest.raises(InputError, match="lacks"):
        activity_chart(_frame().drop(columns=["sender"]), by="sender")
