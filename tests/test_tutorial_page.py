"""The guided first game ("Learn to play", web/tutorial.py) under CPython with the fake
host: every step in English and German, clicked through the rendered HTML as a player
would (the marked element's data-action), a wrong click, leaving, resuming after a
reload, and that the game waiting meanwhile is never touched or counted."""

from __future__ import annotations

import json
import random
import re

import pytest
from app.tutorial import guide as tut
from page_html import attrs
from web_fakes import make_page

from skyline import Build, Demolish, EndTurn, Phase, Roll, Take
from skyline.players.registry import get_bot
from skyline.records.tutorial import SAMPLE_MOVES, move_action_counts

LANGS = ("en", "de")
STORE_KEY = "skyline.settings"


def page(lang: str = "en", storage: dict[str, str] | None = None):
    c, host, _ = make_page(storage=storage, langs=(lang,), bots=False)
    return c, host


def html(host) -> str:
    return "".join(host.html.values())


def coach(c):
    view = c.renderer.screen().game.coach
    assert view is not None
    return view


def element(host, dom_id: str) -> dict[str, str]:
    pattern = r'<(?:button|select|input)\b([^>]*\bid="' + re.escape(dom_id) + r'"[^>]*)>'
    m = re.search(pattern, html(host))
    assert m is not None, dom_id
    return attrs(m.group(1))


def is_marked(host, dom_id: str) -> bool:
    """The element wears the mark (a building: its lot does)."""
    if "hinted" in element(host, dom_id).get("class", "").split():
        return True
    lot = r'<li class="[^"]*\bhinted\b[^"]*"[^>]*><button[^>]*\bid="' + re.escape(dom_id) + '"'
    return re.search(lot, html(host)) is not None


def click(c, dom_id: str) -> None:
    """Press the element as the browser would: its data-action and data-arg."""
    a = element(c.host, dom_id)
    assert "disabled" not in a, dom_id
    c.handle("click", a["data-action"], a.get("data-arg"), target_id=dom_id)


def follow(c) -> None:
    """Press the first element the step marks."""
    view = coach(c)
    assert view.marks, view.step
    click(c, min(view.marks))


def play_solo_action(c, action) -> None:
    """One engine action of the solo part as the clicks a player makes."""
    state = c.board.state
    if isinstance(action, Take):
        for t in action.types:
            click(c, f"yard-{t.letter}")
        return
    if isinstance(action, EndTurn):
        click(c, "act-end")
        return
    if isinstance(action, Roll) and state.phase is Phase.ROLL:
        click(c, "act-roll")
        return
    dice = action.dice if isinstance(action, Roll) else (action.die,)  # type: ignore[union-attr]
    for die in list(c.page.selected):
        if die not in dice:
            click(c, f"die-{die}")
    for die in dice:
        if die not in c.page.selected:
            click(c, f"die-{die}")
    if isinstance(action, Roll):
        click(c, "act-roll")
    elif isinstance(action, Build):
        click(c, "act-build")
        if c.page.choice is not None:
            click(c, f"col-0-{action.column}")
    elif isinstance(action, Demolish):
        click(c, "act-demolish")
        click(c, f"{'tile' if action.completed else 'col'}-0-{action.index}")


def run_round(c, until: str | None = None) -> list[str]:
    """Follow the marks through the sample round (to the solo part, or to ``until``);
    the steps seen, in order."""
    seen = []
    while True:
        view = coach(c)
        if not seen or seen[-1] != view.step:
            seen.append(view.step)
        if view.step in ("solo", until):
            return seen
        follow(c)


# ---------------------------------------------------------------------------- every step


