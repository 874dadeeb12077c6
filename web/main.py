"""PyScript entry point: load the string tables, wire the page's events to the Controller.

This module runs in a Web Worker (index.html: ``<script type="py" worker>``), so the
page's main thread never runs Python. PyScript's worker mode needs the page to be
cross-origin isolated (netlify.toml: COOP, COEP): the worker reaches the page through
``pyscript.window`` with synchronous round trips (SharedArrayBuffer and Atomics).
Without SharedArrayBuffer (no such headers, WebKitGTK) web/js/python-path.js drops
``worker`` and this module runs on the main thread, where the calls are direct. In the
worker a round trip costs 0.1-5 ms, so this module makes few:

- web/js/events.js reduces each page event (click, keydown, change, submit; hashchange,
  storage) to JSON and calls ``dispatch`` here, which reads it as a ``PageEvent``
  (app.core.bridge) inside the Controller's crash path; whatever must happen during the
  event's dispatch (``preventDefault``, the Tab trap) happens there.
- ``DomHost`` (the Controller's host port) queues a render's ``DomCommand`` values (the
  regions' innerHTML, the dialog, the focus, the live region) and sends them in one
  batch, for an event as ``dispatch``'s result (no round trip), else in one call;
  web/js/render.js applies them and web/js/focus.js keeps the focus rules.
- localStorage: a move's save and the dice selected go with the render's batch (no
  round trip; only a save that was not written comes back, as a "saved" event); any
  other access is one round trip, as is each tick of the computer players' timer.
  Fetches, timestamps and Web Locks are the worker's own (``js``): none.

The interpreter module scripts/build.py writes puts the engine and the page's package
``app`` into site-packages (or restores a memory snapshot that has them imported).
"""

import asyncio
import importlib
import importlib.abc
import importlib.util
import json
import re
import sys
from collections.abc import Callable
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import js  # the worker's own globals (fetch, setTimeout, Date, navigator.locks)
from app.controller import Controller
from app.core.bridge import DomCommand, PageEvent, command_json
from app.core.commands import HOST_COMMANDS
from app.core.host_port import Done
from app.core.page_storage import PageCalls, PageStorage
from app.core.region_edits import EDITED_REGIONS, latest_regions
from app.games import ui as games_ui
from pyodide.ffi import create_once_callable, create_proxy, jsnull
from pyscript import window

import skyline
from skyline.players import deferred


def missing(value: object) -> bool:
    """JS null (jsnull) and undefined (None) both mean "not there"."""
    return value is None or value is jsnull


# Package data files the build serves beside the page instead of shipping them in the
# wheel (dist/data/..., the same path as inside the skyline package): value tables.
PACKAGE_DIR = Path(skyline.__file__).parent
DATA_PATH = re.compile(r"data/[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*\.bin")

# The QR code library's wheel, copied into the site by scripts/build.py (qr.json: its
# URL and sha256), loaded only when a QR code is asked for.
QR_WHEEL = {"url": f"./qr/{games_ui.QR_WHEEL_NAME}", "sha256": games_ui.QR_WHEEL_SHA256}
# Where its extra standard-library modules go (scripts/build.py, QR_STDLIB_PATH).
QR_STDLIB_PATH = "/lib/skyline-qr-stdlib.zip"

# The engine's modules off the start path (scripts/build.py, copy_engine: the experts and
# the reviews). A first visit loads only those the page imports at start; these are
# written into site-packages in idle time after ready (later.json), so they are there
# offline too, and one imported before then is fetched at once (EngineModules). The
# service worker's visits have them all in the bytecode archive.
SITE_PACKAGES = PACKAGE_DIR.parent
ENGINE_DIR = "engine"  # where the site serves them (scripts/build.py, ENGINE_DIR)
LATER_AFTER_S = 3


