"""The daily challenge and the statistics page in the browser, English and German.

Games are brought near their end as prepared saves (played by the engine's greedy bot
in CPython), so the page finishes them in a few clicks (or its computer player does)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from board_helpers import dice, play_policy, record, saved, stored_raw, take
from conftest import launch_persistent
from playwright.sync_api import BrowserContext, Page, Playwright

from skyline import Board, Options, Phase
from skyline.players.bots import BOTS
from skyline.records import make_save
from skyline.records.daily import daily_options, daily_result

# The page's clock is set (Playwright's clock), so "today" and "another day" are the same
# on every day of the year and in every time zone: noon, local time, of a fixed day.
TODAY = "2027-03-15"
ANOTHER_DAY = "2027-03-14"
# What the page copies, by either way it may write (web/host.js: a click that copies
# writes a ClipboardItem whose text comes later; else writeText).
STUB_CLIPBOARD = """() => {
  Object.defineProperty(navigator.clipboard, 'writeText',
    {configurable: true, value: async (text) => { window.__copied = text; }});
  Object.defineProperty(navigator.clipboard, 'write', {configurable: true,
    value: async (items) => {
      window.__copied = await (await items[0].getType('text/plain')).text();
    }});
}"""
WEB = Path(__file__).resolve().parent.parent / "web"
TABLES = {lang: json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
          for lang in ("en", "de")}


@pytest.fixture
def dated_page(playwright: Playwright, site_url: str, wait_ready,
               tmp_path_factory: pytest.TempPathFactory, guard) -> Iterator[Page]:
    """A booted app page whose clock stands at noon of TODAY (its own context, so the
    fixed clock touches no other test)."""
    ctx: BrowserContext = launch_persistent(playwright, tmp_path_factory.mktemp("dated"),
                                            base_url=site_url)
    ctx.clock.set_fixed_time(f"{TODAY}T12:00:00")  # no zone: the browser's local noon
    page = ctx.new_page()
    guard.attach(page)
    page.goto("/", wait_until="commit")
    wait_ready(page)
    assert page.evaluate("new Date().getDate()") == int(TODAY[-2:])
    yield page
    ctx.close()


def near_end(options: Options, seat: int = 0, seed: int = 7) -> Board:
    """The game played by the greedy bot up to the start of ``seat``'s last turn."""
    rng = random.Random(seed)
    full = Board(options)
    while not full.is_game_over():
        full.push(BOTS["greedy"](full.state, rng))
    replay = Board(options)
    last = 0
    for i, action in enumerate(full.actions):
        if replay.state.seat == seat and replay.state.phase is Phase.TAKE:
            last = i
        replay.push(action)
    board = Board(options)
    for action in full.actions[:last]:
        board.push(action)
    assert not board.is_game_over()
    return board


def load(page: Page, wait_ready, board: Board, bots: dict[int, str] | None = None,
         lang: str | None = None) -> None:
    page.evaluate("s => localStorage.setItem('skyline.save', s)", make_save(board))
    seats = {"v": 1, "seed": board.options.seed, "names": list(board.options.names),
             "bots": {str(k): v for k, v in (bots or {}).items()}}
    page.evaluate("s => localStorage.setItem('skyline.seats', s)", json.dumps(seats))
    if lang:
        page.evaluate("s => localStorage.setItem('skyline.settings', s)",
                      json.dumps({"v": 1, "lang": lang}))
    page.reload(wait_until="commit")
    wait_ready(page)


def notice(page: Page, key: str):
    return page.locator(f"[data-testid=notice][data-key='{key}'] p")


def finish_daily_and_check_line(page: Page, site_url: str, day: str, lang: str) -> str:
    play_policy(page)
    board = Board.from_record(record(page))
    r = daily_result(board)
    line = page.locator("[data-testid=daily-line]").inner_text()
    points = f"{r.score} points" if lang == "en" else f"{r.score} Punkte"
    want = ("Skyline daily" if lang == "en" else "Skyline-Tagesaufgabe") + f" {day}: {points}"
    if r.level is not None:
        want += " — " + TABLES[lang]["level." + r.level]
    assert line == want
    link = page.locator("[data-testid=daily-link]").input_value()
    assert link == f"{site_url}#daily?d={day}"
    page.evaluate(STUB_CLIPBOARD)
    page.click("#daily-copy")
    status = page.locator("[data-testid=daily-status]").inner_text()
    assert status == ("The result and its link were copied to the clipboard." if lang == "en"
                      else "Das Ergebnis und sein Link wurden in die Zwischenablage kopiert.")
    assert page.evaluate("window.__copied") == f"{line}\n{link}"
    return line


def export(page: Page) -> dict:
    with page.expect_download() as download:
        page.click("[data-testid=stats-export]")
    assert download.value.suggested_filename.startswith("skyline-statistics-")
    return json.loads(Path(download.value.path()).read_text(encoding="utf-8"))


