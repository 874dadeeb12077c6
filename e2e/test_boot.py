"""The page boots, stays on 127.0.0.1 under the real CSP, works offline and updates.

- ``test_boots_to_ready``: the shared app page (``app_page``) is ready, the loading
  screen gone at 100 %, nothing went wrong.
- One first visit (empty profile, in German, with a fragment: the loading screen)
  covers the loading screen's language and real progress, every request staying
  local without error, CSP violation or source map, cross-origin isolation with
  Python booting in the worker, and then a reload with the site gone and the network
  off that boots from the service worker's cache.
- A new build (a modified copy of the site): a new cache beside the old one while a
  tab runs the old version, no silent switch, and the switch on the next start, with
  the old cache deleted.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from http.server import ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from conftest import wait_for_sw_control
from playwright.sync_api import BrowserContext, Page

if TYPE_CHECKING:
    from conftest import Guard

ServeDir = Callable[[Path], tuple[str, ThreadingHTTPServer]]
OpenApp = Callable[..., Page]
WaitReady = Callable[[Page], None]

# Records every value the progress bar takes (init scripts run before the page's own).
PROGRESS_RECORDER = """
window.__progress = [];
new MutationObserver(() => {
  const bar = document.getElementById("loading-progress");
  if (bar && window.__progress.at(-1) !== bar.value) window.__progress.push(bar.value);
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["value"] });
"""

# Prepended to main.py to make a "new deploy": it marks the page before it is ready
# (main.py runs in a worker, so a line at its end could still be on its way when a
# test reads the mark after ready).
VARIANT = 'from pyscript import window\nwindow.document.body.dataset.variant = "new"\n'


def cache_names(page: Page) -> list[str]:
    """The service worker's version caches (not the interpreter's snapshot, web/snapshot.mjs)."""
    return page.evaluate(
        "async () => (await caches.keys()).filter((k) => k.startsWith('skyline-'))")


def wait_for_versions(
    page: Page, done: Callable[[dict[str, str]], bool], timeout: float = 60
) -> dict[str, str]:
    """The site's service worker versions (id: status) once ``done`` holds for them,
    read through the DevTools protocol from ``page``. The protocol reports the versions
    an event at a time, so a test names the version it waits for (``version_waiting``)
    rather than taking the first report for the whole picture."""
    cdp = page.context.new_cdp_session(page)
    status: dict[str, str] = {}

    def updated(event: dict) -> None:
        status.update({v["versionId"]: v["status"] for v in event["versions"]})

    cdp.on("ServiceWorker.workerVersionUpdated", updated)
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + timeout
    try:
        while not done(status):
            assert time.monotonic() < deadline, f"service worker versions: {status}"
            page.wait_for_timeout(50)  # lets the protocol's events arrive
    finally:
        cdp.detach()
    return status


def version_waiting(page: Page) -> str:
    """The id of the service worker version that is installed and waiting."""
    status = wait_for_versions(page, lambda status: "installed" in status.values())
    return next(version for version, state in status.items() if state == "installed")


def wait_until_activated(page: Page, version: str) -> None:
    """Wait until ``version`` is the active one, from ``page`` (about:blank): a page of
    the site would be a client of the old version and keep the new one waiting."""
    wait_for_versions(page, lambda status: status.get(version) == "activated")


def sw_cache_name(site: Path) -> str:
    return json.loads(
        (site / "sw.js").read_text().split("const CACHE_NAME = ", 1)[1].split(";", 1)[0]
    )


def test_boots_to_ready(app_page: Page, guard: Guard) -> None:
    assert app_page.locator("#app .brand").inner_text() == "Skyline"
    assert app_page.locator("#loading").is_hidden()
    assert app_page.evaluate("document.getElementById('loading-progress').value") == 100
    guard.assert_clean()
    assert guard.requests, "no request recorded"


def test_first_visit_stays_local_shows_progress_and_reloads_offline(
    persistent_context: Callable[..., BrowserContext],
    dist_dir: Path,
    serve_dir: ServeDir,
    guard: Guard,
    wait_ready: WaitReady,
    site_build: ModuleType,
) -> None:
    """One first visit (empty profile and cache), in German, with a fragment (any
    fragment keeps the loading screen, where an empty profile without one sees the
    welcome at once; one that is no link then opens the welcome, as without one):

    - the loading screen is in the browser's language and its bar shows real progress
      (byte progress below 70 %, then 100 % at ready);
    - every request stays local, no CSP violation or error, no source map, the page is
      cross-origin isolated and Python boots (no snapshot to wait for) in the worker;
    - once the service worker controls the page, with the site gone and the network
      off, a reload boots from the service worker's cache, still isolated."""
    url, server = serve_dir(dist_dir)  # a server of its own: it goes away below
    ctx = persistent_context(locale="de-DE")
    ctx.add_init_script(PROGRESS_RECORDER)
    guard.attach(ctx)
    page = ctx.new_page()
    page.goto(url + "#no-link", wait_until="commit")
    page.locator("#loading").wait_for(state="visible")
    assert page.locator(READY := 'body[data-ready="1"]').count() == 0

    # the loading screen, in German
    page.wait_for_function("document.querySelector('[data-step=python]')?.textContent")
    german = json.loads((site_build.WEB / "i18n" / "de.json").read_text())
    assert page.locator("[data-step=python]").inner_text() == german["loading.python"]
    assert page.evaluate("document.documentElement.lang") == "de"
    page.wait_for_function("document.querySelector('[data-step=runtime]').textContent.length > 0")
    wait_ready(page)
    assert page.locator(READY).count() == 1
    assert page.locator("#loading").is_hidden()
    values = page.evaluate("window.__progress")
    assert values[-1] == 100, values
    assert any(0 < v < 70 for v in values), f"no byte progress recorded: {values}"

    # every request local, nothing wrong
    guard.assert_clean()
    assert not guard.csp_violations
    urls = " ".join(guard.requests)
    for needed in ("pyodide.asm.wasm", "/stdlib-", "/app-", "main.py", "core.js"):
        assert needed in urls, f"{needed} never requested"
    assert ".map" not in urls  # no source maps shipped or asked for
    # COOP same-origin + COEP require-corp (netlify.toml): the page is cross-origin
    # isolated, so Pyodide's SharedArrayBuffer use raises no deprecation warning.
    assert page.evaluate("crossOriginIsolated") is True
    assert page.evaluate("document.documentElement.dataset.python") == "worker"
    # a first visit never waits for a snapshot of the interpreter
    assert page.evaluate("document.documentElement.dataset.pythonStart") == "boot"

    page.locator("#dialog [data-testid=dialog-newgame]").wait_for()  # the welcome

    # offline: the service worker has the site
    wait_for_sw_control(page)
    assert cache_names(page) == [sw_cache_name(dist_dir)]
    server.shutdown()  # the site is gone ...
    ctx.set_offline(True)  # ... and so is the network
    # The browser's SW update check cannot reach sw.js: expected while offline.
    guard.allow_console(r"(?i)service ?worker|sw\.js|ERR_INTERNET_DISCONNECTED")
    start = time.monotonic()
    page.reload(wait_until="commit")
    wait_ready(page)
    print(f"offline reload ready in {time.monotonic() - start:.2f} s")
    # The cached page keeps the headers it was precached with: still isolated.
    assert page.evaluate("navigator.serviceWorker.controller != null && crossOriginIsolated")
    ctx.close()


