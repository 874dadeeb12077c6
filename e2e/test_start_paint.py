"""On screen at once: a repeat visit paints the last render's snapshot before Python is
ready, marked busy, and the live page replaces it without moving; a press on it before
then is queued, shown pending and played once Python is ready (no click lost); a
first visit paints the welcome screen scripts/build.py prerendered the same way (and
the loading screen where Python may show something else); the rules can be read before
Python is ready (prerendered by scripts/build.py).

Python is held back deterministically: the test routes the big runtime download
(pyodide.asm.wasm) and lets it through only when the checks before ready are done.
Service workers are blocked in these contexts so that every request reaches the route
(localStorage, which keeps the snapshot, works as usual)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from board_helpers import held_runtime
from playwright.sync_api import Browser, BrowserContext, Page

if TYPE_CHECKING:
    from conftest import Guard

WaitReady = Callable[[Page], None]
LINK = "#play?p=Ann&seed=paint1&start=0&nine=0"
SNAPSHOT_KEY = "skyline.snapshot"
# The state of the page, read at once (the regions' boxes: nothing may move).
STATE = """() => {
  const app = document.getElementById("app");
  const box = (id) => {
    const r = document.getElementById(id).getBoundingClientRect();
    return [r.x, r.y, r.width, r.height].map(Math.round);
  };
  return {
    ready: document.body.dataset.ready || null,
    inert: app.inert,
    busy: app.getAttribute("aria-busy"),
    snapshot: app.classList.contains("snapshot"),
    loading: !document.getElementById("loading").hidden,
    bar: document.getElementById("boot-bar").hidden ? null
      : document.getElementById("boot-bar").innerText,
    yard: !!document.querySelector("#turn #yard-G, #supply #yard-G, #yard-G"),
    boxes: ["topbar", "turn", "supply", "players", "log"].map(box),
    lang: document.documentElement.lang,
  };
}"""


def texts(dist: Path, lang: str) -> dict[str, str]:
    return json.loads((dist / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def new_context(browser: Browser, guard: Guard, locale: str = "en-US") -> BrowserContext:
    ctx = browser.new_context(locale=locale, service_workers="block")
    guard.attach(ctx)
    return ctx


def start_game(page: Page, site_url: str, wait_ready: WaitReady) -> None:
    """A game in progress, so that the snapshot is a board (no dialog)."""
    page.goto(site_url + LINK, wait_until="commit")
    wait_ready(page)
    page.wait_for_function("() => !location.hash && !!document.querySelector('#yard-G')")
    if page.locator("[data-action=link-accept]").count():
        page.click("[data-action=link-accept]")
    page.locator("#dialog").locator("*").first.wait_for(state="detached")
    page.wait_for_function(
        f"""() => {{
          const snap = JSON.parse(localStorage.getItem("{SNAPSHOT_KEY}") || "null");
          return !!snap && Object.values(snap.regions).join("").includes("yard-G")
            && snap.regions.dialog === "";
        }}"""
    )


def test_repeat_visit_paints_snapshot_busy_then_live(
    browser: Browser, site_url: str, dist_dir: Path, guard: Guard, wait_ready: WaitReady
) -> None:
    ctx = new_context(browser, guard)
    try:
        page = ctx.new_page()
        start_game(page, site_url, wait_ready)
        with held_runtime(page) as release:
            page.goto(site_url, wait_until="domcontentloaded")
            early = page.evaluate(STATE)
            # the board is on screen, Python is not ready
            assert early["ready"] is None
            assert early["snapshot"] and not early["inert"] and early["busy"] == "true"
            assert not early["loading"]
            assert early["yard"]
            assert early["bar"] and texts(dist_dir, "en")["loading.starting"] in early["bar"]
            release()
            wait_ready(page)
        late = page.evaluate(STATE)
        assert late["ready"] == "1"
        assert not late["inert"] and late["busy"] is None and not late["snapshot"]
        assert late["bar"] is None and not late["loading"]
        assert late["boxes"] == early["boxes"], "the live page moved the snapshot's layout"
        # live: the page answers a click
        page.click("#btn-rules")
        page.locator("#dialog [data-testid=dialog-rules]").wait_for()
    finally:
        ctx.close()


def test_snapshot_of_another_build_or_broken_is_ignored(
    browser: Browser, site_url: str, guard: Guard, wait_ready: WaitReady
) -> None:
    ctx = new_context(browser, guard)
    try:
        page = ctx.new_page()
        start_game(page, site_url, wait_ready)
        for bad in ("old-build", "{not json"):
            # written before the next page's scripts run (the page going away saves a
            # fresh snapshot when it is hidden)
            page.close()
            page = ctx.new_page()
            page.add_init_script(
                f"""(() => {{
                  const key = "{SNAPSHOT_KEY}", bad = {json.dumps(bad)};
                  const snap = JSON.parse(localStorage.getItem(key));
                  localStorage.setItem(key,
                    bad.startsWith("{{") ? bad : JSON.stringify({{...snap, build: bad}}));
                }})();"""
            )
            page.goto(site_url, wait_until="domcontentloaded")
            state = page.evaluate(STATE)
            assert not state["snapshot"] and not state["inert"] and state["loading"]
            assert state["bar"] is None
            wait_ready(page)
            # the page works and writes a fresh snapshot of this build
            page.wait_for_function(
                f"() => (localStorage.getItem('{SNAPSHOT_KEY}') || '').includes("
                "document.documentElement.dataset.build)"
            )
    finally:
        ctx.close()


def test_storage_failure_never_breaks_the_page(
    browser: Browser, site_url: str, guard: Guard, wait_ready: WaitReady
) -> None:
    """localStorage that throws on every snapshot access: the page still starts."""
    ctx = new_context(browser, guard)
    ctx.add_init_script(
        f"""(() => {{
          const get = Storage.prototype.getItem, set = Storage.prototype.setItem;
          Storage.prototype.getItem = function (k) {{
            if (k === "{SNAPSHOT_KEY}") throw new DOMException("blocked", "SecurityError");
            return get.call(this, k);
          }};
          Storage.prototype.setItem = function (k, v) {{
            if (k === "{SNAPSHOT_KEY}") throw new DOMException("full", "QuotaExceededError");
            return set.call(this, k, v);
          }};
        }})();"""
    )
    try:
        page = ctx.new_page()
        page.goto(site_url + LINK, wait_until="commit")
        wait_ready(page)
        page.reload(wait_until="domcontentloaded")
        assert page.evaluate(STATE)["loading"]
        wait_ready(page)
        page.click("#btn-rules")
        page.locator("#dialog [data-testid=dialog-rules]").wait_for()
    finally:
        ctx.close()


def test_rules_readable_before_python_german_cold(
    browser: Browser, site_url: str, dist_dir: Path, guard: Guard, wait_ready: WaitReady
) -> None:
    """First visit (the prerendered welcome): the Starting… bar's Rules button opens the
    prerendered German rules; when Python is ready the live welcome dialog waits under
    them until they are closed."""
    de = texts(dist_dir, "de")
    ctx = new_context(browser, guard, locale="de-DE")
    try:
        page = ctx.new_page()
        with held_runtime(page) as release:
            page.goto(site_url, wait_until="domcontentloaded")
            button = page.locator("#boot-bar [data-boot-rules]")
            assert button.inner_text() == de["btn.rules"]
            button.click()
            rules = page.locator("#boot-rules [data-testid=dialog-rules]")
            rules.wait_for()
            assert page.evaluate("document.body.dataset.ready") is None
            assert rules.locator("#dlg-title").inner_text() == de["rules.title"]
            assert de["rules.solo.title"] in rules.inner_text()
            # the section buttons work before Python
            rules.locator("[data-action=rules-goto][data-arg=solo]").click()
            release()
            wait_ready(page)
        # the welcome dialog is there, the rules stay on top until closed
        assert rules.is_visible()
        page.locator("#boot-rules #dlg-close").click()
        assert page.locator("#boot-rules").is_hidden()
        page.locator("#dialog [data-testid=dialog-newgame]").wait_for()
        assert page.evaluate(
            "document.querySelector('#dialog dialog').contains(document.activeElement)")
        assert page.locator("[data-testid=dialog-rules]").count() == 0
    finally:
        ctx.close()


def test_rules_open_before_python_are_handed_to_the_live_page(
    browser: Browser, site_url: str, guard: Guard, wait_ready: WaitReady
) -> None:
    """Repeat visit with a game: the Starting… bar's Rules button opens the prerendered
    rules; when Python is ready they become the live dialog (closable by the page)."""
    ctx = new_context(browser, guard)
    try:
        page = ctx.new_page()
        start_game(page, site_url, wait_ready)
        with held_runtime(page) as release:
            page.goto(site_url, wait_until="domcontentloaded")
            page.locator("#boot-bar [data-boot-rules]").click()
            page.locator("#boot-rules [data-testid=dialog-rules]").wait_for()
            assert page.evaluate("document.body.dataset.ready") is None
            release()
            wait_ready(page)
        page.locator("#dialog [data-testid=dialog-rules]").wait_for()
        assert page.locator("#boot-rules").is_hidden()
        assert page.locator("[data-testid=dialog-rules]").count() == 1
        page.keyboard.press("Escape")
        page.locator("#dialog [data-testid=dialog-rules]").wait_for(state="detached")
    finally:
        ctx.close()


# --- a first visit: the prerendered welcome screen (index.html <template data-first-paint>)

# Each painted region's HTML as the browser serializes it; the dialog's "open" attribute
# is left out (the prerender's plain open <dialog> becomes Python's modal one).
REGIONS_HTML = """() => Object.fromEntries(
  ["topbar", "turn", "supply", "players", "log", "dialog"].map((id) => [id,
    document.getElementById(id).innerHTML.replace(/ open=""/, "")]))"""


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_first_visit_paints_the_prerendered_welcome_then_live(
    browser: Browser, site_url: str, dist_dir: Path, guard: Guard, wait_ready: WaitReady,
    locale: str,
) -> None:
    """An empty profile: the welcome dialog over a fresh solo game is on screen before
    Python is ready, busy, with the "Starting…" bar in the browser's language; the live
    page renders the very same HTML in the same boxes, the dialog becomes modal and takes
    the focus."""
    lang = locale[:2]
    table = texts(dist_dir, lang)
    ctx = new_context(browser, guard, locale=locale)
    try:
        page = ctx.new_page()
        with held_runtime(page) as release:
            page.goto(site_url, wait_until="domcontentloaded")
            early = page.evaluate(STATE)
            assert early["ready"] is None and early["lang"] == lang
            assert early["snapshot"] and not early["inert"] and early["busy"] == "true"
            assert not early["loading"] and early["yard"]
            assert early["bar"] and table["loading.starting"] in early["bar"]
            assert table["btn.rules"] in early["bar"]
            assert page.evaluate("window.skylineBoot.painted && window.skylineBoot.welcome")
            welcome = page.locator("#dialog dialog[open][data-testid=dialog-newgame]")
            assert welcome.locator("#dlg-title").inner_text() == table["newgame.title"]
            assert welcome.is_visible()
            assert not page.evaluate("document.querySelector('#dialog dialog').matches(':modal')")
            painted = page.evaluate(REGIONS_HTML)
            # the templates are used up, not copied: one welcome dialog in the page
            assert page.locator("[data-testid=dialog-newgame]").count() == 1
            release()
            wait_ready(page)
        late = page.evaluate(STATE)
        assert not late["inert"] and late["busy"] is None and not late["snapshot"]
        assert late["bar"] is None and not late["loading"]
        assert late["boxes"] == early["boxes"], "the live page moved the welcome screen"
        live = page.evaluate(REGIONS_HTML)
        for name, html in painted.items():
            assert live[name] == html, f"the prerendered {name} is not what Python renders"
        assert page.evaluate("document.querySelector('#dialog dialog').matches(':modal')")
        assert page.evaluate(
            "document.querySelector('#dialog dialog').contains(document.activeElement)")
        # live: the dialog answers
        page.click("#ng-cancel")
        page.locator("#dialog [data-testid=dialog-newgame]").wait_for(state="detached")
    finally:
        ctx.close()


# The runtime files boot.js fetches itself on a first visit, each with the start of its
# download and the page's first contentful paint (performance.now() milliseconds).
WARM_STARTS = """() => {
  const root = document.documentElement;
  const urls = [...(root.dataset.warm || "").split(" "), root.dataset.stdlib]
    .filter(Boolean).map((url) => new URL(url, location.href).href);
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  const starts = {}; // the earliest fetch of each (PyScript fetches its config too)
  for (const e of performance.getEntriesByType("resource")) {
    if (e.initiatorType === "fetch" && urls.includes(e.name)) {
      starts[e.name] = Math.min(starts[e.name] ?? Infinity, e.startTime);
    }
  }
  return { fcp: fcp ? fcp.startTime : null, urls, starts };
}"""


# The painted welcome's title is on top where it is drawn (not under the sticky top bar).
TITLE_ON_TOP = """() => {
  const title = document.querySelector("#dialog dialog[open] #dlg-title");
  const r = title.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return r.top >= 0 && title.contains(hit);
}"""


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_presses_before_python_is_ready_are_played_once_it_is(
    browser: Browser, site_url: str, guard: Guard, wait_ready: WaitReady,
    viewport: tuple[int, int],
) -> None:
    """No dead click: on the prerendered welcome, "Learn to play" pressed while Python
    starts shows that it waits, and once Python is ready it takes effect, as does a key
    pressed after it (in order: the tutorial opens, then "?" opens the rules over it).
    The welcome's title is visible while it starts, on a phone too."""
    width, height = viewport
    ctx = browser.new_context(service_workers="block", viewport={"width": width,
                              "height": height}, has_touch=width < 500)
    guard.attach(ctx)
    try:
        page = ctx.new_page()
        with held_runtime(page) as release:
            page.goto(site_url, wait_until="domcontentloaded")
            page.wait_for_selector("#dialog dialog[open] #ng-learn")
            assert page.evaluate(TITLE_ON_TOP), "the welcome's title is hidden while it starts"
            page.click("#ng-learn")
            page.keyboard.press("?")
            pressed = page.locator("#ng-learn")
            assert "queued" in (pressed.get_attribute("class") or "")
            assert pressed.get_attribute("aria-busy") == "true"
            assert page.evaluate("document.body.dataset.ready") is None
            release()
            wait_ready(page)
        page.wait_for_selector("[data-testid=dialog-rules]")
        assert page.locator("[data-testid=coach]").count() == 1, "the early press was lost"
        assert page.locator(".queued").count() == 0
    finally:
        ctx.close()


