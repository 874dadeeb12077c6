#!/usr/bin/env python3
"""Benchmark the web build in headless Chromium: start-up, click latency, bytes.

One run prints:

* **cold** time to a playable board (``body[data-ready="1"]``) with an empty profile,
  against a bare Pyodide page booting the same runtime files from the same server
  (``loadPyodide()`` + ``import sys``: the floor), alternated and repeated
  ``--repeat`` times each, medians and the ratio of the medians;
* **warm** start: the next visit in the same profile once the service worker controls
  the page (plus, for reference, the bare page's second visit from the HTTP cache);
* **repeat visit** in the middle of a game (service worker, the board's snapshot in
  localStorage): time to ready and time to the first contentful paint, which is the
  snapshot of the board (web/js/paint.js) when ``snapshot painted`` is true;
* **click-to-render** latency p50/p95 over a scripted solo game (fixed seed, started
  from a share link, a simple deterministic policy clicking the page's buttons):
  from the click event (capture listener on ``window``, runs before the page's own
  listener on ``document``) to the worker's render having been applied and layout
  having been forced (``skyline:handled`` from web/js/bridge.js, reading ``offsetHeight``),
  the same measure as ``e2e/test_board_play.py``; the time to the next animation frame is
  shown as well, for information;
* **layout shift** while the page loads: the sum of the ``layout-shift`` entries without
  recent input (PerformanceObserver, ``buffered: true``) from navigation until one second
  after the board is ready, at 1280x800 and at 360x740, on a cold visit (the prerendered
  welcome screen, then the live one) and on a repeat visit (the snapshot, then the live
  board; aim < 0.1);
* **cold visit, first paint**: the first contentful paint of an empty profile, which is
  the prerendered welcome screen (web/js/paint.js, index.html's templates) when
  ``welcome painted`` is true;
* **bytes** of the cold visit up to the ready board (Resource Timing ``transferSize``:
  compressed as served, headers included; serve.py compresses like the host, Brotli when
  accepted), in all (aim: 4.5 MB) and split into runtime (``runtime/``: Pyodide and
  PyScript) and our own (everything else, aim 250 KB), with the ten largest files; plus
  what the server sent in all during a cold visit (the service worker's precache
  included);
* with ``--lighthouse``: Lighthouse's desktop scores and timings (total blocking time).

``--engines chromium,firefox,webkit`` measures start-up in each engine instead (the
drivers of e2e/engines.py: Playwright, puppeteer-core over BiDi, selenium's WebKitGTK;
``chromium-main`` is Chromium without SharedArrayBuffer, so Python on the main thread):
per engine and round, a cold visit with a fresh profile (a script presses the welcome's
"Learn to play" every 100 ms from the first paint: the first working click is when its
effect appears) and the return visit the service worker serves once the interpreter's
memory snapshot is made (web/snapshot.mjs: its size, stored size and time to make and
store), in Chromium also that return visit with the CPU slowed 4x (DevTools'
``Emulation.setCPUThrottlingRate``, a mid-range phone), and the bare Pyodide page's cold
and repeat visit in the same engine, alternated; medians, the ratios against the bare
boot in that engine, and each engine's times against Chromium's (aims: return visit
<= 0.3x the bare boot in Chromium and Firefox, <= 0.5x in WebKit; cold <= 1.0x; the
throttled return visit <= 2 s; the first working click no later than ready). The ready
time is the page's ``skyline:ready`` performance mark (web/js/render.js).

All times are taken inside the page with ``performance.now()`` (milliseconds since
the navigation started), so browser launch and Playwright round trips are excluded.
The last stdout line is one JSON object with every figure (``cold_s``,
``bare_pyodide_s``, ``cold_ratio``, ``warm_s``, ``repeat_s``, ``first_paint_ms``,
``cold_first_paint_ms``, ``cold_welcome_painted``,
``cold_transfer_bytes``, ``click_p50_ms``, ``click_p95_ms``, ``own_bytes``, the layout
shifts, the load average, ``lighthouse_*``). Aims (reported, never a failing exit): cold
start within 1.0x the bare Pyodide boot, repeat visit ready within 1.5 s and painted
within 300 ms, click p95 under 50 ms, own bytes within 250 KB, cold transfer under
4.5 MB, layout shift under 0.1.

The site is built into a private temporary folder (others may rebuild ``dist/`` while
this runs); ``--no-build`` benchmarks a copy of the existing ``dist/`` instead.

``--phone`` measures the first visit, the return visit and a friend's game link on a
mid-range phone instead, beside a bare Pyodide page and the floor (a plain page that
restores Pyodide's own snapshot of the engine): the whole browser in a cgroup CPU quota
behind one shared slow link (``scripts/bench_phone.py``, ``scripts/phone_profile.py``).

Usage: ``python scripts/bench_web.py [--repeat 3] [--no-build] [--screenshots DIR]
[--cls-only] [--lighthouse] [--no-bytecode] [--phone [--phone-cpu 0.5] [--phone-mbit 9]
[--phone-rtt 80] [--phone-only app,link,bare,floor]
[--phone-detail]]`` (``--cls-only``: only the layout-shift
figures; ``--no-bytecode``: build without the bytecode archive, to compare).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, Page, Playwright, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import serve  # noqa: E402 - scripts/serve.py, a sibling module
from chromium import CHROMIUM, CHROMIUM_ARGS, POLICY_STEP  # noqa: E402 - scripts/chromium.py

READY_TIMEOUT_MS = 120_000
AIM_COLD_RATIO = 1.0
AIM_WARM_S = 1.5
AIM_FIRST_PAINT_MS = 300.0
AIM_COLD_TRANSFER = 4_500_000
AIM_CLICK_P95_MS = 50.0
AIM_OWN_BYTES = 250_000  # our own bytes before a computer player or Hint
MIN_CLICKS = 80
AIM_CLS = 0.1
CLS_SETTLE_MS = 1000
GAME_SEEDS = ("bench1", "bench2", "bench3", "bench4", "bench5", "bench6")

# Runs before any page script: notes when body[data-ready] becomes "1" (both pages set
# it), and whether the loading screen reported a failure.
READY_PROBE = """
new MutationObserver((_, obs) => {
  if (document.body && document.body.dataset.ready === "1" && window.__readyAt === undefined) {
    window.__readyAt = performance.now();
    obs.disconnect();
  }
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-ready"] });
"""
# Layout shifts from the very start of the navigation (buffered), without recent input.
CLS_PROBE = """
window.__cls = 0;
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.hadRecentInput) continue;
    window.__cls += e.value;
    window.__shifts.push({t: Math.round(e.startTime), v: e.value,
      nodes: (e.sources || []).map(s => s.node?.id || s.node?.className || s.node?.nodeName)});
  }
}).observe({type: "layout-shift", buffered: true});
"""
# The first paint with content on a visit, and what it showed: the snapshot of the last
# render or, on a first visit, the prerendered welcome screen (web/js/boot.js sets
# window.skylineBoot.painted, and .welcome for the latter), else the loading screen.
PAINT = """() => {
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  return { fcp: fcp ? fcp.startTime : null, snapshot: !!window.skylineBoot?.painted,
           welcome: !!window.skylineBoot?.welcome };
}"""
READY_OR_FAILED = (
    "window.__readyAt !== undefined || window.__bareError !== undefined ||"
    " document.getElementById('loading-error')?.hidden === false"
)

# Click timing, as in e2e/test_board_play.py: the capture listener on window notes the
# click before the page's listener on document sends it to the worker; web/js/bridge.js
# fires "skyline:handled" (detail.event: that click) once the worker's render has been
# applied; forcing layout there includes the DOM update. The next animation frame
# after each click is noted too.
CLICK_TIMING = """
() => {
  window.__clicks = [];
  window.__frames = [];
  window.__targets = [];
  const started = new WeakMap();
  window.addEventListener('click', (e) => { started.set(e, performance.now()); }, true);
  window.addEventListener('skyline:handled', (h) => {
    const e = h.detail.event;
    const t0 = started.get(e);
    if (t0 === undefined) return;
    void document.body.offsetHeight;
    window.__clicks.push(performance.now() - t0);
    window.__targets.push(e.target.closest('[id]')?.id || e.target.tagName);
    requestAnimationFrame(() => window.__frames.push(performance.now() - t0));
  });
}
"""

BARE_HTML = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>bare Pyodide</title>
  <link rel="icon" href="data:,">
  <script type="module" src="./bare.js"></script>
</head>
<body></body>
</html>
"""
# External module (the CSP forbids inline scripts): the floor for the same runtime.
BARE_JS = """import { loadPyodide } from "./@PYODIDE_DIR@/pyodide.mjs";
try {
  const pyodide = await loadPyodide();
  pyodide.runPython("import sys");
  document.body.dataset.ready = "1";
  performance.mark("skyline:ready");
} catch (err) {
  window.__bareError = String(err);
  throw err;
}
"""