def test_new_build_gets_new_cache_and_old_cache_is_deleted(
    persistent_context: Callable[..., BrowserContext],
    site_copy: Path,
    serve_dir: ServeDir,
    guard: Guard,
    open_app: OpenApp,
    wait_ready: WaitReady,
    site_build: ModuleType,
) -> None:
    url, _ = serve_dir(site_copy)
    ctx = persistent_context()
    page = ctx.new_page()
    guard.attach(page)
    open_app(page, url)
    wait_for_sw_control(page)
    old = sw_cache_name(site_copy)
    assert cache_names(page) == [old]

    # "Deploy" a build with changed content: new main.py, sw.js regenerated by the build.
    main_py = site_copy / "main.py"
    main_py.write_text(VARIANT + main_py.read_text())
    (site_copy / "sw.js").unlink()
    new, _ = site_build.write_service_worker(site_copy)
    assert new != old
    # Same content -> same name: unchanged rebuilds keep the visitors' cache.
    assert site_build.write_service_worker(site_copy)[0] == new

    page.reload(wait_until="commit")  # the navigation makes the browser re-check sw.js
    wait_ready(page)
    deadline = time.monotonic() + 60
    while sorted(cache_names(page)) != sorted([old, new]):  # new SW installed, waiting
        assert time.monotonic() < deadline, f"caches {cache_names(page)}"
        page.wait_for_timeout(200)
    assert page.evaluate("document.body.dataset.variant") is None  # no silent switch
    new_version = version_waiting(page)
    # The next cold start (no tab runs the old version any more) switches.
    page.close()
    page = ctx.new_page()
    guard.attach(page)
    page.goto(url + "?blank", wait_until="commit")  # any page of the site, as a client
    page.goto("about:blank")  # ... gone again: the old version has no client left
    wait_until_activated(page, new_version)
    open_app(page, url)
    deadline = time.monotonic() + 60  # (its own minute: the install's may be spent)
    while cache_names(page) != [new]:  # new SW activated, old cache deleted
        assert time.monotonic() < deadline, f"caches still {cache_names(page)}"
        page.wait_for_timeout(200)
    if page.evaluate("document.body.dataset.variant") is None:  # opened as it activated
        page.reload(wait_until="commit")
        wait_ready(page)
    assert page.evaluate("document.body.dataset.variant") == "new"
    ctx.close()
