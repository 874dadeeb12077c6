"""Browser-test fixtures for the Skyline web build (pytest-playwright + Debian Chromium).

Quick guide for writing a UI test::

    def test_something(app_page):            # page already booted to body[data-ready="1"]
        app_page.get_by_role("button", name="Roll").click()
        ...                                  # foreign requests / console errors / CSP
                                             # violations fail the test at teardown

Fixtures (all defined here):

``site_url`` (session)
    Base URL (``http://127.0.0.1:PORT/``) of ``dist/`` served by
    ``scripts/serve.py --no-build`` in a subprocess, with netlify.toml's headers (the real
    CSP); under pytest-xdist one server, the controller's, for every worker (one origin).
    ``dist/`` is built once per session unless ``SKYLINE_NO_BUILD=1``. Also exposed
    as pytest-base-url's ``base_url``, so ``page.goto("/")`` works with the stock ``page``.
``dist_dir`` (session)
    Path of the built ``dist/``.
``app_context`` (session)
    One persistent Chromium context (real disk cache, service worker allowed) shared by
    the ``app_page`` tests, started from a copy of ``warm_profile``: every page restores
    Python's memory snapshot, none boots cold. Don't set it offline
    or change its permissions; use ``persistent_context`` for that.
``app_page`` (function)
    A fresh page in ``app_context``, opened at ``site_url`` and waited until ready, with
    a ``Guard`` attached (see below). Afterwards every page of the test is closed and
    localStorage/sessionStorage are cleared (from a static page of the site that stays
    open for the session).
``guard`` (function)
    ``Guard`` that records every request, console error, page error and CSP violation of
    the pages/contexts given to ``guard.attach(...)``; at teardown it fails the test if a
    request left 127.0.0.1 or anything went wrong. ``guard.assert_clean()`` checks early;
    ``guard.allow_console(regex)`` tolerates an expected console error.
``open_app`` / ``wait_ready`` (session; they return functions)
    ``open_app(page, url=None)`` goes to the app and waits for ``body[data-ready="1"]``
    (60 s), failing fast if the loading screen shows its error; ``wait_ready(page)`` only
    waits (e.g. after ``page.reload()``). Fixtures rather than imports: pytest may load
    another ``conftest`` module under the same name, so never ``from conftest import``.
``site_build`` (session)
    ``scripts/build.py`` as a module (``write_service_worker``, ``WEB``, ...).
``persistent_context`` (function)
    Factory: ``ctx = persistent_context()`` launches Chromium with a throw-away profile
    (disk cache, like a real visitor; default contexts keep only a memory cache that
    drops the 9.6 MB wasm). Use it for offline/service-worker tests. Closed at teardown.
``live_browser`` (module)
    Chromium launched with WebRTC host candidates as plain addresses, for the live
    tables' tests (e2e/test_live_transport.py, e2e/test_live_tables.py).
``serve_dir`` (function)
    Factory: ``url, server = serve_dir(path, port=0)`` serves any folder (e.g. a modified
    copy of dist) in a thread with the netlify headers; ``server.shutdown()`` stops it
    (offline tests). Pass the old ``port`` to bring a site back on the same origin (same
    localStorage and service worker). ``extra_connect=[relay.url]`` adds a loopback relay
    (``ws://127.0.0.1:PORT``, scripts/live_relay.py) to the CSP's connect-src, so a live
    table's test can run under the site's real policy (scripts/serve.py). Stopped at
    teardown.
``warm_context`` (function)
    Factory like ``persistent_context`` whose profile is a copy of ``warm_profile`` (made
    once per session: it has been to the page, so the page restores Python's memory snapshot
    instead of a cold boot; nothing of the player's is stored). For tests of what a
    player does on a page new to them with a locale, viewport or clock of its own.
``dated_context`` (function)
    Factory: ``ctx = dated_context("2027-03-15")`` is ``warm_context`` whose clock
    stands at noon (the browser's local time) of that day: the same "today" on any day
    and in any time zone.

Workers (pytest-xdist): ``scripts/test.sh`` runs ``tests/`` and ``e2e/`` as one session
spread over several worker processes (``-n 3 --dist loadgroup``); the controller builds
and serves the site once for all of them, the first worker that needs ``warm_profile``
makes it for all (under a file lock), and each worker has its own browser,
``app_context`` and temporary folder. Tests that must run in order
in one browser share an ``xdist_group`` mark (one engine's visit in
``test_every_engine.py``). ``pytest_collection_modifyitems`` below puts the longest
files first, so that no worker is left with a long test at the end.
"""