SCREEN_SIZES = ((1280, 800), (360, 740))


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


# --- site and server -------------------------------------------------------------------


def prepare_site(tmp: Path, no_build: bool, bytecode: bool = True,
                 dist: Path = ROOT / "dist") -> Path:
    """A private copy of the site (built fresh, or copied from ``dist``) plus bare.html."""
    site = tmp / "site"
    if no_build:
        if not (dist / "index.html").is_file():
            sys.exit("[bench] dist/index.html missing: run scripts/build.py or drop --no-build")
        shutil.copytree(dist, site)
    else:
        serve.load_script("build").build(site, bytecode=bytecode)
    pyodide_dirs = sorted((site / "runtime").glob("pyodide-*"))
    if len(pyodide_dirs) != 1:
        sys.exit(f"[bench] expected one runtime/pyodide-* folder, got {pyodide_dirs}")
    rel = pyodide_dirs[0].relative_to(site).as_posix()
    # The bare page boots Pyodide as npm ships it: its whole standard library and lock
    # file (the site itself ships a cut library and an inline lock, see build.py).
    for name in ("python_stdlib.zip", "pyodide-lock.json"):
        shutil.copy2(ROOT / "node_modules" / "pyodide" / name, pyodide_dirs[0] / name)
    (site / "bare.html").write_text(BARE_HTML)
    (site / "bare.js").write_text(BARE_JS.replace("@PYODIDE_DIR@", rel))
    return site


