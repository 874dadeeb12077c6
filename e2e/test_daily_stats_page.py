"""The daily challenge and the statistics page in the browser: what needs one.

The page's decisions are proven under CPython in English and German
(``tests/test_daily_stats.py``: today's challenge from the welcome dialog, the result
line, the best and the copy, ``test_finished_daily_shows_the_result_line_best_and_copies_it``;
daily links, bad ones and one during a game, ``test_daily_link_opens_that_challenge``,
``test_bad_daily_links_are_refused_in_the_players_language``,
``test_daily_link_during_a_game_asks_first``; the statistics page after games against
the computer and solo, ``test_statistics_page_after_finished_games``). Here, in English:
the page's own clock (the player's calendar day is read on the main thread, web/host.js
``localDate``), a challenge near its end (a prepared save, played by the engine's greedy
bot in CPython) finished by clicks, the expert's game on the same dice played by the page
in Pyodide (the same score as under CPython) and the copy with it through the browser's
clipboard, daily links opened in the address bar, and the statistics' chart, rating and
exported file."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from board_helpers import dice, play_policy, record, saved, stored_raw, take
from playwright.sync_api import BrowserContext, Page

from skyline import Board, Options, Phase
from skyline.players.benchmark import expert_score
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
def dated_page(dated_context: Callable[[str], BrowserContext], wait_ready, guard) -> Page:
    """A booted app page whose clock stands at noon of TODAY."""
    page = dated_context(TODAY).new_page()
    guard.attach(page)
    page.goto("/", wait_until="commit")
    wait_ready(page)
    assert page.evaluate("new Date().getDate()") == int(TODAY[-2:])
    return page


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


def load(page: Page, wait_ready, board: Board, bots: dict[int, str] | None = None) -> None:
    page.evaluate("s => localStorage.setItem('skyline.save', s)", make_save(board))
    seats = {"v": 1, "seed": board.options.seed, "names": list(board.options.names),
             "bots": {str(k): v for k, v in (bots or {}).items()}}
    page.evaluate("s => localStorage.setItem('skyline.seats', s)", json.dumps(seats))
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
    # the day's benchmark: the expert plays the same dice in Pyodide, in idle ticks, and
    # scores what it scores under CPython
    done = page.locator("[data-testid=daily-expert]:not(.busy)")
    done.wait_for(timeout=120_000)
    points = expert_score(board.options)
    expert = (f"Expert scored {points} points on today's dice" if lang == "en"
              else f"Der Experte erzielte mit den Würfeln des Tages {points} Punkte")
    assert done.inner_text() == expert
    page.evaluate(STUB_CLIPBOARD)
    page.click("#daily-copy")
    status = page.locator("[data-testid=daily-status]").inner_text()
    assert status == ("The result and its link were copied to the clipboard." if lang == "en"
                      else "Das Ergebnis und sein Link wurden in die Zwischenablage kopiert.")
    assert page.evaluate("window.__copied") == f"{line} · {expert}\n{link}"
    return line


def export(page: Page) -> dict:
    with page.expect_download() as download:
        page.click("[data-testid=stats-export]")
    assert download.value.suggested_filename.startswith("skyline-statistics-")
    return json.loads(Path(download.value.path()).read_text(encoding="utf-8"))


def test_daily_challenge_and_statistics(dated_page: Page, site_url: str, wait_ready) -> None:
    page = dated_page
    today = TODAY
    # the welcome dialog offers today's challenge (today by the page's clock)
    page.click("#ng-daily")
    assert page.locator("[data-testid=daily] h2").inner_text() == f"Daily challenge · {today}"
    assert saved_seed(page) == f"daily-{today}"

    # today's challenge, near its end, finished by clicks: the result line, copied
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

    # the statistics page: the finished challenge, the chart, the table, the export
    page.click("#btn-stats")
    dialog = page.locator("[data-testid=dialog-stats]")
    assert "Finished games on this device: 1 (1 solo, 0 with several players)." in (
        dialog.locator("[data-testid=stats-totals]").inner_text())
    chart = dialog.locator("svg[data-testid=stats-chart]")
    assert chart.get_attribute("role") == "img" and chart.locator("circle").count() == 1
    assert "Solo scores over time" in chart.locator("title").first.text_content()
    assert dialog.locator("[data-testid=chart-summary]").inner_text().startswith(
        "Your only solo game so far scored ")
    assert dialog.locator("[data-testid=stats-daily] tbody tr").first.inner_text().startswith(
        today)
    # the rating: the challenge against the expert's score on its dice
    assert dialog.locator("[data-testid=stats-rating]").inner_text().startswith("Your rating: ")
    data = export(page)
    assert [g["mode"] for g in data["history"]] == ["daily"]
    assert data["daily"][today]["plays"] == 1
    assert data["records"]["daily"][today]["expert"] == expert_score(
        daily_options(today, "Ann"))


def saved_seed(page: Page) -> str:
    raw = saved(page)
    head = raw["game"]["record"].split("|", 1)[0]
    return next(p.split("=", 1)[1] for p in head.split() if p.startswith("seed="))
