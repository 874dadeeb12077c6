#!/usr/bin/env python3
"""Check that the dice and skylines read without colour: greyscale and colour-vision
deficiency (CVD) renders, and a measure of how far apart the die faces are.

Simulation: Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for
Simulation of Color Vision Deficiency", matrices for protanopia and deuteranopia at
severity 1.0, applied in linear RGB (sRGB decoded, matrix, clipped, encoded again).
Greyscale: relative luminance Y = 0.2126 R + 0.7152 G + 0.0722 B in linear RGB.

Without arguments the script renders, with Chromium, from ``web/art.py`` and
``web/style.css``:

* a sheet of every die (three types, each face, and unrolled) at the board's tray size
  (3.6rem) and at the yard's size (2rem), light and dark;
* a sample wide skyline (four players' worth of completed and unfinished buildings),
  light and dark;

and writes for each a PNG of the original beside its greyscale, deuteranopia and
protanopia renders (``--out``, default ``e2e/.artifacts/cvd``). The measure: each die
(type x face, 9 rolled dice) is screenshotted alone; for each view (original,
greyscale, deuteranopia, protanopia) and each pair of dice it takes the mean absolute
difference of the two images (0-255, over the RGB channels; the greyscale view over
luminance), and prints the smallest pair overall and within each die type. A pair that
differs only in colour would drop to a few units in greyscale; one that differs in
pattern and shape keeps a large difference in every view. The last stdout line is one
JSON object with the figures.

With PNG paths, it only writes the side-by-side renders of those images.

Needs Pillow and numpy (not part of the game or the test suite):
``pip install pillow numpy``.

Usage: ``python scripts/cvd_check.py [--out DIR] [PNG ...]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import sys
import tempfile
from io import BytesIO
from pathlib import Path

try:
    import numpy as np
    from PIL import Image
except ImportError as error:  # pragma: no cover - an environment message
    sys.exit(f"cvd_check needs Pillow and numpy ({error}); pip install pillow numpy")

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(Path(__file__).resolve().parent), str(ROOT / "web"), str(ROOT)]
from app.core import art  # noqa: E402 - web/art.py

PROTANOPIA = np.array(
    [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ]
)
DEUTERANOPIA = np.array(
    [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ]
)
LUMA = np.array([0.2126, 0.7152, 0.0722])
VIEWS = ("original", "greyscale", "deuteranopia", "protanopia")


def to_linear(srgb: np.ndarray) -> np.ndarray:
    c = srgb / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def to_srgb(linear: np.ndarray) -> np.ndarray:
    c = np.clip(linear, 0.0, 1.0)
    out = np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1 / 2.4) - 0.055)
    return np.round(out * 255.0)


def simulate(rgb: np.ndarray, view: str) -> np.ndarray:
    """An H x W x 3 sRGB array (0-255) as seen in ``view``; greyscale keeps 3 channels."""
    if view == "original":
        return rgb.astype(float)
    lin = to_linear(rgb.astype(float))
    if view == "greyscale":
        y = lin @ LUMA
        return np.repeat(to_srgb(y)[..., None], 3, axis=2)
    matrix = DEUTERANOPIA if view == "deuteranopia" else PROTANOPIA
    return to_srgb(lin @ matrix.T)


def flatten(png: bytes) -> np.ndarray:
    """RGB array of a PNG, transparent parts over white."""
    image = Image.open(BytesIO(png)).convert("RGBA")
    base = Image.new("RGBA", image.size, (255, 255, 255, 255))
    return np.asarray(Image.alpha_composite(base, image).convert("RGB"))


def side_by_side(rgb: np.ndarray, path: Path) -> None:
    """Write original | greyscale | deuteranopia | protanopia into one PNG."""
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
    parser.add_argument("--out", type=Path, default=ROOT / "e2e" / ".artifacts" / "cvd")
    parser.add_argument("png", nargs="*", type=Path, help="only simulate these screenshots")
    args = parser.parse_args()
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
