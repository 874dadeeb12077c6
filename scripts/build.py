#!/usr/bin/env python3
"""Assemble the static site in ``dist/`` (the Netlify publish folder).

Steps:
1. build the ``skyline`` wheel from this repo (reproducibly: fixed zip timestamps),
2. ``npm ci`` when ``node_modules`` is missing or older than ``package-lock.json``,
3. copy the ``web/`` tree (minus tests), the PyScript files the page imports, the
   Pyodide core files and the wheel into ``dist/``,
4. write ``dist/pyscript.json`` (``web/pyscript.json`` plus the local interpreter and
   the ``[files]`` entries) and ``dist/sw.js`` (``web/sw.js`` with the precache list
   and a cache name derived from a content hash of every precached file).

Only Python + pip + npm are needed; nothing is fetched from a CDN, ever.
Usage: ``python scripts/build.py [--out DIST]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
NODE_MODULES = ROOT / "node_modules"
LOCK = ROOT / "package-lock.json"
# npm ci writes this stamp; a different lock hash means node_modules is stale.
NPM_STAMP = NODE_MODULES / ".skyline-lock-sha256"

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# PyScript loads every plugin chunk unless pyscript.json disables it with "!name";
# web/pyscript.json (and <mpy-config> in index.html) disable all but "error". Pyodide
# unpacks the [files] wheel itself (no "zip-" chunk); a JSON config spares "toml-".
PYSCRIPT_CHUNK_PREFIXES = ("core-", "error-")
# Fixed zip timestamps make the wheel byte-identical for identical sources, so an
# unchanged rebuild keeps the same service-worker cache name.
SOURCE_DATE_EPOCH = "315532800"  # 1980-01-01, the earliest date a zip can hold

# Not part of the Python package: skipped when copying the source to build the wheel.
WHEEL_SOURCE_IGNORE = (
    ".git",
    "node_modules",
    "dist",
    "build",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".cache",
    "web",
    "e2e",
    "tests",
    "test-results",
)
TEMPLATE_FILES = {"index.html", "pyscript.json", "sw.js"}  # rendered, not copied
# The scenario value tables are not in the page's wheel (the start-up path): they are
# served as separate files, fetched only when a scenario game is played, and handed to
# skyline.solo_value.install_scenario_table.
SCENARIO_TABLES = Path("skyline") / "data" / "scenarios"
# Whether the service worker precaches them (offline scenario play; the SW install then
# downloads them in the background on the first visit, though the page itself does not).
PRECACHE_SCENARIO_TABLES = True


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def npm_package_version(name: str) -> str:
    lock = json.loads(LOCK.read_text())
    return lock["packages"][f"node_modules/{name}"]["version"]


def ensure_node_modules() -> None:
    """Run ``npm ci`` only when node_modules does not match the committed lock."""
    want = sha256(LOCK.read_bytes())
    if NPM_STAMP.is_file() and NPM_STAMP.read_text().strip() == want:
        return
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("[build] npm not found: install Node.js (Debian: apt-get install -y nodejs npm)")
    log("npm ci (node_modules missing or stale)")
    subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=ROOT, check=True)
    NPM_STAMP.write_text(want + "\n")


def build_wheel(tmp: Path) -> Path:
    """Build the repo's wheel with pip (always present), fully reproducibly.

    Built from a clean copy of the source: setuptools' in-tree build/ folder would
    leave stale modules in the wheel and litter the work tree.
    """
    src = tmp / "src"
    patterns = shutil.ignore_patterns(*WHEEL_SOURCE_IGNORE)

    def ignore(folder: str, names: list[str]) -> set[str]:
        skipped = set(patterns(folder, names))
        if Path(folder).resolve() == (ROOT / SCENARIO_TABLES).parent.resolve():
            skipped.add(SCENARIO_TABLES.name)
        return skipped

    shutil.copytree(ROOT, src, ignore=ignore)
    env = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH, "PIP_NO_INPUT": "1"}
    cmd = [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-q", "-w", str(tmp)]
    # Reuse the local setuptools/wheel when both are importable: no PyPI round trip.
    # Otherwise pip's build isolation fetches them (fresh machines).
    probe = subprocess.run([sys.executable, "-c", "import setuptools, wheel"], capture_output=True)
    if probe.returncode == 0:
        cmd.append("--no-build-isolation")
    log("building wheel")
    subprocess.run(cmd, cwd=tmp, env=env, check=True)
    wheels = sorted(tmp.glob("skyline-*.whl"))
    if len(wheels) != 1:
        sys.exit(f"[build] expected one skyline wheel, got {wheels}")
    return wheels[0]


# The QR code library (segno): a pinned wheel named with its sha256 in web/games_ui.py,
# fetched once by pip into this cache and copied to dist/qr/ (loaded on demand).
WHEEL_CACHE = ROOT / ".cache" / "wheels"


def qr_wheel_pin() -> tuple[str, str]:
    source = (WEB / "games_ui.py").read_text()
    name = re.search(r'^QR_WHEEL_NAME = "([^"]+)"', source, re.M)
    digest = re.search(r'^QR_WHEEL_SHA256 = "([0-9a-f]{64})"', source, re.M)
    if not name or not digest:
        sys.exit("[build] web/games_ui.py lacks QR_WHEEL_NAME / QR_WHEEL_SHA256")
    return name.group(1), digest.group(1)


def copy_qr_wheel(out: Path) -> None:
    """The pinned segno wheel into dist/qr/ (downloaded by pip once, checked by sha256)."""
    name, digest = qr_wheel_pin()
    cached = WHEEL_CACHE / name
    if not cached.is_file() or sha256(cached.read_bytes()) != digest:
        project, version = name.split("-")[:2]
        WHEEL_CACHE.mkdir(parents=True, exist_ok=True)
        log(f"pip download {project}=={version}")
        subprocess.run(
            [sys.executable, "-m", "pip", "download", f"{project}=={version}", "--no-deps",
             "--only-binary", ":all:", "-q", "-d", str(WHEEL_CACHE)],
            check=True,
        )
    if sha256(cached.read_bytes()) != digest:
        sys.exit(f"[build] {name}: sha256 does not match the pin in web/games_ui.py")
    (out / "qr").mkdir(parents=True, exist_ok=True)
    shutil.copy2(cached, out / "qr" / name)


def is_web_test(rel: Path) -> bool:
    parts = rel.parts
    return (
        any(p in {"tests", "test", "__pycache__"} for p in parts)
        or rel.name.startswith("test_")
        or rel.name.endswith("_test.py")
        or rel.suffix == ".pyc"
    )


def copy_web(out: Path) -> list[Path]:
    """Copy web/ (except templates and tests); return the copied .py glue files."""
    py_files: list[Path] = []
    for src in sorted(WEB.rglob("*")):
        rel = src.relative_to(WEB)
        if src.is_dir() or is_web_test(rel) or str(rel) in TEMPLATE_FILES:
            continue
        dst = out / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)
        if src.suffix == ".py":
            py_files.append(rel)
    return py_files


def copy_pyscript(out: Path, version: str) -> str:
    """Copy core.js/core.css and the chunks the page imports; return the folder."""
    src = NODE_MODULES / "@pyscript" / "core" / "dist"
    rel = f"runtime/pyscript-{version}"
    dst = out / rel
    dst.mkdir(parents=True)
    names = ["core.js", "core.css"] + [
        p.name for p in sorted(src.glob("*.js")) if p.name.startswith(PYSCRIPT_CHUNK_PREFIXES)
    ]
    for name in names:
        text = (src / name).read_text()
        # Drop sourceMappingURL comments: maps are not shipped.
        text = re.sub(r"\n?//# sourceMappingURL=\S+\s*$", "\n", text)
        (dst / name).write_text(text)
    # Every static/dynamic import of a shipped chunk must be shipped or deliberately
    # left out (a disabled plugin); catch a PyScript upgrade that adds a hard import.
    for name in names:
        for dep in re.findall(r'from"\./([^"]+)"', (dst / name).read_text()):
            if not (dst / dep).is_file():
                sys.exit(f"[build] {name} statically imports missing chunk {dep}")
    return rel


def copy_pyodide(out: Path, version: str) -> tuple[str, str]:
    """Copy the Pyodide core; return (folder, python major.minor)."""
    src = NODE_MODULES / "pyodide"
    rel = f"runtime/pyodide-{version}"
    dst = out / rel
    dst.mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(src / name, dst / name)
    info = json.loads((src / "pyodide-lock.json").read_text())["info"]
    py_mm = ".".join(info["python"].split(".")[:2])
    return rel, py_mm


def write_pyscript_config(
    out: Path, pyodide_dir: str, py_mm: str, wheel: str, py_files: list[Path]
) -> None:
    """web/pyscript.json + local interpreter + wheel and glue modules in [files]."""
    config = json.loads((WEB / "pyscript.json").read_text())
    # Resolved against the page URL (not this file's), see BROWSER-STACK.md.
    config["interpreter"] = f"./{pyodide_dir}/pyodide.mjs"
    files: dict[str, str] = dict(config.get("files", {}))
    # A target ending in "/*" makes PyScript unzip the wheel there.
    files[f"./{wheel}"] = f"/lib/python{py_mm}/site-packages/*"
    for rel in py_files:
        if rel.as_posix() != "main.py":  # main.py is the <script src>, not a module
            files[f"./{rel.as_posix()}"] = f"./{rel.as_posix()}"
    config["files"] = files
    (out / "pyscript.json").write_text(json.dumps(config, indent=2) + "\n")


def render_index(out: Path, pyscript_dir: str, pyodide_dir: str) -> None:
    """Fill index.html's placeholders: runtime folder, languages, boot download size."""
    langs = sorted(p.stem for p in (out / "i18n").glob("*.json")) or ["en"]
    # Bytes boot.js counts for its progress bar (see TRACKED there).
    boot_bytes = sum(
        (out / pyodide_dir / name).stat().st_size
        for name in ("pyodide.asm.wasm", "python_stdlib.zip")
    )
    html = (WEB / "index.html").read_text()
    for key, value in {
        "@PYSCRIPT_DIR@": pyscript_dir,
        "@I18N_LANGS@": " ".join(langs),
        "@BOOT_BYTES@": str(boot_bytes),
    }.items():
        html = html.replace(key, value)
    if re.search(r"@[A-Z_]+@", html) or "cdn" in html.lower():
        sys.exit("[build] index.html still has a placeholder or mentions a CDN")
    (out / "index.html").write_text(html)


