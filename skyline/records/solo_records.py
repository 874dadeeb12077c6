"""Solo records: what the page keeps under ``skyline.records``, read totally.

The page counts every finished solo game once (``web/store.Records``)::

    {"v": 1, "best": {"-": 84, "dubai": 61}, "levels": {"Urban Planner": 2},
     "scenarios": {"dubai": 1},
     "daily": {"2026-12-01": {"best": 84, "plays": 2, "expert": 88}},
     "seen": ["<game key>", …]}

``best``: the best score per scenario slot (``-``: no scenario); ``levels``: how often
each solo level was reached; ``scenarios``: how often each scenario was met; ``daily``:
per day of a daily challenge its best score, the number of plays and ``expert``, the
solo expert's score on that day's dice (:mod:`skyline.players.benchmark`; older versions
wrote no ``daily``, no ``seen`` and no ``expert``); ``seen``: the last games counted, so
none counts twice. A day whose ``expert`` figure is damaged keeps its best and plays (the
figure is left out, reported as a ``records_entry`` problem of ``daily``, and the page
plays the expert's game again).

:func:`read_solo_records` never raises: it returns what it could read and the first
problem (:class:`SoloRecordsError`, None when the text is clean), so the page can keep
the stored text aside byte for byte before anything is written over it. Its codes:
``records_size`` (not text, or longer than :data:`MAX_RECORDS_CHARS`),
``json_syntax``, ``records_format`` (not the object above, or a version that is not a
number), ``records_version`` (``params["version"]``; ``params["newer"]`` True for a
version newer than this page's: such records are never written over) and
``records_entry`` (``params["field"]``: the first part with an item that is not what
the page writes; every other item is read).

>>> text = '{"v": 1, "best": {"-": 84}, "levels": {"x": -1, "Urban Planner": 2}}'
>>> data, problem = read_solo_records(text)
>>> data["best"], data["levels"], problem.code, problem.params
({'-': 84}, {'Urban Planner': 2}, 'records_entry', {'field': 'levels'})
>>> read_solo_records(solo_records_json(data))[1] is None
True
>>> read_solo_records('{"v": 7}')[1].params
{'version': '7', 'newer': True}
>>> data, problem = read_solo_records('{"v": 1, "daily": {"2026-12-01": '
...                                   '{"best": 84, "plays": 1, "expert": "x"}}}')
>>> data["daily"], problem.params
({'2026-12-01': {'best': 84, 'plays': 1}}, {'field': 'daily'})
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..rules import SkylineError
from .saves import MAX_SAVE_DEPTH, MAX_STORED_CHARS, too_deep

RECORDS_VERSION = 1
#: Records longer than any browser stores for a site are refused unread; the page's
#: records grow by a row per day of daily challenges, and any it can store is read.
MAX_RECORDS_CHARS = MAX_STORED_CHARS
MAX_SEEN = 50
_COUNTS = ("best", "levels", "scenarios")
_FIELDS = (*_COUNTS, "daily", "seen")
_DAY_FIGURES = ("best", "plays", "expert")  # a day's row of the daily challenge
_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class SoloRecordsError(SkylineError):
    """Stored solo records that cannot be read in full; ``code`` says why (module doc)."""


def empty_solo_records() -> dict[str, Any]:
    """Records of a page that has counted no game yet."""
    return {"v": RECORDS_VERSION, "best": {}, "levels": {}, "scenarios": {}, "daily": {},
            "seen": []}


def solo_records_json(data: dict[str, Any]) -> str:
    """The stored form (``read_solo_records`` reads it back)."""
    return json.dumps({**empty_solo_records(), **data, "v": RECORDS_VERSION},
                      ensure_ascii=False)


def _count(value: object) -> bool:
    return type(value) is int and value >= 0


def _item(name: str, key: object, value: object) -> bool:
    """Whether one item of the field ``name`` is as the page writes it."""
    if name in _COUNTS:
        return isinstance(key, str) and _count(value)
    return (isinstance(key, str) and _ISO_DAY.fullmatch(key) is not None
            and isinstance(value, dict) and set(value) <= set(_DAY_FIGURES)
            and all(map(_count, value.values())))


def _day_row(value: object) -> object:
    """A day's row without a damaged ``expert`` figure (the page plays it again), so a
    bad figure costs the figure only, not the day's best and plays."""
    if isinstance(value, dict) and "expert" in value and not _count(value["expert"]):
        return {k: v for k, v in value.items() if k != "expert"}
    return value


def _field(name: str, value: object) -> tuple[Any, bool]:
    """The readable part of a field and whether anything of it was left out."""
    if name == "seen":
        if not isinstance(value, list):
            return [], True
        seen = [k for k in value if isinstance(k, str)]
        return seen[-MAX_SEEN:], len(seen) != len(value)
    if not isinstance(value, dict):
        return {}, True
    items = value.items()
    if name == "daily":
        items = {k: _day_row(v) for k, v in items}.items()
    good = {k: (dict(v) if isinstance(v, dict) else v) for k, v in items
            if _item(name, k, v)}
    return good, len(good) != len(value) or good != value


def read_solo_records(raw: object) -> tuple[dict[str, Any], SoloRecordsError | None]:
    """The records in ``raw`` (every part that could be read; empty ones for the rest)
    and the first problem, None if the text is clean. Total: never raises."""
    data = empty_solo_records()
    if not isinstance(raw, str) or len(raw) > MAX_RECORDS_CHARS:
        return data, SoloRecordsError("records_size", "the records are not text of a sane size")
    try:
        if too_deep(raw, MAX_SAVE_DEPTH):
            raise ValueError("too deep")
        stored = json.loads(raw)
    except (ValueError, RecursionError):
        return data, SoloRecordsError("json_syntax", "the records are not JSON")
    if not isinstance(stored, dict):
        return data, SoloRecordsError("records_format", "these are not Skyline records")
    version = stored.get("v")
    if isinstance(version, bool) or not isinstance(version, int):
        return data, SoloRecordsError("records_format", "the records have no version number")
    if version != RECORDS_VERSION:
        shown = str(version) if abs(version) < 10**9 else "?"
        return data, SoloRecordsError("records_version", f"records version {shown} is unknown",
                                      version=shown, newer=version > RECORDS_VERSION)
    problem = None
    for name, value in stored.items():
        if name == "v":
            continue
        damaged = True
        if name in _FIELDS:
            data[name], damaged = _field(name, value)
        if damaged and problem is None:
            problem = SoloRecordsError("records_entry", f"the records' {name[:20]!r} part is "
                                       "damaged", field=name[:20])
    return data, problem
