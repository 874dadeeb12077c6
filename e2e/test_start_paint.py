"""On screen at once, before Python is ready. Each test is one start of the page with
the runtime held back, looked at before and after Python is ready:

- A repeat visit (a game in progress stored: ``returning_state``) paints the last
  render's snapshot, marked busy, with the "Starting…" bar; its Rules button opens the
  prerendered rules, which the live page takes over as its own dialog; the live page
  replaces the snapshot without moving and answers a click.
- A snapshot of another build or a broken one is ignored (loading screen) and replaced
  by a fresh one; localStorage that throws on every snapshot access (a stored picture
  it cannot read, a new one it cannot write) never breaks the start.
- A first visit paints the welcome screen scripts/build.py prerendered, in the
  browser's language, and the live page renders the very same HTML in the same boxes.
  In English: the runtime downloads start only after that first paint. In German: the
  bar's Rules button opens the prerendered German rules, which stay on top of the live
  welcome dialog until closed.
- A press on the painted welcome before then is queued, shown pending and played once
  Python is ready (no click lost), on a desktop and a phone viewport.
- A fragment (a link, the daily challenge, anything) or stored data without a
  snapshot keep the loading screen; a start that fails shows its message over the
  prerendered welcome.

Python is held back deterministically: the test routes the big runtime download
(pyodide.asm.wasm) and lets it through only when the checks before ready are done.
Service workers are blocked in these contexts so that every request reaches the route
(localStorage, which keeps the snapshot, works as usual). The stored game of a repeat
visit is made once per module (one start) and given to each such test's fresh context
as its storage state."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pytest
from board_helpers import held_runtime
from fault_log import scenario
from playwright.sync_api import Browser, BrowserContext, Page

if TYPE_CHECKING:
    from conftest import Guard

WaitReady = Callable[[Page], None]
LINK = "#play?p=Ann&seed=paint1&start=0&nine=0"
SNAPSHOT_KEY = "skyline.snapshot"
# The tests that start from the stored game share one worker (one start makes it).
RETURNING = pytest.mark.xdist_group("start_paint_returning")
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


def new_context(browser: Browser, guard: Guard, locale: str = "en-US",
                **kwargs: Any) -> BrowserContext:
    ctx = browser.new_context(locale=locale, service_workers="block", **kwargs)
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


@pytest.fixture(scope="module")
def returning_state(browser: Browser, site_url: str, wait_ready: WaitReady) -> Iterator[dict]:
    """The storage of a player who has been here (one start per module): a game in
    progress and the last render's snapshot of it, in localStorage. Given to a fresh
    context as ``storage_state``, its first start is a repeat visit. The visit that
    makes it is guarded like a test's: no foreign request, console or page error."""
    ctx = browser.new_context(service_workers="block")
    problems: list[str] = []

    def on_request(request: Any) -> None:
        parts = urlsplit(request.url)
        if parts.scheme not in ("data", "blob", "about") and parts.hostname != "127.0.0.1":
            problems.append(f"foreign request {request.url}")

    ctx.on("request", on_request)
    try:
        page = ctx.new_page()
        page.on("console", lambda m: m.type == "error" and problems.append(m.text))
        page.on("pageerror", lambda exc: problems.append(str(exc)))
        start_game(page, site_url, wait_ready)
        state = ctx.storage_state()
    finally:
        ctx.close()  # at once: no interpreter snapshot made for nobody
    assert not problems, f"the visit that stored a game: {problems}"
    yield state


