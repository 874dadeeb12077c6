"""Page-level fuzz in the browser: nothing the player stored is lost, whatever happens.

Three kinds of cases, each drawn from a fixed seed (the same cases every run; a failure
names the seed and the case; ``SKYLINE_PAGE_FUZZ_SEED`` / ``SKYLINE_PAGE_FUZZ_SCALE`` run
other or more cases, ``SKYLINE_PAGE_FUZZ_VERBOSE=1`` prints the presses of each):

- **storage**: one key the page keeps (web/store.py: the game list's index and entries,
  the settings, the solo records, the history, the single save of older versions; the
  dice selection of web/play.py and boot.js's paint snapshot) is damaged at a time —
  truncated, bit-flipped, a wrong JSON type, a future version, a huge string, and for
  the picture something planted (``PLANTS``: a link elsewhere, an image, a style, a
  handler, an inert body, a right-to-left page) (``PLAN``: one to four per key) — and
  the page is opened. It must start, with no page error;
  every game that was not damaged is still in the game list; what the page's own
  readers refuse is kept aside byte for byte (``skyline.games.broken.*``,
  ``skyline.records.broken.*`` …; records of a newer version also stay where they are)
  and the player is told with the notice of that key, in the page's language (English
  or German), worded as web/i18n/<lang>.json says, never a raw key. The expectation
  comes from the engine's and the page's readers under CPython.
- **presses**: random clicks on the enabled controls and random keys, first on the page
  boot.js painted while the Python runtime download is held back (the prerendered welcome
  of a first visit, then a repeat visit's snapshot), then on the live page through
  whatever states they lead to. Afterwards: no page error, no game with a move lost, the
  page still answers.
- **tabs**: a second tab on the same profile opened at a random moment — while the first
  starts, mid-turn, with a dialog open, over the welcome of a first visit. Both start,
  exactly one may move (the other shows ``notice.other_tab`` and its moves change
  nothing), no game lost.

Deleting a game is the player's choice, not a loss: the fuzz never presses "Delete" (nor
the file picker of the import). The figures (cases per kind, crashes, hangs, games lost)
are printed at the end of the module.
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from board_helpers import POLICY_STEP, held_runtime
from conftest import LONG_WAIT_POLL_MS, wait_for_snapshot_made
from playwright.sync_api import Browser, BrowserContext, Keyboard, Locator, Mouse, Page
from playwright.sync_api import Error as PlaywrightError

from skyline import Board, Phase, make_save
from skyline.records.game_list import (
    GameEntry,
    GameList,
    entry_to_json,
    make_entry,
    migrate_single_save,
    read_entry,
)
from skyline.records.saves import SaveError
from skyline.records.solo_records import read_solo_records, solo_records_json

if TYPE_CHECKING:
    from conftest import Guard

WEB = Path(__file__).resolve().parent.parent / "web"
if str(WEB) not in sys.path:
    sys.path.append(str(WEB))  # the page's own readers (as tests/web_fakes.py does)
from app.core.game_stats import read_history  # noqa: E402
from app.core.i18n import LANGS, pick_language  # noqa: E402

SEED = int(os.environ.get("SKYLINE_PAGE_FUZZ_SEED", "20261202"))
SCALE = max(1, int(os.environ.get("SKYLINE_PAGE_FUZZ_SCALE", "1")))
VERBOSE = bool(os.environ.get("SKYLINE_PAGE_FUZZ_VERBOSE"))  # print every case's steps
START_MS = 60_000  # longer than this to start (or to answer a press) counts as a hang
ANSWER_MS = 20_000

# The keys of web/store.py, web/play.py (the selection) and web/boot.js (the snapshot).
KEY_INDEX = "skyline.games"
KEY_GAME = "skyline.game."
KEY_SETTINGS = "skyline.settings"
KEY_RECORDS = "skyline.records"
KEY_HISTORY = "skyline.history"
KEY_SAVE = "skyline.save"
KEY_SELECTION = "skyline.selection"
KEY_SNAPSHOT = "skyline.snapshot"
DAMAGED_KEYS = (KEY_INDEX, KEY_GAME, KEY_SETTINGS, KEY_RECORDS, KEY_HISTORY, KEY_SAVE,
                KEY_SELECTION, KEY_SNAPSHOT)
DAMAGES = ("truncated", "bit-flipped", "wrong JSON type", "future version", "huge", "planted")
# What a hostile writer of this origin's storage might plant in the last render's
# picture (web/js/paint.js paints none of it: the picture is dropped whole).
PLANTS = (
    ("regions", "turn", '<p>Your game was lost. <a href="https://recover.example/">Recover it'
     '</a></p><img src="x">'),
    ("regions", "log", '<div style="position:fixed;inset:0">covered</div>'),
    ("regions", "supply", '<button data-action="roll" onclick="alert(1)">Roll</button>'),
    ("regions", "players", "<iframe src=\"https://evil.example/\"></iframe>"),
    ("regions", "dialog", '<dialog open inert><svg><use href="https://evil.example/#x"/></svg>'),
    ("body", "inert", ""),
    ("html", "dir", "rtl"),
)
# Notices that say something stored could not be read (web/controller.py, web/session.py).
STORAGE_NOTICES = re.compile(r"_broken|_newer|_lost")
FAILURE_NOTICES = ("notice.error", "notice.crash")
# A string-table key shown as such (a missing text): "error.records.json_syntax" …
RAW_KEY = re.compile(r"(?<![\w.])(?:error|notice|games|btn|corr)\.[a-z_]+(?:\.[a-z_]+)*")
NAMES = ("Ann", "<img src=x onerror=alert(1)>", '"><script>alert(1)</script>', "{{7*7}}",
         "Bob\u202egnp.exe", "Zoë 中文 🙂", "\u200b\u200b", "x" * 30, "", "seed-7")
KEYS = ("Tab", "Shift+Tab", "Enter", " ", "Escape", "?", "h", "ArrowLeft", "ArrowRight",
        "ArrowUp", "ArrowDown", "Home", "End", "r", "Backspace", "1")
JUNK = "abcXYZ019 {}[]\":,.\\/<>&'äöüß€中🙂\n\t\u00a0"

READY_OR_FAILED = ("document.body?.dataset.ready === '1' ||"
                   " document.getElementById('loading-error')?.hidden === false")
# Every event dispatched so far handled, within ms: false if the page did not answer.
SETTLE_WITHIN = """(ms) => Promise.race([
  Promise.resolve(window.skylineHost?.settled()).then(() => true),
  new Promise((resolve) => setTimeout(() => resolve(false), ms))])"""
STORAGE = "() => Object.fromEntries(Object.entries(localStorage))"
# Written into storage before the page's own scripts run, on the page's first load only
# (an init script: a page of the site without the app would fetch a favicon it lacks).
PRELOAD = """(() => {
  if (sessionStorage.getItem("fz.loaded")) return;
  sessionStorage.setItem("fz.loaded", "1");
  const [items, clear] = %s;
  if (clear) localStorage.clear();
  for (const [key, value] of Object.entries(items)) localStorage.setItem(key, value);
})();"""
# The stored games: id -> whether the game has a move (null: not readable as JSON).
STORED_GAMES = """() => {
  const out = {};
  for (const key of Object.keys(localStorage)) {
    if (!key.startsWith("skyline.game.")) continue;
    try {
      const record = JSON.parse(localStorage.getItem(key)).save.game.record;
      out[key.slice(13)] = Boolean((record.split("|")[1] || "").trim());
    } catch {
      out[key.slice(13)] = null;
    }
  }
  return out;
}"""
PAGE_STATE = """() => ({
  ready: document.body?.dataset.ready === "1",
  failed: document.getElementById("loading-error")?.hidden === false,
  notices: [...document.querySelectorAll("[data-testid=notice]")].map((n) => n.dataset.key),
  dialog: document.querySelector("#dialog dialog")?.dataset.testid ?? null,  // which is open
  lang: document.documentElement.lang,
})"""
# A random enabled control the pointer can reach: rolls (random numbers from the test)
# pick a command, then one of its controls (so the nine section buttons of the rules do
# not outweigh their Close); its centre must hit it (not a modal's backdrop, not an
# inert page). With ``turn`` the board's controls come first (the game moves on).
PICK = """([rolls, turn]) => {
  const SELECTOR = "[data-action], form[data-submit] button[type=submit], [data-boot-rules]";
  const SKIP = "[data-action=game-delete], [data-action=game-import], input[type=file]";
  for (const el of document.querySelectorAll("[data-fz-pick]")) el.removeAttribute("data-fz-pick");
  let all = [...document.querySelectorAll(SELECTOR)].filter((el) => !el.matches(SKIP) &&
    !el.disabled && el.getAttribute("aria-disabled") !== "true" &&
    el.getClientRects().length > 0 && !el.closest("[inert]"));
  const board = all.filter((el) => el.closest("#turn, #supply, #players") &&
    !document.querySelector("dialog[open]"));
  if (turn && board.length) all = board;
  const command = (el) => el.dataset.action || el.closest("form")?.dataset.submit || "boot-rules";
  for (const roll of rolls) {
    if (!all.length) break;
    const names = [...new Set(all.map(command))];
    const name = names[Math.floor(roll * names.length)];
    const same = all.filter((el) => command(el) === name);
    const el = same[Math.floor(((roll * names.length) % 1) * same.length)];
    const i = all.indexOf(el);
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === el || el.contains(hit))) {
      el.setAttribute("data-fz-pick", "1");
      return { x, y, tag: el.tagName, type: el.type || "", action: command(el), id: el.id,
               options: el.tagName === "SELECT" ? el.options.length : 0 };
    }
    all.splice(i, 1);
  }
  return null;
}"""
# The fuzz never deletes a game (a capturing listener ahead of the page's own).
NO_DELETE = """window.addEventListener("click", (event) => {
  if (event.target?.closest?.("[data-action=game-delete]")) event.stopImmediatePropagation();
}, true);"""


def unsettled(method: Callable[..., Any]) -> Callable[..., Any]:
    """A Playwright input method without conftest's wait for the page (which has no
    time limit): the fuzz waits itself, within ANSWER_MS, to count a hang."""
    return getattr(method, "__wrapped__", method)


_click = unsettled(Mouse.click)
_press = unsettled(Keyboard.press)
_locator_click = unsettled(Locator.click)
_select = unsettled(Locator.select_option)
_fill = unsettled(Locator.fill)


def texts(lang: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


TABLES = {lang: texts(lang) for lang in LANGS}


# ---------------------------------------------------------------------------- figures


@dataclass
class Tally:
    """One kind's figures; ``problems`` describes each failed case (with its seed)."""

    cases: int = 0
    crashes: int = 0
    hangs: int = 0
    lost: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    notes: Counter[str] = field(default_factory=Counter)  # what the cases covered

    def line(self, kind: str) -> str:
        notes = ", ".join(f"{n} {what}" for what, n in self.notes.items())
        return (f"{kind} {self.cases} cases ({notes}), {self.crashes} crashes, "
                f"{self.hangs} hangs, {self.lost} games lost, {self.seconds:.0f} s")

    def check(self, kind: str) -> None:
        assert not self.problems, (
            f"page fuzz, {kind} (SKYLINE_PAGE_FUZZ_SEED={SEED}): {len(self.problems)} "
            "failed:\n" + "\n".join(self.problems))


