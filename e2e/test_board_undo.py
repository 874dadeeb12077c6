"""Undo follows the engine: taking is undoable until the roll, each build and each
demolition is its own step, a roll commits (abandon as one step: test_board_play)."""

from __future__ import annotations

from board_helpers import close_first_dialog, dice, enabled, new_game, record, select_only, take
from playwright.sync_api import Page


def columns(page: Page) -> int:
    return page.locator("[data-testid=player-0] [data-testid=column]").count()


def test_undo_rules(app_page: Page) -> None:
    page = app_page
    close_first_dialog(page)
    new_game(page, ("Uma",), seed="undo1")
    taken = page.locator("[data-testid=taken]")

    # Taking: each pick can be put back or undone, even after the third (until the roll).
    take(page, "G")
    assert taken.count() == 1 and enabled(page, "undo")
    page.click("#act-undo")
    assert taken.count() == 0 and not enabled(page, "undo")
    take(page, "GGG")
    assert page.locator("[data-testid=prompt]").get_attribute("data-phase") == "roll"
    assert record(page).endswith("| tGGG")
    page.click("#act-undo")  # back to choosing, with two picks left
    assert page.locator("[data-testid=prompt]").get_attribute("data-phase") == "take"
    assert taken.count() == 2
    assert record(page).endswith("| ")
    take(page, "G")
    page.click("#untake-0")  # put one back from the tray
    assert taken.count() == 2
    page.click("#untake-1")
    assert taken.count() == 1
    take(page, "GG")
    page.click("#act-roll")

    # Roll commits.
    assert not enabled(page, "undo")
    before = columns(page)
    a, b, _ = (d["id"] for d in dice(page))

    # One build, one demolition: two separate undo steps.
    select_only(page, [a])
    page.click("#act-build")
    assert columns(page) == before + 1
    assert enabled(page, "undo")
    select_only(page, [b])
    page.click("#act-demolish")
    page.click("#col-0-0")
    assert columns(page) == before
    assert len(dice(page)) == 1
    rec = record(page)
    assert rec.endswith(f"b{a} x{b}@c0")

    page.click("#act-undo")  # the demolition only
    assert columns(page) == before + 1
    assert record(page) == rec[: -len(f" x{b}@c0")]
    assert {d["id"] for d in dice(page) if d["pressed"]} == {b}
    page.click("#act-undo")  # then the build
    assert columns(page) == before
    assert len(dice(page)) == 3
    assert not enabled(page, "undo")  # the roll before them is final
    assert record(page).endswith("tGGG r0.1.2")
