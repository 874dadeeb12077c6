"""Accessibility in the browser: axe-core on every screen, English and German,
light and dark; modal dialogs and focus; the polite live region; keyboard-only play.

The audits walk one page per language through every screen (welcome, take, rules,
share, new game, computer turn, take after it, hint, the phone's table and its open
menu, resolve, error notice, tower choice, forced demolition and its target choice, game
over with the review) and run axe in both colour schemes at each stop
(``emulate_media`` switches prefers-color-scheme without a reload). All violations of a
walk are collected and reported together.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from axe_helpers import COLOUR_RULES, describe, run_axe
from board_helpers import close_first_dialog, dice, select_only, take
from playwright.sync_api import BrowserContext, Page

from skyline import Board, Demolish, Options, Phase
from skyline.players.bots import BOTS

# Solo seed=choice0 (as in test_board_play): the upper-floor blue die 1 can go on two
# different blue columns, so Build asks for the tower.
CHOICE_RECORD = (
    "skyline1 players=Ann seed=choice0 start=0 nine=0 scenario=- | tGUU r0.1.2 b0 e "
    "tGUU r0.1.2 b0 b2@2 e tGUU r0.1.2 b0 e tGUU r0.1.2"
)
# app/computer/pacer.py PACE_MS: the delay between two computer actions. HOLD_PACE keeps those
# timers (and only those) so a computer's turn stands still while it is audited; a call
# that reaches the wrapper after RELEASE_HELD (the worker may still hold it) runs as usual.
PACE_MS = 600
HOLD_PACE = f"""() => {{
  if (window.__held) return;
  window.__held = [];
  window.__realTimeout = window.setTimeout;
  window.setTimeout = (fn, ms, ...args) =>
    ms === {PACE_MS} && window.__held ? (window.__held.push(fn), -1)
      : window.__realTimeout(fn, ms, ...args);
}}"""
STEP_HELD = "() => { const fn = window.__held.shift(); if (fn) fn(); return !!fn; }"
RELEASE_HELD = """() => {
  window.setTimeout = window.__realTimeout;
  const held = window.__held || [];
  window.__held = null;
  for (const fn of held) window.setTimeout(fn, 0);
}"""
ACTIVE = """() => {
  const a = document.activeElement;
  return a ? (a.id || a.tagName) : null;
}"""


def forced_demolition() -> Board:
    """A solo game whose rolled dice can only demolish (nothing buildable, no Abandon
    in solo): the greedy bot's game of seed forced0, stopped at the first such roll."""
    board = Board(Options(("Ann",), "forced0", 0, False, None))
    rng = random.Random(0)
    while not board.is_game_over():
        state = board.state
        if state.phase is Phase.RESOLVE and {type(a) for a in board.legal_actions()} == {
            Demolish
        }:
            return board
        board.push(BOTS["greedy"](state, rng))
    raise AssertionError("no forced demolition in this game")


def finished_solo() -> Board:
    board = Board(Options(("Ann",), "review1", 0, False, None))
    rng = random.Random(3)
    while not board.is_game_over():
        board.push(BOTS["greedy"](board.state, rng))
    return board


def load(page: Page, board: Board, wait_ready) -> None:
    """Store ``board`` as the (older versions') single save and reload: the page opens
    it as its current game."""
    envelope = {"v": 1, "game": json.loads(board.to_json()), "saved_at": "2026-01-01T00:00:00Z"}
    page.evaluate("s => localStorage.setItem('skyline.save', s)", json.dumps(envelope))
    page.reload(wait_until="commit")
    wait_ready(page)


