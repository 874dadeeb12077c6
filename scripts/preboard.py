"""The screens before the board: what a new visitor's presses on the welcome show while
Python starts, rendered at build time by the page's own Controller under CPython.

A first visit paints the welcome the build prerendered (``build.welcome_template``). Its
own choices — the menu, the language, Learn to play, closing the dialog, opening New
game, the number of players, Escape — lead to screens that need no engine to decide:
this module walks them from each language's welcome, pressing every such control a
screen shows, exactly as ``main.dispatch`` hands the press to ``Controller.handle``, and
writes the result for ``web/js/preboard.js``: each screen's regions, and where each
press leads. What the player types into a form is not part of a screen: the page keeps
it (as a render does) and hands it to Python with the presses. A press that leads
anywhere else (Start, the daily challenge, a die) is queued as before and shown pending.

The graph (JSON, ``index.html``'s ``@PREBOARD@``)::

    {"html": [region HTML, ...],            # each distinct HTML once
     "screens": [{"lang": "en", "regions": {name: index into html}, "focus": id | null}],
     "moves": [{press key: screen index}],  # per screen
     "start": {"en": screen index, ...},    # each language's welcome
     "labels": {"en": {"starting": ..., "rules": ...}}}

A press key is ``"click <action> <arg>"``, ``"change <field> <value>"`` or
``"key <key>"`` (``press_key``; web/js/preboard.js builds the same from the page's
event).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any, Protocol

# The presses that lead from screen to screen before Python is ready, as main.dispatch
# reduces them: (kind, action or field, arg or value). Only those a screen shows are
# tried there. Everything else waits for Python.
COUNT_FIELD = "count"  # the new-game form's number of players
MAX_SCREENS = 120  # a bound on the walk: more means a press leads somewhere unplanned


class Rendering(Protocol):
    html: dict[str, str]
    focused: str | None


Press = tuple[str, str, str]  # (kind, action or field, arg or value)


def press_key(press: Press) -> str:
    """The key web/js/preboard.js gives the same press.

    >>> press_key(("click", "lang", "de"))
    'click lang de'
    >>> press_key(("click", "menu", ""))
    'click menu'
    >>> press_key(("change", "count", "3"))
    'change count 3'
    >>> press_key(("key", "Escape", ""))
    'key Escape'
    """
    kind, name, arg = press
    return f"{kind} {name} {arg}".rstrip()


def candidate_presses(langs: Iterable[str]) -> list[Press]:
    """Every press the walk may try: the menu, each language, Learn to play, New game,
    closing a dialog, each number of players, Escape."""
    presses: list[Press] = [("click", "menu", ""), ("click", "tutorial", ""),
                            ("click", "newgame", ""), ("click", "close", "")]
    presses += [("click", "lang", lang) for lang in langs]
    presses += [("change", COUNT_FIELD, str(n)) for n in range(1, 5)]
    presses.append(("key", "Escape", ""))
    return presses


def shows(html: str, press: Press) -> bool:
    """Whether a screen (its regions' HTML joined) has the control for ``press``."""
    kind, name, arg = press
    if kind == "key":
        return True
    if kind == "change":
        return re.search(rf'<select name="{name}"[^>]*data-action=', html) is not None and \
            f'<option value="{arg}"' in html
    arg_part = f' data-arg="{arg}"' if arg else ""
    return re.search(rf'data-action="{name}"{arg_part}(?=[\s>])', html) is not None


def apply_press(controller: Any, press: Press) -> None:
    """The press as main.dispatch hands it to the Controller."""
    kind, name, arg = press
    if kind == "click":
        controller.handle("click", name, arg or None)
    elif kind == "change":
        controller.handle("change", "ng-change", None, form={name: arg})
    else:
        controller.handle("keydown", None, None, key=name, in_field=False)


def painted_dialog(html: str) -> str:
    """A dialog as the page paints it before Python (an open, non-modal <dialog>; the
    live page opens its own with showModal())."""
    return "<dialog open " + html[len("<dialog "):] if html.startswith("<dialog ") else html


def walk(start: Callable[[str], tuple[Rendering, Any]], langs: list[str],
         regions: tuple[str, ...], labels: dict[str, dict[str, str]]) -> dict[str, Any]:
    """The graph of the screens before the board (see the module's docstring).
    ``start(lang)`` gives a fresh (host, controller) showing that language's welcome."""
    presses = candidate_presses(langs)
    html_index: dict[str, int] = {}
    screens: list[dict[str, Any]] = []
    moves: list[dict[str, int]] = []
    seen: dict[tuple[str, tuple[int, ...]], int] = {}

    def screen_of(host: Rendering, lang: str) -> int:
        indices = []
        for name in regions:
            text = host.html.get(name, "")
            if name == "dialog":
                text = painted_dialog(text)
            indices.append(html_index.setdefault(text, len(html_index)))
        key = (lang, tuple(indices))
        if key not in seen:
            seen[key] = len(screens)
            screens.append({"lang": lang, "regions": dict(zip(regions, indices, strict=True)),
                            "focus": host.focused})
            moves.append({})
        return seen[key]

    start_screens: dict[str, int] = {}
    paths: list[tuple[str, list[Press]]] = []
    for lang in langs:
        host, controller = start(lang)
        start_screens[lang] = screen_of(host, controller.texts.lang)
        paths.append((lang, []))
    done: set[int] = set()
    while paths:
        lang, path = paths.pop(0)
        host, controller = start(lang)
        for press in path:
            apply_press(controller, press)
        here = screen_of(host, controller.texts.lang)
        if here in done:
            continue
        done.add(here)
        shown = "".join(host.html.get(name, "") for name in regions)
        for press in presses:
            if not shows(shown, press):
                continue
            host, controller = start(lang)
            for earlier in [*path, press]:
                host.focused = None
                apply_press(controller, earlier)
            there = screen_of(host, controller.texts.lang)
            if there != here:
                moves[here][press_key(press)] = there
                paths.append((lang, [*path, press]))
        if len(screens) > MAX_SCREENS:
            raise RuntimeError(f"more than {MAX_SCREENS} screens before the board")
    html = [""] * len(html_index)
    for text, index in html_index.items():
        html[index] = text
    return {"html": html, "screens": screens, "moves": moves, "start": start_screens,
            "labels": labels}


def as_script(graph: dict[str, Any]) -> str:
    """The graph as a data block for index.html (not run: ``application/json``; ``</``
    escaped so no text ends the element)."""
    text = json.dumps(graph, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return f'<script type="application/json" id="preboard">{text}</script>'