@pytest.fixture(scope="module")
def figures(request: pytest.FixtureRequest) -> Iterator[dict[str, Tally]]:
    """The figures of every kind, printed as one line when the module is done."""
    tallies: dict[str, Tally] = {}
    yield tallies
    line = f"page fuzz (seed {SEED}): " + "; ".join(t.line(k) for k, t in tallies.items())
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if capture is None:
        print(line)
        return
    with capture.global_and_fixture_disabled():
        print(f"\n{line}")


class Case:
    """One case's outcome: its failures are counted by kind and described."""

    def __init__(self, tally: Tally, name: str, guard: Guard) -> None:
        self.tally = tally
        self.name = name
        self.guard = guard
        self.errors = (len(guard.page_errors), len(guard.console_errors))
        self.failures: list[tuple[str, str]] = []
        tally.cases += 1

    def fail(self, kind: str, text: str) -> None:
        """kind: crash, hang, lost or wrong (a wrong word or a record not kept aside)."""
        self.failures.append((kind, text))

    def close(self) -> None:
        pages, console = self.errors
        new_errors = (self.guard.page_errors[pages:]
                      + [m for m in self.guard.console_errors[console:]
                         if not any(p.search(m) for p in self.guard.allowed_console)])
        if new_errors:
            self.fail("crash", f"errors on the page: {new_errors}")
        kinds = {kind for kind, _ in self.failures}
        self.tally.crashes += "crash" in kinds
        self.tally.hangs += "hang" in kinds
        self.tally.lost += sum(kind == "lost" for kind, _ in self.failures)
        for kind, text in self.failures:
            self.tally.problems.append(f"[{self.name}] {kind}: {text}")


