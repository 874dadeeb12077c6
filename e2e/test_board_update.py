"""Offline mid-game, then a new deploy: the game survives both (service worker + save
format migration)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from board_helpers import close_first_dialog, dice, new_game, record, saved, select_only, take
from conftest import wait_for_sw_control
from fault_log import scenario
from playwright.sync_api import BrowserContext, Page

if TYPE_CHECKING:
    from conftest import Guard

# Prepended to main.py to make a "new deploy": it marks the page before it is ready
# (main.py runs in a worker, so a line at its end could still be on its way when a
# test reads the mark after ready).
VARIANT = 'from pyscript import window\nwindow.document.body.dataset.variant = "new"\n'


# The service worker's version caches (not the interpreter's snapshot, web/snapshot.mjs).
VERSION_CACHES = "async () => (await caches.keys()).filter((k) => k.startsWith('skyline-'))"


def sw_cache_name(site: Path) -> str:
    return json.loads(
        (site / "sw.js").read_text().split("const CACHE_NAME = ", 1)[1].split(";", 1)[0]
    )


def as_v1(envelope: dict) -> str:
    """The same game in save format v1 (what the page wrote before skyline.records.links)."""
    v1 = {"v": 1, "game": envelope["game"], "saved_at": envelope["saved_at"],
          "beat": envelope["beat"], "ui": envelope["ui"]}
    return json.dumps(v1, separators=(",", ":"), ensure_ascii=False)


def test_offline_mid_game_then_update_keeps_the_game(
    persistent_context: Callable[..., BrowserContext],
    site_copy: Path,
    serve_dir: Callable[..., tuple],
    guard: Guard,
    open_app: Callable[..., Page],
    wait_ready: Callable[[Page], None],
    site_build: ModuleType,
) -> None:
    """Play online; the site goes away and the network too: a reload resumes the game
    on the cached version, and a move offline is kept. A new build is deployed (new
    main.py, so a new service-worker cache): back online the page says a new version
    is ready and switches only when the player accepts. Declined, the old version
    plays on (also after a reload); accepted (with the stored save in the older v1
    format), the new version shows the same game, rewritten as a v2 save, and play
    goes on. Catches an offline boot failure, a silent switch, a save lost or refused
    across versions, or a stale version forever."""
    guard.allow_console(r"(?i)service ?worker|sw\.js|ERR_INTERNET_DISCONNECTED")
    url, server = serve_dir(site_copy)
    port = server.server_address[1]
    ctx = persistent_context()
    page = ctx.new_page()
    guard.attach(page)
    with scenario("offline mid-game, then a new deploy with a v1 save") as s:
        open_app(page, url)
        wait_for_sw_control(page)
        close_first_dialog(page)
        new_game(page, ("Uma", "Vic"), seed="update1", start="0")
        take(page, "GUP")
        page.click("#act-roll")

        server.shutdown()
        server.server_close()
        ctx.set_offline(True)
        page.reload(wait_until="commit")
        wait_ready(page)
        assert page.evaluate("document.body.dataset.variant") is None  # the old version
        assert len(dice(page)) == 3
        select_only(page, [next(d["id"] for d in dice(page) if d["type"] == "G")])
        page.click("#act-build")  # a move made offline
        played = record(page)
        assert played.split()[-1].startswith("b")

        # the deploy: changed main.py, sw.js regenerated (new cache name)
        old = sw_cache_name(site_copy)
        main_py = site_copy / "main.py"
        main_py.write_text(VARIANT + main_py.read_text())
        (site_copy / "sw.js").unlink()
        new, _ = site_build.write_service_worker(site_copy)
        assert new != old
        serve_dir(site_copy, port=port)  # same origin: same storage, same SW registration
        ctx.set_offline(False)
        page.reload(wait_until="commit")  # still the cached version; the SW update starts
        wait_ready(page)
        assert record(page) == played
        bar = page.locator("#update")
        bar.wait_for(state="visible", timeout=60_000)  # the new version installed, waits
        assert "new version is ready" in bar.inner_text()
        assert page.evaluate("document.body.dataset.variant") is None

        # decline: the old version goes on (also after a reload), the game too
        page.click("#update-later")
        assert bar.is_hidden()
        page.click("#act-end")
        played += " e"
        page.reload(wait_until="commit")
        wait_ready(page)
        assert page.evaluate("document.body.dataset.variant") is None
        assert record(page) == played
        assert new in page.evaluate(VERSION_CACHES)  # waiting, not yet in charge

        # the older version's save format, then accept: the new version starts
        page.evaluate("s => localStorage.setItem('skyline.save', s)", as_v1(saved(page)))
        bar.wait_for(state="visible", timeout=60_000)
        with page.expect_navigation(wait_until="commit"):
            page.click("#update-reload")
        wait_ready(page)
        assert page.evaluate("document.body.dataset.variant") == "new"
        assert record(page) == played
        assert saved(page)["v"] == 2  # migrated at once
        assert page.locator("[data-key='notice.save_broken']").count() == 0
        deadline = time.monotonic() + 60
        while page.evaluate(VERSION_CACHES) != [new]:  # the old version's cache is gone
            assert time.monotonic() < deadline, page.evaluate(VERSION_CACHES)
            page.wait_for_timeout(200)
        assert bar.is_hidden()
        take(page, "GUP")  # and the game goes on, saved
        page.click("#act-roll")
        after = saved(page)["game"]["record"]
        assert after.startswith(played + " t") and " r" in after[len(played):]
        s.kept("game resumed offline (+1 move offline), new version offered: declined "
               "(old version played on, +1 move), then accepted: same game, v1 save "
               "migrated to v2")
