"""Names, words and prompts on the screen model (web/screen.py through the controller,
CPython): scenario status, forced demolition, computer and default names, plurals and
articles, slips in the string tables; in English and German."""

from __future__ import annotations

import json
import random
import re

import pytest
from app import render as board_view
from app import screen as sm
from app.controller import Controller
from app.core.i18n import Texts
from app.core.page_state import NewGameDialog, PageState
from app.core.words import unbuildable_reasons
from app.dialogs.ui import NewGameView
from web_fakes import WEB, FakeHost, make_page, tables

from skyline import (
    SCENARIOS,
    Board,
    Build,
    Demolish,
    DieType,
    EndTurn,
    Options,
    Phase,
    Seat,
    Take,
    scenario_progress,
)
from skyline.players.bots import BOTS

LANGS = ("en", "de")
TABLES = tables()


def T(lang):
    return Texts(TABLES, lang).t


def screen(page, board, lang="en"):
    s = sm.build_screen(page, board, Texts(TABLES, lang))
    board_view.render(s)
    return s


def states(players=1, scenario=None, seeds=range(40), bot="random"):
    for seed in seeds:
        board = Board(Options(tuple("ABCD"[:players]), f"i8-{seed}", 0, False, scenario))
        rng = random.Random(seed)
        while board.state.phase is not Phase.OVER:
            yield board
            board.push(BOTS[bot](board.state, rng))
        yield board


def first(predicate, **kw):
    for board in states(**kw):
        if predicate(board):
            return board.copy()
    raise AssertionError("no such position")


# ------------------------------------------------------------ 1. the scenario, all game long


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_scenario_name_goal_and_status_all_game(lang, scenario):
    t = T(lang)
    seen = 0
    for board in states(scenario=scenario, seeds=[1], bot="greedy"):
        s = screen(PageState(), board, lang)
        v = s.game.scenario
        p = scenario_progress(board.state)
        assert v.name == t("scenario." + scenario) and v.goal == t("scenario_goal." + scenario)
        assert t("scenario_status." + scenario, n=p.count) in v.status
        assert v.met == p.met and v.settled == p.settled
        assert v.name in board_view.render(s)["turn"] or board.is_game_over()
        seen += 1
    assert seen > 10


def test_scenario_status_texts():
    t = T("en")
    board = Board(Options(("A",), "dx", 0, False, "dubai"))
    assert screen(PageState(), board).game.scenario.text == (
        "Scenario Dubai – at least three buildings of height 3: none so far")
    board = Board(Options(("A",), "dx", 0, False, "essen"))
    assert screen(PageState(), board, "de").game.scenario.status == "bisher kein Abriss"
    essen = first(lambda b: b.state.players[0].demolitions == 1 and not b.is_game_over(),
                  scenario="essen")
    v = screen(PageState(), essen).game.scenario
    assert v.status == t("scenario_status.missed", status="1 demolition") and v.settled
    assert screen(PageState(), Board(Options(("A",), "x"))).game.scenario is None


# ------------------------------------------------------------ 2. a forced demolition, explained


def forced(b):
    st = b.state
    return (st.phase is Phase.RESOLVE and st.solo
            and not any(isinstance(a, Build) for a in b.legal_actions())
            and any(isinstance(a, Demolish) for a in b.legal_actions()))


@pytest.mark.parametrize("lang", LANGS)
def test_forced_demolition_says_why_and_what_to_do(lang):
    t = T(lang)
    board = first(forced)
    s = screen(PageState(), board, lang)
    reasons = unbuildable_reasons(t, board.state)
    assert reasons and s.prompt == t("prompt.must_demolish", reasons=reasons)
    assert t("btn.demolish") in s.prompt and t("btn.abandon") not in s.prompt
    for die in board.state.dice:  # every die kind is named with its reason
        assert t("dieword_the." + die.type.letter + die.face.letter) in reasons
    build = s.command("build")
    assert build.reason_key == "why.nothing_buildable"
    assert s.command("demolish").reason_key == "why.select"
    # the reasons are on the screen, not only in a tooltip
    turn = board_view.render(s)["turn"]
    assert 'data-testid="why"' in turn
    for cmd in s.commands:
        if not cmd.enabled:
            assert any(cmd.name in names and cmd.reason in line for names, line in s.game.turn.why)
    assert re.sub(r"<[^>]+>", "", turn).count(t("why.nothing_buildable")) == 1
    # selecting a die: Build still says nothing can be built, Demolish is enabled
    s = screen(PageState(selected={board.state.dice[0].id}), board, lang)
    assert s.command("build").reason_key == "why.nothing_buildable"
    assert s.command("demolish").enabled


