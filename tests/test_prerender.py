"""The rules dialog prerendered by scripts/build.py (dist/rules/<lang>.html, opened by
web/boot.js before Python is ready) is exactly what the live page renders when the
player opens the rules, in English and German."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from web_fakes import make_page

ROOT = Path(__file__).resolve().parent.parent


def load_build():
    spec = importlib.util.spec_from_file_location("skyline_build", ROOT / "scripts" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def prerendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    (out / "i18n").mkdir()
    assert load_build().prerender_rules(out) == ["rules/en.html", "rules/de.html"]
    return out


@pytest.mark.parametrize("lang", ["en", "de"])
def test_prerendered_rules_are_the_live_dialog(prerendered: Path, lang: str) -> None:
    # a returning player with a game in progress (no welcome dialog) opens the rules
    c, host, _ = make_page(langs=(lang,), fragment="#play?p=Ann&seed=pre&start=0&nine=0")
    if c.page.dialog is not None:  # the link's confirmation, if any
        c.handle("click", "link-accept", None)
    c.handle("click", "rules", None)
    live = host.html["dialog"]
    assert 'data-testid="dialog-rules"' in live and f'lang="{lang}"' in live
    assert (prerendered / "rules" / f"{lang}.html").read_text(encoding="utf-8") == live + "\n"


def test_prerendered_rules_differ_by_language(prerendered: Path) -> None:
    en = (prerendered / "rules" / "en.html").read_text(encoding="utf-8")
    de = (prerendered / "rules" / "de.html").read_text(encoding="utf-8")
    assert "Spielregeln" in de and "Spielregeln" not in en
