"""Computer players, the hint and the solo review in the browser (web/app/computer/pacer.py)."""

from __future__ import annotations

import json

from board_helpers import close_first_dialog, saved, stored_raw, take
from playwright.sync_api import Page

from skyline import Options, apply_action, new_game
from skyline.players.bots import BOTS


def start(page: Page, names, seats, seed: str) -> None:
    if page.locator("[data-testid=dialog-newgame]").count() == 0:
        page.click("#btn-new")
    page.select_option("#dlg-first", str(len(names)))
    for i, name in enumerate(names):
        page.fill(f"#ng-name{i}", name)
        page.select_option(f"#ng-seat{i}", seats[i])
    if len(names) > 1:
        page.select_option("#ng-start", "0")
    page.fill("#ng-seed", seed)
    page.click("#ng-start-btn")
    assert page.locator("#dialog dialog").count() == 0


def human_turn_steps(page: Page) -> None:
    """Ann (human, seat 0) takes G U P, rolls, builds the ground die, ends her turn."""
    take(page, "GUP")
    page.click("#act-roll")
    ground = page.locator("#turn button[data-type=G]").first
    ground.click()
    page.click("#act-build")
    if page.locator("#act-end").is_enabled():
        page.click("#act-end")


def test_computer_plays_its_turn_and_skip(app_page: Page) -> None:
    page = app_page
    close_first_dialog(page)
    # the seat selects are translated in both languages
    page.click("#btn-new")
    labels = page.locator("#ng-seat0 option").all_inner_texts()
    assert labels == ["Human", "Computer (Beginner)", "Computer (Greedy)", "Computer (Expert)"]
    start(page, ("Ann", "Robo"), ("human", "expert"), "botduel1")
    entry = json.loads(stored_raw(page))
    assert entry["seats"] == ["here", "expert"] and "seed=botduel1" in saved(page)["game"]["record"]
    human_turn_steps(page)
    # Robo's turn plays out by itself, one step at a time
    page.locator("[data-testid=bot-bar]").wait_for()
    assert "Robo" in page.locator("[data-testid=bot-bar]").inner_text()
    page.locator("#log li", has_text="Robo takes").wait_for(timeout=5000)
    # the board is not frozen while the computer plays: the rules dialog opens
    # (and the computer waits for it), closing it resumes play
    page.click("#btn-rules")
    page.locator("[data-testid=dialog-rules]").wait_for()
    page.keyboard.press("Escape")
    # human commands are refused during the computer's turn
    assert "Robo is playing (computer)" in page.locator("#prompt").inner_text()
    assert page.locator("#act-undo").is_disabled()
    # back to Ann in round 2 (the pace is 600 ms per action)
    page.locator("[data-testid=round]", has_text="2").wait_for(timeout=30000)
    assert "Ann" in page.locator("[data-testid=turn]").inner_text()
    # Skip: the computer's next turn finishes at once
    human_turn_steps(page)
    page.click("#bot-skip")
    page.locator("[data-testid=round]", has_text="3").wait_for(timeout=5000)
    # the page's game equals the engine's game played by the same bot
    record = saved(page)["game"]["record"]
    from skyline import Board

    board = Board.from_record(record)
    state = new_game(board.options)
    import random

    for i, action in enumerate(board.actions):
        if state.seat == 1:
            rng = random.Random(f"{board.options.seed}/1/{i}")
            assert BOTS["expert"](state, rng) == action
        state = apply_action(state, action)
    times = json.loads(page.evaluate("window.skylineBots('think', '')"))["think_ms"]
    assert times and max(times) < 1000


def test_hint_in_both_languages(app_page: Page) -> None:
    page = app_page
    close_first_dialog(page)
    start(page, ("Ann",), ("human",), "hint1")
    page.click("#btn-hint")
    hint = page.locator("[data-testid=hint]")
    hint.wait_for()
    assert hint.inner_text().startswith("Best: Take")
    assert page.locator("[data-testid=hint-option]").count() == 3
    assert "expected final score" in hint.inner_text()
    page.click("#btn-lang")
    assert page.locator("#btn-hint").inner_text() == "Tipp"
    page.click("#btn-hint")
    assert page.locator("[data-testid=hint]").inner_text().startswith("Am besten: Nimm")
    assert "erwartete Endpunktzahl" in page.locator("[data-testid=hint]").inner_text()
    page.click("#btn-lang")


def test_review_after_a_solo_game(app_page: Page) -> None:
    """Play a solo game by always following the hint's best choice: the review shows 100%."""
    page = app_page
    close_first_dialog(page)
    start(page, ("Ann",), ("human",), "review1")
    # play the game through the engine's bot and load it as a save: quicker than clicking
    opts = Options(("Ann",), "review1", 0)
    state = new_game(opts)
    from skyline import Board

    board = Board(opts)
    import random

    rng = random.Random(3)
    while not board.is_game_over():
        action = BOTS["greedy"](board.state, rng)
        board.push(action)
    assert state is not None
    envelope = saved(page)
    envelope["game"] = json.loads(board.to_json())
    page.evaluate("(s) => localStorage.setItem('skyline.save', s)", json.dumps(envelope))
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.locator("[data-testid=review]").wait_for(timeout=20000)
    acc = page.locator("[data-testid=review-accuracy]").inner_text()
    assert acc.startswith("Accuracy ") and "%" in acc
    assert page.locator("[data-testid=review-row]").count() > 9
    from skyline.players.review import review

    r = review(board)
    assert f"{r['accuracy']:.1f}%" in acc


def test_link_names_computer_seats(app_page: Page, site_url: str) -> None:
    """A link with bots=1g starts Robo as a computer; the share link carries it again."""
    page = app_page
    close_first_dialog(page)
    page.goto(site_url + "#play?p=Ann,Robo&seed=lnk1&start=1&bots=1g")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("[data-testid=round]").wait_for()
    # Robo starts: its first turn plays out by itself
    page.locator("#log li", has_text="Robo takes").wait_for(timeout=10000)
    page.locator("[data-testid=turn]", has_text="Ann").wait_for(timeout=30000)
    page.click("#btn-share")
    link = page.locator("[data-testid=share-link]").input_value()
    assert link.endswith("&bots=1g")