def test_no_build_in_a_game_of_several_names_abandon():
    board = first(lambda b: b.state.phase is Phase.RESOLVE and not any(
        isinstance(a, Build) for a in b.legal_actions()), players=2)
    t = T("en")
    s = screen(PageState(), board)
    assert s.prompt.startswith("Nothing can be built: ") and "Abandon" in s.prompt
    assert s.prompt == t("prompt.no_build", reasons=unbuildable_reasons(t, board.state))


# ------------------------------------------------------------ 3. no Abandon in the solo prompt


@pytest.mark.parametrize("lang", LANGS)
def test_solo_prompt_does_not_name_abandon(lang):
    t = T(lang)
    solo = first(lambda b: b.state.phase is Phase.RESOLVE and not forced(b))
    s = screen(PageState(), solo, lang)
    assert s.prompt == t("prompt.resolve_solo") and t("btn.abandon") not in s.prompt
    duo = first(lambda b: b.state.phase is Phase.RESOLVE and any(
        isinstance(a, Build) for a in b.legal_actions()), players=2)
    assert t("btn.abandon") in screen(PageState(), duo, lang).prompt


# ------------------------------------------------------------ 4. Hint with every die used


@pytest.mark.parametrize("lang", LANGS)
def test_hint_points_to_end_turn_when_every_die_is_used(lang):
    board = first(lambda b: b.state.phase is Phase.CONTINUE and not b.state.dice)
    c, host, _ = make_page(langs=(lang,))
    c.session.set_board(board)
    c.page.dialog = None
    c.handle("click", "bot-hint", None)
    s = c.renderer.screen()
    assert s.hint is not None and s.hint.best is None
    assert s.hint.note == T(lang)("hint.only_end")
    assert T(lang)("btn.end_turn") in s.hint.note
    assert s.hint.note in host.html["turn"]


# ------------------------------------------------------------ 5. computer seats


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("level", ["beginner", "greedy", "expert"])
def test_computer_seat_is_named_by_level_and_marked(lang, level):
    t = T(lang)
    c, host, timer = make_page(langs=(lang,))
    c.handle("click", "newgame", None)
    c.handle("change", "ng-change", None, form={"count": "2", "seat1": level})
    shown = c.renderer.screen().dialog.names
    assert shown[1].value == t("seat.level." + level)  # the dialog pre-fills the level
    form = {"count": "2", "name0": shown[0].value, "name1": shown[1].value, "seat1": level,
            "seed": "lv", "start": "1"}
    c.handle("submit", "ng-start", None, form=form)
    s = c.renderer.screen()
    word = t("seat.level." + level)
    assert s.players[1].name == word and s.players[1].computer == t("seat.bot." + level)
    assert s.players[0].computer is None
    assert s.prompt == t("prompt.waiting", name=word)
    assert "Player" not in s.prompt and "Spieler" not in s.prompt
    assert s.status.turn == t("status.turn_computer", name=word)
    assert s.bot_bar.text == t("bot.playing_level", level=word)
    assert 'data-testid="bot-badge"' in host.html["players"]
    # bot bar and Hint are in the turn panel, beside the commands (in view)
    assert 'data-testid="bot-bar"' in host.html["turn"]
    other = "de" if lang == "en" else "en"
    c.handle("click", "lang", other)
    assert c.renderer.screen().players[1].name == T(other)("seat.level." + level)


def test_two_computers_of_one_level_get_numbers():
    c, _, _ = make_page()
    c.handle("submit", "ng-start", None, form={
        "count": "3", "name0": "Ann", "name1": "Player 2", "name2": "Player 3",
        "seat1": "greedy", "seat2": "greedy", "seed": "gg"})
    assert [p.name for p in c.renderer.screen().players] == ["Ann", "Greedy 2", "Greedy 3"]


