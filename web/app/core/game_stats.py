"""The player's statistics: the history of finished games, read totally, and what the
statistics page shows (pure data, no browser, no storage: ``store.History`` keeps it).

- ``GameResult``: one finished game (when, mode, scenario, score, level, every seat's
  kind, score and rank). ``result_of(board, seats, at, day)`` makes it from the engine's
  summary; the page never scores a game itself.
- ``read_history(raw)``: total reader of the stored history (versioned JSON). It never
  raises: it returns the entries it could read and the first problem found
  (``HistoryError`` with a stable ``code``), so the page can keep the stored text aside.
- ``summarize(results, records)``: the figures of the statistics page (solo scores over
  time, best per scenario, levels and scenarios achieved, daily challenges, results
  against each computer level).
- ``export_json(results, records, at)``: everything as one JSON document.
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from app.core.page_state import HUMAN
from skyline import COMPUTER_LEVELS, SCENARIOS, SOLO_LEVELS, Board, Seat, game_summary
from skyline.records.daily import daily_day

HISTORY_VERSION = 1
HISTORY_KIND = "skyline-history"
MAX_HISTORY = 1000  # entries kept (oldest dropped first): about 200 KB of storage
MAX_HISTORY_CHARS = 1_000_000
MODES = ("solo", "daily", "multi")
LEVEL_NAMES = tuple(name for _, name in sorted(SOLO_LEVELS))
SEAT_KINDS = (HUMAN, *COMPUTER_LEVELS)
_ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_ISO_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]{5,20}Z?")


class HistoryError(ValueError):
    """The stored history (or one entry of it) cannot be read; ``code`` says why:
    ``history_size``, ``json_syntax``, ``history_format``, ``history_version`` or
    ``history_entry`` (``number``: the first bad entry, counted from 1)."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class SeatResult:
    name: str
    kind: str  # "human" or a computer level
    score: int
    rank: int


@dataclass(frozen=True)
class GameResult:
    """One finished game as the statistics keep it."""

    id: str  # the game (seed, scenario, record checksum): the same game is kept once
    at: str  # when it ended (ISO time, UTC)
    day: str  # the player's local calendar day (YYYY-MM-DD)
    mode: str  # "solo", "daily" or "multi"
    scenario: str | None
    nine: bool
    seats: tuple[SeatResult, ...]
    level: str | None = None  # solo level reached
    scenario_met: bool | None = None

    @property
    def score(self) -> int:
        """Solo: the score; several players: the best score of a human seat (else 0)."""
        scores = [s.score for s in self.seats if s.kind == HUMAN]
        return max(scores) if scores else 0

    @property
    def placement(self) -> int | None:
        """The best rank of a human seat (None if no seat was played by a human)."""
        ranks = [s.rank for s in self.seats if s.kind == HUMAN]
        return min(ranks) if ranks else None

    @property
    def computer_levels(self) -> tuple[str, ...]:
        return tuple(sorted({s.kind for s in self.seats if s.kind != HUMAN}))

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "at": self.at, "day": self.day, "mode": self.mode,
            "scenario": self.scenario, "nine": self.nine, "level": self.level,
            "scenario_met": self.scenario_met,
            "seats": [{"name": s.name, "kind": s.kind, "score": s.score, "rank": s.rank}
                      for s in self.seats],
        }


def game_key(board: Board) -> str:
    """The same finished game gives the same key (seed, scenario, record checksum)."""
    record = board.record()
    return f"{board.options.seed}|{board.options.scenario or '-'}|{len(board.actions)}|" \
           f"{zlib.crc32(record.encode('utf-8')):08x}"


def _level_or_human(seat: Seat | None) -> str:
    """A seat as the history counts it: its computer level, or human (here or elsewhere)."""
    return seat.level if seat is not None and seat.level is not None else HUMAN


def result_of(board: Board, seats: dict[int, Seat], at: str, day: str) -> GameResult:
    """The result of a finished game; ``seats``: the page's seats (others a person here)."""
    if not board.is_game_over():
        raise ValueError("stats: the game is not over")
    info = game_summary(board.state)
    if board.state.solo:
        mode = "daily" if daily_day(board.options) is not None else "solo"
    else:
        mode = "multi"
    seat_rows = tuple(
        SeatResult(p.name, _level_or_human(seats.get(p.seat)), p.score, p.rank)
        for p in info.players
    )
    return GameResult(
        id=game_key(board), at=at, day=day, mode=mode, scenario=board.options.scenario,
        nine=bool(board.options.all_nine), seats=seat_rows,
        level=info.level if board.state.solo else None,
        scenario_met=info.scenario_met if board.options.scenario else None,
    )


# ---------------------------------------------------------------------------- reading


