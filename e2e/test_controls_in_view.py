"""Controls and notices in view, where a browser is needed: the
computer's Skip bar and the Hint button stay in view at 1280×800 (point 5), a bad link on
a first visit is visible above the welcome dialog (point 9); screenshots of a forced
demolition, a computer's turn and a scenario game, EN and DE, 1280×800 and 360×740
(e2e/.artifacts/controls-in-view/)."""

from __future__ import annotations

import random
from pathlib import Path

from playwright.sync_api import Page

from skyline import Board, Build, Demolish, Options, Phase, make_save
from skyline.players.bots import BOTS

SHOTS = Path(__file__).resolve().parent / ".artifacts" / "controls-in-view"
SET_LANG = "localStorage.setItem('skyline.settings', JSON.stringify({v: 1, lang: l}));"
SIZES = {"wide": (1280, 800), "narrow": (360, 740)}


def in_view(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    return (box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height
            and box["x"] >= 0 and box["x"] + box["width"] <= width)


def forced_board() -> Board:
    for seed in range(200):
        board = Board(Options(("Ann",), f"i8-{seed}", 0, False, "essen"))
        rng = random.Random(seed)
        while board.state.phase is not Phase.OVER:
            st = board.state
            acts = board.legal_actions()
            if (st.phase is Phase.RESOLVE and not any(isinstance(a, Build) for a in acts)
                    and any(isinstance(a, Demolish) for a in acts)):
                return board
            board.push(BOTS["random"](st, rng))
    raise AssertionError("no forced demolition found")


def fresh(page: Page, wait_ready, fragment: str) -> None:
    """A full page load with ``fragment`` (not a same-document hash change)."""
    url = page.url.split("#")[0]
    page.goto("about:blank")
    page.goto(url + fragment)
    wait_ready(page)


def load(page: Page, wait_ready, raw: str, lang: str) -> None:
    page.evaluate("([s, l]) => { localStorage.setItem('skyline.save', s); " + SET_LANG + " }",
                  [raw, lang])
    page.reload()
    wait_ready(page)
    if page.locator("#dialog dialog").count():
        page.keyboard.press("Escape")


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.screenshot(path=str(SHOTS / f"{name}-{size}.png"))
    page.set_viewport_size({"width": 1280, "height": 800})


def test_skip_bar_and_hint_are_in_view_at_1280x800(app_page: Page) -> None:
    page = app_page
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(page.url.split("#")[0] + "#play?p=Ann,Player%202&seed=view8&start=1&bots=1e")
    page.locator("[data-testid=bot-bar]").wait_for()
    page.evaluate("window.scrollTo(0, 0)")
    assert in_view(page, "[data-testid=bot-bar]") and in_view(page, "#bot-skip")
    assert "Expert" in page.locator("[data-testid=player-1]").inner_text()
    assert "Player 2" not in page.locator("#prompt").inner_text()
    page.locator("#btn-hint").wait_for(timeout=20000)  # Ann's turn after the computer's
    page.evaluate("window.scrollTo(0, 0)")
    assert in_view(page, "#btn-hint")


def test_bad_link_on_a_first_visit_is_visible(app_page: Page, wait_ready) -> None:
    page = app_page
    page.evaluate("localStorage.clear()")
    fresh(page, wait_ready, "#play?p=Ann&seed=bad!seed")
    note = page.locator("[data-testid=dialog-newgame] [data-testid=dialog-notice]")
    note.wait_for()
    assert "The seed may only use" in note.inner_text()
    assert "unchanged" not in page.locator("#app").inner_text()
    box = note.bounding_box()
    top = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest("
                        "'[data-testid=dialog-notice]') !== null",
                        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
    assert top, "the notice is covered"
    page.evaluate("localStorage.clear()")
    fresh(page, wait_ready, "#garbage<script>x</script>")
    assert "damaged" in note.inner_text() and "seed" not in note.inner_text()


def test_screenshots(app_page: Page, wait_ready) -> None:
    page = app_page
    forced = make_save(forced_board())
    for lang in ("en", "de"):
        load(page, wait_ready, forced, lang)
        assert page.locator("[data-testid=why]").is_visible()
        assert page.locator("[data-testid=scenario]").is_visible()
        prompt = page.locator("#prompt").inner_text()
        assert prompt.startswith("Nothing can be built" if lang == "en"
                                 else "Nichts lässt sich bauen")
        shoot(page, f"forced-demolition-{lang}")
        scenario = Board(Options(("Ann",), "scen8", 0, False, "dubai"))
        rng = random.Random(4)
        for _ in range(14):
            scenario.push(BOTS["greedy"](scenario.state, rng))
        load(page, wait_ready, make_save(scenario), lang)
        shoot(page, f"scenario-{lang}")
    for lang in ("en", "de"):
        page.evaluate("l => { localStorage.clear(); " + SET_LANG + " }", lang)
        fresh(page, wait_ready, "#play?p=Ann,Player%202&seed=shot8&start=1&bots=1g")
        page.locator("[data-testid=bot-bar]").wait_for()
        shoot(page, f"computer-turn-{lang}")
