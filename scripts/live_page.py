"""Driving live tables in the page by clicks, for e2e/test_live_tables.py and
scripts/bench_live_page.py (Playwright pages; not a test module).

A device's browser context gets :func:`device_scripts` as init scripts (the loopback
relay, the computer's pace) before its first page; then :func:`invite` on the host's
page, :func:`claim` on each friend's, and :func:`policy_step` plays one click of the e2e
click policy.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any, Protocol

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parent.parent
# appended, not prepended: scripts/build.py must never shadow the pypa "build" package
for folder in ("scripts", "web"):
    if str(ROOT / folder) not in sys.path:
        sys.path.append(str(ROOT / folder))
from app.core.dom import MENU_BUTTON  # noqa: E402
from chromium import POLICY_STEP  # noqa: E402

READY = 'body[data-ready="1"]'
# Plain host addresses instead of mDNS names: quicker between contexts, and needed for
# another engine to reach Chromium (docs/dependencies.md)
LIVE_ARGS = ["--disable-features=WebRtcHideLocalIpsWithMdns"]
# The open game's record as stored: saved with the render that draws it
STORED_RECORD = """() => {
  const id = JSON.parse(localStorage.getItem('skyline.games') || '{}').current;
  const raw = id && localStorage.getItem('skyline.game.' + id);
  return raw ? JSON.parse(raw).save.game.record : '';
}"""


def device_scripts(relay_url: str, pace: str = "instant") -> list[str]:
    """Init scripts of a device's context: the test-only relay list (web/js/live.js), and
    the pace a friend's moves play at (unless the player chose one)."""
    return [
        f"window.__skylineLiveRelays = {json.dumps([relay_url])};",
        "if (!localStorage.getItem('skyline.settings')) localStorage.setItem("
        f"'skyline.settings', JSON.stringify({{v: 1, pace: {json.dumps(pace)}}}));",
    ]


def go(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=120_000)


def record(page: Page) -> str:
    return str(page.evaluate(STORED_RECORD))


def policy_step(page: Page) -> str:
    """One click of the e2e policy; "stuck" when this device may not move now. A render
    between the policy's look and its click (a friend's move arriving) looks again."""
    for _ in range(20):
        try:
            return str(page.evaluate(POLICY_STEP))
        except PlaywrightError as exc:
            if "Cannot read properties of null" not in str(exc):
                raise
            page.wait_for_timeout(20)
    raise AssertionError("the page kept changing under the policy")


def invite(page: Page, url: str | None, names: tuple[str, ...], seed: str,
           keep_open: bool = False) -> str:
    """The host starts a live game from the new-game dialog: the invitation link. With a
    ``url`` the page opens it first (a first visit: its welcome is closed first); without,
    the page is already there. The invitation's dialog stays open when ``keep_open``."""
    if url is not None:
        go(page, url)
        page.locator("[data-testid=dialog-newgame]").wait_for()
        page.click("#ng-cancel")
    if page.locator("#btn-new").is_hidden():  # a phone: the tools are in the menu
        page.click(f"#{MENU_BUTTON}")
    page.click("#btn-new")
    page.select_option("#dlg-first", str(len(names)))
    for i, name in enumerate(names):
        page.fill(f"#ng-name{i}", name)
        if i:
            page.select_option(f"#ng-seat{i}", "friend")
    page.fill("#ng-seed", seed)
    page.check("#ng-live")
    page.click("#ng-start-btn")
    page.locator("[data-testid=dialog-send]").wait_for()
    link = page.locator("#send-link").input_value()
    assert "#live?" in link, link
    if not keep_open:
        page.keyboard.press("Escape")
    return link


def claim(page: Page, link: str, seat: int) -> None:
    """A friend opens the invitation and claims ``seat`` (and no other)."""
    go(page, link)
    page.locator("[data-testid=claim-form]").wait_for()
    for box in page.locator("[data-testid=claim-form] input[type=checkbox]").all():
        box.set_checked(box.get_attribute("id") == f"claim-seat{seat}")
    page.locator("[data-testid=claim-form] button[type=submit]").click()


class Seat(Protocol):
    """A device as :func:`play` drives it (a Playwright page's, or another engine's)."""

    def step(self) -> str: ...
    def record(self) -> str: ...


def play(devices: list[Any], turns: int | None = None, latencies: list[float] | None = None,
         until_stuck: bool = False, idle: float = 30) -> int:
    """Each device plays its turns by clicks (:func:`policy_step`) while the others wait:
    ``turns`` turns, or until the game is over (or, ``until_stuck``, until none of them
    may move). With ``latencies``: for each click that commits a move (a roll, the end
    of a turn), the time until the next device in the list has it saved (and drawn:
    the save goes with the render), in ms; the devices must have a Playwright ``page``.
    Returns the turns played; fails when no device could move for ``idle`` seconds."""
    played = 0
    idle_since = time.monotonic()
    step = ""
    while turns is None or played < turns:
        moved = False
        for index, device in enumerate(devices):
            steps = 0
            while True:
                before = device.record() if latencies is not None else ""
                started = time.time() * 1000
                step = device.step()
                if step in ("stuck", "over"):
                    break
                steps += 1
                if latencies is not None and step in ("roll", "end"):
                    after = device.record()
                    if len(after) > len(before):
                        other = devices[(index + 1) % len(devices)].page
                        seen = other.wait_for_function(
                            "(r) => (" + STORED_RECORD + ")().startsWith(r) && Date.now()",
                            arg=after, polling=2, timeout=30_000).json_value()
                        latencies.append(float(seen) - started)
            if step == "over" and all(d.step() == "over" for d in devices):
                return played
            if steps:
                moved = True
                played += 1
                idle_since = time.monotonic()
                if turns is not None and played >= turns:
                    return played
        if not moved:
            if until_stuck:
                return played
            if time.monotonic() - idle_since > idle:
                raise AssertionError(f"no device could move for {idle} s")
            time.sleep(0.03)
    return played
