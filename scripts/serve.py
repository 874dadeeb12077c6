#!/usr/bin/env python3
"""Serve ``dist/`` locally the way Netlify would.

Builds first (unless ``--no-build``), then serves on http://127.0.0.1:PORT with correct
MIME types and the ``[[headers]]`` rules of ``netlify.toml`` (CSP, caching, ...), so the
e2e suite runs under the real production headers. Like the static host, it compresses
text, JavaScript, JSON, SVG and WebAssembly responses (Brotli when the browser accepts
``br``, as Netlify serves it, else gzip; archives and value tables are sent as they are),
so local byte counts match production. Brotli needs the ``brotli`` package (the test
extra); without it responses are gzip. Compressed bodies are cached in memory and, by
content hash, in a folder under the system's temporary directory (a 9.6 MB wasm takes
seconds to compress at quality 9 on a loaded machine).

Usage: ``python scripts/serve.py [--port 8000] [--no-build] [--dir dist] [--verbose]``.
``--port 0`` picks a free port; the first stdout line is always ``serving URL``.

Test-only: a live table's e2e test points the page at a Nostr relay on the loopback
(``scripts/live_relay.py``), which netlify.toml's ``connect-src`` (the public relays only)
would block. Loopback WebSocket sources added to ``connect-src`` come from
``make_server(..., extra_connect=["ws://127.0.0.1:PORT"])`` (the e2e fixture
``serve_dir(dist_dir, extra_connect=[relay.url])`` passes it), or, for this script and
any server made without that argument, from the environment variable
``SKYLINE_CSP_EXTRA_CONNECT`` (space-separated, e.g. ``ws://127.0.0.1:7447``). Only
``ws://127.0.0.1[:PORT]`` and ``ws://localhost[:PORT]`` are accepted: anything else is an
error, so the knob can never widen the policy towards the network. Unset, the headers are
exactly netlify.toml's.
"""

from __future__ import annotations

import argparse
import email.utils
import fnmatch
import functools
import gzip
import hashlib
import importlib.util
import io
import os
import re
import sys
import tempfile
import threading
import tomllib
from collections.abc import Sequence
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import ModuleType
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".py": "text/plain; charset=utf-8",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".webmanifest": "application/manifest+json",
    ".css": "text/css",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
}


def load_script(name: str) -> ModuleType:
    """Import scripts/NAME.py under a private name ("build" would clash with pypa/build)."""
    spec = importlib.util.spec_from_file_location(
        f"skyline_{name}", ROOT / "scripts" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# Content types the static host compresses (Netlify compresses text-like responses and
# WebAssembly; zip archives, wheels and the value tables are compressed already).
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "application/wasm",
                "application/manifest+json", "image/svg+xml")
try:
    import brotli  # Google's Brotli bindings (PyPI "brotli"); optional, see above
except ImportError:  # pragma: no cover - gzip only
    brotli = None

# Brotli quality 9: about 3.10 MB for the 9.6 MB wasm (gzip 6: 3.55 MB, Brotli 11: 2.74 MB
# but 100 s of CPU here); Netlify does not document the level its edge uses.
BROTLI_QUALITY = 9
_CACHE: dict[tuple[str, str, int, int], bytes] = {}
_CACHE_LOCK = threading.Lock()
DISK_CACHE = Path(tempfile.gettempdir()) / "skyline-serve-cache"


def _compress(data: bytes, encoding: str) -> bytes:
    if encoding == "br":
        digest = hashlib.sha256(data).hexdigest()
        cached = DISK_CACHE / f"{digest}.q{BROTLI_QUALITY}.br"
        try:
            return cached.read_bytes()
        except OSError:
            pass
        body = brotli.compress(data, quality=BROTLI_QUALITY)
        try:
            DISK_CACHE.mkdir(parents=True, exist_ok=True)
            part = cached.with_suffix(f".{os.getpid()}.part")
            part.write_bytes(body)
            part.replace(cached)  # atomic: parallel servers never read half a file
        except OSError:
            pass  # a read-only temp folder: memory cache only
        return body
    return gzip.compress(data, compresslevel=6, mtime=0)


