"""The live tables' relays and the Content-Security-Policy agree: netlify.toml's
connect-src is 'self' plus exactly RELAYS of web/js/live.js (the one list), and nothing
else; the transport names STUN servers only (no TURN). scripts/serve.py's test-only
knob adds loopback relays to connect-src and nothing else."""

from __future__ import annotations

import importlib.util
import re
import threading
import tomllib
import urllib.request
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
LIVE_JS = ROOT / "web" / "js" / "live.js"


def js_string_list(name: str) -> list[str]:
    """The strings of ``export const NAME = Object.freeze([...]);`` in web/js/live.js."""
    source = LIVE_JS.read_text(encoding="utf-8")
    found = re.search(rf"export const {name} = Object\.freeze\(\[(.*?)\]\);", source, re.S)
    assert found, f"web/js/live.js has no {name} list"
    # only string literals and commas: a comment or a computed entry would be missed here
    body = found.group(1)
    assert re.fullmatch(r'(\s*"[^"\\]*"\s*,)*\s*("[^"\\]*")?\s*', body), body
    return re.findall(r'"([^"\\]*)"', body)


def csp(path: str = "/") -> dict[str, list[str]]:
    rules = tomllib.loads((ROOT / "netlify.toml").read_text())["headers"]
    policies = [
        rule["values"]["Content-Security-Policy"]
        for rule in rules
        if "Content-Security-Policy" in rule.get("values", {}) and rule["for"] in ("/*", path)
    ]
    assert len(policies) == 1, policies
    directives = [d.split() for d in policies[0].split(";") if d.strip()]
    return {d[0]: d[1:] for d in directives}


def load_serve() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "skyline_serve_csp", ROOT / "scripts" / "serve.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_connect_src_is_self_and_exactly_the_relays() -> None:
    relays = js_string_list("RELAYS")
    assert relays and len(set(relays)) == len(relays)
    assert all(re.fullmatch(r"wss://[a-z0-9.-]+(/[A-Za-z0-9/_-]*)?", url) for url in relays)
    assert csp()["connect-src"] == ["'self'", *relays]


def test_no_other_directive_names_a_relay() -> None:
    relays = set(js_string_list("RELAYS"))
    for directive, sources in csp().items():
        if directive != "connect-src":
            assert not relays & set(sources), directive


def test_stun_servers_are_named_and_there_is_no_turn() -> None:
    stun = js_string_list("STUN_SERVERS")
    assert stun
    assert all(re.fullmatch(r"stun:[a-z0-9.-]+:[0-9]+", url) for url in stun), stun
    assert "turn:" not in LIVE_JS.read_text(encoding="utf-8")


def test_serve_adds_only_loopback_relays_to_connect_src(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve = load_serve()
    monkeypatch.delenv(serve.EXTRA_CONNECT_ENV, raising=False)
    assert serve.extra_connect_sources() == []
    monkeypatch.setenv(serve.EXTRA_CONNECT_ENV, "ws://127.0.0.1:7447 ws://localhost:9")
    assert serve.extra_connect_sources() == ["ws://127.0.0.1:7447", "ws://localhost:9"]
    wrongs = ("wss://127.0.0.1:7447", "ws://example.com", "ws://127.0.0.1.evil:1", "*", "ws:")
    for wrong in wrongs:
        with pytest.raises(ValueError):
            serve.extra_connect_sources([wrong])
    (tmp_path / "index.html").write_text("<!doctype html>")
    server = serve.make_server(tmp_path, 0, extra_connect=["ws://127.0.0.1:7447"])
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
        with urllib.request.urlopen(url, timeout=10) as response:
            policy = response.headers["Content-Security-Policy"]
    finally:
        server.shutdown()
        server.server_close()
    served = {d.split()[0]: d.split()[1:] for d in policy.split(";") if d.strip()}
    want = csp()
    assert served["connect-src"] == [*want["connect-src"], "ws://127.0.0.1:7447"]
    assert {k: v for k, v in served.items() if k != "connect-src"} == {
        k: v for k, v in want.items() if k != "connect-src"
    }
