#!/usr/bin/env python3
"""The phone profile of the start-up benchmark (``scripts/bench_web.py --phone``).

Chromium at 390x844 (touch, device pixel ratio 3), the whole browser held to a fraction
of one core (default half) by a cgroup CPU quota, every request through one shared slow
link (default 9 Mbit/s, 80 ms round trip): ``scripts/phone_profile.py``. Each round, in
fresh profiles:

* **first visit**: first contentful paint, the effect of a tap on "Learn to play" made
  0.3 s after the paint (queued while Python starts: when the tutorial's panel shows),
  ready (the page's ``skyline:ready`` mark), and the split between: when PyScript had
  the interpreter (``py:ready``), main.py's imports done, the string tables fetched,
  the game lock had, the first render made (``main.start_mark``);
* **return visit**: the same profile once the service worker controls the page and the
  interpreter's memory snapshot is made, the games cleared (localStorage), caches kept:
  the same three figures, and how Python started;
* **a friend's game link, first visit**: Ann has played her first turn; Bo opens her
  link: when the "which seat" dialog shows, and when Bo's construction yard is playable
  after he claims his seat;
* **bare**: a plain page that boots the same Pyodide (``loadPyodide()`` + one line),
  first visit and return visit (the HTTP cache);
* **floor**: a plain page of the site's own runtime that makes Pyodide's memory snapshot
  of an interpreter with the engine imported on its first visit and restores it on its
  return visit, then runs one engine line.

Times are taken in the page (``performance.now()``, ms since the navigation started).
The measured browser runs in a child process that joins the cgroup before it launches
Chromium (``--child``); the server and the link stay outside it. Prints a table (medians
of ``--repeat`` rounds) and, last, one JSON line.

With ``--engines firefox,webkit`` (or any of scripts/bench_web.py's engines) the same
cgroup and link hold those engines instead, for scripts/bench_web.py's own visits of
each (a first visit, a return visit, the bare page; their own window sizes).

Usage: ``python scripts/bench_web.py --phone [--repeat 3] [--no-build] [--phone-cpu 0.5]
[--phone-mbit 9] [--phone-rtt 80] [--engines LIST]`` (root, for the cgroup).
"""

from __future__ import annotations

import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))
from chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402 - scripts/chromium.py

TIMEOUT_MS = 240_000  # a first visit at a quarter of a core took 43 s
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
         "has_touch": True, "is_mobile": True}

# The player's tap: "Learn to play" pressed once, 0.3 s after the first contentful
# paint (or as soon as it is on screen after that); its effect is the tutorial's panel.
TAP = """
window.__tap = { at: null, effect: null };
// PyScript has the interpreter (restored or booted) and is about to run main.py
document.addEventListener("py:ready", () => { window.__pyReady ??= performance.now(); });
new PerformanceObserver((list) => {
  if (!list.getEntries().some((e) => e.name === "first-contentful-paint")) return;
  const press = () => {
    const button = document.querySelector("#ng-learn");
    if (!button) return setTimeout(press, 100);
    window.__tap.at = performance.now();
    button.click();
    if (document.querySelector("[data-testid=coach]")) {
      // answered in the press's own task (a screen the build rendered): on screen at
      // the next frame
      requestAnimationFrame(() => { window.__tap.effect = performance.now(); });
      return;
    }
    const watch = setInterval(() => {
      if (document.querySelector("[data-testid=coach]")) {
        window.__tap.effect = performance.now();
        clearInterval(watch);
      }
    }, 20);
  };
  setTimeout(press, 300);
}).observe({ type: "paint", buffered: true });
"""
TIMES = """() => ({
  tap_wait: window.__tap && window.__tap.effect !== null ? window.__tap.effect - window.__tap.at
                                                        : null,
  paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
  ready: performance.getEntriesByName("skyline:ready")[0]?.startTime ?? null,
  tap: window.__tap ? window.__tap.effect : null,
  python: window.__pyReady ?? null,
  // main.py's moments (main.start_mark): its imports, the string tables, the game lock,
  // the first render made
  ...Object.fromEntries(["imported", "tables", "lock", "booted"].map((name) =>
    [name, performance.getEntriesByName(`skyline:${name}`)[0]?.startTime ?? null])),
  start: document.documentElement.dataset.pythonStart ?? null,
  welcome: window.skylineBoot ? window.skylineBoot.welcome : null,
})"""
SPLIT = ("paint", "python", "imported", "tables", "lock", "booted", "ready", "tap", "tap_wait")
READY = "() => performance.getEntriesByName('skyline:ready').length > 0"
# Where a start spent its time, for --detail: the downloads and marks of the page and of
# every worker (PyScript's, with the interpreter module's marks), on the page's clock.
ENTRIES = """() => ({origin: performance.timeOrigin, entries: performance.getEntries()
  .filter((e) => e.entryType === "resource" || e.entryType === "mark")
  .map((e) => ({name: e.name.split("/").pop().split("?")[0].slice(0, 48),
                start: e.startTime, end: e.entryType === "mark" ? null : e.responseEnd,
                bytes: e.transferSize ?? null}))})"""

