"""The table at a glance in the real page: at the start of every turn of a whole game,
for 1 to 4 players, on a 390x844 touch phone and at 1280x800, the scoreboard, the dice,
the yard, the district (when it can be taken) and the skyline of the player to move are
on screen without scrolling (the scoreboard also scrolled to the bottom: the top bar
stays), the seats keep their order, and nothing overflows sideways. At the game's end
the ranking and the winner's skyline are on screen together (on the phone for 1 or 2
players: a ranking of 3 or 4 is taller than its screen). The phone's tools fold into
the top bar's menu."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from board_helpers import POLICY_STEP
from conftest import clear_for_next_test, copy_warm, launch_persistent
from playwright.sync_api import BrowserContext, Playwright

SIZES = {
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
NAMES = ("Ann", "Bo", "Cy", "Dee")
TURN_START = """() => !document.querySelector('[data-testid=taken]') &&
  !!document.querySelector('#yard-G:not([disabled])')"""
# At a turn's start: the parts a player needs, each wholly on screen (null when absent),
# the seats in order, the one marked active, and any sideways overflow of the page.
TABLE = """() => {
  const q = (s) => document.querySelector(s);
  const bar = q('.topbar').getBoundingClientRect().bottom;  // sticky: nothing shows under it
  const inView = (el, top = bar) => { if (!el) return null; const r = el.getBoundingClientRect();
    return r.top >= top && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; };
  const district = q('#take-district:not([disabled])');
  return {
    parts: {
      scoreboard: inView(q('.scoreboard'), 0),
      dice: inView(q('#turn .tray')),
      commands: inView(q('#turn .actions')),
      yard: inView(q('.yard')),
      district: district ? inView(q('.district')) : null,
      skyline: inView(q('#players .player.active')),
    },
    seats: [...document.querySelectorAll('#players .player')].map((p) => p.dataset.testid),
    board: [...document.querySelectorAll('.scoreboard .sb')]
      .map((p) => [p.dataset.testid, p.classList.contains('active')]),
    wide: document.documentElement.scrollWidth > innerWidth,
    bar: Math.round(q('.topbar').getBoundingClientRect().height),
    lang: document.documentElement.lang,
    // skylines wider than their box with no cue that buildings are out of sight
    hidden: [...document.querySelectorAll('.art-street')]
      .filter((s) => s.scrollWidth - s.clientWidth > 1 && !s.dataset.more).length,
    // dice captions that run into each other
    overlaps: (() => { const r = [...document.querySelectorAll('#turn .die-cap')]
      .map((c) => c.getBoundingClientRect());
      return r.filter((a, i) => r.some((b, j) => j > i && a.top < b.bottom &&
        b.top < a.bottom && a.left < b.right - 0.5 && b.left < a.right - 0.5)).length; })(),
  };
}"""
# A whole game played in the page's language; with ``both``, each turn's start is measured
# in the other language too (the page's language button, and back: one game, two tables).
WHOLE_GAME = f"""async (both) => {{
  const turnStart = {TURN_START};
  const table = {TABLE};
  const policy = {POLICY_STEP.strip()};
  const switchLanguage = () => {{
    document.querySelector('#btn-lang').click();
    return window.skylineHost.settled();
  }};
  const tables = [];
  for (let i = 0; i < 3000; i++) {{
    if (turnStart()) {{
      tables.push(table());
      if (both) {{
        await switchLanguage();
        tables.push(table());
        await switchLanguage();
      }}
    }}
    const step = await policy();
    if (step === "over" || step === "stuck") return [tables, step];
  }}
  return [tables, "no end"];
}}"""
# At the game's end (its motion finished): the ranking and the winners' skylines, each
# wholly on screen under the top bar
THE_END = """async () => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  for (const a of document.getAnimations()) {
    if (Number.isFinite(a.effect?.getComputedTiming().endTime)) a.finish();
  }
  const bar = document.querySelector('.topbar').getBoundingClientRect().bottom;
  const inView = (el) => { const r = el.getBoundingClientRect();
    return r.top >= bar && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; };
  const winners = [...document.querySelectorAll('#players .player.place-1')];
  return { ranking: inView(document.querySelector('.scoring table')),
    winners: winners.length > 0 && winners.every(inView) };
}"""
SCROLLED_BOTTOM = """() => { scrollTo(0, document.documentElement.scrollHeight);
  const r = document.querySelector('.scoreboard').getBoundingClientRect();
  const ok = r.top >= 0 && r.bottom <= innerHeight; scrollTo(0, 0); return ok; }"""


def check_turn_start(table: dict, count: int, where: str) -> None:
    off = [name for name, shown in table["parts"].items() if shown is False]
    assert not off, f"{where}: off screen at the turn's start: {off}"
    assert table["seats"] == [f"player-{i}" for i in range(count)], where
    assert [b[0] for b in table["board"]] == [f"sb-{i}" for i in range(count)], where
    assert sum(active for _, active in table["board"]) == 1, where
    assert not table["wide"], f"{where}: the page scrolls sideways"
    assert not table["hidden"], f"{where}: a skyline hides buildings without a cue"
    assert not table["overlaps"], f"{where}: dice captions run into each other"


# The phone is the tight fit and German has the longer words: the phone plays every
# table in German, and the largest one's turns are measured in English too (the same
# game: the language switched at each turn's start and back); the desktop, with room to
# spare, plays the smallest and the largest table in English.
TABLES = [("phone", "de-DE", (1, 2, 3, 4)), ("desktop", "en-US", (1, 4))]
BOTH_LANGUAGES = {("phone", 4)}  # (size, players) measured in English and German
#: The tests on an English phone share one (module scope) on one worker: one browser.
ENGLISH_PHONE = pytest.mark.xdist_group("scoreboard_english_phone")


@pytest.fixture(scope="module")
def english_phone(playwright: Playwright, warm_profile: Path,
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserContext]:
    """A 390x844 touch phone in English, new to the player (a copy of the warm profile),
    for the module's phone tests in English: each opens its own page in it."""
    ctx = launch_persistent(playwright, copy_warm(warm_profile, tmp_path_factory),
                            **SIZES["phone"], locale="en-US")
    yield ctx
    ctx.close()