def compressed(path: str, encoding: str = "gzip") -> bytes:
    """The file at ``path`` compressed with ``encoding`` ("br" or "gzip"), cached by
    path, size and mtime."""
    stat = os.stat(path)
    key = (path, encoding, stat.st_size, stat.st_mtime_ns)
    with _CACHE_LOCK:
        if key not in _CACHE:
            with open(path, "rb") as f:
                _CACHE[key] = _compress(f.read(), encoding)
        return _CACHE[key]


def encoding_note() -> str:
    """What this server compresses with, for reports."""
    if brotli is None:
        return "gzip 6 (brotli not installed)"
    return f"Brotli {BROTLI_QUALITY} when accepted, else gzip 6"


def pick_encoding(accept_encoding: str) -> str | None:
    """``br`` if the client accepts it and Brotli is available, else ``gzip`` if
    accepted, else None (q=0 refusals are honoured)."""
    accepted = set()
    for part in accept_encoding.split(","):
        name, _, params = part.strip().partition(";")
        q = params.strip()
        if q.startswith("q=") and q[2:].strip() in ("0", "0.0", "0.00", "0.000"):
            continue
        accepted.add(name.strip().lower())
    if "br" in accepted and brotli is not None:
        return "br"
    return "gzip" if "gzip" in accepted else None


HeaderRule = tuple[str, dict[str, str]]
NETLIFY_DEFAULT_CACHE_CONTROL = "public, max-age=0, must-revalidate"


def load_header_rules(netlify_toml: Path) -> list[HeaderRule]:
    """Return netlify.toml's ``[[headers]]`` as (path pattern, headers) pairs, in order."""
    if not netlify_toml.is_file():
        return []
    config = tomllib.loads(netlify_toml.read_text())
    return [(rule["for"], dict(rule.get("values", {}))) for rule in config.get("headers", [])]


# Test-only (the module docstring): loopback relays added to the CSP's connect-src.
EXTRA_CONNECT_ENV = "SKYLINE_CSP_EXTRA_CONNECT"
LOOPBACK_WS = re.compile(r"ws://(127\.0\.0\.1|localhost)(:[0-9]{1,5})?")


def extra_connect_sources(sources: Sequence[str] | None = None) -> list[str]:
    """The loopback WebSocket sources to add to connect-src: ``sources``, or when None
    the environment's ``SKYLINE_CSP_EXTRA_CONNECT``. Anything but a loopback ``ws://``
    URL is refused (ValueError)."""
    if sources is None:
        sources = os.environ.get(EXTRA_CONNECT_ENV, "").split()
    wrong = [source for source in sources if not LOOPBACK_WS.fullmatch(source)]
    if wrong:
        raise ValueError(f"not a loopback ws:// source for connect-src: {wrong}")
    return list(sources)


def with_extra_connect(rules: list[HeaderRule], sources: Sequence[str]) -> list[HeaderRule]:
    """``rules`` with ``sources`` appended to every CSP's connect-src directive."""
    if not sources:
        return rules
    out: list[HeaderRule] = []
    for pattern, values in rules:
        values = dict(values)
        for name, value in values.items():
            if name.lower() == "content-security-policy":
                directives = [d.strip() for d in value.split(";")]
                values[name] = "; ".join(
                    " ".join([d, *sources]) if d.split()[:1] == ["connect-src"] else d
                    for d in directives
                )
        out.append((pattern, values))
    return out


def headers_for(path: str, rules: list[HeaderRule]) -> dict[str, str]:
    """Headers of every rule matching ``path``; ``*`` matches any characters (also "/").

    Later rules override earlier ones for the same header (Netlify would merge them,
    so netlify.toml keeps each header in one rule per path).
    """
    out: dict[str, str] = {}
    for pattern, values in rules:
        if fnmatch.fnmatchcase(path, pattern):
            out.update(values)
    return out