# ---------------------------------------------------------------------------- the page


def settle_within(page: Page, ms: int = ANSWER_MS) -> bool:
    try:
        return bool(page.evaluate(SETTLE_WITHIN, ms))
    except PlaywrightError:
        return True  # the page navigated meanwhile: nothing left to wait for


def start(page: Page, case: Case, ms: int = START_MS) -> bool:
    """Wait until the page is ready; a failure or a hang is the case's."""
    try:
        page.wait_for_function(READY_OR_FAILED, timeout=ms, polling=LONG_WAIT_POLL_MS)
    except PlaywrightError:
        case.fail("hang", f"not ready after {ms / 1000:.0f} s")
        return False
    if page.evaluate("document.body.dataset.ready") != "1":
        error = page.locator("#loading-error").inner_text()
        case.fail("crash", f"the page did not start: {error!r}")
        return False
    return True


def state(page: Page) -> dict[str, Any]:
    return page.evaluate(PAGE_STATE)


def browser_lang(page: Page) -> str:
    """The language the page speaks without settings (i18n.pick_language)."""
    return pick_language(page.evaluate("[...navigator.languages]"))


def close_dialogs(page: Page) -> None:
    for _ in range(5):
        if not page.evaluate("Boolean(document.querySelector('#dialog dialog, "
                             "#boot-rules dialog[open], [data-testid=replay]'))"):
            return
        _press(page.keyboard, "Escape")
        settle_within(page)


def shown_state(page: Page) -> str:
    """What a page that did not answer shows (``state``) and its Games button."""
    try:
        games = page.evaluate("""() => { const b = document.getElementById('btn-games');
          return b ? {disabled: b.disabled, shown: !!b.offsetParent} : null; }""")
        return str({**state(page), "games": games})
    except PlaywrightError as exc:
        return f"nothing readable ({str(exc).splitlines()[0]})"


def listed_games(page: Page, case: Case) -> list[str] | None:
    """The ids the game list shows (its dialog opened and closed again); None, counted
    as a hang, if the page does not show it."""
    close_dialogs(page)
    try:
        _locator_click(page.locator("#btn-games"), timeout=ANSWER_MS)
        if not settle_within(page):
            case.fail("hang", "no answer to a click on Games")
            return None
        page.locator("#dialog [data-testid=game-list], #dialog [data-testid=games-empty]"
                     ).first.wait_for(timeout=ANSWER_MS)
    except PlaywrightError as exc:
        case.fail("hang", f"the game list did not open: {str(exc).splitlines()[0]}; "
                          f"the page showed {shown_state(page)}")
        return None
    ids = page.eval_on_selector_all("#dialog [data-testid=game-row]",
                                    "(rows) => rows.map((r) => r.dataset.id)")
    close_dialogs(page)
    return ids