def _entry(data: object) -> GameResult:
    """One stored entry; ``ValueError`` if any field is not what the page writes."""
    if not isinstance(data, dict):
        raise ValueError("not an object")

    def text(key: str, limit: int, pattern: re.Pattern[str] | None = None) -> str:
        value = data.get(key)
        if not isinstance(value, str) or not 0 < len(value) <= limit:
            raise ValueError(key)
        if pattern is not None and not pattern.fullmatch(value):
            raise ValueError(key)
        return value

    mode = data.get("mode")
    if mode not in MODES:
        raise ValueError("mode")
    scenario = data.get("scenario")
    if scenario is not None and scenario not in SCENARIOS:
        raise ValueError("scenario")
    level = data.get("level")
    if level is not None and level not in LEVEL_NAMES:
        raise ValueError("level")
    met = data.get("scenario_met")
    nine = data.get("nine")
    if met not in (None, True, False) or nine not in (True, False):
        raise ValueError("flags")
    rows = data.get("seats")
    if not isinstance(rows, list) or not 1 <= len(rows) <= 4:
        raise ValueError("seats")
    seats = []
    for row in rows:
        if not isinstance(row, dict):
            raise ValueError("seat")
        name, kind, score, rank = (row.get(k) for k in ("name", "kind", "score", "rank"))
        if not isinstance(name, str) or not 0 < len(name) <= 24 or kind not in SEAT_KINDS:
            raise ValueError("seat")
        for number, high in ((score, 1000), (rank, len(rows))):
            if type(number) is not int or not 0 <= number <= high:
                raise ValueError("seat")
        assert isinstance(score, int) and isinstance(rank, int)  # checked just above
        if rank < 1:
            raise ValueError("seat")
        seats.append(SeatResult(name, kind, score, rank))
    if (mode == "multi") != (len(seats) > 1):
        raise ValueError("mode")
    return GameResult(
        id=text("id", 200), at=text("at", 40, _ISO_TIME), day=text("day", 10, _ISO_DAY),
        mode=mode, scenario=scenario, nine=nine, seats=tuple(seats), level=level,
        scenario_met=met,
    )


def read_history(raw: object) -> tuple[list[GameResult], HistoryError | None]:
    """The entries of a stored history and the first problem (None if it is clean).

    Total: any input gives a list (possibly empty) and never raises. Entries that
    cannot be read are left out; the caller keeps the raw text aside when the problem
    is not None, so nothing is lost."""
    if not isinstance(raw, str) or len(raw) > MAX_HISTORY_CHARS:
        return [], HistoryError("history_size", "the history is not text of a sane size")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return [], HistoryError("json_syntax", "the history is not JSON")
    if not isinstance(data, dict) or data.get("kind") != HISTORY_KIND:
        return [], HistoryError("history_format", "this is not a Skyline history")
    if data.get("v") != HISTORY_VERSION:
        return [], HistoryError("history_version", "unknown history version",
                                version=str(data.get("v"))[:20])
    games = data.get("games")
    if not isinstance(games, list):
        return [], HistoryError("history_format", "the history has no list of games")
    out: list[GameResult] = []
    problem = None
    seen: set[str] = set()
    for number, item in enumerate(games[-MAX_HISTORY:], start=1):
        try:
            entry = _entry(item)
        except (ValueError, TypeError) as exc:
            if problem is None:
                problem = HistoryError("history_entry", f"entry {number} is damaged ({exc})",
                                       number=number)
            continue
        if entry.id not in seen:
            seen.add(entry.id)
            out.append(entry)
    return out, problem


def history_json(results: list[GameResult]) -> str:
    """The stored form (``read_history`` reads it back)."""
    data = {"v": HISTORY_VERSION, "kind": HISTORY_KIND,
            "games": [r.to_json() for r in results[-MAX_HISTORY:]]}
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


# ---------------------------------------------------------------------------- figures


@dataclass(frozen=True)
class ScenarioBest:
    scenario: str | None  # None: no scenario
    best: int
    games: int
    met: int


@dataclass(frozen=True)
class LevelResults:
    """The results against one computer level (:func:`level_results`), as the rating
    counts them."""

    level: str  # computer level
    games: int
    won: int
    drawn: int
    lost: int


@dataclass(frozen=True)
class LevelResult:
    """One result against a computer level: 1, 0.5 or 0 for the player."""

    at: str  # when the game ended
    game: str  # the game's id (GameResult.id)
    level: str
    points: float


@dataclass(frozen=True)
class DailyBest:
    day: str
    best: int
    plays: int


@dataclass(frozen=True)
class Summary:
    solo: tuple[GameResult, ...]  # solo games (daily included), oldest first
    scenarios: tuple[ScenarioBest, ...]
    levels: tuple[tuple[str, int], ...]  # (solo level, times reached), lowest level first
    scenarios_met: tuple[tuple[str, int], ...]  # (scenario, times met)
    daily: tuple[DailyBest, ...]  # newest day first
    versus: tuple[LevelResults, ...]  # per computer level, in COMPUTER_LEVELS order
    multi_humans_only: int  # games of several players without a computer
    games: int


def _int(value: object) -> int | None:
    return value if type(value) is int and value >= 0 else None


