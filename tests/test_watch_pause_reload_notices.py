"""What the page does around a turn, under CPython with the fake host: a tab that only
watches greys every game command and says why; a dialog opened during a computer's turn
pauses it, and closing it goes on from where it was, one action at a time; a reload
mid-turn keeps the dice selected; a notice per cause, closed by Escape or its button;
and settings that cannot be read are kept aside and the player told, as for the other
stores."""

from __future__ import annotations

import json
import random
import re

import pytest
from app import render as board_view
from app.core.page_state import PACES
from app.core.selection import KEY_SELECTION
from app.core.store import KEY_SETTINGS, KEY_SETTINGS_BROKEN, entry_key
from page_html import attrs
from web_fakes import FakeHost, make_page, start_game, tables

from skyline import Phase
from skyline.players.bots import get_bot

LANGS = ("en", "de")
TABLES = tables()


def buttons(html: str) -> dict[str, dict[str, str]]:
    """The buttons of the HTML by id, with their attributes."""
    return {a["id"]: a for a in (attrs(m) for m in re.findall(r"<button\b([^>]*)>", html))
            if "id" in a}


def mid_turn(c, host) -> None:
    """Take three dice, roll, and build one: End turn would be the next thing to do."""
    for _ in range(3):
        c.handle("click", "take", "0")
    c.handle("click", "roll", None)
    while c.board.state.phase is Phase.RESOLVE:
        die = c.board.state.dice[0].id
        if die not in c.page.selected:
            c.handle("click", "die", str(die))
        c.handle("click", "build", None)
        if c.page.choice is not None:
            c.handle("keydown", None, None, key="Escape")
            c.handle("click", "demolish", None)
            target = re.search(r'data-action="(col|tile)" data-arg="(\d+)"', host.html["players"])
            c.handle("click", target.group(1), target.group(2))


# ---------------------------------------------------------------------------- watching tab


@pytest.mark.parametrize("lang", LANGS)
def test_a_tab_that_watches_greys_every_game_command_and_says_why(lang):
    t = TABLES[lang]
    a, host_a, _ = make_page(langs=(lang,), bots=False)
    start_game(a, ("Ann",), ("human",), "watch1")
    mid_turn(a, host_a)
    screen = a.renderer.screen()
    assert screen.command("end").enabled and screen.command("undo").enabled
    b, host_b, _ = make_page(storage=host_a.storage, langs=(lang,), bots=False)
    b.handle("tab", "busy", None)  # the other tab has the game
    assert b.page.readonly and b.board.state == a.board.state
    screen = b.renderer.screen()
    for cmd in screen.commands:
        assert not cmd.enabled and cmd.reason == t["why.readonly"], cmd
    html = host_b.html["turn"]
    found = buttons(html)
    for name in ("end", "undo", "roll", "build", "demolish"):
        assert "disabled" in found[f"act-{name}"], name
    assert board_view.esc(t["why.readonly"]) in html  # the reason, readable without hover
    assert not any(d.selectable for d in screen.dice)
    assert not screen.yard.enabled
    # "Play here" is offered with the reason, and gives the commands back
    assert "notice.other_tab" in [n.key for n in b.page.notices]
    b.handle("click", "take-control", None)
    assert b.renderer.screen().command("end").enabled


@pytest.mark.parametrize("lang", LANGS)
def test_a_watching_tab_keeps_the_dialog_its_player_opened_while_the_other_tab_moves(lang):
    """The other tab's moves arrive as saves: the watching tab follows them, and a
    dialog its player opened that shows nothing of the game (the game list, the rules,
    the statistics, the new-game form) stays open; Share, whose link is of the game as
    it was, closes."""
    a, host_a, _ = make_page(langs=(lang,), bots=False)
    start_game(a, ("Ann",), ("human",), "watch2")
    b, host_b, _ = make_page(storage=host_a.storage, langs=(lang,), bots=False)
    b.handle("tab", "busy", None)
    rng = random.Random(2)

    def the_other_tab_moves() -> None:
        a.play.dispatch(get_bot("greedy")(a.board.state, rng))
        b.handle("tab", "saved", entry_key(a.session.entry.id))
        assert b.board.state == a.board.state  # followed

    for action, testid in (("games", "dialog-games"), ("rules", "dialog-rules"),
                           ("stats", "dialog-stats"), ("newgame", "dialog-newgame")):
        b.handle("click", action, None)
        opened = type(b.page.dialog)
        assert f'data-testid="{testid}"' in host_b.html["dialog"], action
        the_other_tab_moves()
        assert type(b.page.dialog) is opened, action
        assert f'data-testid="{testid}"' in host_b.html["dialog"], action
        b.handle("keydown", None, None, key="Escape")
        assert b.page.dialog is None, action
    b.handle("click", "share", None)
    assert b.page.dialog is not None
    the_other_tab_moves()
    assert b.page.dialog is None and host_b.html["dialog"] == ""


