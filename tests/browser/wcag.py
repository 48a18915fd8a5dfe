"""WCAG 2 contrast, as the browser tests measure it on a page: every element holding text of
its own, its computed colour (with the opacity it is drawn with) against what it is drawn
on, its background and its ancestors' composed down to the first opaque one; each must
reach AA, 4.5:1, or 3:1 for large text (24px, or 18.66px and bold).

The formulas are WCAG 2.2's (relative luminance of sRGB, ratio (L1 + 0.05) / (L2 + 0.05)),
written here independently of the style sheets they judge.
"""

from __future__ import annotations

import re
from typing import Any, Final, NamedTuple

AA_TEXT: Final = 4.5
AA_LARGE: Final = 3.0
_RGB: Final = re.compile(r"rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)")

#: Every element of a snapshot holding text of its own: its colour, the background colours
#: from it up to the page's root, the opacity it is drawn with, its size and weight.
TEXT_ELEMENTS_JS: Final = """
roots => {
  const found = [];
  roots.forEach((root, snapshot) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const seen = new Set();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!node.textContent.trim() || seen.has(element)) continue;
      seen.add(element);
      const style = getComputedStyle(element);
      if (style.visibility !== "visible" || !element.getClientRects().length) continue;
      const backgrounds = [];
      let opacity = 1;
      for (let at = element; at; at = at.parentElement) {
        const own = getComputedStyle(at);
        opacity *= parseFloat(own.opacity);
        backgrounds.push(own.backgroundColor);
      }
      found.push({
        snapshot,
        element: element.tagName.toLowerCase()
          + (element.className ? "." + String(element.className).split(/\\s+/).join(".") : ""),
        text: node.textContent.trim().slice(0, 40),
        color: style.color,
        backgrounds,
        opacity,
        size: parseFloat(style.fontSize),
        weight: parseInt(style.fontWeight, 10),
      });
    }
  });
  return found;
}
"""


class Colour(NamedTuple):
    red: float
    green: float
    blue: float
    alpha: float


def parse_colour(css: str) -> Colour:
    """A computed ``rgb()`` or ``rgba()`` colour."""
    match = _RGB.fullmatch(css.strip())
    assert match, f"unexpected computed colour {css!r}"
    red, green, blue, alpha = match.groups()
    return Colour(float(red), float(green), float(blue), 1.0 if alpha is None else float(alpha))


def over(top: Colour, below: Colour) -> Colour:
    """``top`` drawn over an opaque ``below``."""
    a = top.alpha
    return Colour(*(a * t + (1 - a) * b for t, b in zip(top[:3], below[:3], strict=True)), 1.0)


def luminance(colour: Colour) -> float:
    """WCAG 2's relative luminance of an opaque sRGB colour."""

    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(channel) for channel in colour[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: Colour, second: Colour) -> float:
    """WCAG 2's contrast ratio of two opaque colours, from 1 to 21."""
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def backdrop(backgrounds: list[str]) -> Colour:
    """What an element is drawn on: its background and its ancestors', innermost first,
    composed down to the first opaque one (white, the canvas, when none is)."""
    layers = []
    for css in backgrounds:
        colour = parse_colour(css)
        if colour.alpha > 0:
            layers.append(colour)
        if colour.alpha >= 1:
            break
    result = Colour(255.0, 255.0, 255.0, 1.0)
    for layer in reversed(layers):
        result = over(layer, result)
    return result


def required(size: float, weight: int) -> float:
    """The ratio WCAG AA asks of text of this computed size (px) and weight."""
    large = size >= 24 or (size >= 18.66 and weight >= 700)
    return AA_LARGE if large else AA_TEXT


def below_aa(elements: list[dict[str, Any]], where: str) -> list[tuple[float, str]]:
    """``(ratio, description)`` of each element below the ratio WCAG AA asks of it."""
    below = []
    for element in elements:
        colour = parse_colour(element["color"])
        colour = colour._replace(alpha=colour.alpha * element["opacity"])
        ground = backdrop(element["backgrounds"])
        ratio = contrast(over(colour, ground), ground)
        if ratio < required(element["size"], element["weight"]):
            drawn_on = tuple(round(channel) for channel in ground[:3])
            below.append(
                (
                    ratio,
                    f"{ratio:.2f}:1 {where} snapshot {element['snapshot']} <{element['element']}> "
                    f"{element['text']!r}: {element['color']} on rgb{drawn_on}",
                )
            )
    return below
