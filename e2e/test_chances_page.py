"""The chances as the game goes in the browser: against a computer the chart beside the log
fills in after some turns (worked out in the page's worker in idle time), and a point of
it, tapped or reached with the keyboard through its table, opens the replay at that turn.
The values, the switch and the words in both languages: tests/test_chances.py."""

from __future__ import annotations

import json
import random

from playwright.sync_api import Page

from skyline import Board, Options
from skyline.players.bots import BOTS

TURNS = 6  # turns played before the page opens the game: Ann's (greedy) and Robo's


def played() -> Board:
    board = Board(Options(("Ann", "Robo"), "e2eChances", 0, False, None))
    rng = random.Random(2)
    ended = 0
    while ended < TURNS:
        before = (board.state.round, board.state.seat)
        board.push(BOTS["greedy"](board.state, rng))
        ended += (board.state.round, board.state.seat) != before
    return board


def test_the_chart_fills_in_against_a_computer_and_a_point_opens_the_replay(
    app_page: Page, wait_ready
) -> None:
    page = app_page
    page.locator("[data-testid=dialog-newgame]").wait_for()
    page.select_option("#dlg-first", "2")
    page.fill("#ng-name0", "Ann")
    page.fill("#ng-name1", "Robo")
    page.select_option("#ng-seat1", "expert")
    page.select_option("#ng-start", "0")
    page.fill("#ng-seed", "e2eChances")
    page.click("#ng-start-btn")
    # the game so far, as if played here: stored as the open game's save, then reloaded
    page.wait_for_function("""(() => {
        const i = JSON.parse(localStorage.getItem('skyline.games') || 'null');
        return i && i.current && localStorage.getItem('skyline.game.' + i.current) !== null;
    })()""")
    board = played()
    page.evaluate("""(game) => {
        const id = JSON.parse(localStorage.getItem('skyline.games')).current;
        const entry = JSON.parse(localStorage.getItem('skyline.game.' + id));
        entry.save.game = JSON.parse(game);
        localStorage.setItem('skyline.game.' + id, JSON.stringify(entry));
    }""", json.dumps(json.loads(board.to_json())))
    page.reload(wait_until="commit")
    wait_ready(page)
    chances = page.locator("[data-testid=chances]")
    assert chances.locator("[data-testid=chances-switch]").get_attribute("aria-checked") == "true"
    points = chances.locator("[data-testid=chances-point]")
    page.wait_for_function(
        f"document.querySelectorAll('[data-testid=chances-point]').length >= {TURNS + 1}",
        timeout=60_000)
    assert chances.locator("[data-testid=chances-chart]").get_attribute("aria-hidden") == "true"
    rows = chances.locator("[data-testid=chances-row]")
    assert rows.count() == points.count()
    box = chances.locator(".chances-box").bounding_box()
    assert box is not None and box["height"] > 100  # the chart's reserved box, drawn

    # a tap on the third turn's point: the replay shows the game after that turn
    step = int(points.nth(3).get_attribute("data-arg") or "-1")
    assert step > 0
    points.nth(3).click()
    replay = page.locator("[data-testid=replay]")
    replay.wait_for()
    assert page.locator("[data-testid=replay-position]").inner_text().startswith(f"Move {step} of ")
    assert rows.nth(3).get_attribute("aria-current") == "step"

    # the keyboard: the table's first turn, reached and pressed with Enter
    first = rows.nth(1).locator("button")
    first.focus()
    assert first.is_visible()  # the table shows itself once the keyboard is in it
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('[data-testid=chances-row][aria-current=step]')"
                           " === document.querySelectorAll('[data-testid=chances-row]')[1]")
    page.keyboard.press("Escape")
    replay.wait_for(state="detached")
