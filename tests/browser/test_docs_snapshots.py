"""The widgets as the docs site shows them, in a real browser: the static snapshots on the
notebook pages are readable in the theme's light and dark modes (the WCAG contrast of every
text element against what it is drawn on), and the widgets guide shows its screenshots at
their own size, the gas dashboard's with rows rather than a blank area.

The site is the one ``test_docs_site.py`` uses (``make docs``'s build when fresh, see
``conftest.py``). The theme picks its mode from the reader's choice (its switcher, kept in
``localStorage["mode"]``) or, left on "auto", from the system's colour scheme; it says which
in ``<html data-theme>``. Each combination is opened: the system's scheme alone, and a
choice against it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

import pytest
from browser_harness import REPO
from playwright.sync_api import Page
from wcag import (
    TEXT_ELEMENTS_JS,
    Colour,
    backdrop,
    below_aa,
    contrast,
    luminance,
    parse_colour,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

PAGE_TIMEOUT_MS: Final = 30_000
#: The docs' default viewport, at which the screenshots must not be scaled.
VIEWPORT: Final = {"width": 1400, "height": 900}
#: A screenshot the widgets guide shows: ``![...](_static/screenshots/name.png)``.
SCREENSHOT_LINK: Final = re.compile(r"\]\(_static/screenshots/([a-z0-9-]+\.png)\)")
#: At most this share of the gas dashboard screenshot's pixel rows may be of one colour
#: (background only): the picture showing two rows and a blank area had 47% of them, one
#: of ten rows below the chart has 16%;
BLANK_ROWS_AT_MOST: Final = 0.30
#: and no band of such rows may be taller than this (452 pixels in the former, 19 in the
#: latter).
BLANK_BAND_AT_MOST: Final = 80

#: The share of an image's pixel rows that are one colour throughout, and the tallest band
#: of such rows, read from the decoded image through a canvas.
BLANK_ROWS_JS: Final = """
image => {
  const canvas = document.createElement("canvas");
  canvas.width = image.naturalWidth;
  canvas.height = image.naturalHeight;
  const context = canvas.getContext("2d");
  context.drawImage(image, 0, 0);
  const { data, width, height } = context.getImageData(0, 0, canvas.width, canvas.height);
  let blank = 0, band = 0, tallest = 0;
  for (let y = 0; y < height; y++) {
    const row = y * width * 4;
    let uniform = true;
    for (let x = 1; x < width && uniform; x++) {
      for (let c = 0; c < 3; c++) {
        if (Math.abs(data[row + x * 4 + c] - data[row + c]) > 8) { uniform = false; break; }
      }
    }
    if (uniform) { blank++; band++; tallest = Math.max(tallest, band); } else { band = 0; }
  }
  return { share: blank / height, tallest, height };
}
"""


@pytest.mark.parametrize(
    ("foreground", "background", "ratio"),
    [
        ("rgb(0, 0, 0)", "rgb(255, 255, 255)", 21.0),
        ("rgb(118, 118, 118)", "rgb(255, 255, 255)", 4.54),  # WCAG's #767676, just AA
        ("rgb(255, 255, 255)", "rgb(255, 255, 255)", 1.0),
        ("rgb(0, 0, 255)", "rgb(255, 255, 255)", 8.59),
    ],
)
def test_the_contrast_ratio_is_wcag_s(foreground: str, background: str, ratio: float) -> None:
    found = contrast(parse_colour(foreground), parse_colour(background))
    assert round(found, 2) == ratio


def test_a_background_is_composed_down_to_the_first_opaque_one() -> None:
    # Half-transparent black over white is mid grey; what lies beneath white is hidden.
    layers = ["rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0.5)", "rgb(255, 255, 255)", "rgb(0, 0, 0)"]
    grey = backdrop(layers)
    assert grey == Colour(127.5, 127.5, 127.5, 1.0)
    assert backdrop(["rgba(0, 0, 0, 0)"]) == Colour(255.0, 255.0, 255.0, 1.0)


def snapshot_pages(site: Path) -> list[str]:
    """The site's pages that hold a widget's static snapshot."""
    return sorted(
        path.relative_to(site).as_posix()
        for path in site.rglob("*.html")
        if "class='lk-static'" in path.read_text("utf-8")
    )


@pytest.mark.parametrize(
    ("system", "chosen", "shown"),
    [
        ("light", "auto", "light"),
        ("dark", "auto", "dark"),
        ("light", "dark", "dark"),  # the switcher against the system's scheme
        ("dark", "light", "light"),
    ],
)
def test_the_snapshots_text_is_readable_in_each_mode_of_the_theme(
    chromium: Path,
    docs_site: Path,
    site_server: tuple[str, list[str]],
    page: Page,
    system: str,
    chosen: str,
    shown: str,
) -> None:
    origin, _failures = site_server
    pages = snapshot_pages(docs_site)
    assert len(pages) >= 3, pages
    page.set_viewport_size(VIEWPORT)
    page.emulate_media(color_scheme=system)  # type: ignore[arg-type]
    page.add_init_script(f"localStorage.setItem('mode', {chosen!r})")
    below: list[tuple[float, str]] = []
    checked = 0
    for path in pages:
        answer = page.goto(f"{origin}/{path}", wait_until="load", timeout=PAGE_TIMEOUT_MS)
        assert answer is not None
        assert answer.status == 200, path
        assert page.evaluate("document.documentElement.dataset.theme") == shown, path
        snapshots = page.locator(".lk-static")
        assert snapshots.count() >= 1, path
        elements = snapshots.evaluate_all(TEXT_ELEMENTS_JS)
        assert len(elements) >= 10, (path, elements)
        # The snapshot's own background is the mode's: dark in dark mode, light in light.
        grounds = snapshots.evaluate_all("all => all.map(s => getComputedStyle(s).backgroundColor)")
        lightness = [luminance(parse_colour(ground)) for ground in grounds]
        assert all((value < 0.1) == (shown == "dark") for value in lightness), (path, grounds)
        checked += len(elements)
        below += below_aa(elements, path)
    worst = [text for _ratio, text in sorted(below)[:15]]
    assert worst == [], f"{len(below)} of {checked} text elements below WCAG AA:\n" + "\n".join(
        worst
    )


def test_the_widgets_guide_shows_its_screenshots_at_their_own_size(
    chromium: Path,
    docs_site: Path,
    site_server: tuple[str, list[str]],
    page: Page,
) -> None:
    origin, _failures = site_server
    named = SCREENSHOT_LINK.findall((REPO / "docs" / "widgets.md").read_text("utf-8"))
    assert "gas-dashboard.png" in named
    assert len(named) >= 4
    page.set_viewport_size(VIEWPORT)
    answer = page.goto(f"{origin}/widgets.html", wait_until="load", timeout=PAGE_TIMEOUT_MS)
    assert answer is not None
    assert answer.status == 200
    shown = {}
    for name in named:
        image = page.locator(f"img[src$='/{name}']")
        assert image.count() == 1, name
        shown[name] = image.evaluate(
            """image => {
                const shown = image.getBoundingClientRect();
                return [image.complete && image.naturalWidth, image.naturalHeight,
                        shown.width, shown.height];
            }"""
        )
    scaled = {
        name: sizes
        for name, sizes in shown.items()
        if not (sizes[0] and sizes[0] == sizes[2] and sizes[1] == sizes[3])
    }
    assert scaled == {}, "screenshots scaled on the page ([natural w, h, shown w, h])"

    dashboard = page.locator("img[src$='/gas-dashboard.png']")
    blank = dashboard.evaluate(BLANK_ROWS_JS)
    assert blank["share"] <= BLANK_ROWS_AT_MOST, blank
    assert blank["tallest"] <= BLANK_BAND_AT_MOST, blank
