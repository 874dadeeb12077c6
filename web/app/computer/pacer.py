"""Computer players' pacing, the reviews' grading and the page's bot measurements.

Computer seats are part of the page state (``page_state.PageState.seats``) and the
controller (``app.controller.Controller``): it refuses human commands during a computer's
turn, carries the seats through the new-game dialog, links and saves, and plays one
computer action per ``Controller.step_computer()``. This module is the timer around it,
attached with ``Controller.attach`` (it implements ``app.computer.seats.ComputerDriver``):

- ``wake()``: during a computer's turn, ``step_computer`` runs every ``PACE_MS``;
  "Skip" (``page.skipping``) plays the remaining actions at ``SKIP_MS`` intervals, one
  action (a few ms of thinking) per tick, so the board keeps rendering and never
  freezes. The computer waits while a dialog is open or a choice is pending.
- a friend's turn that came by link (``page.playback``, ``app.turn.playback``): one
  action per tick at the same pace, before any computer moves;
- the review of a finished solo game (``page.review``), graded decision by decision in
  ticks of at most ``CHUNK_MS``; of a finished game of 2-4 players (``page.table_review``,
  ``skyline.players.table_review``) the same way;
- the day's benchmark (``app.computer.daily_bench``): once a daily challenge is over, the
  expert plays the same day's dice in ticks of at most ``CHUNK_MS``;
- the chances as the game goes (``page.chances``, ``app.computer.chances``): after every
  turn, valued in idle ticks of at most ``CHANCES_CHUNK_MS``, each turn once, from the
  end of the first turn on (before that nothing is fetched for it);
- ``warm``: once the solo value table has been fetched (on first need: a computer
  player, Hint or the review; ``Controller.need_data``), the rest of it is decoded one
  level per idle tick;
- ``js_api``: thinking times and benchmarks for the e2e tests and scripts.

``schedule(ms, fn)`` is ``setTimeout`` in the browser; tests pass a fake one. The idle
work (the reviews, the chart, the day's benchmark, decoding the value table) may have a
timer of its own (``idle``: in the worker, the worker's, which a click never waits for);
a computer's moves keep the page's.
"""

from __future__ import annotations

import functools
import json
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from app.computer.daily_bench import BenchJob
from app.computer.seats import value_table_ready
from app.computer.state import (
    ChancesProgress,
    ReviewProgress,
    TableReviewProgress,
    chances_of,
    review_of,
    table_review_of,
)
from app.core.page_state import PACES, PageState
from skyline import Board, Options, Phase, apply_action, new_game
from skyline.players.bots import BOTS

if TYPE_CHECKING:  # imported when first needed (the page keeps it off the start-up path)
    from skyline.players.chances import ChancesRun
    from skyline.players.review import ReviewRun
    from skyline.players.table_review import TableReviewRun

PACE_MS = PACES["normal"]  # a dialog open: look again this often
SKIP_MS = 15
CHUNK_MS = 60
CHANCES_IDLE_MS = 40  # the pause before each chunk of the chart's values: clicks go first
CHANCES_CHUNK_MS = 30
WARM_MS = 1500  # start decoding the solo table this long after boot, one level per tick


def load_table_quickly() -> None:
    """Install the solo table from the package folder unless one is loaded; the page
    keeps it off the start-up path (``MissingTable`` until it has been fetched)."""
    from pathlib import Path

    import skyline
    from skyline.players import solo_value as sv

    if sv.table_loaded():
        return
    # package data paths are relative to the skyline package (solo_value.TABLE_RESOURCE)
    path = Path(skyline.__file__).parent / sv.TABLE_RESOURCE
    if not path.is_file():
        raise sv.MissingTable(sv.TABLE_RESOURCE)
    sv.set_table(sv.ValueTable.from_bytes(path.read_bytes()))


Schedule = Callable[[int, Callable[[], None]], None]


class Paced(Protocol):
    """What the timer drives: the page's controller (``app.controller.Controller``)."""

    @property
    def board(self) -> Board | None: ...
    @property
    def page(self) -> PageState: ...
    @property
    def think_ms(self) -> list[float]: ...
    def attach(self, driver: Any) -> None: ...
    def computer_turn(self) -> bool: ...
    def step_computer(self) -> float | None: ...
    def step_playback(self) -> bool: ...
    def need_data(self, path: str, then: Callable[[], None]) -> None: ...
    def daily_expert(self, day: str) -> int | None: ...
    def keep_daily_expert(self, day: str, points: int) -> None: ...
    def chances_wanted(self) -> bool: ...
    def render(self) -> None: ...
    def run(self, callback: Callable[[], object]) -> None: ...


