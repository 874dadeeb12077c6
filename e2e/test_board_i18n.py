"""Two languages: switching keeps the game, the choice is remembered, the rules
panel carries the seed texts in both languages."""

from __future__ import annotations

import re
from pathlib import Path

from board_helpers import close_first_dialog, dice, new_game, record, take
from playwright.sync_api import Page

# The rule texts: ../shared/seeds beside the checkout (as CI places them), else this
# workplace's copy.
SEEDS = next(
    (d for d in (Path(__file__).resolve().parents[2] / "shared" / "seeds",
                 Path("/work/shared/seeds")) if d.is_dir()),
    Path("/work/shared/seeds"),
)


def seed_text(prefix: str) -> str:
    return next(SEEDS.glob(f"{prefix}_*.txt")).read_text(encoding="utf-8")


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def rules_text(page: Page) -> str:
    page.click("#btn-rules")
    text = squash(page.locator("[data-testid=rules]").inner_text())
    page.keyboard.press("Escape")
    assert page.locator("[data-testid=rules]").count() == 0
    return text


def test_switch_language_mid_game_keeps_the_game(app_page: Page, wait_ready) -> None:
    page = app_page
    close_first_dialog(page)
    new_game(page, ("Ann", "Bob"), seed="lang1")
    take(page, "GUP")
    page.click("#act-roll")
    before = (record(page), [(d["id"], d["type"], d["face"]) for d in dice(page)])
    assert page.locator("#act-build").inner_text() == "Build"

    page.click("#btn-lang")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.locator("#act-build").inner_text() == "Bauen"
    assert page.locator("#act-abandon").inner_text() == "Verlassen"
    assert page.locator("[data-testid=round]").inner_text() == "Runde 1 von 9"
    assert page.locator("#yard-title").inner_text() == "Bauhof"
    assert (record(page), [(d["id"], d["type"], d["face"]) for d in dice(page)]) == before
    assert "-Würfel" in dice(page)[0]["label"]
    log = page.locator("[data-testid=log]").inner_text()
    assert "Ann nimmt Erdgeschoss, Stockwerk, Dach." in log
    title = page.locator("#act-roll").get_attribute("title")
    assert title == "Verwende zuerst mindestens einen Würfel."
    german = rules_text(page)
    assert "Spielziel" in german and "Baue die punkteträchtigste Skyline." in german

    page.reload(wait_until="commit")  # remembered
    wait_ready(page)
    assert page.locator("#act-build").inner_text() == "Bauen"
    assert record(page) == before[0]
    page.click("#btn-lang")
    assert page.locator("#act-build").inner_text() == "Build"


