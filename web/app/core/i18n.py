"""String tables: every word the player reads comes from web/i18n/<lang>.json.

Tables are flat {"key": "text with {params}"}. A missing key falls back to English,
then to the key itself (visible, so a gap is noticed, never a crash).

Strict mode (``STRICT = True``, set for every test under tests/ by tests/conftest.py; the
page leaves it off): a key missing from the table of the language asked for raises
``MissingText`` (a ``KeyError`` naming the key and the language) instead of falling
back, for every ``Texts`` (those made on the fly included) and for the counted variants
(``key|one``, ``key|zero``) as much as for plain keys. ``ON_MISSING`` (a function of
key and language) is told of each missing text instead, while the page goes on as in
the browser (tests/test_screen_walk.py looks at what the player would see).

Plurals: a text counted by an integer parameter (``n``, else ``points``, else ``score``:
``COUNT_PARAMS``) may have variants
``"key|zero"`` (n == 0) and ``"key|one"`` (n == 1) beside ``"key"`` (every other n);
``t`` picks the variant, so no text needs "(s)".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

LANGS = ("en", "de")
COUNT_PARAMS = ("n", "points", "score")
STRICT = False  # tests/conftest.py: a missing text raises MissingText
ON_MISSING = None  # if set (and not STRICT): called with (key, lang) for each missing text


@dataclass(frozen=True)
class Text:
    """A text translated when it is shown, not when it is made: a notice's part (a
    reason, whose turn it is) follows a change of language like the notice itself.
    ``params`` may hold ``Text`` values too."""

    key: str
    params: tuple[tuple[str, Any], ...] = ()


def translate(t: Callable[..., str], value: Any) -> Any:
    """``value`` in the language of ``t`` if it is a ``Text`` (its params too)."""
    if not isinstance(value, Text):
        return value
    return t(value.key, **{k: translate(t, v) for k, v in value.params})


class MissingText(KeyError):
    """A key missing from the string table of ``lang`` (strict mode only)."""

    def __init__(self, key: str, lang: str) -> None:
        super().__init__(f"string table {lang!r} has no key {key!r}")
        self.key = key
        self.lang = lang

    def __str__(self) -> str:
        return str(self.args[0])


class _Params(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class Texts:
    def __init__(self, tables: dict[str, dict[str, str]], lang: str = "en") -> None:
        self.tables = tables
        self.lang = lang if lang in tables else "en"

    def t(self, key: str, /, **params: object) -> str:
        if params:
            n = next((params[p] for p in COUNT_PARAMS if p in params), None)
            if isinstance(n, int) and not isinstance(n, bool) and n in (0, 1):
                variant = key + ("|zero" if n == 0 else "|one")
                if self.has(variant):
                    key = variant
        text = self.tables.get(self.lang, {}).get(key)
        if text is None:
            if STRICT:
                raise MissingText(key, self.lang)
            if ON_MISSING is not None:
                ON_MISSING(key, self.lang)
            text = self.tables.get("en", {}).get(key, key)
        if params:
            text = text.format_map(_Params(params))
        return text

    def has(self, key: str) -> bool:
        return key in self.tables.get(self.lang, {}) or key in self.tables.get("en", {})


def pick_language(preferred: list[str] | tuple[str, ...],
                  available: tuple[str, ...] = LANGS) -> str:
    """First of the browser's languages (navigator.languages) we have, else English."""
    for tag in preferred:
        base = str(tag).lower().split("-")[0]
        if base in available:
            return base
    return "en"