@pytest.mark.parametrize("lang", LANGS)
def test_every_step_says_what_to_do_and_marks_it_in_both_languages(lang):
    c, host = page(lang)
    assert 'id="ng-learn"' in host.html["dialog"]  # the welcome offers it
    click(c, "ng-learn")
    assert c.page.dialog is None and c.session.tutorial is not None
    seen: list[str] = []
    variants: set[str] = set()
    clicks = 1
    while coach(c).step != "solo":
        view = coach(c)
        region = host.html["turn"]
        assert f'data-step="{view.step}"' in region
        # keyboard only: the focus waits on what the step wants (Enter presses it)
        focused = [f for f in host.focused if not f.startswith("reveal:")]
        assert focused[-1] in {*view.marks, "coach"}, view.step
        assert view.heading and all(view.paragraphs) and view.oops is None
        for text in (view.kicker, view.heading, *view.paragraphs):
            assert text in region.replace("&#x27;", "'")
        assert view.marks
        for mark in view.marks:
            assert mark.startswith("tutorial") or is_marked(host, mark), (view.step, mark)
        if view.step.endswith("_target"):
            variants.add(view.step)
        elif not seen or seen[-1] != view.step:
            seen.append(view.step)
        follow(c)
        clicks += 1
    round_steps = [s.key for s in tut.STEPS if s.kind in ("card", "move")]
    assert seen == round_steps
    assert variants == {"d_demolish_target"}
    # the sample round ended as the rulebook's "after" skylines
    board = c.session.tutorial.board
    assert board.state.players[0].name != "Eileen"  # the solo part's own board now
    assert clicks == 47  # Learn to play, 5 Next, 41 clicks of the sample round
    # the solo part: the player decides, the page comments (blockers, Hint)
    rng = random.Random(3)
    words: list[str] = []
    while coach(c).step == "solo":
        view = coach(c)
        words += view.paragraphs
        assert "tutorial-leave" in {b.action for b in view.buttons}
        action = get_bot("greedy")(c.board.state, rng)
        play_solo_action(c, action)
    hints = [w for w in words if w.startswith(c.session.t("tutorial.solo.hint", action="")[:8])]
    assert hints, words
    # a die that cannot be built is named with its colour, as the normal game names it
    assert not any(c.session.t("error.action.needs_column") in w for w in words)
    assert any(" unfinished " in w and "building to go on." in w for w in words) or any(
        c.session.t("tutorial.solo.all_fit") == w for w in words)
    view = coach(c)
    assert view.step == "finish" and c.board.state.round == tut.SOLO_TURNS + 1
    assert [b.action for b in view.buttons] == ["tutorial-play", "tutorial-leave"]
    click(c, "tutorial-play")
    assert c.session.tutorial is None and c.renderer.screen().game.coach is None
    assert c.page.dialog is not None  # the welcome (new-game) dialog: a real game next


def test_the_sample_round_board_reaches_the_rulebooks_after_skylines():
    c, host = page()
    click(c, "btn-learn")
    run_round(c, until="d_done")
    eileen, tim, david = c.board.state.players
    assert [(k.kind.letter, k.height) for k in eileen.columns] == [("o", 4), ("b", 2)]
    assert [(k.kind.letter, k.height) for k in tim.columns] == [("b", 2)]
    assert [(b.kind.letter, b.height) for b in david.buildings] == [("p", 2), ("b", 4), ("b", 3)]
    assert "".join(t.letter for t in c.board.state.district) == "GUP"
    assert len(c.board.actions) == move_action_counts()[-1]
    assert len(SAMPLE_MOVES) == len(tut.MOVE_KEYS)


@pytest.mark.parametrize("lang", LANGS)
def test_a_wrong_click_gets_a_friendly_word_and_changes_nothing(lang):
    c, host = page(lang)
    click(c, "btn-learn")
    follow(c)  # the intro card's Next
    assert coach(c).step == "e_take"
    before = (c.board.state, list(c.page.takes))
    click(c, "yard-G")  # Eileen wants upper floors
    view = coach(c)
    assert view.step == "e_take" and view.oops
    assert view.oops == c.session.t("tutorial.oops", what=c.session.t("tutorial.do.take"))
    assert 'data-testid="coach-oops"' in host.html["turn"]
    assert host.announced[-1] == view.oops  # said once by the live region
    assert (c.board.state, list(c.page.takes)) == before
    assert not c.page.notices  # a friendly word, not an error notice
    follow(c)
    assert coach(c).oops is None and [t.letter for t in c.page.takes] == ["U"]


def test_escape_backs_out_of_a_choice_and_the_step_asks_again():
    c, host = page()
    click(c, "btn-learn")
    run_round(c, until="d_demolish")
    follow(c)
    follow(c)  # a purple die selected, then Demolish: the target is asked for
    assert coach(c).paragraphs == (c.session.t("tutorial.step.d_demolish_target"),)
    c.handle("keydown", None, None, key="Escape")
    view = coach(c)
    assert view.paragraphs == (c.session.t("tutorial.step.d_demolish"),)
    assert view.marks == {"act-demolish"}
    follow(c)
    follow(c)
    assert coach(c).step == "d_reroll2"


def test_the_terms_the_rules_give_two_names_are_explained_once():
    en = page("en")[0]
    de = page("de")[0]
    assert "middle floor" in en.session.t("tutorial.card.intro.more")
    more = de.session.t("tutorial.card.intro.more")
    for word in ("Dach", "Penthouse", "Verlassen", "Aufgeben", "Stockwerk", "Obergeschoss"):
        assert word in more
    tables = {lang: {k: v for k, v in json.load(open(f"web/i18n/{lang}.json")).items()
                     if k.startswith("tutorial.")} for lang in LANGS}
    assert sum("Aufgeben" in v for v in tables["de"].values()) == 1
    assert sum("middle floor" in v for v in tables["en"].values()) == 1
    # the words of the rules panel's string tables: the commands and the die names
    assert "„Verlassen“" in de.session.t("tutorial.step.t_abandon")
    take = de.session.t("tutorial.step.e_take")
    assert "Stockwerk" in take and "Bauhof" in take
    assert "Upper floor" in en.session.t("tutorial.step.e_take")


# ---------------------------------------------------------------------------- the game waiting


