"""The words and numbers the page says, checked under CPython with the fake host, in
English and German: one building count (the engine's) in the top bar, the skylines'
captions and the final scoring; a last-turn line whose points add up to the score
change and whose floors are the dice placed; Learn to play naming the colour a die
cannot be built on; solo games in the game list named by what they are; the start
player's menu following the names typed; the review's turning points told from the
reader's side; no text the review and Hint build running two parts together; plain
words for the link's length and a stale link; and the rules panel saying once which
words of the rule texts mean the same."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from app import render as board_view
from app import screen as sm
from app.computer.view import TableReviewView
from app.core.i18n import Texts
from app.core.words import blocked_dice, percent, read_summary
from app.dialogs import rules_panel
from app.games.state import SendDialog
from page_html import attrs
from web_fakes import make_page, start_game, tables

from skyline import Phase, completed_count
from skyline.players.bots import get_bot

LANGS = ("en", "de")
TABLES = tables()
DAY = "2026-12-01"  # the fake host's local day


def texts(lang: str) -> Texts:
    return Texts(TABLES, lang)


def play(c, timer=None, bot: str = "greedy", until=None, seed: int = 1) -> None:
    """Play the open game with ``bot``'s choices for every seat here (computer seats by
    the page's own ``timer``) until ``until(c)`` or the end."""
    rng = random.Random(seed)
    for _ in range(3000):
        if c.board.is_game_over() or (until is not None and until(c)):
            return
        if c.computer_turn():
            assert timer is not None
            c.computer.wake()
            timer.run(until=lambda: not c.computer_turn() or c.board.is_game_over())
            continue
        assert c.play.dispatch(get_bot(bot)(c.board.state, rng))
    raise AssertionError("the game never ended")


def page(lang: str, bots: bool = False):
    return make_page(langs=(lang,), bots=bots)


def turn_starts(c, bot: str, seed: int) -> Iterator[None]:
    """Play a game of people here, stopping at the start of every turn but the first."""
    rng = random.Random(seed)
    first = True
    while not c.board.is_game_over():
        state = c.board.state
        if state.phase is Phase.TAKE and not c.page.takes and not first:
            c.session.render()
            yield
        first = False
        action = (rng.choice(c.board.legal_actions()) if bot == "random"
                  else get_bot(bot)(state, rng))
        assert c.play.dispatch(action)


# ---------------------------------------------------------------------------- one count


@pytest.mark.parametrize("lang", LANGS)
def test_the_building_count_is_the_final_scorings_all_game(lang):
    """The top bar counts buildings as the final scoring does (the engine's
    completed_count: a lone low-rise ground floor is a building, as it is a point)."""
    c, host, _ = page(lang)
    t = texts(lang).t
    start_game(c, ("Ann", "Bo"), ("human", "human"), "count2")
    lone = False
    for _ in turn_starts(c, "greedy", 2):
        for view, player in zip(c.renderer.screen().players, c.board.state.players, strict=True):
            assert view.buildings == completed_count(player)
            assert t("scoreboard.buildings", n=view.buildings) in view.summary
            lone |= view.buildings > len(player.buildings)
        shown = re.findall(r'<span class="sb-bldg">(\d+)</span>', host.html["topbar"])
        assert shown == [str(completed_count(p)) for p in c.board.state.players]
    assert lone, "no lone low-rise ground floor stood at a turn's start"
    c.session.render()
    screen = c.renderer.screen()
    final = {row.seat: row.completed for row in screen.scoring.rows}
    for view in screen.players:
        assert final[view.seat] == t("score.completed_n", n=view.buildings)


CARD = re.compile(r'<section class="player[^"]*"[^>]*data-testid="player-(\d+)".*?</section>', re.S)
CAPTION = re.compile(r'<span class="art-cap" aria-hidden="true">([^<]*)</span>')
SHAPES = (  # (names, seats, bot for the people's moves, seed): every shape of table
    (("Ann",), ("human",), "greedy", 3),
    (("Ann", "Bo"), ("human", "human"), "random", 4),
    (("Ann", "Bo", "Cy"), ("human", "human", "human"), "greedy", 5),
    (("Ann", "Bo", "Cy", "Di"), ("human", "human", "human", "human"), "random", 6),
)