def check_notice_words(page: Page, key: str, lang: str, case: Case) -> None:
    """The notice ``key`` is worded as the string table of ``lang`` says (every fixed
    part of the text, in order), with no raw key and no unfilled {placeholder}."""
    shown = page.locator(f"[data-testid=notice][data-key='{key}'] p").first.inner_text()
    template = TABLES[lang].get(key)
    if template is None:
        case.fail("wrong", f"{key} is not in {lang}.json")
        return
    at = 0
    for part in re.split(r"\{[a-z_]+\}", template):
        part = part.strip()
        found = shown.find(part, at)
        if found < 0:
            case.fail("wrong", f"{key} is not the {lang} text: {shown!r} lacks {part!r}")
            return
        at = found + len(part)
    if RAW_KEY.search(shown) or re.search(r"\{[a-z_]+\}", shown):
        case.fail("wrong", f"{key} shows a raw key or placeholder: {shown!r}")


def assert_no_failure_notice(page: Page, case: Case) -> None:
    shown = [k for k in state(page)["notices"] if k in FAILURE_NOTICES]
    if shown:
        case.fail("crash", f"the page reports a failure: {shown}")


# ---------------------------------------------------------------------------- stored data


def played(seed: str, names: list[str], rng: random.Random, least: int,
           resolve: bool = False) -> Board:
    """A game of random legal moves (at least ``least``; ending with dice rolled)."""
    board = Board.new(names, seed=seed)
    while len(board.actions) < least or (resolve and board.state.phase is not Phase.RESOLVE):
        board.push(rng.choice(board.legal_actions()))
    return board


@dataclass
class Baseline:
    """What a player's browser holds: three games with moves (the last one open, dice
    rolled and one selected), records, a history and settings."""

    storage: dict[str, str]
    entries: list[GameEntry]
    legacy: str  # a single save of an older version (another game)

    @property
    def ids(self) -> list[str]:
        return [e.id for e in self.entries]


def baseline(rng: random.Random, lang: str = "en") -> Baseline:
    boards = [
        played("fz-a", ["Ann", "Bob"], rng, 9),
        played("fz-b", ["Cy"], rng, 14),
        played("fz-c", ["Dee", "Eve", "Fay"], rng, 6, resolve=True),
    ]
    entries = [make_entry(b, ["here"] * len(b.options.names),
                          updated=f"2026-11-2{i}T10:00:00.000Z")
               for i, b in enumerate(boards)]
    current = entries[-1]
    rolled = [d.id for d in current.board.state.dice if d.face is not None]
    storage = {KEY_GAME + e.id: entry_to_json(e) for e in entries}
    storage[KEY_INDEX] = GameList(entries, current.id).index_json()
    storage[KEY_SELECTION] = json.dumps({"game": current.id, "actions": len(current.board.actions),
                                         "dice": rolled[:1]}, separators=(",", ":"))
    storage[KEY_SETTINGS] = json.dumps({"v": 1, "lang": lang})
    storage[KEY_RECORDS] = solo_records_json({
        "best": {"-": 84}, "levels": {"urban-planner": 2}, "scenarios": {},
        "daily": {"2026-11-30": {"best": 70, "plays": 2}}, "seen": ["fz-b|-|40|0badc0de"]})
    solo = {"name": "Cy", "kind": "human", "score": 61, "rank": 1}
    storage[KEY_HISTORY] = json.dumps({"v": 1, "kind": "skyline-history", "games": [
        {"id": "fz-h1|-|40|0000abcd", "at": "2026-11-29T10:00:00.000Z", "day": "2026-11-29",
         "mode": "solo", "scenario": None, "nine": False, "level": "urban-planner",
         "scenario_met": None, "seats": [solo]},
        {"id": "fz-h2|-|90|0000abce", "at": "2026-11-30T10:00:00.000Z", "day": "2026-11-30",
         "mode": "multi", "scenario": None, "nine": False, "level": None, "scenario_met": None,
         "seats": [{**solo, "rank": 2}, {"name": "Bot", "kind": "greedy", "score": 70,
                                         "rank": 1}]}]})
    assert read_history(storage[KEY_HISTORY])[1] is None
    assert read_solo_records(storage[KEY_RECORDS])[1] is None
    legacy = make_save(played("fz-legacy", ["Gus", "Hal"], rng, 5))
    return Baseline(storage, entries, legacy)


def preload(page: Page, items: dict[str, str], clear: bool = True) -> None:
    """``items`` in storage (all that is there, unless ``clear`` is False) before the
    first load of ``page`` (a new page) runs any script of the site."""
    page.add_init_script(PRELOAD % json.dumps([items, clear]))


def forget(page: Page) -> None:
    """Leave the session's shared context without this module's data."""
    try:
        page.evaluate("localStorage.clear(); sessionStorage.clear()")
    except PlaywrightError:
        pass


def flip_bits(raw: str, rng: random.Random) -> str:
    chars = list(raw or " ")
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(chars))
        code = ord(chars[i])
        bits = 7 if code < 128 else 16
        for _ in range(20):
            new = code ^ (1 << rng.randrange(bits))
            if not 0xD800 <= new <= 0xDFFF and new < 0x110000:
                break
        else:
            new = code ^ 1
        chars[i] = chr(new)
    return "".join(chars)