# ------------------------------------------------------------ 6. no put-back on a computer's dice


def test_computer_dice_have_no_put_back():
    board = Board(Options(("Ann", "Robo"), "pb", 1, False, None))
    board.push(Take((DieType.GROUND, DieType.UPPER, DieType.PENTHOUSE)))
    human = screen(PageState(), board)
    assert all(d.put_back for d in human.dice)
    computer = screen(PageState(seats={1: Seat.computer("expert")}), board)
    assert all(d.put_back is None for d in computer.dice)
    assert 'data-action="untake"' not in board_view.render(computer)["turn"]


# ------------------------------------------------------------ 7. language leftovers and slips


@pytest.mark.parametrize("lang", LANGS)
def test_default_names_follow_the_language(lang):
    other = "de" if lang == "en" else "en"
    c, host, _ = make_page(langs=(lang,))
    c.handle("click", "close", None)
    c.handle("click", "lang", other)
    t = T(other)
    s = c.renderer.screen()
    assert s.players[0].name == t("newgame.default_name", n=1)
    assert s.players[0].label == t("player.label", name=t("newgame.default_name", n=1))
    c.handle("click", "newgame", None)
    assert c.renderer.screen().dialog.names[0].value == t("newgame.default_name", n=1)
    # a typed name stays as typed
    c.handle("submit", "ng-start", None, form={"count": "1", "name0": "Zoë", "seed": "n"})
    c.handle("click", "lang", lang)
    assert c.renderer.screen().players[0].name == "Zoë"


def test_default_names_arriving_by_link_or_save_are_localized():
    c, host, _ = make_page(langs=("en",))
    c.handle("click", "close", None)
    c.handle("hashchange", None, "#play?p=Spieler%201,Bo&seed=abc")
    assert [p.name for p in c.renderer.screen().players] == ["Player 1", "Bo"]
    again = Controller(FakeHost(dict(host.storage)), TABLES, ("de",))
    again.boot()
    again.handle("click", "lang", "de")
    assert [p.name for p in again.renderer.screen().players] == ["Spieler 1", "Bo"]


@pytest.mark.parametrize("lang", LANGS)
def test_plurals_and_units(lang):
    t = T(lang)
    assert "(s)" not in t("score.discarded", n=1) + t("score.discarded", n=2)
    assert t("score.discarded", n=1) != t("score.discarded", n=2).replace("2", "1")
    assert t("player.score", score=1) != t("player.score", score=2).replace("2", "1") or \
        lang == "xx"
    assert t("log.end_turn", name="A", n=0).rstrip(".").endswith(
        "ends the turn" if lang == "en" else "beendet den Zug")
    assert ":" not in t("log.end_turn", name="A", n=0)
    board = Board(Options(("A",), "u", 0, False, None))
    s = screen(PageState(), board, lang)
    html = board_view.render(s)["players"]
    unit = t("player.points_short", n=0)
    assert f"0\u202f<small>{unit}</small>" in html
    if lang == "de":
        assert unit == "Pkt." and "0P." not in html


def test_articles_in_log_and_hints():
    en, de = T("en"), T("de")
    assert en("log.build", name="A", die=en("dieword_a.Go"), height=1) == \
        "A builds an orange ground floor (floor 1)."
    assert en("dieword_a.Up") == "a purple upper floor"
    assert de("hint.demolish", die=de("dieword_with.Px"), what="x") == \
        "Reiß mit einem leeren Dach ab: x"
    board = first(lambda b: b.actions and isinstance(b.actions[-1], Build))
    s = screen(PageState(), board)
    assert not any(re.search(r"\ba [aeiou]", e.text) for e in s.log.entries)


def test_dialog_seed_and_start_are_german():
    s = screen(PageState(dialog=NewGameDialog(count=2, names=[None] * 4)), None, "de")
    d = board_view.render(s)["dialog"]
    assert "Seed" not in d and "Startwert (optional)" in d
    assert "Zufällig (aus dem Startwert)" in d
    assert [f.value for f in s.dialog.names] == ["Spieler 1", "Spieler 2"]


