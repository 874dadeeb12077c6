"""A solo scenario game in the browser: its Hint shows the chance of meeting the scenario,
from the scenario's own table, which the page fetches only then (data/scenarios/, kept off
the start-up path like every data file; scripts/build.py), and its review uses the same
table."""

from __future__ import annotations

import json
import random

from board_helpers import new_game, saved, write_saved
from playwright.sync_api import Page

from skyline import Board, Options
from skyline.players.bots import BOTS
from skyline.players.review import review

# Every URL fetched so far, by the page (Resource Timing) and by the worker that runs
# Python (its own Resource Timing, through window.skylineBots), as paths.
FETCHED = """async () => [
  ...performance.getEntriesByType('resource').map((e) => e.name),
  ...JSON.parse(await window.skylineBots('resources', '')).map((e) => e.url),
].map((name) => new URL(name).pathname)"""
TABLE = "/data/scenarios/tucson-standard.bin"


def test_scenario_table_fetched_on_first_need_for_hint_and_review(
    app_page: Page, wait_ready
) -> None:
    """Hint in a Tucson game fetches Tucson's table once (not at start-up, not the plain
    solo table) and shows the chance of meeting it; the same game, finished and failed
    (played by the greedy bot in the engine and stored as its save), gets the review
    that names the decision that lost it, graded in the page's worker. Every word of
    both, in English and German: tests/test_screen_scenario.py
    (``test_scenario_hint_shows_the_chance_of_meeting_it_and_the_expected_score``,
    ``test_failed_scenario_review_names_it_and_the_decision_that_lost_it``)."""
    page = app_page
    options = Options(("Sam",), "e2eScenarioHint", 0, False, "tucson")
    new_game(page, options.names, seed=options.seed, scenario=options.scenario)
    assert page.locator("[data-testid=scenario]").count() == 1
    fetched = page.evaluate(FETCHED)
    assert not any("/data/scenarios/" in p for p in fetched)  # not at start-up, nor at start
    assert "/data/solo_values.bin" not in fetched
    page.click("#btn-hint")
    hint = page.locator("[data-testid=hint]")
    hint.wait_for()
    page.locator("[data-testid=hint-option]").first.wait_for()
    assert hint.inner_text().startswith("Best: ")
    assert "Chance of meeting Tucson" in hint.inner_text()
    options_shown = page.locator("[data-testid=hint-option]").all_inner_texts()
    assert len(options_shown) == 3
    for text in options_shown:
        assert "chance of meeting Tucson: " in text and "%, expected " in text, text
    fetched = page.evaluate(FETCHED)
    assert fetched.count(TABLE) == 1  # this scenario's table only, once
    assert [p for p in fetched if "/data/" in p] == [TABLE]  # not the plain solo table
    page.click("#btn-hint")  # asked again: already in the package folder, no new fetch
    page.locator("[data-testid=hint-option]").first.wait_for()
    assert page.evaluate(FETCHED).count(TABLE) == 1

    # the same game to its end, failed: the review says so and names the decision
    board = Board(options)
    rng = random.Random(1)
    while not board.is_game_over():
        board.push(BOTS["greedy"](board.state, rng))
    expected = review(board)
    culprit = expected["failed_by"]
    assert expected["failed_scenario"] == "tucson" and culprit is not None
    envelope = saved(page)
    envelope["game"] = json.loads(board.to_json())
    write_saved(page, envelope)
    page.reload(wait_until="commit")
    wait_ready(page)
    verdict = page.locator("[data-testid=review-scenario]")
    verdict.wait_for(timeout=60_000)  # graded in the worker
    text = verdict.inner_text()
    assert text.startswith("Scenario Tucson failed.")
    assert f"The decision that lost it: round {culprit['round']}, you chose " in text
    acc = page.locator("[data-testid=review-accuracy]").inner_text()
    assert acc.startswith(f"Accuracy on the Tucson objective {expected['accuracy']:.1f}%")
    assert TABLE in page.evaluate(FETCHED)  # fetched again by the reloaded page, for the review