@RETURNING
def test_repeat_visit_paints_snapshot_busy_hands_rules_over_then_live(
    browser: Browser, site_url: str, dist_dir: Path, guard: Guard, wait_ready: WaitReady,
    returning_state: dict,
) -> None:
    """A repeat visit with a game: the board is on screen before Python, busy, with the
    Starting… bar; the bar's Rules button opens the prerendered rules; when Python is
    ready they become the live dialog (one, closable by the page), and the live page
    has replaced the snapshot without moving and answers a click."""
    ctx = new_context(browser, guard, storage_state=returning_state)
    try:
        page = ctx.new_page()
        with held_runtime(page) as release:
            page.goto(site_url, wait_until="domcontentloaded")
            early = page.evaluate(STATE)
            # the board is on screen, Python is not ready
            assert early["ready"] is None, early
            assert early["snapshot"] and not early["inert"] and early["busy"] == "true", early
            assert not early["loading"], "the loading screen hides the snapshot"
            assert early["yard"], "the snapshot is not the stored board"
            assert early["bar"] and texts(dist_dir, "en")["loading.starting"] in early["bar"]
            # the rules before Python: the bar's button opens the prerendered ones
            page.locator("#boot-bar [data-boot-rules]").click()
            page.locator("#boot-rules [data-testid=dialog-rules]").wait_for()
            assert page.evaluate("document.body.dataset.ready") is None
            release()
            wait_ready(page)
        # ... handed to the live page: its own rules dialog, the only one, closable
        page.locator("#dialog [data-testid=dialog-rules]").wait_for()
        assert page.locator("#boot-rules").is_hidden(), "the prerendered rules stayed"
        assert page.locator("[data-testid=dialog-rules]").count() == 1, "two rules dialogs"
        page.keyboard.press("Escape")
        page.locator("#dialog [data-testid=dialog-rules]").wait_for(state="detached")
        # the live page in the snapshot's place
        late = page.evaluate(STATE)
        assert late["ready"] == "1", late
        assert not late["inert"] and late["busy"] is None and not late["snapshot"], late
        assert late["bar"] is None and not late["loading"], late
        assert late["boxes"] == early["boxes"], "the live page moved the snapshot's layout"
        # live: the page answers a click
        page.click("#btn-rules")
        page.locator("#dialog [data-testid=dialog-rules]").wait_for()
    finally:
        ctx.close()


# Stored pictures that are not what the page writes (as anything that can write this
# origin's storage could plant them): where the plant goes ("regions" or the picture
# itself), its key, its value.
HOSTILE = {
    "link-and-image": ("regions", "turn", '<p class="notice">Your game was lost. <a href='
                       '"https://recover.example/">Recover it here</a></p><img src="x">'),
    "inert-body": ("picture", "body", {"inert": ""}),
    "rtl-page": ("picture", "html", {"dir": "rtl"}),
    "style": ("regions", "log", '<div style="position:fixed;inset:0;z-index:99">covered</div>'),
    "handler": ("regions", "supply",
                '<button data-action="roll" onfocus="alert(1)">Roll</button>'),
    "lang": ("regions", "log", '<span lang="xx">x</span>'),
}
PLANT = """([where, key, value]) => {
  const snap = JSON.parse(localStorage.getItem("skyline.snapshot"));
  if (where === "regions") snap.regions = { ...snap.regions, [key]: value };
  else snap[key] = value;
  return snap;
}"""
# Which pictures web/js/paint.js would paint: the page's own, and each planted one.
PAINTS = """async ([good, plants]) => {
  const { checkedPicture } = await import(new URL("./js/paint.js", location.href).href);
  return Object.fromEntries([["own", checkedPicture(good) !== null],
    ...Object.entries(plants).map(([name, snap]) => [name, checkedPicture(snap) !== null])]);
}"""