def install(controller: Paced, schedule: Schedule, idle: Schedule | None = None) -> BotsUI:
    """Attach the computer-play timer (and the idle work's, ``schedule`` if not given)
    to a booted controller."""
    ui = BotsUI(controller, schedule, idle)
    controller.attach(ui)  # the controller has drawn the page already (its boot)
    ui.wake()
    ui.idle(WARM_MS, ui.warm)
    return ui


class BotsUI:
    """The timer that paces computer play and grades the reviews (solo; 2-4 players)."""

    def __init__(self, c: Paced, schedule: Schedule, idle: Schedule | None = None) -> None:
        self.c = c
        self.schedule: Schedule = lambda ms, fn: schedule(ms, self._through_controller(fn))
        idle_timer = idle or schedule
        self.idle: Schedule = lambda ms, fn: idle_timer(ms, self._through_controller(fn))
        self.armed = False
        self.review_job = False
        # the engine's incremental review (ReviewRun) of page.review
        self.review_run: ReviewRun | None = None
        # a game of 2-4 players: the engine's TableReviewRun of page.table_review
        self.table_run: TableReviewRun | None = None
        self.bench = BenchJob(c, self.idle, self.fetch_table)  # the day's benchmark
        self.chances = ChancesWork(c, self.idle, self.fetch_table)  # the chart's values

    @property
    def think_ms(self) -> list[float]:
        return self.c.think_ms

    def _through_controller(self, fn: Callable[[], None]) -> Callable[[], None]:
        """Every tick runs through the controller, as a click does (one crash path)."""

        @functools.wraps(fn)
        def tick() -> None:
            self.c.run(fn)

        return tick

    # ------------------------------------------------------------------ the timer

    def wake(self, delay: int | None = None) -> None:
        """Arm the timer if a friend's turn from a link is being played back or a
        computer is to move; else grade a finished game."""
        c = self.c
        if self.armed:
            return
        # a friend's turn from a link plays at the computer's pace (never skipping: the
        # link's game opened with it off)
        if c.page.playback is not None or c.computer_turn():
            self.armed = True
            pace = SKIP_MS if c.page.skipping else PACES.get(c.page.pace, PACE_MS)
            self.schedule(delay if delay is not None else pace, self.tick)
        else:
            c.page.skipping = False
            self.idle_kick()
        self.chances.kick()

    def idle_kick(self) -> None:
        """No computer is to move: grade a finished game, play the day's benchmark."""
        self.review_kick()
        self.bench.kick()

    def warm(self, steps: tuple[tuple[str, int], ...] | None = None) -> None:
        """Read and decode the solo value table while the page is idle, one small step per
        tick (read the file, then one turn level of one mode at a time), so the first
        expert decision or hint does not pay for it and no tick blocks long. The file is
        read with a plain open (importlib.resources costs a first import in Pyodide)."""
        from skyline.players import solo_value as sv

        try:
            if steps is None:
                load_table_quickly()
                b = self.c.board
                first = "nine" if b is not None and b.options.all_nine else "standard"
                levels = len(sv.load_table().meta["counts"][first])
                steps = tuple(
                    (mode, t)
                    for mode in (first, "standard" if first == "nine" else "nine")
                    for t in range(levels)
                )
            else:
                sv.prepare(*steps[0])
                steps = steps[1:]
        except Exception:
            return
        if steps:
            self.idle(WARM_MS // 30, lambda: self.warm(steps))

    def fetch_table(self, exc: LookupError) -> None:
        """A lookup missed: a value table not fetched yet (``exc.path``) is fetched and the
        work goes on when it is here (:meth:`table_arrived`); any other miss is a bug."""
        path = getattr(exc, "path", None)
        if path is None:
            raise exc
        self.c.need_data(path, self.table_arrived)

    def table_arrived(self) -> None:
        """A value table a computer player or the review waited for is here: carry on,
        and decode the rest of it while the page is idle."""
        self.schedule(0, self.wake)
        self.idle(WARM_MS, self.warm)

    def tick(self) -> None:
        self.armed = False
        c = self.c
        if c.page.dialog is not None or c.page.choice is not None:
            # a dialog is open: the computer waits (checked again at the next tick)
            self.armed = True
            self.schedule(PACE_MS, self.tick)
            return
        if c.step_playback():
            c.render()
            self.wake()
            return
        if not c.computer_turn():
            c.page.skipping = False
            self.idle_kick()
            c.render()
            return
        try:
            c.step_computer()
        except LookupError as exc:
            self.fetch_table(exc)
            return
        c.render()
        self.wake()

    # ------------------------------------------------------------------ review (solo)

    def review_kick(self) -> None:
        c = self.c
        b = c.board
        if b is None or not b.is_game_over() or self.review_job:
            return
        if not b.state.solo:
            self.table_review_kick()
            return
        key = (b.options, len(b.actions))
        review = review_of(c.page)
        if review is not None and review.key == key:
            return
        from skyline.players import solo_value as sv
        from skyline.players.expert import position

        state = new_game(b.options)
        try:
            start = sv.value(position(state))
        except LookupError as exc:
            self.fetch_table(exc)
            return
        from skyline.players.review import ReviewRun

        c.page.review = ReviewProgress(key, state, start)
        self.review_run = ReviewRun(b.options, b.actions, start)
        self.review_job = True
        self.idle(0, self.review_step)

    def review_step(self) -> None:
        self.review_job = False
        c = self.c
        r = review_of(c.page)
        b = c.board
        run = self.review_run
        if r is None or b is None or r.key != (b.options, len(b.actions)) or run is None:
            return
        run.advance(CHUNK_MS)  # the engine grades, a chunk per tick (skyline.players.review)
        r.state, r.i, r.decisions = run.state, run.i, run.decisions
        if run.done:
            r.done, r.total, r.accuracy, r.verdict = True, run.total, run.accuracy, run.verdict
        else:
            self.review_job = True
            self.idle(0, self.review_step)
        c.render()

    # ------------------------------------------------------------------ review (2-4 players)

    def table_review_kick(self) -> None:
        """Start the review of a finished game of 2-4 players (``page.table_review``): the
        decisions of the people at this device (``Seat.is_here``: no computer seat, no
        friend elsewhere), the turning points and the ranking, replayed in ticks."""
        c = self.c
        b = c.board
        assert b is not None  # review_kick asks only for a finished game
        key = (b.options, tuple(b.actions))
        review = table_review_of(c.page)
        if review is not None and review.key == key:
            return
        if not value_table_ready(b.options, self.fetch_table):
            return
        from skyline.players.table_review import TableReviewRun

        seats = tuple(i for i in range(len(b.state.players)) if c.page.seat_kind(i).is_here)
        c.page.table_review = TableReviewProgress(key, seats, len(b.actions))
        self.table_run = TableReviewRun(b.options, b.actions, seats)
        self.review_job = True
        self.idle(0, self.table_review_step)

    def table_review_step(self) -> None:
        self.review_job = False
        c = self.c
        r = table_review_of(c.page)
        b = c.board
        run = self.table_run
        if r is None or b is None or run is None or r.key != (b.options, tuple(b.actions)):
            return
        run.advance(CHUNK_MS)  # the engine grades, a chunk per tick (skyline.players.table_review)
        r.i = run.i
        if run.done:
            r.result = run.result()
        else:
            self.review_job = True
            self.idle(0, self.table_review_step)
        c.render()

    # ------------------------------------------------------------------ measurements

    def js_api(self, command: str = "think", arg: str = "") -> str:
        """JSON text for the e2e tests and scripts/bench_bot_browser.py.

        ``think``: the bot/hint thinking times so far (ms). ``table``: load the solo
        table now, with the time it took. ``bench``: play ``arg`` =
        "games,seed,players" scripted expert games and time every expert decision (blocks
        the worker while it runs)."""
        if command == "table":
            from skyline.players import solo_value as sv

            try:
                load_table_quickly()  # measured below once it is here
            except sv.MissingTable as exc:  # fetched on first need: ask again later
                self.c.need_data(exc.path, lambda: None)
                return json.dumps({"missing": exc.path})
            sv.set_table(None)
            started = time.perf_counter()
            load_table_quickly()
            table = sv.load_table()
            load_ms = (time.perf_counter() - started) * 1000
            first = {}
            for mode in ("standard", "nine"):  # the first lookup of a mode decodes it
                started = time.perf_counter()
                sv.value(sv.SoloPosition.start(mode))
                first[mode] = (time.perf_counter() - started) * 1000
            counts = (getattr(table, "meta", None) or {}).get("counts", {})
            entries = sum(sum(v) for v in counts.values()) if counts else None
            return json.dumps({"load_ms": load_ms, "first_lookup_ms": first, "entries": entries})
        if command == "bench":
            games, seed, players = (arg or "1,bench,1").split(",")
            times = []
            for g in range(int(games)):
                names = tuple(f"p{i}" for i in range(int(players)))
                state = new_game(Options(names, f"{seed}-{g}", 0, False, None))
                rng = random.Random(g)
                while state.phase is not Phase.OVER:
                    started = time.perf_counter()
                    action = BOTS["expert"](state, rng)
                    times.append((time.perf_counter() - started) * 1000)
                    state = apply_action(state, action)
            return json.dumps({"decisions_ms": times})
        if command == "modules":
            return json.dumps(exercise_imports(arg.split(",") if arg else []))
        return json.dumps({"think_ms": self.think_ms})


class ChancesWork:
    """The chances chart's values (``page.chances``), worked out in idle ticks: ``kick``
    after every handled event and computer step only schedules a chunk; each chunk values
    turns for at most ``CHANCES_CHUNK_MS`` (one turn at least) and schedules the next,
    until every turn of the game so far has its point."""

    def __init__(self, c: Paced, schedule: Schedule,
                 fetch_table: Callable[[LookupError], None]) -> None:
        self.c = c
        self.schedule = schedule
        self.fetch_table = fetch_table  # a value table not fetched yet: on when it is here
        self.run: ChancesRun | None = None  # the engine's run behind page.chances
        self.job = False  # a chunk is scheduled
        self._start_seat: tuple[Options, int] | None = None

    def kick(self) -> None:
        """Schedule a chunk if the open game's chart is on and a turn is not valued yet."""
        c = self.c
        b = c.board
        if self.job or b is None or not c.chances_wanted():
            return
        if not self._first_turn_over(b):
            return  # nothing to draw yet: the engine's chances stay off the start path
        progress = chances_of(c.page)
        run = self.run
        if progress is None or progress.key != b.options or run is None or run.options != b.options:
            from skyline.players.chances import ChancesRun

            run = self.run = ChancesRun(b.options)
            c.page.chances = progress = ChancesProgress(b.options, run.kind)
        progress.done = run.done(b.actions)
        if not progress.done:
            self.job = True
            self.schedule(CHANCES_IDLE_MS, self.step)

    def _first_turn_over(self, b: Board) -> bool:
        """The game's first turn has ended (its start seat kept per game)."""
        if self._start_seat is None or self._start_seat[0] != b.options:
            self._start_seat = (b.options, new_game(b.options).seat)
        state = b.state
        return state.phase is Phase.OVER or (state.round, state.seat) != (1, self._start_seat[1])

    def step(self) -> None:
        """One chunk of the chart's values."""
        self.job = False
        c = self.c
        b = c.board
        run = self.run
        progress = chances_of(c.page)
        if (b is None or run is None or progress is None or progress.key != b.options
                or not c.chances_wanted()):
            return
        try:
            done = run.advance(b.actions, CHANCES_CHUNK_MS)
        except LookupError as exc:
            progress.points = tuple(run.points)
            self.fetch_table(exc)
            return
        progress.points, progress.done = tuple(run.points), done
        if not done:
            self.job = True
            self.schedule(CHANCES_IDLE_MS, self.step)
        c.render()


def exercise_imports(names: list[str]) -> dict:
    """Import ``names`` (every module the page and the engine name, see
    scripts/stdlib_modules.py), run the code paths that import lazily (an expert solo
    game with Hint and the review, a game link, the daily challenge, a traceback), and
    return what failed and every module now loaded: the standard library the page
    needs. The value table must be loaded first (``js_api("table")``)."""
    import importlib
    import sys
    import traceback

    failed: dict[str, str] = {}
    for name in names:
        try:
            importlib.import_module(name)
        except Exception as exc:
            parent, _, attr = name.rpartition(".")
            if not (parent in sys.modules and hasattr(sys.modules[parent], attr)):
                failed[name] = f"{type(exc).__name__}: {exc}"  # not "from m import attr"
    try:
        import datetime

        from skyline import Board
        from skyline.players import solo_value as sv
        from skyline.players.expert import hint
        from skyline.players.review import review
        from skyline.records.daily import daily_options
        from skyline.records.game_links import make_game_link, parse_game_link

        table = sv.load_table()
        sv.set_table(None)  # read again the engine's way (importlib.resources)
        sv.load_table()
        sv.set_table(table)
        board = Board.new(["Solo"], seed="modules")
        rng = random.Random(1)
        while not board.is_game_over():
            hint(board.state, 1)
            board.push(BOTS["expert"](board.state, rng))
        review(board)
        parse_game_link(make_game_link(board, ["here"], "n"))
        daily_options(datetime.date(2026, 1, 1), "Solo")
    except Exception as exc:
        failed["<exercise>"] = "".join(traceback.format_exception(exc))
    try:  # what an uncaught error does on its way to the console
        raise ValueError("traceback check")
    except ValueError as exc:
        traceback.format_exception(exc)
    return {"failed": failed, "modules": sorted(sys.modules)}

