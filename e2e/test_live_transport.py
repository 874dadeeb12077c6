"""The live tables' transport as built (dist/js/live.js: web/js/live.js with its npm
library bundled in) between headless Chromium contexts, through a real Nostr relay on
the loopback (scripts/live_relay.py): a bad secret and no relay are refused, nothing
connects before a join. Devices meeting, messages, a leave, the relay stopped and a
Firefox ESR device meeting Chromium ones: in the page, e2e/test_live_tables.py.

The module is served from a plain server of dist/js (no CSP): the page's own CSP, which
names the public relays, is not what is tested here. No sync protocol, no UI.

The page's side (web/js/live-page.js, which imports nothing: the page bundles it into its
own entries) is served beside it as its source and driven with the built transport, as
Python's liveJoin/liveSend/liveLeave would: the LiveEvents it hands on (joined, left,
message, tick, relays open/closed, offline/online, error) with short timings. And the
build: no page bundle holds the library; the page's one way to it is import("./live.js"),
the entry the service worker precaches.
"""

from __future__ import annotations

import json
import secrets
import shutil
import threading
import time
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from conftest import serve
from playwright.sync_api import Browser, Page

ROOT = Path(__file__).resolve().parent.parent
LoopbackRelay = serve.load_script("live_relay").LoopbackRelay  # scripts/live_relay.py

