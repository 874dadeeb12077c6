"""The served headers are netlify.toml's, and netlify.toml's CSP is tight.

The whole e2e suite runs against ``site_url`` (scripts/serve.py applying netlify.toml)
and every test's guard fails on a CSP violation in the console; these tests make
sure that what is served is exactly what Netlify will send, so the two cannot drift,
and that the policy itself allows nothing remote and nothing unexplained.
"""

from __future__ import annotations

import re
import tomllib
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = [(r["for"], r["values"]) for r in tomllib.loads(
    (ROOT / "netlify.toml").read_text())["headers"]]
# The only CSP sources beyond 'self'/'none', each with the directive it is for; the
# README's reliability section explains every one of them.
EXCEPTIONS = {
    ("script-src", "'wasm-unsafe-eval'"),
    ("script-src", "'unsafe-eval'"),
    ("img-src", "data:"),
    ("worker-src", "blob:"),
}


def matches(pattern: str, path: str) -> bool:
    """Netlify path patterns: ``*`` is a splat matching anything (also "/")."""
    return re.fullmatch(".*".join(map(re.escape, pattern.split("*"))), path) is not None


def expected_headers(path: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for pattern, values in RULES:
        if matches(pattern, path):
            for name, value in values.items():
                # Netlify merges overlapping rules, serve.py lets the later win:
                # the same header from two rules for one path would differ.
                assert name.lower() not in {n.lower() for n in out}, (path, name)
                out[name] = value
    return out


def csp() -> dict[str, list[str]]:
    policy = expected_headers("/")["Content-Security-Policy"]
    directives = [d.split() for d in policy.split(";") if d.strip()]
    return {d[0]: d[1:] for d in directives}


@pytest.mark.parametrize("path", ["/", "/index.html", "WASM", "/sw.js", "/i18n/de.json"])
def test_served_headers_equal_netlify_toml(site_url: str, dist_dir: Path, path: str) -> None:
    """Catches serve.py and netlify.toml drifting apart (a header missing or changed
    locally would let the e2e suite pass under a policy production does not have)."""
    if path == "WASM":
        wasm = next(dist_dir.glob("runtime/*/*.wasm"))
        path = "/" + wasm.relative_to(dist_dir).as_posix()
    want = expected_headers(path)
    assert "Content-Security-Policy" in want
    request = urllib.request.Request(site_url.rstrip("/") + path, method="HEAD")
    with urllib.request.urlopen(request, timeout=10) as response:
        got = response.headers
        assert response.status == 200
    for name, value in want.items():
        assert got.get_all(name) == [value], (path, name, got.get_all(name))
    if path.endswith(".wasm"):
        assert got["Content-Type"] == "application/wasm"


def test_csp_allows_nothing_remote_and_nothing_unexplained() -> None:
    """Catches a remote origin, a wildcard or scheme source, 'unsafe-inline', or a new
    exception nobody wrote down (in EXCEPTIONS and in the README). The one remote
    exception: the live tables' relays (wss:// in connect-src), each named in the README."""
    policy = csp()
    assert policy["default-src"] == ["'none'"]
    for name in ("object-src", "base-uri", "form-action", "frame-ancestors"):
        assert policy[name] == ["'none'"], name
    found = set()
    relays = []  # the live tables' relays: exactly web/js/live.js's (tests/test_live_csp.py)
    for directive, sources in policy.items():
        for source in sources:
            if directive == "connect-src" and re.fullmatch(r"wss://[a-z0-9.-]+(/[\w/-]*)?", source):
                relays.append(source)
                continue
            if (directive, source) not in EXCEPTIONS:
                assert source not in ("*", "http:", "https:", "ws:", "wss:", "blob:", "filesystem:")
            assert "://" not in source and "." not in source and "*" not in source, source
            assert source != "'unsafe-inline'", directive
            if source not in ("'self'", "'none'"):
                found.add((directive, source))
    assert found == EXCEPTIONS
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Reliability", 1)[1].split("\n## ", 1)[0]
    for directive, source in EXCEPTIONS:
        assert any(directive in line and source in line for line in section.splitlines()), (
            f"README's Reliability section does not explain {directive} {source}"
        )
    assert relays, "connect-src names the live tables' relays"
    for relay in relays:
        assert any("connect-src" in line and f"`{relay}`" in line
                   for line in section.splitlines()), f"README does not name relay {relay}"


def test_other_security_headers() -> None:
    """nosniff, no referrer, and a Permissions-Policy that denies what the game never
    uses (it only writes the clipboard, from this origin, to copy a share link)."""
    headers = expected_headers("/index.html")
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Frame-Options"] == "DENY"
    features = dict(
        item.strip().split("=", 1) for item in headers["Permissions-Policy"].split(",")
    )
    for denied in ("camera", "microphone", "geolocation", "payment", "usb", "clipboard-read"):
        assert features[denied] == "()", denied
    granted = {name: value for name, value in features.items() if value != "()"}
    assert granted == {"clipboard-write": "(self)"}