class Audit:
    """axe on the whole page: every rule in the light scheme, the colour rules in the dark
    one (unless ``dark`` is False); failures are collected."""

    def __init__(self, page: Page, lang: str, dark: bool = True) -> None:
        self.page = page
        self.lang = lang
        self.schemes = ("light", "dark") if dark else ("light",)
        self.failures: list[str] = []
        self.screens: list[str] = []

    def __call__(self, screen: str) -> None:
        page = self.page
        assert page.evaluate("document.documentElement.lang") == self.lang, screen
        for scheme in self.schemes:
            page.emulate_media(color_scheme=scheme)
            assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
            violations = run_axe(page, rules=None if scheme == "light" else COLOUR_RULES)
            if violations:
                self.failures.append(f"{self.lang} {scheme} {screen}:\n{describe(violations)}")
        self.screens.append(screen)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_screen_has_no_axe_violations(
    lang: str, warm_context: Callable[..., BrowserContext], site_url: str, open_app,
    wait_ready, guard,
) -> None:
    ctx = warm_context(bypass_csp=True, base_url=site_url,
                             locale="de-DE" if lang == "de" else "en-US")
    page = ctx.new_page()
    guard.attach(page)
    open_app(page, site_url)
    # The colours are the same in both languages: the dark scheme's walk is the English one's.
    audit = Audit(page, lang, dark=lang == "en")

    page.locator("[data-testid=dialog-newgame]").wait_for()
    audit("welcome")
    close_first_dialog(page)
    audit("take")
    page.click("#btn-rules")
    page.locator("[data-testid=dialog-rules]").wait_for()
    audit("rules")
    page.keyboard.press("Escape")
    page.click("#btn-share")
    page.locator("[data-testid=dialog-share]").wait_for()
    audit("share")
    page.click("#dlg-first")

    # two players, the first a computer: its turn stands still while audited
    page.click("#btn-new")
    page.locator("[data-testid=dialog-newgame]").wait_for()
    page.select_option("#dlg-first", "2")
    page.select_option("#ng-seat0", "beginner")
    page.select_option("#ng-start", "0")
    page.fill("#ng-seed", "a11y1")
    audit("new game")
    page.evaluate(HOLD_PACE)
    page.click("#ng-start-btn")
    page.locator("[data-testid=bot-bar]").wait_for()
    page.wait_for_function("window.__held.length > 0")
    audit("computer turn")
    page.evaluate(RELEASE_HELD)
    page.click("#bot-skip")  # the rest of its turn without the pace
    page.locator("#yard-G:not([disabled])").wait_for(timeout=30000)
    audit("take (two players)")
    page.click("#btn-hint")
    page.locator("[data-testid=hint]").wait_for(timeout=30000)
    audit("hint marked on the board")
    # the phone's table: the skylines' strip, the last turn's line, the folded menu
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.locator("[data-testid=last-turn]").is_visible()
    audit("phone table after a computer's turn")
    page.click("#btn-menu")
    assert page.locator("#btn-rules").is_visible()
    audit("phone menu open")
    page.click("#btn-menu")
    page.set_viewport_size({"width": 1280, "height": 720})
    take(page, "GUP")
    page.click("#act-roll")
    audit("resolve")

    page.evaluate("location.hash = '#play?p=&seed='")  # a broken link: an error notice
    page.locator("[data-testid=notice].n-error").wait_for()
    audit("error notice")

    load(page, Board.from_record(CHOICE_RECORD), wait_ready)
    select_only(page, [1])
    page.click("#act-build")
    page.locator("#players button.target[data-testid=column]").first.wait_for()
    audit("tower choice")

    load(page, forced_demolition(), wait_ready)
    audit("forced demolition")
    select_only(page, [dice(page)[0]["id"]])
    page.click("#act-demolish")
    page.locator("#players button.target").first.wait_for()
    audit("demolition target")

    load(page, finished_solo(), wait_ready)
    page.locator("[data-testid=review]").wait_for(timeout=30000)
    audit("game over with review")

    assert audit.failures == [], "\n".join(audit.failures)
    assert len(audit.screens) == 16


def resolve_rest(page: Page, press: Callable[[str], None]) -> None:
    """Use the remaining dice until End turn is possible: build a die if it can be
    built, else abandon it (or demolish with it, in solo) and pick the first target."""
    while page.locator("#act-end").is_disabled():
        die = dice(page)[0]["id"]
        if not [d["pressed"] for d in dice(page) if d["id"] == die][0]:
            press(f"die-{die}")
        for command in ("build", "abandon", "demolish"):
            button = page.locator(f"#act-{command}")
            if button.count() and button.is_enabled():
                press(f"act-{command}")
                break
        else:
            raise AssertionError("no command for the die")
        if page.locator("#players button.target").count():
            press(page.locator("#players button.target").first.get_attribute("id"))


# ---------------------------------------------------------------------------- focus


def active(page: Page) -> str | None:
    return page.evaluate(ACTIVE)


def in_dialog(page: Page) -> bool:
    return page.evaluate("!!document.activeElement?.closest('#dialog dialog[open]')")


