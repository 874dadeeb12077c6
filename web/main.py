"""PyScript entry point: load the string tables, wire the DOM to the Controller.

PyScript runs this file from index.html (<script type="py" src="./main.py">). The
skyline wheel is unpacked into site-packages by pyscript.json's [files] entry, and
the other web/*.py (controller, board_view, rules_panel, i18n) are copied into the
interpreter's home folder by the build.

One delegated listener (click, keydown, change, submit on the document; hashchange
on the window) reduces each event to data-action/data-arg and hands it to the
Controller, which renders by assigning innerHTML of a few regions.
"""

import asyncio
import json
import re
from pathlib import Path

import games_ui
from controller import KEY_SAVE, Controller
from pyodide.ffi import create_proxy, to_js
from pyscript import document, window
from store import KEY_GAME

import skyline
from skyline import solo_value

try:
    from pyodide.ffi import jsnull
except ImportError:  # older Pyodide: JS null arrives as None
    jsnull = None


def missing(value):
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

LOCK_NAME = "skyline.game"  # Web Locks: the tab holding it may move (see Controller)
# A promise that never settles: returned from the lock callback, it holds the lock
# for as long as the page lives (or until another tab steals it).
_hold_forever = create_proxy(lambda resolve, reject: None)


async def load_tables():
    async def get(lang):
        try:
            response = await window.fetch(f"./i18n/{lang}.json")
            return json.loads(await response.text())
        except Exception:  # noqa: BLE001 - a missing table falls back to English/keys
            return {}

    en, de = await asyncio.gather(get("en"), get("de"))
    return {"en": en, "de": de}


# Where the focus goes when the element that had it is gone or disabled, best first:
# a pending target, a die to choose, the main command, the yard, any command.
FOCUS_FALLBACK = (
    "#players button.target",
    "#turn button[data-action=die]:not([disabled])",
    "#turn .cmd.primary:not([disabled])",
    "#supply button:not([disabled])",
    "#turn button:not([disabled])",
    "#log button:not([disabled])",
    "#btn-new",
)
FOCUSABLE = (
    "button:not([disabled]), input:not([disabled]), select:not([disabled]), "
    "textarea:not([disabled]), a[href], [tabindex]:not([tabindex='-1'])"
)


