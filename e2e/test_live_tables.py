"""Live tables in the real page: devices (browser contexts) meet through a Nostr relay on
the loopback (scripts/live_relay.py) under the site's own CSP (with that relay added to
connect-src by scripts/serve.py's test-only knob), and play by clicks.

- two devices play a whole game: the invitation from the new-game dialog, the seat
  claim, every move on both boards, one device reloading mid-turn and catching up; the
  connection time and the latency from a click to the other device's save are printed;
- three devices play rounds: one leaves for a turn (its tab closed) and catches up when
  it comes back; a forged, a stale and an illegal message are refused, the games equal;
- the relay stopped mid-game: the connected devices play on, a device that opens the
  invitation then says why it cannot join;
- a Firefox ESR device (e2e/engines.py's PuppeteerDriver) claims a seat at a Chromium
  device's table and both play turns by clicks.

The synchronisation's rules are tested under CPython (tests/test_live_sync.py,
tests/test_live_page.py); the transport alone in e2e/test_live_transport.py.
"""

from __future__ import annotations

import json
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import engines
import pytest
from board_helpers import CURRENT_RAW, POLICY_STEP, close_first_dialog, record
from conftest import CSP_LISTENER, READY_SELECTOR, serve
from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from skyline import Board

LoopbackRelay = serve.load_script("live_relay").LoopbackRelay  # scripts/live_relay.py
# Plain host addresses instead of mDNS names: quicker between contexts (docs/dependencies.md)
LIVE_ARGS = ["--disable-features=WebRtcHideLocalIpsWithMdns"]
ON = "every move reaches the other devices"  # live.status_on (en), in the table's bar
# what the page says when a render came between the policy's look and its click
CHANGED = ("Cannot read properties of null", "is null")  # Chromium, Firefox


@pytest.fixture(scope="module")
def relays(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Any]]:
    """Two loopback relays: the tables' one, and one the last test stops."""
    folder = tmp_path_factory.mktemp("relays")
    with LoopbackRelay(log=folder / "a.jsonl") as a, LoopbackRelay() as b:
        yield a, b


@pytest.fixture(scope="module")
def live_site(dist_dir: Path, relays: tuple[Any, Any]) -> Iterator[str]:
    server = serve.make_server(dist_dir, 0, extra_connect=[r.url for r in relays])
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def live_browser(playwright: Any, browser_type_launch_args: dict[str, Any]) -> Iterator[Browser]:
    args = {**browser_type_launch_args}
    args["args"] = [*args.get("args", []), *LIVE_ARGS]
    browser = playwright.chromium.launch(**args)
    yield browser
    browser.close()


class Device:
    """One player's browser context at the table (its storage is its own)."""

    def __init__(self, browser: Browser, relay_url: str) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 800})
        self.context.add_init_script(f"window.__skylineLiveRelays = {json.dumps([relay_url])};")
        self.context.add_init_script(CSP_LISTENER)
        # a friend's moves play at the instant pace (a game's worth at the normal one is long)
        self.context.add_init_script(
            "if (!localStorage.getItem('skyline.settings')) localStorage.setItem("
            "'skyline.settings', JSON.stringify({v: 1, pace: 'instant'}));")
        self.errors: list[str] = []
        self.page = self.open()

    def open(self, url: str | None = None) -> Page:
        page = self.context.new_page()
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        if url is not None:
            self.go(page, url)
        self.page = page
        return page

    @staticmethod
    def go(page: Page, url: str) -> None:
        page.goto(url)
        page.wait_for_selector(READY_SELECTOR, state="attached", timeout=60_000)

    def text(self) -> str:
        bar = self.page.locator("[data-testid=corr-text]")
        return bar.inner_text() if bar.count() else ""

    def step(self) -> str:
        """One click of the e2e policy; "stuck" when this device may not move now. A
        render between the policy's look and its click (a friend's move arriving) makes
        it look again."""
        for _ in range(20):
            try:
                return str(self.page.evaluate(POLICY_STEP))
            except PlaywrightError as exc:
                if CHANGED[0] not in str(exc):
                    raise
                self.page.wait_for_timeout(20)
        raise AssertionError("the page kept changing under the policy")

    def record(self) -> str:
        return record(self.page)

    def clean(self) -> list[str]:
        """Errors besides the ones the live table reports on purpose (refused messages)
        and the library's own word when a peer's channel closes (a reload, a tab closed)."""
        return [e for e in self.errors
                if "live table:" not in e and "User-Initiated Abort" not in e]


def invite(ann: Device, url: str, names: tuple[str, ...], seed: str) -> str:
    """Ann starts a live game from the new-game dialog; the invitation link."""
    page = ann.page
    Device.go(page, url)
    close_first_dialog(page)
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
    assert "#live?" in link
    page.keyboard.press("Escape")
    return link


def claim(device: Device, link: str, seat: int) -> None:
    page = device.page
    Device.go(page, link)
    page.locator("[data-testid=claim-form]").wait_for()
    for box in page.locator("[data-testid=claim-form] input[type=checkbox]").all():
        box.set_checked(box.get_attribute("id") == f"claim-seat{seat}")
    page.locator("[data-testid=claim-form] button[type=submit]").click()


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


def wait_for(devices: list[Device], words: str, timeout: float = 30) -> None:
    for d in devices:
        try:
            d.page.wait_for_function(
                "(w) => (document.querySelector('[data-testid=corr-text]')?.textContent || '')"
                ".includes(w)", arg=words, timeout=timeout * 1000, polling=50)
        except PlaywrightError:
            for n, x in enumerate(devices):
                x.page.screenshot(path=f"/tmp/live-fail-{n}.png")
            raise AssertionError(f"{words!r} never shown: {[(x.text(), x.errors) for x in devices]}"
                                 ) from None


