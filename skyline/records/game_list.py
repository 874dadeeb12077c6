"""The game list: several games at once, as pure data (no storage I/O).

Storage layout
--------------

The page keeps one ``localStorage`` key per game plus a small index, so saving
one game never rewrites another (a failed or racing write can cost at most the
game being written, never the list):

==============================  ==========================================================
key                             value
==============================  ==========================================================
``skyline.game.<id>``           one game: an *entry* (:func:`entry_to_json`)
``skyline.games``               the *index* (:meth:`GameList.index_json`): the order of
                                the games, the one open, and a summary row per game so the
                                list shows without replaying every game
==============================  ==========================================================

The entries are the truth; the index is a cache. An index that is missing,
damaged, or disagrees with the entries is rebuilt from the entries found under
``skyline.game.*`` (:meth:`GameList.from_entries`). An entry that cannot be read
is kept aside as today's broken saves are (its text is never overwritten).

Entries (version :data:`ENTRY_VERSION`)::

    {"v": 1, "kind": "skyline-entry", "id": "q6v366hwzqws", "game": "q6v366hwzqws",
     "name": "Ann, Bo", "seats": ["here", "friend"], "nonce": "k3Xq9a",
     "created": "2026-12-01T10:00:00Z", "updated": "2026-12-01T10:05:00Z",
     "diverged_from": null, "live": "Q2hhbmdlIHRoaXMgc2VjcmV0",
     "save": <a save envelope, skyline.records.links.make_save>}

``game`` is :func:`skyline.records.game_links.game_id` of the options, computer seats
and nonce (every device holding the game agrees on it); ``id`` is the storage id:
the game id, or ``<game>-2``, ``<game>-3`` … for a continuation kept side by side
with another (``diverged_from`` names the entry it split from). ``seats`` say what
each seat is *on this device*: ``here``, ``friend`` (elsewhere) or a computer level.
``live`` is there only while the game is a live table on this device: its room secret
(:func:`skyline.records.live_links.is_secret`, the secret of the table's invitation link
:func:`~skyline.records.live_links.make_live_link`); an entry without it is not live.

:func:`read_entry` is total and raises :class:`~skyline.records.links.SaveError` with the
codes of :func:`skyline.records.links.read_save` (``save_type``, ``save_size``,
``json_syntax``, ``save_format``, ``save_version`` and the record codes of the game
inside) plus ``entry_field`` (``params["field"]``: ``seats``, ``nonce``, ``id``
or ``game``; a field the game cannot do without) and ``entry_id`` (the stored
game id is not the one the game's options give: edited by hand). Extras that are
not the game (``name``, ``created``, ``updated``, ``diverged_from``, ``live``) are
replaced by defaults when damaged rather than losing the game over them (a damaged
``live`` is ``""``: the game is kept, no longer as a live table).

:func:`read_index` raises ``SaveError`` (``save_type``, ``save_size``,
``json_syntax``, ``save_format``, ``save_version``, ``index_format``).

Migration
---------

Before the list, the page kept one game under ``skyline.save`` (save envelope
versions 0 to 2) and its computer seats under ``skyline.seats``.
:func:`migrate_single_save` turns them into the list's first entry: every human
seat is played here, computer seats come from ``skyline.seats`` when it belongs to
that game (same seed and names), the nonce is empty.

>>> from skyline import Board
>>> board = Board.new(["Ann", "Bo"], seed="demo")
>>> entry = make_entry(board, ("here", "friend"), updated="2026-12-01T10:00:00Z")
>>> again = read_entry(entry_to_json(entry))
>>> again.id, again.board.state == board.state, again.turn_kind, again.name
('q6v366hwzqws', True, 'here', 'Ann, Bo')
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from ..rules import MAX_PLAYERS, Board, Options, Phase
from ..rules.errors import coded_only
from ..rules.options import BIDI_CONTROLS, is_visible
from .game_links import (
    NONCE_PATTERN,
    SEAT_FRIEND,
    SEAT_HERE,
    GameLink,
    Relation,
    check_seats,
    claim_seats,
    compare,
    game_id,
    turn_kind,
)
from .live_links import MAX_SECRET_CHARS, is_secret
from .saves import (
    MAX_SAVE_CHARS,
    MAX_SAVE_DEPTH,
    MAX_STORED_CHARS,
    SaveError,
    make_save,
    read_save,
    save_chars_bound,
    too_deep,
)
from .seats import COMPUTER_LEVELS, Seat

ENTRY_KIND = "skyline-entry"
ENTRY_VERSION = 1
INDEX_KIND = "skyline-games"
INDEX_VERSION = 1
MAX_NAME_CHARS = 60
MAX_STAMP_CHARS = 40
#: A longer entry is refused unread; every entry of a legal game is shorter
#: (:func:`entry_chars_bound`). The page's import (``web/js/files.js``) takes files of up to
#: 2,000,000 bytes, more than 4 UTF-8 bytes for each of these characters.
MAX_ENTRY_CHARS = MAX_SAVE_CHARS
#: The index is a cache of the entries, one row per game, as many as the browser stores:
#: any index a browser can store is read.
MAX_INDEX_CHARS = MAX_STORED_CHARS
_ID = re.compile(r"[a-z2-7]{12}(?:-[1-9][0-9]{0,3})?")


class GameEntry(NamedTuple):
    """One game of the list (see the module doc for the fields)."""

    id: str
    game: str
    name: str
    board: Board
    seats: tuple[str, ...]
    nonce: str = ""
    created: str | None = None
    updated: str | None = None
    diverged_from: str | None = None
    beat: int | None = None
    takes: str = ""
    #: The live table's room secret on this device; ``""``: not a live table.
    live: str = ""

    @property
    def options(self) -> Options:
        return self.board.options

    @property
    def finished(self) -> bool:
        return self.board.state.phase is Phase.OVER

    @property
    def round(self) -> int:
        return self.board.state.round

    @property
    def seat(self) -> int:
        """The seat whose turn it is (the last active seat once the game is over)."""
        return self.board.state.seat

    @property
    def turn_kind(self) -> str:
        """``over``, ``here``, ``friend`` or a computer level: who moves now."""
        return turn_kind(self.board, self.seats)

    def summary(self) -> dict[str, Any]:
        """The entry's row in the index."""
        return {
            "id": self.id,
            "game": self.game,
            "name": self.name,
            "updated": self.updated,
            "players": list(self.options.names),
            "seats": list(self.seats),
            "round": self.round,
            "seat": self.seat,
            "turn": self.turn_kind,
            "finished": self.finished,
            "diverged_from": self.diverged_from,
            **({"live": True} if self.live else {}),
        }