@pytest.fixture
def context_for(request: pytest.FixtureRequest, warm_context: Callable[..., BrowserContext],
                site_url: str) -> Iterator[Callable[[str, str], BrowserContext]]:
    """``context_for(size, locale)``: the shared English phone, else a context of its
    own. The shared one is left as a new player would find it (``clear_for_next_test``)."""
    shared: list[BrowserContext] = []

    def make(size: str, locale: str) -> BrowserContext:
        if (size, locale) == ("phone", "en-US"):
            shared.append(request.getfixturevalue("english_phone"))
            return shared[-1]
        return warm_context(**SIZES[size], locale=locale)

    yield make
    for ctx in shared[:1]:
        clear_for_next_test(ctx, site_url)


@pytest.mark.parametrize(("size", "locale", "counts"), [
    pytest.param(*t, id=f"{t[0]}-{t[1][:2]}") for t in TABLES])
def test_every_turn_starts_with_the_table_on_screen_and_seats_in_place(
    context_for: Callable[[str, str], BrowserContext], site_url: str, wait_ready, size: str,
    locale: str, counts: tuple[int, ...]
) -> None:
    """A whole game for 1 to 4 players: at every turn's start the scoreboard, the dice
    and commands, the yard, the district (when it can be taken) and the skyline of the
    player to move are on screen without scrolling, and the seats never move (in the
    page's language, and in both where ``BOTH_LANGUAGES`` says)."""
    ctx = context_for(size, locale)
    page = ctx.new_page()
    for count in counts:
        names = ",".join(NAMES[:count])
        page.goto(f"{site_url}#play?p={names}&seed=glance{count}&start=0",
                  wait_until="commit")
        wait_ready(page)
        confirm = page.locator("[data-testid=dialog-confirm_link] #dlg-first")
        if confirm.count():
            confirm.click()
        page.wait_for_function(TURN_START)  # the new game (not the last one's end)
        assert page.evaluate(SCROLLED_BOTTOM)  # the top bar stays when scrolled
        # the whole game in one call (a round trip per click would double its time):
        # the table as it stands at each turn's start, then how the game ended
        both = (size, count) in BOTH_LANGUAGES
        tables, end = page.evaluate(WHOLE_GAME, both)
        assert end == "over", f"{count} players: the policy ended with {end!r}"
        if size == "desktop" or count <= 2:  # a phone's ranking of 3 or 4 is taller
            assert page.evaluate(THE_END) == {"ranking": True, "winners": True}, \
                f"{count} players: the ranking and the winner's skyline are not both on screen"
        langs = ([locale[:2], "en" if locale[:2] == "de" else "de"] if both
                 else [locale[:2]])
        assert len(tables) >= 9 * count * len(langs)
        for lang in langs:
            measured = [t for t in tables if t["lang"] == lang]
            assert len(measured) == len(tables) // len(langs), f"{count} players: {lang}"
            for i, table in enumerate(measured, 1):
                check_turn_start(table, count, f"{count} players, {lang}, turn start {i}")
            heights = {table["bar"] for table in measured}
            assert len(heights) == 1, \
                f"{count} players, {lang}: the top bar changed height: {heights}"