@RETURNING
def test_snapshot_of_another_build_or_broken_is_ignored(
    browser: Browser, site_url: str, guard: Guard, wait_ready: WaitReady,
    returning_state: dict,
) -> None:
    """A picture of another build, an unreadable one, or one with anything the page does
    not render (HOSTILE) is dropped whole: the loading screen shows, nothing of it is
    fetched or applied (no image, the body not inert, before and after ready), and the
    page starts, answers and writes a fresh picture of this build, which holds no
    attributes of <html> or <body> to apply again. Four of them are whole starts; every
    plant is also put to the page's own check, which paints the page's own picture."""
    ctx = new_context(browser, guard, storage_state=returning_state)
    fetched: list[str] = []
    ctx.on("request", lambda request: fetched.append(urlsplit(request.url).path))
    try:
        page: Page | None = None
        starts = {"old-build": "{...snap, build: 'old-build'}", "{not json": None,
                  "link-and-image": "plant", "inert-body": "plant"}
        for name, planted in starts.items():
            with scenario(f"stored picture: {name}") as outcome:
                # written before the next page's scripts run (the page going away saves a
                # fresh snapshot when it is hidden)
                if page is not None:
                    page.close()
                page = ctx.new_page()
                if planted == "plant":
                    value = f"JSON.stringify(({PLANT})({json.dumps(HOSTILE[name])}))"
                else:
                    value = "'{not json'" if planted is None else f"JSON.stringify({planted})"
                page.add_init_script(
                    f"""(() => {{
                      const key = "{SNAPSHOT_KEY}";
                      const snap = JSON.parse(localStorage.getItem(key));
                      localStorage.setItem(key, {value});
                    }})();"""
                )
                page.goto(site_url, wait_until="domcontentloaded")
                state = page.evaluate(STATE)
                assert not state["snapshot"] and not state["inert"] and state["loading"], name
                assert state["bar"] is None, name
                assert page.evaluate("[document.body.inert, document.dir]") == [False, ""], name
                wait_ready(page)
                # the page works and writes a fresh snapshot of this build, without the plant
                page.wait_for_function(
                    f"() => (localStorage.getItem('{SNAPSHOT_KEY}') || '').includes("
                    "document.documentElement.dataset.build)"
                )
                page.click("#btn-rules")  # the page answers
                page.locator("#dialog [data-testid=dialog-rules]").wait_for()
                page.keyboard.press("Escape")
                stored = json.loads(page.evaluate(f"localStorage.getItem('{SNAPSHOT_KEY}')"))
                assert set(stored) == {"build", "lang", "labels", "regions"}, name
                assert "recover.example" not in json.dumps(stored), name
                leftovers = "[style], img, [onfocus], a[href]"
                assert page.evaluate(f"[document.body.inert, document.dir, "
                                     f"!!document.querySelector('{leftovers}')]") == \
                    [False, "", False], name
                outcome.kept("dropped whole; the page started and answered")
        assert "/x" not in fetched, "an image of a planted picture was fetched"
        assert page is not None
        own = json.loads(page.evaluate(f"localStorage.getItem('{SNAPSHOT_KEY}')"))
        plants = {name: page.evaluate(PLANT, list(plant)) for name, plant in HOSTILE.items()}
        painted = page.evaluate(PAINTS, [own, plants])
        assert painted == {"own": True, **dict.fromkeys(HOSTILE, False)}, painted
    finally:
        ctx.close()


@RETURNING
def test_storage_failure_never_breaks_the_page(
    browser: Browser, site_url: str, guard: Guard, wait_ready: WaitReady,
    returning_state: dict,
) -> None:
    """localStorage that throws on every snapshot access, on a repeat visit (a game and
    its snapshot stored): the page shows the loading screen, starts, and keeps working
    after its attempts to save a new snapshot threw."""
    ctx = new_context(browser, guard, storage_state=returning_state)
    ctx.add_init_script(
        f"""(() => {{
          const get = Storage.prototype.getItem, set = Storage.prototype.setItem;
          window.__snapshotReads = 0;
          window.__snapshotWrites = 0;
          Storage.prototype.getItem = function (k) {{
            if (k === "{SNAPSHOT_KEY}") {{
              window.__snapshotReads++;
              throw new DOMException("blocked", "SecurityError");
            }}
            return get.call(this, k);
          }};
          Storage.prototype.setItem = function (k, v) {{
            if (k === "{SNAPSHOT_KEY}") {{
              window.__snapshotWrites++;
              throw new DOMException("full", "QuotaExceededError");
            }}
            return set.call(this, k, v);
          }};
        }})();"""
    )
    try:
        page = ctx.new_page()
        page.goto(site_url, wait_until="domcontentloaded")
        assert page.evaluate(STATE)["loading"], "a snapshot that cannot be read was shown"
        assert page.evaluate("window.__snapshotReads") > 0, "the snapshot was never read"
        wait_ready(page)
        page.wait_for_function("window.__snapshotWrites > 0", timeout=30_000)
        page.click("#btn-rules")
        page.locator("#dialog [data-testid=dialog-rules]").wait_for()
    finally:
        ctx.close()


# --- a first visit: the prerendered welcome screen (index.html <template data-first-paint>)

