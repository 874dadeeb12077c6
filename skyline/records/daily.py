"""The daily challenge: one seeded solo game per calendar day, the same for everyone.

Everything follows from the ISO date (the player's local calendar day; the page
passes it in, the engine has no clock): the seed is ``daily-YYYY-MM-DD``, and the
game is the standard solo game (ends after round 9 or after a 6-high building, no
scenario, start seat 0). Only the player's name differs between players, and the
name decides no die. No server is asked: anyone who plays the 1 December 2026
challenge gets the same dice for the same choices.

A result is data (:class:`DailyResult`: day, score, solo level, the fragment of
the challenge's link); the page writes the line ("Skyline daily 2026-12-01: 84
points — Urban Planner") from its string tables. The link ``#daily?d=2026-12-01``
opens the same challenge (:func:`parse_daily_fragment`, total, raising
:class:`~skyline.records.links.LinkError` with code ``link`` (``reason`` ``not_text``,
``too_long``, ``not_daily``) or ``daily_date`` (not a valid date)).

>>> import datetime
>>> day = datetime.date(2026, 12, 1)
>>> daily_seed(day), daily_options(day, "Ann")
('daily-2026-12-01', Options(names=('Ann',), seed='daily-2026-12-01', start_seat=0, \
all_nine=False, scenario=None))
>>> parse_daily_fragment("https://x.example/#" + daily_fragment("2026-12-01")) == day
True
"""

from __future__ import annotations

import datetime
import re
from typing import NamedTuple

from ..rules import Board, Options, game_summary, validate_options
from .links import LinkError, link_text

DAILY_PATH = "daily"
DAILY_SEED_PREFIX = "daily-"
MAX_DAILY_LINK_CHARS = 200
_ISO_DAY = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")


class DailyResult(NamedTuple):
    """A finished daily challenge, for the page's result line and best score."""

    day: datetime.date
    score: int
    level: str | None  # solo level reached (e.g. "Urban Planner"), None below 40 points
    fragment: str  # the challenge's link fragment, e.g. "daily?d=2026-12-01"


def parse_day(day: datetime.date | str) -> datetime.date:
    """A calendar day from a ``date`` or strict ISO text ``YYYY-MM-DD`` (years 2000 to
    9999); ``ValueError`` otherwise. A ``datetime`` counts as its date."""
    if isinstance(day, datetime.datetime):
        day = day.date()
    if isinstance(day, datetime.date):
        if day.year < 2000:
            raise ValueError("day: expected a date from the year 2000 on")
        return day
    if not isinstance(day, str):
        raise ValueError("day: expected a date or YYYY-MM-DD")
    match = _ISO_DAY.fullmatch(day)
    if match is None:
        raise ValueError("day: expected YYYY-MM-DD")
    year, month, dom = (int(g) for g in match.groups())
    if year < 2000:
        raise ValueError("day: expected a date from the year 2000 on")
    return datetime.date(year, month, dom)  # ValueError for 2026-02-30


def daily_seed(day: datetime.date | str) -> str:
    """The seed of the day's challenge: ``daily-YYYY-MM-DD``."""
    return DAILY_SEED_PREFIX + parse_day(day).isoformat()


def daily_options(day: datetime.date | str, name: str) -> Options:
    """The options of the day's challenge for a player called ``name`` (validated)."""
    return validate_options(Options((name,), daily_seed(day), 0, False, None))


def daily_day(options: Options) -> datetime.date | None:
    """The day whose challenge these options are, else ``None`` (a game with the
    daily seed but other options, e.g. two players or a scenario, is no challenge)."""
    seed = options.seed
    if not isinstance(seed, str) or not seed.startswith(DAILY_SEED_PREFIX):
        return None
    try:
        day = parse_day(seed[len(DAILY_SEED_PREFIX):])
    except ValueError:
        return None
    if len(options.names) != 1 or options != daily_options(day, options.names[0]):
        return None
    return day


def daily_fragment(day: datetime.date | str) -> str:
    """The fragment (without ``#``) of the link to the day's challenge."""
    return f"{DAILY_PATH}?d={parse_day(day).isoformat()}"


def parse_daily_fragment(text: object) -> datetime.date:
    """The day a daily-challenge link names; raises :class:`LinkError` only."""
    text = link_text(text, MAX_DAILY_LINK_CHARS)
    path, question, query = text.partition("?")
    key, eq, value = query.partition("=")
    if path != DAILY_PATH or not question or key != "d" or not eq:
        raise LinkError("link", "this is not a daily challenge link", reason="not_daily")
    try:
        return parse_day(value)
    except ValueError:
        raise LinkError("daily_date", "the daily challenge link has no valid date",
                        reason="invalid") from None


def daily_result(board: Board) -> DailyResult:
    """The result of a finished daily challenge; ``ValueError`` if ``board`` is not
    a daily challenge or not over yet."""
    day = daily_day(board.options)
    if day is None:
        raise ValueError("daily: this game is not a daily challenge")
    if not board.is_game_over():
        raise ValueError("daily: the challenge is not finished")
    info = game_summary(board.state)
    return DailyResult(day, info.players[0].score, info.level, daily_fragment(day))
