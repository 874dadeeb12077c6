"""The cut runtime and the lazily fetched value table (scripts/build.py, web/main.py).

- On the shared app page: the cut standard library has every module the page imports
  (an expert game, the review, a link); the QR code library and its modules come only
  when a QR code is asked for.
- One visitor's first visit (sources, no value table at start-up, the later engine
  modules in idle time, the table cached by the service worker) and next visit,
  offline with the server gone (the precached bytecode; Hint from the cached table).
- A first visit whose later modules never arrive fetches the table expert when its turn
  comes; the start path's app archive holds neither the command line nor the later
  modules (read from dist/).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from board_helpers import POLICY_STEP, close_first_dialog
from conftest import LONG_WAIT_POLL_MS, wait_for_sw_control
from playwright.sync_api import BrowserContext, Page

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import stdlib_modules  # noqa: E402 - scripts/stdlib_modules.py

if TYPE_CHECKING:
    from conftest import Guard

TABLE = "data/solo_values.bin"
# Every URL fetched so far, by the page (Resource Timing) and by the worker that runs
# Python (its own Resource Timing, through window.skylineBots), as paths.
FETCHED = """async () => [
  ...performance.getEntriesByType('resource').map((e) => e.name),
  ...JSON.parse(await window.skylineBots('resources', '')).map((e) => e.url),
].map((name) => new URL(name).pathname)"""


def load_table(page: Page) -> None:
    """Ask the page for the value table until it has fetched it (fetched on first need)."""
    for _ in range(300):
        if "missing" not in json.loads(page.evaluate("window.skylineBots('table', '')")):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the value table never arrived")


def test_cut_runtime_imports_every_module_the_page_uses(app_page: Page) -> None:
    """The page boots Pyodide with the cut standard library and no lock-file download;
    every module web/main.py, web/app/ and skyline/ import (read from their source, the expert
    included) imports there, and an expert game with Hint, the review and a game link
    runs. Fails when a new import is missing from scripts/stdlib_modules.txt."""
    page = app_page
    fetched = page.evaluate(FETCHED)
    assert not any(p.endswith(("python_stdlib.zip", "pyodide-lock.json")) for p in fetched)
    assert any("/stdlib-" in p for p in fetched)
    assert f"/{TABLE}" not in fetched  # not on the start-up path
    load_table(page)
    names = stdlib_modules.page_imports()
    assert "skyline.players.expert" in names and "importlib.resources" in names
    result = json.loads(page.evaluate("(a) => window.skylineBots('modules', a)", ",".join(names)))
    assert result["failed"] == {}
    assert "skyline.players.expert" in result["modules"]


def test_qr_code_library_and_its_modules_load_on_demand(app_page: Page) -> None:
    """The QR code library (segno) and the standard-library modules only it needs
    (dist/qr/stdlib.zip) are not fetched at start-up; asking for a QR code fetches
    both and draws it."""
    page = app_page
    close_first_dialog(page)
    page.click("#btn-new")
    page.select_option("#dlg-first", "2")
    page.fill("#ng-name0", "Ann")
    page.fill("#ng-name1", "Bo")
    page.select_option("#ng-seat1", "friend")
    page.fill("#ng-seed", "qr-e2e")
    page.click("#ng-start-btn")
    for _ in range(400):
        if page.locator("[data-testid=dialog-send]").count():
            break
        assert page.evaluate(POLICY_STEP) not in ("stuck", "over")
    assert not any("/qr/" in p for p in page.evaluate(FETCHED))
    page.click("#corr-qr")
    page.locator("[data-testid=qr] svg").wait_for(timeout=30_000)
    fetched = page.evaluate(FETCHED)
    assert "/qr/stdlib.zip" in fetched
    assert any(p.startswith("/qr/segno-") for p in fetched)



def test_first_visit_then_bytecode_app_and_the_value_table_offline(
    persistent_context: Callable[..., BrowserContext],
    dist_dir: Path,
    serve_dir: Callable[..., tuple],
    guard: Guard,
    open_app: Callable[..., Page],
) -> None:
    """One visitor, two visits.

    A first visit loads the standard library as bytecode (compiling it cost a phone more
    than the extra bytes) and the app's modules as sources (fewer bytes, one text file;
    compiling them costs little), fetches no value table at start-up, and the
    engine's modules off the start path (the experts, the reviews) in idle time after
    ready; the service worker caches the value table in the background. The next visit,
    offline with the server gone, comes from the service worker: the precached bytecode
    archives (no compiling), the library's and the app's; Hint (the expert) works from
    the service worker's cache of the table."""
    later = json.loads((dist_dir / "later.json").read_text())["files"]
    url, server = serve_dir(dist_dir)  # a server of its own: it goes away below
    ctx = persistent_context()
    guard.attach(ctx)
    page = ctx.new_page()
    open_app(page, url)

    # --- the first visit: the library's bytecode, the app's sources
    # the page fetches them at once (web/js/prefetch.js), the worker then from the HTTP
    # cache
    fetched = page.evaluate(FETCHED)
    libs = {p for p in fetched if "/stdlib-" in p}
    assert len(libs) == 1 and libs.pop().endswith("-pyc.zip"), libs
    app = {p for p in fetched if p.startswith("/app-")}
    assert len(app) == 1 and app.pop().endswith(".json"), app
    assert not [p for p in fetched if p.endswith((".py", ".whl"))
                and not p.endswith("/main.py")], fetched
    assert f"/{TABLE}" not in fetched, "the value table is on the start-up path"
    close_first_dialog(page)  # a game to ask for a hint in, below
    # then, in idle time, the engine's other modules (so they are there offline too)
    page.wait_for_function(
        f"""async () => {{
          const names = {json.dumps(["/engine/" + m for m in later])};
          const got = JSON.parse(await window.skylineBots('resources', ''))
            .map((e) => new URL(e.url).pathname);
          return names.every((name) => got.includes(name));
        }}""", timeout=60_000, polling=500)
    wait_for_sw_control(page)
    # the value table, cached by the service worker in the background
    page.wait_for_function(f"caches.match('./{TABLE}').then(r => !!r)", timeout=60_000,
                           polling=LONG_WAIT_POLL_MS)
    assert page.evaluate(f"caches.match('./{TABLE}').then(r => r.arrayBuffer())"
                         ".then(b => b.byteLength)") == (dist_dir / TABLE).stat().st_size
    guard.assert_clean()

    # --- the next visit, offline with the server gone: all from the service worker,
    # the same library and the app's bytecode, and the expert's Hint from the cached
    # table
    page.close()
    server.shutdown()
    server.server_close()
    ctx.set_offline(True)
    # The browser's SW update check cannot reach sw.js: expected while offline.
    guard.allow_console(r"(?i)service ?worker|sw\.js|ERR_INTERNET_DISCONNECTED")
    page = ctx.new_page()
    open_app(page, url)
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    fetched = page.evaluate(FETCHED)
    libs = {p for p in fetched if "/stdlib-" in p}
    assert len(libs) == 1 and libs.pop().endswith("-pyc.zip"), libs
    app = {p for p in fetched if p.startswith("/app-")}
    assert len(app) == 1 and app.pop().endswith("-pyc.zip"), app
    assert not [p for p in fetched if p.endswith((".py", ".whl", ".json"))
                and not p.endswith(("/main.py", "/later.json")) and "/i18n/" not in p
                and not p.endswith(("/pyscript-pyc.json", "/snapshot.json"))], fetched
    # web/host.js picked the bytecode config (the worker cannot see the service worker)
    assert page.evaluate("document.querySelector('script[type=py]').getAttribute('config')"
                         ) == "./pyscript-pyc.json"
    page.click("#btn-hint")  # needs the table: fetched (from the SW cache) on this click
    hint = page.locator("[data-testid=hint]")
    hint.wait_for()
    assert hint.inner_text().startswith("Best: ")
    assert page.locator("[data-testid=hint-option]").count() == 3
    ctx.close()