def play(devices: list[Any], turns: int | None = None, latencies: list[float] | None = None,
         until_stuck: bool = False) -> int:
    """Each device plays its turns by clicks (the e2e policy) while the others wait;
    ``turns`` turns, or until the game is over (or, ``until_stuck``, until none of them
    may move). Returns the turns played."""
    played = 0
    idle_since = time.monotonic()
    while turns is None or played < turns:
        moved = False
        for index, device in enumerate(devices):
            steps = 0
            while True:
                before = record(device.page) if latencies is not None else ""
                started = time.time() * 1000
                step = device.step()
                if step in ("stuck", "over"):
                    break
                steps += 1
                if latencies is not None and step in ("roll", "end", "build", "demolish"):
                    after = record(device.page)
                    if len(after) > len(before) and step in ("roll", "end"):
                        other = devices[(index + 1) % len(devices)].page
                        seen = other.wait_for_function(
                            """(r) => {
                              const id = JSON.parse(localStorage.getItem('skyline.games')).current;
                              const e = JSON.parse(localStorage.getItem('skyline.game.' + id));
                              return e.save.game.record.startsWith(r) && Date.now();
                            }""", arg=after, polling=2, timeout=20_000).json_value()
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
            assert time.monotonic() - idle_since < 30, [d.text() for d in devices]
            devices[0].page.wait_for_timeout(50)
    return played


def test_two_devices_play_a_whole_game_live(live_browser: Browser, live_site: str,
                                            relays: tuple[Any, Any]) -> None:
    relay = relays[0]
    ann, bo = Device(live_browser, relay.url), Device(live_browser, relay.url)
    link = invite(ann, live_site, ("Ann", "Bo"), "live-e2e-2")
    started = time.monotonic()
    claim(bo, link, 1)
    wait_for([ann, bo], ON)
    connected = time.monotonic() - started
    # Ann plays her turn; Bo makes the first steps of his, then reloads mid-turn
    play([ann, bo], turns=1)
    agree([ann, bo])
    bo.page.wait_for_selector("#yard-G:not([disabled])")  # Ann's moves shown, Bo's turn
    bo_steps = [bo.step() for _ in range(2)]
    assert "stuck" not in bo_steps
    mid_turn = record(bo.page)
    bo.page.reload()
    bo.page.wait_for_selector(READY_SELECTOR, state="attached", timeout=60_000)
    wait_for([bo], ON)
    assert record(bo.page) == mid_turn  # its own steps kept, the game caught up
    latencies: list[float] = []
    play([ann, bo], latencies=latencies)
    agree([ann, bo])
    for d in (ann, bo):
        assert d.page.locator("[data-testid=scoring]").count() == 1
        assert d.clean() == []
    print(f"\nlive table, 2 devices: connected {connected * 1000:.0f} ms after the "
          f"invitation opened; click to the other device's save over {len(latencies)} "
          f"commits: p50 {statistics.median(latencies):.0f} ms, "
          f"p95 {statistics.quantiles(latencies, n=20)[-1]:.0f} ms", file=sys.stderr)
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
                if CHANGED[1] not in str(exc):
                    raise
                time.sleep(0.02)
        raise AssertionError("the page kept changing under the policy (Firefox)")

    def record(self) -> str:
        return str(json.loads(self.driver.run(f"return {CURRENT_RAW};"))["save"]["game"]["record"])

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
        link = invite(ann, live_site, ("Ann", "Bo"), "live-e2e-firefox")
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
                 f".includes({json.dumps(ON)})", 30, ON)
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
    ann, bo, cy = (Device(live_browser, relay.url) for _ in range(3))
    link = invite(ann, live_site, ("Ann", "Bo", "Cy"), "live-e2e-3")
    claim(bo, link, 1)
    claim(cy, link, 2)
    wait_for([ann, bo, cy], ON)
    play([ann, bo, cy], turns=3)  # a round
    agree([ann, bo, cy])
    # Cy's tab closes for a turn: the others see Cy away, and the table waits for Cy
    cy.page.close()
    wait_for([ann, bo], "Cy away")
    assert "away" in ann.page.locator("[data-testid=friend-badge]").all_inner_texts()[-1]
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
    assert record(ann.page) == record(bo.page) == record(cy.page) == game
    play(devices, turns=1)
    assert agree(devices) != game
    for d in (ann, bo, cy):
        assert d.clean() == []


def test_relay_stopped_mid_game_keeps_the_table_and_a_new_device_says_why(
        live_browser: Browser, live_site: str, relays: tuple[Any, Any]) -> None:
    spare = relays[1]
    ann, bo = Device(live_browser, spare.url), Device(live_browser, spare.url)
    link = invite(ann, live_site, ("Ann", "Bo", "Cy"), "live-e2e-stop")
    claim(bo, link, 1)
    wait_for([ann, bo], "Cy away")  # Ann and Bo are connected; Cy has not joined yet
    spare.stop()
    wait_for([ann, bo], "cannot reach its relays")
    before = agree([ann, bo])
    play([ann, bo], turns=2)  # the data channels are direct: Ann's and Bo's turns go on
    assert agree([ann, bo]) != before
    cy = Device(live_browser, spare.url)
    claim(cy, link, 2)
    wait_for([cy], "cannot reach its relays")