def captions_add_up(c, host, t) -> bool:
    """Every skyline's captions against the engine's scoring: the numbers they show add
    up to the seat's score, as many buildings carry one as the count says, and every
    other building says "unfinished". True if a lone low-rise ground floor stood."""
    lone = False
    cards = {int(seat): CAPTION.findall(card.group(0))
             for card in CARD.finditer(host.html["players"]) for seat in [card.group(1)]}
    scores = c.board.scores()
    for seat, player in enumerate(c.board.state.players):
        caps = cards[seat]
        points = [cap for cap in caps if cap != t("art.unfinished_cap")]
        assert sum(int(re.sub(r"\D", "", cap)) for cap in points) == scores[seat], caps
        assert len(points) == completed_count(player), caps
        assert len(caps) == len(player.buildings) + len(player.columns)
        lone |= completed_count(player) > len(player.buildings)
    return lone


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("shape", SHAPES, ids=lambda shape: f"{len(shape[0])}p")
def test_every_caption_says_what_the_final_scoring_makes_of_it(lang, shape):
    """A skyline's captions agree with its score and the top bar's count at every turn's
    start and at the end: a lone low-rise ground floor is captioned with its point, as
    the final scoring counts it, not "unfinished"."""
    names, seats, bot, seed = shape
    c, host, _ = page(lang)
    t = texts(lang).t
    start_game(c, names, seats, f"captions{len(names)}")
    lone = False
    for _ in turn_starts(c, bot, seed):
        lone |= captions_add_up(c, host, t)
    c.session.render()
    captions_add_up(c, host, t)
    assert lone, "no lone low-rise ground floor stood at a turn's start"


# ---------------------------------------------------------------------------- last turn


def bracketed(line: str) -> list[int]:
    return [int(n) for n in re.findall(r"\(([+-]\d+)\)", line)]


@pytest.mark.parametrize("lang", LANGS)
def test_the_last_turn_line_adds_up_to_the_score_change(lang):
    """On every line of what the rivals did since the player to move last played (one
    per rival after the first round): the points in brackets add up to that turn's
    change in score (a completion's points and, apart, the point of a lone low-rise
    ground floor built on or demolished), the line's total says the same, and "built N
    floors" counts every die placed."""
    t = texts(lang).t
    kinds: set[str] = set()
    for count, bot, seed in ((2, "greedy", 7), (3, "random", 8), (4, "greedy", 9)):
        c, _, _ = page(lang)
        start_game(c, ("Ann", "Bo", "Cy", "Dee")[:count], ("human",) * count, f"sum{count}")
        for _ in turn_starts(c, bot, seed):
            reports = c.board.turns_since(c.board.state.seat)
            lines = c.renderer.screen().game.last_turns
            assert [line.seat for line in lines] == [r.seat for r in reports]
            if c.board.state.round > 1:
                assert len(lines) == count - 1
            for report, last in zip(reports, lines, strict=True):
                line = last.text
                assert sum(bracketed(line)) == report.points, line
                assert t("last.points", n=report.points, signed=f"{report.points:+d}") in line
                builds = sum(1 for e in report.events if e["event"] == "build")
                assert (t("last.floors", n=builds) if builds else t("last.nothing")) in line
                if builds:
                    kinds.add("built")
                if any(n < 0 for n in bracketed(line)):
                    kinds.add("lost")
                if any("completed" in e for e in report.events if e["event"] == "build"):
                    kinds.add("completed")
    assert kinds == {"built", "lost", "completed"}


# ---------------------------------------------------------------------------- learn to play


@pytest.mark.parametrize("lang", LANGS)
def test_learn_to_play_names_the_colour_a_die_cannot_be_built_on(lang):
    """The solo part says why a die cannot be built as the normal game does: no
    unfinished building of *its* colour (the player has an orange one)."""
    from test_tutorial_page import click, coach, run_round

    c, _, _ = page(lang)
    click(c, "btn-learn")
    run_round(c)
    for _ in range(3):
        click(c, "yard-U")
    click(c, "act-roll")
    state = c.board.state
    assert [col.kind.letter for col in state.players[0].columns] == ["o"]
    blocked = blocked_dice(c.session.t, state)
    assert blocked and len(blocked) == len(state.dice)  # none of them is orange
    paragraphs = coach(c).paragraphs
    for reason in blocked:
        assert reason[:1].upper() + reason[1:] + "." in paragraphs
    assert all(c.session.t("error.action.needs_column") not in p for p in paragraphs)
    colour = c.session.t("dieword_the.Ub").split()[-2]  # "blue" / "blaue"
    assert any(colour in p for p in paragraphs)


def test_what_the_player_reads_says_building_not_tower():
    """Every text the player reads says "building" ("Gebäude"); only the rule texts keep
    their own words (the rules panel)."""
    for lang, word in (("en", "tower"), ("de", "turm")):
        slips = [key for key, text in TABLES[lang].items()
                 if word in text.lower() and not key.startswith("rules.")]
        assert slips == [], (lang, slips)


