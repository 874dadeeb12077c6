"""The page's Python keeps its rooms: a core that imports no feature, features that
import only the core and the engine, and a shell (the controller and the two
composers) that is the only place importing features.

Every import counts, at the top, inside a function or under ``TYPE_CHECKING``: a reader
follows a type-level import as far as a run-time one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parent.parent / "web" / "app"

#: Modules that compose the features: they alone may import them.
SHELL = {"app.controller", "app.screen", "app.render"}


def module_name(path: Path, root: Path = APP) -> str:
    rel = path.relative_to(root.parent).with_suffix("")
    return ".".join(rel.parts).removesuffix(".__init__")


def imports(path: Path, name: str) -> list[tuple[int, str]]:
    """(line, module) of every import of ``path`` (module ``name``), relative ones
    resolved."""
    found = []
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            # `from app.games import ui` imports the module app.games.ui
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def room(module: str) -> str:
    """``core``, a feature's name, ``shell`` or ``""`` (not the page's: stdlib, engine)."""
    parts = module.split(".")
    if parts[0] != "app":
        return ""
    if module in SHELL or len(parts) < 2:
        return "shell" if module in SHELL else ""
    if len(parts) == 2 and not (APP / parts[1]).is_dir():
        return "shell"  # a module at the top of app/ that is not a feature's folder
    return parts[1]


def violations(root: Path = APP) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        name = module_name(path, root)
        mine = room(name)
        for line, target in imports(path, name):
            theirs = room(target)
            if not theirs or theirs == mine or mine == "shell":
                continue
            if theirs == "core" and mine != "core":
                continue  # every feature builds on the core
            found.append(f"{path.relative_to(root.parent)}:{line}: {mine} imports {target}")
    return found


def test_the_core_imports_no_feature_and_features_import_only_the_core() -> None:
    assert violations() == []


def test_a_feature_importing_another_or_the_core_importing_one_is_caught(
        tmp_path: Path) -> None:
    app = tmp_path / "app"
    for folder in ("core", "turn", "games"):
        (app / folder).mkdir(parents=True)
        (app / folder / "__init__.py").write_text("")
    (app / "__init__.py").write_text("")
    (app / "controller.py").write_text("from app.turn import play\nfrom app.games import ui\n")
    (app / "core" / "session.py").write_text("from typing import TYPE_CHECKING\n"
                                              "if TYPE_CHECKING:\n"
                                              "    from app.turn.play import Play\n")
    (app / "turn" / "play.py").write_text("from app.core import session\n"
                                           "def f():\n    from ..games import ui\n")
    (app / "games" / "ui.py").write_text("from . import library\nfrom app.core.i18n import t\n")
    assert violations(app) == [
        "app/core/session.py:3: core imports app.turn.play.Play",
        "app/turn/play.py:3: turn imports app.games.ui",
    ]


@pytest.mark.parametrize("module, expected", [
    ("app.core.session", "core"), ("app.turn.play", "turn"), ("app.controller", "shell"),
    ("skyline.rules", ""), ("json", ""),
])
def test_rooms_are_named_by_their_folder(module: str, expected: str) -> None:
    assert room(module) == expected
