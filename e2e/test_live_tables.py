"""Live tables in the real page: devices (browser contexts) meet through a Nostr relay on
the loopback (scripts/live_relay.py) under the site's own CSP (with that relay added to
connect-src by scripts/serve.py's test-only knob), and play by clicks. One test, so the
devices' page starts are shared by every part:

- a whole 2-player game between two Chromium devices (the host in German, audited by
  axe at the invitation and the table): the invitation from the new-game dialog, the
  seat claim, every move on both boards, one device reloading mid-turn and catching up
  with its own steps kept;
- rounds of a 3-player game on the same two pages (a new game; the friend opens the
  invitation in the same page) and a third device on Firefox ESR (e2e/engines.py's
  PuppeteerDriver; Chromium where Firefox is missing); a friend's tab closed for a turn
  (the others show it away and wait) and reopened, catching up; a forged, a stale and an
  illegal message sent by real peers, each refused with the three games equal;
- the relay stopped mid-game: the connected devices play on, a device that joins then
  says why it cannot connect; the relay's log never held a secret, a name or a move.

The synchronisation's rules are tested under CPython (tests/test_live_sync.py,
tests/test_live_page.py); the transport alone in e2e/test_live_transport.py.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import engines
import pytest
from axe_helpers import describe, run_axe
from board_helpers import POLICY_STEP
from conftest import CSP_LISTENER, READY_SELECTOR, serve
from live_page import STORED_RECORD, claim, device_scripts, go, invite, play, policy_step
from live_page import record as stored_record
from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from skyline import Board

LoopbackRelay = serve.load_script("live_relay").LoopbackRelay  # scripts/live_relay.py
# the table's bar (by language): everyone there, Cy away, no relay
ON = {"en": "every move reaches the other devices", "de": "Jeder Zug erreicht die anderen"}
BO_AWAY = {"en": "Bo away", "de": "Bo nicht da"}
NO_RELAY = {"en": "cannot reach its relays", "de": "erreicht seine Relays nicht"}
# errors the page's console may show on purpose: a refused message the live table
# reports, the library's word when a peer's channel closes (a reload, a tab closed), the
# browser's when the library tries a stopped relay again
EXPECTED_ERRORS = ("live table:", "User-Initiated Abort", "WebSocket connection to")


@pytest.fixture(scope="module")
def relay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A loopback relay, with its log of everything the devices sent it."""
    with LoopbackRelay(log=tmp_path_factory.mktemp("relay") / "relay.jsonl") as running:
        yield running


@pytest.fixture(scope="module")
def live_site(dist_dir: Path, relay: Any) -> Iterator[str]:
    server = serve.make_server(dist_dir, 0, extra_connect=[relay.url])
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


class Device:
    """One player's browser context at the table (its storage is its own)."""

    def __init__(self, browser: Browser, relay_url: str, lang: str = "en",
                 audit: bool = False) -> None:
        # ``audit``: axe-core is injected, which the site's CSP refuses (axe_helpers)
        self.lang = lang
        self.context = browser.new_context(viewport={"width": 1280, "height": 800},
                                           locale="de-DE" if lang == "de" else "en-GB",
                                           bypass_csp=audit)
        for script in device_scripts(relay_url):  # the loopback relay, the instant pace
            self.context.add_init_script(script)
        self.context.add_init_script(CSP_LISTENER)
        self.errors: list[str] = []
        self.page = self.open()

    def open(self, url: str | None = None) -> Page:
        page = self.context.new_page()
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        if url is not None:
            go(page, url)
        self.page = page
        return page

    def text(self) -> str:
        bar = self.page.locator("[data-testid=corr-text]")
        return bar.inner_text() if bar.count() else ""

    def step(self) -> str:
        return policy_step(self.page)

    def record(self) -> str:
        return stored_record(self.page)

    def clean(self) -> list[str]:
        return [e for e in self.errors if not any(x in e for x in EXPECTED_ERRORS)]

    def says(self, words: str, timeout: float = 30) -> None:
        """Wait until the table's bar says ``words``."""
        self.page.wait_for_function(
            "(w) => (document.querySelector('[data-testid=corr-text]')?.textContent || '')"
            ".includes(w)", arg=words, timeout=timeout * 1000, polling=50)

    def claim(self, link: str, seat: int) -> None:
        claim(self.page, link, seat)

    def send(self, text: str) -> None:
        """A raw message to every peer, from this device (web/js/live-page.js's test hook)."""
        self.page.evaluate("(t) => window.__skylineLive.send(t)", text)

    def leave(self) -> None:
        self.page.close()

    def come_back(self, url: str) -> None:
        self.open(url)