# ---------------------------------------------------------------------------- game list


@pytest.mark.parametrize("lang", LANGS)
def test_the_game_list_names_solo_games_by_what_they_are(lang):
    c, host, _ = page(lang)
    t = texts(lang).t
    start_game(c, ("Ann", "Bo"), ("human", "human"), "list2")
    play(c, until=lambda c: len(c.board.actions) > 20)
    default = t("newgame.default_name", n=1)
    start_game(c, (default,), ("human",), "list-solo")
    play(c)
    c.handle("click", "newgame", None)
    c.handle("submit", "ng-start", None, form={"count": "1", "name0": default,
                                                "seed": "list-sc", "scenario": "dubai"})
    play(c, until=lambda c: c.board.state.round > 2)
    c.handle("click", "daily", None)
    c.handle("click", "daily-accept", None)
    play(c)
    c.handle("click", "games", None)
    rows = {row.name: row for row in c.renderer.screen().dialog.rows}
    daily, solo = t("daily.title_day", day=DAY), t("games.solo")
    scenario = t("games.solo_scenario", scenario=t("scenario.dubai"))
    assert set(rows) == {"Ann, Bo", daily, solo, scenario}
    for name in (daily, solo):  # finished: the score and the level reached, no winner
        row = rows[name]
        game = next(e for e in c.session.library.games.ordered() if e.id == row.id)
        summary = read_summary(game.board.state)
        score = summary.players[0].score
        level = (t("games.level", level=t("level." + summary.level)) if summary.level
                 else t("games.no_level"))
        assert row.finished and row.turn == t("games.solo_over", score=score, level=level)
    row = rows[scenario]
    game = next(e for e in c.session.library.games.ordered() if e.id == row.id)
    assert row.turn == t("games.solo_so_far", score=game.board.scores()[0])
    assert rows["Ann, Bo"].turn.startswith(t("games.to_move").split("{")[0])
    html = host.html["dialog"]
    assert f'aria-label="{board_view.esc(t("games.open_label", name=solo))}"' in html


# ---------------------------------------------------------------------------- new game


@pytest.mark.parametrize("lang", LANGS)
def test_the_start_player_menu_follows_the_names_typed(lang):
    c, host, _ = page(lang)
    t = texts(lang).t
    c.handle("click", "newgame", None)
    c.handle("change", "ng-change", None, form={"count": "3"})
    menu = re.search(r'<select name="start" id="ng-start">(.*?)</select>', host.html["dialog"])
    assert [attrs(o)["value"] for o in re.findall(r"<option\b([^>]*)>", menu.group(1))] == [
        "r", "0", "1", "2"]
    assert menu.group(1).count(f">{t('newgame.default_name', n=1)}</option>") == 1
    focused = list(host.focused)
    c.handle("change", "ng-change", None, target_id="ng-name0",
             form={"count": "3", "name0": "Ada", "name1": "Bo", "seat2": "expert",
                   "start": "0"})
    menu = [o.label for o in c.renderer.screen().dialog.start_options]
    assert menu == [t("newgame.start_random"), "Ada", "Bo", t("seat.level.expert")]
    assert ">Ada</option>" in host.html["dialog"]
    assert host.focused == focused  # the focus stays where the player took it (Tab on)


# ---------------------------------------------------------------------------- review


def reviewed(c, timer) -> TableReviewView:
    c.computer.wake()
    timer.run(until=lambda: c.page.table_review is not None
              and c.page.table_review.result is not None)
    view = c.renderer.screen().table_review
    assert view is not None and view.done
    return view


@pytest.mark.parametrize("lang", LANGS)
def test_turning_points_are_told_from_the_readers_side(lang):
    """Against the computer the turning points are the turns that moved *your* chance the
    most, with your chance; on your own turn "you"; several people here read each one's."""
    t = texts(lang).t
    c, _, timer = page(lang, bots=True)
    start_game(c, ("Ann", "Robo"), ("human", "expert"), "tp1")
    play(c, timer)
    view = reviewed(c, timer)
    review = c.page.table_review.result
    turns = review.turning_points_for((0,))
    assert turns and len(view.turning) == len(turns)
    own = t("table_review.turning_own").split("{parts}")[0].split(":")[1].strip()
    for line, turn in zip(view.turning, turns, strict=True):
        before, after = percent(lang, turn.before[0]), percent(lang, turn.after[0])
        key = "table_review.turning_own" if turn.seat == 0 else "table_review.turning_yours"
        mine = t(key).split("(")[-1].split(":")[0]  # "your chance of winning"
        assert f"({mine}: {before}" in line and f"{after}" in line, line
        assert (f": {own} " in line) == (turn.seat == 0), line
        assert "Robo" not in line.split("(")[-1]
    # the engine picks them by the reader's chance (the winner's are another matter)
    moved = sorted((abs(x.change(0)) for x in review.turns), reverse=True)
    assert min(abs(x.change(0)) for x in turns) >= moved[len(turns) - 1]
    assert review.turning_points == review.turning_points_for(review.winners[:1])
    # pass-and-play: each person's chance, by name
    c, _, timer = page(lang, bots=True)
    start_game(c, ("Ann", "Bo"), ("human", "human"), "tp2")
    play(c, timer)
    for line in reviewed(c, timer).turning:
        chances = line.split("(")[-1]
        assert "Ann " in chances and "Bo " in chances, line