def test_a_tab_that_watches_a_computers_turn_leaves_it_to_the_other_tab():
    """The computer plays in the tab that has the game; the watching tab shows its turn
    and offers no Skip that would do nothing."""
    a, host_a, timer_a = make_page(bots=True)
    start_game(a, ("Robo", "Ann"), ("expert", "human"), "watch2")
    b, host_b, timer_b = make_page(storage=host_a.storage, bots=True)
    b.handle("tab", "busy", None)
    played = len(b.board.actions)
    timer_b.run(limit=40)
    assert len(b.board.actions) == played and b.renderer.screen().bot_bar is not None
    assert b.think_ms == []  # not even thought about there
    assert "disabled" in buttons(host_b.html["turn"])["bot-skip"]
    timer_a.run(until=lambda: len(a.board.actions) > played)  # the other tab plays it
    assert len(a.board.actions) > played


# ---------------------------------------------------------------------------- paused computer


def computer_actions(c) -> int:
    return len(c.board.actions)


@pytest.mark.parametrize("opener", ["rules", "games", "newgame", "stats", "share"])
def test_a_dialog_pauses_the_computer_and_closing_goes_on_from_there(opener):
    """The computer plays one action per pace; while a dialog is open it plays none; once
    it is closed it goes on with its next action at its pace (never the rest of its turn
    at once), so every move is seen."""
    c, host, timer = make_page(bots=True)
    start_game(c, ("Robo", "Ann"), ("expert", "human"), "pause1")
    pace = PACES[c.page.pace]
    timer.run(until=lambda: computer_actions(c) >= 2)
    assert c.computer_turn()
    c.handle("click", opener, None)
    assert c.page.dialog is not None
    played = computer_actions(c)
    start = timer.now
    timer.run(until=lambda: timer.now > start + 20 * pace)
    assert computer_actions(c) == played  # paused
    c.handle("keydown", None, None, key="Escape")
    assert c.page.dialog is None
    closed = timer.now
    timer.run(until=lambda: computer_actions(c) > played)
    assert computer_actions(c) == played + 1  # where it was: its next action
    assert timer.now - closed <= pace
    step = timer.now
    timer.run(until=lambda: computer_actions(c) > played + 1)
    assert computer_actions(c) == played + 2 and timer.now - step >= pace  # then at its pace
    assert c.computer_turn() or c.board.state.seat == 1


# ---------------------------------------------------------------------------- reload


def rolled_turn(c, die_type: str = "1") -> None:
    """Take three dice of one type (upper floors by default) and roll them."""
    for _ in range(3):
        c.handle("click", "take", die_type)
    c.handle("click", "roll", None)
    assert c.board.state.phase is Phase.RESOLVE and len(c.board.state.dice) == 3


def test_a_reload_mid_turn_keeps_the_selected_dice():
    c, host, _ = make_page(bots=False)
    start_game(c, ("Ann",), ("human",), "reload1")
    rolled_turn(c)
    dice = [d.id for d in c.board.state.dice]
    for die in dice[:2]:
        c.handle("click", "die", str(die))
    assert c.page.selected == set(dice[:2])
    again, host2, _ = make_page(storage=host.storage, bots=False)
    assert again.page.selected == set(dice[:2])
    assert [d.selected for d in again.renderer.screen().dice] == [True, True, False]
    assert re.findall(r'aria-pressed="(true|false)"', host2.html["turn"]) == ["true", "true",
                                                                           "false"]
    # one die put back: the reload shows that too; none selected: none after it
    again.handle("click", "die", str(dice[0]))
    assert make_page(storage=host2.storage, bots=False)[0].page.selected == {dice[1]}
    again.handle("click", "die", str(dice[1]))
    assert KEY_SELECTION not in host2.storage
    assert make_page(storage=host2.storage, bots=False)[0].page.selected == set()


def test_a_selection_of_another_moment_is_not_restored():
    c, host, _ = make_page(bots=False)
    start_game(c, ("Ann",), ("human",), "reload2")
    rolled_turn(c, "0")  # ground floors: a build never asks where
    die = c.board.state.dice[0].id
    c.handle("click", "die", str(die))
    kept = host.storage[KEY_SELECTION]
    c.handle("click", "build", None)  # an action: the moment has passed
    assert len(c.board.actions) == json.loads(kept)["actions"] + 1
    storage = {**host.storage, KEY_SELECTION: kept}  # as if the write had been lost
    assert make_page(storage=storage, bots=False)[0].page.selected == set()
    for broken in ("not json", "[]", json.dumps({**json.loads(kept), "dice": ["x", 99]})):
        storage = {**host.storage, KEY_SELECTION: broken}
        assert make_page(storage=storage, bots=False)[0].page.selected == set()


