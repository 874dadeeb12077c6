"""Reading the page's HTML as a browser would, for the tests and tools that drive the
fake host (tests/test_screen_walk.py, scripts/screen_frames.py): a tag's attributes and
what a form sends (FormData of the fields as shown)."""

from __future__ import annotations

import html as htmlmod
import re

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