# ---------------------------------------------------------------------------- separators

OPEN, CLOSE = "\ue000", "\ue001"  # around every text t() makes
PARAM_OPEN, PARAM_CLOSE = "\ue002", "\ue003"  # around every text put into a template
STOPS = ".!?:;…"
BLOCK = re.compile(r"</?(?:p|li|ol|ul|td|th|tr|thead|tbody|table|div|section|details|summary|"
                   r"h\d|header|figure|figcaption|br|dialog)\b[^>]*>")
INLINE = re.compile(r"<[^>]*>")


class MarkedTexts(Texts):
    """Texts whose every output is marked: where code joins two of them (not a template,
    whose parameters carry their own marks), the marks of the two meet."""

    def t(self, key: str, /, **params: object) -> str:
        marked = {k: PARAM_OPEN + v + PARAM_CLOSE if isinstance(v, str) else v
                  for k, v in params.items()}
        return OPEN + super().t(key, **marked) + CLOSE


def run_together(text: str) -> list[str]:
    """Two texts joined by code with nothing but a space (or nothing) between, the first
    not ending a sentence: "Build the blue penthouse (floor 3) Completed a building"."""
    out = []
    for m in re.finditer(re.escape(CLOSE) + r"\s*" + re.escape(OPEN), text):
        before = text[: m.start()].rstrip(OPEN + CLOSE + PARAM_OPEN + PARAM_CLOSE)
        if before and before[-1] not in STOPS:
            plain = re.sub("[\ue000-\ue003]", "", text)
            out.append(plain)
    return out


def strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if hasattr(value, "__dataclass_fields__"):
        return [s for name in value.__dataclass_fields__ for s in strings(getattr(value, name))]
    if isinstance(value, tuple | list):
        return [s for v in value for s in strings(v)]
    return []


def shown_texts(html: str) -> list[str]:
    """The text of the page as read, block by block (inline tags join their words)."""
    return [INLINE.sub("", part) for part in BLOCK.split(html)]


def check_separators(c, lang: str) -> int:
    """The hint, the reviews and the last-turn line of the page as it is now, every text
    made with marked texts: none runs two parts together, on the screen model nor in the
    HTML the view makes of it. Returns how many texts were looked at."""
    marked = MarkedTexts(TABLES, lang)
    screen = sm.build_screen(c.page, c.board, marked)
    game = screen.game
    parts = (game.hint, game.review, game.table_review, *game.last_turns)
    texts_ = [s for part in parts if part is not None for s in strings(part)]
    html = board_view.render(screen)
    regions = html.get("turn", "") + html.get("players", "")
    blocks = re.findall(r'<div class="hint".*?</ol></div>|<section class="review.*?</section>',
                        regions, re.S)
    texts_ += [s for block in blocks for s in shown_texts(block)]
    bad = [x for s in texts_ for x in run_together(s)]
    assert bad == [], bad[:3]
    return len(texts_)