# Each painted region's HTML as the browser serializes it; the dialog's "open" attribute
# is left out (the prerender's plain open <dialog> becomes Python's modal one).
# (a painted dialog taller than the screen has the painter's spacer class, .above-bar,
# until the page is live: not part of the render)
REGIONS_HTML = """() => Object.fromEntries(
  ["topbar", "turn", "supply", "players", "log", "dialog"].map((id) => [id,
    document.getElementById(id).innerHTML.replace(/ open=""/, "").replace(" above-bar", "")]))"""

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


def welcome_painted(page: Page, table: dict[str, str], lang: str) -> tuple[dict, dict]:
    """Before Python is ready (runtime held): the prerendered welcome over a fresh solo
    game, busy, with the Starting… bar in ``lang``; not yet modal. Returns the page's
    state and the painted regions' HTML."""
    early = page.evaluate(STATE)
    assert early["ready"] is None and early["lang"] == lang, early
    assert early["snapshot"] and not early["inert"] and early["busy"] == "true", early
    assert not early["loading"] and early["yard"], early
    assert early["bar"] and table["loading.starting"] in early["bar"], early["bar"]
    assert table["btn.rules"] in early["bar"], early["bar"]
    assert page.evaluate("window.skylineBoot.painted && window.skylineBoot.welcome")
    welcome = page.locator("#dialog dialog[open][data-testid=dialog-newgame]")
    assert welcome.locator("#dlg-title").inner_text() == table["newgame.title"]
    assert welcome.is_visible()
    assert not page.evaluate("document.querySelector('#dialog dialog').matches(':modal')")
    painted = page.evaluate(REGIONS_HTML)
    # the templates are used up, not copied: one welcome dialog in the page
    assert page.locator("[data-testid=dialog-newgame]").count() == 1
    return early, painted


def welcome_live(page: Page, early: dict, painted: dict) -> None:
    """Python ready: the live page renders the painted welcome's very HTML in the same
    boxes, the dialog is modal, has the focus and answers."""
    late = page.evaluate(STATE)
    assert not late["inert"] and late["busy"] is None and not late["snapshot"], late
    assert late["bar"] is None and not late["loading"], late
    assert late["boxes"] == early["boxes"], "the live page moved the welcome screen"
    live = page.evaluate(REGIONS_HTML)
    for name, html in painted.items():
        assert live[name] == html, f"the prerendered {name} is not what Python renders"
    assert page.evaluate("document.querySelector('#dialog dialog').matches(':modal')")
    assert page.evaluate(
        "document.querySelector('#dialog dialog').contains(document.activeElement)")
    page.click("#ng-cancel")
    page.locator("#dialog [data-testid=dialog-newgame]").wait_for(state="detached")


def test_first_visit_paints_the_prerendered_welcome_then_live_and_fetches_after_paint(
    browser: Browser, site_url: str, dist_dir: Path, guard: Guard, wait_ready: WaitReady,
) -> None:
    """An empty profile, in English: the welcome dialog over a fresh solo game is on
    screen before Python is ready, busy, with the "Starting…" bar; the live page renders
    the very same HTML in the same boxes, the dialog becomes modal and takes the focus.

    The runtime downloads boot.js starts on a first visit begin once the prerendered
    welcome is on screen (its first contentful paint), not during the first frame:
    Lighthouse's simulation counts every download that ended before the largest paint as
    one that paint waited for (mobile preset: 7.7 s instead of about 1.6 s). (Holding
    the runtime's response back does not move when its download starts.)"""
    table = texts(dist_dir, "en")
    ctx = new_context(browser, guard)
    try:
        page = ctx.new_page()
        with held_runtime(page) as release:
            page.goto(site_url, wait_until="domcontentloaded")
            early, painted = welcome_painted(page, table, "en")
            release()
            wait_ready(page)
        # the runtime's downloads, all started after the first paint
        warm = page.evaluate(WARM_STARTS)
        assert warm["fcp"] is not None and len(warm["urls"]) >= 4, warm
        assert sorted(warm["starts"]) == sorted(warm["urls"]), warm
        # PyScript's core.js (a module script) fetches its own config, pyscript.json (1 KB),
        # as soon as it runs, which on a loaded machine can be before the first frame:
        # not boot.js's download, and too small to matter to the paint
        too_early = {name: round(start) for name, start in warm["starts"].items()
                     if start < warm["fcp"] and not name.endswith("/pyscript.json")}
        assert not too_early, f"fetched before the first paint at {warm['fcp']:.0f} ms: {too_early}"
        welcome_live(page, early, painted)
    finally:
        ctx.close()