from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    CDPSession,
    ConsoleMessage,
    ElementHandle,
    Keyboard,
    Locator,
    Mouse,
    Page,
    Playwright,
    Request,
)
from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parent.parent


def _load_serve() -> ModuleType:
    spec = importlib.util.spec_from_file_location("skyline_serve", ROOT / "scripts" / "serve.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


serve = _load_serve()  # scripts/serve.py
_site_build = serve.load_script("build")  # scripts/build.py

_chromium = serve.load_script("chromium")  # scripts/chromium.py
CHROMIUM = _chromium.CHROMIUM
CHROMIUM_ARGS = _chromium.CHROMIUM_ARGS
READY_SELECTOR = 'body[data-ready="1"]'
READY_TIMEOUT_MS = 60_000
# How often a long wait (a start, a snapshot, a service worker) looks again. Playwright's
# default looks at every animation frame, which keeps a page that has nothing to do
# drawing sixty frames a second: about 0.06 CPU-seconds per second of waiting here,
# against 0.005 when looking every 100 ms (a page busy starting draws its frames
# anyway). Short waits for a passing state keep the default.
LONG_WAIT_POLL_MS = 100
ALLOWED_HOSTS = {"127.0.0.1"}
ALLOWED_SCHEMES = {"data", "blob", "about"}

# --- settling after UI actions -------------------------------------------------------
# The page's Python runs in a Web Worker (web/main.py, web/host.js): a click is handled
# a few milliseconds after it was dispatched, not during the dispatch. Every Playwright
# action that sends input therefore waits, before it returns, until the page has
# handled every event dispatched so far (``skylineHost.settled()``), as it did when the
# handlers ran on the main thread. A test that clicks from inside ``page.evaluate``
# awaits ``skylineHost.settled()`` itself.
SETTLE = "() => window.skylineHost?.settled()"
_ACTIONS = {
    "Page": ("click", "dblclick", "tap", "fill", "type", "press", "check", "uncheck",
             "select_option", "set_input_files", "dispatch_event", "set_checked"),
    "Locator": ("click", "dblclick", "tap", "fill", "type", "press", "press_sequentially",
                "check", "uncheck", "select_option", "set_input_files", "dispatch_event",
                "set_checked", "clear"),
    "ElementHandle": ("click", "dblclick", "tap", "fill", "type", "press", "check", "uncheck",
                      "select_option", "set_input_files", "dispatch_event", "set_checked"),
    "Keyboard": ("press", "type", "down", "up", "insert_text"),
    "Mouse": ("click", "dblclick", "down", "up"),
}


def settle(page: Page) -> None:
    """Wait until the page has handled every event dispatched so far."""
    try:
        if not page.is_closed():
            page.evaluate(SETTLE)
    except PlaywrightError:
        pass  # the page navigated or closed meanwhile: nothing left to wait for


def _page_of(target: Any) -> Page | None:
    if isinstance(target, Page):
        return target
    if isinstance(target, Locator):
        return target.page
    return getattr(target, "_skyline_page", None)


def _settling(method: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = method(self, *args, **kwargs)
        page = _page_of(self)
        if page is not None:
            settle(page)
        return result

    wrapper.__wrapped__ = method  # type: ignore[attr-defined]
    return wrapper


def _patch_actions() -> None:
    classes = {"Page": Page, "Locator": Locator, "ElementHandle": ElementHandle,
               "Keyboard": Keyboard, "Mouse": Mouse}
    for name, methods in _ACTIONS.items():
        cls = classes[name]
        for method in methods:
            original = getattr(cls, method, None)
            if original is not None and not hasattr(original, "__wrapped__"):
                setattr(cls, method, _settling(original))
    # Keyboard, Mouse and ElementHandle do not name their page: remember it.
    for prop in ("keyboard", "mouse"):
        getter = getattr(Page, prop).fget

        def tagged(page: Page, getter: Callable[[Page], Any] = getter) -> Any:
            device = getter(page)
            device._skyline_page = page
            return device

        setattr(Page, prop, property(tagged))
    for finder in ("query_selector", "wait_for_selector"):
        original = getattr(Page, finder)

        def found(page: Page, *args: Any, original: Callable[..., Any] = original,
                  **kwargs: Any) -> Any:
            handle = original(page, *args, **kwargs)
            if handle is not None:
                handle._skyline_page = page
            return handle

        setattr(Page, finder, found)


_patch_actions()

# Reports CSP violations to the console so Guard sees them even if Chromium's own
# "Refused to ..." message changes; Playwright init scripts are exempt from the CSP.
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI} ` +
                `at ${e.sourceFile}:${e.lineNumber}`);
});
"""


# --- the order of a session ------------------------------------------------------------

# The longest files first (measured: ``--durations``), then the rest of e2e/, then
# tests/ (short CPython tests that fill the workers' last minutes). The workers take the
# tests in this order; a file's tests stay together and in their order.
LONG_FIRST = (
    "e2e/test_scoreboard_and_seats_in_view.py",
    "e2e/test_every_engine.py",
    "e2e/test_viewports.py",
    "e2e/test_live_tables.py",
    "e2e/test_tutorial_walkthrough.py",
    "e2e/test_a11y.py",
    "tests/test_screen_walk.py",
    "e2e/test_page_fuzz.py",
    "e2e/test_python_snapshot.py",
    "e2e/test_start_paint.py",
    "e2e/test_table_review_page.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> tuple[int, int]:
        path = item.nodeid.split("::", 1)[0]
        if path in LONG_FIRST:
            return 0, LONG_FIRST.index(path)
        return (1 if path.startswith("e2e/") else 2), 0

    items.sort(key=rank)  # stable: the collection's order within each rank


# --- browser -------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Use Debian's Chromium (Playwright's own browser downloads are not available)."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


def launch_persistent(playwright: Playwright, user_data_dir: Path, **kwargs: Any) -> BrowserContext:
    ctx = playwright.chromium.launch_persistent_context(
        str(user_data_dir),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        headless=True,
        service_workers="allow",
        **kwargs,
    )
    ctx.add_init_script(CSP_LISTENER)
    return ctx


@pytest.fixture
def persistent_context(
    playwright: Playwright, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[..., BrowserContext]]:
    """Factory for persistent contexts (own profile + disk cache); closed at teardown."""
    contexts: list[BrowserContext] = []

    def make(**kwargs: Any) -> BrowserContext:
        ctx = launch_persistent(playwright, tmp_path_factory.mktemp("profile"), **kwargs)
        contexts.append(ctx)
        return ctx

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture(scope="module")
def live_browser(playwright: Playwright,
                 browser_type_launch_args: dict[str, Any]) -> Iterator[Browser]:
    """Chromium whose WebRTC host candidates are plain addresses (scripts/live_page.py
    ``LIVE_ARGS``), for the live tables' tests: its contexts and Firefox reach them."""
    args = {**browser_type_launch_args}
    args["args"] = [*args.get("args", []), *serve.load_script("live_page").LIVE_ARGS]
    browser = playwright.chromium.launch(**args)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def warm_profile(
    playwright: Playwright, site_url: str, tmp_path_factory: pytest.TempPathFactory,
    worker_id: str,
) -> Path:
    """A profile that has been to the page once (made on first need, once for all the
    workers that share the site: the first makes it under a lock, the others wait and
    use it): its service worker and caches, and Python's memory snapshot stored, so a
    page started in a copy restores the interpreter instead of booting it cold; nothing
    of the player's is kept (localStorage and sessionStorage empty: the page is new to
    the player). Never used itself: each context starts from a copy."""
    root = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        root = root.parent  # the session's folder, above each worker's own
    path = root / f"warm-profile-{urlsplit(site_url).port}"
    with open(root / "warm-profile.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (path / "made").is_file():
            shutil.rmtree(path, ignore_errors=True)
            _make_warm(playwright, site_url, path / "profile")
            (path / "made").write_text("")
    return path / "profile"


def _make_warm(playwright: Playwright, site_url: str, profile: Path) -> None:
    rules = site_url.rstrip("/") + "/rules/en.html"
    ctx = launch_persistent(playwright, profile)
    try:
        page = ctx.new_page()
        _open_app(page, site_url)
        wait_for_snapshot_made(page)
        assert page.evaluate("window.skylineSnapshotMade.ok"), "no snapshot was made"
        page.goto(rules, wait_until="domcontentloaded")
    finally:
        ctx.close()
    # a browser of its own: one that has compiled the runtime already reuses that code
    ctx = launch_persistent(playwright, profile)
    try:
        page = ctx.new_page()
        _start_until_wasm_code_cached(ctx, page, site_url)
        page.goto(rules, wait_until="domcontentloaded")
        page.evaluate("localStorage.clear(); sessionStorage.clear()")
    finally:
        ctx.close()


WASM_CODE_CACHED = "v8.wasm.cachedModule"  # Chromium's trace event: V8's code stored
WASM_CODE_CACHE_TRACE = "disabled-by-default-devtools.timeline"  # its category
WASM_CODE_CACHE_WAIT_S = 30


def _start_until_wasm_code_cached(ctx: BrowserContext, page: Page, site_url: str) -> None:
    """A returning player's start, kept open until Chromium has stored V8's compiled
    code of Python's runtime beside the service worker's cached copy of it. A first visit
    fetches the runtime from the network, so its compiled code is kept with the HTTP
    cache's entry, which a page the service worker controls never reads: without this
    start every copy of the profile would compile the runtime afresh on its first start
    and then store it, as no returning player does (about 2 CPU-seconds more for a new
    context's first start and reload, measured here). Chromium stores the code once per
    load, while the page starts; the trace is read every half second until it says so
    (a gap between two traces could miss it: then the wait ends at its limit and costs
    only time, as every copy then compiles the runtime once, as before)."""
    cdp = ctx.new_cdp_session(page)
    deadline = time.monotonic() + WASM_CODE_CACHE_WAIT_S
    started = False
    while time.monotonic() < deadline:
        cdp.send("Tracing.start", {"traceConfig": {"includedCategories": [WASM_CODE_CACHE_TRACE]},
                                   "transferMode": "ReturnAsStream"})
        if started:
            page.wait_for_timeout(500)
        else:
            _open_app(page, site_url)
            started = True
        if WASM_CODE_CACHED in _trace_event_names(cdp, page):
            break
    cdp.detach()


def _trace_event_names(cdp: CDPSession, page: Page) -> set[str]:
    """End the session's trace and return the names of its events."""
    ended: dict[str, Any] = {}

    def on_complete(event: dict[str, Any]) -> None:
        ended.update(event)

    cdp.once("Tracing.tracingComplete", on_complete)
    cdp.send("Tracing.end")
    while not ended:
        page.wait_for_timeout(20)
    chunks = []
    while True:
        read = cdp.send("IO.read", {"handle": ended["stream"]})
        chunks.append(read["data"])
        if read.get("eof"):
            break
    cdp.send("IO.close", {"handle": ended["stream"]})
    trace = json.loads("".join(chunks))
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    return {event.get("name", "") for event in events}


def copy_warm(warm_profile: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new profile, a copy of ``warm_profile``."""
    path = tmp_path_factory.mktemp("warm") / "profile"
    shutil.copytree(warm_profile, path, ignore=shutil.ignore_patterns("Singleton*"))
    return path


@pytest.fixture
def warm_context(
    playwright: Playwright, warm_profile: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[..., BrowserContext]]:
    """Factory like ``persistent_context`` (same keyword arguments: locale, viewport,
    base_url, ...), whose profile starts as a copy of ``warm_profile``: for a test of what
    a player does on a page new to them, not of how it starts (a first visit's start is
    ``persistent_context``'s). Closed at teardown."""
    contexts: list[BrowserContext] = []

    def make(**kwargs: Any) -> BrowserContext:
        ctx = launch_persistent(playwright, copy_warm(warm_profile, tmp_path_factory), **kwargs)
        contexts.append(ctx)
        return ctx

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def dated_context(
    warm_context: Callable[..., BrowserContext], site_url: str
) -> Callable[[str], BrowserContext]:
    """Factory: a warm context (own profile) whose clock stands at noon of ``day``
    (no zone: the browser's local noon), so the page's "today" is ``day`` wherever and
    whenever the test runs. Its own context: the fixed clock touches no other test."""

    def make(day: str) -> BrowserContext:
        ctx = warm_context(base_url=site_url)
        ctx.clock.set_fixed_time(f"{day}T12:00:00")
        return ctx

    return make


# --- site ----------------------------------------------------------------------------


def _build_unless_told() -> Path:
    """dist/ (or $SKYLINE_DIST: a private build beside another one), built unless
    SKYLINE_NO_BUILD=1."""
    dist = Path(os.environ.get("SKYLINE_DIST") or ROOT / "dist")
    if os.environ.get("SKYLINE_NO_BUILD") != "1":
        _site_build.build(dist)
    assert (dist / "index.html").is_file(), "dist/ missing: run python scripts/build.py"
    return dist


def _start_server(dist: Path) -> tuple[subprocess.Popen[str], str]:
    """dist/ served by scripts/serve.py (subprocess, free port, netlify headers)."""
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "serve.py"), "--no-build", "--port", "0"]
        + ["--dir", str(dist)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()  # "serving http://127.0.0.1:PORT/"
    if not line.startswith("serving "):
        proc.kill()
        pytest.fail(f"serve.py did not start: {line!r}")
    return proc, line.split()[1]


def _stop_server(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    proc.wait(timeout=10)


# Under pytest-xdist the controller builds dist/ and serves it once for every worker:
# one origin, so the profile made warm once (``warm_profile``) serves every worker.
_SHARED_SITE = "skyline_site_url"
_SHARED_DIST = "skyline_dist_dir"


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or not config.pluginmanager.hasplugin("dsession"):
        return  # a worker, or no workers at all: the session fixtures serve
    dist = _build_unless_told()
    proc, url = _start_server(dist)
    config._skyline_site = (proc, url, dist)  # type: ignore[attr-defined]


def pytest_unconfigure(config: pytest.Config) -> None:
    site = getattr(config, "_skyline_site", None)
    if site is not None:
        _stop_server(site[0])


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist, in the controller: tell each worker where the site is served."""
    site = getattr(node.config, "_skyline_site", None)
    if site is not None:
        node.workerinput[_SHARED_SITE] = site[1]
        node.workerinput[_SHARED_DIST] = str(site[2])


def _shared(config: pytest.Config, key: str) -> str | None:
    return getattr(config, "workerinput", {}).get(key)


@pytest.fixture(scope="session")
def dist_dir(pytestconfig: pytest.Config) -> Path:
    """dist/ (or $SKYLINE_DIST), built once per session unless SKYLINE_NO_BUILD=1 (by
    the controller when workers share it)."""
    shared = _shared(pytestconfig, _SHARED_DIST)
    return Path(shared) if shared else _build_unless_told()


@pytest.fixture(scope="session")
def site_url(dist_dir: Path, pytestconfig: pytest.Config) -> Iterator[str]:
    """dist/ served by scripts/serve.py (subprocess, free port, netlify headers): the
    controller's one server when workers share it, else this session's own."""
    shared = _shared(pytestconfig, _SHARED_SITE)
    if shared:
        yield shared
        return
    proc, url = _start_server(dist_dir)
    yield url
    _stop_server(proc)


@pytest.fixture(scope="session")
def base_url(site_url: str) -> str:
    """pytest-base-url hook: lets the stock ``page`` fixture use ``page.goto("/")``."""
    return site_url


def _serving() -> Iterator[Callable[..., tuple[str, ThreadingHTTPServer]]]:
    servers: list[ThreadingHTTPServer] = []

    def start(directory: Path, port: int = 0,
              extra_connect: Sequence[str] | None = None) -> tuple[str, ThreadingHTTPServer]:
        # extra_connect: loopback relays (ws://127.0.0.1:PORT) the CSP's connect-src allows
        # besides netlify.toml's, for a live table's test (scripts/serve.py)
        server = serve.make_server(directory, port, extra_connect=extra_connect)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        host, port = server.server_address[:2]
        return f"http://{host}:{port}/", server

    yield start
    for server in servers:
        server.shutdown()  # no-op if the test already stopped it
        server.server_close()  # (a second call, e.g. by the test, does no harm)


@pytest.fixture
def serve_dir() -> Iterator[Callable[..., tuple[str, ThreadingHTTPServer]]]:
    """Factory: serve a folder in a thread -> (url, server); servers stop at teardown.
    ``serve_dir(dist_dir, extra_connect=[relay.url])`` lets the page reach a loopback
    relay under the site's CSP (a live table's test)."""
    yield from _serving()


@pytest.fixture(scope="module")
def serve_dir_module() -> Iterator[Callable[..., tuple[str, ThreadingHTTPServer]]]:
    """``serve_dir`` for a module's tests (e.g. one server per browser engine)."""
    yield from _serving()


@pytest.fixture
def site_copy(dist_dir: Path, tmp_path: Path) -> Path:
    """A private copy of dist/ that a test may modify (e.g. to simulate a new deploy)."""
    copy = tmp_path / "site"
    shutil.copytree(dist_dir, copy)
    return copy


# --- guard ---------------------------------------------------------------------------


@dataclass
class Guard:
    """Collects what the watched pages do; ``assert_clean`` fails on anything bad."""

    requests: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    allowed_console: list[re.Pattern[str]] = field(default_factory=list)

    def attach(self, target: Page | BrowserContext) -> None:
        """Watch a page, or a whole context (its pages, service worker and future pages)."""
        if isinstance(target, BrowserContext):
            target.on("request", self._on_request)
            for page in target.pages:
                self._watch_page(page)
            target.on("page", self._watch_page)
        else:
            target.on("request", self._on_request)
            self._watch_page(target)

    def allow_console(self, pattern: str) -> None:
        """Tolerate console errors matching ``pattern`` (regex) for this test."""
        self.allowed_console.append(re.compile(pattern))

    @property
    def csp_violations(self) -> list[str]:
        return [m for m in self.console_errors if "Content Security Policy" in m or "CSP" in m]

    def assert_clean(self) -> None:
        errors = [
            m for m in self.console_errors if not any(p.search(m) for p in self.allowed_console)
        ]
        assert not self.foreign, f"requests left 127.0.0.1: {self.foreign}"
        assert not self.page_errors, f"uncaught page errors: {self.page_errors}"
        assert not errors, f"console errors: {errors}"

    def _watch_page(self, page: Page) -> None:
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self.page_errors.append(str(exc)))

    def _on_request(self, request: Request) -> None:
        if request.url in self.requests:
            return  # context + page listeners both fire for page requests
        self.requests.append(request.url)
        parts = urlsplit(request.url)
        if parts.scheme not in ALLOWED_SCHEMES and parts.hostname not in ALLOWED_HOSTS:
            self.foreign.append(request.url)

    def _on_console(self, msg: ConsoleMessage) -> None:
        if msg.type == "error":
            self.console_errors.append(msg.text)


@pytest.fixture
def guard() -> Iterator[Guard]:
    """A Guard whose findings fail the test at teardown (see module docstring)."""
    g = Guard()
    yield g
    g.assert_clean()


# --- app -----------------------------------------------------------------------------


def _open_app(page: Page, url: str | None = None) -> Page:
    """Open the app (default: the page's base URL) and wait until it is ready."""
    page.goto(url or "/", wait_until="commit")
    _wait_ready(page)
    return page


def _wait_ready(page: Page) -> None:
    """Wait for body[data-ready="1"], failing fast when the loading error shows."""
    page.wait_for_function(
        "document.body?.dataset.ready === '1' ||"
        " document.getElementById('loading-error')?.hidden === false",
        timeout=READY_TIMEOUT_MS, polling=LONG_WAIT_POLL_MS,
    )
    assert page.locator(READY_SELECTOR).count() == 1, "the loading screen reported a failure"


def wait_for_sw_control(page: Page) -> None:
    """Wait until the service worker is active and controls the page (precache done)."""
    page.wait_for_function("navigator.serviceWorker?.controller != null", timeout=60_000,
                           polling=LONG_WAIT_POLL_MS)


def wait_for_snapshot_made(page: Page, timeout_ms: int = 120_000) -> None:
    """Wait until the page has made Python's memory snapshot, or given up on it
    (``window.skylineSnapshotMade``: ``ok`` says which)."""
    page.wait_for_function("window.skylineSnapshotMade", timeout=timeout_ms,
                           polling=LONG_WAIT_POLL_MS)


@pytest.fixture(scope="session")
def open_app() -> Callable[..., Page]:
    """``open_app(page, url=None)``: go to the app, wait until ready (60 s); returns page."""
    return _open_app


@pytest.fixture(scope="session")
def wait_ready() -> Callable[[Page], None]:
    """``wait_ready(page)``: wait for body[data-ready="1"] (e.g. after ``page.reload()``)."""
    return _wait_ready


@pytest.fixture(scope="session")
def site_build() -> ModuleType:
    """scripts/build.py as a module (e.g. ``site_build.write_service_worker(folder)``)."""
    return _site_build


@pytest.fixture(scope="session")
def app_context(
    playwright: Playwright, site_url: str, warm_profile: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[BrowserContext]:
    """Session-wide persistent context, a copy of ``warm_profile``: every page restores
    Python's memory snapshot (a first visit's cold boot is ``persistent_context``'s)."""
    ctx = launch_persistent(playwright, copy_warm(warm_profile, tmp_path_factory),
                            base_url=site_url)
    yield ctx
    ctx.close()


@pytest.fixture
def app_page(app_context: BrowserContext, site_url: str, guard: Guard) -> Iterator[Page]:
    """A booted app page in the shared context, guarded; storage cleared afterwards."""
    page = app_context.new_page()
    guard.attach(page)
    _open_app(page, site_url)
    yield page
    clear_for_next_test(app_context, site_url)


def clear_for_next_test(context: BrowserContext, site_url: str) -> None:
    """A context shared by tests left as a new player finds it: every page closed first
    (a page that goes away may still save), then the site's storage cleared from a
    static page of the site (rules/en.html: no app, nothing of it to save, kept open for
    the context's life), so the next test is a first visit whatever ran before it."""
    cleaner = _cleaner(context, site_url)
    for other in context.pages:
        if other is not cleaner:
            other.close()
    cleaner.evaluate("localStorage.clear(); sessionStorage.clear()")


def _cleaner(context: BrowserContext, site_url: str) -> Page:
    """The static page of ``context`` that clears the site's storage between tests."""
    page = getattr(context, "_skyline_cleaner", None)
    if page is None or page.is_closed():
        page = context.new_page()
        page.goto(site_url.rstrip("/") + "/rules/en.html", wait_until="domcontentloaded")
        context._skyline_cleaner = page  # type: ignore[attr-defined]
    return page
