"""scripts/compile_pyc.mjs (run by scripts/build.py): Pyodide's own CPython compiles an
archive's sources to unchecked-hash .pyc files, byte-identically on every run; other
members are copied; a wheel's RECORD lists the new members."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import marshal
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "compile_pyc.mjs"


@pytest.fixture(scope="module", autouse=True)
def node_modules() -> None:
    """The shipped Pyodide under Node: ``npm ci`` as the build does it (a fresh clone
    runs tests/ before the e2e suite builds the site), so this never silently skips."""
    assert shutil.which("node"), "Node.js is needed (the build needs it too)"
    spec = importlib.util.spec_from_file_location("skyline_build", ROOT / "scripts" / "build.py")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    build.ensure_node_modules()


def make_wheel(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("pkg/__init__.py", '"""Doc."""\nVALUE = 6 * 7\n')
        zf.writestr("pkg/data.txt", "kept as it is\n")
        zf.writestr("pkg-1.0.dist-info/RECORD", "pkg/__init__.py,sha256=x,1\n")


def compile_twice(tmp_path: Path) -> tuple[bytes, bytes]:
    src = tmp_path / "in.whl"
    make_wheel(src)
    outs = [tmp_path / "a.whl", tmp_path / "b.whl"]
    subprocess.run(
        ["node", str(SCRIPT), str(src), str(outs[0]), "/site",
         str(src), str(outs[1]), "/site"],
        check=True, capture_output=True, timeout=300,
    )
    return outs[0].read_bytes(), outs[1].read_bytes()


def test_bytecode_archive_is_deterministic_and_complete(tmp_path: Path) -> None:
    first, second = compile_twice(tmp_path)
    assert first == second
    zf = zipfile.ZipFile(io.BytesIO(first))
    assert sorted(zf.namelist()) == [
        "pkg-1.0.dist-info/RECORD", "pkg/__init__.pyc", "pkg/data.txt"]
    assert zf.read("pkg/data.txt") == b"kept as it is\n"
    assert {i.date_time for i in zf.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    pyc = zf.read("pkg/__init__.pyc")
    # PEP 552 header: magic, flags 0b01 (hash-based, unchecked), source hash, code
    assert int.from_bytes(pyc[4:8], "little") == 0b01
    source = b'"""Doc."""\nVALUE = 6 * 7\n'
    assert pyc[8:16] == importlib.util.source_hash(source) or pyc[:4] != importlib.util.MAGIC_NUMBER
    if pyc[:4] == importlib.util.MAGIC_NUMBER:  # this CPython reads the same bytecode
        namespace: dict[str, object] = {}
        exec(marshal.loads(pyc[16:]), namespace)
        assert namespace["VALUE"] == 42
    record = zf.read("pkg-1.0.dist-info/RECORD").decode().splitlines()
    digest = base64.urlsafe_b64encode(hashlib.sha256(pyc).digest()).rstrip(b"=").decode()
    assert f"pkg/__init__.pyc,sha256={digest},{len(pyc)}" in record
    assert "pkg-1.0.dist-info/RECORD,," in record
