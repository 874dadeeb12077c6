"""The day's benchmark: once a daily challenge is over, the solo expert plays the same
day's dice in idle ticks, and its score is kept with the day's record.

``BenchJob`` belongs to the pacer's timer (``app.computer.pacer.BotsUI``): ``kick()`` when
the page is idle starts the expert's game (``skyline.players.benchmark.ExpertGame``) if the
open game is a finished daily challenge whose day has no figure yet; each tick plays at
most ``CHUNK_MS`` of it (at least one decision), so no click ever waits for it. The
figure goes into the solo records (``store.Records.keep_daily_expert``), so it is played
once per day: a reload before it finished starts it again (the expert is deterministic,
the same figure comes out), a reload after it reads it back, and a damaged stored figure
is dropped by the records' reader and played again.

The game runs on to its end even if the player starts another game meanwhile; the
progress (``page.daily_bench``) is what the daily panel shows while it runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from app.computer.seats import value_table_ready
from app.core.page_state import DailyBench, PageState
from skyline import Board
from skyline.records.daily import daily_day

if TYPE_CHECKING:  # imported when first needed (off the page's start-up path)
    from skyline.players.benchmark import ExpertGame

CHUNK_MS = 60


class Benched(Protocol):
    """What the job needs of the page (``app.controller.Controller``)."""

    @property
    def board(self) -> Board | None: ...
    @property
    def page(self) -> PageState: ...
    def daily_expert(self, day: str) -> int | None: ...
    def keep_daily_expert(self, day: str, points: int) -> None: ...
    def render(self) -> None: ...


class BenchJob:
    """The expert's game on a daily challenge's dice, a chunk per tick."""

    def __init__(self, c: Benched, schedule: Callable[[int, Callable[[], None]], None],
                 fetch_table: Callable[[LookupError], None]) -> None:
        self.c = c
        self.schedule = schedule
        self.fetch_table = fetch_table
        self.game: ExpertGame | None = None
        self.day: str | None = None
        self.queued = False  # a step is scheduled

    def kick(self) -> None:
        """Start (or go on with) the benchmark of a finished daily challenge without one."""
        if self.queued:
            return
        if self.game is not None:  # a table fetched meanwhile: carry on
            self._queue()
            return
        b = self.c.board
        day = daily_day(b.options) if b is not None and b.is_game_over() else None
        if b is None or day is None or self.c.daily_expert(day.isoformat()) is not None:
            return
        if not value_table_ready(b.options, self.fetch_table):
            return
        from skyline.players.benchmark import ExpertGame

        # the challenge's own options: the same seed, so the same table of dice (the
        # player's name decides no die)
        self.game = ExpertGame(b.options)
        self.day = day.isoformat()
        self.c.page.daily_bench = DailyBench(self.day, self.game.round)
        self._queue()

    def _queue(self) -> None:
        self.queued = True
        self.schedule(0, self.step)

    def step(self) -> None:
        self.queued = False
        game, day = self.game, self.day
        if game is None or day is None:
            return
        try:
            game.advance(CHUNK_MS)
        except LookupError as exc:  # a table the expert needs: go on once it is here
            self.fetch_table(exc)
            return
        page = self.c.page
        if game.done:
            self.game = self.day = None
            page.daily_bench = None
            self.c.keep_daily_expert(day, game.score)
            self.c.render()
            return
        self._queue()
        progress = DailyBench(day, game.round)
        if page.daily_bench != progress:  # drawn again only when there is news
            page.daily_bench = progress
            self.c.render()
