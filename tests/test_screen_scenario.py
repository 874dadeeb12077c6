"""In a solo scenario game Hint and the review use the scenario's own
values (skyline/data/scenarios, loaded from the package under CPython); outside scenarios
nothing changes. The page's Python runs on the fake host (tests/web_fakes.py)."""

from __future__ import annotations

import random
from html import escape as html_escape

import pytest
from app.computer.view import COSTLY_SHOWN, LOSS_SHOWN, ReviewView
from app.core.i18n import Texts
from app.core.words import action_text, number, percent
from web_fakes import make_page, tables

from skyline import Board, Options
from skyline.players.bots import BOTS
from skyline.players.expert import hint
from skyline.players.review import review

TABLES = tables()
LANGS = ("en", "de")


def T(lang: str):
    return Texts(TABLES, lang).t


def start(lang: str, scenario: str, seed: str):
    c, host, timer = make_page(langs=(lang,))
    c.handle("submit", "ng-start", None,
             form={"count": "1", "name0": "Ann", "seed": seed, "scenario": scenario})
    assert c.board.options.scenario == scenario and c.board.state.solo
    return c, host, timer


def play_out(c, bot: str) -> None:
    rng = random.Random(3)
    c.page.takes = []
    while not c.board.is_game_over():
        c.play.dispatch(BOTS[bot](c.board.state, rng))
    c.handle("click", "dismiss", "0")


def reviewed(c, timer) -> ReviewView:
    timer.run(until=lambda: c.page.review is not None and c.page.review.done)
    r = c.renderer.screen().review
    assert r is not None and r.done
    return r


@pytest.mark.parametrize("lang", LANGS)
def test_scenario_hint_shows_the_chance_of_meeting_it_and_the_expected_score(lang):
    t = T(lang)
    c, host, _ = start(lang, "tucson", "sc1")
    c.handle("click", "bot-hint", None)
    h = c.renderer.screen().hint
    rows = hint(c.board.state, 3)  # the engine's scenario rows: p_success, expected_score
    assert h is not None and len(h.options) == len(rows) == 3
    assert all("p_success" in r for r in rows)
    name = t("scenario.tucson")
    assert h.heading == t("hint.scenario_options", scenario=name)
    for (_, value), row in zip(h.options, rows, strict=True):
        assert value == t("hint.scenario_value", scenario=name,
                          p=percent(lang, row["p_success"]),
                          value=number(lang, row["expected_score"]))
    # e.g. "chance of meeting Tucson: 97%, expected 71.2 points"
    first = h.options[0][1]
    assert name in first and ("%" in first) and number(lang, rows[0]["expected_score"]) in first
    assert (" %" in first) == (lang == "de")
    html = host.html["turn"]
    assert 'data-testid="hint"' in html and h.heading in html and first in html


@pytest.mark.parametrize("lang", LANGS)
def test_plain_solo_hint_keeps_its_heading_and_values(lang):
    """Outside scenarios nothing changes: expected final score only."""
    t = T(lang)
    c, host, _ = make_page(langs=(lang,))
    c.handle("submit", "ng-start", None, form={"count": "1", "name0": "Ann", "seed": "sc1"})
    c.handle("click", "bot-hint", None)
    h = c.renderer.screen().hint
    rows = hint(c.board.state, 3)
    assert "p_success" not in rows[0]
    assert h.heading == t("hint.options")
    assert [v for _, v in h.options] == [t("hint.value", value=number(lang, r["value"]))
                                        for r in rows]


def test_percent_never_rounds_a_possible_chance_to_certain():
    assert percent("en", 0.973) == "97" and percent("de", 0.5) == "50"
    assert percent("en", 0.9996) == "99.9" and percent("de", 0.9982) == "99,8"
    assert percent("en", 0.0004) == "0.1" and percent("en", 0.004) == "0.4"
    assert percent("en", 1.0) == "100" and percent("en", 0.0) == "0"


