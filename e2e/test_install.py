"""The page is installable: web app manifest, icons, screenshots (web/manifest.webmanifest).

One visit of a player who has been here before (``warm_context``: the service worker
installed and its cache filled), as when a player installs the game: Chromium's own
installability check, the manifest it parsed against the page and the files, and the
precache of what an install needs."""

from __future__ import annotations

import json
import struct
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from conftest import wait_for_sw_control
from playwright.sync_api import BrowserContext, Page

if TYPE_CHECKING:
    from conftest import Guard


def png_size(path: Path) -> str:
    width, height = struct.unpack(">II", path.read_bytes()[16:24])
    return f"{width}x{height}"


def test_chromium_finds_the_page_installable(
    warm_context: Callable[..., BrowserContext],
    dist_dir: Path,
    site_url: str,
    guard: Guard,
    open_app: Callable[..., Page],
) -> None:
    """Chromium's own installability check (DevTools protocol) reports nothing but the
    test's incognito context; the manifest it parsed has every field an install dialog
    uses, colours matching the page, real icon and screenshot sizes, and it is precached."""
    ctx = warm_context()
    page = ctx.new_page()
    guard.attach(page)
    open_app(page, site_url)
    wait_for_sw_control(page)
    cdp = ctx.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == []
    got = cdp.send("Page.getAppManifest")
    assert got["errors"] == [] and got["url"].endswith("/manifest.webmanifest")
    manifest = json.loads(got["data"])
    assert manifest["name"].startswith("Skyline") and manifest["short_name"] == "Skyline"
    assert manifest["description"] and manifest["start_url"] == "./"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == page.evaluate(
        "document.querySelector('meta[name=theme-color]').content")
    top = page.evaluate("getComputedStyle(document.getElementById('app'))"
                        ".getPropertyValue('--night').trim()")
    assert manifest["theme_color"] == top  # the top bar's colour
    body = page.evaluate("getComputedStyle(document.getElementById('app')).backgroundColor")
    r, g, b = (int(manifest["background_color"][i:i + 2], 16) for i in (1, 3, 5))
    assert body == f"rgb({r}, {g}, {b})"
    icons = {(i["sizes"], i.get("purpose", "any")): i["src"] for i in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= set(icons)
    shots = {s["form_factor"]: s for s in manifest["screenshots"]}
    assert set(shots) == {"wide", "narrow"} and all(s["label"] for s in shots.values())
    for (sizes, _), src in icons.items():
        assert png_size(dist_dir / src) == sizes
    for shot in shots.values():
        assert png_size(dist_dir / shot["src"]) == shot["sizes"]
    for src in ["manifest.webmanifest", *icons.values()]:  # offline install keeps working
        assert page.evaluate(f"caches.match('./{src}').then(r => !!r)"), src
    ctx.close()