class Handler(SimpleHTTPRequestHandler):
    """Static file handler with explicit MIME types, netlify headers and quiet logs."""

    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    header_rules: list[HeaderRule] = []
    verbose = False

    def end_headers(self) -> None:
        path = unquote(urlsplit(self.path).path)
        # Netlify's default when no rule sets it: always revalidate (ETag / 304).
        headers = {"Cache-Control": NETLIFY_DEFAULT_CACHE_CONTROL}
        headers.update(headers_for(path, self.header_rules))
        for name, value in headers.items():
            if name.lower() != "content-type":  # set in guess_type, never twice
                self.send_header(name, value)
        super().end_headers()

    def send_head(self):  # type: ignore[override]
        """Compressed responses for compressible types when the browser accepts br or
        gzip."""
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?", 1)[0].endswith("/"):
            path = os.path.join(path, "index.html")
        encoding = pick_encoding(self.headers.get("Accept-Encoding", ""))
        if encoding is None or not os.path.isfile(path):
            return super().send_head()
        ctype = self.guess_type(path)
        if not ctype.startswith(COMPRESSIBLE):
            return super().send_head()
        stat = os.stat(path)
        since = self.headers.get("If-Modified-Since")
        if since and "If-None-Match" not in self.headers:
            try:
                if int(stat.st_mtime) <= email.utils.parsedate_to_datetime(since).timestamp():
                    self.send_response(304)
                    self.send_header("Vary", "Accept-Encoding")
                    self.end_headers()
                    return None
            except (TypeError, ValueError, IndexError, OverflowError):
                pass
        body = compressed(path, encoding)
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Encoding", encoding)
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.end_headers()
        return io.BytesIO(body)

    def guess_type(self, path: str | Path) -> str:
        url_path = unquote(urlsplit(self.path).path)
        for name, value in headers_for(url_path, self.header_rules).items():
            if name.lower() == "content-type":
                return value
        return super().guess_type(path)

    def log_message(self, format: str, *args: object) -> None:
        if self.verbose:
            super().log_message(format, *args)

    def log_error(self, format: str, *args: object) -> None:
        # 404s and broken pipes are worth seeing even when quiet.
        sys.stderr.write(f"[serve] {format % args}\n")


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        # A browser closing a tab mid-download is normal; anything else is reported.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


def make_server(
    directory: Path,
    port: int = 0,
    verbose: bool = False,
    extra_connect: Sequence[str] | None = None,
) -> ThreadingHTTPServer:
    """A threaded server for ``directory`` on 127.0.0.1 with netlify.toml's headers;
    ``extra_connect`` (default: ``$SKYLINE_CSP_EXTRA_CONNECT``) adds loopback relays to
    the CSP's connect-src, for the live tables' e2e tests only."""
    rules = with_extra_connect(
        load_header_rules(ROOT / "netlify.toml"), extra_connect_sources(extra_connect)
    )
    handler = type("SkylineHandler", (Handler,), {"header_rules": rules, "verbose": verbose})
    return Server(("127.0.0.1", port), functools.partial(handler, directory=str(directory)))


def main() -> None:
    parser = argparse.ArgumentParser(description="Build and serve dist/ like Netlify.")
    parser.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    parser.add_argument("--no-build", action="store_true", help="serve dist/ as it is")
    parser.add_argument("--dir", type=Path, default=ROOT / "dist", help="folder to serve")
    parser.add_argument("--verbose", action="store_true", help="log every request")
    args = parser.parse_args()
    directory = args.dir.resolve()
    if not args.no_build:
        load_script("build").build(directory)
    if not (directory / "index.html").is_file():
        sys.exit(f"[serve] {directory}/index.html missing: run scripts/build.py first")
    server = make_server(directory, args.port, args.verbose)
    host, port = server.server_address[:2]
    print(f"serving http://{host}:{port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
