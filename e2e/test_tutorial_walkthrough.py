""""Learn to play" in the browser: the guided first game completed by clicks in English
at 1280x800 (the first turns by keyboard alone) and by taps in German on a 390x844
phone, with a wrong click, a skip, a reload in the middle, axe on every step, and the
game that waited checked byte for byte. The steps themselves are covered one by one
under CPython (tests/test_tutorial_page.py); this file keeps what needs a browser.

``SKYLINE_TUTORIAL_SHOTS=<folder>`` saves a screenshot of every step there.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from axe_helpers import describe, run_axe
from playwright.sync_api import BrowserContext, Page

SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
SHOTS = os.environ.get("SKYLINE_TUTORIAL_SHOTS")
COACH = "#coach"
MARKED = "#turn .hinted, #supply .hinted, #players .art-lot.hinted button"


class Walk:
    """One page walking the tutorial: presses (click or tap), axe and a screenshot on
    every new step."""

    def __init__(self, page: Page, lang: str, size: str,
                 audits: Callable[[str], bool] = lambda step: True) -> None:
        self.page, self.lang, self.size = page, lang, size
        self.audits = audits  # the steps axe checks (one walk checks every step)
        self.seen: list[str] = []
        self.failures: list[str] = []
        self.presses = 0

    def step(self) -> str:
        coach = self.page.locator(COACH)
        if coach.count() == 0:
            return ""
        return coach.get_attribute("data-step") or ""

    def press(self, selector: str) -> None:
        # click and tap scroll the target into view themselves, and look it up again if
        # a render of the page's own (the hint arriving, say) replaced it meanwhile
        target = self.page.locator(selector).first
        if self.size == "phone":
            target.tap()
        else:
            target.click()
        self.presses += 1
        self.look()

    def look(self) -> None:
        step = self.step()
        if step and (not self.seen or self.seen[-1] != step):
            self.seen.append(step)
            violations = run_axe(self.page) if self.audits(step) else []
            if violations:
                self.failures.append(f"{self.lang} {self.size} {step}:\n{describe(violations)}")
            if SHOTS:
                folder = Path(SHOTS)
                folder.mkdir(parents=True, exist_ok=True)
                name = f"{self.lang}-{self.size}-{len(self.seen):02d}-{step}.png"
                self.page.screenshot(path=str(folder / name), full_page=True)

    def follow(self) -> None:
        """Press what the step asks for: Next on a card, else the marked element."""
        if self.page.locator("#tutorial-next").count():
            self.press("#tutorial-next")
        else:
            self.press(MARKED)

    def until(self, step: str) -> None:
        for _ in range(80):
            if self.step() == step:
                return
            self.follow()
        raise AssertionError(f"{step} not reached: {self.seen}")

    def solo_turn(self) -> None:
        """A turn of the solo part: three ground floors, rolled and built (a ground floor
        always can be), then End turn."""
        for _ in range(3):
            self.press("#yard-G")
        self.press("#act-roll")
        ids = [d.get_attribute("data-die")
               for d in self.page.locator("#turn button[data-testid=die]").all()]
        for die in ids:
            self.press(f"#die-{die}")
        self.press("#act-build")
        self.press("#act-end")


def games_stored(page: Page) -> dict[str, str]:
    return page.evaluate("""() => Object.fromEntries(Object.keys(localStorage)
        .filter(k => k.startsWith('skyline.game')).map(k => [k, localStorage.getItem(k)]))""")


def open_context(warm_context: Callable[..., BrowserContext], site_url: str, lang: str,
                 size: str) -> BrowserContext:
    return warm_context(bypass_csp=True, base_url=site_url, **SIZES[size],
                              locale="de-DE" if lang == "de" else "en-US")


def test_english_desktop_from_the_welcome_by_keyboard_and_clicks(
    warm_context, site_url: str, open_app, wait_ready, guard,
) -> None:
    page = open_context(warm_context, site_url, "en", "desktop").new_page()
    guard.attach(page)
    open_app(page, site_url)
    page.locator("[data-testid=dialog-newgame] #ng-learn").click()
    walk = Walk(page, "en", "desktop")
    walk.look()
    assert walk.step() == "intro"
    assert page.locator("#dialog dialog").count() == 0
    # keyboard only: the focus waits on what the step wants, Enter presses it
    for _ in range(10):
        page.keyboard.press("Enter")
        walk.look()
    assert walk.step() == "e_done", walk.seen
    assert page.evaluate("document.activeElement.id") == "tutorial-next"
    walk.follow()
    # a wrong click: a friendly word, nothing taken
    assert walk.step() == "t_take"
    walk.press("#yard-P")
    assert page.locator("[data-testid=coach-oops]").is_visible()
    assert page.locator("[data-testid=taken]").count() == 0
    walk.until("t_abandon")
    # a reload in the middle comes back at the step
    page.reload()
    wait_ready(page)
    assert walk.step() == "t_abandon"
    walk.until("solo")
    assert page.locator("[data-testid=district] .die").count() == 0  # the solo board
    walk.solo_turn()
    page.locator(COACH, has_text="Hint suggests").wait_for()
    walk.solo_turn()
    assert walk.step() == "finish"
    walk.press("#tutorial-play")
    assert page.locator(COACH).count() == 0
    page.locator("[data-testid=dialog-newgame]").wait_for()  # the welcome again: a real game
    assert json.loads(page.evaluate("localStorage.getItem('skyline.settings') || '{}'")).get(
        "tutorial") is None
    assert not walk.failures, "\n\n".join(walk.failures)


def test_german_phone_by_taps_with_a_skip_and_the_game_untouched(
    warm_context, site_url: str, open_app, wait_ready, guard,
) -> None:
    page = open_context(warm_context, site_url, "de", "phone").new_page()
    guard.attach(page)
    open_app(page, site_url)
    page.locator("#ng-cancel").tap()
    for row in ("#yard-G", "#yard-G", "#yard-U"):
        page.locator(row).tap()
    page.locator("#act-roll").tap()
    stored = games_stored(page)
    assert stored
    prompt = page.locator("#prompt").inner_text()

    # axe on every step in English; here on one step of each kind (the page is the same)
    walk = Walk(page, "de", "phone",
                lambda step: step in ("intro", "e_take", "d_demolish", "t_done", "solo", "finish"))
    page.locator("#btn-menu").tap()
    walk.press("#btn-learn")
    assert page.locator("#coach-title").inner_text() == "Die Beispielrunde aus der Spielregel"
    walk.until("e_build")
    walk.press("#tutorial-leave")  # skip: the game is back as it was
    assert page.locator(COACH).count() == 0
    assert page.locator("#prompt").inner_text() == prompt
    assert games_stored(page) == stored

    page.locator("#btn-menu").tap()
    walk.press("#btn-learn")
    walk.until("d_demolish")
    walk.press("#die-3")  # the blue penthouse: not now, a friendly word
    assert page.locator("[data-testid=coach-oops]").inner_text().startswith("Nicht dieser")
    page.reload()
    wait_ready(page)
    assert walk.step() == "d_demolish"
    walk.until("solo")
    walk.solo_turn()
    walk.solo_turn()
    assert walk.step() == "finish"
    walk.press("#tutorial-play")
    page.locator("[data-testid=dialog-newgame]").wait_for()
    page.locator("#ng-cancel").tap()
    assert page.locator("#prompt").inner_text() == prompt
    assert games_stored(page) == stored  # never written, never listed
    assert page.evaluate("localStorage.getItem('skyline.history')") is None
    assert not walk.failures, "\n\n".join(walk.failures)

