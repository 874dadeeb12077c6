"""The day's benchmark: once a daily challenge is over, the solo expert plays the same
day's dice in idle ticks and the page shows its score beside the player's and in the
copied line; the figure is kept with the day's record (EN and DE, the fake host's day).
"""

from __future__ import annotations

import json
import random

import pytest
from app.computer import daily_bench
from app.core.store import KEY_RECORDS
from test_screen import assert_translated, texts
from web_fakes import make_page

from skyline import Board, Roll
from skyline.players.benchmark import ExpertGame, expert_score
from skyline.players.bots import BOTS
from skyline.records.daily import daily_options
from skyline.records.solo_records import read_solo_records

LANGS = ("en", "de")
DAY = "2026-12-01"  # the fake host's today
LINK = "http://127.0.0.1:8000/#daily?d=" + DAY


def play_daily(c, bot: str = "greedy") -> None:
    """Start today's challenge from the page and play it out (as ``bot`` would)."""
    c.handle("click", "daily", None)
    rng = random.Random(0)
    while not c.board.is_game_over():
        assert c.play.dispatch(BOTS[bot](c.board.state, rng))


def bench(c) -> daily_bench.BenchJob:
    return c.computer.driver.bench


def expert_line(lang: str, points: int) -> str:
    t = texts(lang).t
    return t("daily.expert", points=t("daily.points", n=points))


@pytest.fixture(scope="module")
def expert_today() -> int:
    return expert_score(daily_options(DAY, "Anyone"))


# ---------------------------------------------------------------------------- the same dice


def rolled_faces(options, actions) -> list[tuple]:
    """The dice after every roll of the game ``options`` + ``actions``, on a player's board."""
    board = Board(options)
    faces = []
    for action in actions:
        board.push(action)
        if isinstance(action, Roll):
            faces.append(board.state.dice)
    return faces


def test_the_expert_plays_on_the_players_dice():
    """The expert's game is the day's options (standard solo, the day's seed): a player
    of the same day who makes the expert's choices rolls exactly the expert's faces,
    whatever the player's name, and ends with the expert's score."""
    game = ExpertGame(daily_options(DAY, "Expert"))
    faces = []
    while not game.done:
        game.step()
        if isinstance(game.actions[-1], Roll):
            faces.append(game.state.dice)
    assert faces and faces == rolled_faces(daily_options(DAY, "Ann"), game.actions)
    assert faces == rolled_faces(daily_options(DAY, "Zoë"), game.actions)
    player = Board(daily_options(DAY, "Ann"))
    for action in game.actions:
        player.push(action)
    assert player.is_game_over() and player.scores()[0] == game.score
    # another day's dice are another table: the same choices roll other faces
    other = rolled_faces(daily_options("2026-12-02", "Ann"), game.actions[:2])
    assert other != faces[:1]


def test_the_page_plays_the_expert_on_the_challenges_own_options(expert_today):
    c, _, timer = make_page()
    play_daily(c)
    c.handle("click", "daily-copy", None)  # any click: the page is idle now
    job = bench(c)
    assert job.game is not None and job.game.options == c.board.options
    timer.run()
    assert c.daily_expert(DAY) == expert_today


# ---------------------------------------------------------------------------- idle chunks


@pytest.mark.parametrize("lang", LANGS)
def test_the_expert_plays_in_idle_chunks_and_its_score_shows_and_copies(
        lang, expert_today, monkeypatch):
    monkeypatch.setattr(daily_bench, "CHUNK_MS", 0)  # one decision per tick
    c, host, timer = make_page(langs=(lang,))
    t = texts(lang).t
    play_daily(c)
    line = c.renderer.screen().game.daily.line
    c.handle("click", "daily-copy", None)
    # at click time: not one decision of the expert's game, its progress shown instead
    job = bench(c)
    assert job.game is not None and job.game.actions == [] and c.daily_expert(DAY) is None
    daily = c.renderer.screen().game.daily
    assert daily.expert == t("daily.expert_playing", round=1) and not daily.expert_done
    assert host.copied[-1] == f"{line}\n{LINK}"  # copied before it is known: the line alone
    steps = 0
    while c.daily_expert(DAY) is None:
        played = len(job.game.actions) if job.game is not None else 0
        assert timer.step()
        if job.game is not None and len(job.game.actions) > played:
            assert len(job.game.actions) == played + 1  # one decision per tick
            steps += 1
    assert steps >= 40  # a whole game, spread over as many ticks as it has decisions
    assert c.daily_expert(DAY) == expert_today and c.page.daily_bench is None
    s = c.renderer.screen()
    assert_translated(s, lang)
    assert s.game.daily.expert == expert_line(lang, expert_today) and s.game.daily.expert_done
    assert 'data-testid="daily-expert"' in host.html["players"]
    assert expert_line(lang, expert_today).replace("'", "&#x27;") in host.html["players"]
    c.handle("click", "daily-copy", None)
    shared = t("daily.share_line", line=line, expert=expert_line(lang, expert_today))
    assert host.copied[-1] == f"{shared}\n{LINK}"
    assert str(expert_today) in host.copied[-1].splitlines()[0]
    # kept with the day's record
    records = json.loads(host.storage[KEY_RECORDS])
    assert records["daily"][DAY]["expert"] == expert_today
    assert read_solo_records(host.storage[KEY_RECORDS])[1] is None


