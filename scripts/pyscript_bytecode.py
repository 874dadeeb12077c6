"""PyScript's own Python package as bytecode (``scripts/build.py``).

Before ``main.py`` runs, PyScript writes its package ``pyscript`` (about 30 KB of
sources, held in its ``core`` chunk as a JavaScript object of file name -> text) into
the interpreter's home folder and imports it, compiling it on every start: on a phone's
half core, in an interpreter just restored from its memory snapshot, that compiling was
about a third of the 0.5-0.8 s the import took. The build reads the same sources out of
the chunk it ships, compiles them with the Pyodide the page runs (checked-hash pycs, PEP
552: Python compares them with the source PyScript wrote and compiles that instead if
they differ, so a wrong or stale pyc can only cost time), and the interpreter module
unpacks them into ``pyscript/__pycache__`` before PyScript writes the sources.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

_START = "{pyscript:{"  # the package in the core chunk: wo(".",{pyscript:{...}})
_KEY = re.compile(r"[A-Za-z_$][\w$]*")


def package_sources(chunk: str) -> dict[str, str]:
    """The package's files (``pyscript/<name>.py`` -> text) as PyScript writes them.

    >>> package_sources('x=1;wo(".",{pyscript:{"__init__.py":"import a\\\\n",'
    ...                 '"sub":{"b.py":"x=\\\\"}\\\\""}}});')
    {'pyscript/__init__.py': 'import a\\n', 'pyscript/sub/b.py': 'x="}"'}
    """
    start = chunk.find(_START)
    if start < 0:
        raise ValueError("no pyscript package in this chunk")
    decoder = json.JSONDecoder()

    def value(pos: int) -> tuple[dict, int]:
        out: dict = {}
        pos += 1  # "{"
        while chunk[pos] != "}":
            if chunk[pos] == '"':
                key, pos = decoder.raw_decode(chunk, pos)
            else:
                match = _KEY.match(chunk, pos)
                if match is None:
                    raise ValueError(f"unexpected text at {pos}: {chunk[pos:pos + 20]!r}")
                key, pos = match.group(0), match.end()
            if chunk[pos] != ":":
                raise ValueError(f"no ':' at {pos}")
            pos += 1
            if chunk[pos] == "{":
                out[key], pos = value(pos)
            else:
                out[key], pos = decoder.raw_decode(chunk, pos)
            if chunk[pos] == ",":
                pos += 1
        return out, pos + 1

    tree, _ = value(start)

    def files(node: dict, prefix: str) -> dict[str, str]:
        found: dict[str, str] = {}
        for name, item in node.items():
            if isinstance(item, dict):
                found.update(files(item, f"{prefix}{name}/"))
            elif isinstance(item, str):
                found[f"{prefix}{name}"] = item
        return found

    return files(tree, "")


def cached_name(path: str, cache_tag: str) -> str:
    """Where Python looks for a source's bytecode, inside its folder's __pycache__.

    >>> cached_name("pyscript/util.pyc", "cpython-314")
    'util.cpython-314.pyc'
    """
    return f"{Path(path).stem}.{cache_tag}.pyc"


def write_pyscript_bytecode(out: Path, pyscript_dir: str, py_mm: str,
                            compile_checked: Callable[[bytes, str], bytes]) -> str:
    """Compile the package found in the shipped core chunk; return the archive's path
    (relative to ``out``) of its top folder's bytecode, named for ``__pycache__``."""
    chunks = sorted((out / pyscript_dir).glob("core-*.js"))
    found = [package_sources(c.read_text()) for c in chunks if _START in c.read_text()]
    if len(found) != 1:
        raise ValueError(f"expected PyScript's package in one chunk, found {len(found)}")
    sources = {path: text for path, text in found[0].items()
               if path.count("/") == 1 and path.endswith(".py")}
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zin:
        for path in sorted(sources):
            zin.writestr(zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0)),
                         sources[path].encode())
    compiled = zipfile.ZipFile(io.BytesIO(compile_checked(archive.getvalue(), "/home/pyodide")))
    tag = "cpython-" + py_mm.replace(".", "")
    result = io.BytesIO()
    with zipfile.ZipFile(result, "w", zipfile.ZIP_DEFLATED) as zout:
        for name in sorted(compiled.namelist()):
            member = zipfile.ZipInfo(cached_name(name, tag), date_time=(1980, 1, 1, 0, 0, 0))
            member.compress_type = zipfile.ZIP_DEFLATED
            zout.writestr(member, compiled.read(name), compresslevel=9)
    data = result.getvalue()
    name = f"{pyscript_dir}/pyscript-{hashlib.sha256(data).hexdigest()[:12]}-pyc.zip"
    (out / name).write_bytes(data)
    return name
