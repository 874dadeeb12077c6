"""What the page keeps in the browser, behind the host port (``main.DomHost``).

- ``Store``: localStorage through the host, never raising: a failing store
  (``QuotaExceededError``, ``SecurityError``) is reported once through ``on_failure``
  and the game goes on in memory. It writes the save only over the text it last wrote
  or read (``write_save``), keeps unreadable saves aside, and stores the settings and
  the computer seats of the saved game.
- ``Records``: the solo records (best score per scenario, levels reached, scenarios met).
- ``TabLock``: one tab at a time may move (Web Locks in ``DomHost``).

Nothing here imports the browser, so it runs under CPython with a fake host.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from enum import Enum
from typing import Any

from page_state import COMPUTER_LEVELS
from screen import read_summary

from skyline import Board, Options

KEY_SAVE = "skyline.save"
KEY_SETTINGS = "skyline.settings"
KEY_RECORDS = "skyline.records"
KEY_BROKEN = "skyline.save.broken."
KEY_PROBE = "skyline.probe"
KEY_SEATS = "skyline.seats"


class SaveWrite(Enum):
    WRITTEN = "written"
    CONFLICT = "conflict"  # another tab saved since this one last wrote or read
    FAILED = "failed"  # the store refused (full, blocked)


class Store:
    """localStorage through the host; every failure is reported, none raises."""

    def __init__(self, host, on_failure: Callable[[], None]) -> None:
        self.host = host
        self.on_failure = on_failure
        self.ok = True
        # The save text this tab last wrote or read: before writing, the stored one must
        # still be it, else another tab saved in between and is never silently overwritten.
        self.last_raw: str | None = None
        self.held = False  # a broken save could not be kept aside: never save over it
        self.broken: dict[str, str] = {}  # key -> raw text of saves kept aside

    def _failed(self) -> None:
        if self.ok:
            self.ok = False
            self.on_failure()

    def get(self, key: str) -> str | None:
        try:
            return self.host.storage_get(key)
        except Exception:  # noqa: BLE001 - SecurityError, ...
            self._failed()
            return None

    def set(self, key: str, value: str) -> bool:
        try:
            self.host.storage_set(key, value)
        except Exception:  # noqa: BLE001 - SecurityError, QuotaExceededError, ...
            self._failed()
            return False
        return True

    def remove(self, key: str) -> None:
        try:
            self.host.storage_remove(key)
        except Exception:  # noqa: BLE001
            self._failed()

    def readable(self) -> bool:
        """Whether the store can be read at all (without reporting a failure)."""
        try:
            self.host.storage_get(KEY_SAVE)
        except Exception:  # noqa: BLE001 - no storage: this tab's game is its own
            return False
        return True

    def probe(self) -> None:
        """Write and remove a key, so a store that refuses is reported at once."""
        if self.set(KEY_PROBE, "1"):
            self.remove(KEY_PROBE)

    # ------------------------------------------------------------------ the save

    def read_save(self) -> str | None:
        return self.get(KEY_SAVE)

    def write_save(self, raw: str) -> SaveWrite:
        stored = self.get(KEY_SAVE)
        if stored is not None and stored != self.last_raw:
            return SaveWrite.CONFLICT
        if self.set(KEY_SAVE, raw):
            self.last_raw = raw
            return SaveWrite.WRITTEN
        return SaveWrite.FAILED

    def keep_aside(self, raw: str) -> tuple[str, bool]:
        """A save that cannot be loaded: copied to its own key, then removed from the
        game's key. Returns (key, kept); if the copy fails the save stays where it is
        and this session never saves over it."""
        key = KEY_BROKEN + self.host.now_iso().replace(":", "-")
        self.broken[key] = raw
        if self.set(key, raw):
            self.remove(KEY_SAVE)
            return key, True
        self.held = True
        return key, False

    def broken_text(self, key: str) -> str:
        return self.broken.get(key) or self.get(key) or ""

    # ------------------------------------------------------------------ settings, seats

    def load_lang(self) -> str | None:
        raw = self.get(KEY_SETTINGS)
        if not raw:
            return None
        try:
            lang = json.loads(raw).get("lang")
        except (ValueError, AttributeError):
            return None
        return lang if isinstance(lang, str) else None

    def save_lang(self, lang: str) -> None:
        self.set(KEY_SETTINGS, json.dumps({"v": 1, "lang": lang}))

    def save_seats(self, options: Options, seats: dict[int, str]) -> None:
        """The computer seats of the saved game, with its seed and names."""
        data = {
            "v": 1,
            "seed": options.seed,
            "names": list(options.names),
            "bots": {str(i): level for i, level in sorted(seats.items())},
        }
        self.set(KEY_SEATS, json.dumps(data, separators=(",", ":"), ensure_ascii=False))

    def load_seats(self, options: Options) -> dict[int, str]:
        """The stored computer seats if they belong to this game (same seed and names)."""
        raw = self.get(KEY_SEATS)
        if not raw:
            return {}
        try:
            data = json.loads(raw)
            if data.get("seed") != options.seed or data.get("names") != list(options.names):
                return {}
            bots = {int(k): v for k, v in dict(data.get("bots") or {}).items()}
        except (ValueError, TypeError, AttributeError):
            return {}
        n = len(options.names)
        return {i: v for i, v in bots.items() if 0 <= i < n and v in COMPUTER_LEVELS}


class Records:
    """Solo records: best score per scenario slot ("-" = none), levels, scenarios met."""

    def __init__(self) -> None:
        self.data: dict[str, Any] = {"v": 1, "best": {}, "levels": {}, "scenarios": {},
                                     "seen": []}

    @property
    def best(self) -> dict[str, Any]:
        return self.data["best"]

    def load(self, store: Store) -> None:
        raw = store.get(KEY_RECORDS)
        if not raw:
            return
        try:
            data = json.loads(raw)
        except ValueError:
            return
        if isinstance(data, dict) and data.get("v") == 1:
            for key in ("best", "levels", "scenarios"):
                if isinstance(data.get(key), dict):
                    self.data[key] = data[key]
            if isinstance(data.get("seen"), list):
                self.data["seen"] = data["seen"][-50:]

    def record(self, board: Board, store: Store) -> tuple[bool, int | None]:
        """Count a finished solo game once. Returns (counted, previous best)."""
        if not board.is_game_over() or not board.state.solo:
            return False, None
        game_id = f"{board.options.seed}|{board.options.scenario}|{len(board.actions)}"
        if game_id in self.data["seen"]:
            return False, None
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
        self.data["seen"] = (self.data["seen"] + [game_id])[-50:]
        store.set(KEY_RECORDS, json.dumps(self.data))
        return True, previous if isinstance(previous, int) else None


class TabLock:
    """The game lock: ``take`` asks the host to take it over from another tab; the
    answer ("granted", "busy", "lost") comes back through ``on_result``."""

    def __init__(self, host) -> None:
        self.host = host

    def take(self, on_result: Callable[[str], None]) -> None:
        self.host.take_lock(on_result)
