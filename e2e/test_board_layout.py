"""The board's layout measured in the real page: nothing spills
out of its box at 360 px, no word is broken, the round label stays on one line, the
tower to choose is scrolled into view, a skyline is one street that scrolls sideways
and the player to move has the largest one."""

from __future__ import annotations

import random

from board_helpers import dice
from playwright.sync_api import Page

from skyline import Board, Options, Phase, make_save
from skyline.players.bots import BOTS

PHONE = {"width": 360, "height": 740}
SHORT_PHONE = {"width": 360, "height": 560}  # a 640 px phone less the browser bars
WIDE = {"width": 1280, "height": 800}

# Solo seed=choice0 (as in test_board_play): upper-floor die 1 may go on column 2 or 3.
CHOICE_RECORD = (
    "skyline1 players=Ann seed=choice0 start=0 nine=0 scenario=- | tGUU r0.1.2 b0 e "
    "tGUU r0.1.2 b0 b2@2 e tGUU r0.1.2 b0 e tGUU r0.1.2"
)
LONG_NAMES = ("Bartholomew-Maximilian", "Cleopatra", "Dmitri", "Ann")

# Boxes whose content is wider than the box (a label spilling out of its button).
OVERFLOWING = """(sel) => [...document.querySelectorAll(sel)]
  .filter((e) => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
  .map((e) => e.id || e.textContent.trim())"""

# Words (split at spaces and after hyphens) laid out on more than one line.
BROKEN_WORDS = """(sel) => {
  const out = [];
  for (const root of document.querySelectorAll(sel)) {
    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const re = /[^\\s-]+-?/g;
      for (let m = re.exec(n.data); m; m = re.exec(n.data)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
        if (tops.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
}"""

# How many lines the element's text takes.
LINES = """(sel) => {
  const r = document.createRange();
  r.selectNodeContents(document.querySelector(sel));
  return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
}"""


def load(page: Page, wait_ready, board: Board, lang: str = "en") -> None:
    page.evaluate("s => localStorage.setItem('skyline.save', s)", make_save(board))
    page.evaluate(
        "l => localStorage.setItem('skyline.settings', JSON.stringify({v: 1, lang: l}))", lang
    )
    page.reload(wait_until="commit")
    wait_ready(page)
    assert page.evaluate("document.documentElement.lang") == lang


def played(names: tuple[str, ...], seed: str, until) -> Board:
    board = Board(Options(names, seed, 0, False, None))
    rng = random.Random(seed)
    while not until(board):
        board.push(BOTS["greedy"](board.state, rng))
    return board


def no_page_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_phone_choice_buttons_and_round_label(app_page: Page, wait_ready) -> None:
    """German at 360 px: every command fits its button, the round label is one line, and
    the tower to choose is on screen after Build (the skyline of the player to move is
    at the top of a phone's table; a target beyond the edge of its street is revealed)."""
    page = app_page
    page.set_viewport_size(SHORT_PHONE)
    load(page, wait_ready, Board.from_record(CHOICE_RECORD), "de")
    no_page_scroll(page)
    assert page.evaluate(OVERFLOWING, "#turn button, #topbar button") == []
    assert page.evaluate(LINES, "[data-testid=round]") == 1
    for d in dice(page):
        if d["pressed"]:
            page.click(f"#die-{d['id']}")
    page.click("#die-1")
    page.click("#act-build")
    assert page.locator("[data-testid=prompt]").get_attribute("data-phase") == "choose"
    box = page.locator("#col-0-2").bounding_box()
    assert box is not None
    assert -1 <= box["y"] and box["y"] + box["height"] <= SHORT_PHONE["height"] + 1
    assert -1 <= box["x"] and box["x"] + box["width"] <= SHORT_PHONE["width"] + 1
    assert page.evaluate(OVERFLOWING, "#turn button") == []
    no_page_scroll(page)


def test_phone_long_name_round_label(app_page: Page, wait_ready) -> None:
    page = app_page
    page.set_viewport_size(PHONE)
    board = played(LONG_NAMES, "lay4", lambda b: b.state.round >= 4)
    for lang in ("en", "de"):
        load(page, wait_ready, board, lang)
        assert page.evaluate(LINES, "[data-testid=round]") == 1
        assert page.evaluate(OVERFLOWING, "#turn button, #topbar button") == []
        no_page_scroll(page)


def test_phone_scoring_breaks_no_word(app_page: Page, wait_ready) -> None:
    page = app_page
    page.set_viewport_size(PHONE)
    board = played(LONG_NAMES, "lay9", lambda b: b.state.phase is Phase.OVER)
    for lang in ("en", "de"):
        load(page, wait_ready, board, lang)
        page.locator("[data-testid=scoring]").wait_for()
        assert page.evaluate(BROKEN_WORDS, "[data-testid=scoring] td, [data-testid=scoring] th") \
            == []
        no_page_scroll(page)


def test_skylines_are_one_street_in_fixed_seats_at_one_scale(
    app_page: Page, wait_ready
) -> None:
    """Round 8 of four players at 1280 x 800: each skyline stands on one street line (no
    second row), a long one scrolls inside its street, the skylines keep seat order
    whoever is to move (that one is marked), and a floor is drawn the same size on every
    skyline."""
    page = app_page
    page.set_viewport_size(WIDE)
    board = played(("Ann", "Bob", "Cleo", "Dmitri"), "wide8",
                   lambda b: b.state.round >= 8 and b.state.phase is Phase.TAKE
                   and b.state.seat != 0)
    load(page, wait_ready, board)
    no_page_scroll(page)
    streets = page.evaluate("""() => [...document.querySelectorAll('.player')].map((p) => {
        const s = p.querySelector('.art-street');
        const pics = [...s.querySelectorAll('.art-pic')].map((e) => e.getBoundingClientRect());
        return {seat: p.dataset.testid, active: p.classList.contains('active'),
                bottoms: [...new Set(pics.map((b) => Math.round(b.bottom)))],
                lots: pics.length, fits: s.scrollWidth <= s.clientWidth};
    })""")
    assert [s["seat"] for s in streets] == ["player-0", "player-1", "player-2", "player-3"]
    assert [s["active"] for s in streets] == [i == board.state.seat for i in range(4)]
    assert all(len(s["bottoms"]) == 1 for s in streets)  # one street line, no wrapping
    assert sum(s["lots"] for s in streets) == sum(
        len(p.buildings) + len(p.columns) for p in board.state.players)
    # one floor, one size, on every skyline
    floors = page.evaluate("""() => [...document.querySelectorAll('.player')].map((p) =>
        Math.max(...[...p.querySelectorAll('.art-pic')]
            .map((e) => e.getBoundingClientRect().height / Number(e.dataset.height))))""")
    assert max(floors) - min(floors) < 1.5, floors
