"""The page's decisions without a browser: web/screen.py (and the controller that feeds it)
under CPython with a fake host (tests/web_fakes.py), in English and German.

Covers every phase (first visit, take, roll pending, resolve, tower choice, demolition
target, forced demolition, end of turn, game over), each seat kind (human, beginner,
greedy, expert), solo / scenario / 2-4 players, each dialog and each notice.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from functools import cache

import pytest
from app import render as board_view
from app import screen as sm
from app.computer.view import COSTLY_SHOWN, ReviewView
from app.controller import Controller
from app.core.i18n import Texts
from app.core.labels import LABEL_KEYS
from app.core.page_state import (
    ConfirmLinkDialog,
    DemolishChoice,
    ExportDialog,
    Level,
    NewGameDialog,
    Notice,
    NoticeButton,
    PageState,
    RulesDialog,
    ShareDialog,
)
from app.core.words import die_word
from app.dialogs.ui import NewGameView
from app.turn.state import BuildChoice
from web_fakes import FakeHost, FakeTimer, make_page, tables

from skyline import Board, DieType, Options, Phase, Roll, Seat, plan_build
from skyline.players.bots import BOTS

LANGS = ("en", "de")
TABLES = tables()
NOTICES = {
    # key: params the controller passes
    "notice.not_saved": {},
    "notice.save_conflict": {},
    "notice.save_broken": {"reason": "x", "key": "skyline.save.broken.1"},
    "notice.save_broken_lost": {"reason": "x"},
    "notice.crash": {},
    "notice.reloaded": {},
    "notice.other_tab": {},
    "notice.playing_here": {},
    "notice.link_started": {},
    "notice.bad_link": {"reason": "x"},
    "notice.illegal": {"reason": "x"},
    "notice.stuck": {"name": "Ann"},
    "notice.error": {},
}


def texts(lang: str) -> Texts:
    return Texts(TABLES, lang)


def strings(value) -> list[str]:
    """Every str inside a screen value (dataclasses, tuples, mappings), except the
    fields that hold string-table keys on purpose (``key``, ``reason_key``)."""
    if isinstance(value, str):
        return [value]
    if dataclasses.is_dataclass(value):
        return [s for f in dataclasses.fields(value) if not f.name.endswith("key")
                for s in strings(getattr(value, f.name))]
    if isinstance(value, tuple | list):
        return [s for v in value for s in strings(v)]
    if hasattr(value, "values"):
        return [s for v in value.values() for s in strings(v)]
    return []


def assert_translated(screen: sm.Screen, lang: str) -> None:
    """No text is a bare string-table key (a missing translation) or a {placeholder}."""
    keys = set(TABLES["en"])
    for text in strings(screen):
        assert text not in keys or text in TABLES[lang].values(), text
        assert "{" not in text, text
    # every key the screen may show exists in this language's table
    missing = [k for k in LABEL_KEYS if k not in TABLES[lang]]
    assert not missing


def screen_of(page: PageState, board: Board | None, lang: str = "en", **kw) -> sm.Screen:
    s = sm.build_screen(page, board, texts(lang), **kw)
    assert_translated(s, lang)
    board_view.render(s)  # the view renders every screen
    return s


def walk(predicate, players=1, seeds=range(300), bot="random", **opts):
    """The first (board, state) of seeded random games for which ``predicate`` holds."""
    for seed in seeds:
        names = tuple("ABCD"[:players])
        board = Board(Options(names, f"walk{seed}", 0, opts.get("nine", False),
                              opts.get("scenario")))
        rng = random.Random(seed)
        while board.state.phase is not Phase.OVER:
            if predicate(board):
                return board
            board.push(BOTS[bot](board.state, rng))
        if predicate(board):
            return board
    raise AssertionError("no such position found")


@cache
def finished(players: int, scenario: str | None = None, seed: int = 1) -> Board:
    return walk(lambda b: b.is_game_over(), players, seeds=[seed], bot="greedy",
                scenario=scenario)


# ---------------------------------------------------------------------------- phases


@pytest.mark.parametrize("lang", LANGS)
def test_first_visit_without_a_game(lang):
    page = PageState(dialog=NewGameDialog(first=True, names=["P1", "P2", "P3", "P4"]))
    s = screen_of(page, None, lang)
    assert s.game is None and s.status is None and s.prompt is None and s.commands == ()
    assert (s.yard, s.district, s.players, s.scoring, s.log) == (None, None, (), None, None)
    assert isinstance(s.dialog, NewGameView) and s.dialog.first
    html = board_view.render(s)
    assert set(html) == {"topbar", "notices", "dialog"}
    assert "dlg-close" not in html["dialog"]  # the first dialog cannot be closed


@pytest.mark.parametrize("lang", LANGS)
def test_boot_opens_the_first_dialog_over_a_default_solo_game(lang):
    c, host, _ = make_page(langs=(lang,))
    s = c.renderer.screen()
    assert s.lang == lang and s.game is not None and s.game.solo
    assert isinstance(s.dialog, NewGameView) and s.dialog.first
    assert host.html["dialog"] and 'data-testid="dialog-newgame"' in host.html["dialog"]


@pytest.mark.parametrize("lang", LANGS)
def test_take_phase(lang):
    board = Board(Options(("Ann", "Bo"), "take", 0, False, None))
    s = screen_of(PageState(takes=[DieType(0)]), board, lang)
    t = texts(lang).t
    assert s.prompt == t("prompt.take.2")
    assert [d.taken for d in s.dice] == [True] and s.game.turn.open_slots == 2
    assert s.dice[0].put_back == t("btn.put_back_label", die=s.dice[0].label)
    assert s.game.yard.enabled and [r.picked for r in s.game.yard.rows] == [1, 0, 0]
    district = s.game.district
    assert district.enabled == bool(board.state.district)
    assert len(district.dice) == len(board.state.district)
    for cmd in s.commands:
        if cmd.name == "undo":
            assert cmd.enabled and cmd.reason is None
        else:
            assert not cmd.enabled and cmd.reason_key == "why.take_first"
            assert cmd.reason == t("why.take_first")
    assert [c.name for c in s.commands] == ["roll", "build", "abandon", "demolish", "end", "undo"]
    # nothing picked and nothing done yet: undo says why
    s = screen_of(PageState(), board, lang)
    assert s.command("undo").reason_key == "why.nothing_to_undo"
    assert s.prompt == t("prompt.take.3")


@pytest.mark.parametrize("lang", LANGS)
def test_roll_pending(lang):
    board = Board(Options(("Ann",), "roll", 0, False, None))
    board.push_text("tGUP")
    s = screen_of(PageState(), board, lang)
    assert s.game.turn.phase == "roll" and s.prompt == texts(lang).t("prompt.roll")
    roll = s.command("roll")
    assert roll.enabled and roll.primary
    assert all(not c.enabled and c.reason_key == "why.roll_first"
               for c in s.commands if c.name not in ("roll", "undo"))
    assert [d.face for d in s.dice] == [None, None, None]
    assert all(not d.button and d.put_back for d in s.dice)  # taken from the yard: put back
    assert not s.game.yard.enabled
    assert "abandon" not in [c.name for c in s.commands]  # solo


@pytest.mark.parametrize("lang", LANGS)
def test_resolve_selection_decides_the_commands(lang):
    board = walk(lambda b: b.state.phase is Phase.RESOLVE and len(b.state.dice) == 3, 2)
    s = screen_of(PageState(), board, lang)
    assert s.game.turn.phase == "resolve"
    assert all(d.button and d.selectable and not d.selected for d in s.dice)
    for name in ("build", "abandon", "demolish"):
        assert s.command(name).reason_key == "why.select"
    assert s.command("roll").reason_key == "why.resolve_first"
    assert s.command("undo").reason_key == "why.committed"
    die = board.state.dice[0].id
    s = screen_of(PageState(selected={die}), board, lang)
    feasible = plan_build(board.state, (die,)).feasible
    assert s.command("build").enabled is feasible
    assert s.command("abandon").enabled  # 2 players: abandoning is allowed
    assert [d.selected for d in s.dice] == [True, False, False]


def tower_selection(state) -> tuple[int, ...] | None:
    """Dice that can be built in full but ask where one of them goes."""
    ids = [d.id for d in state.dice]
    for r in range(1, len(ids) + 1):
        for sub in itertools.combinations(ids, r):
            plan = plan_build(state, sub)
            if plan.feasible and plan.choice_die is not None:
                return sub
    return None


@pytest.mark.parametrize("lang", LANGS)
def test_tower_choice(lang):
    board = walk(lambda b: b.state.phase is Phase.RESOLVE and tower_selection(b.state), 2,
                 seeds=range(1, 20))
    dice = tower_selection(board.state)
    c, host, _ = make_page()
    c.session.set_board(board.copy())
    c.page.dialog = None
    c.texts.lang = lang
    for die in dice:
        c.handle("click", "die", str(die))
    host.focused.clear()
    c.handle("click", "build", None)
    assert isinstance(c.page.choice, BuildChoice)
    s = c.renderer.screen()
    # the first highlighted tower is scrolled into view, once per choice
    seat = c.board.state.seat
    first = next(col for p in s.players if p.active for col in p.columns if col.target)
    assert host.focused.count(f"reveal:col-{seat}-{first.index}") == 1
    c.render()
    assert sum(f.startswith("reveal:") for f in host.focused) == 1
    assert s.game.turn.phase == "choose" and s.game.turn.choosing
    assert s.prompt == c.session.t("prompt.choose_tower")
    assert all(cmd.reason_key == "why.choosing" for cmd in s.commands)
    assert all(not d.selectable for d in s.dice)
    assert [d.focus for d in s.dice].count(True) == 1
    active = next(p for p in s.game.players if p.active)
    targets = [col for col in active.columns if col.target == "build"]
    assert all(col.target is None for p in s.game.players if not p.active for col in p.columns)
    assert len(targets) >= 1
    assert not s.game.hint_available
    # choosing a target builds the die and ends the choice
    before = len(c.board.actions)
    c.handle("click", "col", str(targets[0].index))
    assert len(c.board.actions) > before
    assert c.page.choice is None or c.page.choice.die != s.game.turn.tray[0].id


@pytest.mark.parametrize("lang", LANGS)
def test_demolition_target_and_forced_demolition(lang):
    def forced(b):
        st = b.state
        return st.phase is Phase.RESOLVE and st.player.columns and any(
            not plan_build(st, (d.id,)).feasible for d in st.dice)

    board = walk(forced)
    st = board.state
    die = next(d.id for d in st.dice if not plan_build(st, (d.id,)).feasible)
    s = screen_of(PageState(selected={die}), board, lang)
    assert s.command("build").reason_key == "why.cannot_build"
    assert s.command("demolish").enabled
    s = screen_of(PageState(selected={die}, choice=DemolishChoice((die,))), board, lang)
    assert s.prompt == texts(lang).t("prompt.choose_demolish")
    me = s.game.players[0]
    assert me.columns and all(col.target == "demolish" for col in me.columns)
    assert all(tile.target for tile in me.tiles)
    html = board_view.render(s)["players"]
    assert 'data-action="col"' in html and 'id="act-cancel"' not in html
    assert 'id="act-cancel"' in board_view.render(s)["turn"]


@pytest.mark.parametrize("lang", LANGS)
def test_end_of_turn(lang):
    board = walk(lambda b: b.state.phase is Phase.CONTINUE and not b.state.dice)
    s = screen_of(PageState(), board, lang)
    assert s.prompt == texts(lang).t("prompt.continue")
    assert s.command("end").enabled
    assert s.command("roll").reason_key == "why.select_reroll"
    assert s.dice == () and "tray-empty" in board_view.render(s)["turn"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_game_over(lang, players):
    board = finished(players)
    s = screen_of(PageState(), board, lang, best={"-": 1})
    t = texts(lang).t
    assert s.status.over and s.status.text == t("status.over")
    assert s.game.turn.over and s.prompt == t("prompt.over") and s.dice == ()
    assert all(cmd.reason_key == "why.over" for cmd in s.commands)
    sc = s.game.scoring
    # ranked: first place at the top (seat order among equal ranks), every seat once
    assert [r.rank for r in sc.rows] == sorted(r.rank for r in sc.rows)
    assert sc.rows[0].rank == 1 and sorted(r.seat for r in sc.rows) == list(range(players))
    assert {r.seat: r.score for r in sc.rows} == dict(enumerate(board.scores()))
    assert [r.score for r in sc.rows] == sorted(board.scores(), reverse=True)
    assert len(sc.rows) == players
    if players == 1:
        assert sc.headline == t("result.solo_total", score=board.scores()[0])
        assert t("result.best", score=1) in sc.lines
    else:
        assert any(r.name in sc.headline for r in sc.rows)
    assert not s.game.hint_available and s.bot_bar is None and s.hint is None
    assert s.scoring is sc and s.players == s.game.players and s.log.entries


@pytest.mark.parametrize("lang", LANGS)
def test_scenario_and_beat_lines(lang):
    board = finished(1, "dubai")
    t = texts(lang).t
    s = screen_of(PageState(beat=500), board, lang)
    lines = s.game.scoring.lines
    assert any(t("scenario.dubai") in line for line in lines)
    assert t("result.beat_no", score=500) in lines
    assert s.game.beat == t("beat.show", score=500)
    s = screen_of(PageState(beat=0), board, lang)
    assert t("result.beat_yes", score=0) in s.game.scoring.lines


# ---------------------------------------------------------------------------- seats


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("level", ["beginner", "greedy", "expert"])
def test_computer_turn(lang, level):
    board = Board(Options(("Ann", "Robo"), "bots", 1, False, None))
    page = PageState(seats={1: Seat.computer(level)})
    s = screen_of(page, board, lang)
    t = texts(lang).t
    assert all(cmd.reason_key == "why.computer" and not cmd.enabled for cmd in s.commands)
    assert s.prompt == t("prompt.waiting", name="Robo")
    assert s.game.bot_bar.text == t("bot.playing", name="Robo", level=t("seat.level." + level))
    assert s.game.bot_bar.skip_enabled
    assert not s.game.yard.enabled and not s.game.hint_available
    assert [p.kind for p in s.game.players] == [Seat.here(), Seat.computer(level)]
    page.skipping = True
    assert not screen_of(page, board, lang).game.bot_bar.skip_enabled


@pytest.mark.parametrize("level", ["beginner", "greedy", "expert"])
def test_computer_plays_through_the_controller(level):
    c, host, timer = make_page()
    c.handle("submit", "ng-start", None, form={
        "count": "2", "name0": "Ann", "name1": "Robo", "seat1": level, "seed": "pc",
        "start": "1"})
    assert c.page.seats == {1: Seat.computer(level)} and c.computer_turn()
    # human commands are refused while the computer moves
    c.handle("click", "take", "0")
    assert c.page.takes == [] and not c.board.actions
    timer.run(until=lambda: not c.computer_turn())
    assert c.board.state.seat == 0 and c.board.actions
    assert "Robo" in host.html["log"]
    # the share link carries the seats, the save keeps them
    assert c.links.share_link().endswith("&bots=1" + level[0])
    again = Controller(FakeHost(dict(host.storage)), TABLES)
    again.boot()
    assert again.page.seats == {1: Seat.computer(level)}


@pytest.mark.parametrize("lang", LANGS)
def test_live_region_narrates_rolls_computer_moves_turns_and_the_end(lang):
    """Screen.announce (the polite live region): each roll's faces, each computer move,
    whose turn it is, the end of the game; nothing new for a selection or a dialog."""
    c, host, timer = make_page(langs=(lang,))
    t = c.session.t
    assert host.announced == []  # the default game behind the welcome dialog: no news
    c.handle("submit", "ng-start", None, form={
        "count": "2", "name0": "Ann", "name1": "Robo", "seat1": "greedy", "seed": "nar",
        "start": "0"})
    assert host.announced == [t("announce.new_game") + " "
                              + t("announce.turn", name="Ann", round=1)]
    for i in (0, 1, 2):
        c.handle("click", "take", str(i))
    c.handle("click", "roll", None)
    words = ", ".join(die_word(t, d.type.letter + d.face.letter) for d in c.board.state.dice)
    assert host.announced[-1] == t("log.roll", name="Ann", dice=words)
    count = len(host.announced)
    c.handle("click", "die", str(c.board.state.dice[0].id))  # a selection is no news
    c.handle("click", "rules", None)
    c.handle("keydown", None, None, key="Escape")
    assert len(host.announced) == count
    while c.board.state.seat == 0:  # Ann plays her turn out
        c.play.dispatch(BOTS["greedy"](c.board.state, random.Random(1)))
    c.render()
    assert host.announced[-1].endswith(t("announce.turn", name="Robo", round=1))
    c.computer.wake()
    moves = len(c.board.actions)
    timer.run(until=lambda: len(c.board.actions) > moves)  # one computer action
    assert host.announced[-1] == t("log.take", name="Robo", dice=", ".join(
        t("log.type." + d.letter) for d in c.board.actions[-1].types))
    timer.run(until=lambda: not c.computer_turn())
    assert host.announced[-1].endswith(t("announce.turn", name="Ann", round=2))
    # the end of the game: the last move, the end, the result
    board = finished(1)
    c2, host2, _ = make_page(langs=(lang,))
    c2.page.dialog = None
    c2.session.set_board(Board(board.options))
    for action in board.actions[:-1]:
        c2.board.push(action)
    c2.play.dispatch(board.actions[-1])
    c2.render()
    assert c2.board.is_game_over()
    text = host2.announced[-1]
    assert t("log.game_over") in text
    assert text.endswith(c2.renderer.screen().scoring.headline)
    assert sm.build_screen(c2.page, c2.board, c2.texts).announce == text


def test_human_seat_has_the_hint():
    board = Board(Options(("Ann",), "hint", 0, False, None))
    page = PageState()
    s = screen_of(page, board)
    assert s.game.hint_available and s.game.hint is None


# ---------------------------------------------------------------------------- modes


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_players_and_district(lang, players):
    board = Board(Options(tuple("ABCD"[:players]), "n", 0, False, None))
    s = screen_of(PageState(), board, lang)
    assert len(s.game.players) == players
    assert (s.game.district is None) == (players == 1)
    assert ("abandon" in [c.name for c in s.commands]) == (players > 1)
    assert [p.start for p in s.game.players] == [players > 1] + [False] * (players - 1)
    assert [p.to_move for p in s.game.players] == [players > 1] + [False] * (players - 1)
    t = texts(lang).t
    assert s.status.turn == (t("status.solo_turn") if players == 1
                             else t("status.turn", name="A"))


def test_district_can_be_taken_when_filled():
    board = walk(lambda b: b.state.phase is Phase.TAKE and b.state.district, 2)
    s = screen_of(PageState(), board)
    assert s.game.district.enabled and len(s.game.district.dice) == len(board.state.district)
    assert not screen_of(PageState(takes=[DieType(0)] * 3), board).game.yard.enabled


# ---------------------------------------------------------------------------- dialogs


@pytest.mark.parametrize("lang", LANGS)
def test_new_game_dialog(lang):
    t = texts(lang).t
    d = NewGameDialog(count=1, names=["A", "B", "C", "D"], scenario="dubai", error="oops")
    s = screen_of(PageState(dialog=d), None, lang)
    v = s.dialog
    assert v.title == t("newgame.title") and not v.first and v.error == "oops"
    assert v.start_options is None
    assert [o.value for o in v.scenario_options if o.selected] == ["dubai"]
    assert [o.value for o in v.names[0].seat_options] == ["human", "beginner", "greedy",
                                                          "expert"]
    d = NewGameDialog(count=3, names=["A", "B", "C", "D"], seats=["human", "expert", "human",
                                                                  "human"], start="r")
    v = screen_of(PageState(dialog=d), None, lang).dialog
    assert v.scenario_options is None and len(v.names) == 3
    assert [o.value for o in v.start_options] == ["r", "0", "1", "2"]
    assert v.start_options[0].selected
    assert [o.value for o in v.names[1].seat_options if o.selected] == ["expert"]


def test_new_game_form_error_and_start():
    c, host, _ = make_page()
    c.handle("submit", "ng-start", None, form={"count": "2", "name0": "", "name1": "B",
                                               "seed": "s"})
    assert isinstance(c.page.dialog, NewGameDialog) and c.page.dialog.error
    assert 'data-testid="form-error"' in host.html["dialog"]
    c.handle("submit", "ng-start", None, form={"count": "2", "name0": "A", "name1": "B",
                                               "seed": "s", "start": "1"})
    assert c.page.dialog is None and c.board.state.seat == 1


@pytest.mark.parametrize("lang", LANGS)
def test_other_dialogs(lang):
    t = texts(lang).t
    s = screen_of(PageState(dialog=RulesDialog()), None, lang)
    assert s.dialog.title == t("rules.title") and s.dialog.t("rules.aim.title")
    assert 'data-testid="rules"' in board_view.render(s)["dialog"]
    opts = Options(("Ann", "Bo"), "lk", 0, False, None)
    s = screen_of(PageState(dialog=ConfirmLinkDialog(opts, 42)), None, lang)
    assert s.dialog.describe == t("link.describe", names="Ann, Bo", seed="lk")
    assert s.dialog.beat == t("beat.show", score=42)
    for copied, key in ((None, None), (True, "share.copied"), (False, "share.failed")):
        s = screen_of(PageState(dialog=ShareDialog("http://x/#play?a", copied)), None, lang)
        assert s.dialog.status == (t(key) if key else None) and s.dialog.link.endswith("a")
    s = screen_of(PageState(dialog=ExportDialog("skyline.save.broken.T1", "raw", "blob:u")),
                  None, lang)
    assert s.dialog.filename == "skyline-T1.json" and s.dialog.text == "raw"
    assert 'download="skyline-T1.json"' in board_view.render(s)["dialog"]


def test_share_and_link_dialogs_through_the_controller():
    c, host, _ = make_page()
    c.handle("click", "close", None)
    c.handle("click", "take", "0")  # a game in progress: a link asks first
    c.handle("click", "share", None)
    assert isinstance(c.page.dialog, ShareDialog) and c.page.dialog.copied is True
    link = host.copied[-1]
    c.handle("click", "close", None)
    c.handle("hashchange", None, "#play?" + link.split("#play?")[1].replace("Player", "Pl"))
    assert isinstance(c.page.dialog, ConfirmLinkDialog)
    c.handle("click", "link-accept", None)
    assert c.page.dialog is None and c.board.options.names == ("Pl 1",)
    assert [n.key for n in c.page.notices] == ["notice.link_started"]


# ---------------------------------------------------------------------------- notices


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key", sorted(NOTICES))
def test_each_notice(lang, key):
    assert key in TABLES["en"] and key in TABLES["de"]
    note = Notice(key, tuple(NOTICES[key].items()), Level.WARN, True,
                  NoticeButton("take-control", "", "btn.play_here"))
    s = screen_of(PageState(notices=[note]), None, lang)
    (view,) = s.notices
    assert view.text == texts(lang).t(key, **NOTICES[key]) and view.level == "warn"
    assert view.button == ("take-control", "", texts(lang).t("btn.play_here"))
    assert 'data-key="' + key + '"' in board_view.render(s)["notices"]


def test_notices_from_the_controller():
    class Full(Exception):
        pass

    # storage full: told at once, the game goes on
    host = FakeHost()
    host.fail_set = Full
    c, _, _ = make_page(host=host)
    assert "notice.not_saved" in [n.key for n in c.page.notices]
    # a broken save is kept aside and offered for export
    c, host, _ = make_page(storage={"skyline.save": "{not json"})
    (note,) = [n for n in c.page.notices if n.key == "notice.save_broken"]
    c.handle("click", note.button.action, note.button.arg)
    assert isinstance(c.page.dialog, ExportDialog) and c.page.dialog.text == "{not json"
    # a crash inside an action: not saved, reload offered
    c, host, _ = make_page()
    c.handle("click", "close", None)
    host.faults.add("action")
    for _ in range(3):
        c.handle("click", "take", "0")
    assert c.page.crashed and "notice.crash" in [n.key for n in c.page.notices]
    c.handle("click", "reload-saved", None)
    assert not c.page.crashed and "notice.reloaded" in [n.key for n in c.page.notices]
    # another tab has the game, then this one takes it over
    c.handle("tab", "busy", None)
    assert c.page.readonly and "notice.other_tab" in [n.key for n in c.page.notices]
    takes = list(c.page.takes)
    c.handle("click", "take", "0")
    assert c.page.takes == takes
    c.handle("click", "take-control", None)
    assert not c.page.readonly and "notice.playing_here" in [n.key for n in c.page.notices]
    # a bad link
    c.handle("hashchange", None, "#play?v=9")
    assert "notice.bad_link" in [n.key for n in c.page.notices]


def test_save_conflict_makes_the_tab_read_only():
    c, host, _ = make_page()
    c.handle("click", "close", None)
    other = Controller(FakeHost(host.storage), TABLES)
    other.boot()
    other.handle("click", "close", None)
    other.handle("click", "take", "0")
    c.handle("click", "take", "1")
    assert c.page.readonly and "notice.save_conflict" in [n.key for n in c.page.notices]


def test_stuck_roll_notice():
    """A roll none of whose dice can be used ends the turn, and the page says so
    (solo game "walk0" with the random bot's seed 0 gets stuck within a few actions)."""
    c, _, _ = make_page(bots=False)
    c.session.start(Options(("A",), "walk0", 0, False, None))
    c.page.dialog = None
    rng = random.Random(0)
    while not any(n.key == "notice.stuck" for n in c.page.notices):
        assert c.board.state.phase is not Phase.OVER
        c.play.dispatch(BOTS["random"](c.board.state, rng))
    assert any(v.key == "notice.stuck" for v in c.renderer.screen().notices)


# ---------------------------------------------------------------------------- languages


def test_language_switch_keeps_the_screen_and_translates_it():
    c, host, _ = make_page()
    c.handle("click", "close", None)
    en = c.renderer.screen()
    c.handle("click", "lang", "de")
    de = c.renderer.screen()
    assert de.lang == "de" and en.lang == "en" and host.lang == "de"
    assert de.prompt != en.prompt and de.labels["btn.rules"] != en.labels["btn.rules"]
    assert [cmd.enabled for cmd in de.commands] == [cmd.enabled for cmd in en.commands]


def test_screen_is_frozen():
    s = screen_of(PageState(), Board(Options(("A",), "f", 0, False, None)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.game = None  # type: ignore[misc]


def test_timer_is_a_fake():
    timer = FakeTimer()
    fired = []
    timer(5, lambda: fired.append(5))
    timer(1, lambda: fired.append(1))
    assert timer.run() == 2 and fired == [1, 5]


@pytest.mark.parametrize("lang", LANGS)
def test_hint_and_solo_review(lang):
    """The hint lists the expert's best actions; a finished solo game gets a review."""
    c, host, timer = make_page(langs=(lang,))
    c.handle("submit", "ng-start", None, form={"count": "1", "name0": "Ann", "seed": "rv"})
    c.handle("click", "bot-hint", None)
    s = c.renderer.screen()
    assert s.hint is not None and s.hint.best and 1 <= len(s.hint.options) <= 3
    assert 'data-testid="hint"' in host.html["turn"]  # beside the commands, in view
    for _ in range(3):  # the take is an action: the hint is for the position before it
        c.handle("click", "take", "0")
    assert c.board.actions and c.renderer.screen().hint is None
    rng = random.Random(3)
    c.page.takes = []
    while not c.board.is_game_over():
        c.play.dispatch(BOTS["greedy"](c.board.state, rng))
    c.handle("click", "dismiss", "0")
    timer.run(until=lambda: c.page.review is not None and c.page.review.done)
    review = c.renderer.screen().review
    assert review.done and review.accuracy and review.rows
    assert all(row.chosen and row.best for row in review.rows)
    html = host.html["players"]
    assert 'data-testid="review"' in html and 'data-testid="review"' not in host.html["log"]
    check_compact_review(review, html, c.board)


def check_compact_review(review: ReviewView, html: str, board: Board) -> None:
    """The review shows the accuracy, the few decisions that cost points
    (worst first), one cell per round, and every decision only on demand."""
    lost = [row for row in review.rows if row.lost]
    assert len(review.costly) == min(len(lost), COSTLY_SHOWN)
    assert all(row.lost for row in review.costly)
    losses = [float(row.loss.replace(",", ".")) for row in review.costly]
    assert losses == sorted(losses, reverse=True)
    assert not lost or losses[0] == max(float(r.loss.replace(",", ".")) for r in lost)
    assert [x.round for x in review.rounds] == sorted({row.round for row in review.rows})
    assert len(review.rounds) == board.state.round
    assert {x.round for x in review.rounds if x.lost} <= {row.round for row in lost}
    assert str(len(review.rows)) in review.all_label
    # the full list sits inside a closed <details>; up front only the costly rows
    before, details = html.split('<details class="review-all"', 1)
    assert 'data-testid="review-row"' not in before
    assert details.count('data-testid="review-row"') == len(review.rows)
    assert before.count('data-testid="review-costly"') == len(review.costly)
    assert " open" not in details.split(">", 1)[0]


@pytest.mark.parametrize("lang", LANGS)
def test_roll_is_marked_once(lang):
    """TurnView.just_rolled names the dice the roll just threw; the next event clears it,
    so the tray animates a roll once (a re-render for a selection does not replay it)."""
    c, host, _timer = make_page(langs=(lang,))
    c.handle("submit", "ng-start", None, form={"count": "1", "name0": "Ann", "seed": "jr"})
    for _ in range(3):
        c.handle("click", "take", "0")
    s = c.renderer.screen()
    assert s.game.turn.just_rolled == () and "art-rolling" not in host.html["turn"]
    c.handle("click", "roll", None)
    ids = tuple(d.id for d in c.board.state.dice)
    turn = c.renderer.screen().game.turn
    assert c.board.state.phase is not Phase.ROLL
    assert turn.just_rolled == ids and all(d.just_rolled for d in turn.tray)
    assert host.html["turn"].count("art-rolling") == len(ids)
    c.handle("click", "die", str(ids[0]))
    turn = c.renderer.screen().game.turn
    assert turn.just_rolled == () and not any(d.just_rolled for d in turn.tray)
    assert "art-rolling" not in host.html["turn"]


def test_reroll_marks_only_the_rerolled_dice():
    c, host, _timer = make_page(langs=("en",))
    c.handle("submit", "ng-start", None, form={"count": "1", "name0": "Ann", "seed": "jr2"})
    rng = random.Random(5)
    for _ in range(2000):  # greedy play until a reroll of some (not all) dice is legal
        state = c.board.state
        rolls = [a for a in c.board.legal_actions() if isinstance(a, Roll)]
        if state.phase is Phase.CONTINUE and len(state.dice) >= 2 and rolls:
            break
        c.page.takes = []
        c.play.dispatch(BOTS["greedy"](state, rng))
    else:  # pragma: no cover - the greedy bot rerolls within a game
        pytest.fail("no position with a reroll")
    first = c.board.state.dice[0].id
    c.page.selected = {first}
    c.handle("click", "roll", None)
    assert c.board.actions[-1] == Roll((first,))
    expected = (first,) if c.board.state.phase in (Phase.RESOLVE, Phase.CONTINUE) else ()
    assert c.renderer.screen().game.turn.just_rolled == expected
    assert host.html["turn"].count("art-rolling") == len(expected)


def test_the_fake_host_is_a_host_port() -> None:
    """tests/web_fakes.FakeHost implements every method of the host port (web/host_port.py),
    so the controller under test talks to what the page has."""
    import inspect

    from app.core import host_port

    wanted = {name for name, _ in inspect.getmembers(host_port.Host, inspect.isfunction)
              if not name.startswith("_")}
    missing = sorted(name for name in wanted if not callable(getattr(FakeHost, name, None)))
    assert missing == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_lone_low_rise_ground_floor_at_the_end_is_captioned_with_its_point(lang):
    """At the end an unfinished purple ground floor scores 1 (a height-1 tile): its caption
    says so; other unfinished buildings stay "unfinished" (they score nothing)."""
    for players in (1, 2, 3, 4):
        board = finished(players)
        s = screen_of(PageState(), board, lang)
        t = texts(lang).t
        html = board_view.render(s)["players"]
        for p, player in zip(s.game.players, board.state.players, strict=True):
            for col, column in zip(p.columns, player.columns, strict=True):
                low = column.kind.letter == "p"
                assert col.points_text == (t("tile.points", points=1) if low else None)
        lone = sum(c.points_text is not None for p in s.game.players for c in p.columns)
        assert html.count(f">{board_view.esc(t('tile.points', points=1))}<") >= lone
