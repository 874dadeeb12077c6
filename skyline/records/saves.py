"""Saved games: the JSON save envelope the page keeps.

What the page keeps in ``localStorage`` is a JSON *save envelope*. Versions:

* **0**: a bare :meth:`Board.to_json` object (``{"format": "skyline-game", ...}``),
  as exported games look; read as a save without extras.
* **1**: the page's first envelope: ``{"v": 1, "game": <Board.to_json object>,
  "saved_at": <ISO text>, "beat": <int or null>, "ui": {"takes": "GU"}}``.
* **2** (:data:`SAVE_VERSION`, written by :func:`make_save`): version 1 plus
  ``"kind": "skyline-save"`` (so foreign data under the key is recognised) and
  ``"engine"``: the engine version that wrote it (``null`` when migrated).

:func:`migrate_save` upgrades a parsed envelope of any of these versions to the
current one. The game is the record (options and every action) checked against
its state snapshot: it is replayed action by action, so a save either gives the
game it describes or is refused. The extras are not the game: a damaged
``beat``, ``ui`` or ``saved_at`` is dropped (set to none) rather than losing the
game over it.

:func:`read_save` / :func:`load_save` raise :class:`SaveError`. Its ``code`` is
``save_type`` (not text), ``save_size`` (over :data:`MAX_SAVE_CHARS`),
``json_syntax`` (not JSON, nested deeper than :data:`MAX_SAVE_DEPTH`, a number
too long to read), ``save_format`` (not a Skyline save), ``save_version`` (a
version this engine does not know, ``params["version"]``), or, for the game
inside, the :class:`~skyline.RecordError` code of :meth:`Board.from_data`
(``json_format``, ``json_version``, ``json_mismatch``, ``record_type``,
``record_size``, ``record_format``, ``record_magic``, ``record_field``,
``record_options``, ``record_action`` with ``params["number"]``).

>>> from skyline import Board
>>> board = Board.new(["Ada"], seed="demo"); board.push_text("tGGU")
>>> again = read_save(make_save(board, takes="", beat=50))
>>> again.board.state == board.state, again.beat, again.version
(True, 50, 2)
"""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

from ..rules import DIE_LETTERS, MAX_PLAYERS, Board, Phase, RecordError, SkylineError
from ..rules.board import game_json_chars_bound
from ..rules.errors import coded_only
from ..version import __version__
from .links import MAX_BEAT

SAVE_VERSION = 2
SAVE_VERSIONS = (0, 1, 2)
SAVE_KIND = "skyline-save"
#: A longer save is refused unread; every save of a legal game is shorter
#: (:func:`save_chars_bound`: 261,587 characters with four players).
MAX_SAVE_CHARS = 500_000
MAX_SAVE_DEPTH = 32
#: More than any browser keeps in ``localStorage`` for one site (5 MiB of UTF-16 code
#: units in Chromium, Firefox and WebKit): a stored text that grows with use (the game
#: list's index, the solo records) is read up to this, so whatever the page could store
#: it reads back.
MAX_STORED_CHARS = 6_000_000
MAX_TAKES = 2  # yard dice picked before the third completes a Take
MAX_STAMP_CHARS = 40  # the longest "saved_at" kept


class SaveError(SkylineError):
    """A saved game that cannot be loaded; ``code`` says why (see the module doc)."""


class SavedGame(NamedTuple):
    board: Board
    beat: int | None  # a score to beat (solo only), from the link the game came from
    takes: str  # yard dice picked but not yet taken, e.g. "GU" (only in the take phase)
    saved_at: str | None
    version: int  # the version the save was written in (before migration)


# --------------------------------------------------------------------------- saves


def make_save(
    board: Board, *, beat: int | None = None, takes: str = "", saved_at: str | None = None
) -> str:
    """The current save envelope (JSON text) of ``board`` and the page's extras."""
    extras = _clean_extras(board, {"beat": beat, "ui": {"takes": takes}, "saved_at": saved_at})
    envelope = _envelope(json.loads(board.to_json()), extras)
    return json.dumps(envelope, separators=(",", ":"), ensure_ascii=False)


def _envelope(game: object, extras: dict[str, Any]) -> dict[str, Any]:
    return {
        "v": SAVE_VERSION,
        "kind": SAVE_KIND,
        "engine": __version__,
        "game": game,
        "saved_at": extras["saved_at"],
        "beat": extras["beat"],
        "ui": {"takes": extras["takes"]},
    }