@pytest.mark.parametrize("lang", LANGS)
def test_no_text_the_hint_and_the_reviews_build_runs_two_parts_together(lang):
    """At every decision of a solo game (Hint shown), in a scenario game, in both reviews
    and on every last-turn line: every text has a separator between its parts."""
    t = texts(lang).t
    seen = 0
    hint_words: list[str] = []
    for scenario, seed in (("", "sep1"), ("tucson", "sep2")):
        c, _, timer = page(lang, bots=True)
        c.handle("submit", "ng-start", None, form={"count": "1", "name0": "Ann", "seed": seed,
                                                    "scenario": scenario})
        rng = random.Random(4)
        while not c.board.is_game_over():
            c.handle("click", "bot-hint", None)
            if c.renderer.screen().hint is not None:
                seen += check_separators(c, lang)
                hint_words += c.renderer.screen().hint.lines
            c.page.takes = []
            assert c.play.dispatch(get_bot("greedy")(c.board.state, rng))
        c.computer.wake()
        timer.run(until=lambda c=c: c.page.review is not None and c.page.review.done)
        assert c.renderer.screen().review.done
        seen += check_separators(c, lang)
    completes = t("hint.build_completes").split("{die}")[0]
    assert any(completes in w for w in hint_words)  # a build that completes, in one text
    assert any(t("hint.option").split("{value}")[0].split("}")[-1] in w for w in hint_words)
    c, _, timer = page(lang, bots=True)
    start_game(c, ("Ann", "Bo"), ("human", "human"), "sep3")
    for _ in turn_starts(c, "greedy", 5):
        seen += check_separators(c, lang)
    reviewed(c, timer)
    seen += check_separators(c, lang)
    assert seen > 500


def test_the_separator_check_finds_parts_run_together():
    """The check itself: the hint list and the build text as they were."""
    marked = MarkedTexts(TABLES, "en")
    old_build = (marked.t("hint.build", die="the blue penthouse", height=3) + " "
                 + marked.t("log.completed", height=3, points=9))
    assert run_together(old_build)
    old_item = (f'<li><span class="hint-act">{marked.t("hint.take", dice="ground floor")}</span> '
                f'<span class="hint-val">{marked.t("hint.value", value="61.2")}</span></li>')
    assert any(run_together(s) for s in shown_texts(old_item))
    assert not run_together(marked.t("hint.best", action=marked.t("hint.end")))
    assert not run_together(", ".join([marked.t("last.floors", n=2), marked.t("last.nothing")]))


# ---------------------------------------------------------------------------- plain words


@pytest.mark.parametrize("lang", LANGS)
def test_the_send_dialog_and_a_stale_link_say_what_they_mean(lang):
    """No count of characters in "Send your move", no count of moves ("actions") in the
    notice about an older link: what it means for the player."""
    t = texts(lang).t
    a, host_a, _ = page(lang)
    b, _, _ = page(lang)
    start_game(a, ("Ann", "Bo"), ("human", "friend"), "plain1")

    def send(me, other) -> str:
        play(me, until=lambda x: not x.page.seat_kind(x.board.state.seat).is_here)
        dialog = me.page.dialog
        assert isinstance(dialog, SendDialog)
        link = "#" + dialog.link.split("#", 1)[1]
        me.session.render()
        html = me.host.html["dialog"]
        assert board_view.esc(t("corr.whole")) in html
        assert not re.search(r"\d+ (characters|Zeichen)", html)
        me.handle("click", "close", None)
        if other is not None:
            other.handle("hashchange", None, link)
        return link

    first = send(a, b)
    b.handle("submit", "corr-claim", None, form={"seat1": "on"})
    send(b, a)
    send(a, b)
    a.handle("hashchange", None, first)  # an older link of the same game
    (note,) = [n for n in a.renderer.screen().notices if n.key == "corr.stale"]
    assert note.text == t("corr.stale", name=a.session.entry.name, round=1)
    assert not re.search(r"\d+ (moves|Züge)", note.text)


# ---------------------------------------------------------------------------- rules panel


class Recorder:
    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.t = texts(lang).t


def test_the_rules_panel_says_once_which_words_mean_the_same():
    """The rule texts stay as they are (the quick help says "Aufgeben", "Obergeschoss",
    "Penthouse"; the buttons and dice "Verlassen", "Stockwerk", "Dach"): the panel says
    once, beside the quick help, that they mean the same."""
    de = rules_panel.render(Recorder("de"))
    note = re.search(r'<p id="rules-same-words">(.*?)</p>', de).group(1)
    for word in ("Aufgeben", "Verlassen", "Obergeschoss", "Stockwerk", "Penthouse", "Dach"):
        assert word in note, word
    assert de.count('id="rules-same-words"') == 1
    card = de.split('id="rules-card"', 1)[1].split("</section>", 1)[0]
    assert "rules-same-words" in card  # with the quick help whose words it explains
    for key in ("rules.card.actions.body", "rules.card.heights.body"):  # kept as they are
        assert board_view.esc(TABLES["de"][key]) in de
    assert "Aufgeben" in TABLES["de"]["rules.card.actions.body"]
    en = rules_panel.render(Recorder("en"))
    note = re.search(r'<p id="rules-same-words">(.*?)</p>', en).group(1)
    assert "middle floor" in note and "upper floor" in note
    assert TABLES["en"]["rules.same_words"] != TABLES["de"]["rules.same_words"]