# Values that stay the same in both languages on purpose (names, symbols, loan words).
SAME_IN_BOTH = {
    "app.title", "scenario.dubai", "scenario.essen", "scenario.new-york", "scenario.sao-paolo",
    "scenario.shanghai", "scenario.toronto", "scenario.tucson", "share.link", "why.line",
    "seat.bot_name", "rules.meta", "rules.card.points", "tile.points|one",
    "player.points_short|one", "score.completed_n|one", "newgame.count_solo",
    "scenario_status.line", "stats.mode.solo", "games.name", "hint.option",
    "tutorial.solo.blocked", "daily.share_line", "stats.rating.level", "last.short",
}
ENGLISH_WORDS = re.compile(r"\b(the|and|of|with|Player|Seed|points?|buildings?|dice|turn|"
                           r"Build|Roll|Abandon|Demolish|Undo)\b")


def test_string_tables_have_no_slips():
    en = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
    de = json.loads((WEB / "i18n" / "de.json").read_text(encoding="utf-8"))
    assert en.keys() == de.keys()
    for key in en:
        assert "(s)" not in en[key] and "(n)" not in de[key], key
        assert not re.search(r"\ban? \{", en[key]), f"{key}: article before a placeholder"
        assert not re.search(r"\ba ([aeiAEI]|[oO](?!ne))", en[key]), key  # "a one-player" ok
        assert not re.search(r"\ban [b-df-hj-np-tv-z]", en[key]), key
        if key not in SAME_IN_BOTH and not key.startswith(("rules.", "loading.")):
            assert de[key] != en[key] or not re.search("[a-z]{3}", en[key]), key
        assert not ENGLISH_WORDS.search(re.sub(r"\{[^}]*\}", "", de[key])), (key, de[key])
        # variants exist only beside their base key
        if "|" in key:
            assert key.split("|")[0] in en, key
    assert "Reiß mit leeres" not in json.dumps(de, ensure_ascii=False)


GLOSSARY = WEB.parent / "docs" / "glossary.md"
# the rule texts (the rules panel, as written) and the two notes that name their words
NOT_THE_GAMES_OWN = ("rules.",)
NAMES_THE_OTHER_WORDS = ("tutorial.card.intro.more",)


def glossary() -> dict[str, list[tuple[str, re.Pattern[str]]]]:
    """docs/glossary.md's tables: per language, (the game's word, a pattern of a word the
    rule texts also say for the same thing)."""
    out: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
    lang = ""
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            lang = {"English": "en", "Deutsch": "de"}[line[3:].strip()]
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if not lang or len(cells) != 3 or cells[0] in ("thing", "---"):
            continue
        for other in cells[2].split(","):
            word = other.strip()
            # the word and its endings ("Obergeschosse", "columns"); "-stöckig" also
            # inside a word ("sechsstöckiges")
            start = r"\w*" if word.startswith("-") else r"\b"
            pattern = start + re.escape(word.lstrip("-")) + r"\w{0,2}\b"
            out.setdefault(lang, []).append((cells[1], re.compile(pattern, re.I)))
    return out


def test_the_games_own_words_are_the_glossarys():
    """One word per thing (docs/glossary.md): no text of the game's own uses a word that
    the glossary gives as the rule texts' other word for a thing, and every word the game
    says is in its string table."""
    words = glossary()
    assert set(words) == {"en", "de"} and all(len(rows) >= 3 for rows in words.values())
    for lang, rows in words.items():
        table = TABLES[lang]
        own = {key: text for key, text in table.items()
               if not key.startswith(NOT_THE_GAMES_OWN) and key not in NAMES_THE_OTHER_WORDS}
        for said, other in rows:
            assert any(said.lower() in text.lower() for text in own.values()), (lang, said)
            slips = [(key, text) for key, text in own.items() if other.search(text)]
            assert slips == [], (lang, other.pattern, slips)