@pytest.mark.parametrize("lang", LANGS)
def test_failed_scenario_review_names_it_and_the_decision_that_lost_it(lang):
    """Tucson (no high-rise) played by the greedy bot: failed; the review says so, names
    the decision that gave away the chance (round, choice, better choice, probability),
    grades every decision on the scenario's objective and agrees with skyline.expert."""
    t = T(lang)
    c, host, timer = start(lang, "tucson", "sc1")
    play_out(c, "greedy")
    r = reviewed(c, timer)
    expected = review(c.board)
    assert expected["failed_scenario"] == "tucson" and expected["failed_by"] is not None
    culprit = expected["failed_by"]
    name = t("scenario.tucson")
    assert r.scenario_met is False
    assert r.scenario[0] == t("review.scenario_failed", scenario=name)
    chosen = action_text(t, culprit["state"], culprit["chosen"])
    best = action_text(t, culprit["state"], culprit["best"])
    assert r.scenario[1] == t(
        "review.scenario_lost_by", round=culprit["round"], chosen=chosen, best=best,
        p=number(lang, 100 * culprit["p_loss"]),
        before=percent(lang, culprit["best_p_success"]),
        after=percent(lang, culprit["chosen_p_success"]))
    assert str(culprit["round"]) in r.scenario[1] and chosen in r.scenario[1]
    # accuracy on the objective, with the chance given away and the optimum's chance
    assert r.accuracy == t(
        "review.scenario_accuracy", scenario=name,
        accuracy=number(lang, expected["accuracy"]),
        lost=number(lang, 100 * expected["p_loss_total"]),
        start=percent(lang, expected["start_p_success"]),
        optimum=number(lang, expected["start_expected_score"]))
    # every decision, graded on the same objective; the costly ones worst first
    assert len(r.rows) == len(expected["decisions"])
    losses = [d["loss"] for d in expected["decisions"]]
    assert [row.lost for row in r.rows] == [x >= LOSS_SHOWN for x in losses]
    costly = sorted((x for x in losses if x >= LOSS_SHOWN), reverse=True)[:COSTLY_SHOWN]
    assert len(r.costly) == len(costly) >= 1
    worst = max(range(len(losses)), key=lambda i: (losses[i], -i))
    assert r.costly[0] == r.rows[worst]
    p_lost = expected["decisions"][worst]["p_loss"]
    assert r.rows[worst].loss.startswith(number(lang, 100 * p_lost))
    assert r.lost_head == t("review.scenario_lost")
    assert r.rounds_title == t("review.scenario_rounds", scenario=name)
    html = host.html["players"]
    assert 'data-testid="review-scenario"' in html and 'review-scenario met' not in html
    for line in r.scenario + (r.accuracy, r.lost_head, r.rounds_title):
        assert html_escape(line, quote=True) in html


@pytest.mark.parametrize("lang", LANGS)
def test_met_scenario_review_says_so(lang):
    t = T(lang)
    c, host, timer = start(lang, "dubai", "sc1")
    play_out(c, "expert")
    r = reviewed(c, timer)
    assert review(c.board)["scenario_met"] is True
    assert r.scenario == (t("review.scenario_met", scenario=t("scenario.dubai")),)
    assert r.scenario_met is True
    assert 'class="review-scenario met"' in host.html["players"]


@pytest.mark.parametrize("lang", LANGS)
def test_scenario_failed_by_the_dice_names_no_decision(lang):
    """When no decision gave away any chance the review blames the dice, not a decision."""
    t = T(lang)
    c, _, timer = start(lang, "dubai", "sc1")
    play_out(c, "expert")
    timer.run(until=lambda: c.page.review is not None and c.page.review.done)
    verdict = dict(c.page.review.verdict)
    verdict.update(scenario_met=False, failed_scenario="dubai", failed_by=None)
    c.page.review.verdict = verdict
    r = c.renderer.screen().review
    assert r.scenario == (t("review.scenario_failed", scenario=t("scenario.dubai")),
                          t("review.scenario_dice"))


def test_plain_solo_review_has_no_scenario_part():
    c, _, timer = make_page()
    c.handle("submit", "ng-start", None, form={"count": "1", "name0": "Ann", "seed": "rv"})
    play_out(c, "greedy")
    r = reviewed(c, timer)
    assert r.scenario == () and r.scenario_met is None and c.page.review.verdict is None
    assert r.lost_head == T("en")("review.lost")


def test_scenario_board_matches_the_engine_review():
    """The page grades in slices (bots_ui.review_step); the verdict equals skyline's
    review of the same game."""
    c, _, timer = start("en", "essen", "sc2")
    play_out(c, "greedy")
    timer.run(until=lambda: c.page.review is not None and c.page.review.done)
    verdict = c.page.review.verdict
    board = Board(Options(("Ann",), "sc2", 0, False, "essen"))
    for a in c.board.actions:
        board.push(a)
    expected = review(board)
    for key in ("scenario", "scenario_met", "failed_scenario"):
        assert verdict[key] == expected[key]
    for key in ("start_p_success", "p_loss_total"):
        assert verdict[key] == pytest.approx(expected[key])
    assert verdict["failed_by"]["round"] == expected["failed_by"]["round"]