def damage(raw: str, how: str, key: str, rng: random.Random) -> str:
    """``raw`` damaged the way ``how`` names (DAMAGES)."""
    if how == "truncated":
        return raw[:rng.randrange(len(raw))]
    if how == "bit-flipped":
        return flip_bits(raw, rng)
    if how == "wrong JSON type":
        return rng.choice(["[]", '"skyline"', "42", "null", "true", "{}",
                           f"[{raw}]", json.dumps(raw)])
    data = json.loads(raw)
    if how == "planted":  # (the picture only: a stored value that would disable the page)
        where, name, value = rng.choice(PLANTS)
        data[where] = {**data.get(where, {}), name: value}
        return json.dumps(data, ensure_ascii=False)
    if how == "future version":
        version = rng.choice([2, 3, 99, 2**31])
        if key == KEY_SNAPSHOT:
            data["build"] = f"future-{version}"
        elif key in (KEY_GAME, KEY_SAVE) and rng.random() < 0.5:
            inner = data["save"] if key == KEY_GAME else data
            if rng.random() < 0.5:
                inner["v"] = version + 1
            else:
                inner["game"]["version"] = version
        else:
            data["v"] = version
        return json.dumps(data, ensure_ascii=False)
    # huge: past the readers' limits (an entry's 500,000 characters, the history's
    # million), as junk or as a valid object with a huge extra field
    size = 520_000 if key in (KEY_GAME, KEY_SAVE) else 1_050_000
    if rng.random() < 0.5:
        return "".join(rng.choices(JUNK, k=size))
    return json.dumps({**data, "pad": "x" * size}, ensure_ascii=False)


# ---------------------------------------------------------------------------- oracle


@dataclass
class Expect:
    """What the page must do with one damaged key, from the readers under CPython."""

    notices: tuple[str, ...] = ()  # one of these is shown (none: no storage notice)
    aside: str | None = None  # the damaged text is kept under a key of this prefix
    untouched: bool = False  # ... and also left where it was (records of a newer version)
    removed: bool = False  # ... and removed from where it was (the old single save)
    gone: str | None = None  # the game refused (not listed)
    added: str | None = None  # the game migrated from the single save (listed)


def settings_lang(raw: str | None, browser: str) -> tuple[bool, str]:
    """(unreadable, page language) for these settings (store.Store.settings_problem and
    Controller.boot's choice of language)."""
    if raw is None:
        return False, browser
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return True, browser
    if not isinstance(data, dict):
        return True, browser
    lang = data.get("lang")
    if lang is not None and lang not in LANGS:
        return True, browser
    return False, lang if isinstance(lang, str) else browser


def expect(key: str, raw: str, entry_id: str | None) -> Expect:
    if key == KEY_GAME:
        try:
            entry = read_entry(raw)
            if KEY_GAME + entry.id != KEY_GAME + str(entry_id):
                raise SaveError("entry_field", "stored under another key", field="id")
        except SaveError:
            return Expect(("games.entry_broken",), "skyline.games.broken.", gone=entry_id)
        return Expect()
    if key == KEY_SETTINGS:
        broken, _ = settings_lang(raw, "en")
        return Expect(("notice.settings_broken",), "skyline.settings.broken.") if broken \
            else Expect()
    if key == KEY_RECORDS:
        problem = read_solo_records(raw)[1]
        if problem is None:
            return Expect()
        if problem.code == "records_version" and problem.params.get("newer"):
            return Expect(("notice.records_newer",), "skyline.records.broken.", untouched=True)
        return Expect(("notice.records_broken",), "skyline.records.broken.")
    if key == KEY_HISTORY:
        if read_history(raw)[1] is None:
            return Expect()
        return Expect(("notice.history_broken",), "skyline.history.broken.")
    if key == KEY_SAVE:
        try:
            entry = migrate_single_save(raw, None, "2026-12-01T00:00:00.000Z")
        except SaveError:
            return Expect(("notice.save_broken",), "skyline.save.broken.", removed=True)
        return Expect(added=entry.game)
    return Expect()  # the index, the selection and the snapshot are caches: rebuilt


# ---------------------------------------------------------------------------- storage


# Every key damaged once, and the game and the records (a newer version of which must
# stay where it is) twice, the last render's picture four times (twice planted); every
# damage on two or three keys (the huge strings where the readers' limits are
# smallest). SKYLINE_PAGE_FUZZ_SCALE > 1 adds every damage of every key.
PLAN = {
    KEY_INDEX: ("huge",),
    KEY_GAME: ("bit-flipped", "future version"),
    KEY_SETTINGS: ("wrong JSON type",),
    KEY_RECORDS: ("future version", "huge"),
    KEY_HISTORY: ("truncated",),
    KEY_SAVE: ("bit-flipped",),
    KEY_SELECTION: ("huge",),
    KEY_SNAPSHOT: ("truncated", "wrong JSON type", "planted", "planted"),
}


def storage_cases(rng: random.Random) -> list[tuple[str, str, str]]:
    """(key, damage, page language), in a random order; German about half of the time."""
    cases = [(key, how) for key, damages in PLAN.items() for how in damages]
    cases += [(key, how) for _ in range(SCALE - 1) for key in DAMAGED_KEYS for how in DAMAGES
              if how != "planted" or key == KEY_SNAPSHOT]
    out = [(key, how, ("de", "en")[i % 2]) for i, (key, how) in enumerate(cases)]
    rng.shuffle(out)
    return out


