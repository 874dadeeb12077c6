"""Start-up on any static host, and never stuck on "Starting…".

- A plain file server sends no cross-origin isolation headers (GitHub Pages, most file
  hosts): the page has no SharedArrayBuffer, so Python runs on the main thread instead of
  PyScript's worker (web/host.js) and the game plays, saves and reloads as usual.
- When start-up cannot finish (a download fails; nothing arrives any more), the loading
  screen says so in the player's language, offers Retry and the rules, and leaves the
  saved games as they were.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from threading import Thread

import pytest
from axe_helpers import describe, run_axe
from board_helpers import close_first_dialog, dice, record, take
from playwright.sync_api import Browser, Page

TABLES = {lang: json.loads((Path(__file__).resolve().parent.parent / "web" / "i18n"
                            / f"{lang}.json").read_text("utf-8")) for lang in ("en", "de")}


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def plain_url(dist_dir: Path) -> Iterator[str]:
    """dist/ served by Python's plain static server: no COOP/COEP, no CSP, no headers."""
    server = ThreadingHTTPServer(("127.0.0.1", 0),
                                 functools.partial(_QuietHandler, directory=str(dist_dir)))
    Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def test_a_host_without_isolation_headers_plays_on_the_main_thread(
    browser: Browser, plain_url: str, wait_ready
) -> None:
    ctx = browser.new_context(service_workers="block")
    try:
        page = ctx.new_page()
        page.goto(plain_url, wait_until="commit")
        wait_ready(page)
        assert page.evaluate("crossOriginIsolated") is False
        assert page.evaluate("document.documentElement.dataset.python") == "main"
        close_first_dialog(page)
        take(page, "GGU")
        page.click("#act-roll")
        assert all(d["face"] for d in dice(page)) and len(dice(page)) == 3
        played = record(page)
        page.reload(wait_until="commit")
        wait_ready(page)
        assert record(page) == played and len(dice(page)) == 3
        # a shared game's link opens on this host too
        page.goto(plain_url + "#play?p=Ann,Bo&seed=plain&start=0", wait_until="commit")
        page.locator("[data-testid=dialog-confirm_link]").wait_for()
    finally:
        ctx.close()


def _prepared_context(browser: Browser, lang: str, stall_ms: int | None = None):
    """A context with a stored game (written before the page's scripts run) and, for
    the stall test, a short stall limit (web/boot.js ``__skylineStallMs``)."""
    ctx = browser.new_context(service_workers="block",  # unguarded: it fails on purpose
                              locale="de-DE" if lang == "de" else "en-US",
                              bypass_csp=True)  # for the axe audit
    init = "localStorage.setItem('skyline.test.kept', 'a saved game');"
    if stall_ms is not None:
        init += f"window.__skylineStallMs = {stall_ms};"
    ctx.add_init_script(init)
    return ctx


def _failed(page: Page, lang: str, key: str) -> None:
    error = page.locator("#loading-error")
    error.wait_for(state="visible", timeout=60_000)
    assert error.inner_text() == TABLES[lang][key]
    assert page.locator("#loading-retry").inner_text() == TABLES[lang]["loading.retry"]
    assert page.locator("#loading [data-boot-rules]").is_visible()  # the rules stay
    assert page.evaluate("document.body.dataset.ready") is None
    assert page.evaluate("localStorage.getItem('skyline.test.kept')") == "a saved game"
    violations = run_axe(page)
    assert not violations, describe(violations)


def test_a_failed_runtime_download_says_so_and_retry_starts_the_game(
    browser: Browser, site_url: str, wait_ready
) -> None:
    """In English; the stall below in German: the failure screen in both languages."""
    lang = "en"
    ctx = _prepared_context(browser, lang)
    try:
        page = ctx.new_page()
        page.route("**/pyodide.asm.wasm", lambda route: route.abort())
        page.goto(site_url, wait_until="commit")
        _failed(page, lang, "loading.failed_runtime")
        page.unroute("**/pyodide.asm.wasm")
        page.click("#loading-retry")
        wait_ready(page)
        assert page.evaluate("localStorage.getItem('skyline.test.kept')") == "a saved game"
    finally:
        ctx.close()


def test_a_start_that_stops_progressing_says_so(browser: Browser, site_url: str) -> None:
    """The game's own code never arrives (the request hangs): no step passes, no byte
    comes, and after the stall limit the page says so instead of "Starting…" for ever
    (in German; the download failure above in English)."""
    lang = "de"
    ctx = _prepared_context(browser, lang, stall_ms=3000)
    try:
        page = ctx.new_page()
        page.route("**/app-*.json", lambda route: None)  # never answered
        page.goto(site_url, wait_until="commit")
        _failed(page, lang, "loading.stalled")
    finally:
        ctx.close()
