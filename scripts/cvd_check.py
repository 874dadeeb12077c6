#!/usr/bin/env python3
"""Check that the page's colours read with colour-vision deficiency (CVD).

Simulation: Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for
Simulation of Color Vision Deficiency", matrices for protanopia, deuteranopia and
tritanopia at severity 1.0, applied in linear RGB (sRGB decoded, matrix, clipped).

**The palette** (the default; standard library only, run by the test suite in
``tests/test_cvd_check.py``): reads the four seat colours (``--seat-0`` .. ``--seat-3``)
and the three dice colours (``--purple``, ``--blue``, ``--orange``) from the ``.app``
rules of ``web/style.css``, simulates each vision type, and prints for each the
smallest CIEDE2000 distance (Sharma, Wu and Dalal 2005; CIELAB with the D65 white)
between any two of the seven colours, and the smallest between two colours of which
at least one is a seat's. It exits 1 if one of the latter is under ``THRESHOLD``
(ΔE00 10: clearly different side by side). The dice's own pairs are printed but not
held to it: the dice are told apart by their faces' patterns, not their colour
(purple and blue are about ΔE00 4 apart with deuteranopia); ``--renders`` measures that.

**The renders** (``--renders``): with Chromium, from ``web/app/core/art.py`` and
``web/style.css``, a sheet of every die (three types, each face, and unrolled) at the
board's tray size (3.6rem) and at the yard's size (2rem), light and dark, and a sample
wide skyline, light and dark; for each a PNG of the original beside its greyscale,
deuteranopia and protanopia renders (``--out``, default ``e2e/.artifacts/cvd``).
Greyscale: relative luminance Y = 0.2126 R + 0.7152 G + 0.0722 B in linear RGB. The
measure: each die (type x face, 9 rolled dice) is screenshotted alone; for each view
and each pair of dice it takes the mean absolute difference of the two images (0-255,
over the RGB channels; the greyscale view over luminance), and prints the smallest pair
overall and within each die type. The last stdout line is one JSON object with the
figures. With PNG paths, it only writes the side-by-side renders of those images. The
renders need Pillow and numpy (not part of the game or the test suite):
``pip install pillow numpy``.

Usage: ``python scripts/cvd_check.py [--css FILE]``,
``python scripts/cvd_check.py --renders [--out DIR] [PNG ...]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import re
import shutil
import sys
import tempfile
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(Path(__file__).resolve().parent), str(ROOT / "web"), str(ROOT)]

if TYPE_CHECKING:
    import numpy as np

Matrix = tuple[tuple[float, float, float], ...]
RGB = tuple[float, float, float]

#: Machado et al. (2009), severity 1.0, for linear RGB
MACHADO: dict[str, Matrix] = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
DICE_COLOURS = ("--purple", "--blue", "--orange")
SEAT_COLOURS = ("--seat-0", "--seat-1", "--seat-2", "--seat-3")
#: the smallest CIEDE2000 distance allowed between a seat's colour and any other
THRESHOLD = 10.0
CSS = ROOT / "web" / "style.css"


# ---------------------------------------------------------------------------- the palette


def read_colours(css: str) -> dict[str, str]:
    """The seat and dice colours: each property's first ``#rrggbb`` value in the
    stylesheet's top-level ``.app { ... }`` rules (the dark theme overrides none)."""
    found: dict[str, str] = {}
    for block in re.finditer(r"^\.app \{(.*?)^\}", css, re.S | re.M):
        for name, value in re.findall(r"(--[\w-]+):\s*(#[0-9a-fA-F]{6})\s*;", block.group(1)):
            found.setdefault(name, value.lower())
    missing = [n for n in (*SEAT_COLOURS, *DICE_COLOURS) if n not in found]
    if missing:
        raise ValueError(f"not in the stylesheet's .app rules: {', '.join(missing)}")
    return {n: found[n] for n in (*SEAT_COLOURS, *DICE_COLOURS)}


def linear(hex_colour: str) -> RGB:
    """A ``#rrggbb`` colour in linear RGB (0-1)."""
    def decode(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (decode(int(hex_colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return r, g, b


def seen_as(rgb: RGB, view: str) -> RGB:
    """A linear RGB colour as ``view`` ("normal" or a key of MACHADO) sees it."""
    if view == "normal":
        return rgb
    m = MACHADO[view]
    r, g, b = (min(1.0, max(0.0, row[0] * rgb[0] + row[1] * rgb[1] + row[2] * rgb[2]))
               for row in m)
    return r, g, b


def lab(rgb: RGB) -> RGB:
    """CIELAB (D65 white) of a linear sRGB colour.

    >>> lightness, a, b = lab((1.0, 1.0, 1.0))  # white
    >>> round(lightness, 2), abs(a) < 1e-3, abs(b) < 1e-3
    (100.0, True, True)
    """
    r, g, b = rgb
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1: RGB, lab2: RGB) -> float:
    """The CIEDE2000 colour difference (kL = kC = kH = 1).

    Sharma, Wu and Dalal's test pairs:
    >>> round(ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)), 4)
    2.0425
    >>> round(ciede2000((50, 2.5, 0), (73, 25, -18)), 4)
    27.1492
    >>> round(ciede2000((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387)), 4)
    1.2644
    """
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    dh_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if not c1p * c2p:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + (360 if h1p + h2p < 360 else -360)) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6))
         - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (dh_big / s_h) ** 2
                     + r_t * (dc / s_c) * (dh_big / s_h))