def test_first_visit_in_german_paints_the_welcome_and_its_rules_before_python(
    browser: Browser, site_url: str, dist_dir: Path, guard: Guard, wait_ready: WaitReady,
) -> None:
    """An empty profile, in German: the prerendered welcome is on screen before Python
    is ready, in German; the Starting… bar's Rules button opens the prerendered German
    rules (their section buttons work); when Python is ready the live welcome dialog
    waits under them until they are closed, then has the focus, with the very HTML
    that was painted, in the same boxes, modal.

    The start's optional helpers damaged change none of it: the screens before the board
    unreadable (index.html's #preboard block) and PyScript's bytecode not an archive
    (its package is compiled as before)."""
    de = texts(dist_dir, "de")
    ctx = new_context(browser, guard, locale="de-DE")
    try:
        page = ctx.new_page()

        def damaged_screens(route: Any) -> None:
            response = route.fetch()
            html = response.text()
            assert 'id="preboard">{' in html
            route.fulfill(response=response,
                          body=html.replace('id="preboard">{', 'id="preboard">{"damaged'))

        page.route(site_url, damaged_screens)
        page.route("**/pyscript-*-pyc.zip", lambda route: route.fulfill(
            body=b"not an archive", content_type="application/zip"))
        with held_runtime(page) as release:
            page.goto(site_url, wait_until="domcontentloaded")
            early, painted = welcome_painted(page, de, "de")
            assert page.evaluate(
                "document.getElementById('preboard').textContent.startsWith('{\"damaged')")
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
        assert rules.is_visible(), "the rules closed when Python was ready"
        page.locator("#boot-rules #dlg-close").click()
        assert page.locator("#boot-rules").is_hidden()
        page.locator("#dialog [data-testid=dialog-newgame]").wait_for()
        assert page.evaluate(
            "document.querySelector('#dialog dialog').contains(document.activeElement)")
        assert page.locator("[data-testid=dialog-rules]").count() == 0
        welcome_live(page, early, painted)
    finally:
        ctx.close()


# The painted welcome's title is on top where it is drawn (not under the sticky top bar).
TITLE_ON_TOP = """() => {
  const title = document.querySelector("#dialog dialog[open] #dlg-title");
  const r = title.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return r.top >= 0 && title.contains(hit);
}"""


# A press before Python is ready and what it shows, in one task of the page (a click, or
# a choice in a select): its screen is there when the press's own task ends (how many
# ms that takes is scripts/bench_web.py --phone's to say, not a test's).
ANSWER = """([selector, value, shows]) => {
  const el = document.querySelector(selector);
  if (value === null) el.click();
  else {
    el.value = value;
    el.dispatchEvent(new Event("change", { bubbles: true }));
  }
  return !!document.querySelector(shows);
}"""


