"""The code stays in pieces a reader can hold: no module over 600 lines and no class over
300 lines in the engine (``skyline/``) or the page's Python (``web/app/`` and the top-level
``web/*.py``). A failure names every offender with its size."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_MODULE_LINES = 600
MAX_CLASS_LINES = 300

#: Each root folder and whether its subfolders count too.
ROOTS = {"skyline": True, "web/app": True, "web": False}


def modules(folder: str, recursive: bool) -> list[Path]:
    base = ROOT / folder
    return sorted(base.rglob("*.py") if recursive else base.glob("*.py"))


def oversized(path: Path, root: Path = ROOT) -> list[str]:
    """The module and its classes that are over the limits, as ``where: size``."""
    text = path.read_text(encoding="utf-8")
    rel = path.relative_to(root).as_posix()
    found = []
    lines = len(text.splitlines())
    if lines > MAX_MODULE_LINES:
        found.append(f"{rel}: module of {lines} lines (at most {MAX_MODULE_LINES})")
    for node in ast.walk(ast.parse(text, filename=rel)):
        if isinstance(node, ast.ClassDef):
            size = (node.end_lineno or node.lineno) - node.lineno + 1
            if size > MAX_CLASS_LINES:
                found.append(f"{rel}:{node.lineno} class {node.name} of {size} lines "
                             f"(at most {MAX_CLASS_LINES})")
    return found


@pytest.mark.parametrize("folder", sorted(ROOTS))
def test_no_module_or_class_is_too_long(folder: str) -> None:
    files = modules(folder, ROOTS[folder])
    if not files:
        pytest.skip(f"no Python modules in {folder}/ (yet)")
    offenders = [o for path in files for o in oversized(path)]
    assert not offenders, "too long:\n" + "\n".join(offenders)


def test_the_check_names_what_is_too_long(tmp_path: Path) -> None:
    long_class = "class Big:\n" + "    x = 1\n" * MAX_CLASS_LINES
    (tmp_path / "big.py").write_text(long_class + "\n" * MAX_MODULE_LINES, encoding="utf-8")
    found = oversized(tmp_path / "big.py", tmp_path)
    assert [f.split(" of ")[0] for f in found] == ["big.py: module", "big.py:1 class Big"]