class EngineModules(importlib.abc.MetaPathFinder):
    """The last finder on ``sys.meta_path``: an engine module that is not in
    site-packages yet is fetched from the site (a synchronous request, which a worker
    may make; a rare case: the idle prefetch usually came first) and written there."""

    def __init__(self, host: "DomHost") -> None:
        self.host = host

    def find_spec(self, name: str, path: object = None,
                  target: object = None) -> ModuleSpec | None:
        if not name.startswith("skyline."):
            return None
        member = name.replace(".", "/") + ".py"
        target_file = SITE_PACKAGES / member
        if not target_file.exists():
            request = js.XMLHttpRequest.new()
            request.open("GET", self.host.url(f"./{ENGINE_DIR}/{member}"), False)
            request.send()
            if request.status != 200:
                return None
            target_file.parent.mkdir(parents=True, exist_ok=True)
            target_file.write_text(str(request.responseText), encoding="utf-8")
        return importlib.util.spec_from_file_location(name, target_file)


async def write_later_modules(host: "DomHost") -> None:
    """In idle time after ready: the engine's modules not loaded at start, written into
    site-packages (nothing happens when they are there: the bytecode archive's visits)."""
    await asyncio.sleep(LATER_AFTER_S)
    try:
        response = await js.fetch(host.url("./later.json"))
        if not response.ok:
            return
        members = json.loads(await response.text())["files"]
        for member in members:
            target_file = SITE_PACKAGES / member
            if target_file.exists():
                continue
            response = await js.fetch(host.url(f"./{ENGINE_DIR}/{member}"))
            if response.ok:
                target_file.parent.mkdir(parents=True, exist_ok=True)
                target_file.write_text(await response.text(), encoding="utf-8")
        # the path finders only: importlib.invalidate_caches() also imports
        # importlib.metadata, which the cut standard library does not have
        for finder in list(sys.path_importer_cache.values()):
            if finder is not None and hasattr(finder, "invalidate_caches"):
                finder.invalidate_caches()
    except Exception as exc:  # offline before the service worker had them: on first use
        window.console.warn(f"skyline: the engine's later modules: {exc}")


LOCK_NAME = "skyline.game"  # Web Locks: the tab holding it may move (see Controller)
# A promise that never settles: returned from the lock callback, it holds the lock
# for as long as the page lives (or until another tab steals it).
_hold_forever = create_proxy(lambda resolve, reject: None)


async def load_tables(host: "DomHost") -> dict[str, dict[str, str]]:
    if hasattr(sys, "skyline_tables"):  # a restored interpreter has this build's tables
        return cast(dict[str, dict[str, str]], sys.skyline_tables)  # web/snapshot-worker.mjs

    async def get(lang: str) -> dict[str, str]:
        try:
            response = await js.fetch(host.url(f"./i18n/{lang}.json"))
            return cast(dict[str, str], json.loads(await response.text()))
        except Exception:
            return {}

    en, de = await asyncio.gather(get("en"), get("de"))
    return {"en": en, "de": de}


async def add_qr_stdlib(url: Callable[[str], str]) -> None:
    """The standard-library modules segno needs beyond the page's cut library
    (scripts/stdlib_modules_qr.txt): an archive from this site put on sys.path."""
    if QR_STDLIB_PATH in sys.path:
        return
    response = await js.fetch(url("./qr/stdlib.zip"))
    if not response.ok:
        raise OSError(f"HTTP {response.status}")
    Path(QR_STDLIB_PATH).write_bytes((await response.arrayBuffer()).to_bytes())
    sys.path.append(QR_STDLIB_PATH)
    # Modules of packages the cut library already has (importlib.metadata,
    # urllib.request): the package's __path__ gets the archive's folder too.
    import zipfile

    with zipfile.ZipFile(QR_STDLIB_PATH) as archive:
        folders = {name.split("/")[0] for name in archive.namelist() if "/" in name}
    for folder in sorted(folders):
        spec = importlib.util.find_spec(folder)
        where = f"{QR_STDLIB_PATH}/{folder}"
        if spec is not None and where not in (spec.submodule_search_locations or []):
            package = importlib.import_module(folder)
            package.__path__.append(where)