def test_nothing_is_played_for_a_game_that_is_not_a_finished_daily_challenge():
    c, _, timer = make_page()
    c.handle("click", "daily", None)
    timer.run()  # in play: the challenge is not over
    assert bench(c).game is None and c.page.daily_bench is None
    c.session.start(daily_options(DAY, "Ann")._replace(seed="not-daily"))
    rng = random.Random(1)
    while not c.board.is_game_over():
        c.play.dispatch(BOTS["greedy"](c.board.state, rng))
    c.handle("click", "daily-copy", None)
    timer.run()
    assert bench(c).game is None and c.daily_expert(DAY) is None


# ---------------------------------------------------------------------------- stored, reloaded


def test_a_reload_before_it_finished_plays_it_again_and_after_reads_it(expert_today,
                                                                         monkeypatch):
    monkeypatch.setattr(daily_bench, "CHUNK_MS", 0)  # one decision per tick
    c, host, timer = make_page()
    play_daily(c)
    c.handle("click", "daily-copy", None)
    for _ in range(3):  # a few chunks, then the page goes away
        timer.step()
    assert c.daily_expert(DAY) is None
    storage = host.storage
    c2, host2, timer2 = make_page(storage=storage)
    assert c2.board.is_game_over() and c2.daily_expert(DAY) is None
    assert bench(c2).game is not None and bench(c2).game.actions == []  # boot plays nothing
    timer2.run()
    assert c2.daily_expert(DAY) == expert_today
    assert json.loads(storage[KEY_RECORDS])["daily"][DAY]["expert"] == expert_today
    # once known, never played again: not on a reload, not for another play of the day
    c3, host3, timer3 = make_page(storage=storage)
    assert bench(c3).game is None
    assert c3.renderer.screen().game.daily.expert == expert_line("en", expert_today)
    play_daily(c3, bot="beginner")
    c3.handle("click", "daily-copy", None)
    timer3.run()
    assert bench(c3).game is None and c3.daily_expert(DAY) == expert_today
    assert json.loads(storage[KEY_RECORDS])["daily"][DAY]["plays"] == 2


@pytest.mark.parametrize("figure", ['"88"', "-4", "1.5", "true", "null", '{"x": 1}'])
def test_a_damaged_stored_figure_is_said_and_played_again(figure, expert_today):
    c, host, timer = make_page()
    play_daily(c)
    c.handle("click", "daily-copy", None)
    timer.run()
    records = json.loads(host.storage[KEY_RECORDS])
    best = records["daily"][DAY]["best"]
    raw = json.dumps(records).replace(f'"expert": {expert_today}', f'"expert": {figure}')
    assert raw != json.dumps(records)
    host.storage[KEY_RECORDS] = raw
    c2, host2, timer2 = make_page(storage=host.storage)
    assert "notice.records_broken" in [n.key for n in c2.page.notices]  # said, kept aside
    assert any(k.startswith("skyline.records.broken") and v == raw
               for k, v in host2.storage.items())
    assert c2.daily_expert(DAY) is None and c2.renderer.screen().game.daily.best is not None
    timer2.run()
    assert c2.daily_expert(DAY) == expert_today and not c2.page.crashed
    assert json.loads(host2.storage[KEY_RECORDS])["daily"][DAY] == {
        "best": best, "plays": 1, "expert": expert_today}


def test_records_from_before_the_benchmark_still_load():
    """A day's record as pages before the benchmark wrote it: best and plays only."""
    before = ('{"v": 1, "best": {"-": 84}, "levels": {"urban-planner": 1}, "scenarios": {}, '
              '"daily": {"2026-11-30": {"best": 84, "plays": 2}}, "seen": ["k"]}')
    data, problem = read_solo_records(before)
    assert problem is None and data["daily"] == {"2026-11-30": {"best": 84, "plays": 2}}
    c, _, timer = make_page(storage={KEY_RECORDS: before}, fragment="#daily?d=2026-11-30")
    assert "notice.records_broken" not in [n.key for n in c.page.notices]
    assert c.daily_expert("2026-11-30") is None
    timer.run()  # not over yet: nothing to play
    assert c.daily_expert("2026-11-30") is None and c.renderer.screen().game.daily.expert is None
