"""Live tables in the real page: devices (browser contexts) meet through a Nostr relay on
the loopback (scripts/live_relay.py) under the site's own CSP (with that relay added to
connect-src by scripts/serve.py's test-only knob), and play by clicks.

- two devices play a whole game: the invitation from the new-game dialog, the seat
  claim, every move on both boards, one device reloading mid-turn and catching up, the
  relay stopped mid-game (the devices play on; a device that opens the invitation then
  says why it cannot join);
- three devices play rounds: one leaves for a turn (its tab closed) and catches up when
  it comes back; a forged, a stale and an illegal message are refused, the games equal;
- a Firefox ESR device (e2e/engines.py's PuppeteerDriver) claims a seat at a Chromium
  device's table and both play turns by clicks.

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
# the table's bar when everyone is there (live.status_on), and when Cy is away
ON = {"en": "every move reaches the other devices", "de": "Jeder Zug erreicht die anderen"}
CY_AWAY = {"en": "Cy away", "de": "Cy nicht da"}


@pytest.fixture(scope="module")
def relays(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any]]:
    """Two loopback relays: the tables' one, and one the whole game's test stops."""
    folder = tmp_path_factory.mktemp("relays")
    with LoopbackRelay(log=folder / "a.jsonl") as a, LoopbackRelay(log=folder / "b.jsonl") as b:
        yield a, b


@pytest.fixture(scope="module")
def live_site(dist_dir: Path, relays: tuple[Any, Any]) -> Iterator[str]:
    server = serve.make_server(dist_dir, 0, extra_connect=[r.url for r in relays])
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
        """Errors besides the ones the live table reports on purpose (refused messages),
        the library's own word when a peer's channel closes (a reload, a tab closed) and
        the browser's when the library tries a stopped relay again."""
        return [e for e in self.errors if "live table:" not in e
                and "User-Initiated Abort" not in e and "WebSocket connection to" not in e]


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
        devices[0].page.wait_for_timeout(25)


def wait_for(devices: list[Device], words: str | dict[str, str], timeout: float = 30) -> None:
    """Wait until each device's table bar says ``words`` (by language, or as given)."""
    for d in devices:
        said = words if isinstance(words, str) else words[d.lang]
        try:
            d.page.wait_for_function(
                "(w) => (document.querySelector('[data-testid=corr-text]')?.textContent || '')"
                ".includes(w)", arg=said, timeout=timeout * 1000, polling=50)
        except PlaywrightError:
            for n, x in enumerate(devices):
                x.page.screenshot(path=f"/tmp/live-fail-{n}.png")
            raise AssertionError(f"{words!r} never shown: {[(x.text(), x.errors) for x in devices]}"
                                 ) from None


def test_two_devices_play_a_whole_game_live_through_a_reload_and_the_relay_stopped(
        live_browser: Browser, live_site: str, relays: tuple[Any, Any]) -> None:
    relay = relays[1]  # this test stops it
    ann, bo = Device(live_browser, relay.url), Device(live_browser, relay.url)
    link = invite(ann.page, live_site, ("Ann", "Bo"), "live-e2e-2")
    claim(bo.page, link, 1)
    wait_for([ann, bo], ON)
    # Ann plays her turn; Bo makes the first steps of his, then reloads mid-turn
    play([ann, bo], turns=1)
    agree([ann, bo])
    bo.page.wait_for_selector("#yard-G:not([disabled])")  # Ann's moves shown, Bo's turn
    bo_steps = [bo.step() for _ in range(2)]
    assert "stuck" not in bo_steps
    mid_turn = bo.record()
    bo.page.reload()
    bo.page.wait_for_selector(READY_SELECTOR, state="attached", timeout=60_000)
    wait_for([bo], ON)
    assert bo.record() == mid_turn  # its own steps kept, the game caught up
    play([ann, bo], turns=7)
    # the relay stops mid-game: both say so, and play on (their channels are direct)
    relay.stop()
    wait_for([ann, bo], "cannot reach its relays")
    play([ann, bo])
    agree([ann, bo])
    for d in (ann, bo):
        assert d.page.locator("[data-testid=scoring]").count() == 1
        assert d.clean() == []
    # a device opening the invitation now finds no relay, and says why
    late = Device(live_browser, relay.url)
    claim(late.page, link, 1)
    wait_for([late], "cannot reach its relays")
    # what the relay saw: neither the secret nor the names nor a move
    secret = link.split("#live?1.", 1)[1].split(".", 1)[0]
    log = relay.log.read_text()
    assert log and secret not in log and "Ann" not in log and '"L1 ' not in log


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
        try:
            engines.wait_for(self.driver, predicate, timeout=timeout, what=what)
        except TimeoutError:
            self.driver.screenshot("/tmp/live-ff-fail.png")
            raise

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
        return [e for e in self.driver.run("return window.__errors;") if "live table:" not in e]


