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

from controller import Controller
from pyodide.ffi import create_proxy, to_js
from pyscript import document, window

try:
    from pyodide.ffi import jsnull
except ImportError:  # older Pyodide: JS null arrives as None
    jsnull = None


def missing(value):
    """JS null (jsnull) and undefined (None) both mean "not there"."""
    return value is None or value is jsnull


async def load_tables():
    async def get(lang):
        try:
            response = await window.fetch(f"./i18n/{lang}.json")
            return json.loads(await response.text())
        except Exception:  # noqa: BLE001 - a missing table falls back to English/keys
            return {}

    en, de = await asyncio.gather(get("en"), get("de"))
    return {"en": en, "de": de}


class DomHost:
    """Everything the Controller needs from the browser."""

    def __init__(self):
        self.regions = {}

    def region(self, name):
        el = self.regions.get(name)
        if el is None:
            el = self.regions[name] = document.getElementById(name)
        return el

    def set_html(self, name, html):
        self.region(name).innerHTML = html

    def focus(self, element_id):
        el = document.getElementById(element_id)
        if missing(el) or el.disabled:
            el = document.querySelector(
                "#dialog input, #dialog select, #dialog button, #turn button:not([disabled])"
            )
        if not missing(el):
            el.focus()

    def storage_get(self, key):
        value = window.localStorage.getItem(key)
        return value if isinstance(value, str) else None

    def storage_set(self, key, value):
        window.localStorage.setItem(key, value)

    def storage_remove(self, key):
        window.localStorage.removeItem(key)

    def now_iso(self):
        return str(window.Date.new().toISOString())

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
        if kind == "keydown":
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
        controller.handle(kind, str(action), None if missing(arg) else str(arg), form=form,
                          target_id=str(el.id) if el.id else None)
    except Exception as exc:  # noqa: BLE001 - keep the page alive, but make it visible
        window.console.error(f"skyline: {type(exc).__name__}: {exc}")
        controller.notify("notice.error", "error")
        controller.render()


def stats():
    return to_js(list(controller.timings))


langs = [str(lang) for lang in (window.navigator.languages or [window.navigator.language])]
tables = await load_tables()  # noqa: F704 - PyScript runs main.py with top-level await
controller = Controller(DomHost(), tables, langs)
controller.boot(str(window.location.hash or ""))
document.documentElement.lang = controller.texts.lang

_proxy = create_proxy(on_event)
for _kind in ("click", "keydown", "change", "submit"):
    document.addEventListener(_kind, _proxy)
window.addEventListener("hashchange", _proxy)
window.skylineStats = create_proxy(stats)
# Contract with boot.js and the e2e tests: the app is usable from here on.
document.body.dataset.ready = "1"