class IndexRow(NamedTuple):
    id: str
    summary: dict[str, Any]  # as GameEntry.summary() wrote it (display only, not trusted)


class GameIndex(NamedTuple):
    current: str | None
    rows: tuple[IndexRow, ...]


class Reception(NamedTuple):
    """What opening a game link means for this device's list.

    ``kind``: ``new`` (unknown game: ask which seats this device plays, then
    :meth:`GameList.adopt`), ``same`` (nothing new), ``update`` (``entry`` continues
    the stored ``entry_id``: store it), ``stale`` (the link is older than the stored
    game ``entry_id``: refuse, change nothing) or ``diverged`` (two different
    continuations: ``entry`` is a new entry kept beside ``entry_id``; it is not a live
    table even when ``entry_id`` is: the room belongs to the stored game). An ``update``
    keeps the stored entry's seats, nonce, name and ``live``.
    """

    kind: str
    entry_id: str | None
    entry: GameEntry | None


def default_name(options: Options) -> str:
    """The label of a new game in the list: the players' names."""
    return ", ".join(options.names)[:MAX_NAME_CHARS]


def game_label(name: object) -> str:
    """A game's own name as the list keeps it: control and direction characters
    dropped (a name may not turn the text around it, as players' names may not), runs
    of spaces made one, at most ``MAX_NAME_CHARS``; "" when nothing visible is left (the
    list then shows the players' names).

    >>> game_label("  Bob\u202egnp.exe "), game_label("\u200b"), game_label(None)
    ('Bobgnp.exe', '', '')
    """
    if not isinstance(name, str):
        return ""
    kept = "".join(c for c in name if c not in BIDI_CONTROLS and (c.isprintable() or c.isspace()))
    text = " ".join(kept.split())[:MAX_NAME_CHARS]
    return text if any(is_visible(c) for c in text) else ""