class DomHost:
    """Everything the Controller needs from the browser.

    Focus and dialogs live here. The dialog region holds at most one <dialog>, opened
    with showModal() (the page behind is inert, Escape arrives as a keydown for the
    controller; the dialog's own cancel is prevented so the page state stays the truth),
    Tab is kept inside it (``trap_tab``), and when it goes the focus returns to the
    element that had it before (found again by id, since regions are re-rendered).
    A render that replaces the focused element puts the focus back on the element with
    the same id, or on the best of FOCUS_FALLBACK: never on <body>."""

    def __init__(self):
        self.regions = {}
        self.lock_requests = 0  # only the latest request may report the lock as lost
        self.lost = False  # a re-render replaced the focused element
        self.lost_id = None  # its id
        self.opener_id = None  # id of the element focused when the dialog opened
        self.restore = None  # the dialog closed: "" or the opener's id
        self.announce_seq = 0
        self._announce_flip = False

    def region(self, name):
        el = self.regions.get(name)
        if el is None:
            el = self.regions[name] = document.getElementById(name)
        return el

    def active_id(self):
        """The id of the focused element (None: <body>, nothing, or no id)."""
        active = document.activeElement
        if missing(active) or str(active.tagName) == "BODY" or not active.id:
            return None
        return str(active.id)

    def set_html(self, name, html):
        el = self.region(name)
        if not self.lost:
            active = document.activeElement
            if not missing(active) and el.contains(active):
                self.lost = True
                self.lost_id = self.active_id()
        if name == "dialog":
            self.set_dialog(el, html)
        else:
            el.innerHTML = html

    def open_dialog(self):
        el = document.querySelector("#dialog dialog[open]")
        return None if missing(el) else el

    def set_dialog(self, region, html):
        old = region.querySelector("dialog")
        if missing(old):
            if html:
                self.opener_id = self.lost_id or self.active_id()
                region.innerHTML = html
                region.querySelector("dialog").showModal()
            return
        if not html:
            if old.open:
                old.close()
            region.innerHTML = ""
            self.restore = self.opener_id or ""
            self.opener_id = None
            return
        template = document.createElement("template")
        template.innerHTML = html
        fresh = template.content.firstElementChild
        same = str(old.getAttribute("data-testid")) == str(fresh.getAttribute("data-testid"))
        if same and old.open:
            old.innerHTML = fresh.innerHTML  # the same dialog: it stays open and modal
        else:
            if old.open:
                old.close()
            region.replaceChildren(fresh)
            fresh.showModal()

    def usable(self, el, inside=None):
        return (
            not missing(el) and not el.disabled and el.getClientRects().length > 0
            and (inside is None or inside.contains(el))
        )

    def focus(self, element_id):
        """Settle the focus after a render: ``element_id`` (the event's target or the
        controller's choice) if usable; after a dialog closed, its opener first; if the
        render took the focus, the element with the same id; else a sensible fallback.
        Without any of these the focus stays where it is (computer moves never steal it)."""
        restore, self.restore = self.restore, None
        lost, lost_any = self.lost_id, self.lost
        self.lost_id, self.lost = None, False
        dialog = self.open_dialog()
        wanted = []
        if restore and dialog is None:
            wanted.append(restore)
        if element_id:
            wanted.append(element_id)
        if lost:
            wanted.append(lost)
        active = document.activeElement
        at_body = missing(active) or str(active.tagName) == "BODY"
        settled = not at_body and (dialog is None or dialog.contains(active))
        if not wanted and restore is None and settled:
            return
        if not wanted and restore is None and at_body and dialog is None and not lost_any:
            return  # nothing had the focus and nothing asked for it
        for name in wanted:
            el = document.getElementById(name)
            if self.usable(el, dialog):
                el.focus()
                return
        self.focus_fallback(dialog)

    def focus_fallback(self, dialog=None):
        if dialog is not None:
            items = [el for el in dialog.querySelectorAll(FOCUSABLE) if self.usable(el)]
            if items:
                items[0].focus()
            return
        for selector in FOCUS_FALLBACK:
            for el in document.querySelectorAll(selector):
                if self.usable(el):
                    el.focus()
                    return

    def settle_dialog_focus(self):
        """A dialog opened before the page was shown could not take the focus: give it."""
        dialog = self.open_dialog()
        if dialog is not None and not dialog.contains(document.activeElement):
            first = document.getElementById("dlg-first")
            if self.usable(first, dialog):
                first.focus()
            else:
                self.focus_fallback(dialog)

    def trap_tab(self, event):
        """Tab and Shift+Tab cycle inside the open dialog."""
        dialog = self.open_dialog()
        if dialog is None:
            return
        items = [el for el in dialog.querySelectorAll(FOCUSABLE) if self.usable(el)]
        if not items:
            return
        active = document.activeElement
        first, last = items[0], items[-1]
        back = bool(event.shiftKey)
        inside = not missing(active) and dialog.contains(active)
        if not inside or (back and active.isSameNode(first)) or (
            not back and active.isSameNode(last)
        ):
            event.preventDefault()
            (last if back else first).focus()

    def announce(self, seq, text):
        """The one polite live region (#announce in index.html): only its text changes,
        and only for news; a trailing no-break space alternates so that the same words
        twice in a row are spoken twice."""
        if seq == self.announce_seq:
            return
        self.announce_seq = seq
        self._announce_flip = not self._announce_flip
        document.getElementById("announce").textContent = text + (
            "\u00a0" if self._announce_flip else ""
        )

    def storage_get(self, key):
        value = window.localStorage.getItem(key)
        return value if isinstance(value, str) else None

    def storage_set(self, key, value):
        window.localStorage.setItem(key, value)

    def storage_remove(self, key):
        window.localStorage.removeItem(key)

    def storage_keys(self):
        return [str(k) for k in window.Object.keys(window.localStorage).to_py()]

    def tz_minutes(self):
        return int(window.Date.new().getTimezoneOffset())

    def download(self, filename, text):
        """Save ``text`` as a file: a blob: URL on a temporary <a download>."""
        link = document.createElement("a")
        link.href = self.download_url(text)
        link.download = filename
        link.hidden = True
        document.body.appendChild(link)
        link.click()
        link.remove()

    def can_share(self):
        """The system share sheet (Web Share API) exists in this browser."""
        return not missing(getattr(window.navigator, "share", None))

    def share(self, text, title, done):
        async def run():
            try:
                data = window.Object.new()
                data.url = text
                data.title = title
                await window.navigator.share(data)
                ok = True
            except Exception:  # noqa: BLE001 - cancelled, refused
                ok = False
            done(ok)

        asyncio.ensure_future(run())

    def load_qr(self, done):
        """Make segno (the QR code library) importable: its wheel is fetched from this
        site the first time a QR code is asked for (the service worker has it for
        offline use), checked against the build's sha256 and unpacked into
        site-packages. ``done(ok)``."""

        async def run():
            ok = False
            try:
                import importlib

                try:
                    importlib.import_module("segno")
                    ok = True
                except ImportError:
                    await self._add_qr_stdlib()
                    await self._install_wheel(QR_WHEEL)
                    importlib.invalidate_caches()
                    importlib.import_module("segno")
                    ok = True
            except Exception as exc:  # noqa: BLE001 - no QR code; the link still works
                window.console.error(f"skyline: QR library: {type(exc).__name__}: {exc}")
            done(ok)

        asyncio.ensure_future(run())

    async def _add_qr_stdlib(self):
        """The standard-library modules segno needs beyond the page's cut library
        (scripts/stdlib_modules_qr.txt): an archive from this site put on sys.path."""
        import sys

        if QR_STDLIB_PATH in sys.path:
            return
        response = await window.fetch("./qr/stdlib.zip")
        if not response.ok:
            raise OSError(f"HTTP {response.status}")
        Path(QR_STDLIB_PATH).write_bytes((await response.arrayBuffer()).to_bytes())
        sys.path.append(QR_STDLIB_PATH)
        # Modules of packages the cut library already has (importlib.metadata,
        # urllib.request): the package's __path__ gets the archive's folder too.
        import importlib.util
        import zipfile

        with zipfile.ZipFile(QR_STDLIB_PATH) as archive:
            folders = {name.split("/")[0] for name in archive.namelist() if "/" in name}
        for folder in sorted(folders):
            spec = importlib.util.find_spec(folder)
            where = f"{QR_STDLIB_PATH}/{folder}"
            if spec is not None and where not in (spec.submodule_search_locations or []):
                package = importlib.import_module(folder)
                package.__path__.append(where)

    async def _install_wheel(self, wheel):
        import hashlib
        import io
        import sysconfig
        import zipfile

        response = await window.fetch(wheel["url"])
        if not response.ok:
            raise OSError(f"HTTP {response.status}")
        data = (await response.arrayBuffer()).to_bytes()
        if hashlib.sha256(data).hexdigest() != wheel["sha256"]:
            raise OSError("the wheel's checksum does not match")
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            archive.extractall(sysconfig.get_paths()["purelib"])

    def now_iso(self):
        return str(window.Date.new().toISOString())

    def local_date(self):
        """The player's calendar day (local time zone) as YYYY-MM-DD."""
        d = window.Date.new()
        return f"{int(d.getFullYear()):04d}-{int(d.getMonth()) + 1:02d}-{int(d.getDate()):02d}"

    def page_base(self):
        loc = window.location
        return f"{loc.origin}{loc.pathname}{loc.search}"

    def clear_fragment(self):
        loc = window.location
        window.history.replaceState(None, "", f"{loc.pathname}{loc.search}")

    def set_lang(self, lang):
        document.documentElement.lang = lang

    def scroll_to(self, element_id):
        el = document.getElementById(element_id)
        if not missing(el):
            el.scrollIntoView()

    def reveal(self, element_id):
        """Scroll just enough that the element is on screen (a build target below the
        fold on a phone, or beyond the edge of a sideways-scrolling skyline)."""
        el = document.getElementById(element_id)
        if not missing(el):
            el.scrollIntoView(to_js({"block": "nearest", "inline": "nearest"},
                                    dict_converter=window.Object.fromEntries))

    def request_lock(self, steal, on_result):
        """Ask for the game lock; ``on_result`` gets "granted", "busy" (another tab
        has it; only without ``steal``) or later "lost" (another tab took it over).
        Without Web Locks every tab is granted (save() still never overwrites a
        save it has not seen)."""
        locks = getattr(window.navigator, "locks", None)
        if missing(locks):
            on_result("granted")
            return
        self.lock_requests += 1
        number = self.lock_requests

        def granted(lock):
            if missing(lock):  # ifAvailable and held elsewhere
                on_result("busy")
                return None
            on_result("granted")
            return window.Promise.new(_hold_forever)

        def aborted(_error):
            if number == self.lock_requests:
                on_result("lost")

        options = window.Object.new()
        if steal:
            options.steal = True
        else:
            options.ifAvailable = True
        locks.request(LOCK_NAME, options, create_proxy(granted)).catch(create_proxy(aborted))

    def take_lock(self, on_result):
        self.request_lock(True, on_result)

    def download_url(self, text):
        """A blob: URL of ``text`` for an <a download> link."""
        options = window.Object.new()
        options.type = "application/json"
        return str(window.URL.createObjectURL(window.Blob.new(to_js([text]), options)))

    def fetch_data(self, path, done):
        """Fetch the package data file ``path`` (e.g. ``data/solo_values.bin``) from the
        site, write it into the package folder, then ``done(ok)``. The service worker
        has it cached once it has installed, so this works offline too."""

        async def run():
            ok = False
            try:
                if not DATA_PATH.fullmatch(path):
                    raise ValueError(f"not a data file: {path!r}")
                response = await window.fetch(f"./{path}")
                if not response.ok:
                    raise OSError(f"HTTP {response.status}")
                data = (await response.arrayBuffer()).to_bytes()
                target = PACKAGE_DIR / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
                ok = True
            except Exception as exc:  # noqa: BLE001 - offline and not cached, server error
                window.console.warn(f"skyline: {path}: {type(exc).__name__}: {exc}")
            try:
                done(ok)
            except Exception as exc:  # noqa: BLE001 - keep the page alive, but visible
                window.console.error(f"skyline: {type(exc).__name__}: {exc}")

        asyncio.ensure_future(run())

    def report(self, text):
        window.console.error(text)

    def fault(self, where):
        """Test-only fault hook: True (once) if ``window.__skylineFault == where``.

        Only the e2e tests set that property (e.g. "action": an exception inside
        Python in the middle of a move); a page that never sets it is unaffected."""
        flag = window.Reflect.get(window, "__skylineFault")
        if missing(flag) or str(flag) != where:
            return False
        window.Reflect.deleteProperty(window, "__skylineFault")
        return True

    def copy(self, text, done):
        async def run():
            try:
                await window.navigator.clipboard.writeText(text)
                ok = True
            except Exception:  # noqa: BLE001 - refused, no permission, insecure context
                ok = False
            done(ok)

        asyncio.ensure_future(run())


