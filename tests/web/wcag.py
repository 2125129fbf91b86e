"""WCAG 2.x contrast from a page's computed styles: parse CSS colours, composite them, compute ratios.

The page reports, for each visible text element, its text colour, its opacity and every
background colour from the element up to the root; compositing happens here, so what is
checked is what the eye gets (a semi-transparent tint over a card over the page).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

RGB = tuple[float, float, float]

_COLOUR = re.compile(r"rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)")


def parse_colour(css: str) -> tuple[RGB, float]:
    """``rgb(…)``/``rgba(…)`` as computed by a browser → ((r, g, b) in 0–255, alpha 0–1)."""
    match = _COLOUR.fullmatch(css.strip())
    if not match:
        raise ValueError(f"not an rgb() colour: {css!r}")
    red, green, blue, alpha = match.groups()
    if alpha is None:
        a = 1.0
    elif alpha.endswith("%"):
        a = float(alpha[:-1]) / 100
    else:
        a = float(alpha)
    return (float(red), float(green), float(blue)), a


def over(top: RGB, alpha: float, bottom: RGB) -> RGB:
    """``top`` at ``alpha`` painted over an opaque ``bottom``."""
    return (
        top[0] * alpha + bottom[0] * (1 - alpha),
        top[1] * alpha + bottom[1] * (1 - alpha),
        top[2] * alpha + bottom[2] * (1 - alpha),
    )


def relative_luminance(colour: RGB) -> float:
    """WCAG relative luminance of an sRGB colour (0–255 channels)."""

    def linear(channel: float) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(c) for c in colour)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio, 1 to 21."""
    light, dark = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def backdrop(backgrounds: list[str], canvas: RGB) -> RGB:
    """The opaque colour behind an element: its and its ancestors' backgrounds over the canvas."""
    colour = canvas
    for css in reversed(backgrounds):  # from the root down to the element
        rgb, alpha = parse_colour(css)
        if alpha > 0:
            colour = over(rgb, alpha, colour)
    return colour


@dataclass(frozen=True)
class Measured:
    what: str
    ratio: float


def text_ratios(samples: list[dict[str, Any]], canvas: RGB) -> list[Measured]:
    """The contrast of each text sample (from COLLECT_TEXT) against what is behind it."""
    measured = []
    for sample in samples:
        behind = backdrop(sample["backgrounds"], canvas)
        rgb, alpha = parse_colour(sample["color"])
        seen = over(rgb, alpha * sample["opacity"], behind)
        measured.append(Measured(sample["what"], contrast_ratio(seen, behind)))
    return measured


# Runs in the page: every visible element with text of its own, and the colours that make it.
COLLECT_TEXT = """
() => {
  const out = [];
  const visible = (el) => {
    const rects = el.getClientRects();
    if (!rects.length) return false;
    const style = getComputedStyle(el);
    return style.visibility !== "hidden" && !el.closest("[hidden]") && !el.closest(".visually-hidden");
  };
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("details:not([open]) > :not(summary)")) continue;
    const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!ownText || !visible(el) || el.tagName === "SCRIPT" || el.tagName === "TITLE") continue;
    const backgrounds = [];
    let opacity = 1;
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      backgrounds.push(style.backgroundColor);
      opacity *= Number(style.opacity);
    }
    const label = (el.id ? "#" + el.id : el.tagName.toLowerCase() + (el.className ? "." + el.className : ""));
    out.push({
      what: label + " «" + el.textContent.trim().slice(0, 40) + "»",
      color: getComputedStyle(el).color,
      opacity,
      backgrounds,
    });
  }
  return out;
}
"""