def test_damaged_storage_keys(
    app_context: BrowserContext, site_url: str, guard: Guard, figures: dict[str, Tally]
) -> None:
    """One stored key damaged at a time (module doc): the page starts, keeps every other
    game, keeps the damaged text aside and says so in the page's language."""
    rng = random.Random(SEED)
    tally = figures.setdefault("storage", Tally())
    began = time.monotonic()
    base = baseline(rng)
    # one start with the baseline: the page adds its paint snapshot (and, in the
    # session's context, its memory snapshot: the later starts restore it)
    page = app_context.new_page()
    guard.attach(page)
    try:
        preload(page, base.storage)
        page.goto(site_url, wait_until="commit")
        setup = Case(Tally(), "set-up", guard)
        assert start(page, setup), setup.failures
        page.wait_for_function(f"() => localStorage.getItem('{KEY_SNAPSHOT}')")
        if page.evaluate("document.documentElement.dataset.pythonStart") != "restored":
            try:
                wait_for_snapshot_made(page, timeout_ms=90_000)
            except PlaywrightError:
                pass  # slower starts, the same cases
        stored = page.evaluate(STORAGE)
        assert set(base.storage) <= set(stored), sorted(stored)
        browser = browser_lang(page)
    finally:
        page.close()

    cases = storage_cases(rng)
    try:
        for number, (key, how, lang) in enumerate(cases, start=1):
            items = dict(stored)
            items[KEY_SETTINGS] = json.dumps({"v": 1, "lang": lang})
            target = key
            entry_id = None
            if key == KEY_GAME:
                entry_id = rng.choice(base.ids)
                target = KEY_GAME + entry_id
            original = base.legacy if key == KEY_SAVE else items[target]
            raw = damage(original, how, key, rng)
            items[target] = raw
            case = Case(tally, f"storage #{number}: {target} {how}, {lang} "
                        f"({len(raw)} chars: {raw[:60]!r})", guard)
            want = expect(key, raw, entry_id)
            tally.notes["refused and kept aside" if want.aside else "read or rebuilt"] += 1
            tally.notes["in German"] += lang == "de"
            page = app_context.new_page()
            guard.attach(page)
            try:
                preload(page, items)
                page.goto(site_url, wait_until="commit")
                storage_case(page, base, items, target, raw, want, browser, case)
            finally:
                case.close()
                if number == len(cases):
                    forget(page)
                page.close()
    finally:
        tally.seconds += time.monotonic() - began
    tally.check("storage")


def storage_case(page: Page, base: Baseline, items: dict[str, str], target: str, raw: str,
                 want: Expect, browser: str, case: Case) -> None:
    if not start(page, case):
        return
    assert_no_failure_notice(page, case)
    _, lang = settings_lang(items.get(KEY_SETTINGS), browser)
    shown = state(page)
    if shown["lang"] != lang:
        case.fail("wrong", f"the page speaks {shown['lang']!r}, not {lang!r}")
    notices = [k for k in shown["notices"] if STORAGE_NOTICES.search(k)]
    if want.notices:
        found = [k for k in notices if k in want.notices]
        if not found:
            case.fail("wrong", f"no notice {want.notices} (shown: {shown['notices']})")
        else:
            check_notice_words(page, found[0], lang, case)
    extra = [k for k in notices if k not in want.notices]
    if extra:
        case.fail("wrong", f"unexpected notices {extra}")
    after = page.evaluate(STORAGE)
    if want.aside is not None:
        copies = [k for k, v in after.items() if k.startswith(want.aside) and v == raw]
        if not copies:
            case.fail("lost", f"the damaged {target} is not kept aside under {want.aside}*")
    if want.untouched and after.get(target) != raw:
        case.fail("lost", f"{target} of a newer version was written over")
    if want.removed and target in after:
        case.fail("wrong", f"{target} is still there after it was kept aside")
    listed = listed_games(page, case)
    if listed is None:
        return
    for entry_id in base.ids:
        if entry_id != want.gone and entry_id not in listed:
            case.fail("lost", f"game {entry_id} is not in the list ({listed})")
    if want.gone is not None and want.gone in listed:
        case.fail("wrong", f"the unreadable game {want.gone} is still listed")
    if want.added is not None and not any(i.partition("-")[0] == want.added for i in listed):
        case.fail("lost", f"the old single save ({want.added}) is not in the list ({listed})")


# ---------------------------------------------------------------------------- presses