def make_entry(
    board: Board,
    seats: Sequence[str],
    *,
    nonce: str = "",
    name: str | None = None,
    created: str | None = None,
    updated: str | None = None,
    diverged_from: str | None = None,
    entry_id: str | None = None,
    beat: int | None = None,
    takes: str = "",
    live: str = "",
) -> GameEntry:
    """A list entry for ``board``; ``ValueError`` for seats or a nonce that do not fit, or
    a ``live`` that is neither ``""`` nor a room secret."""
    seats = check_seats(seats, len(board.options.names))
    if not isinstance(nonce, str) or not NONCE_PATTERN.fullmatch(nonce):
        raise ValueError("nonce: expected 0 to 16 letters, digits, '-' or '_'")
    gid = game_id(board, seats, nonce)
    eid = gid if entry_id is None else entry_id
    if not _ID.fullmatch(eid) or eid.partition("-")[0] != gid:
        raise ValueError("id: an entry's id is its game id, or the game id and -<number>")
    if live != "" and not is_secret(live):
        raise ValueError("live: expected '' or a room secret (22 to 64 letters, digits, '-', '_')")
    created = _stamp(created)
    updated = _stamp(updated) or created
    return GameEntry(
        eid, gid, game_label(name) or default_name(board.options), board, seats,
        nonce, created, updated, diverged_from if _is_id(diverged_from) else None, beat, takes,
        live,
    )


def entry_to_json(entry: GameEntry) -> str:
    """The entry as stored under ``skyline.game.<id>``."""
    save = json.loads(make_save(entry.board, beat=entry.beat, takes=entry.takes,
                                saved_at=entry.updated))
    data = _entry_data(entry.id, entry.game, entry.name, entry.seats, entry.nonce,
                       (entry.created, entry.updated, entry.diverged_from), entry.live, save)
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _entry_data(eid: str, gid: str, name: str, seats: Sequence[str], nonce: str,
                stamps: tuple[str | None, str | None, str | None], live: str, save: object
                ) -> dict[str, Any]:
    created, updated, diverged_from = stamps
    return {
        "v": ENTRY_VERSION,
        "kind": ENTRY_KIND,
        "id": eid,
        "game": gid,
        "name": name,
        "seats": list(seats),
        "nonce": nonce,
        "created": created,
        "updated": updated,
        "diverged_from": diverged_from,
        **({"live": live} if live else {}),
        "save": save,
    }


def entry_chars_bound(players: int = MAX_PLAYERS) -> int:
    """Most characters of an entry :func:`entry_to_json` writes for a game of
    ``players``: its fields at their longest (a name of 60 and stamps of 40 characters
    that JSON writes as ``\\u00XX`` each, the longest seat kind for every seat, the
    longest id, a room secret of 64 characters) around the longest save
    (:func:`~skyline.records.saves.save_chars_bound`),
    held unchanged. :func:`read_entry` reads up to :data:`MAX_ENTRY_CHARS`, above it.

    >>> entry_chars_bound() <= MAX_ENTRY_CHARS
    True
    """
    longest_seat = max((SEAT_HERE, SEAT_FRIEND, *COMPUTER_LEVELS), key=len)
    eid = "a" * 12 + "-9999"
    stamp = "\x00" * MAX_STAMP_CHARS
    data = _entry_data(eid, "a" * 12, "\x00" * MAX_NAME_CHARS, (longest_seat,) * players,
                       "n" * 16, (stamp, stamp, eid), "s" * MAX_SECRET_CHARS, 0)
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return len(text) - len("0") + save_chars_bound(players)


# --------------------------------------------------------------------------- readers


def read_entry(text: object) -> GameEntry:
    """A stored entry; raises :class:`SaveError` only (see the module doc)."""
    return coded_only(SaveError, "the saved game could not be read", _read_entry, text)


def _parse_json(text: object, what: str, limit: int) -> Any:
    if not isinstance(text, str):
        raise SaveError("save_type", f"{what} must be text")
    if len(text) > limit:
        raise SaveError("save_size", f"{what} is longer than {limit} characters")
    if too_deep(text, MAX_SAVE_DEPTH):
        raise SaveError("json_syntax", f"{what} is nested too deeply")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise SaveError("json_syntax", f"{what} is not valid JSON") from None


def _check_kind(data: Any, kind: str, version: int, what: str) -> dict[str, Any]:
    if not isinstance(data, dict) or data.get("kind") != kind:
        raise SaveError("save_format", f"this is not {what}")
    v = data.get("v")
    if isinstance(v, bool) or not isinstance(v, int):
        raise SaveError("save_format", f"the version of {what} is not a number")
    if v != version:
        shown = str(v) if abs(v) < 10**9 else "?"
        raise SaveError("save_version", f"version {shown} of {what} is not supported",
                        version=shown)
    return data