def test_first_visit_fetches_the_runtime_after_the_first_paint(
    browser: Browser, site_url: str, guard: Guard, wait_ready: WaitReady
) -> None:
    """The runtime downloads boot.js starts on a first visit begin once the prerendered
    welcome is on screen (its first contentful paint), not during the first frame:
    Lighthouse's simulation counts every download that ended before the largest paint as
    one that paint waited for (mobile preset: 7.7 s instead of about 1.6 s)."""
    ctx = new_context(browser, guard)
    try:
        page = ctx.new_page()
        page.goto(site_url, wait_until="domcontentloaded")
        assert page.evaluate("window.skylineBoot.welcome")
        wait_ready(page)
        warm = page.evaluate(WARM_STARTS)
        assert warm["fcp"] is not None and len(warm["urls"]) >= 4
        assert sorted(warm["starts"]) == sorted(warm["urls"])
        # PyScript's core.js (a module script) fetches its own config, pyscript.json (1 KB),
        # as soon as it runs, which on a loaded machine can be before the first frame:
        # not boot.js's download, and too small to matter to the paint
        early = {name: round(start) for name, start in warm["starts"].items()
                 if start < warm["fcp"] and not name.endswith("/pyscript.json")}
        assert not early, f"fetched before the first paint at {warm['fcp']:.0f} ms: {early}"
    finally:
        ctx.close()