def played_game():
    """A page with a solo game of a few moves, saved."""
    c, host = page()
    click(c, "ng-cancel")  # play the welcome's game
    click(c, "yard-G")
    click(c, "yard-G")
    click(c, "yard-U")
    click(c, "act-roll")
    return c, host


def test_leaving_puts_the_game_back_exactly_and_nothing_was_written():
    c, host = played_game()
    stored = {k: v for k, v in host.storage.items() if k != STORE_KEY}
    record, entry, state = c.board.record(), c.session.entry, c.board.state
    page_before = c.page
    click(c, "btn-learn")
    run_round(c, until="t_abandon")
    assert c.board is not None and c.board.record() != record
    assert {k: v for k, v in host.storage.items() if k != STORE_KEY} == stored
    click(c, "tutorial-leave")
    assert c.session.tutorial is None
    assert (c.board.record(), c.session.entry, c.board.state, c.page) == (record, entry, state,
                                                                  page_before)
    assert {k: v for k, v in host.storage.items() if k != STORE_KEY} == stored
    assert "tutorial" not in json.loads(host.storage[STORE_KEY])
    assert host.focused[-1] == "btn-learn"
    follow_game = c.renderer.screen()
    assert follow_game.game.coach is None and follow_game.prompt


def test_a_finished_tutorial_is_never_in_the_statistics_or_the_game_list():
    c, host = played_game()
    games = set(c.session.library.games.entries)
    click(c, "btn-learn")
    run_round(c)
    rng = random.Random(5)
    while coach(c).step == "solo":
        play_solo_action(c, get_bot("greedy")(c.board.state, rng))
    click(c, "tutorial-play")
    assert set(c.session.library.games.entries) == games
    assert "skyline.history" not in host.storage and not c.session.history.results
    assert c.page.dialog is not None and c.page.dialog.first is False  # the new-game form


def test_the_real_games_tools_leave_the_tutorial_first():
    c, host = played_game()
    record = c.board.record()
    click(c, "btn-learn")
    follow(c)
    click(c, "btn-games")
    assert c.session.tutorial is None and c.board.record() == record
    assert type(c.page.dialog).__name__ == "GamesDialog"


# ---------------------------------------------------------------------------- reload


@pytest.mark.parametrize("until", ["t_abandon", "d_demolish", "solo_intro"])
def test_a_reload_resumes_at_the_step(until):
    c, host = played_game()
    record = c.board.record()
    click(c, "btn-learn")
    run_round(c, until=until)
    state, step = c.board.state, coach(c).step
    c2, host2 = page(storage=host.storage)
    assert c2.session.tutorial is not None
    assert coach(c2).step == step and c2.board.state == state
    click(c2, "tutorial-leave")
    assert c2.board.record() == record


def test_a_reload_in_the_solo_part_keeps_its_moves():
    c, host = page()
    click(c, "btn-learn")
    run_round(c)
    rng = random.Random(7)
    for _ in range(3):
        play_solo_action(c, get_bot("greedy")(c.board.state, rng))
    record = c.board.record()
    c2, _ = page(storage=host.storage)
    assert coach(c2).step == "solo" and c2.board.record() == record


@pytest.mark.parametrize("saved", ['{"v":1,"step":999}', "not json", '{"v":1}',
                                   '{"v":1,"step":2,"solo":5}'])
def test_an_unreadable_saved_step_is_dropped(saved):
    c, host = played_game()
    record = c.board.record()
    settings = json.loads(host.storage.get(STORE_KEY, "{}"))
    host.storage[STORE_KEY] = json.dumps({**settings, "tutorial": saved})
    c2, host2 = page(storage=host.storage)
    assert c2.session.tutorial is None and c2.board.record() == record
    assert "tutorial" not in json.loads(host2.storage[STORE_KEY])


def test_learn_to_play_is_in_the_top_bar_and_the_welcome_in_both_languages():
    for lang in LANGS:
        c, host = page(lang)
        assert element(host, "btn-learn")["data-action"] == "tutorial"
        assert element(host, "ng-learn")["data-action"] == "tutorial"
        assert c.session.t("btn.learn") in host.html["topbar"]


def test_the_language_can_change_at_any_step():
    c, host = page("en")
    click(c, "btn-learn")
    run_round(c, until="t_reroll")
    click(c, "btn-lang")
    view = coach(c)
    assert view.step == "t_reroll" and view.paragraphs == (c.session.t("tutorial.step.t_reroll"),)
    assert c.texts.lang == "de" and "„Würfeln“" in view.paragraphs[0]
    assert c.session.t("tutorial.leave") in host.html["turn"]


def test_another_tabs_lock_is_about_the_game_waiting_not_the_tutorial():
    c, host = played_game()
    record = c.board.record()
    click(c, "btn-learn")
    run_round(c, until="e_roll")
    c.handle("tab", "lost", None)  # another tab takes the game over
    follow(c)
    assert coach(c).step == "e_build"  # the lesson goes on
    click(c, "tutorial-leave")
    assert c.page.readonly and c.board.record() == record
    assert any(n.key == "notice.other_tab" for n in c.page.notices)
