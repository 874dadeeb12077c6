"""The rating against the computer levels (app.core.rating) and its place on the
statistics page, EN and DE. The expected numbers are computed by hand in each docstring:
start 1200, K = 32, levels Beginner 800, Greedy 1200, Expert 1700,
E = 1 / (1 + 10 ** ((level - rating) / 400)).
"""

from __future__ import annotations

import json
import random

import pytest
from app.core import rating as elo
from app.core.game_stats import GameResult, SeatResult
from app.core.store import KEY_HISTORY, KEY_RECORDS
from test_screen import assert_translated, texts
from web_fakes import make_page

from skyline.records.solo_records import solo_records_json

LANGS = ("en", "de")


def at(n: int) -> str:
    return f"2026-11-{n:02d}T10:00:00.000Z"


def multi(n: int, *seats: tuple[str, int]) -> GameResult:
    """A game of several players ending on day ``n``: (kind, rank) per seat."""
    return GameResult(f"g{n}", at(n), f"2026-11-{n:02d}", "multi", None, False,
                      tuple(SeatResult(f"P{i}", kind, 50 - rank, rank)
                            for i, (kind, rank) in enumerate(seats)))


def daily(n: int, score: int, game: str = "") -> GameResult:
    """A play of the daily challenge of 2026-11-<n> (its seed names the day)."""
    day = f"2026-11-{n:02d}"
    return GameResult(f"daily-{day}|-|60|{game or 'a'}", at(n), day, "daily", None, False,
                      (SeatResult("Ann", "human", score, 1),))


def test_a_win_then_a_loss():
    """Win against Greedy from 1200: E = 0.5, 1200 + 32 * 0.5 = 1216.
    Then lose to Expert: E = 1 / (1 + 10 ** (484 / 400)) = 1 / (1 + 16.218) = 0.05808,
    1216 - 32 * 0.05808 = 1214.14, shown 1214."""
    r = elo.rating([multi(1, ("human", 1), ("greedy", 2)),
                    multi(2, ("expert", 1), ("human", 2))])
    assert r is not None and r.shown == 1214
    assert r.value == pytest.approx(1214.141, abs=0.001)
    assert r.tally("greedy") == (1, 0, 0) and r.tally("expert") == (0, 0, 1)


def test_a_shared_place_is_a_draw():
    """A shared first place with Beginner from 1200: E = 1 / (1 + 10 ** (-400 / 400)) =
    1 / 1.1 = 0.90909, 1200 + 32 * (0.5 - 0.90909) = 1186.91, shown 1187."""
    r = elo.rating([multi(1, ("human", 1), ("beginner", 1))])
    assert r is not None and r.shown == 1187 and r.tally("beginner") == (0, 1, 0)


def test_the_results_of_one_game_count_from_the_rating_before_it():
    """First of three, above Greedy and Beginner, from 1200: against Greedy
    32 * (1 - 0.5) = 16, against Beginner 32 * (1 - 0.90909) = 2.909, both from 1200:
    1218.91, shown 1219 (in turn, the second would have used 1216: E = 0.91642,
    + 2.675 = 1218.67, also shown 1219, so the exact value is checked)."""
    r = elo.rating([multi(1, ("human", 1), ("greedy", 2), ("beginner", 3))])
    assert r is not None and r.shown == 1219
    assert r.value == pytest.approx(1218.909, abs=0.001)


def test_a_daily_challenge_against_the_experts_score_on_its_dice():
    """Daily of 11-03: 70 points against Expert's 90: a loss, from 1200:
    E = 1 / (1 + 10 ** (500 / 400)) = 1 / (1 + 17.783) = 0.05324, 1200 - 1.704 = 1198.30.
    Daily of 11-04: 95 against 90, a win: E at 1198.30 = 1 / (1 + 10 ** (501.70 / 400)) =
    1 / (1 + 17.958) = 0.05275, + 32 * 0.94725 = 30.31: 1228.61, shown 1229. The second
    play of 11-04 (a loss) does not count (it knew the dice); the daily of 11-05 has no
    expert figure."""
    records = {"2026-11-03": {"best": 70, "plays": 1, "expert": 90},
               "2026-11-04": {"best": 95, "plays": 2, "expert": 90},
               "2026-11-05": {"best": 80, "plays": 1}}
    history = [daily(3, 70), daily(4, 95), daily(5, 80)]
    second = GameResult("daily-2026-11-04|-|60|b", at(6), "2026-11-06", "daily", None, False,
                        (SeatResult("Ann", "human", 10, 1),))
    r = elo.rating([*history, second], records)
    assert r is not None and r.shown == 1229
    assert r.value == pytest.approx(1228.61, abs=0.01)
    assert [x.points for x in r.results] == [0.0, 1.0]


def test_the_same_history_in_any_order_gives_the_same_number():
    games = [multi(1, ("human", 1), ("greedy", 2)), multi(2, ("expert", 1), ("human", 2)),
             multi(3, ("human", 2), ("beginner", 1), ("human", 3)), daily(4, 88),
             multi(5, ("greedy", 1), ("human", 1), ("expert", 3), ("beginner", 4))]
    records = {"2026-11-04": {"best": 88, "expert": 88}}
    first = elo.rating(games, records)
    assert first is not None
    for seed in range(5):
        shuffled = games[:]
        random.Random(seed).shuffle(shuffled)
        again = elo.rating(shuffled, records)
        assert again is not None and again.value == first.value