PALETTE_VIEWS = ("normal", "protanopia", "deuteranopia", "tritanopia")


def closest_pairs(colours: dict[str, str]) -> dict[str, dict[str, Any]]:
    """For each view: the closest pair of all the colours and the closest pair with a
    seat's colour in it, each as (ΔE00, name, name)."""
    result = {}
    for view in PALETTE_VIEWS:
        seen = {name: lab(seen_as(linear(value), view)) for name, value in colours.items()}
        pairs = [(ciede2000(seen[a], seen[b]), a, b)
                 for a, b in itertools.combinations(colours, 2)]
        seats = [p for p in pairs if p[1] in SEAT_COLOURS or p[2] in SEAT_COLOURS]
        result[view] = {"any": min(pairs), "seat": min(seats)}
    return result


def check_palette(css_path: Path) -> int:
    """Print the palette's closest pairs per view; 1 if a seat's pair is too close."""
    colours = read_colours(css_path.read_text("utf-8"))
    print("colours: " + ", ".join(f"{n} {v}" for n, v in colours.items()))
    print(f"smallest CIEDE2000 distance (Machado 2009, severity 1.0); a seat's colour must "
          f"stay {THRESHOLD:g} or more from every other")
    failed = False
    for view, worst in closest_pairs(colours).items():
        (d_any, a1, b1), (d_seat, a2, b2) = worst["any"], worst["seat"]
        low = d_seat < THRESHOLD
        failed |= low
        print(f"  {view:13} any two {d_any:5.1f} ({a1} {b1})   with a seat {d_seat:5.1f} "
              f"({a2} {b2}){'   TOO CLOSE' if low else ''}")
    return 1 if failed else 0


# ---------------------------------------------------------------------------- the renders


def _np() -> Any:
    try:
        import numpy
    except ImportError as error:  # pragma: no cover - an environment message
        sys.exit(f"cvd_check --renders needs Pillow and numpy ({error}); pip install pillow numpy")
    return numpy


LUMA = (0.2126, 0.7152, 0.0722)
VIEWS = ("original", "greyscale", "deuteranopia", "protanopia")


def to_linear(srgb: np.ndarray) -> np.ndarray:
    np = _np()
    c = srgb / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def to_srgb(linear: np.ndarray) -> np.ndarray:
    np = _np()
    c = np.clip(linear, 0.0, 1.0)
    out = np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1 / 2.4) - 0.055)
    return np.round(out * 255.0)


def simulate(rgb: np.ndarray, view: str) -> np.ndarray:
    """An H x W x 3 sRGB array (0-255) as seen in ``view``; greyscale keeps 3 channels."""
    np = _np()
    if view == "original":
        return rgb.astype(float)
    lin = to_linear(rgb.astype(float))
    if view == "greyscale":
        y = lin @ np.array(LUMA)
        return np.repeat(to_srgb(y)[..., None], 3, axis=2)
    return to_srgb(lin @ np.array(MACHADO[view]).T)


def flatten(png: bytes) -> np.ndarray:
    """RGB array of a PNG, transparent parts over white."""
    from PIL import Image

    np = _np()
    image = Image.open(BytesIO(png)).convert("RGBA")
    base = Image.new("RGBA", image.size, (255, 255, 255, 255))
    return np.asarray(Image.alpha_composite(base, image).convert("RGB"))


def side_by_side(rgb: np.ndarray, path: Path) -> None:
    """Write original | greyscale | deuteranopia | protanopia into one PNG."""
    from PIL import Image

    np = _np()
    gap = np.full((rgb.shape[0], 12, 3), 255.0)
    panels = []
    for view in VIEWS:
        panels += [simulate(rgb, view), gap]
    Image.fromarray(np.concatenate(panels[:-1], axis=1).astype(np.uint8)).save(path)


# ---------------------------------------------------------------------------- pages

DICE = [(d, f) for d in "GUP" for f in ("xbo" if d == "P" else "pbo")]


def _page(body: str) -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<link rel="stylesheet" href="style.css"></head>'
        f'<body><div class="app"><main class="sheet">{body}</main></div></body></html>'
    )


def dice_sheet() -> str:
    from app.core import art

    rows = []
    for size in ("", " mini"):
        for d in "GUP":
            cells = "".join(
                f'<span class="die f-{f or "n"}{size}" data-die="{d}{f or "n"}">'
                f"{art.die_svg(d, f)}</span>"
                for f in (*("xbo" if d == "P" else "pbo"), None)
            )
            rows.append(f'<div class="sheet-row">{cells}</div>')
    return _page("".join(rows))