class ByteLog:
    """Body bytes the server sent, per path (thread-safe)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sent: list[tuple[str, int]] = []

    def add(self, path: str, size: int) -> None:
        with self.lock:
            self.sent.append((path, size))

    def take(self) -> list[tuple[str, int]]:
        with self.lock:
            out, self.sent = self.sent, []
        return out


@contextmanager
def serving(site: Path, bytelog: ByteLog) -> Iterator[str]:
    """serve.py's server (netlify headers) in a thread, counting the bytes it sends."""
    server = serve.make_server(site, 0)
    base = server.RequestHandlerClass
    handler_cls = base.func  # functools.partial(handler, directory=...)

    class Counting(handler_cls):  # type: ignore[misc, valid-type]
        def copyfile(self, source: Any, outputfile: Any) -> None:
            start = source.tell()
            super().copyfile(source, outputfile)
            bytelog.add(urlsplit(self.path).path, source.tell() - start)

    server.RequestHandlerClass = functools.partial(Counting, **base.keywords)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    try:
        yield f"http://{host}:{port}/"
    finally:
        server.shutdown()
        server.server_close()


# --- browser ---------------------------------------------------------------------------


class Browser:
    """Launches persistent contexts (real disk cache) with fresh profiles."""

    def __init__(self, pw: Playwright, tmp: Path) -> None:
        self.pw = pw
        self.tmp = tmp
        self.count = 0
        self.foreign: list[str] = []
        self.errors: list[str] = []

    @contextmanager
    def context(self, **kwargs: Any) -> Iterator[BrowserContext]:
        self.count += 1
        profile = self.tmp / f"profile-{self.count}"
        ctx = self.pw.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            headless=True,
            service_workers="allow",
            **kwargs,
        )
        ctx.add_init_script(READY_PROBE)
        ctx.on("request", self._on_request)
        ctx.on("page", self._watch)
        for page in ctx.pages:
            self._watch(page)
        try:
            yield ctx
        finally:
            ctx.close()
            shutil.rmtree(profile, ignore_errors=True)

    def _on_request(self, request: Any) -> None:
        parts = urlsplit(request.url)
        if parts.scheme in ("http", "https") and parts.hostname != "127.0.0.1":
            self.foreign.append(request.url)

    def _watch(self, page: Page) -> None:
        page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        page.on(
            "console",
            lambda msg: self.errors.append(f"console: {msg.text}") if msg.type == "error" else None,
        )


def page_of(ctx: BrowserContext) -> Page:
    return ctx.pages[0] if ctx.pages else ctx.new_page()


def visit(page: Page, url: str) -> float:
    """Navigate and wait for the ready flag; seconds from navigation start to ready."""
    page.goto(url, wait_until="commit")
    page.wait_for_function(READY_OR_FAILED, timeout=READY_TIMEOUT_MS, polling=50)
    ready = page.evaluate("window.__readyAt")
    if ready is None:
        detail = page.evaluate("window.__bareError || 'the loading screen shows its error'")
        raise RuntimeError(f"{url} did not start: {detail}")
    return ready / 1000


def resources(page: Page) -> list[dict[str, Any]]:
    """Resource Timing so far: the document and every file fetched by the page or by the
    worker that runs Python (its own timeline, through ``window.skylineBots``). A read
    from the HTTP cache transfers 0 bytes, so a runtime file the page fetched ahead and
    the worker then read from the cache counts once; one downloaded twice, twice."""
    return page.evaluate(
        """async () => [...performance.getEntriesByType('navigation'),
                  ...performance.getEntriesByType('resource')].map((e) => ({
            url: e.name, transfer: e.transferSize, body: e.encodedBodySize,
          })).concat(window.skylineBots
            ? JSON.parse(await window.skylineBots('resources', '')) : [])"""
    )


def wait_for_service_worker(page: Page) -> None:
    page.wait_for_function(
        "navigator.serviceWorker && navigator.serviceWorker.controller !== null",
        timeout=READY_TIMEOUT_MS,
        polling=100,
    )


def link(seed: str) -> str:
    return f"#play?p=Bench&seed={seed}&start=0&nine=0"


def start_game(page: Page, seed: str) -> None:
    """Start a solo game from a share link (accepting the confirmation if asked)."""
    page.evaluate("h => { location.hash = h; }", link(seed))
    page.wait_for_function(
        "() => !location.hash && (document.querySelector('#yard-G')"
        " || document.querySelector('[data-action=link-accept]'))",
        timeout=10_000,
    )
    if page.locator("[data-action=link-accept]").count():
        page.click("[data-action=link-accept]")
    page.wait_for_function(
        "() => document.querySelector('#yard-G') && !document.querySelector('#dialog dialog')",
        timeout=10_000,
    )
    if page.locator("[data-testid=scoring]").count():
        raise RuntimeError("the share link did not start a new game")


def wait_for_snapshot(page: Page) -> None:
    """Until web/js/paint.js has stored the picture of the board (a render without a
    dialog)."""
    page.wait_for_function(
        """() => {
          const snap = JSON.parse(localStorage.getItem("skyline.snapshot") || "null");
          return !!snap && snap.regions.dialog === ""
            && Object.values(snap.regions).join("").includes("yard-G");
        }""",
        timeout=10_000,
    )


def play(page: Page, max_steps: int = 3000) -> list[str]:
    steps: list[str] = []
    for _ in range(max_steps):
        step = page.evaluate(POLICY_STEP)
        if step == "stuck":
            raise RuntimeError(f"policy stuck after {steps[-10:]}")
        if step == "over":
            return steps
        steps.append(step)
    raise RuntimeError("the game did not end")


# --- measurements ----------------------------------------------------------------------


