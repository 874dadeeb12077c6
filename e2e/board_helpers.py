"""Helpers for the board tests (imported by e2e/test_board_*.py; not a test module)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Page, Route

# scripts/chromium.py holds the click policy shared with scripts/bench_web.py; appended
# (not prepended) so scripts/build.py never shadows the pypa "build" package.
sys.path.append(str(Path(__file__).resolve().parent.parent / "scripts"))
from chromium import POLICY_STEP


def play_policy(page: Page, max_steps: int = 3000) -> list[str]:
    """Run POLICY_STEP until the scoring table shows; returns the steps taken."""
    steps = []
    for _ in range(max_steps):
        step = page.evaluate(POLICY_STEP)
        assert step != "stuck", f"policy stuck after {steps[-10:]}"
        if step == "over":
            return steps
        steps.append(step)
    raise AssertionError("game did not end")


def close_first_dialog(page: Page) -> None:
    """The first visit opens the new-game dialog over a default solo game."""
    page.locator("[data-testid=dialog-newgame]").wait_for()
    page.click("#ng-cancel")
    assert page.locator("#dialog dialog").count() == 0


def new_game(
    page: Page,
    names: tuple[str, ...] = ("Ann",),
    seed: str = "",
    start: str = "0",
    scenario: str = "",
    nine: bool = False,
) -> None:
    if page.locator("[data-testid=dialog-newgame]").count() == 0:
        page.click("#btn-new")
    page.select_option("#dlg-first", str(len(names)))
    for i, name in enumerate(names):
        page.fill(f"#ng-name{i}", name)
    if len(names) > 1:
        page.select_option("#ng-start", start)
    elif scenario:
        page.select_option("#ng-scenario", scenario)
    if nine:
        page.check("#ng-nine")
    page.fill("#ng-seed", seed)
    page.click("#ng-start-btn")
    assert page.locator("#dialog dialog").count() == 0


def take(page: Page, types: str) -> None:
    for letter in types:
        page.click(f"#yard-{letter}")


def dice(page: Page) -> list[dict]:
    """The active dice as shown: id, type letter, face letter (or None), pressed."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#turn [data-testid=die]')].map((d) => ({
            id: Number(d.dataset.die),
            type: d.dataset.type || null,
            face: d.dataset.face && d.dataset.face !== 'None' ? d.dataset.face : null,
            pressed: d.getAttribute('aria-pressed') === 'true',
            label: (d.matches('[aria-label]') ? d : d.querySelector('[aria-label]'))
              ?.getAttribute('aria-label'),
        }))"""
    )


def select_only(page: Page, ids: list[int]) -> None:
    for d in dice(page):
        if d["pressed"] != (d["id"] in ids):
            page.click(f"#die-{d['id']}")


# The open game's stored entry (the game list: skyline.game.<id>, named by the index).
CURRENT_RAW = """(() => {
    const index = JSON.parse(localStorage.getItem('skyline.games') || 'null');
    return index && index.current ? localStorage.getItem('skyline.game.' + index.current) : null;
})()"""


def stored_raw(page: Page) -> str | None:
    """The open game's entry as stored (text), or None."""
    return page.evaluate(CURRENT_RAW)


def saved(page: Page) -> dict:
    """The open game's save envelope (inside its game-list entry)."""
    raw = stored_raw(page)
    assert raw, "no saved game"
    return json.loads(raw)["save"]


def write_saved(page: Page, envelope: dict) -> None:
    """Replace the open game's save envelope in storage (as another tab would)."""
    page.evaluate(
        """(save) => {
            const id = JSON.parse(localStorage.getItem('skyline.games')).current;
            const entry = JSON.parse(localStorage.getItem('skyline.game.' + id));
            entry.save = JSON.parse(save);
            localStorage.setItem('skyline.game.' + id, JSON.stringify(entry));
        }""",
        json.dumps(envelope),
    )


def record(page: Page) -> str:
    return saved(page)["game"]["record"]


def enabled(page: Page, command: str) -> bool:
    return page.locator(f"#act-{command}").is_enabled()


@contextmanager
def held_runtime(page: Page) -> Iterator[Callable[[], None]]:
    """Hold every request for pyodide.asm.wasm until the returned release() is called."""
    held: list[Route] = []
    released = False

    def handler(route: Route) -> None:
        if released:
            route.continue_()
        else:
            held.append(route)

    def release() -> None:
        nonlocal released
        released = True
        for route in held:
            route.continue_()
        held.clear()

    page.route("**/pyodide.asm.wasm", handler)
    try:
        yield release
    finally:
        release()
        page.unroute("**/pyodide.asm.wasm")


def play_turn(page: Page) -> str:
    """Play this device's turn (the e2e policy) until "Send your move" opens; the link."""
    for _ in range(400):
        if page.locator("[data-testid=dialog-send]").count():
            return page.locator("#send-link").input_value()
        step = page.evaluate(POLICY_STEP)
        assert step not in ("stuck", "over"), step
    raise AssertionError("the turn never went to the friend")


def start_with_a_friend(a: Page, seed: str, friend: str | None = None) -> None:
    """On device A: a new 2-player game, Ann here and seat 2 a friend elsewhere."""
    close_first_dialog(a)
    a.click("#btn-new")
    a.select_option("#dlg-first", "2")
    a.fill("#ng-name0", "Ann")
    if friend is not None:
        a.fill("#ng-name1", friend)
    a.select_option("#ng-seat1", "friend")
    a.fill("#ng-seed", seed)
    a.click("#ng-start-btn")
