"""The table at a glance in the real page: at the start of every turn, for 1 to 4
players, on a 390x844 touch phone and at 1280x800, the scoreboard is on screen (also
scrolled to the bottom: the top bar stays at the top), the seats keep their order, and
nothing overflows sideways. The phone's tools fold into the top bar's menu."""

from __future__ import annotations

import pytest
from board_helpers import POLICY_STEP
from playwright.sync_api import Browser, Page

SIZES = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
NAMES = ("Ann", "Bo", "Cy", "Dee")
IN_VIEW = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }"""
TURN_START = """() => !document.querySelector('[data-testid=taken]') &&
  !!document.querySelector('#yard-G:not([disabled])')"""


def check_turn_start(page: Page, count: int) -> None:
    seats = page.evaluate("""() => [...document.querySelectorAll('#players .player')]
                             .map((p) => p.dataset.testid)""")
    assert seats == [f"player-{i}" for i in range(count)]
    board = page.evaluate("""() => [...document.querySelectorAll('.scoreboard .sb')]
                             .map((p) => [p.dataset.testid, p.classList.contains('active')])""")
    assert [b[0] for b in board] == [f"sb-{i}" for i in range(count)]
    assert sum(active for _, active in board) == 1
    for scroll in ("0", "document.documentElement.scrollHeight"):
        page.evaluate(f"window.scrollTo(0, {scroll})")
        assert page.evaluate(IN_VIEW, ".scoreboard"), f"scoreboard off screen at scroll {scroll}"
    page.evaluate("window.scrollTo(0, 0)")
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1]


@pytest.mark.parametrize("size", SIZES)
def test_every_turn_starts_with_the_scoreboard_on_screen_and_seats_in_place(
    browser: Browser, site_url: str, wait_ready, size: str
) -> None:
    ctx = browser.new_context(**SIZES[size])
    try:
        page = ctx.new_page()
        for count in range(1, 5):
            names = ",".join(NAMES[:count])
            page.goto(f"{site_url}#play?p={names}&seed=glance{count}&start=0",
                      wait_until="commit")
            wait_ready(page)
            confirm = page.locator("[data-testid=dialog-confirm_link] #dlg-first")
            if confirm.count():
                confirm.click()
            page.locator("#yard-G").wait_for()
            starts = 0
            for _ in range(400):
                if page.evaluate(TURN_START):
                    check_turn_start(page, count)
                    starts += 1
                    if starts > 2 * count:  # two rounds
                        break
                assert page.evaluate(POLICY_STEP) not in ("stuck", "over")
            assert starts > 2 * count
    finally:
        ctx.close()


def test_the_phone_folds_its_tools_into_the_menu(browser: Browser, site_url: str,
                                                  wait_ready) -> None:
    ctx = browser.new_context(**SIZES["phone"])
    try:
        page = ctx.new_page()
        page.goto(f"{site_url}#play?p=Ann,Bo&seed=menu2&start=0", wait_until="commit")
        wait_ready(page)
        assert not page.locator("#btn-rules").is_visible()
        menu = page.locator("#btn-menu")
        assert menu.bounding_box()["height"] >= 44
        menu.click()
        assert menu.get_attribute("aria-expanded") == "true"
        for tool in ("#btn-games", "#btn-new", "#btn-share", "#btn-rules", "#btn-lang"):
            box = page.locator(tool).bounding_box()
            assert box and box["height"] >= 44, tool
        page.click("#btn-rules")
        page.locator("[data-testid=dialog-rules]").wait_for()
        page.keyboard.press("Escape")
        assert not page.locator("#btn-rules").is_visible()  # the menu closed
    finally:
        ctx.close()
