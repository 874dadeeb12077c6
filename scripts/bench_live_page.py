#!/usr/bin/env python3
"""Benchmark live tables in the page, over a Nostr relay on the loopback.

Serves the built site (``--dist``, else builds ``dist/``) under its own headers, with the
loopback relay added to the CSP's connect-src (``scripts/serve.py``'s test-only knob),
and drives headless Debian Chromium contexts, one per device, by clicks:

* **connection time**: from a friend's device opening the invitation link until every
  device's table bar says that everyone is there (the page start, the seat claim, the
  relay, the WebRTC handshake and the first comparison of games included); and from
  the claim until then; for 2 and 3 devices, ``--rounds`` times, medians;
* **action latency**: from a click that commits a move (a roll, the end of a turn) on
  the device to move until the other device has the move saved, drawn with the render
  that saves it (``--turns`` turns played by the e2e click policy); p50 and p95;
* **what the relay saw**: every message the devices sent it, counted, and whether the
  room secret, a player's name or a game message ever appears in it.

``--shots DIR`` also writes screenshots for a person to look at, in English and German:
the invitation (with its QR code), a 3-player live table on a 390x844 phone, a friend
away and back; and the table at 1280x800 and 1024x768.

The last stdout line is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from live_page import (  # noqa: E402
    LIVE_ARGS,
    claim,
    device_scripts,
    go,
    invite,
    play,
    policy_step,
    record,
)
from live_relay import LoopbackRelay  # noqa: E402
from serve import make_server  # noqa: E402

# the table bar when everyone is there (live.status_on), by language
ON = {"en": "every move reaches the other devices", "de": "Jeder Zug erreicht die anderen"}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
         "device_scale_factor": 2}


class Device:
    def __init__(self, browser: Browser, relay: str, lang: str = "en",
                 options: dict[str, Any] | None = None, pace: str = "instant") -> None:
        self.context = browser.new_context(
            locale="de-DE" if lang == "de" else "en-GB",
            **(options or {"viewport": {"width": 1280, "height": 800}}))
        for script in device_scripts(relay, pace):
            self.context.add_init_script(script)
        self.page = self.context.new_page()

    def reopen(self, url: str) -> None:
        self.page = self.context.new_page()
        go(self.page, url)

    def record(self) -> str:
        return record(self.page)

    def step(self) -> str:
        return policy_step(self.page)

    def shows(self, words: str, timeout: float = 60) -> None:
        self.page.wait_for_function(
            "(w) => (document.querySelector('[data-testid=corr-text]')?.textContent || '')"
            ".includes(w)", arg=words, timeout=timeout * 1000, polling=20)


def connect(browser: Browser, url: str, relay: str, count: int, seed: str) -> dict[str, float]:
    devices = [Device(browser, relay) for _ in range(count)]
    names = ("Ann", "Bo", "Cy", "Dee")[:count]
    link = invite(devices[0].page, url, names, seed)
    opened = time.monotonic()
    claimed = opened
    for seat, device in enumerate(devices[1:], start=1):
        claim(device.page, link, seat)
        claimed = time.monotonic()
    for device in devices:
        device.shows(ON["en"])
    done = time.monotonic()
    for device in devices:
        device.context.close()
    return {"opened_to_connected_ms": (done - opened) * 1000,
            "claimed_to_connected_ms": (done - claimed) * 1000}


def shots(browser: Browser, url: str, relay: str, out: Path) -> list[str]:
    out.mkdir(parents=True, exist_ok=True)
    written = []

    def shot(device: Device, name: str) -> None:
        path = out / f"{name}.png"
        device.page.wait_for_timeout(400)  # the motion settles
        device.page.screenshot(path=str(path))
        written.append(str(path))

    for lang in ("en", "de"):
        ann, bo, cy = (Device(browser, relay, lang, PHONE, pace="normal") for _ in range(3))
        link = invite(ann.page, url, ("Ann", "Bo", "Cy"), f"shots-{lang}", keep_open=True)
        ann.page.click("#corr-qr")
        ann.page.locator("[data-testid=qr]").wait_for()
        shot(ann, f"live-invitation-{lang}-phone")
        ann.page.keyboard.press("Escape")
        claim(bo.page, link, 1)
        claim(cy.page, link, 2)
        for device in (ann, bo, cy):
            device.shows(ON[lang])
        play([ann, bo, cy], 2)
        bo.page.wait_for_timeout(1500)
        shot(bo, f"live-table-3p-{lang}-phone")
        cy.page.close()
        ann.page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=friend-badge]')]"
            ".some((b) => /away|nicht da/.test(b.textContent))", timeout=30_000)
        shot(ann, f"live-friend-away-{lang}-phone")
        cy.reopen(url)
        ann.shows(ON[lang])
        shot(ann, f"live-friend-back-{lang}-phone")
        shot(cy, f"live-friend-reconnected-{lang}-phone")
        for size in ((1280, 800), (1024, 768)):
            bo.page.set_viewport_size({"width": size[0], "height": size[1]})
            shot(bo, f"live-table-3p-{lang}-{size[0]}x{size[1]}")
        for device in (ann, bo, cy):
            device.context.close()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dist", type=Path, help="a built site (default: build dist/)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--turns", type=int, default=12, help="turns for the latency")
    parser.add_argument("--shots", type=Path, help="write screenshots to this folder")
    args = parser.parse_args()
    dist = args.dist
    if dist is None:
        subprocess.run([sys.executable, str(ROOT / "scripts" / "build.py")], check=True)
        dist = ROOT / "dist"
    log = Path(tempfile.mkdtemp()) / "relay.jsonl"
    figures: dict[str, Any] = {}
    with LoopbackRelay(log=log) as relay, sync_playwright() as pw:
        server = make_server(dist, 0, extra_connect=[relay.url])
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        browser = pw.chromium.launch(executable_path=CHROMIUM,
                                     args=[*CHROMIUM_ARGS, *LIVE_ARGS])
        for count in (2, 3):
            runs = [connect(browser, url, relay.url, count, f"bench-{count}-{r}")
                    for r in range(args.rounds)]
            figures[f"connect_{count}"] = {
                key: statistics.median(run[key] for run in runs) for key in runs[0]}
            print(f"{count} devices: invitation opened -> all connected, median "
                  f"{figures[f'connect_{count}']['opened_to_connected_ms']:.0f} ms "
                  f"(seat claimed -> connected "
                  f"{figures[f'connect_{count}']['claimed_to_connected_ms']:.0f} ms)")
        ann, bo = Device(browser, relay.url), Device(browser, relay.url)
        # names no random text holds by chance, to look for in what the relay saw
        link = invite(ann.page, url, ("Annabel", "Bodo"), "bench-latency")
        claim(bo.page, link, 1)
        ann.shows(ON["en"])
        bo.shows(ON["en"])
        latencies: list[float] = []
        play([ann, bo], args.turns, latencies)
        figures["latency_ms"] = {
            "count": len(latencies), "p50": statistics.median(latencies),
            "p95": statistics.quantiles(latencies, n=20)[-1], "max": max(latencies)}
        print(f"click -> the other device's save and render: p50 "
              f"{figures['latency_ms']['p50']:.0f} ms, p95 {figures['latency_ms']['p95']:.0f} "
              f"ms over {len(latencies)} commits")
        secret = link.split("#live?1.", 1)[1].split(".", 1)[0]
        seen = log.read_text(encoding="utf-8")
        lines = [json.loads(line) for line in seen.splitlines() if line.strip()]
        figures["relay"] = {
            "messages": len(lines), "bytes": sum(int(x.get("bytes", 0)) for x in lines),
            "secret_seen": secret in seen,
            "names_seen": any(n in seen for n in ("Annabel", "Bodo")),
            "game_message_seen": '"L1 ' in seen or "L1 A " in seen}
        print(f"the relay saw {len(lines)} messages: the secret "
              f"{'SEEN' if figures['relay']['secret_seen'] else 'never'}, names "
              f"{'SEEN' if figures['relay']['names_seen'] else 'never'}, a game message "
              f"{'SEEN' if figures['relay']['game_message_seen'] else 'never'}")
        if args.shots is not None:
            figures["shots"] = shots(browser, url, relay.url, args.shots)
            print("screenshots:", *figures["shots"], sep="\n  ")
        browser.close()
        server.shutdown()
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