def test_firefox_device_at_a_chromium_table(live_browser: Browser, live_site: str,
                                            relays: tuple[Any, Any]) -> None:
    why = engines.available("firefox")
    if why:
        pytest.skip(why)
    relay = relays[0]
    ann = Device(live_browser, relay.url)
    bo = FirefoxDevice(relay.url)
    try:
        link = invite(ann.page, live_site, ("Ann", "Bo"), "live-e2e-firefox")
        bo.go(link)
        bo.shows("document.querySelector('[data-testid=claim-form]')", 30, "the claim form")
        boxes = bo.driver.run("return [...document.querySelectorAll("
                              "'[data-testid=claim-form] input[type=checkbox]')]"
                              ".map((b) => [b.id, b.checked]);")
        for box, checked in boxes:  # only seat 1 checked, by the player's clicks
            if checked != (box == "claim-seat1"):
                bo.driver.click(f"#{box}")
        bo.driver.click("[data-testid=claim-form] button[type=submit]")
        wait_for([ann], ON)
        bo.shows(f"(document.querySelector('[data-testid=corr-text]')?.textContent || '')"
                 f".includes({json.dumps(ON['en'])})", 30, ON['en'])
        start = agree([ann, bo])
        assert play([ann, bo], turns=4) == 4  # two turns each
        assert agree([ann, bo]) != start
        assert ann.clean() == [] and bo.clean() == []
    finally:
        bo.driver.close()
        ann.context.close()


def test_three_devices_play_rounds_one_away_and_bad_messages_refused(
        live_browser: Browser, live_site: str, relays: tuple[Any, Any]) -> None:
    relay = relays[0]
    ann = Device(live_browser, relay.url, "de", audit=True)  # in German, audited by axe
    bo, cy = Device(live_browser, relay.url), Device(live_browser, relay.url)
    link = invite(ann.page, live_site, ("Ann", "Bo", "Cy"), "live-e2e-3", keep_open=True)
    assert_accessible(ann)  # the invitation
    ann.page.keyboard.press("Escape")
    claim(bo.page, link, 1)
    claim(cy.page, link, 2)
    wait_for([ann, bo, cy], ON)
    assert_accessible(ann)  # the live table's bar and scoreboard
    play([ann, bo, cy], turns=3)  # a round
    agree([ann, bo, cy])
    # Cy's tab closes for a turn: the others see Cy away, and the table waits for Cy
    cy.page.close()
    wait_for([ann, bo], CY_AWAY)
    assert "away" in bo.page.locator("[data-testid=friend-badge]").all_inner_texts()[-1]
    assert_accessible(ann)  # a friend away
    play([ann, bo], until_stuck=True)  # until Cy's turn: the table waits for Cy
    cy.open(live_site)
    wait_for([ann, bo, cy], ON)
    agree([ann, bo, cy])
    play([ann, bo, cy], turns=2)
    # a forged message (another device moves for the seat to move), a stale one and an
    # illegal one (the mover's own seat, a move the engine refuses): each is refused
    devices = [ann, bo, cy]
    game = agree(devices)
    mover = devices[Board.from_record(game).state.seat]
    other = next(d for d in devices if d is not mover)
    tokens = game.split(" | ", 1)[1].split()
    number = len(tokens) + 1
    other_first = "tGGG" if tokens[0] != "tGGG" else "tGGU"
    send = "(t) => window.__skylineLive.send(t)"
    other.page.evaluate(send, f"L1 A {number} tGGG")
    mover.page.evaluate(send, f"L1 A 1 {other_first}")
    mover.page.evaluate(send, f"L1 A {number} e")
    ann.page.wait_for_timeout(500)
    assert ann.record() == bo.record() == cy.record() == game
    play(devices, turns=1)
    assert agree(devices) != game
    for d in (ann, bo, cy):
        assert d.clean() == []