def cold_app(browser: Browser, url: str, bytelog: ByteLog, seed: str) -> dict[str, Any]:
    """Cold visit, warm visit (service worker), and one scripted game, in one profile."""
    out: dict[str, Any] = {}
    with browser.context(viewport={"width": 1280, "height": 800}) as ctx:
        page = page_of(ctx)
        bytelog.take()
        out["cold"] = visit(page, url)
        out["cold_paint"] = page.evaluate(PAINT)
        out["resources"] = resources(page)
        wait_for_service_worker(page)
        time.sleep(0.5)  # let the precache requests finish before counting
        out["server_bytes"] = sum(size for _, size in bytelog.take())
        page.close()
        page = ctx.new_page()
        out["warm"] = visit(page, url)
        out["warm_paint"] = page.evaluate(PAINT)
        out["warm_controlled"] = page.evaluate("navigator.serviceWorker.controller !== null")
        out["warm_server_bytes"] = sum(size for _, size in bytelog.take())
        start_game(page, seed)
        page.evaluate(CLICK_TIMING)
        steps = play(page)
        page.wait_for_timeout(100)  # the last click's animation frame
        out["clicks"] = page.evaluate("window.__clicks")
        out["frames"] = page.evaluate("window.__frames")
        out["targets"] = page.evaluate("window.__targets")
        out["steps"] = steps
        out["score"] = page.locator("[data-testid=total-0]").inner_text()
        # a repeat visit in the middle of a game: the board's snapshot is painted first
        start_game(page, seed)
        wait_for_snapshot(page)
        page.close()
        page = ctx.new_page()
        out["repeat"] = visit(page, url)
        out["repeat_paint"] = page.evaluate(PAINT)
    return out


def cold_bare(browser: Browser, url: str) -> dict[str, Any]:
    with browser.context(viewport={"width": 1280, "height": 800}) as ctx:
        page = page_of(ctx)
        cold = visit(page, url)
        res = resources(page)
        page.close()
        warm = visit(ctx.new_page(), url)
    return {"cold": cold, "warm": warm, "resources": res}


def layout_shift(browser: Browser, url: str, width: int, height: int) -> dict[str, Any]:
    """Summed layout shift until CLS_SETTLE_MS after ready at this size: on a cold visit
    (loading screen, then the board) and on a repeat visit in the middle of a game (the
    last render's snapshot, then the live board)."""
    out: dict[str, Any] = {}
    with browser.context(viewport={"width": width, "height": height}) as ctx:
        ctx.add_init_script(CLS_PROBE)
        page = page_of(ctx)
        visit(page, url)
        page.wait_for_timeout(CLS_SETTLE_MS)
        out["cls"] = page.evaluate("window.__cls")
        out["shifts"] = page.evaluate("window.__shifts")
        start_game(page, "cls")
        wait_for_snapshot(page)
        page.close()
        page = ctx.new_page()
        visit(page, url)
        page.wait_for_timeout(CLS_SETTLE_MS)
        out["repeat_cls"] = page.evaluate("window.__cls")
        out["repeat_shifts"] = page.evaluate("window.__shifts")
        out["repeat_snapshot"] = page.evaluate(PAINT)["snapshot"]
    return out


def measure_cls(browser: Browser, url: str) -> dict[str, dict[str, Any]]:
    return {f"{w}x{h}": layout_shift(browser, url, w, h) for w, h in SCREEN_SIZES}


def print_cls(cls: dict[str, dict[str, Any]]) -> None:
    for size, run in cls.items():
        for label, key in (("cold", ""), ("repeat", "repeat_")):
            value = run[f"{key}cls"]
            biggest = sorted(run[f"{key}shifts"], key=lambda s: -s["v"])[:3]
            detail = ", ".join(f"{s['v']:.3f} at {s['t']} ms {s['nodes'][:2]}" for s in biggest)
            if key and not run["repeat_snapshot"]:
                detail = "NO SNAPSHOT PAINTED " + detail
            print(f"{f'layout shift, {label}, {size}':34} {value:7.3f}    aim < {AIM_CLS}: "
                  f"{'met' if value < AIM_CLS else 'MISSED'}   {detail}")


def cls_json(cls: dict[str, dict[str, Any]]) -> dict[str, float]:
    out = {f"cls_{k}": round(v["cls"], 4) for k, v in cls.items()}
    out |= {f"cls_repeat_{k}": round(v["repeat_cls"], 4) for k, v in cls.items()}
    return out


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def split_bytes(res: list[dict[str, Any]], base: str) -> tuple[int, int, list[tuple[str, int]]]:
    own = runtime = 0
    files: list[tuple[str, int]] = []
    for entry in res:
        path = urlsplit(entry["url"]).path
        if not entry["url"].startswith(base):
            continue
        size = int(entry["transfer"])
        files.append((path, size))
        if path.startswith("/runtime/"):
            runtime += size
        else:
            own += size
    files.sort(key=lambda f: -f[1])
    return own, runtime, files


# --- screenshots -----------------------------------------------------------------------