def _read_entry(text: object) -> GameEntry:
    data = _check_kind(_parse_json(text, "a saved game", MAX_ENTRY_CHARS), ENTRY_KIND,
                       ENTRY_VERSION, "a game of the list")
    # the save as make_save wrote it (compact, not ASCII-escaped): no longer than stored
    saved = read_save(json.dumps(data.get("save"), separators=(",", ":"), ensure_ascii=False))
    board = saved.board
    try:
        seats = check_seats(data.get("seats"), len(board.options.names))
    except ValueError:
        raise SaveError("entry_field", "the game's seats are damaged", field="seats") from None
    nonce = data.get("nonce")
    if not isinstance(nonce, str) or not NONCE_PATTERN.fullmatch(nonce):
        raise SaveError("entry_field", "the game's nonce is damaged", field="nonce")
    gid, eid = data.get("game"), data.get("id")
    if not isinstance(gid, str) or not re.fullmatch(r"[a-z2-7]{12}", gid):
        raise SaveError("entry_field", "the game's id is damaged", field="game")
    if not isinstance(eid, str) or not _ID.fullmatch(eid) or eid.partition("-")[0] != gid:
        raise SaveError("entry_field", "the game's storage id is damaged", field="id")
    if gid != game_id(board, seats, nonce):
        raise SaveError("entry_id", "the game's id does not match its options")
    return make_entry(
        board, seats, nonce=nonce, name=_text(data.get("name"), MAX_NAME_CHARS),
        created=data.get("created"), updated=data.get("updated"),
        diverged_from=data.get("diverged_from"), entry_id=eid, beat=saved.beat,
        takes=saved.takes, live=_live(data.get("live")),
    )


def read_index(text: object) -> GameIndex:
    """The stored index; raises :class:`SaveError` only. Rows are display data; the
    entries they name are read (and checked) on their own."""
    return coded_only(SaveError, "the game list could not be read", _read_index, text)


def _read_index(text: object) -> GameIndex:
    data = _check_kind(_parse_json(text, "the game list", MAX_INDEX_CHARS), INDEX_KIND,
                       INDEX_VERSION, "a game list")
    games = data.get("games")
    if not isinstance(games, list):
        raise SaveError("index_format", "the game list is damaged")
    rows: list[IndexRow] = []
    seen: set[str] = set()
    for row in games:
        if not isinstance(row, dict) or not _is_id(row.get("id")) or row["id"] in seen:
            raise SaveError("index_format", "the game list is damaged")
        seen.add(row["id"])
        rows.append(IndexRow(row["id"], row))
    current = data.get("current")
    if current is not None and current not in seen:
        raise SaveError("index_format", "the game list is damaged")
    return GameIndex(current, tuple(rows))


def _is_id(value: object) -> bool:
    return isinstance(value, str) and _ID.fullmatch(value) is not None


def _text(value: object, limit: int) -> str | None:
    return value if isinstance(value, str) and len(value) <= limit else None


def _stamp(value: object) -> str | None:
    return _text(value, MAX_STAMP_CHARS)


def _live(value: object) -> str:
    """A stored room secret, or ``""`` when there is none or it is damaged."""
    return value if isinstance(value, str) and is_secret(value) else ""


# --------------------------------------------------------------------------- migration


def migrate_single_save(
    save_text: object, seats_text: object = None, now: str | None = None
) -> GameEntry:
    """The list entry of the page's single save (``skyline.save``, any shipped
    version) and its computer seats (``skyline.seats``, used only if it belongs to
    that game). Raises :class:`SaveError` like :func:`skyline.records.links.read_save`."""
    saved = read_save(save_text)
    board = saved.board
    seats = [Seat.here().code] * len(board.options.names)
    for seat, level in _legacy_bots(seats_text, board).items():
        seats[seat] = level
    stamp = saved.saved_at or now
    return make_entry(board, seats, created=stamp, updated=stamp, beat=saved.beat,
                      takes=saved.takes)


