#!/usr/bin/env python3
"""Benchmark the live tables' transport: trystero's signalling strategies over a relay
on the loopback, between real browsers.

For each strategy (``--strategies``: torrent, nostr, mqtt) it starts that strategy's
relay on 127.0.0.1 (``scripts/live_relay.mjs``), bundles the strategy's npm package for
the browser with esbuild, and for each table size (``--peers``, e.g. 2,3) and round
(``--rounds``) opens one fresh browser context per device (headless Debian Chromium;
``--firefox`` makes the last device Firefox ESR through ``e2e/firefox_bridge.mjs``),
has them all join the same new room at once and measures:

* **connection time**: from the join call in a page until that page's data channels to
  every other device are open (trystero's ``onPeerJoin``, after its password
  handshake); per round the slowest device, and the last device to join (with
  ``--stagger S`` the devices join S seconds apart, as friends opening an invitation
  one after the other); medians over rounds; a round that does not connect within
  ``--timeout`` seconds counts as a failure;
* **message latency**: device 0 sends ``--messages`` messages of about 200 bytes (a
  sync message's size), one every 20 ms, to all others; one-way latency from
  ``performance.timeOrigin + performance.now()`` on both sides (one machine, one
  clock); p50 and p95;
* **what the relay sees**: every message a client sent it (its ``--log``): count and
  bytes per join, whether the room secret, the room id, a game message or a plain
  IP address (an SDP's ICE candidate) ever appears in it;
* **message size**: bytes on device 0's data channels per message sent (the library's
  framing and its handshake included, from ``RTCPeerConnection.getStats``) against
  the message's own JSON;
* the size of the strategy's browser bundle (minified, and gzip -9).

The last stdout line is one JSON object with every figure, per strategy and table size.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Protocol

from playwright.sync_api import Browser, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402 - scripts/chromium.py
from live_relay import LoopbackRelay  # noqa: E402 - scripts/live_relay.py

sys.path.append(str(Path(__file__).resolve().parent.parent / "e2e"))
from engines import PuppeteerDriver  # noqa: E402 - Firefox ESR: e2e/firefox_bridge.mjs

# WebRTC host candidates between browsers on one machine: plain addresses instead of
# mDNS names (another engine cannot resolve Chromium's ".local" names).
CHROMIUM_LIVE_ARGS = ["--disable-features=WebRtcHideLocalIpsWithMdns"]
FIREFOX_LIVE_PREFS = {
    "media.peerconnection.ice.obfuscate_host_addresses": False,
    "media.peerconnection.ice.loopback": True,
}
PACKAGES = {s: f"@trystero-p2p/{s}" for s in ("torrent", "nostr", "mqtt")}

# Runs in each page: join the room, record when each other device's channel opened
# and every message's one-way latency. %s: the JSON arguments.
JOIN = """
const a = %s;
const T = await import(a.module);
const now = () => performance.timeOrigin + performance.now();
const live = (window.live = { t0: performance.now(), peers: {}, left: [], got: [], errors: [] });
const room = T.joinRoom(
  { appId: "skyline-bench", password: a.secret, relayConfig: { urls: [a.relay] },
    rtcConfig: { iceServers: [] } },
  a.room,
  { onJoinError: (e) => live.errors.push(e.error) },
);
room.onPeerJoin = (id) => { live.peers[id] = performance.now() - live.t0; };
room.onPeerLeave = (id) => { live.left.push(id); };
const msg = room.makeAction("msg");
msg.onMessage = (data) => { live.got.push([now() - data.at, data.i, data.body]); };
live.send = (i, body) => msg.send({ i, at: now(), body });
live.room = room;
return T.selfId;
"""


class Device(Protocol):
    def goto(self, url: str) -> None: ...
    def run(self, script: str) -> Any: ...
    def close(self) -> None: ...


class ChromiumDevice:
    def __init__(self, browser: Browser) -> None:
        self._context = browser.new_context()
        self._page = self._context.new_page()

    def goto(self, url: str) -> None:
        self._page.goto(url)

    def run(self, script: str) -> Any:
        return self._page.evaluate(f"(async () => {{ {script} }})()")

    def close(self) -> None:
        self._context.close()


def bundle(strategy: str, out: Path) -> tuple[int, int]:
    """The strategy's package as one browser module ``out``; (bytes, gzip -9 bytes)."""
    entry = ROOT / "node_modules" / PACKAGES[strategy] / "dist" / "index.mjs"
    subprocess.run([str(ROOT / "node_modules" / ".bin" / "esbuild"), str(entry), "--bundle",
                    "--format=esm", "--minify", "--log-level=warning", f"--outfile={out}"],
                   check=True, cwd=ROOT)
    data = out.read_bytes()
    return len(data), len(gzip.compress(data, 9))


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def serve(folder: Path) -> tuple[ThreadingHTTPServer, str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def one_round(devices: list[Device], base: str, strategy: str, relay: str,
              messages: int, timeout: float, stagger: float) -> dict[str, Any]:
    room = secrets.token_urlsafe(16)
    secret = secrets.token_urlsafe(16)
    for device in devices:
        device.goto(f"{base}/index.html")
    args = {"module": f"/trystero-{strategy}.js", "relay": relay, "room": room, "secret": secret}
    for i, device in enumerate(devices):
        if i and stagger:
            time.sleep(stagger)
        device.run(JOIN % json.dumps(args))
    want = len(devices) - 1
    deadline = time.monotonic() + timeout
    states: list[Any] = []
    while time.monotonic() < deadline:
        states = [d.run("return {peers: live.peers, errors: live.errors}") for d in devices]
        if all(len(s["peers"]) >= want for s in states):
            break
        time.sleep(0.1)
    connected = all(len(s["peers"]) >= want for s in states)
    result: dict[str, Any] = {
        "connected": connected,
        "connect_ms": [max(s["peers"].values(), default=None) for s in states],
        "errors": [e for s in states for e in s["errors"]],
        "room": room, "secret": secret,
    }
    if not connected:
        return result
    body = "m" + secrets.token_hex(8)  # a marker to look for in the relay's log
    devices[0].run(f"""
      for (let i = 0; i < {messages}; i++) {{
        live.send(i, {json.dumps(body)} + "-" + "x".repeat(160));
        await new Promise((r) => setTimeout(r, 20));
      }}""")
    deadline = time.monotonic() + 10
    got: list[list[Any]] = []
    while time.monotonic() < deadline:
        got = [d.run("return live.got") for d in devices[1:]]
        if all(len(g) >= messages for g in got):
            break
        time.sleep(0.1)
    # bytes on the data channels per message sent (the library's framing included),
    # against the message's own JSON
    result["wire"] = devices[0].run("""
      let bytes = 0, count = 0;
      for (const pc of Object.values(live.room.getPeers())) {
        (await pc.getStats()).forEach((s) => {
          if (s.type === "data-channel") { bytes += s.bytesSent; count += s.messagesSent; }
        });
      }
      return [bytes, count];""")
    sample = {"i": 0, "at": 1.0e12, "body": body + "-" + "x" * 160}
    result["payload_bytes"] = len(json.dumps(sample, separators=(",", ":")))
    result["latency_ms"] = [row[0] for g in got for row in g]
    result["received"] = sum(len(g) for g in got)
    result["sent"] = messages * want
    result["marker"] = body
    for device in devices:
        device.run("await live.room.leave(); return null")
    return result


def relay_view(log: Path, rounds: list[dict[str, Any]], joins: int) -> dict[str, Any]:
    """What the relay was sent: counts, bytes, and whether any secret leaked."""
    lines = [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []
    text = "\n".join(x["text"] for x in lines)
    ip = re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}\b")
    return {
        "messages": len(lines),
        "bytes": sum(x["bytes"] for x in lines),
        "messages_per_join": round(len(lines) / max(joins, 1), 1),
        "bytes_per_join": round(sum(x["bytes"] for x in lines) / max(joins, 1)),
        "largest_message": max((x["bytes"] for x in lines), default=0),
        "room_secret_seen": any(r["secret"] in text for r in rounds),
        "room_id_seen": any(r["room"] in text for r in rounds),
        "game_message_seen": any(r.get("marker", "~") in text for r in rounds),
        "plain_ip_seen": bool(ip.search(text)),
        "sample": lines[0]["text"][:400] if lines else "",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--strategies", default="nostr")
    parser.add_argument("--peers", default="2,3")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--messages", type=int, default=100)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--stagger", type=float, default=0.0,
                        help="seconds between two devices' joins (0: all at once)")
    parser.add_argument("--firefox", action="store_true",
                        help="the last device of each table is Firefox ESR")
    parser.add_argument("--firefox-plain", action="store_true",
                        help="Firefox without the loopback prefs (to see whether it needs them)")
    parser.add_argument("--mdns", action="store_true",
                        help="keep Chromium's mDNS host candidates (no extra flag)")
    opts = parser.parse_args()
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="skyline-live-") as tmp_name, sync_playwright() as pw:
        tmp = Path(tmp_name)
        (tmp / "index.html").write_text("<!doctype html><meta charset=utf-8><title>live</title>")
        server, base = serve(tmp)
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS + ([] if opts.mdns else CHROMIUM_LIVE_ARGS))
        for strategy in opts.strategies.split(","):
            size, gz = bundle(strategy, tmp / f"trystero-{strategy}.js")
            relay = LoopbackRelay(strategy, log=tmp / f"relay-{strategy}.jsonl")
            per: dict[str, Any] = {"bundle_bytes": size, "bundle_gzip_bytes": gz}
            rounds: list[dict[str, Any]] = []
            joins = 0
            try:
                for n in (int(x) for x in opts.peers.split(",")):
                    table: list[dict[str, Any]] = []
                    for _ in range(opts.rounds):
                        devices: list[Device] = [ChromiumDevice(browser) for _ in range(n - 1)]
                        devices.append(
                            PuppeteerDriver({} if opts.firefox_plain else FIREFOX_LIVE_PREFS)
                            if opts.firefox or opts.firefox_plain else ChromiumDevice(browser))
                        try:
                            table.append(one_round(devices, base, strategy, relay.url,
                                                   opts.messages, opts.timeout, opts.stagger))
                        finally:
                            for device in devices:
                                device.close()
                        joins += n
                        r = table[-1]
                        print(f"{strategy} {n} devices: connected={r['connected']} "
                              f"{r['connect_ms']} errors={r['errors'][:2]}", flush=True)
                    rounds += table
                    ok = [r for r in table if r["connected"]]
                    latency = [x for r in ok for x in r["latency_ms"]]
                    per[f"{n}_devices"] = {
                        "success": f"{len(ok)}/{len(table)}",
                        "connect_ms_median": round(statistics.median(
                            max(r["connect_ms"]) for r in ok)) if ok else None,
                        "connect_ms_rounds": [round(max(r["connect_ms"])) for r in ok],
                        "last_joiner_ms_median": round(statistics.median(
                            r["connect_ms"][-1] for r in ok)) if ok else None,
                        "latency_ms_p50": round(percentile(latency, 0.5), 2) if latency else None,
                        "latency_ms_p95": round(percentile(latency, 0.95), 2) if latency else None,
                        "delivered": f"{sum(r['received'] for r in ok)}/"
                                     f"{sum(r['sent'] for r in ok)}",
                        "channel_bytes_per_message": round(
                            sum(r["wire"][0] for r in ok) / max(1, sum(r["wire"][1] for r in ok)),
                            1) if ok else None,
                        "message_json_bytes": ok[0]["payload_bytes"] if ok else None,
                    }
            finally:
                relay.stop()
            per["relay_sees"] = relay_view(tmp / f"relay-{strategy}.jsonl", rounds, joins)
            report[strategy] = per
            print(strategy, json.dumps(per, indent=1), flush=True)
        browser.close()
        server.shutdown()
        server.server_close()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
