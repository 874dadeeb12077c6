"""PyScript's own package as bytecode (scripts/pyscript_bytecode.py): the build reads the
package out of the core chunk it ships, exactly the files PyScript writes before
main.py runs, and the pycs it makes are checked against those sources."""

from __future__ import annotations

import doctest
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import pyscript_bytecode  # noqa: E402 - scripts/pyscript_bytecode.py

CORE = sorted((ROOT / "node_modules" / "@pyscript" / "core" / "dist").glob("core-*.js"))


def test_doctests() -> None:
    assert doctest.testmod(pyscript_bytecode).failed == 0


def test_the_package_is_read_from_the_shipped_chunk_whole() -> None:
    """One chunk holds the package, written once (wo(".",{pyscript:…})); every file the
    package's __init__ imports is there, and every source compiles."""
    holders = [c for c in CORE if "{pyscript:{" in c.read_text()]
    assert len(holders) == 1, holders
    chunk = holders[0].read_text()
    assert chunk.count("{pyscript:{") == 1
    files = pyscript_bytecode.package_sources(chunk)
    init = files["pyscript/__init__.py"]
    for module in ("context", "display", "fetch", "storage", "websocket", "events"):
        assert f"from pyscript.{module} import" in init
        assert f"pyscript/{module}.py" in files
    for path, text in files.items():
        compile(text, path, "exec")