def assert_accessible(device: Device) -> None:
    violations = run_axe(device.page)
    assert not violations, describe(violations)


def agree(devices: list[Any], timeout: float = 15) -> str:
    """Wait until every device has saved the same game (the last message may still be on
    its way when the mover's turn ends); that game's record."""
    deadline = time.monotonic() + timeout
    while True:
        games = [d.record() for d in devices]
        if len(set(games)) == 1:
            return games[0]
        assert time.monotonic() < deadline, games
        time.sleep(0.025)


def wait_for(devices: list[Any], words: str | dict[str, str], timeout: float = 30) -> None:
    """Wait until each device's table bar says ``words`` (by its language, or as given)."""
    for d in devices:
        try:
            d.says(words if isinstance(words, str) else words[d.lang], timeout)
        except (PlaywrightError, TimeoutError):
            seen = [(x.text(), x.clean()) for x in devices]
            raise AssertionError(f"{words!r} never shown: {seen}") from None


class FirefoxDevice:
    """A device on Firefox ESR (one page through e2e/firefox_bridge.mjs): as Device, with
    the same init scripts, its console errors and uncaught errors kept in the page."""

    ERRORS = """
      window.__errors = [];
      const error = console.error.bind(console);
      console.error = (...a) => { window.__errors.push(a.map(String).join(" ")); error(...a); };
      addEventListener("error", (e) => window.__errors.push(String(e.message)));
      addEventListener("unhandledrejection", (e) => window.__errors.push(String(e.reason)));
    """

    lang = "en"

    def __init__(self, relay_url: str) -> None:
        self.driver = engines.PuppeteerDriver()
        self.driver.add_init_script(f"window.__skylineLiveRelays = {json.dumps([relay_url])};")
        self.driver.add_init_script(self.ERRORS + CSP_LISTENER)
        self.driver.add_init_script(
            "if (!localStorage.getItem('skyline.settings')) localStorage.setItem("
            "'skyline.settings', JSON.stringify({v: 1, pace: 'instant'}));")

    def go(self, url: str) -> None:
        self.driver.goto(url)
        self.shows(f"document.querySelector({json.dumps(READY_SELECTOR)})", 60, "ready")

    def shows(self, predicate: str, timeout: float, what: str) -> None:
        engines.wait_for(self.driver, predicate, timeout=timeout, what=what)

    def text(self) -> str:
        return str(self.driver.run(
            "return document.querySelector('[data-testid=corr-text]')?.innerText ?? '';"))

    def step(self) -> str:
        for _ in range(20):
            try:
                return str(self.driver.run(f"return await ({POLICY_STEP})();"))
            except RuntimeError as exc:
                if "is null" not in str(exc):  # a render came between look and click
                    raise
                time.sleep(0.02)
        raise AssertionError("the page kept changing under the policy (Firefox)")

    def record(self) -> str:
        return str(self.driver.run(f"return ({STORED_RECORD})();"))

    def clean(self) -> list[str]:
        return [e for e in self.driver.run("return window.__errors;")
                if not any(x in e for x in EXPECTED_ERRORS)]

    def says(self, words: str, timeout: float = 30) -> None:
        self.shows("(document.querySelector('[data-testid=corr-text]')?.textContent || '')"
                   f".includes({json.dumps(words)})", timeout, words)

    def claim(self, link: str, seat: int) -> None:
        """Opens the invitation and claims ``seat`` (and no other), by clicks."""
        self.go(link)
        self.shows("document.querySelector('[data-testid=claim-form]')", 30, "the claim form")
        boxes = self.driver.run("return [...document.querySelectorAll("
                                "'[data-testid=claim-form] input[type=checkbox]')]"
                                ".map((b) => [b.id, b.checked]);")
        for box, checked in boxes:
            if checked != (box == f"claim-seat{seat}"):
                self.driver.click(f"#{box}")
        self.driver.click("[data-testid=claim-form] button[type=submit]")

    def send(self, text: str) -> None:
        self.driver.run(f"window.__skylineLive.send({json.dumps(text)});")

    def leave(self) -> None:
        self.driver.goto("about:blank")

    def come_back(self, url: str) -> None:
        self.go(url)

    def close(self) -> None:
        self.driver.close()


