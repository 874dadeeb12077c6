"""The rating against the computer levels: an Elo-style number from the history (pure
data, no storage; the statistics page shows it).

**A result against a level** (``app.core.game_stats.level_results``, which the statistics
page's table and export count too) is one of:

- a game of 2-4 players with computer seats: one result per computer seat, for the best
  placed human seat of the game (``GameResult.placement``, the same seat the history
  counts): 1 for a better rank than the computer's, ½ for the same rank (a shared place),
  0 for a worse one;
- a daily challenge against the solo expert's score on the same day's dice (the day's
  benchmark, kept with the day's record: ``records["daily"][day]["expert"]``): 1 for
  more points, ½ for as many, 0 for fewer. Only the first play of each day's challenge
  counts: a second play knows the dice.

Solo games outside the daily challenge have no opponent and count for nothing.

**The number.** It starts at :data:`START`; each computer level has a fixed rating
(:data:`LEVEL_RATINGS`), and each result moves the player's rating by
``K * (result - expected)`` with ``expected = 1 / (1 + 10 ** ((level - rating) / 400))``.
Games are taken in chronological order (by the time they ended, then by their id), so the
number depends on the history, never on the order it is read or stored in; the results
of one game all use the rating from before that game. It is shown rounded to a whole
number, and not at all before there is a result.

>>> round(expected(1200, "greedy"), 3), round(expected(1200, "beginner"), 3)
(0.5, 0.909)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from app.core.game_stats import GameResult, LevelResult, level_results

START = 1200
K = 32
#: The levels' fixed ratings: Greedy at the start value, Expert 500 above (it wins about
#: 95 % of two-player games against Greedy, about 510 Elo points), Beginner 400 below
#: (Greedy beats it nearly always; 400 points is the usual ten-to-one gap).
LEVEL_RATINGS: dict[str, int] = {"beginner": 800, "greedy": 1200, "expert": 1700}


@dataclass(frozen=True)
class Rating:
    value: float
    results: tuple[LevelResult, ...]  # chronological

    @property
    def shown(self) -> int:
        """The rating as shown: rounded half up to a whole number."""
        return int(self.value + 0.5)

    def tally(self, level: str) -> tuple[int, int, int]:
        """(won, drawn, lost) against ``level``."""
        points = [r.points for r in self.results if r.level == level]
        return points.count(1.0), points.count(0.5), points.count(0.0)


def expected(rating: float, level: str) -> float:
    """The expected result against ``level`` at ``rating`` (Elo's logistic curve)."""
    return 1 / (1 + 10 ** ((LEVEL_RATINGS[level] - rating) / 400))


def rating(results: Iterable[GameResult],
           daily: Mapping[str, Any] | None = None) -> Rating | None:
    """The rating from the history and the daily records; None without any result."""
    found = level_results(results, daily)
    if not found:
        return None
    value = float(START)
    for _, game in groupby(found, key=lambda r: (r.at, r.game)):
        before = value  # a game's results all count from the rating before it
        value += sum(K * (r.points - expected(before, r.level)) for r in game)
    return Rating(value, found)


__all__ = ["K", "LEVEL_RATINGS", "START", "LevelResult", "Rating",
           "expected", "level_results", "rating"]
