"""The review of a finished game of 2-4 players on the page, under CPython with the fake
host: graded in ticks by bots_ui, turned into ``screen.TableReviewView`` and rendered
under the scoring, in English and German; only the people at this device are reviewed."""

from __future__ import annotations

import random

import pytest
from app.computer.view import TABLE_COSTLY_SHOWN, TableReviewView
from web_fakes import make_page, tables
from web_fakes import start_game as start

from skyline import Phase
from skyline.players.bots import get_bot

LANGS = ("en", "de")
TABLES = tables()




def play_out(c, timer, bot: str = "greedy") -> None:
    """Play the game to its end: this device's seats with ``bot``'s choices, computer
    seats by the page's own timer (stopped at the end, before the review runs)."""
    for _ in range(2000):
        b = c.board
        if b.state.phase is Phase.OVER:
            return
        if c.computer_turn():
            c.computer.wake()  # as after every handled event (dispatch does not wake it)
            timer.run(until=lambda: not c.computer_turn() or c.board.is_game_over())
            continue
        rng = random.Random(len(b.actions))
        assert c.play.dispatch(get_bot(bot)(b.state, rng))
    raise AssertionError("the game never ended")


def review_done(c, timer) -> TableReviewView:
    c.computer.wake()
    timer.run(until=lambda: c.page.table_review is not None
              and c.page.table_review.result is not None)
    c.session.render()
    view = c.renderer.screen().table_review
    assert view is not None and view.done
    return view


def check_words(view: TableReviewView, lang: str) -> None:
    """Every text is translated: no string-table key, no placeholder left."""
    keys = set(TABLES["en"]) | set(TABLES["de"])
    texts = [view.title, view.intro, view.turning_title, *view.turning, *view.heads]
    texts += [view.turning_none or "", view.not_reviewed or ""]
    for seat in view.seats:
        texts += [seat.title, seat.summary, seat.none or ""]
        texts += [x for row in seat.rows for x in (row.chosen, row.best, row.chances, row.loss)]
    for text in texts:
        assert text not in keys and "{" not in text, text
    assert ("Prozentpunkt" in view.intro) == (lang == "de")
    assert ("percentage point" in view.intro) == (lang == "en")


@pytest.mark.parametrize("lang", LANGS)
def test_a_game_against_the_computer_reviews_the_person_only(lang, monkeypatch):
    from app.computer import pacer as bots_ui

    # a chunk of grading is bounded by time: a short one, so that a fast machine does
    # not finish the whole review in the first tick
    monkeypatch.setattr(bots_ui, "CHUNK_MS", 1)
    c, host, timer = make_page(langs=(lang,))
    t = c.session.t
    start(c, ("Ann", "Robo"), ("human", "expert"), "trs1")
    play_out(c, timer)
    # at the end, before the review is through: the scoring and a "working" line
    c.computer.wake()
    timer.step()  # the first chunk (CHUNK_MS of grading) of a game of some 150 actions
    first = c.renderer.screen().table_review
    assert first is not None and not first.done and first.progress
    assert t("table_review.working", done=c.page.table_review.i,
             total=len(c.board.actions)) == first.progress
    assert 'data-testid="table-review-progress"' in host.html["players"]
    view = review_done(c, timer)
    check_words(view, lang)
    assert [s.seat for s in view.seats] == [0]  # the computer seat is not reviewed
    assert view.not_reviewed == t("table_review.not_reviewed")
    ann = view.seats[0]
    assert ann.name == "Ann" and "Ann" in ann.title
    graded = c.page.table_review.result
    assert graded.seats == (0,) and {d.seat for d in graded.decisions} == {0}
    # greedy play against the expert loses chance of winning somewhere
    assert ann.rows and ann.none is None
    assert len(ann.rows) <= TABLE_COSTLY_SHOWN
    losses = [float(row.loss.replace(",", ".")) for row in ann.rows]
    assert losses == sorted(losses, reverse=True) and losses[0] > 0
    assert all("→" in row.chances and "%" in row.chances for row in ann.rows)
    assert 1 <= len(view.turning) <= 3
    assert all(t("table_review.turning_title") != line for line in view.turning)
    assert all(line.startswith(t("review.round")) for line in view.turning)
    html = host.html["players"]
    assert 'data-testid="table-review"' in html and 'data-testid="scoring"' in html
    assert html.index('data-testid="scoring"') < html.index('data-testid="table-review"')
    assert '<th scope="col">' in html and "<h3" in html
    assert 'data-testid="table-review-row-0"' in html
    assert 'data-testid="table-review-seat-1"' not in html
    # the ranking rule in the rules' words, beside the ranked scores
    scoring = c.renderer.screen().scoring
    assert [r.rank for r in scoring.rows] == sorted(r.rank for r in scoring.rows)
    tie = c.renderer.screen().game.scoring.lines
    assert t("result.ranking_rule") in tie or t("result.tie_break") in tie


