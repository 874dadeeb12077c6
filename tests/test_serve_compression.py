"""scripts/serve.py compresses like the static host: Brotli when the client accepts br,
gzip otherwise, nothing for archives or for a client that accepts neither."""

from __future__ import annotations

import gzip
import importlib.util
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

brotli = pytest.importorskip("brotli")
ROOT = Path(__file__).resolve().parent.parent


def load_serve():
    spec = importlib.util.spec_from_file_location("skyline_serve_t", ROOT / "scripts" / "serve.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


serve = load_serve()
TEXT = ("Skyline " * 4000).encode()


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = tmp_path_factory.mktemp("site")
    (site / "page.js").write_bytes(TEXT)
    (site / "archive.zip").write_bytes(TEXT)
    server = serve.make_server(site, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    host, port = server.server_address[:2]
    yield f"http://{host}:{port}/"
    server.shutdown()
    server.server_close()


def get(url: str, accept: str | None) -> tuple[str | None, bytes]:
    request = urllib.request.Request(url)
    if accept is not None:
        request.add_header("Accept-Encoding", accept)
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.headers.get("Content-Encoding"), response.read()


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("gzip, deflate, br, zstd", "br"),
        ("br;q=1.0, gzip;q=0.5", "br"),
        ("gzip, br;q=0", "gzip"),
        ("gzip", "gzip"),
        ("identity", None),
        ("", None),
    ],
)
def test_pick_encoding(accept: str, expected: str | None) -> None:
    assert serve.pick_encoding(accept) == expected


def test_brotli_for_browsers_that_accept_it(base: str) -> None:
    encoding, body = get(base + "page.js", "gzip, deflate, br, zstd")
    assert encoding == "br"
    assert brotli.decompress(body) == TEXT
    assert len(body) < len(TEXT) / 10


def test_gzip_fallback_and_identity(base: str) -> None:
    encoding, body = get(base + "page.js", "gzip")
    assert encoding == "gzip" and gzip.decompress(body) == TEXT
    encoding, body = get(base + "page.js", None)
    assert encoding is None and body == TEXT


def test_archives_are_sent_as_they_are(base: str) -> None:
    encoding, body = get(base + "archive.zip", "br, gzip")
    assert encoding is None and body == TEXT