def write_service_worker(out: Path) -> tuple[str, list[str]]:
    """Render sw.js with every file in dist (plus "./") and a content-hash cache name."""
    files = sorted(
        rel
        for rel in (p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
        if rel != "sw.js"  # the SW script is not precached: the browser updates it itself
        and (PRECACHE_SCENARIO_TABLES or not rel.startswith("data/scenarios/"))
    )
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode() + b"\0" + (out / rel).read_bytes() + b"\0")
    cache = f"skyline-{digest.hexdigest()[:16]}"
    urls = ["./"] + [f"./{rel}" for rel in files]
    sw = (WEB / "sw.js").read_text()
    sw = sw.replace('"@CACHE_NAME@"', json.dumps(cache))
    sw = sw.replace('["@PRECACHE@"]', json.dumps(urls, indent=2))
    (out / "sw.js").write_text(sw)
    return cache, urls


def copy_scenario_tables(out: Path) -> None:
    """dist/data/scenarios/<scenario>-<mode>.bin: the lazily fetched scenario tables."""
    src = ROOT / SCENARIO_TABLES
    if not src.is_dir():
        return
    dest = out / "data" / "scenarios"
    dest.mkdir(parents=True, exist_ok=True)
    for table in sorted(src.glob("*.bin")):
        shutil.copy2(table, dest / table.name)


def build(out: Path) -> str:
    ensure_node_modules()
    pyodide_version = npm_package_version("pyodide")
    pyscript_version = npm_package_version("@pyscript/core")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        wheel = build_wheel(Path(tmp))
        shutil.copy2(wheel, out / wheel.name)
    copy_scenario_tables(out)
    py_files = copy_web(out)
    copy_qr_wheel(out)
    pyscript_dir = copy_pyscript(out, pyscript_version)
    pyodide_dir, py_mm = copy_pyodide(out, pyodide_version)
    write_pyscript_config(out, pyodide_dir, py_mm, wheel.name, py_files)
    render_index(out, pyscript_dir, pyodide_dir)
    cache, urls = write_service_worker(out)
    total = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    runtime = sum(p.stat().st_size for p in (out / "runtime").rglob("*") if p.is_file())
    log(
        f"dist ready: {len(urls)} precached URLs, {total / 1e6:.2f} MB total, "
        f"{(total - runtime) / 1e3:.1f} kB own, cache {cache}"
    )
    return cache


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="output folder")
    args = parser.parse_args()
    build(args.out.resolve())


if __name__ == "__main__":
    main()