@pytest.mark.parametrize("lang", LANGS)
def test_pass_and_play_reviews_both_people(lang):
    c, host, timer = make_page(langs=(lang,))
    start(c, ("Ann", "Bo"), ("human", "human"), "trs2")
    play_out(c, timer, bot="random")
    view = review_done(c, timer)
    check_words(view, lang)
    assert [s.seat for s in view.seats] == [0, 1] and view.not_reviewed is None
    assert [s.name for s in view.seats] == ["Ann", "Bo"]
    for seat in view.seats:
        assert seat.rows or seat.none
    html = host.html["players"]
    assert all(f'data-testid="table-review-seat-{i}"' in html for i in (0, 1))
    # a new game leaves the old review behind
    start(c, ("Ann", "Bo"), ("human", "human"), "trs3")
    c.session.render()
    assert c.renderer.screen().table_review is None
    assert 'data-testid="table-review"' not in host.html["players"]


def test_three_players_with_a_computer_and_the_words_of_both_languages():
    c, host, timer = make_page(langs=("en", "de"))
    start(c, ("Ann", "Bo", "Robo"), ("human", "human", "greedy"), "trs4")
    play_out(c, timer)
    view = review_done(c, timer)
    assert [s.seat for s in view.seats] == [0, 1] and view.not_reviewed
    english = host.html["players"]
    c.handle("click", "lang", "de")  # the other language: the same review, in German
    c.session.render()
    german = c.renderer.screen().table_review
    assert german is not None and german.done and c.renderer.screen().lang == "de"
    check_words(german, "de")
    assert german.title == TABLES["de"]["table_review.title"] != view.title
    assert len(german.turning) == len(view.turning)
    assert host.html["players"] != english and "Wendepunkte" in host.html["players"]


def play_local(c, bot: str = "greedy") -> None:
    """Play this device's turns until the turn leaves it (or the game ends)."""
    for _ in range(300):
        b = c.board
        if b.state.phase is Phase.OVER or not c.page.seat_kind(b.state.seat).is_here:
            return
        assert c.play.dispatch(get_bot(bot)(b.state, random.Random(len(b.actions))))
    raise AssertionError("the turn never ended")


def test_a_game_with_a_friend_elsewhere_reviews_only_the_local_seat_on_each_device():
    a, _, timer_a = make_page()
    b, host_b, timer_b = make_page(langs=("de",))
    start(a, ("Ann", "Bo"), ("human", "friend"), "trs5")
    play_local(a)
    link = a.page.dialog.link
    a.handle("click", "close", None)
    b.handle("hashchange", None, "#" + link.split("#", 1)[1])
    b.handle("submit", "corr-claim", None, form={"seat1": "on"})
    assert b.session.entry.seats == ("friend", "here")
    while not a.board.is_game_over():
        for me, other in ((b, a), (a, b)):
            if me.board.is_game_over():
                break
            play_local(me, "random" if me is b else "greedy")
            link = me.page.dialog.link
            me.handle("click", "close", None)
            other.handle("hashchange", None, "#" + link.split("#", 1)[1])
            assert other.board.actions == me.board.actions
    assert b.board.is_game_over()
    view_a = review_done(a, timer_a)
    view_b = review_done(b, timer_b)
    assert [s.seat for s in view_a.seats] == [0] and view_a.not_reviewed
    assert [s.seat for s in view_b.seats] == [1] and view_b.not_reviewed
    assert a.page.table_review.result.seats == (0,) and b.page.table_review.result.seats == (1,)
    check_words(view_b, "de")
    # both devices see the same turning points of the same game
    assert a.page.table_review.result.turning_points == b.page.table_review.result.turning_points
    assert 'data-testid="table-review-seat-1"' in host_b.html["players"]