# Joins the table of `secret` through `relay` and records what arrives.
JOIN = """async ([relay, secret]) => {
  window.__skylineLiveRelays = [relay];
  const live = await import("/live.js");
  const t = live.join(secret);
  const seen = (window.seen = { joined: [], left: [], got: [], errors: [] });
  t.onPeerJoin((p) => seen.joined.push(p));
  t.onPeerLeave((p) => seen.left.push(p));
  t.onMessage((m, from) => seen.got.push([m, from]));
  t.onError((e) => seen.errors.push(e));
  window.table = t;
  return t.self;
}"""


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def js_url(dist_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """dist/js (or $SKYLINE_DIST's) with web/js/live-page.js beside it, on a plain server."""
    if not (dist_dir / "js" / "live.js").is_file():
        pytest.skip("dist/js/live.js not built (python3 scripts/build.py)")
    folder = tmp_path_factory.mktemp("js")
    shutil.copytree(dist_dir / "js", folder, dirs_exist_ok=True)
    shutil.copy2(ROOT / "web" / "js" / "live-page.js", folder / "live-page.js")
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def relay(tmp_path: Path) -> Iterator[Any]:
    with LoopbackRelay(log=tmp_path / "relay.jsonl") as running:
        yield running


def device(browser: Browser, js_url: str) -> Page:
    page = browser.new_context().new_page()
    page.goto(f"{js_url}/")
    return page


def wait(page: Page, predicate: str, timeout: float = 20.0) -> Any:
    page.wait_for_function(predicate, timeout=timeout * 1000)
    return page.evaluate(predicate)


def test_bad_secret_and_no_relay_are_refused(live_browser: Browser, js_url: str) -> None:
    page = device(live_browser, js_url)
    for secret, relays in (("short", "['ws://127.0.0.1:9']"), ("x" * 22 + "!", "['ws://x']"),
                           (secrets.token_urlsafe(16), "[]")):
        error = page.evaluate(f"""async () => {{
          const live = await import("/live.js");
          try {{ live.join({json.dumps(secret)}, {relays}); return ""; }}
          catch (e) {{ return String(e.message); }}
        }}""")
        assert error.startswith("live: "), (secret, error)
    page.context.close()


def test_nothing_connects_before_join(live_browser: Browser, js_url: str) -> None:
    page = device(live_browser, js_url)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    relays = page.evaluate("""async () => {
      const live = await import("/live.js");
      return [live.RELAYS, live.relayList()];
    }""")
    time.sleep(1)
    assert sockets == []
    assert relays[0] == relays[1] and all(url.startswith("wss://") for url in relays[0])
    page.context.close()


# The page's side with the built transport, as render.js wires it, with short timings;
# every LiveEvent it hands Python is kept in window.events.
PAGE_JOIN = """async ([relays, secret]) => {
  window.__skylineLiveRelays = relays;
  const { connectLive } = await import("/live-page.js");
  const events = (window.events = []);
  window.loads = 0;
  window.live = connectLive(
    () => { window.loads += 1; return import("/live.js"); },
    (event) => events.push(event),
    { tickMs: 500, relayWaitMs: 1500, relayPollMs: 50 },
  );
  if (secret) window.live.join(secret);
}"""


def events(page: Page, what: str) -> list[dict[str, Any]]:
    return page.evaluate(f"window.events.filter((e) => e.what === {json.dumps(what)})")


def test_page_side_events(live_browser: Browser, js_url: str, relay: Any) -> None:
    """Two devices' page sides: relays open, joined, messages to one and to all, ticks;
    the same join again changes nothing; offline leaves and online joins again; the relay
    stopped is reported at the next tick; liveLeave stops everything."""
    secret = secrets.token_urlsafe(16)
    a, b = device(live_browser, js_url), device(live_browser, js_url)
    a.evaluate(PAGE_JOIN, [[relay.url], ""])
    assert a.evaluate("window.loads") == 0  # nothing loads before the first join
    a.evaluate(f"window.live.join({json.dumps(secret)})")
    b.evaluate(PAGE_JOIN, [[relay.url], secret])
    a_id = wait(a, "window.__skylineLive && window.__skylineLive.self")
    b_id = wait(b, "window.__skylineLive && window.__skylineLive.self")
    for page, other in ((a, b_id), (b, a_id)):
        wait(page, "window.events.some((e) => e.what === 'joined')")
        assert events(page, "joined") == [
            {"kind": "live", "what": "joined", "peer": other, "text": ""}]
        assert events(page, "relays") == [
            {"kind": "live", "what": "relays", "peer": None, "text": "open"}]
        assert page.evaluate("window.__skylineLive.peers()") == [other]
    a.evaluate(f"window.live.join({json.dumps(secret)})")  # already joined: nothing
    a.evaluate("window.live.send('no-such-peer', 'lost')")  # dropped, never thrown
    a.evaluate("window.live.send('', 'to all')")
    b.evaluate(f"window.live.send({json.dumps(a_id)}, 'to a')")
    b.evaluate("window.__skylineLive.send('raw from b')")  # the test hook: a real device
    wait(b, "window.events.some((e) => e.what === 'message')")
    assert events(b, "message") == [{"kind": "live", "what": "message", "peer": a_id,
                                     "text": "to all"}]
    assert [e["text"] for e in wait(a, """window.events.filter((e) => e.what === 'message')
      .length === 2 && window.events.filter((e) => e.what === 'message')""")] == [
        "to a", "raw from b"]
    wait(a, "window.events.filter((e) => e.what === 'tick').length >= 2")
    assert a.evaluate("window.loads") == 1 and len(events(a, "joined")) == 1
    # offline: the table is left (b sees it), online: joined again (b sees a come back)
    a.context.set_offline(True)
    wait(a, "window.events.some((e) => e.what === 'offline')")
    assert a.evaluate("window.__skylineLive") is None
    wait(b, "window.events.some((e) => e.what === 'left')")
    assert events(b, "left")[0]["peer"] == a_id
    ticks = len(events(a, "tick"))
    a.context.set_offline(False)
    wait(a, "window.events.some((e) => e.what === 'online')")
    wait(b, "window.events.filter((e) => e.what === 'joined').length === 2")
    wait(a, "window.events.filter((e) => e.what === 'joined').length === 2")
    # reported again after the new join
    wait(a, "window.events.filter((e) => e.what === 'relays').length === 2")
    assert events(a, "relays")[1]["text"] == "open"
    wait(a, f"window.events.filter((e) => e.what === 'tick').length > {ticks}")
    # the relay gone: reported at the next tick; the open channels still carry messages
    relay.stop()
    wait(a, "window.events.filter((e) => e.what === 'relays').at(-1).text === 'closed'")
    a.evaluate("window.live.send('', 'still here')")
    wait(b, "window.events.some((e) => e.text === 'still here')")
    a.evaluate("window.live.leave()")
    wait(b, "window.events.filter((e) => e.what === 'left').length === 2")
    ticks = len(events(a, "tick"))
    time.sleep(1.2)
    assert len(events(a, "tick")) == ticks and a.evaluate("window.__skylineLive") is None
    for page in (a, b):
        assert events(page, "error") == []
        page.context.close()


def test_page_side_without_a_table(live_browser: Browser, js_url: str) -> None:
    """No relay opens: "closed" after the wait. Offline at the join: "offline", nothing
    loaded, then online joins. A transport that cannot load: "unavailable". Without the
    relay override no test hook."""
    secret = json.dumps(secrets.token_urlsafe(16))
    page = device(live_browser, js_url)
    page.evaluate(PAGE_JOIN, [["ws://127.0.0.1:9"], ""])
    page.context.set_offline(True)
    page.evaluate(f"window.live.join({secret})")
    assert [e["what"] for e in page.evaluate("window.events")] == ["offline"]
    assert page.evaluate("window.loads") == 0
    page.context.set_offline(False)
    wait(page, "window.events.some((e) => e.what === 'relays')")
    assert [e["what"] for e in page.evaluate("window.events")][:2] == ["offline", "online"]
    assert events(page, "relays") == [
        {"kind": "live", "what": "relays", "peer": None, "text": "closed"}]
    page.evaluate("window.live.leave()")
    failed = page.evaluate(f"""async () => {{
      delete window.__skylineLiveRelays;
      const {{ connectLive }} = await import("/live-page.js");
      const seen = [];
      const live = connectLive(() => Promise.reject(new Error("offline")), (e) => seen.push(e));
      live.join({secret});
      await new Promise((resolve) => setTimeout(resolve, 100));
      return [seen, "__skylineLive" in window];
    }}""")
    assert failed == [[{"kind": "live", "what": "error", "peer": None, "text": "unavailable"}],
                      False]
    page.context.close()


def test_page_bundles_reach_the_library_only_through_its_entry(dist_dir: Path) -> None:
    """The page's bundles hold no copy of trystero: their one way to it is a dynamic
    import of the build's own js/live.js, which the service worker precaches."""
    js = dist_dir / "js"
    library = [p.name for p in js.glob("*.js") if "Trystero" in p.read_text(encoding="utf-8")]
    assert library == ["live.js"]
    importers = [p.name for p in js.glob("*.js")
                 if 'import("./live.js")' in p.read_text(encoding="utf-8")]
    assert importers == ["host.js"]
    assert '"./js/live.js"' in (dist_dir / "sw.js").read_text(encoding="utf-8")


def test_app_joins_under_its_csp(live_browser: Browser, js_url: str, relay: Any,
                                 dist_dir: Path, serve_dir: Any, open_app: Any) -> None:
    """The app as built, under netlify.toml's CSP plus the loopback relay (the e2e
    server's extra_connect): nothing of the transport loads before Python's liveJoin
    (applied here as Python sends it); then js/live.js loads, the relay is reached with
    no CSP violation, a plain device meets the page, liveSend and liveLeave work. How
    Python answers the LiveEvents is not part of this test."""
    url, _ = serve_dir(dist_dir, extra_connect=[relay.url])
    page = live_browser.new_context().new_page()
    csp: list[str] = []
    page.on("console", lambda m: csp.append(m.text) if "Content Security Policy" in m.text
            or "Content-Security-Policy" in m.text else None)
    loaded: list[str] = []
    page.on("request", lambda r: loaded.append(r.url) if r.url.endswith("/js/live.js") else None)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    open_app(page, url)
    assert loaded == [] and sockets == []
    secret = secrets.token_urlsafe(16)
    page.evaluate("""([relay, secret]) => {
      window.__skylineLiveRelays = [relay];
      window.skylineHost.apply(JSON.stringify([["liveJoin", secret]]));
    }""", [relay.url, secret])
    other = device(live_browser, js_url)
    other_id = other.evaluate(JOIN, [relay.url, secret])
    wait(page, f"window.__skylineLive?.peers().includes({json.dumps(other_id)})")
    me = page.evaluate("window.__skylineLive.self")
    assert wait(other, "window.seen.joined.length === 1 && window.seen.joined") == [me]
    page.evaluate("window.skylineHost.apply(JSON.stringify([['liveSend', '', 'hello']]))")
    assert wait(other, "window.seen.got.length === 1 && window.seen.got") == [["hello", me]]
    page.evaluate("window.skylineHost.apply(JSON.stringify([['liveLeave']]))")
    assert wait(other, "window.seen.left.length === 1 && window.seen.left") == [me]
    assert page.evaluate("window.__skylineLive") is None
    assert len(loaded) == 1 and [ws.rstrip("/") for ws in sockets] == [relay.url]
    assert csp == []
    other.context.close()
    page.context.close()