async def install_wheel(url: Callable[[str], str], wheel: dict[str, str]) -> None:
    """Fetch a pinned wheel from this site, check its sha256, unpack it into site-packages."""
    import hashlib
    import io
    import sysconfig
    import zipfile

    response = await js.fetch(url(wheel["url"]))
    if not response.ok:
        raise OSError(f"HTTP {response.status}")
    data = (await response.arrayBuffer()).to_bytes()
    if hashlib.sha256(data).hexdigest() != wheel["sha256"]:
        raise OSError("the wheel's checksum does not match")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        archive.extractall(sysconfig.get_paths()["purelib"])


class DomHost(PageStorage):
    """Everything the Controller needs from the browser, from inside the worker.

    In the worker every access to the page is a synchronous round trip (about 13 ms
    on this machine's Chromium, as the main thread answers between its tasks), so DOM
    writes, a move's save and the dice selected are queued as commands and sent in one
    batch (``flush``) when the render ends (``focus``) or the entry point returns;
    web/js/render.js applies them and web/js/focus.js keeps the focus rules."""

    def __init__(self) -> None:
        self.page = window.skylineHost  # web/js/host.js
        # fetched once: reading a page object's attribute costs round trips of its own
        self._apply = self.page.apply
        page = self.page
        super().__init__(cast(PageCalls, SimpleNamespace(
            get=page.storageGet, set=page.storageSet, write_if=page.storageWriteIf,
            remove=page.storageRemove, keys=page.storageKeys)), self._soon)
        self.queue: list[DomCommand] = []
        self.shown: dict[str, str] = {}  # each region's HTML as last sent
        self.event_fault = False  # the current event says a test set a fault
        self.in_event = False  # dispatch is running: its commands go back as its result
        self.lock_requests = 0  # only the latest request may report the lock as lost
        self.announce_seq = 0
        self._announce_flip = False
        self._flush_soon = False
        self._can_share: bool | None = None
        self._page_base = str(page.pageAddress())  # one round trip, not five
        self.base = self._page_base.split("?")[0]  # the page's folder, for fetch()
        self.base = self.base[: self.base.rindex("/") + 1]

    def command(self, command: DomCommand) -> None:
        """Queue one DOM command for web/js/render.js, sent by the next flush."""
        self.queue.append(command)
        self._soon()

    def _soon(self) -> None:
        if not self._flush_soon:
            self._flush_soon = True
            asyncio.get_event_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Send the queued commands to the page now (one round trip), unless an event is
        being handled: ``dispatch`` returns them instead (no round trip at all)."""
        self._flush_soon = False
        batch = None if self.in_event else self.take()
        if batch is not None:
            self._apply(batch)

    def take(self) -> str | None:
        """The queued commands as JSON (None if there are none), for ``dispatch``."""
        batch: list[DomCommand] = [*self.take_writes(), *latest_regions(self.queue)]
        self.queue = []
        return command_json(batch) if batch else None

    def url(self, path: str) -> str:
        """An absolute URL of a file of the site (the worker's own base is blob:)."""
        return self.base + path.removeprefix("./")

    def set_html(self, name: str, html: str) -> None:
        """A region's new HTML; the log's and the skylines' as edits of what the page
        shows where they can be (app.core.region_edits), with the whole HTML for a page
        that shows otherwise."""
        shown = self.shown.get(name)
        self.shown[name] = html
        find_edits = EDITED_REGIONS.get(name)
        edits = find_edits(shown, html) if find_edits and shown is not None else None
        if edits is None:
            self.command(("html", name, html))
        else:
            self.command(("patch", name, html, [edit.as_list() for edit in edits]))

    def focus(self, element_id: str | None) -> None:
        """The end of a render: the focus settles (web/js/focus.js) and the batch goes."""
        self.command(("focus", element_id))
        self.flush()

    def settle_dialog_focus(self) -> None:
        self.command(("settle",))

    def ready(self) -> None:
        """Contract with web/js/boot.js and the e2e tests: the app is usable from here on. Says
        how Python started: web/snapshot.mjs's status where the interpreter module tried
        a memory snapshot ("restored", or why not), else "boot"; and START_MARKS."""
        self.command(("ready", str(getattr(js, "skylineSnapshotStatus", None) or "boot"),
                      json.dumps(START_MARKS)))

    def announce(self, seq: int, text: str) -> None:
        """The one polite live region (#announce in index.html): only its text changes,
        and only for news; a trailing no-break space alternates so that the same words
        twice in a row are spoken twice."""
        if seq == self.announce_seq:
            return
        self.announce_seq = seq
        self._announce_flip = not self._announce_flip
        self.command(("announce", text + ("\u00a0" if self._announce_flip else "")))

    def tz_minutes(self) -> int:
        return int(self.page.tzMinutes())

    def download(self, filename: str, text: str) -> None:
        """Save ``text`` as a file (web/js/files.js: a blob: URL on an <a download>)."""
        self.command(("download", filename, text))

    def can_share(self) -> bool:
        """The system share sheet exists (asked once: every render asks)."""
        if self._can_share is None:
            self._can_share = bool(self.page.canShare())
        return self._can_share

    def share(self, text: str, title: str, done: Done) -> None:
        async def run() -> None:
            try:
                ok = bool(await self.page.share(text, title))
            except Exception:
                ok = False
            done(ok)

        asyncio.ensure_future(run())

    def persist_storage(self, done: Callable[[str], None]) -> None:
        """navigator.storage.persist(): "granted", "denied" or "unsupported"."""

        async def run() -> None:
            try:
                answer = str(await self.page.persistStorage())
            except Exception:
                answer = "denied"
            done(answer)

        asyncio.ensure_future(run())

    def load_qr(self, done: Done) -> None:
        """Make segno (the QR code library) importable: its wheel is fetched from this
        site the first time a QR code is asked for (the service worker has it for
        offline use), checked against the build's sha256 and unpacked into
        site-packages. ``done(ok)``."""

        async def run() -> None:
            ok = False
            try:
                import importlib

                try:
                    importlib.import_module("segno")
                    ok = True
                except ImportError:
                    await add_qr_stdlib(self.url)
                    await install_wheel(self.url, QR_WHEEL)
                    importlib.invalidate_caches()
                    importlib.import_module("segno")
                    ok = True
            except Exception as exc:
                window.console.error(f"skyline: QR library: {type(exc).__name__}: {exc}")
            done(ok)

        asyncio.ensure_future(run())

    def now_iso(self) -> str:
        return str(js.Date.new().toISOString())

    def local_date(self) -> str:
        """The player's calendar day by the page's clock, YYYY-MM-DD (one round trip)."""
        return str(self.page.localDate())

    def page_base(self) -> str:
        return self._page_base

    def clear_fragment(self) -> None:
        self.command(("clearFragment",))

    def set_lang(self, lang: str) -> None:
        self.command(("lang", lang))

    def cue(self, cues_json: str) -> None:
        # before the regions' HTML: web/js/effects.js keeps a picture of what goes
        self.command(("cue", cues_json))

    def scroll_to(self, element_id: str) -> None:
        self.command(("scroll", element_id))

    def reveal(self, element_id: str) -> None:
        """Scroll just enough that the element is on screen (a build target)."""
        self.command(("reveal", element_id))

    def request_lock(self, steal: bool, on_result: Callable[[str], None],
                     wait_ms: int = 0) -> None:
        """Ask for the game lock; ``on_result`` gets "granted", "busy" (another tab
        has it; only without ``steal``) or later "lost" (another tab took it over).
        With ``wait_ms`` a held lock is waited for that long before "busy": the page
        this one replaces (a reload) may still hold it while its worker is torn down.
        Without Web Locks every tab is granted (save() still never overwrites a
        save it has not seen)."""
        locks = getattr(js.navigator, "locks", None)  # the worker's own: no round trip
        if missing(locks):
            on_result("granted")
            return
        assert locks is not None  # missing() is true for None
        self.lock_requests += 1
        number = self.lock_requests
        got: list[bool] = []

        def granted(lock: object) -> object:
            if missing(lock):  # ifAvailable and held elsewhere
                on_result("busy")
                return None
            got.append(True)
            on_result("granted")
            return js.Promise.new(_hold_forever)

        def aborted(_error: object) -> None:
            if not got:  # the wait ran out before the lock came
                on_result("busy")
            elif number == self.lock_requests:
                on_result("lost")

        options = js.Object.new()
        if steal:
            options.steal = True
        elif wait_ms:
            options.signal = js.AbortSignal.timeout(wait_ms)
        else:
            options.ifAvailable = True
        locks.request(LOCK_NAME, options, create_proxy(granted)).catch(create_proxy(aborted))

    def take_lock(self, on_result: Callable[[str], None]) -> None:
        self.request_lock(True, on_result)

    def download_url(self, text: str) -> str:
        """A blob: URL of ``text`` for an <a download> link (made by the page)."""
        return str(self.page.blobURL(text))

    def fetch_data(self, path: str, done: Done) -> None:
        """Fetch the package data file ``path`` (e.g. ``data/solo_values.bin``) from the
        site, write it into the package folder, then ``done(ok)``. The service worker
        has it cached once it has installed, so this works offline too."""

        async def run() -> None:
            ok = False
            try:
                if not DATA_PATH.fullmatch(path):
                    raise ValueError(f"not a data file: {path!r}")
                response = await js.fetch(self.url(path))
                if not response.ok:
                    raise OSError(f"HTTP {response.status}")
                data = (await response.arrayBuffer()).to_bytes()
                target = PACKAGE_DIR / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
                ok = True
            except Exception as exc:
                window.console.warn(f"skyline: {path}: {type(exc).__name__}: {exc}")
            done(ok)

        asyncio.ensure_future(run())

    # live tables (web/js/live-page.js): sent with the render's batch
    def live_join(self, secret: str) -> None: self.command(("liveJoin", secret))
    def live_send(self, to: str, text: str) -> None: self.command(("liveSend", to, text))
    def live_leave(self) -> None: self.command(("liveLeave",))

    def report(self, text: str) -> None:
        window.console.error(text)

    def fault(self, where: str) -> bool:
        """Test-only fault hook: True (once) if ``window.__skylineFault == where``.

        Only the e2e tests set that property (e.g. "action": an exception inside
        Python in the middle of a move); web/js/early.js marks the events sent while it is
        set, so a page that never sets it makes no round trip for it."""
        return self.event_fault and bool(self.page.fault(where))

    def copy(self, text: str, done: Done) -> None:
        async def run() -> None:
            try:
                ok = bool(await self.page.copy(text))
            except Exception:
                ok = False
            done(ok)

        asyncio.ensure_future(run())


def dispatch(text: str) -> str | None:
    """One page event (web/js/bridge.js, PageEvent as JSON) for the Controller. Returns
    the render's DOM commands (JSON, or None), which web/js/render.js applies as the
    answer arrives: a click costs no round trip for its render."""
    handle(text)
    return host.take()


def handle(sent: str | dict[str, object]) -> None:
    """One page event as the page sent it (JSON, or parsed) for the Controller, read
    inside its crash path too. Its render's commands stay queued."""

    def run() -> None:
        event = PageEvent.from_json(sent) if isinstance(sent, str) else PageEvent.from_data(sent)
        host.event_fault = event.fault
        controller.event(event)

    was_in_event, host.in_event = host.in_event, True
    try:
        controller.run(run)
    finally:
        host.event_fault = False
        host.in_event = was_in_event


def stats() -> str:
    return json.dumps(list(controller.timings))


def _timer(set_timeout: Any, ms: int, fn: Callable[[], None]) -> None:
    """``fn`` after ``ms`` by ``set_timeout``; what it renders is sent at its end."""

    def run() -> None:
        try:
            fn()
        finally:
            host.flush()

    set_timeout(create_once_callable(run), ms)


def schedule(ms: int, fn: Callable[[], None]) -> None:
    """The computer players' timer (app.computer.pacer): the page's setTimeout (one round
    trip a tick), so a hidden tab pauses them and the e2e tests can hold a turn."""
    _timer(window.setTimeout, ms, fn)


def schedule_idle(ms: int, fn: Callable[[], None]) -> None:
    """The idle work's timer (reviews, the chances chart, the day's benchmark, decoding
    the value table): the worker's own setTimeout, so a click that kicks such work waits
    for no round trip to the page (about 10 ms while it is busy)."""
    _timer(js.setTimeout, ms, fn)


# How long a starting page waits for the game lock before it opens read-only (on a reload
# the previous page's worker may hold it for a moment).
FIRST_LOCK_WAIT_MS = 2500


async def first_lock(host: DomHost) -> str:
    """Whether this tab may move, asked before the game is loaded (and saved)."""
    answer: asyncio.Future[str] = asyncio.get_event_loop().create_future()

    def on_result(result: str) -> None:
        if not answer.done():
            answer.set_result(result)
        else:  # a late answer: through the crash path, as every other one
            controller.run(lambda: controller.handle("tab", result, None))
            host.flush()

    host.request_lock(False, on_result, FIRST_LOCK_WAIT_MS)
    try:
        return await asyncio.wait_for(answer, 5)
    except TimeoutError:
        return "granted"


START_MARKS: list[tuple[str, float]] = []  # moments of this start, sent by DomHost.ready
start_mark: Callable[[str], None] = lambda name: START_MARKS.append((name, float(js.performance.timeOrigin + js.performance.now())))  # noqa: E501, E731
start_mark("imported")  # main.py's imports (in a restored interpreter: nothing to do)
# The value table is not in the wheel (the start-up path): it is fetched on first need
# (DomHost.fetch_data), and the expert counts as available meanwhile.
deferred.defer_table()
langs = [str(lang) for lang in (js.navigator.languages or [js.navigator.language])]
host = DomHost()
sys.meta_path.append(EngineModules(host))
tables = await load_tables(host)  # noqa: F704 - PyScript runs main.py with top-level await
start_mark("tables")
controller = Controller(host, tables, langs)  # mypy: DomHost satisfies host_port.Host
if await first_lock(host) == "busy":  # noqa: F704
    controller.handle("tab", "busy", None)
_boot_hash = str(window.location.hash or "")
# web/js/paint.js may have painted the last render's snapshot, inert: the page is live from the
# first render on (focus and showModal() there need it); the render replaces it.
if not missing(_boot_js := getattr(window, "skylineBoot", None)):
    cast(Any, _boot_js).live()
host.in_event = True  # the first render and the presses made before it: one batch
controller.boot(_boot_hash)
# Computer players, hint, solo review (app.computer.pacer); window.skylineBots for the e2e tests.
from app.computer import pacer as bots_ui  # noqa: E402

bots = bots_ui.install(controller, schedule, schedule_idle)


def bots_api(command: str = "think", arg: str = "") -> str:
    """pacer's ``js_api``; ``resources``: the worker's fetches (its Resource Timing)."""
    if command != "resources":
        return bots.js_api(command, arg)
    return json.dumps([
        {"url": str(e.name), "transfer": int(e.transferSize), "body": int(e.encodedBodySize)}
        for e in js.performance.getEntriesByType("resource")
    ])


for _press in json.loads(str(host.page.takeEarly())):  # web/js/early.js: what the page showed
    handle(_press)  # (web/js/preboard.js) is what this render draws
host.in_event = False
start_mark("booted")  # the first render made (sent with the ready command)
host.set_lang(controller.texts.lang)
host.page.connect(create_proxy(dispatch), create_proxy(stats), create_proxy(bots_api),
                  json.dumps(HOST_COMMANDS))
host.ready()  # the page is shown from here on (body[data-ready]) ...
host.settle_dialog_focus()  # ... so a dialog opened by the first render can take the focus
host.flush()
asyncio.ensure_future(write_later_modules(host))
