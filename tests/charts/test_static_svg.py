"""The interactive chart outside a kernel: its mime bundle carries the chart as SVG beside
the widget view, the same bytes however often and after whatever else was rendered."""

from __future__ import annotations

import io
import re
from typing import Any

import altair as alt
import pandas as pd
import pytest

from ledgerkit.charts import gas_history_chart, interactive_gas_chart
from ledgerkit.charts._static import stable_ids

SVG = "image/svg+xml"
WIDGET = "application/vnd.jupyter.widget-view+json"


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    n = 90
    return pd.DataFrame(
        {
            "version": pd.array(range(n), dtype="UInt64"),
            "timestamp": pd.date_range("2025-06-01", periods=n, freq="min", tz="UTC"),
            "type": ["user_transaction"] * n,
            "gas_used": pd.array([5 + i % 7 for i in range(n)], dtype="UInt64"),
            "gas_unit_price": pd.array([100 + i % 3 for i in range(n)], dtype="UInt64"),
            "success": pd.array([True] * n, dtype="boolean"),
        }
    )


def data_of(chart: Any, **kwargs: Any) -> dict[str, Any]:
    bundle = chart._repr_mimebundle_(**kwargs)
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert isinstance(data, dict)
    return data


def test_the_interactive_chart_carries_its_svg_beside_the_widget(frame: pd.DataFrame) -> None:
    chart = interactive_gas_chart(frame)
    assert isinstance(chart, alt.JupyterChart)
    data = data_of(chart)
    assert WIDGET in data
    assert data[SVG].startswith("<svg ")
    assert "Gas over time" in data[SVG]
    assert data["text/plain"] == "InteractiveChart('Gas over time')"


def test_the_svg_is_the_same_after_other_charts_were_rendered(frame: pd.DataFrame) -> None:
    chart = interactive_gas_chart(frame)
    first = data_of(chart)[SVG]
    gas_history_chart(frame).save(io.StringIO(), format="svg")
    again = data_of(interactive_gas_chart(frame))[SVG]
    assert again == first


def test_every_reference_names_an_id_of_the_chart_and_two_charts_share_none(
    frame: pd.DataFrame,
) -> None:
    one = data_of(interactive_gas_chart(frame))[SVG]
    other = data_of(interactive_gas_chart(frame.iloc[:40], title="Early"))[SVG]
    ids_one = set(re.findall(r'\bid="([^"]+)"', one))
    ids_other = set(re.findall(r'\bid="([^"]+)"', other))
    assert ids_one
    assert set(re.findall(r"url\(#([^)]+)\)", one)) <= ids_one
    assert ids_one.isdisjoint(ids_other)


def test_an_excluded_svg_is_not_rendered(frame: pd.DataFrame) -> None:
    assert SVG not in data_of(interactive_gas_chart(frame), exclude=[SVG])


def test_numbered_ids_are_renamed_in_order_with_their_references() -> None:
    svg = (
        '<svg><clipPath id="clip7"><rect/></clipPath><clipPath id="clip3"><rect/></clipPath>'
        '<g clip-path="url(#clip3)"/><g clip-path="url(#clip7)"/><use href="#clip7"/>'
        '<g id="plain"/></svg>'
    )
    done = stable_ids(svg)
    prefix = re.search(r'id="(lk[0-9a-f]{8})-clip1"', done)
    assert prefix is not None
    p = prefix[1]
    assert done == (
        f'<svg><clipPath id="{p}-clip1"><rect/></clipPath><clipPath id="{p}-clip2"><rect/>'
        f'</clipPath><g clip-path="url(#{p}-clip2)"/><g clip-path="url(#{p}-clip1)"/>'
        f'<use href="#{p}-clip1"/><g id="plain"/></svg>'
    )
    # The same drawing numbered differently by the renderer: the same bytes.
    assert stable_ids(svg.replace("clip7", "clip9").replace("clip3", "clip5")) == done
