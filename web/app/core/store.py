"""What the page keeps in the browser, behind the host port (``main.DomHost``).

- ``Store``: localStorage through the host, never raising: a failing store is reported
  once (``on_failure``), the game goes on in memory, and a save that works again is
  reported (``on_recovery``). A save goes only over the text last written or read
  (``write_save``; with the render, ``write_save_soon``); unreadable saves are kept
  aside; the settings are stored here (the old single save's seats read once).
- ``Library``: the game list (``skyline.games``): one key per game,
  ``skyline.game.<id>``, plus the index ``skyline.games``; the single save of older
  versions migrates into it; unreadable entries are kept aside like broken saves.
- ``Records``: the solo records (best scores, levels reached, scenarios met, daily
  challenges), read by the total ``read_solo_records``; records that cannot be read in
  full are kept aside, and records of a newer version are never written over.
- ``History``: every finished game (``game_stats.GameResult``), versioned JSON read by the
  total ``game_stats.read_history``; a history that cannot be read in full is kept aside
  (like a broken save) and the page goes on with what could be read.
- ``TabLock``: one tab at a time may move (Web Locks in ``DomHost``). Nothing here
  imports the browser, so it runs under CPython with a fake host.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from enum import Enum
from typing import Any

from app.core.game_stats import GameResult, HistoryError, game_key, history_json, read_history
from app.core.host_port import Host
from app.core.i18n import LANGS
from app.core.refusal import Refusal, refusal
from app.core.words import read_summary
from skyline import Board
from skyline.records.daily import daily_day
from skyline.records.game_links import GameLink, link_seats
from skyline.records.game_list import (
    GameEntry,
    GameList,
    entry_to_json,
    migrate_single_save,
    read_entry,
    read_index,
)
from skyline.records.saves import SaveError
from skyline.records.solo_records import (
    SoloRecordsError,
    empty_solo_records,
    read_solo_records,
    solo_records_json,
)

KEY_SAVE = "skyline.save"
KEY_SETTINGS = "skyline.settings"
KEY_SETTINGS_BROKEN = "skyline.settings.broken."
#: the values the settings' "sound" may have (Store.save_sound)
SOUND_VALUES = ("on", "off")
KEY_RECORDS = "skyline.records"
KEY_RECORDS_BROKEN = "skyline.records.broken."
KEY_BROKEN = "skyline.save.broken."
KEY_PROBE = "skyline.probe"
KEY_SEATS = "skyline.seats"
# The game list (skyline.records.game_list): its index, and one key per game.
KEY_INDEX = "skyline.games"
KEY_GAME = "skyline.game."
# Unreadable game-list entries are copied here (the prefix is not KEY_GAME's).
KEY_GAME_BROKEN = "skyline.games.broken."
KEY_HISTORY = "skyline.history"
KEY_HISTORY_BROKEN = "skyline.history.broken."


def entry_key(entry_id: str) -> str:
    """The storage key of a game-list entry: ``skyline.game.<id>``."""
    return KEY_GAME + entry_id


class SaveWrite(Enum):
    WRITTEN = "written"
    CONFLICT = "conflict"  # another tab saved since this one last wrote or read
    FAILED = "failed"  # the store refused (full, blocked)


class Store:
    """localStorage through the host; every failure is reported, none raises."""

    def __init__(self, host: Host, on_failure: Callable[[Refusal], None],
                 on_recovery: Callable[[], None] | None = None) -> None:
        self.host = host
        self.on_failure = on_failure  # told once, with why: full or blocked
        # a game saved again after a failure (space freed): the failure's notice may go
        self.on_recovery = on_recovery
        self.ok = True
        # Per key, the text this tab last wrote or read: before writing, the stored one must
        # still be it, else another tab saved in between and is never silently overwritten.
        self.seen: dict[str, str | None] = {}
        self.held = False  # a broken save could not be kept aside: never save over it
        self.broken: dict[str, str] = {}  # key -> raw text of saves kept aside

    def _failed(self, why: BaseException | str = "failed") -> None:
        if self.ok:
            self.ok = False
            self.on_failure(refusal(why))

    def get(self, key: str) -> str | None:
        try:
            return self.host.storage_get(key)
        except Exception as exc:
            self._failed(exc)
            return None

    def set(self, key: str, value: str) -> bool:
        try:
            self.host.storage_set(key, value)
        except Exception as exc:
            self._failed(exc)
            return False
        return True

    def later(self, key: str, value: str | None) -> None:
        """Write (``None``: remove) ``key`` with the render, for what may be lost without
        harm: no round trip from the worker, and a failure is not a store failure."""
        self.host.storage_later(key, value)

    def keys(self) -> list[str]:
        """Every key in the store (none if it cannot be read)."""
        try:
            return list(self.host.storage_keys())
        except Exception as exc:
            self._failed(exc)
            return []

    def remove(self, key: str) -> None:
        try:
            self.host.storage_remove(key)
        except Exception as exc:
            self._failed(exc)

    def readable(self) -> bool:
        """Whether the store can be read at all (without reporting a failure)."""
        try:
            self.host.storage_get(KEY_SAVE)
        except Exception:
            return False
        return True

    def probe(self) -> None:
        """Write and remove a key, so a store that refuses is reported at once."""
        if self.set(KEY_PROBE, "1"):
            self.remove(KEY_PROBE)

    # ------------------------------------------------------------------ the save

    def read_save(self) -> str | None:
        return self.get(KEY_SAVE)

    def write_save(self, raw: str, key: str = KEY_SAVE,
                   also: tuple[tuple[str, str], ...] = ()) -> SaveWrite:
        """Write ``raw`` under ``key`` unless another tab wrote there since this tab
        last wrote or read it (``CONFLICT``: nothing written), then the ``also`` pairs.
        The host compares and writes all of it in one call (``storage_write_if``;
        main.DomHost: one round trip from the worker for the whole save)."""
        try:
            outcome = self.host.storage_write_if(key, self.seen.get(key), raw, also)
        except Exception as exc:
            self._failed(exc)
            return SaveWrite.FAILED
        if outcome == "conflict":
            return SaveWrite.CONFLICT
        self.seen[key] = raw
        if outcome == "partial":  # the save is stored, the rest refused (store full)
            self._failed(outcome)
            return SaveWrite.WRITTEN
        if not self.ok:
            self.ok = True
            if self.on_recovery is not None:
                self.on_recovery()
        return SaveWrite.WRITTEN

    def write_save_soon(self, raw: str, key: str, also: tuple[tuple[str, str], ...],
                        on_conflict: Callable[[], None],
                        on_failed: Callable[[], None]) -> None:
        """``write_save`` sent with the render (no round trip), taken as written; the host
        tells later what was not: ``on_conflict``, ``on_failed`` (store full or blocked)."""
        expected, self.seen[key] = self.seen.get(key), raw

        def trouble(outcome: str) -> None:
            if outcome == "partial":  # the save is stored, the index refused
                self._failed(outcome)
                return
            if self.seen.get(key) == raw:  # nothing written: the store holds what it held
                self.seen[key] = expected  # (web/js/storage.js knows it too)
            if outcome == "conflict":
                on_conflict()
            else:
                self._failed(outcome)  # "full", or "failed": refused otherwise
                on_failed()

        self.host.storage_write_soon(key, expected, raw, also, trouble)

    def keep_aside(self, raw: str, key: str = KEY_SAVE,
                   prefix: str = KEY_BROKEN) -> tuple[str, bool]:
        """A save that cannot be loaded: copied to its own key, then removed from
        ``key``. Returns (copy's key, kept); if the copy fails the save stays where it
        is and this session never saves over it."""
        copy = prefix + self.host.now_iso().replace(":", "-")
        n = 2
        while copy in self.broken or (self.get(copy) is not None):
            copy = f"{prefix}{self.host.now_iso().replace(':', '-')}-{n}"
            n += 1
        self.broken[copy] = raw
        if self.set(copy, raw):
            self.remove(key)
            return copy, True
        self.held = True
        return copy, False

    def broken_text(self, key: str) -> str:
        return self.broken.get(key) or self.get(key) or ""

    # ------------------------------------------------------------------ settings, seats

    def _settings(self) -> dict[str, Any]:
        raw = self.get(KEY_SETTINGS)
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            return {}
        return data if isinstance(data, dict) else {}

    def _setting(self, name: str) -> str | None:
        value = self._settings().get(name)
        return value if isinstance(value, str) else None

    def settings_problem(self) -> tuple[str, dict[str, str]] | None:
        """Why the stored settings cannot be read (a code of ``error.settings.*`` and its
        params: ``json_syntax``, ``settings_format``, ``settings_lang``, ``settings_sound``),
        None when they can (or there are none)."""
        raw = self.get(KEY_SETTINGS)
        if raw is None:
            return None
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            return "json_syntax", {}
        if not isinstance(data, dict):
            return "settings_format", {}
        lang = data.get("lang")
        if lang is not None and lang not in LANGS:
            return "settings_lang", {"lang": str(lang)[:20]}
        sound = data.get("sound")
        if sound is not None and sound not in SOUND_VALUES:
            return "settings_sound", {"sound": str(sound)[:20]}
        return None

    def keep_settings_aside(self) -> tuple[str, bool]:
        """Settings that cannot be read: copied byte for byte to their own key, then
        removed, so the defaults apply. Returns (copy's key, kept)."""
        raw = self.get(KEY_SETTINGS) or ""
        copy = KEY_SETTINGS_BROKEN + self.host.now_iso().replace(":", "-")
        self.broken[copy] = raw
        kept = self.set(copy, raw)
        if kept:
            self.remove(KEY_SETTINGS)
        return copy, kept

    def _save_setting(self, name: str, value: str) -> None:
        """One setting changed, the others kept ({"v": 1, "lang": …, "pace": …})."""
        self.set(KEY_SETTINGS, json.dumps({**self._settings(), "v": 1, name: value}))

    def load_lang(self) -> str | None:
        return self._setting("lang")

    def save_lang(self, lang: str) -> None:
        self._save_setting("lang", lang)

    def load_pace(self) -> str | None:
        return self._setting("pace")

    def save_pace(self, pace: str) -> None:
        self._save_setting("pace", pace)

    def load_sound(self) -> bool:
        """The page's sounds: on only when the player turned them on."""
        return self._setting("sound") == "on"

    def save_sound(self, on: bool) -> None:
        self._save_setting("sound", "on" if on else "off")

    def load_help(self, kind: str) -> bool | None:
        """Whether the computer's help (Hint and the chart) is on in games of ``kind``
        (None: not chosen, or unknown). Its key ``chances.<kind>`` was the chart's alone."""
        return {"on": True, "off": False}.get(self._setting("chances." + kind) or "")

    def save_help(self, kind: str, on: bool) -> None:
        self._save_setting("chances." + kind, "on" if on else "off")

    def load_tutorial(self) -> str | None:
        """The guided first game left running (web/tutorial.py: its step as JSON)."""
        return self._setting("tutorial")

    def save_tutorial(self, value: str | None) -> None:
        """Keep the tutorial's step (None: it ended, the setting goes)."""
        if value is not None:
            self._save_setting("tutorial", value)
        elif "tutorial" in self._settings():
            rest = {k: v for k, v in self._settings().items() if k != "tutorial"}
            self.set(KEY_SETTINGS, json.dumps({**rest, "v": 1}))


class Records:
    """Solo records (``skyline.records.solo_records``): best score per scenario slot
    ("-" = none), levels, scenarios met, and per daily challenge (``daily``: day ->
    {"best", "plays", "expert"}: the expert's score on the day's dice, once played).

    ``load`` reads them with the total reader; records that cannot be read in full are
    copied byte for byte to ``skyline.records.broken.<time>`` and what could be read goes
    on (written back once the copy is safe). Records of a newer version are copied too
    and never written over (``held``): this page counts new games in memory only."""

    def __init__(self) -> None:
        self.data: dict[str, Any] = empty_solo_records()
        self.problem: SoloRecordsError | None = None
        self.broken_key: str | None = None
        self.kept = False  # the damaged text was copied aside
        self.held = False  # never write the records (newer version, or not kept aside)

    @property
    def best(self) -> dict[str, Any]:
        best: dict[str, Any] = self.data["best"]
        return best

    def load(self, store: Store) -> None:
        raw = store.get(KEY_RECORDS)
        if raw is None:
            return
        self.data, self.problem = read_solo_records(raw)
        if self.problem is None:
            return
        key = KEY_RECORDS_BROKEN + store.host.now_iso().replace(":", "-")
        store.broken[key] = raw
        self.broken_key = key
        self.kept = store.set(key, raw)
        newer = self.problem.code == "records_version" and self.problem.params.get("newer")
        self.held = bool(newer) or not self.kept
        if not self.held:
            store.set(KEY_RECORDS, solo_records_json(self.data))

    def record(self, board: Board, store: Store) -> bool:
        """Count a finished solo game once. Returns whether it was counted now."""
        if not board.is_game_over() or not board.state.solo:
            return False
        game_id = game_key(board)
        if game_id in self.data["seen"]:
            return False
        info = read_summary(board.state)
        points = info.players[0].score
        slot = board.options.scenario or "-"
        best = self.data["best"]
        previous = best.get(slot)
        if not isinstance(previous, int) or points > previous:
            best[slot] = points
        levels = self.data["levels"]
        if info.level:
            levels[info.level] = levels.get(info.level, 0) + 1
        if info.scenario and info.scenario_met:
            done = self.data["scenarios"]
            done[info.scenario] = done.get(info.scenario, 0) + 1
        day = daily_day(board.options)
        if day is not None:
            row = self.data["daily"].get(day.isoformat())
            row = dict(row) if isinstance(row, dict) else {}
            old = row.get("best")
            row["best"] = points if not isinstance(old, int) or points > old else old
            plays = row.get("plays")
            row["plays"] = (plays if isinstance(plays, int) else 0) + 1
            self.data["daily"][day.isoformat()] = row
        self.data["seen"] = (self.data["seen"] + [game_id])[-50:]
        if not self.held:
            store.set(KEY_RECORDS, solo_records_json(self.data))
        return True

    def daily_expert(self, day: str) -> int | None:
        """The expert's score on the dice of the daily challenge of ``day``, if known."""
        row = self.data["daily"].get(day)
        figure = row.get("expert") if isinstance(row, dict) else None
        return figure if type(figure) is int and figure >= 0 else None

    def keep_daily_expert(self, day: str, points: int, store: Store, write: bool = True) -> None:
        """Keep the expert's score on the dice of ``day`` with the day's record (written
        unless ``write`` is False: a tab that only watches keeps it in memory)."""
        row = self.data["daily"].get(day)
        self.data["daily"][day] = {**(row if isinstance(row, dict) else {}), "expert": points}
        if write and not self.held:
            store.set(KEY_RECORDS, solo_records_json(self.data))


class History:
    """Every finished game, oldest first (``game_stats``), stored under ``KEY_HISTORY``.

    ``load`` reads it with the total reader; a history that cannot be read in full is
    copied to ``skyline.history.broken.<time>`` and the readable entries go on (the
    clean history is written back only once the copy is safe). ``append`` adds a game
    once (by its key) and stores the whole history; if the store refuses (full,
    blocked) the history lives on in memory for this session and ``Store`` reports it."""

    def __init__(self) -> None:
        self.results: list[GameResult] = []
        self.problem: HistoryError | None = None
        self.broken_key: str | None = None
        self.held = False  # a damaged history could not be kept aside: never write over it

    def load(self, store: Store) -> None:
        raw = store.get(KEY_HISTORY)
        if raw is None:
            return
        self.results, self.problem = read_history(raw)
        if self.problem is None:
            return
        key = KEY_HISTORY_BROKEN + store.host.now_iso().replace(":", "-")
        store.broken[key] = raw
        self.broken_key = key
        if store.set(key, raw):
            store.set(KEY_HISTORY, history_json(self.results))
        else:
            self.held = True

    def append(self, result: GameResult, store: Store) -> bool:
        """Add a finished game (once); returns whether it was new."""
        if any(r.id == result.id for r in self.results[-50:]):
            return False
        self.results.append(result)
        if not self.held:
            store.set(KEY_HISTORY, history_json(self.results))
        return True


class TabLock:
    """The game lock: ``take`` asks the host to take it over from another tab; the
    answer ("granted", "busy", "lost") comes back through ``on_result``."""

    def __init__(self, host: Host) -> None:
        self.host = host

    def take(self, on_result: Callable[[str], None]) -> None:
        self.host.take_lock(on_result)


class Library:
    """The game list in storage: ``skyline.game.<id>`` per game plus the index
    ``skyline.games`` (``skyline.games`` module doc). The entries are the truth, the
    index a cache that is rebuilt from them. Saving one game never rewrites another,
    and never over a text this tab has not seen (``Store.write_save`` per key)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.games = GameList()
        # Entries that could not be read: (storage key they were kept aside under, error).
        self.broken: list[tuple[str, SaveError, bool]] = []

    # ------------------------------------------------------------------ loading

    def load(self, now: str | None = None) -> None:
        """Read the index and every entry; unreadable entries are kept aside."""
        store = self.store
        index = None
        raw_index = store.get(KEY_INDEX)
        if raw_index is not None:
            try:
                index = read_index(raw_index)
            except SaveError:
                index = None  # rebuilt from the entries below
        entries = []
        for key in sorted(store.keys()):
            if not key.startswith(KEY_GAME):
                continue
            raw = store.get(key)
            if raw is None:
                continue
            try:
                entry = read_entry(raw)
                if entry_key(entry.id) != key:
                    raise SaveError("entry_field", "the game is stored under another key",
                                    field="id")
            except SaveError as exc:
                copy, kept = store.keep_aside(raw, key, KEY_GAME_BROKEN)
                self.broken.append((copy, exc, kept))
                continue
            store.seen[key] = raw
            entries.append(entry)
        self.games = GameList.from_entries(entries, index)
        if index is None or [r.id for r in index.rows] != list(self.games.entries):
            self.write_index()

    def migrate(self, raw: str, seats_raw: str | None, now: str | None) -> GameEntry:
        """The old single save (any shipped version) into the list; raises SaveError
        if it cannot be read. Returns the entry it became (also the open game)."""
        entry = migrate_single_save(raw, seats_raw, now)
        link = GameLink(entry.board, link_seats(entry.seats), entry.nonce, entry.game)
        reception = self.games.receive(link, now)
        if reception.kind == "same":
            assert reception.entry_id is not None  # "same" names the stored game
            same = self.games.get(reception.entry_id)
            assert same is not None
            entry = same
        elif reception.kind == "update":
            assert reception.entry is not None  # "update" carries the continued entry
            entry = reception.entry
        elif reception.kind in ("stale", "diverged"):
            entry = self.side_entry(entry)
        if self.write(entry) is SaveWrite.WRITTEN or not self.store.ok:
            self.store.remove(KEY_SAVE)
            self.store.remove(KEY_SEATS)
        return entry

    def side_entry(self, entry: GameEntry) -> GameEntry:
        """``entry`` under a free id beside the game of the same id (never over it)."""
        if entry.id not in self.games and entry.id == entry.game:
            return entry
        number = 2
        while f"{entry.game}-{number}" in self.games:
            number += 1
        # a copy beside is no live table: the room stays the stored game's
        return entry._replace(id=f"{entry.game}-{number}", diverged_from=entry.game, live="")

    # ------------------------------------------------------------------ writing

    def write(self, entry: GameEntry, current: bool = True) -> SaveWrite:
        """Store one entry (and the index). ``CONFLICT``: another tab changed this
        game since this tab saw it; nothing is written."""
        # the index as it will be, sent with the entry: one crossing for the whole save
        before, was_current = self.games.get(entry.id), self.games.current
        self.games.put(entry)
        if current:
            self.games.current = entry.id
        index = self.games.index_json()
        result = self.store.write_save(entry_to_json(entry), entry_key(entry.id),
                                       also=((KEY_INDEX, index),))
        if result is SaveWrite.CONFLICT:  # nothing written: the list stays as it was
            if before is None:
                self.games.remove(entry.id)
            else:
                self.games.put(before)
            self.games.current = was_current
        elif result is SaveWrite.FAILED:
            self.write_index()  # the list changed in memory; its index may still fit
        return result

    def write_soon(self, entry: GameEntry, on_conflict: Callable[[], None]) -> None:
        """``write`` sent with the render; ``on_conflict``: another tab had saved it."""
        self.games.put(entry)
        self.games.current = entry.id
        index = ((KEY_INDEX, self.games.index_json()),)
        self.store.write_save_soon(entry_to_json(entry), entry_key(entry.id), index,
                                   on_conflict, self.write_index)

    def write_index(self) -> None:
        self.store.set(KEY_INDEX, self.games.index_json())

    def reread(self, entry_id: str) -> tuple[GameEntry | None, str | None]:
        """The stored entry (another tab may have changed it): (entry, raw)."""
        raw = self.store.get(entry_key(entry_id))
        if raw is None:
            return None, None
        try:
            entry = read_entry(raw)
        except SaveError:
            return None, raw
        self.store.seen[entry_key(entry_id)] = raw
        self.games.put(entry)
        return entry, raw

    def delete(self, entry_id: str) -> GameEntry | None:
        """Remove a game from the list and storage (the caller keeps it for undo)."""
        entry = self.games.remove(entry_id)
        if entry is not None:
            self.store.remove(entry_key(entry_id))
            self.store.seen.pop(entry_key(entry_id), None)
            self.write_index()
        return entry

    def restore(self, entry: GameEntry) -> SaveWrite:
        """Undo a delete: the entry is stored again (not made the open game)."""
        self.store.seen.pop(entry_key(entry.id), None)
        if self.store.get(entry_key(entry.id)) is not None:
            return SaveWrite.CONFLICT  # another tab stored a game under that id meanwhile
        return self.write(entry, current=False)
