#!/usr/bin/env python3
"""Draw the app icons and take the install-dialog screenshots (web/icons/).

Icons: a night sky with three towers in the game's colours (purple low-rise, blue
mid-rise, orange high-rise) on a street, at 192 and 512 px; a maskable 512 px variant
keeps the drawing inside the central safe circle (80 %) on a full-bleed background.
Screenshots (``--screenshots``): the built page (``dist/``) in a wide and a narrow
window, a game in progress, as palette PNGs. The files are committed; the build only
copies them. Needs Pillow (``pip install pillow``), used by this script only.

Usage: ``python scripts/make_icons.py [--screenshots]``.
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "web" / "icons"
NIGHT = (29, 35, 64)  # --night in style.css (the manifest's theme colour)
PURPLE, BLUE, ORANGE = (116, 70, 192), (31, 111, 209), (228, 114, 15)
WINDOW = (255, 236, 170)
STREET = (74, 82, 104)


def skyline(size: int, scale: float, rounded: bool) -> Image.Image:
    """The drawing at ``size`` px; ``scale`` shrinks it towards the centre (maskable)."""
    big = 4 * size  # draw large, then downsample: smooth edges
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if rounded:
        d.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 6, fill=NIGHT)
    else:
        d.rectangle((0, 0, big, big), fill=NIGHT)

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        c = big / 2
        return tuple(int(c + (v - 0.5) * big * scale) for v in (x0, y0, x1, y1))  # type: ignore[return-value]

    d.ellipse(box(0.16, 0.14, 0.28, 0.26), fill=(245, 240, 220))  # the moon
    towers = ((0.14, 0.56, 0.36, PURPLE), (0.38, 0.40, 0.60, BLUE), (0.62, 0.22, 0.86, ORANGE))
    for x0, top, x1, colour in towers:
        d.rectangle(box(x0, top, x1, 0.82), fill=colour)
        y = top + 0.05
        while y < 0.76:
            for wx in (x0 + 0.04, (x0 + x1) / 2 + 0.01):
                d.rectangle(box(wx, y, wx + 0.05, y + 0.05), fill=WINDOW)
            y += 0.09
    d.rectangle(box(0.08, 0.82, 0.92, 0.86), fill=STREET)
    return img.resize((size, size), Image.LANCZOS)


def icons() -> list[Path]:
    OUT.mkdir(parents=True, exist_ok=True)
    out = []
    for size in (192, 512):
        path = OUT / f"icon-{size}.png"
        skyline(size, 0.92, rounded=True).save(path, optimize=True)
        out.append(path)
    path = OUT / "maskable-512.png"
    skyline(512, 0.72, rounded=False).convert("RGB").save(path, optimize=True)
    out.append(path)
    return out


def screenshots() -> list[Path]:
    """The built page, a game in progress, wide (1280x800) and narrow (540x960)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import serve
    from chromium import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    dist = ROOT / "dist"
    server = serve.make_server(dist)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    url = f"http://{host}:{port}/#play?p=Ada&p=Bo&seed=shots&start=0&nine=0"
    out = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for name, (w, h) in {"wide": (1280, 800), "narrow": (540, 960)}.items():
                page = browser.new_page(viewport={"width": w, "height": h})
                page.goto(url)
                page.wait_for_selector("body[data-ready='1']", timeout=180_000)
                if page.locator("#dialog .overlay").count():
                    page.keyboard.press("Escape")  # the first visit's new-game dialog
                for sel in ("#yard-G", "#yard-U", "#yard-P", "#act-roll"):
                    page.click(sel)
                page.wait_for_timeout(800)  # the roll animation
                path = OUT / f"screenshot-{name}.png"
                page.screenshot(path=str(path))
                Image.open(path).convert("RGB").quantize(128).save(path, optimize=True)
                out.append(path)
                page.close()
            browser.close()
    finally:
        server.shutdown()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshots", action="store_true", help="also take screenshots")
    args = parser.parse_args()
    made = icons() + (screenshots() if args.screenshots else [])
    for path in made:
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,d} B")


if __name__ == "__main__":
    main()