def test_the_glossary_check_finds_the_other_words():
    """The check above refuses what it should: a word, its endings, a word's ending."""
    german = glossary()["de"]
    storeys = next(p for said, p in german if said == "Etage")
    assert storeys.search("ein sechsstöckiges Hochhaus")
    assert not storeys.search("ein lila Stockwerk")
    assert dict(german)["Verlassen"].search("Aufgeben: Lege Würfel ins Viertel")
    assert dict(german)["Stockwerk"].search("zwei Obergeschosse")
    english = dict(glossary()["en"])
    assert english["unfinished building"].search("click a column")
    assert english["unfinished building"].search("two columns")
    assert not english["unfinished building"].search("columnist")  # a word, not a part


# ------------------------------------------------------------ 9. a bad link on a first visit


@pytest.mark.parametrize("lang", LANGS)
def test_bad_link_on_first_visit_is_shown_in_the_welcome_dialog(lang):
    t = T(lang)
    c, host, _ = make_page(fragment="#play?p=Ann&seed=bad!seed", langs=(lang,))
    d = c.renderer.screen().dialog
    assert isinstance(d, NewGameView) and d.first
    assert d.notice == t("error.option.seed")
    assert 'data-testid="dialog-notice"' in host.html["dialog"]
    unchanged = t("notice.bad_link", reason="").split(": ")[-1].strip()
    assert unchanged not in host.html["dialog"] + host.html["notices"]
    assert not c.page.notices


@pytest.mark.parametrize("fragment", ["#garbage<script>alert(1)</script>",
                                      "#garbage%3Cscript%3E",
                                      "#play?p=Ann&seed=garbage%3Cscript%3E",
                                      "#play?p=Ann&seed=x<script>"])
def test_markup_and_non_links_are_reported_as_damaged_links(fragment):
    t = T("en")
    c, host, _ = make_page(fragment=fragment)
    assert c.renderer.screen().dialog.notice == t("error.option.malformed")
    # with a game in progress: a notice, the game unchanged
    c.handle("click", "close", None)
    c.handle("click", "take", "0")
    c.handle("hashchange", None, fragment)
    texts = [n.text for n in c.renderer.screen().notices]
    assert t("notice.bad_link", reason=t("error.option.malformed")) in texts
    assert c.page.takes


def test_names_with_markup_in_a_link_are_still_names():
    c, _, _ = make_page(fragment="#play?p=%3Cimg%20src%3Dx%3E&seed=ok")
    assert c.board.options.names == ("<img src=x>",)


def test_end_turn_only_legal_action_is_end():
    board = first(lambda b: b.state.phase is Phase.CONTINUE and not b.state.dice)
    assert [type(a) for a in board.legal_actions()] == [EndTurn]


@pytest.mark.parametrize("lang", LANGS)
def test_the_start_player_menu_follows_the_names_as_they_are_typed(lang):
    """A name typed (or a seat changed) in the new-game dialog is sent on change, and the
    start-player menu names the players as they are now, without another redraw."""
    t = T(lang)
    c, host, timer = make_page(langs=(lang,))
    c.handle("click", "newgame", None)
    c.handle("change", "ng-change", None, form={"count": "2"})
    html = host.html["dialog"]
    assert re.search(r'<input name="name0"[^>]*data-action="ng-change"', html)
    assert re.search(r'<select name="seat1"[^>]*data-action="ng-change"', html)
    before = [o.label for o in c.renderer.screen().dialog.start_options]
    assert before[1:] == [t("newgame.default_name", n=1), t("newgame.default_name", n=2)]
    c.handle("change", "ng-change", None, form={"count": "2", "name0": "Ada", "seat1": "expert"})
    after = [o.label for o in c.renderer.screen().dialog.start_options]
    assert after == [before[0], "Ada", t("seat.level.expert")]
    assert ">Ada</option>" in host.html["dialog"]


def test_a_change_leaves_the_focus_where_the_player_went():
    """A field sends its change when the player leaves it (Tab to the next name): the
    render that answers puts no focus back on the field left behind."""
    c, host, _ = make_page()
    c.handle("click", "newgame", None)
    host.focused.clear()
    c.handle("change", "ng-change", None, form={"count": "2", "name0": "Ada"},
             target_id="ng-name0")
    assert "ng-name0" not in host.focused
    assert ">Ada</option>" in host.html["dialog"]
