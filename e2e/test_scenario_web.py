"""Issue 12 in the browser: a solo scenario game's Hint shows the chance of meeting the
scenario, from the scenario's own table, which the page fetches only then (data/scenarios/,
kept off the start-up path like every data file; scripts/build.py, web/main.py)."""

from __future__ import annotations

from board_helpers import new_game
from playwright.sync_api import Page

FETCHED = "performance.getEntriesByType('resource').map(e => new URL(e.name).pathname)"
TABLE = "/data/scenarios/tucson-standard.bin"


def test_scenario_hint_fetches_its_table_lazily_and_shows_the_chance(app_page: Page) -> None:
    page = app_page
    new_game(page, ("Sam",), seed="e2eScenarioHint", scenario="tucson")
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
    options = page.locator("[data-testid=hint-option]").all_inner_texts()
    assert len(options) == 3
    for text in options:
        assert "chance of meeting Tucson: " in text and "%, expected " in text, text
    fetched = page.evaluate(FETCHED)
    assert fetched.count(TABLE) == 1  # this scenario's table only, once
    assert [p for p in fetched if "/data/" in p] == [TABLE]  # not the plain solo table
    page.click("#btn-hint")  # asked again: already in the package folder, no new fetch
    page.locator("[data-testid=hint-option]").first.wait_for()
    assert page.evaluate(FETCHED).count(TABLE) == 1