def answers(page: Page, selector: str, shows: str, value: str | None = None) -> None:
    assert page.evaluate(ANSWER, [selector, value, shows]), \
        f"{selector} did not show {shows} in its own task, before Python was ready"


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_presses_before_python_is_ready_are_played_once_it_is(
    browser: Browser, site_url: str, guard: Guard, wait_ready: WaitReady,
    viewport: tuple[int, int],
) -> None:
    """No dead click, no wait: on the prerendered welcome the welcome's own choices show
    their screens at once (the build rendered them, web/js/preboard.js), and once Python
    is ready its first render is those screens, with what was typed, the focus, and the
    presses that had to wait (shown pending) played.

    Desktop: "Learn to play" opens the tutorial at once; "?" pressed twice waits and
    counts once, and the "Starting…" bar's Rules opened meanwhile give way to the live
    ones: one Rules dialog, closed by one Escape. Phone: "Play solo now", the menu,
    Deutsch, the menu, New game, three players, a name typed (still in its field), a
    computer seat, then Start (pending) with a name Python refuses: once ready the form
    says so in German, keeps every choice, and Start with the name put right plays.
    The welcome's title is visible while it starts."""
    width, height = viewport
    phone = width < 500
    ctx = browser.new_context(service_workers="block", viewport={"width": width,
                              "height": height}, has_touch=phone, locale="en-US")
    guard.attach(ctx)
    try:
        page = ctx.new_page()
        with held_runtime(page) as release:
            page.goto(site_url, wait_until="domcontentloaded")
            page.wait_for_selector("#dialog dialog[open] #ng-learn")
            assert page.evaluate(TITLE_ON_TOP), "the welcome's title is hidden while it starts"
            if phone:
                fill_in_the_form_before_python(page)
            else:
                answers(page, "#ng-learn", "[data-testid=coach]")
                assert page.locator("#dialog dialog").count() == 0
                page.keyboard.press("?")
                page.keyboard.press("?")
                page.click("#boot-bar [data-boot-rules]")
                page.locator("#boot-rules [data-testid=dialog-rules]").wait_for()
            assert page.evaluate("document.body.dataset.ready") is None
            release()
            wait_ready(page)
        if phone:
            python_decides_what_was_filled_in(page)
            return
        page.wait_for_selector("#dialog [data-testid=dialog-rules]")
        assert page.locator("[data-testid=coach]").count() == 1, "the early press was lost"
        assert page.locator(".queued").count() == 0
        page.wait_for_function("() => document.getElementById('boot-rules').hidden")
        assert page.locator("[data-testid=dialog-rules]").count() == 1, "two Rules dialogs"
        assert page.locator("#dlg-title").count() == 1, "duplicate ids"
        page.keyboard.press("Escape")
        page.wait_for_function("() => !document.querySelector('[data-testid=dialog-rules]')")
        assert page.locator("[data-testid=coach]").count() == 1
    finally:
        ctx.close()


REFUSED = "Zo\u202eë"  # a character that turns the text around: Python refuses it


def fill_in_the_form_before_python(page: Page) -> None:
    answers(page, "#ng-cancel", "#dialog:empty")
    answers(page, "#btn-menu", "#btn-menu[aria-expanded=true]")
    answers(page, "#btn-lang", "html[lang=de] #btn-lang[data-arg=en]")
    page.wait_for_function(  # the "Starting…" bar's words follow (its table is fetched)
        f"""document.querySelector("#boot-bar [data-i18n='loading.starting']").textContent
           === {json.dumps(texts_de()["loading.starting"])}""")
    answers(page, "#btn-menu", "#btn-menu[aria-expanded=true]")
    answers(page, "#btn-new", "#dialog [data-testid=dialog-newgame]")
    answers(page, "#dlg-first", "#ng-name2", value="3")
    assert page.locator("#dialog input[name^=name]").count() == 3
    page.fill("#ng-name1", "Ann")
    page.select_option("#ng-seat2", "expert")  # Ann's name was changed on the way out
    page.click("#ng-name0")
    page.fill("#ng-name0", REFUSED)
    assert page.locator(".queued").count() == 0, "a choice before the board shows pending"
    page.click("#ng-start-btn")  # needs the engine: waits, shown pending
    assert page.locator("#ng-form.queued").count() == 1
    page.focus("#ng-name1")  # the player goes on typing in another field
    page.keyboard.press("End")
    page.keyboard.type("a")


def texts_de() -> dict[str, str]:
    return json.loads((Path(__file__).resolve().parent.parent / "web" / "i18n" / "de.json")
                      .read_text(encoding="utf-8"))


