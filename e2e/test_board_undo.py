"""Undo in the browser: the button and the tray's put-back undo through the page and the
saved record follows. The rules of undo are proven under CPython: the engine's
(``tests/test_rules.py``: ``test_undo_take_until_roll_and_commits``,
``test_undo_each_build_and_demolish_is_its_own_step``, ``test_undo_abandon_is_one_step``),
the reasons the page gives for a greyed Undo (``tests/test_screen.py``), and every undo
and put-back the page offers at every state of 16 whole games
(``tests/test_screen_walk.py``). Abandon undone as one step: test_board_play."""

from __future__ import annotations

from board_helpers import close_first_dialog, dice, enabled, new_game, record, select_only, take
from playwright.sync_api import Page


def columns(page: Page) -> int:
    return page.locator("[data-testid=player-0] [data-testid=column]").count()


def test_undo_and_put_back(app_page: Page) -> None:
    page = app_page
    close_first_dialog(page)
    new_game(page, ("Uma",), seed="undo1")
    taken = page.locator("[data-testid=taken]")

    # Taking: a pick can be undone, or put back from the tray, until the roll.
    take(page, "G")
    assert taken.count() == 1 and enabled(page, "undo")
    page.click("#act-undo")
    assert taken.count() == 0 and not enabled(page, "undo")
    take(page, "GGG")
    assert record(page).endswith("| tGGG")
    page.click("#untake-0")  # put one back from the tray
    assert taken.count() == 2
    take(page, "G")
    page.click("#act-roll")
    assert not enabled(page, "undo")  # a roll commits

    # A build is undone, saved, and the roll before it stays final.
    before = columns(page)
    a = dice(page)[0]["id"]
    select_only(page, [a])
    page.click("#act-build")
    assert columns(page) == before + 1 and record(page).endswith(f"b{a}")
    page.click("#act-undo")
    assert columns(page) == before and len(dice(page)) == 3
    assert not enabled(page, "undo")
    assert record(page).endswith("tGGG r0.1.2")