def test_dialogs_are_modal_and_give_the_focus_back(app_page: Page, wait_ready) -> None:
    page = app_page
    page.locator("[data-testid=dialog-newgame]").wait_for()
    assert in_dialog(page), "the welcome dialog has the focus"
    page.keyboard.press("Escape")
    assert page.locator("#dialog dialog").count() == 0
    assert active(page) not in (None, "BODY")

    for opener, kind in (("#btn-rules", "rules"), ("#btn-new", "newgame"),
                         ("#btn-share", "share")):
        page.focus(opener)
        page.keyboard.press("Enter")
        page.locator(f"[data-testid=dialog-{kind}]").wait_for()
        assert page.evaluate("document.querySelector('#dialog dialog').open")
        assert page.evaluate("document.querySelector('#dialog dialog').matches(':modal')")
        assert in_dialog(page), kind
        count = page.evaluate(
            "document.querySelectorAll('#dialog dialog :is(button, input, select, a[href],"
            " textarea):not([disabled])').length"
        )
        for _ in range(count + 2):  # round the end, both ways
            page.keyboard.press("Tab")
            assert in_dialog(page), f"Tab left the {kind} dialog"
        for _ in range(count + 2):
            page.keyboard.press("Shift+Tab")
            assert in_dialog(page), f"Shift+Tab left the {kind} dialog"
        page.keyboard.press("Escape")
        assert page.locator("#dialog dialog").count() == 0
        assert active(page) == opener[1:], f"focus after closing {kind}"

    # a language switch re-renders the top bar: the focus stays on the button
    page.focus("#btn-lang")
    page.keyboard.press("Enter")
    page.wait_for_function("document.documentElement.lang === 'de'")
    assert active(page) == "btn-lang"
    page.keyboard.press("Enter")
    page.wait_for_function("document.documentElement.lang === 'en'")

    # Escape on a tower choice leaves the focus on the board
    load(page, Board.from_record(CHOICE_RECORD), wait_ready)
    select_only(page, [1])
    page.click("#act-build")
    page.focus("#col-0-2")
    page.keyboard.press("Escape")
    assert page.locator("[data-testid=prompt]").get_attribute("data-phase") == "resolve"
    assert active(page) not in (None, "BODY"), "after Escape on a choice"


# ---------------------------------------------------------------------------- keyboard


def press_on(page: Page, element_id: str, key: str | None = "Enter", limit: int = 80) -> None:
    """Tab (only the keyboard) until ``element_id`` has the focus, then press ``key``."""
    for _ in range(limit):
        if active(page) == element_id:
            if key:
                page.keyboard.press(key)
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached #{element_id} (at {active(page)})")


def test_keyboard_only_turn_and_new_game(app_page: Page) -> None:
    """The new-game dialog and a whole turn (take, roll, build, end) by keys alone."""
    page = app_page
    page.locator("[data-testid=dialog-newgame]").wait_for()
    assert in_dialog(page)
    page.keyboard.press("Escape")  # the default solo game
    # the new-game dialog by keys: two players, names typed, started with Enter
    press_on(page, "btn-new")
    page.locator("[data-testid=dialog-newgame]").wait_for()
    assert active(page) == "dlg-first"
    page.keyboard.press("ArrowDown")  # 1 -> 2 players
    page.locator("#ng-name1").wait_for()
    assert active(page) == "dlg-first"
    press_on(page, "ng-name0", "Control+a")
    page.keyboard.type("Kim")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # seat select of player 1 -> name of player 2
    assert active(page) == "ng-name1"
    page.keyboard.press("Control+a")
    page.keyboard.type("Lou")
    press_on(page, "ng-seed", None)
    page.keyboard.type("keys1")
    page.keyboard.press("Enter")  # submits the form
    page.locator("#dialog dialog").wait_for(state="detached")
    assert "Kim" in page.locator("[data-testid=turn]").inner_text()
    assert active(page) not in (None, "BODY")

    # a whole turn: three yard dice, roll, build with the ground floor, end the turn;
    # after each action the focus is on a sensible control, never on <body>
    for letter in "GUP":
        press_on(page, f"yard-{letter}")
        assert active(page) not in (None, "BODY"), f"after taking {letter}"
    assert len(dice(page)) == 3
    assert active(page) == "act-roll"  # the yard is closed: Roll is next
    page.keyboard.press(" ")
    assert active(page).startswith("die-")  # Roll is disabled now: a die to choose
    ground = [d for d in dice(page) if d["type"] == "G"][0]
    press_on(page, f"die-{ground['id']}", " ")
    assert active(page) == f"die-{ground['id']}"
    assert [d["pressed"] for d in dice(page) if d["id"] == ground["id"]] == [True]
    press_on(page, "act-build")
    assert page.locator("[data-testid=player-0] [data-testid=column]").count() >= 1
    assert active(page) not in (None, "BODY")
    press_on(page, "act-undo")
    assert active(page) not in (None, "BODY")
    press_on(page, "act-build")

    def press(element_id: str) -> None:
        press_on(page, element_id)
        assert active(page) not in (None, "BODY"), f"after #{element_id}"

    resolve_rest(page, press)  # by keys too
    press_on(page, "act-end")
    assert "Lou" in page.locator("[data-testid=turn]").inner_text()
    assert active(page) == "yard-G"  # Lou's turn starts with the yard
    assert "Kim ends the turn" in page.locator("[data-testid=log]").inner_text()
    # the keyboard shortcuts of the rules panel ("rules.app.keys"): ? opens, Esc closes
    page.keyboard.press("?")
    page.locator("[data-testid=dialog-rules]").wait_for()
    assert in_dialog(page)
    page.keyboard.press("Escape")
    assert page.locator("#dialog dialog").count() == 0


