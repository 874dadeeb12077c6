"""Reading the page's HTML as a browser would, for the tests and tools that drive the
fake host (tests/test_screen_walk.py, scripts/screen_frames.py): a tag's attributes and
what a form sends (FormData of the fields as shown)."""

from __future__ import annotations

import html as htmlmod
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import NamedTuple

from app.core.dom import PICTURE_ATTRS, PICTURE_TAGS

TAG = re.compile(r"<[^>]*>")
OPEN = re.compile(r"<(button|select|input|a|div|li|span|form)\b([^>]*)>")
ATTR = re.compile(r'([a-zA-Z_:-]+)(?:="([^"]*)")?')
FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S)
FIELD = re.compile(r"<(input|select|textarea)\b([^>]*)>(.*?</(?:select|textarea)>)?", re.S)
OPTION = re.compile(r"<option\b([^>]*)>")


def attrs(tag_body: str) -> dict[str, str]:
    """The attributes of a tag (its text after the name), values unescaped."""
    return {m.group(1): htmlmod.unescape(m.group(2) or "") for m in ATTR.finditer(tag_body)}


def form_values(body: str) -> dict[str, str]:
    """What the browser's FormData would send for this form as shown."""
    values: dict[str, str] = {}
    for m in FIELD.finditer(body):
        tag, a = m.group(1), attrs(m.group(2))
        name = a.get("name")
        if not name or "disabled" in a:
            continue
        if tag == "select":
            options = [attrs(o.group(1)) for o in OPTION.finditer(m.group(3) or "")]
            chosen = next((o for o in options if "selected" in o), options[0] if options else None)
            if chosen is not None:
                values[name] = chosen.get("value", "")
        elif tag == "textarea":
            values[name] = htmlmod.unescape(TAG.sub("", (m.group(3) or "").rsplit("</", 1)[0]))
        elif a.get("type") in ("checkbox", "radio"):
            if "checked" in a:
                values[name] = a.get("value", "on")
        elif a.get("type") != "file":
            values[name] = a.get("value", "")
    return values


class Control(NamedTuple):
    """One thing a player could press in a region: ``kind`` is the DOM event (click,
    change, submit), ``form`` what it sends (None for a click)."""

    kind: str
    action: str
    arg: str | None
    form: dict[str, str] | None
    pressed: bool  # aria-pressed (a selected die)


def enabled_controls(html: str) -> Iterator[Control]:
    """The enabled commands of one region's HTML in document order, then each form's
    submit: buttons and other [data-action] elements (a click), the new-game form's
    selects (a change, with the form as shown), any other select once per option not
    chosen (a change sending that value, as web/js/events.js does); no file input (no file
    here)."""
    forms = [(attrs(f.group(1)), f.group(2)) for f in FORM.finditer(html)]
    for m in OPEN.finditer(html):
        tag, a = m.group(1), attrs(m.group(2))
        action = a.get("data-action")
        if not action or "disabled" in a or a.get("aria-disabled") == "true":
            continue
        if tag == "input" and a.get("type") == "file":
            continue
        if action.startswith("ng-"):
            body = next((b for _, b in forms if m.group(0) in b), "")
            yield Control("change", action, a.get("data-arg"), form_values(body), False)
        elif tag == "select":
            body = html[m.end():html.find("</select>", m.end())]
            for o in OPTION.finditer(body):
                option = attrs(o.group(1))
                if "selected" not in option:
                    yield Control("change", action, a.get("data-arg"),
                                  {"value": option.get("value", "")}, False)
        else:
            yield Control("click", action, a.get("data-arg"), None,
                          a.get("aria-pressed") == "true")
    for fa, body in forms:
        if fa.get("data-submit"):
            yield Control("submit", fa["data-submit"], None, form_values(body), False)


_SHAPED_NAME = re.compile(r"(data|aria)-[a-z0-9-]+")
# web/js/paint.js refuses a picture whose HTML reads like a style or a handler unparsed
_INLINE_CODE = re.compile(r"[\s/\"'](?:style|on[a-z]+)\s*=", re.IGNORECASE)


class _PictureCheck(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.outside: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in PICTURE_TAGS:
            self.outside.add(f"<{tag}>")
        for name, _value in attrs:
            if name not in PICTURE_ATTRS and not _SHAPED_NAME.fullmatch(name):
                self.outside.add(f"<{tag} {name}>")


def outside_picture(html: str) -> set[str]:
    """The elements and attributes of ``html`` that a picture of the page may not hold
    (app.core.dom: PICTURE_TAGS, PICTURE_ATTRS; web/js/paint.js drops such a picture).

    >>> sorted(outside_picture('<p class="a" data-x="1">hi<img src="x"></p>'))
    ['<img src>', '<img>']
    >>> sorted(outside_picture('<p>a onclick=b</p>'))
    ['a style or handler (or text that reads like one)']
    """
    check = _PictureCheck()
    check.feed(html)
    check.close()
    if _INLINE_CODE.search(html):
        check.outside.add("a style or handler (or text that reads like one)")
    return check.outside