def python_decides_what_was_filled_in(page: Page) -> None:
    state = page.evaluate("""() => ({
      lang: document.documentElement.lang,
      names: [...document.querySelectorAll("#dialog input[name^=name]")].map((e) => e.value),
      seat: document.getElementById("ng-seat2")?.value,
      error: document.querySelector("[data-testid=form-error]")?.textContent ?? "",
      focus: document.activeElement?.id,
      modal: document.querySelector("#dialog dialog")?.matches(":modal"),
      queued: document.querySelectorAll(".queued").length,
    })""")
    assert state["lang"] == "de" and state["modal"] and state["queued"] == 0, state
    assert state["names"] == [REFUSED, "Anna", "Experte"], state
    assert state["seat"] == "expert" and state["focus"] == "ng-name1", state
    assert texts_de()["error.name.bidi"] in state["error"], state
    page.fill("#ng-name0", "Zoë")
    # out of the field first, its change answered: a dialog redrawn between a button's
    # press and its release loses that click (the button is replaced under it)
    page.focus("#ng-seed")
    page.evaluate("window.skylineHost.settled()")
    page.click("#ng-start-btn")
    page.wait_for_function("() => !document.querySelector('#dialog dialog')")
    names = page.locator(".sb-name").all_inner_texts()
    assert names == ["Zoë", "Anna", "Experte"], names


@RETURNING
def test_first_visit_with_a_fragment_or_stored_data_shows_the_loading_screen(
    browser: Browser, site_url: str, guard: Guard, returning_state: dict,
) -> None:
    """No welcome that would change into something else: a link, the daily challenge, any
    fragment, or a profile with the page's data but no snapshot keeps the loading screen.
    (Python is never let through: only the paint before it is looked at.)"""
    ctx = new_context(browser, guard)
    try:
        page = ctx.new_page()
        for fragment in (LINK, "#daily", "#nonsense"):
            with held_runtime(page):
                page.goto(site_url + fragment, wait_until="domcontentloaded")
                state = page.evaluate(STATE)
                assert state["loading"] and not state["snapshot"] and state["bar"] is None, \
                    fragment
                assert not page.evaluate("window.skylineBoot.painted"), fragment
                assert page.locator("[data-testid=dialog-newgame]").count() == 0, fragment
                page.evaluate("localStorage.clear()")
                page.goto("about:blank")  # gone before the runtime is let through
    finally:
        ctx.close()
    # the game is stored, its snapshot is not (too big, or dropped by a new build)
    ctx = new_context(browser, guard, storage_state=returning_state)
    try:
        page = ctx.new_page()
        page.add_init_script(  # (not on about:blank, below: no storage there)
            f"if (location.protocol === 'http:') localStorage.removeItem('{SNAPSHOT_KEY}')")
        with held_runtime(page):
            page.goto(site_url, wait_until="domcontentloaded")
            assert page.evaluate("Object.keys(localStorage).some((k) => "
                                 "k.startsWith('skyline.game'))"), "no stored game"
            state = page.evaluate(STATE)
            assert state["loading"] and not state["snapshot"], state
            assert page.locator("[data-testid=dialog-newgame]").count() == 0
            page.goto("about:blank")
    finally:
        ctx.close()


def test_start_failure_shows_over_the_prerendered_welcome(
    browser: Browser, site_url: str, dist_dir: Path
) -> None:
    """The game's own code cannot be fetched: the failure message shows, not a
    welcome saying "Starting…" for ever, and it names the connection. An error in
    Python's start (main.py raises in the worker) is said at once (long before the
    no-progress timer's 45 s) as a failure of the app, with Retry and a start without
    the stored copies."""
    en = texts(dist_dir, "en")
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
        assert page.locator("#loading-error").inner_text() == en["loading.failed_runtime"]
        page.close()

        page = ctx.new_page()
        page.route("**/main.py", lambda route: route.fulfill(
            content_type="text/x-python", body='raise RuntimeError("a bug at start")\n'))
        page.goto(site_url, wait_until="domcontentloaded")
        page.locator("#loading-error").wait_for(state="visible", timeout=20_000)
        assert page.locator("#loading-error").inner_text() == en["loading.failed_app"]
        assert "a bug at start" in page.evaluate("document.documentElement.dataset.startFailure")
        assert page.locator("#loading-retry").is_visible()
        fresh = page.locator("#loading-fresh")
        assert fresh.is_visible() and fresh.inner_text() == en["loading.fresh"]
        page.unroute("**/main.py")
        fresh.click()  # the stored copies dropped, the page starts again and plays
        page.wait_for_function("document.body.dataset.ready === '1'", timeout=60_000)
    finally:
        ctx.close()