def test_no_result_no_rating():
    """Solo games, games of people only, a daily without an expert figure: no result."""
    solo = GameResult("s", at(1), "2026-11-01", "solo", None, False,
                      (SeatResult("Ann", "human", 60, 1),))
    people = multi(2, ("human", 1), ("human", 2))
    assert elo.rating([]) is None
    assert elo.rating([solo, people, daily(3, 70)], {"2026-11-03": {"best": 70}}) is None


# ---------------------------------------------------------------------------- the page


def stored_history(*games: GameResult) -> str:
    return json.dumps({"v": 1, "kind": "skyline-history", "games": [g.to_json() for g in games]})


@pytest.mark.parametrize("lang", LANGS)
def test_the_statistics_page_shows_the_rating_and_how_it_is_computed(lang):
    storage = {KEY_HISTORY: stored_history(multi(1, ("human", 1), ("greedy", 2)),
                                           multi(2, ("expert", 1), ("human", 2)))}
    c, host, _ = make_page(storage=storage, langs=(lang,))
    c.handle("click", "stats", None)
    s = c.renderer.screen()
    assert_translated(s, lang)
    t = texts(lang).t
    v = s.dialog.rating
    assert v.value == t("stats.rating.value", rating=1214) and v.none is None
    levels = ", ".join(t("stats.rating.level", level=t("seat.level." + k), rating=r)
                       for k, r in (("beginner", 800), ("greedy", 1200), ("expert", 1700)))
    assert v.how == t("stats.rating.how", start=1200, k=32, levels=levels)
    assert v.rows == ((t("seat.level.greedy"), "1", "0", "0"),
                      (t("seat.level.expert"), "0", "0", "1"))
    html = host.html["dialog"]
    assert 'data-testid="stats-rating"' in html and "1214" in html
    assert 'data-testid="stats-rating-levels"' in html and 'data-testid="stats-rating-how"' in html
    assert "stats-rating-none" not in html


@pytest.mark.parametrize("lang", LANGS)
def test_without_a_result_the_page_says_so_in_words(lang):
    solo = GameResult("s", at(1), "2026-11-01", "solo", None, False,
                      (SeatResult("Ann", "human", 60, 1),))
    c, host, _ = make_page(storage={KEY_HISTORY: stored_history(solo)}, langs=(lang,))
    c.handle("click", "stats", None)
    s = c.renderer.screen()
    assert_translated(s, lang)
    v = s.dialog.rating
    assert v.value is None and v.none == texts(lang).t("stats.rating.none") and not v.rows
    html = host.html["dialog"]
    assert 'data-testid="stats-rating-none"' in html and 'data-testid="stats-rating"' not in html
    assert not any(ch.isdigit() for ch in v.none)  # words, no number


def test_the_daily_result_counts_once_the_expert_has_played():
    """A finished daily on the page: no rating until the expert's figure is kept, then
    one result against Expert."""
    c, host, timer = make_page()
    c.handle("click", "daily", None)
    from skyline.players.bots import BOTS

    rng = random.Random(0)
    while not c.board.is_game_over():
        c.play.dispatch(BOTS["greedy"](c.board.state, rng))
    c.handle("click", "stats", None)
    assert c.renderer.screen().dialog.rating.value is None
    c.handle("keydown", None, None, key="Escape")
    timer.run()
    c.handle("click", "stats", None)
    r = elo.rating(c.session.history.results, json.loads(host.storage[KEY_RECORDS])["daily"])
    assert r is not None and len(r.results) == 1 and r.results[0].level == "expert"
    rating = texts("en").t("stats.rating.value", rating=r.shown)
    assert c.renderer.screen().dialog.rating.value == rating


@pytest.mark.parametrize("lang", LANGS)
def test_the_statistics_count_the_same_games_in_every_place(lang):
    """One count of results against the computer: the page's table, the rating and the
    download agree, and the page has one such table. Second of three above Expert is a
    win against it (not a loss for missing first place); the day's challenge counts
    once, its first play, against Expert's score on the same dice; the second play of
    the day does not count anywhere."""
    history = [multi(1, ("greedy", 1), ("human", 2), ("expert", 3)),
               daily(2, 70, "a"), daily(2, 90, "b")]  # Expert scored 80 that day
    records = {"daily": {"2026-11-02": {"best": 90, "plays": 2, "expert": 80}}}
    storage = {KEY_HISTORY: json.dumps({"v": 1, "kind": "skyline-history",
                                        "games": [g.to_json() for g in history]}),
               KEY_RECORDS: solo_records_json(records)}
    c, host, _ = make_page(storage=storage, langs=(lang,))
    c.handle("click", "stats", None)
    t = texts(lang).t
    rows = {row[0]: row[1:] for row in c.renderer.screen().dialog.rating.rows}
    assert rows == {t("seat.level.greedy"): ("0", "0", "1"),
                    t("seat.level.expert"): ("1", "0", "1")}
    html = host.html["dialog"]
    tables_ = html.split("<table")[1:]  # one table of results against the computer
    assert sum(t("seat.level.expert") in table for table in tables_) == 1
    exported = json.loads(host.downloads[-1])
    assert exported["versus"]["expert"] == {"games": 2, "won": 1, "drawn": 0, "lost": 1}
    assert exported["versus"]["greedy"] == {"games": 1, "won": 0, "drawn": 0, "lost": 1}
    assert t("stats.rating.how", start=1200, k=32, levels="").split(":")[0] in html