def screenshots(browser: Browser, url: str, folder: Path) -> list[Path]:
    """The board a few turns in, in English and German at two window sizes: once with
    three dice taken (before the roll), once right after the roll. Viewport shots, plus
    the whole page for the narrow window."""
    folder.mkdir(parents=True, exist_ok=True)
    saved: list[Path] = []
    all_taken = (
        "!!document.querySelector('#act-roll:not([disabled])')"
        " && !document.querySelector('button[data-action=die]')"
    )
    for width, height in SCREEN_SIZES:
        with browser.context(viewport={"width": width, "height": height}, locale="en-US") as ctx:
            page = page_of(ctx)
            visit(page, url + link("shots1"))
            for n in range(60):  # a few turns in, stop with three dice taken
                if n >= 20 and page.evaluate(all_taken):
                    break
                if page.evaluate(POLICY_STEP) == "over":
                    break
            for phase in ("taken", "rolled"):
                if phase == "rolled":
                    page.evaluate(POLICY_STEP)
                for lang in ("en", "de"):
                    if page.evaluate("document.documentElement.lang") != lang:
                        page.click("#btn-lang")
                        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
                    page.evaluate("document.activeElement?.blur(); window.scrollTo(0, 0)")
                    for full in (False, True) if width < 600 else (False,):
                        name = f"board-{phase}-{lang}-{width}x{height}{'-full' if full else ''}.png"
                        page.screenshot(path=str(folder / name), full_page=full)
                        saved.append(folder / name)
    return saved


# --- every engine -------------------------------------------------------------------
READY_MARK = "return performance.getEntriesByName('skyline:ready')[0]?.startTime ?? null;"


def _engines_module() -> Any:
    sys.path.insert(0, str(ROOT / "e2e"))
    import engines  # e2e/engines.py: one driver interface over the three engines

    return engines


def _ready_s(d: Any, engines: Any) -> float:
    engines.wait_for(d, "performance.getEntriesByName('skyline:ready').length > 0 || "
                     "document.getElementById('loading-error')?.hidden === false",
                     READY_TIMEOUT_MS / 1000, "ready")
    mark = d.run(READY_MARK)
    if mark is None:
        raise RuntimeError(f"{d.engine}: the page did not start")
    return mark / 1000


# A player who presses the welcome's first command ("Learn to play") every 100 ms from
# the first paint: when the first press was made and when its effect (Learn to play's
# panel) appeared, in ms since the navigation.
FIRST_CLICK = """
  window.__firstClick = { pressed: null, effect: null };
  const timer = setInterval(() => {
    if (document.querySelector("[data-testid=coach]")) {
      window.__firstClick.effect = performance.now();
      clearInterval(timer);
      return;
    }
    const button = document.querySelector("#ng-learn");
    if (button) {
      window.__firstClick.pressed ??= performance.now();
      button.click();
    }
  }, 100);
  return true;"""
THROTTLE = 4  # Chromium's return visit with the CPU slowed as on a mid-range phone


def engine_visits(engine: str, url: str, chromium: Any, app: bool) -> dict[str, Any]:
    """A cold visit in a fresh profile, then the next visit: seconds to ready. For the
    app (``app``) the cold visit presses "Learn to play" every 100 ms from the first
    paint (``first_click``: when its effect appeared), the next visit waits until the
    service worker controls the page and the memory snapshot is made (its figures in
    ``snapshot``), and Chromium adds a return visit with the CPU slowed 4x; the bare
    Pyodide page's next visit comes from the HTTP cache."""
    engines = _engines_module()
    if engine in ("chromium", "chromium-main"):
        # chromium-main: without SharedArrayBuffer, so Python runs on the main thread; a
        # fresh persistent profile, as a player's (Firefox's and WebKit's have one too)
        d = engines.PlaywrightDriver(chromium, shared_memory=engine == "chromium",
                                     profile=tempfile.mkdtemp(prefix="skyline-chromium-"))
    elif engine == "firefox":
        d = engines.PuppeteerDriver()
    else:
        d = engines.SeleniumWebKitDriver()
    out: dict[str, Any] = {}
    try:
        d.goto(url)
        if app:
            d.run(FIRST_CLICK)
        out["cold"] = _ready_s(d, engines)
        if app:
            effect = engines.wait_for(d, "window.__firstClick.effect", 60, "the first click")
            out["first_click"] = effect / 1000
            engines.wait_for(d, "navigator.serviceWorker.controller?.state === 'activated'",
                             READY_TIMEOUT_MS / 1000, "the service worker")
            out["snapshot"] = {}
            if d.run("return !!document.documentElement.dataset.snapshot;"):  # else none made
                out["snapshot"] = engines.wait_for(d, "window.skylineSnapshotMade", 150,
                                                   "the snapshot made")
        d.goto(url)
        out["warm"] = _ready_s(d, engines)
        if app:
            out["warm_start"] = d.run("return document.documentElement.dataset.pythonStart;")
            if engine == "chromium":
                d.throttle_cpu(THROTTLE)
                d.goto(url)
                out["warm_throttled"] = _ready_s(d, engines)
        return out
    finally:
        d.close()


def _median(runs: list[dict[str, Any]], key: str) -> float | None:
    values = [r[key] for r in runs if isinstance(r.get(key), (int, float))]
    return round(statistics.median(values), 2) if values else None