# The floor: the site's own runtime (snapshot.json names it, as web/snapshot-worker.mjs
# reads it), the engine imported, Pyodide's memory snapshot made on the first visit and
# restored on the next, in a plain page (no PyScript, no page). Both visits run one
# engine line before they count as ready.
FLOOR_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>floor</title>
<link rel="icon" href="data:,"><script type="module" src="./floor.js"></script></head>
<body></body></html>
"""
FLOOR_JS = """const config = await (await fetch("./snapshot.json")).json();
const base = new URL(config.pyodide, location.href);
const { loadPyodide } = await import(base.href);
const options = { indexURL: new URL("./", base).href, lockFileContents: config.lock,
                  stdLibURL: new URL(config.stdlib, location.href).href };
const LINE = "from skyline import Board\\nBoard.new(['Ann'], seed='floor').legal_actions()";
const cache = await caches.open("floor-snapshot");
const stored = await cache.match("./floor.bin");
if (stored) {
  const bytes = new Uint8Array(await stored.arrayBuffer());
  const pyodide = await loadPyodide({ ...options, _loadSnapshot: bytes });
  pyodide.runPython(LINE);
  performance.mark("skyline:ready");
} else {
  const pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
  const app = await fetch(new URL(config.app, location.href));
  pyodide.unpackArchive(await app.arrayBuffer(), "zip", { extractDir: config.sitePackages });
  pyodide.runPython("import skyline");
  performance.mark("skyline:ready");
  await cache.put("./floor.bin", new Response(pyodide.makeMemorySnapshot()));
  window.__floorStored = true;
}
"""


def add_floor(site: Path) -> None:
    (site / "floor.html").write_text(FLOOR_HTML)
    (site / "floor.js").write_text(FLOOR_JS)


def friend_link() -> str:
    """A game link as Ann sends it after her first turn (Bo plays elsewhere)."""
    from skyline import Board
    from skyline.players.bots import get_bot
    from skyline.records.game_links import make_game_link

    board = Board.new(["Ann", "Bo"], seed="phone-link")
    bot, rng = get_bot("greedy"), random.Random(1)
    while board.state.seat == 0:
        board.push(bot(board.state, rng))
    return make_game_link(board, ("here", "friend"))


# --- the child: the browser in the cgroup ---------------------------------------------


def _context(pw: Any, profile: Path, tap: bool) -> Any:
    ctx = pw.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
        service_workers="allow", **PHONE)
    if tap:
        ctx.add_init_script(TAP)
    return ctx


def _visit(page: Any, url: str) -> dict[str, Any]:
    page.goto(url, wait_until="commit")
    page.wait_for_function(READY, timeout=TIMEOUT_MS, polling=100)
    if page.evaluate("() => !!window.__tap"):
        page.wait_for_function("() => window.__tap.effect !== null", timeout=TIMEOUT_MS,
                               polling=100)
    times: dict[str, Any] = page.evaluate(TIMES)
    result = {k: (round(v / 1000, 2) if isinstance(v, (int, float)) and not isinstance(v, bool)
                  else v) for k, v in times.items()}
    if DETAIL:
        result["timeline"] = _timeline(page)
    return result


DETAIL = False


def _timeline(page: Any) -> list[tuple[str, str, float, float | None, int | None]]:
    """(thread, name, start, end, bytes) of every download and mark, seconds on the
    page's clock, in order of start."""
    own = page.evaluate(ENTRIES)
    rows = [("page", e["name"], e["start"], e["end"], e["bytes"]) for e in own["entries"]]
    for n, worker in enumerate(page.workers):
        try:
            theirs = worker.evaluate(ENTRIES)
        except Exception:  # a worker that ended
            continue
        shift = theirs["origin"] - own["origin"]
        rows += [(f"worker{n}", e["name"], e["start"] + shift,
                  None if e["end"] is None else e["end"] + shift, e["bytes"])
                 for e in theirs["entries"]]
    return [(thread, name, round(start / 1000, 2),
             None if end is None else round(end / 1000, 2), size)
            for thread, name, start, end, size in sorted(rows, key=lambda r: r[2])]