def test_a_watching_tab_never_writes_the_selection():
    a, host_a, _ = make_page(bots=False)
    start_game(a, ("Ann",), ("human",), "reload3")
    rolled_turn(a)
    b, host_b, _ = make_page(storage=host_a.storage, bots=False)
    b.handle("tab", "busy", None)
    b.handle("click", "die", str(b.board.state.dice[0].id))
    assert not b.page.selected and KEY_SELECTION not in host_b.storage


# ---------------------------------------------------------------------------- notices


BAD_LINKS = ("#play?v=9", "#game?v=1&g=broken", "#daily?d=2026-13-40", "#garbage<b>")


@pytest.mark.parametrize("lang", LANGS)
def test_one_notice_per_cause_closed_by_escape_or_its_button(lang):
    c, host, _ = make_page(langs=(lang,), bots=False)
    c.handle("click", "close", None)
    for fragment in BAD_LINKS:  # a few bad links of every kind: one notice, the latest
        c.handle("hashchange", None, fragment)
        assert len(c.page.notices) == 1, [n.key for n in c.page.notices]
    (note,) = c.renderer.screen().notices
    assert note.level == "error"
    c.handle("hashchange", None, BAD_LINKS[0])
    c.handle("hashchange", None, BAD_LINKS[0])
    assert len(c.page.notices) == 1
    html = host.html["notices"]
    close = buttons(html)["dismiss-0"]
    assert close["data-action"] == "dismiss" and close["aria-label"] == TABLES[lang]["btn.dismiss"]
    c.handle("keydown", None, None, key="Escape")
    assert c.page.notices == [] and host.html["notices"] == ""
    # two causes: two notices; Escape closes the newest first, the button any one
    c.handle("hashchange", None, BAD_LINKS[1])
    c.handle("tab", "busy", None)
    assert [n.key for n in c.page.notices] == ["corr.bad_link", "notice.other_tab"]
    c.handle("keydown", None, None, key="Escape")
    assert [n.key for n in c.page.notices] == ["corr.bad_link"]
    c.handle("click", "dismiss", "0")
    assert c.page.notices == []


def test_escape_still_closes_a_dialog_before_a_notice():
    c, _, _ = make_page(bots=False)
    c.handle("click", "close", None)
    c.handle("hashchange", None, BAD_LINKS[0])
    c.handle("click", "rules", None)
    c.handle("keydown", None, None, key="Escape")
    assert c.page.dialog is None and len(c.page.notices) == 1


# ---------------------------------------------------------------------------- settings


@pytest.mark.parametrize(("stored", "code"), [
    ("{not json", "json_syntax"),
    ("[1, 2]", "settings_format"),
    ('{"v": 1, "lang": "xx", "pace": "fast"}', "settings_lang"),
])
def test_unreadable_settings_are_kept_aside_and_the_player_told(stored, code):
    """The browser asks for German; the stored settings cannot be read: the page speaks
    the browser's language (not silently English), says so and keeps the text aside."""
    c, host, _ = make_page(storage={KEY_SETTINGS: stored}, langs=("de",), bots=False)
    assert c.texts.lang == "de"
    (note,) = [n for n in c.renderer.screen().notices if n.key == "notice.settings_broken"]
    copies = [k for k in host.storage if k.startswith(KEY_SETTINGS_BROKEN)]
    assert len(copies) == 1 and host.storage[copies[0]] == stored
    params = {"lang": "xx"} if code == "settings_lang" else {}
    reason = TABLES["de"]["error.settings." + code].format(**params)
    assert note.text == TABLES["de"]["notice.settings_broken"].format(reason=reason,
                                                                     key=copies[0])
    assert note.level == "warn" and "notice.settings_broken" in host.html["notices"]
    # the language chosen from now on is kept, and the next visit has nothing to say
    c.handle("click", "lang", "en")
    again, _, _ = make_page(storage=host.storage, langs=("de",), bots=False)
    assert again.texts.lang == "en"
    assert not [n for n in again.page.notices if n.key.startswith("notice.settings")]


def test_settings_that_cannot_be_kept_aside_still_tell_the_player():
    c, host, _ = make_page(storage={KEY_SETTINGS: "{not json"}, bots=False, langs=("de",))
    assert any(n.key == "notice.settings_broken" for n in c.page.notices)
    full = FakeHost({KEY_SETTINGS: "{not json"})
    full.fail_set = RuntimeError
    c, _, _ = make_page(host=full, bots=False)
    assert any(n.key == "notice.settings_broken_lost" for n in c.page.notices)


def test_readable_settings_say_nothing():
    stored = json.dumps({"v": 1, "lang": "de", "pace": "fast"})
    c, host, _ = make_page(storage={KEY_SETTINGS: stored}, bots=False)
    assert c.texts.lang == "de" and c.page.pace == "fast"
    assert not [n for n in c.page.notices if n.key.startswith("notice.settings")]
    assert not [k for k in host.storage if k.startswith(KEY_SETTINGS_BROKEN)]