def bench_engines(names: list[str], base: str, repeat: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with sync_playwright() as pw:
        chromium = pw.chromium  # each visit launches its own persistent profile
        for engine in names:
            app: list[dict[str, Any]] = []
            bare: list[dict[str, Any]] = []
            for i in range(repeat):
                for which in (("app", "bare") if i % 2 == 0 else ("bare", "app")):
                    if which == "app":
                        app.append(engine_visits(engine, base, chromium, True))
                    else:
                        bare.append(engine_visits(engine, base + "bare.html", chromium, False))
                log(f"{engine} round {i + 1}: app cold {app[-1]['cold']:.2f} s, first click "
                    f"{app[-1]['first_click']:.2f} s, return {app[-1]['warm']:.2f} s "
                    f"({app[-1]['warm_start']}); bare cold {bare[-1]['cold']:.2f} s, "
                    f"return {bare[-1]['warm']:.2f} s")
            made = [r["snapshot"] for r in app if r["snapshot"].get("size")]
            figures: dict[str, Any] = {
                "cold_s": _median(app, "cold"),
                "bare_pyodide_s": _median(bare, "cold"),
                "cold_ratio": round(statistics.median(
                    a["cold"] / b["cold"] for a, b in zip(app, bare, strict=True)), 2),
                "first_click_s": _median(app, "first_click"),
                "warm_s": _median(app, "warm"),
                "bare_warm_s": _median(bare, "warm"),
                "warm_ratio": round(statistics.median(
                    a["warm"] / b["warm"] for a, b in zip(app, bare, strict=True)), 2),
                "warm_starts": [r["warm_start"] for r in app],
                "cold_runs": [round(r["cold"], 2) for r in app],
                "warm_runs": [round(r["warm"], 2) for r in app],
            }
            if engine == "chromium":
                figures["warm_throttled_s"] = _median(app, "warm_throttled")
            if made:
                figures["snapshot"] = {
                    "bytes": made[0]["size"], "stored_bytes": made[0]["stored"],
                    "make_ms": round(statistics.median(
                        m["bootMs"] + m["importMs"] + m["snapshotMs"] for m in made)),
                    "store_ms": round(statistics.median(m["storeMs"] for m in made)),
                }
            out[engine] = figures
    if "chromium" in out:
        for figures in out.values():
            figures["cold_vs_chromium"] = round(figures["cold_s"] / out["chromium"]["cold_s"], 2)
            figures["warm_vs_chromium"] = round(figures["warm_s"] / out["chromium"]["warm_s"], 2)
    return out


def print_engines(out: dict[str, Any]) -> None:
    print(f"{'engine':<13} {'cold s':>7} {'bare s':>7} {'ratio':>6} {'click s':>8} "
          f"{'return s':>9} {'bare ret':>9} {'ratio':>6} {'4x CPU':>7} {'snapshot':>22}")
    for engine, f in out.items():
        snap = f.get("snapshot")
        made = (f"{snap['stored_bytes'] / 1e6:.1f} MB, {snap['make_ms']}+{snap['store_ms']} ms"
                if snap else "-")
        throttled = f.get("warm_throttled_s")
        print(f"{engine:<13} {f['cold_s']:>7.2f} {f['bare_pyodide_s']:>7.2f} "
              f"{f['cold_ratio']:>6.2f} {f['first_click_s']:>8.2f} {f['warm_s']:>9.2f} "
              f"{f['bare_warm_s']:>9.2f} {f['warm_ratio']:>6.2f} "
              f"{(f'{throttled:.2f}' if throttled else '-'):>7} {made:>22}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="cold runs of each page")
    parser.add_argument("--no-build", action="store_true", help="benchmark a copy of dist/")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist",
                        help="with --no-build: the built site to copy (e.g. an older build)")
    parser.add_argument("--screenshots", type=Path, metavar="DIR", help="save board screenshots")
    parser.add_argument("--cls-only", action="store_true", help="only measure layout shift")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="build with Python sources instead of bytecode (to compare)")
    parser.add_argument("--lighthouse", action="store_true",
                        help="also run Lighthouse (scripts/lighthouse.py, desktop preset)")
    parser.add_argument("--engines", metavar="LIST",
                        help="start-up in each engine instead: e.g. chromium,firefox,webkit")
    parser.add_argument("--phone", action="store_true",
                        help="start-up on the phone profile instead (scripts/bench_phone.py)")
    parser.add_argument("--phone-cpu", type=float, default=0.5, help="cores the browser gets")
    parser.add_argument("--phone-mbit", type=float, default=9.0, help="the shared link's rate")
    parser.add_argument("--phone-rtt", type=float, default=80.0, help="its round trip, ms")
    parser.add_argument("--phone-only", metavar="LIST", default="app,link,bare,floor",
                        help="the phone's visits to measure, e.g. app,link")
    parser.add_argument("--phone-detail", action="store_true",
                        help="also print where each start spent its time (downloads, marks)")
    args = parser.parse_args()
    repeat = max(1, args.repeat)
    if args.phone:
        import bench_phone  # scripts/bench_phone.py

        with tempfile.TemporaryDirectory(prefix="skyline-bench-") as tmp_name:
            site = prepare_site(Path(tmp_name), args.no_build, not args.no_bytecode,
                                args.dist)
            bench_phone.run(site, lambda folder: serving(folder, ByteLog()), repeat,
                            args.phone_cpu, args.phone_mbit, args.phone_rtt,
                            args.phone_only.split(","), args.phone_detail,
                            [n for n in (args.engines or "").split(",") if n])
        return
    if args.engines:
        names = [n for n in args.engines.split(",") if n]
        with tempfile.TemporaryDirectory(prefix="skyline-bench-") as tmp_name:
            site = prepare_site(Path(tmp_name), args.no_build, not args.no_bytecode,
                                args.dist)
            with serving(site, ByteLog()) as base:
                load = os.getloadavg()[0]
                out = bench_engines(names, base, repeat)
        print_engines(out)
        print(json.dumps({"engines": out, "load_avg": [round(load, 2),
                                                        round(os.getloadavg()[0], 2)]}))
        return

    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="skyline-bench-") as tmp_name:
        tmp = Path(tmp_name)
        site = prepare_site(tmp, args.no_build, not args.no_bytecode, args.dist)
        bytelog = ByteLog()
        with serving(site, bytelog) as base, sync_playwright() as pw:
            browser = Browser(pw, tmp)
            cls = measure_cls(browser, base)
            if args.cls_only:
                print_cls(cls)
                print(json.dumps(cls_json(cls)))
                return
            app_runs: list[dict[str, Any]] = []
            bare_runs: list[dict[str, Any]] = []
            for i in range(repeat):
                order = ("app", "bare") if i % 2 == 0 else ("bare", "app")
                for which in order:
                    if which == "app":
                        seed = GAME_SEEDS[i % len(GAME_SEEDS)]
                        run = cold_app(browser, base, bytelog, seed)
                        app_runs.append(run)
                        log(f"run {i + 1}: app cold {run['cold']:.2f} s, warm "
                            f"{run['warm']:.2f} s, {len(run['clicks'])} clicks")
                    else:
                        run = cold_bare(browser, base + "bare.html")
                        bare_runs.append(run)
                        log(f"run {i + 1}: bare cold {run['cold']:.2f} s, "
                            f"warm {run['warm']:.2f} s")
            # Top up the click sample if the games were short.
            extra = 0
            while sum(len(r["clicks"]) for r in app_runs) < MIN_CLICKS and extra < 5:
                extra += 1
                app_runs.append(cold_app(browser, base, bytelog, GAME_SEEDS[-extra]))
            shots = screenshots(browser, base, args.screenshots) if args.screenshots else []
            lighthouse = None
            if args.lighthouse:
                log("lighthouse (desktop preset)")
                lighthouse = serve.load_script("lighthouse").run(base, "desktop")

    load_after = os.getloadavg()[0]
    raw = Path(tempfile.gettempdir()) / "skyline-bench-web-raw.json"
    raw.write_text(json.dumps({"app": app_runs, "bare": bare_runs, "cls": cls}))
    log(f"raw figures: {raw}")
    cold = statistics.median(r["cold"] for r in app_runs[:repeat])
    # Each round's app and bare visits ran back to back, under similar load.
    paired = [a["cold"] / b["cold"] for a, b in zip(app_runs[:repeat], bare_runs, strict=True)]
    bare = statistics.median(r["cold"] for r in bare_runs)
    warm = statistics.median(r["warm"] for r in app_runs)
    repeat_s = statistics.median(r["repeat"] for r in app_runs)
    paints = [r["repeat_paint"]["fcp"] for r in app_runs if r["repeat_paint"]["fcp"] is not None]
    first_paint = statistics.median(paints) if paints else float("nan")
    snapshot_painted = all(r["repeat_paint"]["snapshot"] for r in app_runs)
    cold_paints = [r["cold_paint"]["fcp"] for r in app_runs if r["cold_paint"]["fcp"] is not None]
    cold_paint = statistics.median(cold_paints) if cold_paints else float("nan")
    welcome_painted = all(r["cold_paint"]["welcome"] for r in app_runs)
    cold_transfer = statistics.median(
        sum(sp[1] for sp in split_bytes(r["resources"], "")[2]) for r in app_runs[:repeat])
    bare_warm = statistics.median(r["warm"] for r in bare_runs)
    ratio = cold / bare
    clicks = [c for r in app_runs for c in r["clicks"]]
    frames = [f for r in app_runs for f in r["frames"]]
    p50, p95 = percentile(clicks, 50), percentile(clicks, 95)
    own, runtime, files = split_bytes(app_runs[0]["resources"], base)
    _, bare_runtime, _ = split_bytes(bare_runs[0]["resources"], base)

    def fmt_runs(runs: list[dict[str, Any]], key: str) -> str:
        return " ".join(f"{r[key]:.2f}" for r in runs)

    print()
    print(f"Skyline web benchmark: headless Chromium, {repeat} cold run(s) of each page")
    print(f"load average {load_before:.1f} before, {load_after:.1f} after, "
          f"on {os.cpu_count()} CPU(s): times scale with load, ratios less so")
    print("-" * 78)
    print(f"{'cold start, playable board':34} {cold:7.2f} s   runs {fmt_runs(app_runs, 'cold')}")
    print(f"{'cold start, bare Pyodide (floor)':34} {bare:7.2f} s   runs "
          f"{fmt_runs(bare_runs, 'cold')}")
    print(f"{'cold ratio (median / median)':34} {ratio:7.3f}x  aim <= {AIM_COLD_RATIO}x: "
          f"{'met' if ratio <= AIM_COLD_RATIO else 'MISSED'}")
    print(f"{'  per-round ratios, median':34} {statistics.median(paired):7.3f}x  runs "
          + " ".join(f"{x:.3f}" for x in paired))
    print(f"{'warm start, service worker':34} {warm:7.2f} s   runs {fmt_runs(app_runs, 'warm')}"
          f"   (controlled: {all(r['warm_controlled'] for r in app_runs)})")
    print(f"{'warm, bare Pyodide (HTTP cache)':34} {bare_warm:7.2f} s   runs "
          f"{fmt_runs(bare_runs, 'warm')}")
    print(f"{'repeat visit (game open), ready':34} {repeat_s:7.2f} s   runs "
          f"{fmt_runs(app_runs, 'repeat')}   aim <= {AIM_WARM_S} s: "
          f"{'met' if repeat_s <= AIM_WARM_S else 'MISSED'}")
    print(f"{'repeat visit, first paint (board)':34} {first_paint:7.0f} ms  aim <= "
          f"{AIM_FIRST_PAINT_MS:.0f} ms: "
          f"{'met' if first_paint <= AIM_FIRST_PAINT_MS and snapshot_painted else 'MISSED'}"
          f"   (snapshot painted: {snapshot_painted}; runs "
          + " ".join(f"{p:.0f}" for p in paints) + ")")
    shown = "welcome" if welcome_painted else "loading"
    print(f"{f'cold visit, first paint ({shown})':34} {cold_paint:7.0f} ms"
          f"   (welcome painted: {welcome_painted}; runs "
          + " ".join(f"{r['cold_paint']['fcp'] or float('nan'):.0f}" for r in app_runs) + ")")
    print(f"{'click-to-render p50':34} {p50:7.1f} ms")
    print(f"{'click-to-render p95':34} {p95:7.1f} ms  aim < {AIM_CLICK_P95_MS:.0f} ms: "
          f"{'met' if p95 < AIM_CLICK_P95_MS else 'MISSED'}")
    print(f"{'  clicks, max':34} {len(clicks):7d}      max {max(clicks):.1f} ms, "
          f"{len(app_runs)} game(s), scores {', '.join(r['score'] for r in app_runs)}")
    slow = sorted(
        ((c, t) for r in app_runs for c, t in zip(r["clicks"], r["targets"], strict=True)),
        reverse=True,
    )[:5]
    print(f"{'  slowest clicks':34} " + ", ".join(f"{c:.0f} ms {t}" for c, t in slow))
    if frames:
        print(f"{'  click to next frame p50/p95':34} {percentile(frames, 50):7.1f} ms / "
              f"{percentile(frames, 95):.1f} ms (includes waiting for the frame)")
    print(f"{'own bytes (cold, to ready)':34} {own:9,d} B  aim < {AIM_OWN_BYTES:,d} B: "
          f"{'met' if own < AIM_OWN_BYTES else 'MISSED'}")
    print(f"{'runtime bytes (cold, to ready)':34} {runtime:9,d} B  "
          f"(bare page: {bare_runtime:,d} B)")
    print(f"{'cold transfer, compressed, to ready':34} {cold_transfer:9,.0f} B  aim <= "
          f"{AIM_COLD_TRANSFER:,d} B: {'met' if cold_transfer <= AIM_COLD_TRANSFER else 'MISSED'}"
          f"   (transferSize incl. headers; serve.py: {serve.encoding_note()})")
    print(f"{'server sent, cold visit + SW':34} {app_runs[0]['server_bytes']:9,d} B  "
          f"(warm visit: {app_runs[0]['warm_server_bytes']:,d} B)")
    print_cls(cls)
    if lighthouse:
        print(f"{'lighthouse (desktop)':34} performance {lighthouse['score_performance']}, "
              f"accessibility {lighthouse['score_accessibility']}, best practices "
              f"{lighthouse['score_best_practices']}, SEO {lighthouse['score_seo']}; "
              f"TBT {lighthouse['tbt_ms']:.0f} ms, LCP {lighthouse['lcp_ms']:.0f} ms, "
              f"FCP {lighthouse['fcp_ms']:.0f} ms, speed index {lighthouse['si_ms']:.0f} ms, "
              f"CLS {lighthouse['cls']}")
    print("largest files of the cold visit (transferSize):")
    for path, size in files[:10]:
        kind = "runtime" if path.startswith("/runtime/") else "own"
        print(f"  {size:11,d} B  {kind:7}  {path}")
    if browser.foreign:
        print(f"WARNING: {len(browser.foreign)} request(s) left 127.0.0.1: {browser.foreign[:3]}")
    if browser.errors:
        print(f"WARNING: {len(browser.errors)} console/page error(s): {browser.errors[:3]}")
    for path in shots:
        print(f"screenshot: {path}")
    print("-" * 78)
    print(
        json.dumps(
            {
                "cold_s": round(cold, 3),
                "bare_pyodide_s": round(bare, 3),
                "cold_ratio": round(ratio, 3),
                "warm_s": round(warm, 3),
                "repeat_s": round(repeat_s, 3),
                "first_paint_ms": round(first_paint),
                "snapshot_painted": snapshot_painted,
                "cold_first_paint_ms": round(cold_paint),
                "cold_welcome_painted": welcome_painted,
                "cold_transfer_bytes": round(cold_transfer),
                "click_p50_ms": round(p50, 2),
                "click_p95_ms": round(p95, 2),
                "own_bytes": own,
                "runtime_bytes": runtime,
                **cls_json(cls),
                "load_avg": round((load_before + load_after) / 2, 1),
                **({f"lighthouse_{k}": v for k, v in lighthouse.items()
                    if k.startswith("score_") or k.endswith("_ms") or k == "cls"}
                   if lighthouse else {}),
            }
        )
    )


if __name__ == "__main__":
    main()