def summarize(results: list[GameResult], records: dict[str, Any] | None = None) -> Summary:
    """The statistics page's figures. ``records`` (``store.Records.data``) adds what was
    recorded before the history existed: best scores, levels, scenarios, daily bests."""
    records = records or {}
    solo = tuple(r for r in results if r.mode != "multi")
    slots: dict[str | None, list[int]] = {}
    for r in solo:
        s = slots.setdefault(r.scenario, [0, 0, 0])
        s[0] = max(s[0], r.score)
        s[1] += 1
        s[2] += 1 if r.scenario_met else 0
    for slot, best in dict(records.get("best") or {}).items():
        key = None if slot == "-" else slot
        if _int(best) is not None and (key is None or key in SCENARIOS):
            s = slots.setdefault(key, [0, 0, 0])
            s[0] = max(s[0], best)
    order = (None, *SCENARIOS)
    scenarios = tuple(ScenarioBest(k, *slots[k]) for k in order if k in slots)

    levels: dict[str, int] = {}
    met: dict[str, int] = {}
    for r in solo:
        if r.level:
            levels[r.level] = levels.get(r.level, 0) + 1
        if r.scenario and r.scenario_met:
            met[r.scenario] = met.get(r.scenario, 0) + 1
    for source, target, names in ((records.get("levels"), levels, LEVEL_NAMES),
                                  (records.get("scenarios"), met, SCENARIOS)):
        for name, count in dict(source or {}).items():
            if name in names and _int(count) is not None:
                target[name] = max(target.get(name, 0), count)

    daily: dict[str, list[int]] = {}
    for r in solo:
        if r.mode == "daily":
            d = daily.setdefault(daily_key(r), [0, 0])
            d[0] = max(d[0], r.score)
            d[1] += 1
    for day, row in dict(records.get("daily") or {}).items():
        if isinstance(row, dict) and isinstance(day, str) and _ISO_DAY.fullmatch(day):
            best, plays = _int(row.get("best")), _int(row.get("plays"))
            if best is not None:
                d = daily.setdefault(day, [0, 0])
                d[0] = max(d[0], best)
                d[1] = max(d[1], plays or 0)

    found = level_results(results, records.get("daily"))
    versus = []
    for level in COMPUTER_LEVELS:
        points = [r.points for r in found if r.level == level]
        versus.append(LevelResults(level, len(points), points.count(1.0), points.count(0.5),
                                   points.count(0.0)))
    humans_only = sum(1 for r in results if r.mode == "multi" and not r.computer_levels)
    return Summary(
        solo=solo,
        scenarios=scenarios,
        levels=tuple((name, levels[name]) for name in LEVEL_NAMES if name in levels),
        scenarios_met=tuple((name, met[name]) for name in SCENARIOS if name in met),
        daily=tuple(DailyBest(day, *daily[day]) for day in sorted(daily, reverse=True)),
        versus=tuple(versus),
        multi_humans_only=humans_only,
        games=len(results),
    )


def _versus(points: int, other: int) -> float:
    return 1.0 if points > other else 0.5 if points == other else 0.0


def level_results(results: Iterable[GameResult],
                  daily: Mapping[str, Any] | None = None) -> tuple[LevelResult, ...]:
    """Every result against a computer level in ``results`` (the history), with the daily
    records ``daily`` (day -> {"expert": points, ...}), in chronological order."""
    games = sorted(results, key=lambda r: (r.at, r.id))
    out: list[LevelResult] = []
    days_counted: set[str] = set()
    for r in games:
        if r.mode == "multi":
            if r.placement is None:
                continue
            for seat in r.seats:
                if seat.kind in COMPUTER_LEVELS:
                    points = _versus(-r.placement, -seat.rank)  # a lower rank is better
                    out.append(LevelResult(r.at, r.id, seat.kind, points))
        elif r.mode == "daily":
            day = daily_key(r)
            if day in days_counted:
                continue
            days_counted.add(day)  # the first play only, whether or not expert has played
            row = (daily or {}).get(day)
            figure = row.get("expert") if isinstance(row, dict) else None
            if type(figure) is int and figure >= 0:
                out.append(LevelResult(r.at, r.id, "expert", _versus(r.score, figure)))
    return tuple(out)


def daily_key(result: GameResult) -> str:
    """The challenge's day of a daily result (its seed's day, not the day it was played)."""
    seed = result.id.split("|", 1)[0]
    return seed.removeprefix("daily-") if seed.startswith("daily-") else result.day


def export_json(results: list[GameResult], records: dict[str, Any], at: str) -> str:
    """All statistics as one JSON document (the page offers it as a download)."""
    s = summarize(results, records)
    data = {
        "kind": "skyline-statistics",
        "v": 1,
        "exported_at": at,
        "history": [r.to_json() for r in results],
        "best": {("-" if b.scenario is None else b.scenario): b.best for b in s.scenarios},
        "levels": dict(s.levels),
        "scenarios_met": dict(s.scenarios_met),
        "daily": {d.day: {"best": d.best, "plays": d.plays} for d in s.daily},
        "versus": {v.level: {"games": v.games, "won": v.won, "drawn": v.drawn,
                             "lost": v.lost} for v in s.versus},
        "records": records,
    }
    return json.dumps(data, indent=1, ensure_ascii=False)