def _t(key: str, **params: object) -> str:
    table = json.loads((ROOT / "web" / "i18n" / "en.json").read_text("utf-8"))
    return table[key].format(**params)


def skyline_sheet() -> str:
    from app.core import art

    lots = [
        art.Lot("p", 2, True), art.Lot("b", 4, True), art.Lot("o", 6, True),
        art.Lot("b", 2, True), art.Lot("o", 3, True), art.Lot("p", 1, True),
        art.Lot("o", 5, True), art.Lot("b", 3, True), art.Lot("o", 4, True),
        art.Lot("p", 1, False), art.Lot("b", 2, False), art.Lot("o", 4, False),
        art.Lot("o", 1, False, "build", "col", "3", "col-0-3"),
        art.Lot("b", 3, False), art.Lot("p", 1, False), art.Lot("o", 2, False),
    ]
    return _page(
        '<section class="player">'
        + art.street_html(
            [(lot, art.lot_label(_t, lot), _t("tile.points", points=lot.points) if lot.completed
              else _t("art.unfinished_cap")) for lot in lots],
            _t("player.label", name="Ada"), _t("skyline.empty"))
        + "</section>"
    )


SHEET_CSS = """
.sheet { padding: 12px; display: grid; gap: 8px; width: max-content; background: var(--card); }
.sheet-row { display: flex; gap: 10px; align-items: center; }
.sheet .player { width: 760px; }
"""


def render(out: Path) -> dict:
    from chromium import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    figures: dict = {}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        site = Path(tmp)
        css = (ROOT / "web" / "style.css").read_text("utf-8") + SHEET_CSS
        (site / "style.css").write_text(css, "utf-8")
        (site / "dice.html").write_text(dice_sheet(), "utf-8")
        (site / "skyline.html").write_text(skyline_sheet(), "utf-8")
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for scheme in ("light", "dark"):
                context = browser.new_context(
                    color_scheme=scheme,
                    viewport={"width": 900, "height": 700},
                    device_scale_factor=2,
                )
                page = context.new_page()
                for name in ("dice", "skyline"):
                    page.goto((site / f"{name}.html").as_uri())
                    png = page.locator(".sheet").screenshot()
                    (out / f"{name}-{scheme}.png").write_bytes(png)
                    side_by_side(flatten(png), out / f"{name}-{scheme}-cvd.png")
                page.goto((site / "dice.html").as_uri())
                images = {}
                for d, f in DICE:
                    box = page.locator(f'.die:not(.mini)[data-die="{d}{f}"]').bounding_box()
                    assert box is not None
                    clip = {"x": round(box["x"]), "y": round(box["y"]), "width": 58, "height": 58}
                    images[f"{d}{f}"] = flatten(page.screenshot(clip=clip))
                figures[scheme] = distinctness(images)
                context.close()
        finally:
            browser.close()
    return figures


def distinctness(images: dict[str, np.ndarray]) -> dict:
    """Smallest mean absolute difference between two dice, per view, overall and per type."""
    np = _np()
    result = {}
    for view in VIEWS:
        sims = {}
        for key, rgb in images.items():
            sim = simulate(rgb, view)
            sims[key] = sim[..., :1] if view == "greyscale" else sim
        pairs = {
            (a, b): float(np.mean(np.abs(sims[a] - sims[b])))
            for a, b in itertools.combinations(sorted(sims), 2)
        }
        worst = min(pairs, key=pairs.__getitem__)
        within = {
            d: round(min(v for (a, b), v in pairs.items() if a[0] == b[0] == d), 1) for d in "GUP"
        }
        result[view] = {"min": round(pairs[worst], 1), "pair": "-".join(worst), "within": within}
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--css", type=Path, default=CSS, help="the stylesheet to read")
    parser.add_argument("--renders", action="store_true",
                        help="render the dice and a skyline in Chromium (Pillow, numpy)")
    parser.add_argument("--out", type=Path, default=ROOT / "e2e" / ".artifacts" / "cvd")
    parser.add_argument("png", nargs="*", type=Path, help="only simulate these screenshots")
    args = parser.parse_args()
    if not args.renders and not args.png:
        sys.exit(check_palette(args.css))
    args.out.mkdir(parents=True, exist_ok=True)
    if args.png:
        for path in args.png:
            side_by_side(flatten(path.read_bytes()), args.out / f"{path.stem}-cvd.png")
            print(f"wrote {args.out / (path.stem + '-cvd.png')}")
        return
    if shutil.which("chromium") is None and not Path("/usr/bin/chromium").exists():
        sys.exit("cvd_check: Chromium not found")
    figures = render(args.out)
    for scheme, views in figures.items():
        print(f"{scheme}: smallest mean |difference| between two dice (0-255), 9 rolled dice")
        for view, f in views.items():
            within = ", ".join(f"{d} {v}" for d, v in f["within"].items())
            print(f"  {view:13} {f['min']:6.1f}  ({f['pair']})   within a type: {within}")
    print(f"renders in {args.out}")
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