def test_rules_panel_in_both_languages(app_page: Page) -> None:
    page = app_page
    close_first_dialog(page)
    page.keyboard.press("?")  # the keyboard opens it too
    assert page.locator("[data-testid=rules]").is_visible()
    page.keyboard.press("Escape")

    english = rules_text(page)
    # Every line of the help card and the panel (000) up to the site-specific part,
    # un-glued but with the seed's wording.
    quick = seed_text("000").split("\nPlaying on Yucata\n")[0]
    for line in quick.splitlines():
        line = line.removeprefix("- ").strip()
        if line:
            assert line in english, line
    assert english.index("Aim") < english.index("Setup") < english.index("End of the game")
    for word in ("Low-rise", "Mid-rise", "High-rise", "Dice and buildings", "Middle floor"):
        assert word in english
    assert "Low-rise 1 4" in english and "High-rise 9 16 25 36" in english
    assert "Yucata" not in english and "framework" not in english
    # the rulebook's solo rules (002), levels and scenarios in their own section
    assert english.index("End of the game") < english.index("Solo game") < english.index(
        "Playing in this app"
    )
    assert "the Abandon action is not available" in english
    assert "40 Project Manager" in english and "100 Urban Overseer" in english
    assert "Sao Paolo at least four buildings of height 4" in english
    assert "Each build and demolition has its own undo step" in english
    glued = seed_text("001")
    for sentence in ("Put one die of each type in the abandoned district.",
                     "More completed buildings break a points tie."):
        assert sentence in glued and sentence in english

    page.click("#btn-lang")
    german = rules_text(page)
    source = seed_text("003")
    headings = ("Spielziel", "Spielaufbau", "Dein Spielzug", "Drei Aktionen", "Gebäudehöhen",
                "Spielende", "Schlusswertung")
    positions = [german.index(h + " ") for h in headings]
    assert positions == sorted(positions)
    # the short help card: the first part of 003, "Dein Zug … Spielende und Wertung …"
    card = source.split("Spielen auf YucataDein Zug", 1)[1].split("SpielzielBaue", 1)[0]
    parts = re.split(r"Drei Aktionen|Gebäudehöhen|Spielende und Wertung|(?=1 / 2 / 3)", card)
    assert len(parts) == 5
    for part in parts:
        assert part in german, part
    for sentence in (
        "Baue die punkteträchtigste Skyline.",
        "Der vierte Spieler erhält nichts.",
        "Würfle alle genommenen Würfel.",
        "Spätere Spieler können sie dort nehmen.",
        "Die Anzahl deiner Gebäude ist nicht begrenzt.",
        "Diese Runde wird vollständig zu Ende gespielt.",
        "Bei Punktegleichstand gewinnt die größere Anzahl fertiger Gebäude.",
        "Jeder Bau und Abriss hat einen eigenen Rücknahmeschritt",
    ):
        assert sentence in source and sentence in german, sentence
    assert "Flachbau 1 4" in german and "Hochhaus 9 16 25 36" in german
    assert "Yucata" not in german and "Framework" not in german
    assert "die Aktion Verlassen nicht" in german
    assert "40 Projektleitung" in german and "100 Stadtbaurat" in german
    assert "Tucson am Ende kein Hochhaus" in german


def test_string_tables_have_the_same_keys() -> None:
    web = Path(__file__).resolve().parent.parent / "web"
    tables = {
        lang: __import__("json").loads((web / "i18n" / f"{lang}.json").read_text("utf-8"))
        for lang in ("en", "de")
    }
    assert set(tables["en"]) == set(tables["de"])
    assert {"loading.runtime", "loading.python", "loading.game", "loading.failed"} <= set(
        tables["en"]
    )
    used = set()
    for source in web.rglob("*.py"):  # main.py and the package app/
        used |= set(re.findall(r"""\bt\(\s*["']([a-z_.0-9-]+)["']""", source.read_text()))
    assert used, "no t() calls found"
    used = {key for key in used if not key.endswith(".")}  # prefixes of dynamic keys
    assert not used - set(tables["en"]), sorted(used - set(tables["en"]))
    for lang, table in tables.items():
        assert all(value.strip() for value in table.values()), lang


def test_every_link_and_save_error_code_is_translated() -> None:
    """Each code skyline.records.links (LinkError, SaveError) and the record reader
    (RecordError) can raise has its message in both tables (the page shows
    error.option.<code> / error.record.<code>; "internal" shows error.unknown).
    Catches a new error code that the page would show as "unknown error"."""
    root = Path(__file__).resolve().parent.parent
    # every engine module, wherever it lives: a code raised anywhere is a code to translate
    engine = [path.read_text("utf-8") for path in sorted((root / "skyline").rglob("*.py"))]
    link_codes = {c for text in engine for c in re.findall(r'LinkError\(\s*"(\w+)"', text)}
    link_codes |= {"names", "seed", "start_seat", "all_nine", "scenario"}  # via validate_options
    save_codes = {c for text in engine
                  for c in re.findall(r'(?:SaveError|RecordError)\(\s*"(\w+)"', text)}
    assert {"link", "beat", "game_checksum", "daily_date"} <= link_codes
    assert {"save_size", "json_syntax", "entry_field", "index_format"} <= save_codes
    for lang in ("en", "de"):
        path = root / "web" / "i18n" / f"{lang}.json"
        table = __import__("json").loads(path.read_text("utf-8"))
        wanted = {f"error.option.{c}" for c in link_codes - {"internal"}}
        wanted |= {f"error.record.{c}" for c in save_codes - {"internal"}}
        missing = sorted(wanted - set(table))
        assert not missing, (lang, missing)
