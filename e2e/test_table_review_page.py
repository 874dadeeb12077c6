"""The review of a finished game of 2 players in the browser: graded in the page's worker
in chunks (a "working" line first), shown under the scoring with headings and a table
whose headers have a scope, and free of axe violations in both colour schemes."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from axe_helpers import COLOUR_RULES, describe, run_axe
from board_helpers import close_first_dialog
from playwright.sync_api import BrowserContext, Page

from skyline import Board, Options
from skyline.players.bots import BOTS


def finished_pair() -> Board:
    """A 2-player game (both people at this device) played to its end."""
    board = Board(Options(("Ann", "Bo"), "table-review-e2e", 0, False, None))
    rng = random.Random(5)
    while not board.is_game_over():
        board.push(BOTS["greedy" if board.state.seat == 0 else "random"](board.state, rng))
    return board


def load(page: Page, board: Board, wait_ready) -> None:
    """Store ``board`` as the single save (read by every version) and reload."""
    envelope = {"v": 1, "game": json.loads(board.to_json()), "saved_at": "2026-01-01T00:00:00Z"}
    page.evaluate("s => localStorage.setItem('skyline.save', s)", json.dumps(envelope))
    page.reload(wait_until="commit")
    wait_ready(page)


def test_a_finished_two_player_game_shows_its_review(
    warm_context: Callable[..., BrowserContext], site_url: str, open_app,
    wait_ready, guard,
) -> None:
    """Graded once, then read in English and (the language switched) in German."""
    ctx = warm_context(bypass_csp=True, base_url=site_url, locale="en-US")
    page = ctx.new_page()
    guard.attach(page)
    open_app(page, site_url)
    close_first_dialog(page)
    load(page, finished_pair(), wait_ready)
    review = page.locator("[data-testid=table-review]")
    review.locator("[data-testid=table-review-seat-1]").wait_for(timeout=60000)
    failures = []
    titles = []
    for lang in ("en", "de"):
        if lang == "de":
            page.click("#btn-lang")
            page.wait_for_function("document.documentElement.lang === 'de'")
        assert page.locator("[data-testid=table-review-progress]").count() == 0
        headings = review.locator("h2, h3").all_inner_texts()
        assert len(headings) == 4  # the review, each player, the turning points
        assert all(h.strip() for h in headings)
        titles.append(headings[0])
        assert review.locator("th:not([scope=col])").count() == 0
        assert review.locator("th[scope=col]").count() % 5 == 0
        # under the scoring
        order = page.evaluate("""() => {
          const s = document.querySelector('[data-testid=scoring]');
          const r = document.querySelector('[data-testid=table-review]');
          return !!(s && r && (s.compareDocumentPosition(r) & Node.DOCUMENT_POSITION_FOLLOWING));
        }""")
        assert order
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            violations = run_axe(page, rules=None if scheme == "light" else COLOUR_RULES)
            if violations:
                failures.append(f"{lang} {scheme}:\n{describe(violations)}")
    assert titles[0] != titles[1]  # the review speaks the language switched to
    assert failures == [], "\n".join(failures)