def _app(pw: Any, tmp: Path, url: str) -> dict[str, Any]:
    ctx = _context(pw, tmp / "app", tap=True)
    try:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        first = _visit(page, url)
        page.wait_for_function("() => navigator.serviceWorker.controller?.state === "
                               "'activated' && !!window.skylineSnapshotMade",
                               timeout=TIMEOUT_MS * 2, polling=500)
        made = page.evaluate("window.skylineSnapshotMade")
        # the games cleared from a file of the site that is no page of the app (the app
        # saves its picture again as it goes), the caches and the snapshot kept
        page.goto(url + "manifest.webmanifest", wait_until="commit")
        page.evaluate("localStorage.clear()")
        again = _visit(page, url)
        # and the visit after (the engine may keep compiled code from the one before)
        page.wait_for_timeout(3000)
        page.goto(url + "manifest.webmanifest", wait_until="commit")
        page.evaluate("localStorage.clear()")
        third = _visit(page, url)
        return {"first": first, "return": again, "return2": third, "snapshot_made": made}
    finally:
        ctx.close()


def _link(pw: Any, tmp: Path, url: str, link: str) -> dict[str, Any]:
    ctx = _context(pw, tmp / "link", tap=False)
    try:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        page.goto(url + "#" + link, wait_until="commit")
        page.wait_for_selector("[data-testid=claim-form]", timeout=TIMEOUT_MS)
        dialog = page.evaluate("performance.now()")
        page.check("#claim-seat1")
        page.click("[data-testid=claim-form] button[type=submit]")
        page.wait_for_selector("#yard-G:not([disabled])", timeout=TIMEOUT_MS)
        playable = page.evaluate("performance.now()")
        return {"dialog": round(dialog / 1000, 2), "playable": round(playable / 1000, 2)}
    finally:
        ctx.close()


def _plain(pw: Any, tmp: Path, url: str, name: str) -> dict[str, Any]:
    ctx = _context(pw, tmp / name, tap=False)
    try:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        first = _visit(page, url)
        if name == "floor":
            page.wait_for_function("() => window.__floorStored === true", timeout=TIMEOUT_MS)
        again = _visit(page, url)
        return {"first": first, "return": again}
    finally:
        ctx.close()


def child(url: str, out: Path, repeat: int, only: list[str]) -> None:
    """Runs in the cgroup: the visits ``only`` names, ``repeat`` rounds, as JSON into
    ``out``."""
    from playwright.sync_api import sync_playwright

    link = friend_link()
    rounds = []
    with sync_playwright() as pw:
        for i in range(repeat):
            tmp = Path(tempfile.mkdtemp(prefix="skyline-phone-"))
            try:
                order = [name for name in ("app", "link", "bare", "floor") if name in only]
                if i % 2:
                    order.reverse()
                result: dict[str, Any] = {}
                for which in order:
                    if which == "app":
                        result["app"] = _app(pw, tmp, url)
                    elif which == "link":
                        result["link"] = _link(pw, tmp, url, link)
                    else:
                        result[which] = _plain(pw, tmp, url + f"{which}.html", which)
                    print(f"[phone] round {i + 1} {which}: {result[which]}", file=sys.stderr,
                          flush=True)
                rounds.append(result)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
    out.write_text(json.dumps(rounds))


# --- the parent: server, link and cgroup ---------------------------------------------


def _median(rounds: list[dict[str, Any]], *path: str) -> float | None:
    values = []
    for r in rounds:
        value: Any = r
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, (int, float)):
            values.append(value)
    return round(statistics.median(values), 2) if values else None