def form_values(form):
    """The new-game form as a dict (one JS round trip)."""
    if missing(form):
        return {}
    entries = window.Object.fromEntries(window.FormData.new(form))
    return dict(entries.to_py())


def on_event(event):
    kind = event.type
    try:
        if kind == "hashchange":
            controller.handle("hashchange", None, str(window.location.hash))
            return
        target = event.target
        if kind == "submit":
            event.preventDefault()
            action = target.getAttribute("data-submit")
            if not missing(action):
                controller.handle("submit", str(action), None, form=form_values(target))
            return
        if kind == "cancel":  # Escape on a modal <dialog>: the keydown already handled it
            event.preventDefault()
            return
        if kind == "keydown":
            if str(event.key) == "Tab":
                host.trap_tab(event)
                return
            tag = str(target.tagName or "")
            controller.handle(
                "keydown", None, None, key=str(event.key),
                in_field=tag in ("INPUT", "SELECT", "TEXTAREA"),
            )
            return
        if missing(target) or not hasattr(target, "closest"):
            return
        el = target.closest("[data-action]")
        if missing(el):
            return
        action = el.getAttribute("data-action")
        arg = el.getAttribute("data-arg")
        form = None
        if action.startswith("ng-"):
            form = form_values(el.closest("form"))
        elif str(el.tagName) == "SELECT":
            if kind != "change":
                return
            form = {"value": str(el.value)}
        elif str(el.tagName) == "INPUT" and str(el.type) == "file":
            if kind == "change":
                asyncio.ensure_future(read_file(el))
            return
        controller.handle(kind, str(action), None if missing(arg) else str(arg), form=form,
                          target_id=str(el.id) if el.id else None)
    except Exception as exc:  # noqa: BLE001 - keep the page alive, but make it visible
        window.console.error(f"skyline: {type(exc).__name__}: {exc}")
        controller.notify("notice.error", "error")
        controller.render()