@ENGLISH_PHONE
def test_the_phone_folds_its_tools_into_the_menu(
        context_for: Callable[[str, str], BrowserContext], site_url: str, wait_ready) -> None:
    page = context_for("phone", "en-US").new_page()
    page.goto(f"{site_url}#play?p=Ann,Bo&seed=menu2&start=0", wait_until="commit")
    wait_ready(page)
    assert not page.locator("#btn-rules").is_visible()
    menu = page.locator("#btn-menu")
    assert menu.bounding_box()["height"] >= 44
    menu.click()
    assert menu.get_attribute("aria-expanded") == "true"
    for tool in ("#btn-games", "#btn-new", "#btn-share", "#btn-rules", "#btn-lang"):
        box = page.locator(tool).bounding_box()
        assert box and box["height"] >= 44, tool
    page.click("#btn-rules")
    page.locator("[data-testid=dialog-rules]").wait_for()
    page.keyboard.press("Escape")
    assert not page.locator("#btn-rules").is_visible()  # the menu closed


# The skyline's box, and whether it lies wholly inside the viewport below the top bar.
SKYLINE_IN_VIEW = """(seat) => {
  const r = document.getElementById(`skyline-${seat}`).getBoundingClientRect();
  const bar = document.querySelector('.topbar').getBoundingClientRect().bottom;
  return r.left >= 0 && r.right <= innerWidth && r.top >= bar - 1 && r.top < innerHeight;
}"""


@ENGLISH_PHONE
def test_a_scoreboard_chip_brings_that_skyline_into_view_on_a_phone(
    context_for: Callable[[str, str], BrowserContext], site_url: str, wait_ready
) -> None:
    """On a 390x844 touch phone the skylines are one sideways strip: tapping a rival's
    chip turns the strip to that skyline; the chip is a named button that works from
    the keyboard too and keeps the focus."""
    page = context_for("phone", "en-US").new_page()
    page.goto(f"{site_url}#play?p=Ann,Bo,Cy,Dee&seed=chips4&start=0", wait_until="commit")
    wait_ready(page)
    page.wait_for_function(TURN_START)
    assert page.evaluate(SKYLINE_IN_VIEW, 0)
    assert not page.evaluate(SKYLINE_IN_VIEW, 3)  # off to the side of the strip
    chip = page.get_by_role("button", name="Dee: 0 points, 0 buildings. Show this skyline")
    chip.tap()
    page.wait_for_function(SKYLINE_IN_VIEW, arg=3)
    assert not page.evaluate(SKYLINE_IN_VIEW, 0)
    page.focus("#show-seat-1")
    page.keyboard.press("Enter")
    page.wait_for_function(SKYLINE_IN_VIEW, arg=1)
    assert page.evaluate("document.activeElement.id") == "show-seat-1"