class Presser:
    """Random presses on one page, with the games that had a move seen so far."""

    def __init__(self, page: Page, rng: random.Random, case: Case) -> None:
        self.page = page
        self.rng = rng
        self.case = case
        self.kept: set[str] = set()  # games with a move at the last look: never to be lost
        self.steps: list[str] = []
        self.alerts: list[str] = []
        page.on("dialog", self._on_dialog)

    def _on_dialog(self, dialog: Any) -> None:
        self.alerts.append(dialog.message)
        dialog.dismiss()

    def press(self) -> bool:
        """One random press (a control, or a key); False if the page did not answer."""
        page, rng = self.page, self.rng
        live = page.evaluate("document.body?.dataset.ready") == "1"
        self.case.tally.notes["presses" if live else "presses before ready"] += 1
        if rng.random() < 0.25:
            key = rng.choice(KEYS)
            self.steps.append(f"key {key!r}")
            _press(page.keyboard, key)
        else:
            picked = page.evaluate(PICK, [[rng.random() for _ in range(8)], rng.random() < 0.5])
            if picked is None:
                self.steps.append("nothing to press")
                return True
            self.steps.append(f"{picked['action']}#{picked['id']}")
            target = page.locator("[data-fz-pick]").first
            try:
                if picked["tag"] == "SELECT" and picked["options"]:
                    _select(target, index=rng.randrange(picked["options"]), timeout=2000)
                elif picked["tag"] in ("INPUT", "TEXTAREA") and picked["type"] not in (
                        "checkbox", "radio", "submit", "button"):
                    _fill(target, rng.choice(NAMES), timeout=2000)
                else:
                    _click(page.mouse, picked["x"], picked["y"])
            except PlaywrightError as exc:  # gone meanwhile (a render, a computer move)
                self.steps[-1] += f" (missed: {str(exc).splitlines()[0][:60]})"
        if not settle_within(page):
            self.case.fail("hang", f"no answer after {self.steps[-6:]}")
            return False
        return True

    def observe(self) -> None:
        """The stored games now: one that had a move at the last look must still be
        there (a game whose moves were all undone may give way to a new game, as an
        untouched one does)."""
        games = self.page.evaluate(STORED_GAMES)
        for game in sorted(self.kept - set(games)):
            self.case.fail("lost", f"game {game} left storage after {self.steps[-8:]}")
        self.kept = {i for i, moved in games.items() if moved}

    def run(self, count: int) -> bool:
        for _ in range(count):
            if not self.press():
                return False
            if self.page.evaluate("document.body?.dataset.ready") == "1":
                self.observe()
                failed = [k for k in state(self.page)["notices"] if k in FAILURE_NOTICES]
                if failed:
                    self.case.fail("crash", f"{failed} after {self.steps[-6:]}")
                    return False
        return True

    def check(self, what: str) -> None:
        """After the presses: the page answers, no game that had a move is lost, no
        script of a name ran."""
        page, case = self.page, self.case
        if self.alerts:
            case.fail("crash", f"a script ran (alert {self.alerts}) after {self.steps}")
        if not settle_within(page):
            case.fail("hang", f"{what}: no answer after {self.steps[-6:]}")
            return
        self.observe()
        assert_no_failure_notice(page, case)
        listed = listed_games(page, case)
        if listed is not None:
            for game in sorted(self.kept - set(listed)):
                case.fail("lost", f"{what}: game {game} is not in the list after {self.steps}")
        # the page answers: the rules open and close
        try:
            _locator_click(page.locator("#btn-rules"), timeout=ANSWER_MS)
            settle_within(page)
            page.locator("#dialog [data-testid=dialog-rules]").wait_for(timeout=ANSWER_MS)
            close_dialogs(page)
        except PlaywrightError as exc:
            case.fail("hang", f"{what}: the rules do not open: {str(exc).splitlines()[0]}")


def press_round(ctx: BrowserContext, site_url: str, rng: random.Random, tally: Tally,
                guard: Guard, name: str, early: int, live: int,
                games: dict[str, str] | None = None) -> None:
    """``early`` presses on the painted page while Python is held back, then ``live``
    presses on the live page; then the checks. ``games``: stored beside what is there
    (a repeat visit); None: a first visit (nothing stored)."""
    page = ctx.new_page()
    page.add_init_script(NO_DELETE)
    preload(page, games or {}, clear=games is None)
    case = Case(tally, name, guard)
    presser = Presser(page, rng, case)
    try:
        with held_runtime(page) as release:
            page.goto(site_url, wait_until="domcontentloaded")
            page.wait_for_function("() => window.skylineBoot && window.skylineHost")
            painted = page.evaluate("window.skylineBoot.painted")
            presser.steps.append(f"(painted: {painted})")
            for _ in range(early):
                presser.press()
                page.wait_for_timeout(rng.choice([0, 20, 150]))
            if page.evaluate("document.body.dataset.ready") == "1":
                case.fail("wrong", "ready while its runtime was held back")
            presser.steps.append("(released)")
            release()
            if not start(page, case):
                return
        if presser.run(live):
            presser.check(name)
            # the next visit paints this one's snapshot (saved once renders pause)
            page.wait_for_timeout(600)
    finally:
        if VERBOSE:
            print(name, presser.steps, presser.kept)
        case.close()
        page.close()