def summary(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    m = _median
    return {
        "first": {key: m(rounds, "app", "first", key) for key in SPLIT},
        "return": {**{key: m(rounds, "app", "return", key) for key in SPLIT},
                   "starts": [r["app"]["return"]["start"] for r in rounds if "app" in r],
                   "welcome": [r["app"]["return"]["welcome"] for r in rounds if "app" in r]},
        "return2": {key: m(rounds, "app", "return2", key) for key in SPLIT},
        "link": {"dialog": m(rounds, "link", "dialog"), "playable": m(rounds, "link", "playable")},
        "bare": {"first": m(rounds, "bare", "first", "ready"),
                 "return": m(rounds, "bare", "return", "ready")},
        "floor": {"first": m(rounds, "floor", "first", "ready"),
                  "return": m(rounds, "floor", "return", "ready")},
    }


def print_timelines(rounds: list[dict[str, Any]]) -> None:
    """Each visit's downloads and marks (--phone-detail)."""
    for n, r in enumerate(rounds, 1):
        for visit in ("first", "return"):
            rows = r.get("app", {}).get(visit, {}).get("timeline") or []
            print(f"-- round {n}, {visit} visit: thread, start, end, KB, what")
            for thread, name, start, end, size in rows:
                kb = "" if not size else f"{size / 1000:.0f}"
                print(f"{thread:8} {start:7.2f} {'' if end is None else f'{end:7.2f}':>7} "
                      f"{kb:>6}  {name}")


def print_summary(s: dict[str, Any], cpu: float, mbit: float, rtt: float) -> None:
    print(f"phone profile: 390x844 touch DPR 3, the whole browser at {cpu:g} of a core, "
          f"one shared {mbit:g} Mbit/s link, {rtt:g} ms round trip (medians, seconds)")
    print(f"{'':34} " + " ".join(f"{k:>8}" for k in SPLIT))
    for name, row in (("first visit", s["first"]), ("return visit", s["return"]),
                      ("the visit after", s["return2"])):
        print(f"{name:34} " + " ".join(f"{row[k]:8.2f}" if row[k] is not None else f"{'-':>8}"
                                      for k in SPLIT))
    def pair(a: float | None, b: float | None) -> str:
        return " ".join(f"{'-' if v is None else v:>6}" for v in (a, b))

    link = pair(s["link"]["dialog"], s["link"]["playable"])
    print(f"{'friend link: dialog / playable':34} {link}")
    print(f"{'bare Pyodide: first / return':34} {pair(s['bare']['first'], s['bare']['return'])}")
    print(f"{'floor (restored engine): first / return':40} "
          f"{pair(s['floor']['first'], s['floor']['return'])}")
    first, bare = s["first"]["ready"], s["bare"]["first"]
    back, floor = s["return"]["ready"], s["floor"]["return"]
    if first and bare:
        print(f"first visit ready / bare first: {first / bare:.2f}x")
    if back and floor:
        print(f"return visit ready / floor return: {back / floor:.2f}x")


def run(site: Path, serving: Any, repeat: int, cpu: float, mbit: float, rtt: float,
        only: list[str] | None = None, detail: bool = False,
        engines: list[str] | None = None) -> None:
    """The phone benchmark of ``site`` (a copy with bare.html): server, link, cgroup."""
    import phone_profile

    why = phone_profile.cpu_group_available()
    if why:
        sys.exit(f"[bench] --phone: {why}")
    add_floor(site)
    with serving(site) as base:
        parts = urlsplit(base)
        link = phone_profile.SharedLink((parts.hostname or "127.0.0.1", parts.port or 80),
                                        mbit=mbit, rtt_ms=rtt)
        port = link.start()
        url = f"http://127.0.0.1:{port}/"
        with tempfile.TemporaryDirectory(prefix="skyline-phone-out-") as out_dir, \
                phone_profile.cpu_group(cpu) as group:
            out = Path(out_dir) / "rounds.json"
            subprocess.run([sys.executable, __file__, "--child", url, str(out), str(repeat),
                            ",".join(only or ["app", "link", "bare", "floor"]),
                            "detail" if detail else "", ",".join(engines or [])],
                           check=True, preexec_fn=phone_profile.joiner(group))
            rounds = json.loads(out.read_text())
        link.stop()
    if engines:
        import bench_web  # scripts/bench_web.py: the engines' visits and their table

        print(f"phone profile, engines: the whole browser at {cpu:g} of a core, one shared "
              f"{mbit:g} Mbit/s link, {rtt:g} ms round trip (their own window sizes)")
        bench_web.print_engines(rounds)
        print(json.dumps({"phone_engines": rounds, "cpu": cpu, "mbit": mbit, "rtt_ms": rtt}))
        return
    s = summary(rounds)
    if detail:
        print_timelines(rounds)
    print_summary(s, cpu, mbit, rtt)
    print(json.dumps({"phone": s, "cpu": cpu, "mbit": mbit, "rtt_ms": rtt,
                      "link_bytes": link.sent, "rounds": rounds}))


if __name__ == "__main__" and sys.argv[1:2] == ["--child"]:
    DETAIL = sys.argv[6] == "detail"
    if sys.argv[7]:  # Firefox, WebKit…: scripts/bench_web.py's visits, in the cgroup
        import bench_web

        Path(sys.argv[3]).write_text(json.dumps(bench_web.bench_engines(
            sys.argv[7].split(","), sys.argv[2], int(sys.argv[4]))))
    else:
        child(sys.argv[2], Path(sys.argv[3]), int(sys.argv[4]), sys.argv[5].split(","))