def _legacy_bots(text: object, board: Board) -> dict[int, str]:
    """Computer seats from ``skyline.seats`` (web/bots_ui.py):
    ``{"v":1,"seed":…,"names":[…],"bots":{"1":"expert"}}``, if it is this game's."""
    if not isinstance(text, str) or len(text) > 10_000:
        return {}
    try:
        data = json.loads(text)
        if data.get("seed") != board.options.seed or data.get("names") != list(
            board.options.names
        ):
            return {}
        bots = dict(data.get("bots") or {})
    except (ValueError, TypeError, AttributeError, RecursionError):
        return {}
    out = {}
    n = len(board.options.names)
    for key, level in bots.items():
        if isinstance(key, str) and key.isascii() and key.isdigit() and int(key) < n:
            try:
                seat = Seat.from_code(level)
            except ValueError:
                continue
            if seat.is_computer:
                out[int(key)] = level
    return out


# --------------------------------------------------------------------------- the list


class GameList:
    """The games on this device, by entry id, with the one that is open.

    Pure data: the page stores :meth:`index_json` in its index key and each entry's
    :func:`entry_to_json` under the entry's own key when it changes (the key names are the
    page's, ``web/store.py``).
    """

    def __init__(self, entries: Iterable[GameEntry] = (), current: str | None = None) -> None:
        self.entries: dict[str, GameEntry] = {}
        for entry in entries:
            self.put(entry)
        self.current = current if current in self.entries else None

    @classmethod
    def from_entries(cls, entries: Iterable[GameEntry], index: GameIndex | None = None
                     ) -> GameList:
        """The list from the entries read from storage, in the index's order where
        it names them (others after it, newest first); the index's open game if it
        is among them."""
        by_id = {e.id: e for e in entries}
        order = [row.id for row in index.rows if row.id in by_id] if index else []
        rest = sorted((i for i in by_id if i not in order),
                      key=lambda i: by_id[i].updated or "", reverse=True)
        return cls((by_id[i] for i in order + rest), index.current if index else None)

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self.entries

    def get(self, entry_id: str) -> GameEntry | None:
        return self.entries.get(entry_id)

    def put(self, entry: GameEntry) -> None:
        """Add or replace an entry (kept in its place when replaced)."""
        self.entries[entry.id] = entry

    def remove(self, entry_id: str) -> GameEntry | None:
        entry = self.entries.pop(entry_id, None)
        if self.current == entry_id:
            self.current = None
        return entry

    def ordered(self) -> list[GameEntry]:
        """The entries, most recently updated first (games without a time last)."""
        return sorted(self.entries.values(), key=lambda e: e.updated or "", reverse=True)

    def copies(self, game: str) -> list[GameEntry]:
        """Every entry of one game (the first and the ones kept beside it)."""
        return [e for e in self.entries.values() if e.game == game]

    def index_json(self) -> str:
        data = {
            "v": INDEX_VERSION,
            "kind": INDEX_KIND,
            "current": self.current,
            "games": [e.summary() for e in self.entries.values()],
        }
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)

    # ------------------------------------------------------------------ links

    def receive(self, link: GameLink, now: str | None = None) -> Reception:
        """What the game of ``link`` means here (nothing is changed; see
        :class:`Reception`). The rule: a stored game is updated only when its record
        is a prefix of the link's."""
        copies = self.copies(link.game_id)
        if not copies:
            return Reception("new", None, None)
        relations = [(compare(e.board, link.board), e) for e in copies]
        for wanted in (Relation.SAME, Relation.CONTINUES, Relation.STALE):
            for relation, entry in relations:
                if relation is wanted:
                    if relation is Relation.SAME:
                        return Reception("same", entry.id, None)
                    if relation is Relation.STALE:
                        return Reception("stale", entry.id, None)
                    updated = entry._replace(board=link.board, updated=_stamp(now) or
                                             entry.updated, takes="")
                    return Reception("update", entry.id, updated)
        first = copies[0]
        number = 2
        while f"{link.game_id}-{number}" in self.entries:
            number += 1
        kept = first._replace(id=f"{link.game_id}-{number}", board=link.board,
                              updated=_stamp(now) or first.updated, takes="",
                              diverged_from=first.id, live="")
        return Reception("diverged", first.id, kept)

    def adopt(self, link: GameLink, mine: Sequence[int], now: str | None = None,
              name: str | None = None, live: str = "") -> GameEntry:
        """The entry of an unknown game from ``link`` whose human seats ``mine`` this
        device plays (the others are friends elsewhere), a live table with the room
        secret ``live`` (a live link's) when given. Not added: :meth:`put` it."""
        seats = claim_seats(link.seats, mine)
        return make_entry(link.board, seats, nonce=link.nonce, name=name, created=now,
                          updated=now, live=live)