async def read_file(el):
    """A game file chosen for import: its text goes to the controller."""
    files = el.files
    if missing(files) or files.length == 0:
        return
    file = files.item(0)
    if file.size > 2_000_000:
        text = ""  # far beyond any saved game: refused by its reader as not a game
    else:
        text = str(await file.text())
    el.value = ""
    controller.handle("click", "game-import-text", None, form={"text": text})


def on_storage(event):
    """Another tab wrote a game: a read-only tab shows the new state, the list follows."""
    try:
        if not missing(event.key) and (str(event.key) == KEY_SAVE
                                       or str(event.key).startswith(KEY_GAME)):
            controller.handle("tab", "saved", str(event.key))
    except Exception as exc:  # noqa: BLE001
        window.console.error(f"skyline: {type(exc).__name__}: {exc}")


def stats():
    return to_js(list(controller.timings))


async def first_lock(host):
    """Whether this tab may move, asked before the game is loaded (and saved)."""
    answer = asyncio.get_event_loop().create_future()

    def on_result(result):
        if not answer.done():
            answer.set_result(result)
        else:
            controller.handle("tab", result, None)

    host.request_lock(False, on_result)
    try:
        return await asyncio.wait_for(answer, 5)
    except TimeoutError:
        return "granted"


# The value table is not in the wheel (the start-up path): it is fetched on first need
# (DomHost.fetch_data), and the expert counts as available meanwhile.
solo_value.defer_table()
langs = [str(lang) for lang in (window.navigator.languages or [window.navigator.language])]
tables = await load_tables()  # noqa: F704 - PyScript runs main.py with top-level await
host = DomHost()
controller = Controller(host, tables, langs)
if await first_lock(host) == "busy":  # noqa: F704
    controller.handle("tab", "busy", None)
_boot_hash = str(window.location.hash or "")
# boot.js may have painted the last render's snapshot, inert: the page is live from the
# first render on (focus and showModal() there need it); the render replaces it.
_boot_js = getattr(window, "skylineBoot", None)
if not missing(_boot_js):
    _boot_js.live()
controller.boot(_boot_hash)
document.documentElement.lang = controller.texts.lang

_proxy = create_proxy(on_event)
for _kind in ("click", "keydown", "change", "submit"):
    document.addEventListener(_kind, _proxy)
document.addEventListener("cancel", _proxy, True)  # <dialog>'s cancel does not bubble
window.addEventListener("hashchange", _proxy)
window.addEventListener("storage", create_proxy(on_storage))
window.skylineStats = create_proxy(stats)
# Computer players, hint, solo review (web/bots_ui.py); window.skylineBots for the e2e tests.
import bots_ui  # noqa: E402

bots = bots_ui.install(controller)
window.skylineBots = create_proxy(bots.js_api)
# Contract with boot.js and the e2e tests: the app is usable from here on.
document.body.dataset.ready = "1"
host.settle_dialog_focus()