# ---------------------------------------------------------------------------- live region


def announced(page: Page) -> str:
    return page.locator("#announce").inner_text()


def test_live_region_narrates_rolls_computer_moves_and_the_end(
    app_page: Page, wait_ready
) -> None:
    page = app_page
    close_first_dialog(page)
    region = page.locator("#announce")
    assert region.get_attribute("aria-live") == "polite"
    # the one region that narrates (the notices have their own, for errors and warnings)
    assert page.locator("#app [aria-live]:not(#notices)").count() == 1
    # a human roll: each die's face is spoken
    page.evaluate(HOLD_PACE)
    page.click("#btn-new")
    page.select_option("#dlg-first", "2")
    page.fill("#ng-name0", "Ann")
    page.fill("#ng-name1", "Robo")
    page.select_option("#ng-seat1", "beginner")
    page.select_option("#ng-start", "0")
    page.fill("#ng-seed", "live1")
    page.click("#ng-start-btn")
    assert announced(page).startswith("New game. Round 1 of 9: Ann's turn.")
    region.evaluate("e => { window.__announceNode = e; }")
    take(page, "GUP")
    page.click("#act-roll")
    faces = [d["label"] for d in dice(page)]
    text = announced(page)
    assert text.startswith("Ann rolls ")
    words = page.evaluate(
        "() => [...document.querySelectorAll('#log li')].map(li => li.innerText)"
    )
    assert any(text.strip().endswith(w.split("rolls ", 1)[-1]) for w in words if "rolls" in w)
    assert len(faces) == 3
    # selecting a die is no news: the region keeps its text (and its node)
    page.click(f"#die-{dice(page)[0]['id']}")
    assert announced(page) == text
    assert region.evaluate("e => e === window.__announceNode")
    # end the turn: the computer's turn is announced, then each of its moves
    ground = [d for d in dice(page) if d["type"] == "G"][0]
    select_only(page, [ground["id"]])
    page.click("#act-build")
    resolve_rest(page, lambda element_id: page.click(f"#{element_id}"))
    page.click("#act-end")
    assert "Robo's turn" in announced(page)
    page.wait_for_function("window.__held.length > 0")
    page.evaluate(STEP_HELD)
    page.wait_for_function(
        "document.getElementById('announce').innerText.startsWith('Robo takes')"
    )
    page.evaluate(RELEASE_HELD)
    # the end of the game: the last action's words and the result
    done = finished_solo()
    last = done.actions[-1]
    board = Board(done.options)
    for action in done.actions[:-1]:
        board.push(action)
    load(page, board, wait_ready)
    close = page.locator("#act-end")
    assert str(last) == "e" and close.is_enabled()
    close.click()
    text = announced(page)
    assert "The game is over." in text and "You scored" in text


@pytest.mark.parametrize("lang", ["en", "de"])
def test_first_visit_before_python_has_no_axe_violations(
    lang: str, browser, site_url: str,
) -> None:
    """A first visit before Python is ready: the prerendered welcome screen, inert and
    aria-busy, with the "Starting…" bar (web/boot.js), in both colour schemes. (That the
    page then starts is e2e/test_start_paint.py's: the runtime stays held back here.)"""
    ctx = browser.new_context(bypass_csp=True, service_workers="block",
                              locale="de-DE" if lang == "de" else "en-US")
    held = []
    try:
        page = ctx.new_page()
        page.route("**/pyodide.asm.wasm", lambda route: held.append(route))  # never let go
        page.goto(site_url, wait_until="domcontentloaded")
        assert page.evaluate("window.skylineBoot.welcome")
        audit = Audit(page, lang)
        audit("welcome before Python")
        assert page.evaluate("document.body.dataset.ready") is None
        assert not audit.failures, "\n\n".join(audit.failures)
    finally:
        ctx.close()
