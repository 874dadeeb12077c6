#!/usr/bin/env python3
"""WCAG 2 contrast ratios of the page's text/background pairs, light and dark theme.

Reads the colour variables from web/style.css: the light theme from the top-level
``.app { --name: #hex }`` rules, the dark theme from the ``.app`` rule inside
``@media (prefers-color-scheme: dark)`` (which overrides the light values). The pairs
below are the ones the stylesheet uses for text; literal colours are the ones the rules
hard-code. Prints a table and exits 1 if a pair is under 4.5:1 (WCAG AA, normal text).
axe-core in the e2e suite checks the rendered page as well.

Usage: ``python scripts/contrast_check.py``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

CSS = Path(__file__).resolve().parent.parent / "web" / "style.css"

# (what, foreground, background, dark foreground, dark background); a None dark value
# means "the same as in the light theme"; names starting with -- are variables.
PAIRS = [
    ("body text", "--ink", "--bg", None, None),
    ("text on cards", "--ink", "--card", None, None),
    ("muted text on cards", "--muted", "--card", None, None),
    ("muted text on page", "--muted", "--bg", None, None),
    ("accent text (picked)", "--accent", "--card", None, None),
    ("primary button", "#ffffff", "--accent", "#0b1020", None),
    ("turn badge", "#ffffff", "--accent", "#0b1020", None),
    ("finish button", "#ffffff", "#0f7b4b", None, None),
    ("dialog title bar", "#ffffff", "--night", None, None),
    ("notice", "--ink", "#e7f0ff", None, "#1d2a45"),
    ("warning notice", "--ink", "--warm-l", None, None),
    ("error notice", "--ink", "#fde6e4", None, "#46201d"),
    ("ok text", "#0f7b4b", "--card", "#4fd08f", None),
    ("warn text", "#a15c00", "--card", "#f0b050", None),
    ("form error", "#b3261e", "--card", "#ff8a80", None),
    ("rules card", "--ink", "#f5f7fb", None, "#242a3d"),
    ("skyline caption on sky", "--ink", "--sky-bottom", None, None),
    ("unfinished caption on sky", "--muted", "--sky-bottom", None, None),
    ("unfinished caption on sky top", "--muted", "--sky-top", None, None),
    ("log round badge", "--muted", "#e6eaf2", None, "#2a3145"),
    ("tray placeholder", "--muted", "#eceff6", None, "#232a3d"),
    ("chip", "--ink", "--purple-l", None, None),
    ("chip", "--ink", "--blue-l", None, None),
    ("chip", "--ink", "--orange-l", None, None),
    ("input", "--ink", "#ffffff", None, "--bg"),
]


def variables(css: str) -> tuple[dict[str, str], dict[str, str]]:
    dark_at = css.index("@media (prefers-color-scheme: dark)")
    block = re.compile(r"(?m)^\s*\.app \{([^}]*)\}")
    var = re.compile(r"(--[\w-]+):\s*(#[0-9a-fA-F]{6})")
    light: dict[str, str] = {}
    for m in block.finditer(css):
        if not (dark_at < m.start() < css.index("\n}", dark_at)):
            light.update(var.findall(m.group(1)))
    dark = dict(light)
    m = block.search(css, dark_at)
    assert m is not None, "no .app rule in the dark block"
    dark.update(var.findall(m.group(1)))
    return light, dark


def luminance(hex_colour: str) -> float:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def ratio(fg: str, bg: str) -> float:
    a, b = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def main() -> int:
    light, dark = variables(CSS.read_text("utf-8"))
    failures = 0
    print(f"{'pair':32} {'light':>24} {'dark':>24}")
    for what, fg, bg, dfg, dbg in PAIRS:
        cells = []
        for table, f, b in ((light, fg, bg), (dark, dfg or fg, dbg or bg)):
            f_hex, b_hex = table.get(f, f), table.get(b, b)
            r = ratio(f_hex, b_hex)
            failures += r < 4.5
            cells.append(f"{f_hex}/{b_hex} {r:5.2f}{' !' if r < 4.5 else '  '}")
        print(f"{what:32} {cells[0]:>24} {cells[1]:>24}")
    print("all pairs reach 4.5:1" if not failures else f"{failures} pairs under 4.5:1")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
