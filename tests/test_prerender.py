"""What scripts/build.py prerenders under CPython is exactly what the live page renders,
in English and German: the rules dialog (dist/rules/<lang>.html, opened by web/boot.js
before Python is ready) and a new visitor's first render, the welcome dialog over a
fresh solo game (index.html's <template data-first-paint>, painted by web/boot.js on a
first visit before Python is ready)."""

from __future__ import annotations

import importlib.util
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from web_fakes import FakeHost, make_page, tables

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


# --- a new visitor's welcome screen (index.html's <template data-first-paint>) -----------

@pytest.fixture(scope="module")
def build():
    return load_build()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_prerendered_welcome_is_the_first_render(build, lang: str) -> None:
    """What the build paints for a new visitor is the page's first render: empty storage,
    no fragment, that browser language, the computer seats installed as main.py does."""
    _, host, _ = make_page(langs=(lang,))
    prerendered = build.welcome_regions(lang)
    assert set(prerendered) == set(build.WELCOME_REGIONS)
    for name in build.WELCOME_REGIONS:
        assert prerendered[name] == host.html.get(name, ""), name
    assert 'data-testid="dialog-newgame"' in prerendered["dialog"]
    assert host.html.get("notices", "") == ""  # nothing transient left out


def test_prerendered_welcome_does_not_depend_on_date_clock_or_device(build) -> None:
    """Nothing on the welcome screen may change with the day, the time zone, the clock or
    the browser's share sheet: the build's fixed ones give the same HTML as others."""
    host = FakeHost()
    host.today, host.tz, host.share_ok, host.clock = "2031-07-15", -300, True, 50
    for lang in ("en", "de"):
        host.html.clear()
        host.storage.clear()
        make_page(langs=(lang,), host=host)
        assert build.welcome_regions(lang) == {
            name: host.html.get(name, "") for name in build.WELCOME_REGIONS}
        other = build.welcome_regions(lang, build.PrerenderHost(today="2027-12-31", tz=540))
        assert other == build.welcome_regions(lang)


def test_welcome_language_is_the_one_the_page_picks(build) -> None:
    """boot.js picks the template as i18n.pick_language picks the page's language: the
    first of navigator.languages we have (by its base), else English."""
    de_page, de_host, _ = make_page(langs=("fr-FR", "de-AT", "en"))
    en_page, en_host, _ = make_page(langs=("fr-FR", "it"))
    assert de_page.texts.lang == "de" and en_page.texts.lang == "en"
    assert build.welcome_regions("de")["dialog"] == de_host.html["dialog"]
    assert build.welcome_regions("en")["dialog"] == en_host.html["dialog"]


class _Regions(HTMLParser):
    """The <template>s of index.html: each region's inner HTML, as the browser sees it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.templates: dict[str, dict[str, str]] = {}
        self.attrs: dict[str, dict[str, str | None]] = {}
        self.depth = 0
        self.lang = ""
        self.region = ""
        self.open_tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "template":
            self.lang = str(found["data-first-paint"])
            self.templates[self.lang] = {}
            self.attrs[self.lang] = found
        elif tag == "div" and "data-region" in found and not self.region:
            self.region = str(found["data-region"])
            self.templates[self.lang][self.region] = ""
            self.depth = 0
        elif self.region:
            if tag == "div":
                self.depth += 1
            self.templates[self.lang][self.region] += self.get_starttag_text() or ""

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.region:
            self.templates[self.lang][self.region] += self.get_starttag_text() or ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" and self.region and self.depth == 0:
            self.region = ""
        elif self.region:
            if tag == "div":
                self.depth -= 1
            self.templates[self.lang][self.region] += f"</{tag}>"

    def handle_data(self, data: str) -> None:
        if self.region:
            self.templates[self.lang][self.region] += data


def test_welcome_templates_hold_every_region_the_open_dialog_and_bar_words(build) -> None:
    """index.html gets one template per string table; each holds the regions boot.js
    paints (the dialog as a plain open <dialog>, placed like the modal one by the
    styles) and the words of the "Starting…" bar in that language."""
    parser = _Regions()
    parser.feed(build.first_paint_templates())
    assert set(parser.templates) == {"en", "de"}
    for lang, regions in parser.templates.items():
        table = tables()[lang]
        assert parser.attrs[lang]["data-starting"] == table["loading.starting"]
        assert parser.attrs[lang]["data-rules"] == table["btn.rules"]
        assert list(regions) == list(build.WELCOME_REGIONS)
        live = build.welcome_regions(lang)
        assert regions["dialog"].startswith("<dialog open ")
        regions["dialog"] = regions["dialog"].replace("<dialog open ", "<dialog ", 1)
        for name in build.WELCOME_REGIONS:
            assert unescape(regions[name]) == unescape(live[name]), (lang, name)