def save_chars_bound(players: int = MAX_PLAYERS) -> int:
    """Most characters of a save :func:`make_save` writes for a game of ``players``: the
    envelope with its extras at their longest (``saved_at`` of 40 characters that JSON
    writes as ``\\u00XX`` each, a beat of four digits, two dice picked) around the
    longest :meth:`~skyline.Board.to_json` (:func:`~skyline.rules.board.game_json_chars_bound`),
    which the envelope holds unchanged (the same compact JSON). :data:`MAX_SAVE_CHARS`
    is above it, so every save the page writes is read back.

    >>> save_chars_bound() <= MAX_SAVE_CHARS
    True
    """
    extras = {"saved_at": "\x00" * MAX_STAMP_CHARS, "beat": MAX_BEAT, "takes": "G" * MAX_TAKES}
    text = json.dumps(_envelope(0, extras), separators=(",", ":"), ensure_ascii=False)
    return len(text) - len("0") + game_json_chars_bound(players)


def load_save(text: object) -> Board:
    """The game of a save of any supported version; raises :class:`SaveError` only."""
    return read_save(text).board


def read_save(text: object) -> SavedGame:
    """The game and the page's extras of a save; raises :class:`SaveError` only."""
    return coded_only(SaveError, "the saved game could not be read", _read_save, text)


def _read_save(text: object) -> SavedGame:
    if not isinstance(text, str):
        raise SaveError("save_type", "a saved game must be text")
    if len(text) > MAX_SAVE_CHARS:
        raise SaveError("save_size", f"the save is longer than {MAX_SAVE_CHARS} characters")
    if too_deep(text, MAX_SAVE_DEPTH):
        raise SaveError("json_syntax", "the save is nested too deeply to be a saved game")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise SaveError("json_syntax", "the save is not valid JSON") from None
    version = _version_of(data)
    data = migrate_save(data)
    try:
        board = Board.from_data(data["game"])
    except RecordError as exc:
        raise SaveError(exc.code, f"the game in the save is broken: {exc}", **exc.params) from None
    extras = _clean_extras(board, data)
    return SavedGame(board, extras["beat"], extras["takes"], extras["saved_at"], version)


def migrate_save(data: object) -> dict[str, Any]:
    """Upgrade a parsed save of any version in :data:`SAVE_VERSIONS` to the current
    one (a new dict; the game inside is not replayed here). Raises :class:`SaveError`."""
    version = _version_of(data)
    assert isinstance(data, dict)
    if version == 0:
        data = {"v": 1, "game": data, "saved_at": None, "beat": None, "ui": {"takes": ""}}
        version = 1
    if version == 1:
        data = {**data, "v": 2, "kind": SAVE_KIND, "engine": None}
        version = 2
    if not isinstance(data.get("game"), dict):
        raise SaveError("save_format", "the save holds no game")
    return dict(data)


def _version_of(data: object) -> int:
    if not isinstance(data, dict):
        raise SaveError("save_format", "this is not a saved Skyline game")
    if "v" not in data:
        if data.get("format") == "skyline-game":
            return 0
        raise SaveError("save_format", "this is not a saved Skyline game")
    version = data["v"]
    if isinstance(version, bool) or not isinstance(version, int):
        raise SaveError("save_format", "the save's version is not a number")
    if version not in SAVE_VERSIONS or version == 0:
        shown = str(version) if abs(version) < 10**9 else "?"
        raise SaveError("save_version", f"save version {shown} is not supported", version=shown)
    if version >= 2 and data.get("kind") != SAVE_KIND:
        raise SaveError("save_format", "this is not a saved Skyline game")
    return version


def _clean_extras(board: Board, data: dict[str, Any]) -> dict[str, Any]:
    """The page's extras of a save, each dropped (set to none) when damaged."""
    beat = data.get("beat")
    if (
        isinstance(beat, bool)
        or not isinstance(beat, int)
        or not 0 <= beat <= MAX_BEAT
        or not board.state.solo
    ):
        beat = None
    ui = data.get("ui")
    takes = ui.get("takes") if isinstance(ui, dict) else None
    if (
        not isinstance(takes, str)
        or len(takes) > MAX_TAKES
        or any(c not in DIE_LETTERS for c in takes)
        or board.state.phase is not Phase.TAKE
    ):
        takes = ""
    saved_at = data.get("saved_at")
    if not isinstance(saved_at, str) or len(saved_at) > MAX_STAMP_CHARS:
        saved_at = None
    return {"beat": beat, "takes": takes, "saved_at": saved_at}


_JSON_SYNTAX = re.compile(r'[\[\]{}"\\]')


def too_deep(text: str, limit: int) -> bool:
    """Whether JSON ``text`` nests arrays/objects deeper than ``limit`` (checked
    before parsing: deep nesting costs the parser its stack, in Pyodide too)."""
    depth = 0
    in_string = False
    skip = -1  # index of a character escaped by a backslash
    for match in _JSON_SYNTAX.finditer(text):
        i = match.start()
        if i == skip:
            continue
        c = match.group()
        if in_string:
            if c == "\\":
                skip = i + 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > limit:
                return True
        elif c in "]}":
            depth -= 1
    return False