def test_random_presses_while_starting_and_live(
    browser: Browser, site_url: str, guard: Guard, figures: dict[str, Tally]
) -> None:
    """Random clicks and keys on the painted page while Python starts (the welcome of a
    first visit, then a repeat visit's snapshot with three games that have moves), and
    on the live page through the states they lead to (module doc)."""
    rng = random.Random(SEED + 1)
    tally = figures.setdefault("presses", Tally())
    began = time.monotonic()
    lang = rng.choice(LANGS)
    # service workers blocked: every request reaches the route that holds the runtime
    ctx = browser.new_context(service_workers="block",
                              locale={"en": "en-US", "de": "de-DE"}[lang])
    guard.attach(ctx)
    try:
        for round_number in range(SCALE):
            press_round(ctx, site_url, rng, tally, guard,
                        f"presses #{2 * round_number + 1}: first visit ({lang})", 8, 30)
            base = baseline(random.Random(SEED + 10 + round_number))
            games = {k: v for k, v in base.storage.items() if k.startswith(KEY_GAME)}
            press_round(ctx, site_url, rng, tally, guard,
                        f"presses #{2 * round_number + 2}: repeat visit ({lang})", 8, 30,
                        games)
    finally:
        tally.seconds += time.monotonic() - began
        ctx.close()
    tally.check("presses")


# ---------------------------------------------------------------------------- tabs

MOMENTS = ("start", "mid-turn", "dialog", "welcome")
DIALOGS = ("#btn-rules", "#btn-games", "#btn-new", "#btn-stats", "#btn-share")


def other_tab(page: Page) -> bool:
    return "notice.other_tab" in state(page)["notices"]


def policy_step(page: Page) -> str:
    """One step of scripts/chromium.py's policy (take, roll, build …) after closing any
    dialog; bounded in time."""
    close_dialogs(page)
    step = page.evaluate(f"""() => Promise.race([({POLICY_STEP})(),
        new Promise((resolve) => setTimeout(() => resolve("no answer"), {ANSWER_MS}))])""")
    settle_within(page)
    return str(step)


def stored_games_text(page: Page) -> dict[str, str]:
    return {k: v for k, v in page.evaluate(STORAGE).items() if k.startswith(KEY_GAME)}


def test_second_tab_at_random_moments(
    app_context: BrowserContext, site_url: str, guard: Guard, figures: dict[str, Tally]
) -> None:
    """A second tab of the same profile at a random moment: both start, exactly one
    may move (the other says the game is open in another tab, in the page's language,
    and its moves change nothing), no game lost."""
    rng = random.Random(SEED + 2)
    tally = figures.setdefault("tabs", Tally())
    began = time.monotonic()
    try:
        for number, moment in enumerate(MOMENTS * SCALE, start=1):
            lang = rng.choice(LANGS)
            base = baseline(random.Random(SEED + 20 + number), lang)
            detail = moment
            first = app_context.new_page()
            second = app_context.new_page()
            case = Case(tally, f"tabs #{number}", guard)
            try:
                for page in (first, second):
                    guard.attach(page)
                preload(first, {} if moment == "welcome" else base.storage)
                first.goto(site_url, wait_until="commit")
                if moment == "start":
                    delay = rng.randrange(0, 2000)
                    detail += f" after {delay} ms"
                    first.wait_for_timeout(delay)
                elif start(first, case):
                    if moment == "mid-turn":
                        steps = [policy_step(first) for _ in range(rng.randint(1, 4))]
                        detail += f" after {steps}"
                    elif moment == "dialog":
                        opener = rng.choice(DIALOGS)
                        detail += f" {opener}"
                        _locator_click(first.locator(opener), timeout=ANSWER_MS)
                        settle_within(first)
                if moment == "welcome":
                    lang = browser_lang(first)
                case.name = f"tabs #{number}: {detail} ({lang})"
                tally.notes[moment] += 1
                second.goto(site_url, wait_until="commit")
                tabs_case(first, second, base, moment, lang, case)
            finally:
                case.close()
                if number == len(MOMENTS) * SCALE:
                    forget(first)
                first.close()
                second.close()
    finally:
        tally.seconds += time.monotonic() - began
    tally.check("tabs")


def tabs_case(first: Page, second: Page, base: Baseline, moment: str, lang: str,
              case: Case) -> None:
    if not (start(first, case) and start(second, case)):
        return
    for page in (first, second):
        settle_within(page)
        assert_no_failure_notice(page, case)
    watching = [page for page in (first, second) if other_tab(page)]
    if len(watching) != 1:
        case.fail("wrong", f"{len(watching)} tabs say the game is open in another tab")
        return
    watcher = watching[0]
    mover = second if watcher is first else first
    check_notice_words(watcher, "notice.other_tab", lang, case)
    before = stored_games_text(watcher)
    step = policy_step(watcher)
    if stored_games_text(watcher) != before:
        case.fail("wrong", f"the watching tab moved ({step})")
    if not other_tab(watcher):
        case.fail("wrong", "the watching tab no longer says the game is open elsewhere")
    steps = []
    for _ in range(4):  # a step may only open a choice (a demolition's target)
        steps.append(policy_step(mover))
        after = stored_games_text(mover)
        if after != before:
            break
    else:
        case.fail("wrong", f"the tab holding the game could not move ({steps})")
    # every game is still stored and listed (the watching tab follows the other's saves)
    wanted = {k[len(KEY_GAME):] for k in after if after[k] != before.get(k)}
    wanted |= set() if moment == "welcome" else set(base.ids)
    stored = {k[len(KEY_GAME):] for k in stored_games_text(mover)}
    listed = listed_games(watcher, case)
    for game in sorted(wanted - stored):
        case.fail("lost", f"game {game} left storage")
    for game in sorted(wanted - set(listed or wanted)):
        case.fail("lost", f"game {game} is not in the watching tab's list ({listed})")