def test_daily_challenge_and_statistics_en(dated_page: Page, site_url: str, wait_ready) -> None:
    page = dated_page
    today = TODAY
    # the welcome dialog offers today's challenge
    page.click("#ng-daily")
    assert page.locator("[data-testid=daily] h2").inner_text() == f"Daily challenge · {today}"
    assert saved_seed(page) == f"daily-{today}"

    # a game against the computer ends: its computer player plays the last turn
    vs = near_end(Options(("Ann", "Robo"), "vsdaily", 0, False, None), seat=1)
    load(page, wait_ready, vs, {1: "greedy"})
    page.locator("[data-testid=scoring]").wait_for(timeout=60_000)

    # today's challenge, near its end, finished by clicks: the result line
    load(page, wait_ready, near_end(daily_options(today, "Ann")))
    finish_daily_and_check_line(page, site_url, today, "en")
    assert page.locator("[data-testid=daily-best]").inner_text().startswith(
        "Your best in this challenge: ")

    # its link opens the same challenge (the finished one is not in progress: no question)
    page.goto(f"{site_url}#daily?d={today}")
    notice(page, "notice.daily_started").wait_for()
    assert saved_seed(page) == f"daily-{today}"
    assert not Board.from_record(record(page)).actions
    take(page, "G")
    before = stored_raw(page)
    # another day's link while a game is in progress asks first
    page.goto(f"{site_url}#daily?d={ANOTHER_DAY}")
    page.locator("[data-testid=dialog-confirm_daily]").wait_for()
    page.click("#daily-keep")
    assert stored_raw(page) == before
    # a bad date is refused in words, the game untouched
    page.goto(f"{site_url}#daily?d=2026-02-30")
    assert "The date in the link is not a valid calendar day." in notice(
        page, "notice.bad_daily").inner_text()
    assert stored_raw(page) == before
    page.goto(f"{site_url}#daily?d={ANOTHER_DAY}")
    page.click("[data-action=daily-accept]")
    assert saved_seed(page) == f"daily-{ANOTHER_DAY}" and len(dice(page)) == 0

    # the statistics page: both finished games, the chart, the table, the export
    page.click("#btn-stats")
    dialog = page.locator("[data-testid=dialog-stats]")
    assert "Finished games on this device: 2 (1 solo, 1 with several players)." in (
        dialog.locator("[data-testid=stats-totals]").inner_text())
    chart = dialog.locator("svg[data-testid=stats-chart]")
    assert chart.get_attribute("role") == "img" and chart.locator("circle").count() == 1
    assert "Solo scores over time" in chart.locator("title").first.text_content()
    greedy = dialog.locator("[data-testid=stats-versus] tr", has_text="Computer (Greedy)")
    assert greedy.locator("td").first.inner_text() == "1"
    assert dialog.locator("[data-testid=stats-daily] tbody tr").first.inner_text().startswith(
        today)
    data = export(page)
    assert [g["mode"] for g in data["history"]] == ["multi", "daily"]
    assert data["versus"]["greedy"]["games"] == 1 and today in data["daily"]


def test_daily_challenge_and_statistics_de(dated_page: Page, site_url: str, wait_ready) -> None:
    page = dated_page
    today = TODAY
    # a daily challenge of another day, in German, near its end
    load(page, wait_ready, near_end(daily_options(ANOTHER_DAY, "Anna"), seed=9), lang="de")
    assert page.locator("[data-testid=daily] h2").inner_text() == f"Tagesaufgabe · {ANOTHER_DAY}"
    line = finish_daily_and_check_line(page, site_url, ANOTHER_DAY, "de")
    assert line.startswith(f"Skyline-Tagesaufgabe {ANOTHER_DAY}: ")
    page.goto(f"{site_url}#daily?x=1")
    assert "Die Tagesaufgabe" not in notice(page, "notice.bad_daily").inner_text()
    assert "Dieser Link zur Tagesaufgabe lässt sich nicht öffnen" in notice(
        page, "notice.bad_daily").inner_text()
    # the topbar button: today's challenge (the finished game is replaced without asking)
    page.click("#btn-daily")
    assert page.locator("[data-testid=daily] h2").inner_text() == f"Tagesaufgabe · {today}"
    # the rules say what seeded dice mean for games by link
    page.click("#btn-rules")
    assert "Ehrlich zu den Würfeln" in page.locator("#rules-app-dice").inner_text()
    page.keyboard.press("Escape")
    # statistics in German
    page.click("#btn-stats")
    dialog = page.locator("[data-testid=dialog-stats]")
    assert dialog.locator("#dlg-title").inner_text() == "Statistik"
    assert "Beendete Spiele auf diesem Gerät: 1 (1 solo, 0 mit mehreren Spielern)." in (
        dialog.locator("[data-testid=stats-totals]").inner_text())
    assert dialog.locator("svg[data-testid=stats-chart] circle").count() == 1
    assert dialog.locator("[data-testid=chart-summary]").inner_text().startswith(
        "Dein bisher einziges Solospiel brachte ")
    dialog.locator("details summary").click()
    row = dialog.locator("[data-testid=stats-games] tbody tr").first.inner_text()
    assert "Tagesaufgabe" in row and today in row  # the day it was played
    data = export(page)
    assert [g["mode"] for g in data["history"]] == ["daily"]
    assert data["daily"][ANOTHER_DAY]["plays"] == 1


def saved_seed(page: Page) -> str:
    raw = saved(page)
    head = raw["game"]["record"].split("|", 1)[0]
    return next(p.split("=", 1)[1] for p in head.split() if p.startswith("seed="))