def test_live_tables_of_two_then_three_devices(live_browser: Browser, live_site: str,
                                               relay: Any) -> None:
    ann = Device(live_browser, relay.url, "de", audit=True)  # in German, audited by axe
    bo = Device(live_browser, relay.url)
    # ---- a whole 2-player game, Bo reloading mid-turn
    link2 = invite(ann.page, live_site, ("Ann", "Bo"), "live-e2e-2", keep_open=True)
    assert_accessible(ann)  # the invitation
    ann.page.keyboard.press("Escape")
    claim(bo.page, link2, 1)
    wait_for([ann, bo], ON)
    assert_accessible(ann)  # the table's bar and scoreboard
    play([ann, bo], turns=1)
    agree([ann, bo])
    bo.page.wait_for_selector("#yard-G:not([disabled])")  # Ann's moves shown, Bo's turn
    assert "stuck" not in [bo.step() for _ in range(2)]
    mid_turn = bo.record()
    bo.page.reload()
    bo.page.wait_for_selector(READY_SELECTOR, state="attached", timeout=60_000)
    wait_for([bo], ON)
    assert bo.record() == mid_turn  # its own steps kept, the game caught up
    play([ann, bo])
    agree([ann, bo])
    for d in (ann, bo):
        assert d.page.locator("[data-testid=scoring]").count() == 1
    # ---- a 3-player game: a new game on the same pages, Cy on Firefox where there is one
    firefox = engines.available("firefox") is None  # None: no reason it is not
    cy: Any = FirefoxDevice(relay.url) if firefox else Device(live_browser, relay.url)
    try:
        link3 = invite(ann.page, None, ("Ann", "Bo", "Cy"), "live-e2e-3")
        bo.claim(link3, 1)  # the invitation opened in the page Bo has open
        cy.claim(link3, 2)
        devices = [ann, bo, cy]
        wait_for(devices, ON)
        play(devices, turns=3)  # a round
        agree(devices)
        # Bo's tab closes: the others show Bo away and wait when it is Bo's turn
        bo.leave()
        wait_for([ann, cy], BO_AWAY)
        assert "nicht da" in ann.page.locator("[data-testid=friend-badge]").all_inner_texts()[0]
        assert_accessible(ann)  # a friend away
        play([ann, cy], until_stuck=True)
        bo.come_back(live_site)
        wait_for(devices, ON)
        agree(devices)
        play(devices, turns=2)
        # a forged message (another device moves for the seat to move), a stale one and an
        # illegal one (the mover's own seat, a move the engine refuses): each is refused
        game = agree(devices)
        mover = devices[Board.from_record(game).state.seat]
        other = next(d for d in devices if d is not mover)
        tokens = game.split(" | ", 1)[1].split()
        number = len(tokens) + 1
        other.send(f"L1 A {number} tGGG")
        mover.send(f"L1 A 1 {'tGGG' if tokens[0] != 'tGGG' else 'tGGU'}")
        mover.send(f"L1 A {number} e")
        time.sleep(0.5)
        assert ann.record() == bo.record() == cy.record() == game
        play(devices, turns=1)
        assert agree(devices) != game
        # the relay stops: every device says so, and the table plays on (direct channels)
        relay.stop()
        wait_for(devices, NO_RELAY)
        before = agree(devices)
        play(devices, turns=2)
        assert agree(devices) != before
        # a device that joins now finds no relay, and says why
        bo.leave()
        bo.come_back(live_site)
        wait_for([bo], NO_RELAY)
        assert ann.clean() == [] and bo.clean() == [] and cy.clean() == []
    finally:
        if isinstance(cy, FirefoxDevice):
            cy.close()
    # what the relay saw: neither a secret nor a name nor a move
    log = relay.log.read_text()
    for link in (link2, link3):
        assert link.split("#live?1.", 1)[1].split(".", 1)[0] not in log
    assert log and "Ann" not in log and '"L1 ' not in log