def test_an_engine_module_needed_before_it_arrived_is_fetched_at_once(
    persistent_context: Callable[..., BrowserContext], site_url: str, guard: Guard,
    open_app: Callable[..., Page],
) -> None:
    """The table expert is not on a first visit's start path; when its first turn comes
    before the idle time that writes it (here: that never comes), the page fetches it
    there and then and the computer plays."""
    ctx = persistent_context()
    guard.attach(ctx)
    page = ctx.new_page()
    page.route("**/later.json", lambda route: route.abort())
    guard.allow_console("later.json")
    open_app(page, site_url + "#play?p=Ann,Expert&seed=later1&start=1&bots=1e")
    if page.locator("[data-action=link-accept]").count():
        page.click("[data-action=link-accept]")
    page.wait_for_function(
        "document.querySelector('[data-testid=turn]')?.innerText.includes('Ann')",
        timeout=60_000)
    fetched = page.evaluate(FETCHED)
    assert "/engine/skyline/players/table_expert.py" in fetched
    assert page.locator("#log li").filter(has_text="Expert").count() > 0
    ctx.close()


def test_the_start_path_carries_neither_the_command_line_nor_the_later_modules(
    dist_dir: Path,
) -> None:
    """A first visit's app (one text file of sources) holds the engine's modules the
    page imports at start and the glue modules; the command line is not shipped, the
    experts and reviews are served apart (later.json) and are not in it."""
    (app,) = dist_dir.glob("app-*.json")
    files = json.loads(app.read_text(encoding="utf-8"))["files"]
    later = json.loads((dist_dir / "later.json").read_text())["files"]
    assert "skyline/rules/board.py" in files and "app/controller.py" in files
    assert "main.py" not in files and "skyline/__main__.py" not in files
    assert later and not set(later) & set(files)
    assert all((dist_dir / "engine" / member).is_file() for member in later)
    assert not list(dist_dir.glob("*.whl")) and not (dist_dir / "app" / "controller.py").exists()