def test_first_visit_with_a_fragment_or_stored_data_shows_the_loading_screen(
    browser: Browser, site_url: str, guard: Guard, wait_ready: WaitReady
) -> None:
    """No welcome that would change into something else: a link, the daily challenge, any
    fragment, or a profile with the page's data but no snapshot keeps the loading screen."""
    ctx = new_context(browser, guard)
    try:
        page = ctx.new_page()
        for fragment in (LINK, "#daily", "#nonsense"):
            with held_runtime(page):
                page.goto(site_url + fragment, wait_until="domcontentloaded")
                state = page.evaluate(STATE)
                assert state["loading"] and not state["snapshot"] and state["bar"] is None
                assert not page.evaluate("window.skylineBoot.painted")
                assert page.locator("[data-testid=dialog-newgame]").count() == 0
            page.evaluate("localStorage.clear()")
            page.goto("about:blank")
        start_game(page, site_url, wait_ready)
        page.close()
        page = ctx.new_page()
        # the game is stored, its snapshot is not (too big, or dropped by a new build)
        page.add_init_script(f"localStorage.removeItem('{SNAPSHOT_KEY}')")
        with held_runtime(page):
            page.goto(site_url, wait_until="domcontentloaded")
            state = page.evaluate(STATE)
            assert state["loading"] and not state["snapshot"]
            assert page.locator("[data-testid=dialog-newgame]").count() == 0
    finally:
        ctx.close()


def test_start_failure_shows_over_the_prerendered_welcome(
    browser: Browser, site_url: str
) -> None:
    """The game's own code cannot be fetched: the failure message shows, not a
    welcome saying "Starting…" for ever."""
    ctx = browser.new_context(service_workers="block")  # unguarded: it fails on purpose
    try:
        page = ctx.new_page()
        page.route("**/app-*.json", lambda route: route.abort())
        page.goto(site_url, wait_until="domcontentloaded")
        assert page.evaluate("window.skylineBoot.welcome")
        page.locator("#loading-error").wait_for(state="visible", timeout=60_000)
        assert page.locator("#loading").is_visible()
        assert page.locator("#boot-bar").is_hidden()
        assert page.evaluate("document.body.dataset.ready") is None
    finally:
        ctx.close()
