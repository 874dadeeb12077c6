"""The daily challenge, the game history and the statistics page, and that no die face
shows before its roll: the page's decisions under CPython (tests/web_fakes.py), EN and DE.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from app import render as board_view
from app import screen as sm
from app.core import game_stats
from app.core.page_state import PageState, RulesDialog, StatsDialog
from app.core.store import KEY_HISTORY, KEY_HISTORY_BROKEN, KEY_RECORDS
from app.core.store import entry_key as game_key
from app.daily import ui as stats_ui
from app.daily.state import ConfirmDailyDialog
from test_screen import assert_translated, texts
from web_fakes import FakeHost, make_page

from skyline import FACE_LETTERS, Board, Options, Phase, Seat
from skyline.players.bots import BOTS
from skyline.records.daily import MAX_DAILY_LINK_CHARS, daily_options, daily_result

LANGS = ("en", "de")
DAY = "2026-12-01"
BASE = "http://127.0.0.1:8000/"


def finish(c, seed: int = 0, bot: str = "greedy") -> None:
    """Play the controller's game to its end (humans by ``bot``, computers by their level)."""
    rng = random.Random(seed)
    while not c.board.is_game_over():
        if c.computer_turn():
            c.step_computer()
        else:
            assert c.play.dispatch(BOTS[bot](c.board.state, rng))
    c.render()


def expected_line(lang: str, board: Board) -> str:
    r = daily_result(board)
    t = texts(lang).t
    level = t("level." + r.level)
    if lang == "en":
        return f"Skyline daily {r.day.isoformat()}: {r.score} points — {level}"
    return f"Skyline-Tagesaufgabe {r.day.isoformat()}: {r.score} Punkte — {level}"


def notice_keys(c) -> list[str]:
    return [n.key for n in c.page.notices]


# ---------------------------------------------------------------------------- daily


@pytest.mark.parametrize("lang", LANGS)
def test_daily_from_the_welcome_dialog_is_todays_seeded_game(lang):
    c, host, _ = make_page(langs=(lang,))
    assert 'id="ng-daily"' in host.html["dialog"] and 'id="btn-daily"' in host.html["topbar"]
    c.handle("click", "daily", None)
    t = texts(lang).t
    assert c.page.dialog is None
    assert c.board.options == daily_options(DAY, t("newgame.default_name", n=1))
    s = c.renderer.screen()
    assert_translated(s, lang)
    assert s.game.daily.title == t("daily.title_day", day=DAY) and s.game.daily.line is None
    assert "notice.daily_started" in notice_keys(c)
    assert t("daily.title_day", day=DAY) in host.html["players"]
    # the same challenge again while it is being played: kept, not restarted
    c.handle("click", "take", "0")
    board = c.board
    c.handle("click", "daily", None)
    assert c.board is board and "notice.daily_already" in notice_keys(c)


@pytest.mark.parametrize("lang", LANGS)
def test_the_daily_challenge_plays_under_the_players_name(lang):
    """The name the player typed, not "Player 1": from the open game's seats here (a
    computer's and a friend's name are not theirs), else from their last solo game once
    that game is over and another replaced it; "Player 1" for one who never typed one."""
    c, _, _ = make_page(langs=(lang,))
    c.session.start(Options(("Robo", "Nora", "Ann"), "named", 0, False, None), None,
                    (Seat.computer("greedy"), Seat.friend(), Seat.here()))
    c.handle("click", "daily", None)
    c.handle("click", "dlg-first", None)  # replace the game in progress
    assert c.board.options.names == ("Ann",)
    finish(c)
    c.session.start(Options(("Spieler 1", "Player 2"), "defaults", 0, False, None))
    c.handle("click", "daily", None)
    c.handle("click", "dlg-first", None)
    assert c.board.options.names == ("Ann",)  # the finished daily game was Ann's
    fresh, _, _ = make_page(langs=(lang,))
    fresh.handle("click", "daily", None)
    assert fresh.board.options.names == (texts(lang).t("newgame.default_name", n=1),)


@pytest.mark.parametrize("lang", LANGS)
def test_finished_daily_shows_the_result_line_best_and_copies_it(lang):
    c, host, _ = make_page(langs=(lang,))
    host.today = "2026-11-30"
    c.handle("click", "daily", None)
    finish(c)
    s = c.renderer.screen()
    assert_translated(s, lang)
    daily = s.game.daily
    line = expected_line(lang, c.board)
    assert daily.line == line and daily.link == BASE + "#daily?d=2026-11-30"
    score = c.board.scores()[0]
    assert daily.best == texts(lang).t("daily.best", score=score)
    html = host.html["players"]
    assert 'data-testid="daily-line"' in html and board_view.esc(line) in html
    c.handle("click", "daily-copy", None)
    assert host.copied[-1] == line + "\n" + BASE + "#daily?d=2026-11-30"
    assert c.renderer.screen().game.daily.status == texts(lang).t("daily.copied")
    host.copy_ok = False
    c.handle("click", "daily-copy", None)
    assert c.renderer.screen().game.daily.status == texts(lang).t("daily.copy_failed")
    # its own best score per day, in the records
    records = json.loads(host.storage[KEY_RECORDS])
    assert records["daily"]["2026-11-30"] == {"best": score, "plays": 1}
    # a new game forgets the copy state
    c.handle("click", "daily", None)
    assert c.page.daily_copied is None and not c.board.actions


def test_result_line_without_a_level_and_with_one_point():
    t = texts("en").t
    board = Board(daily_options(DAY, "Ann"))
    while not board.is_game_over():  # a poor game: end every turn at once
        actions = board.legal_actions()
        board.push(next((a for a in actions if type(a).__name__ == "EndTurn"), actions[0]))
    r = daily_result(board)
    line = stats_ui.result_line(t, board)
    if r.level is None:
        points = "1 point" if r.score == 1 else f"{r.score} points"
        assert line == f"Skyline daily {DAY}: {points}"
    else:
        assert line.endswith(t("level." + r.level))


@pytest.mark.parametrize("lang", LANGS)
def test_daily_link_opens_that_challenge(lang):
    c, host, _ = make_page(fragment="#daily?d=2026-11-05", langs=(lang,))
    assert host.fragment_cleared
    assert c.board.options.seed == "daily-2026-11-05" and c.page.dialog is None
    assert c.renderer.screen().game.daily.day == "2026-11-05"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("fragment, code", [
    ("#daily?d=2026-02-30", "daily_date"), ("#daily?d=1999-12-31", "daily_date"),
    ("#daily?d=tomorrow", "daily_date"), ("#daily?x=2026-12-01", "link"), ("#daily", "link"),
    ("#daily?d=" + "9" * 300, "link_too_long"),  # said as too long, with the limit
])
def test_bad_daily_links_are_refused_in_the_players_language(lang, fragment, code):
    c, host, _ = make_page(langs=(lang,))
    c.handle("click", "close", None)
    c.handle("click", "take", "0")
    c.handle("click", "take", "1")
    c.handle("click", "take", "2")
    record, saved = c.board.record(), host.storage[game_key(c.session.entry.id)]
    c.handle("hashchange", None, fragment)
    t = texts(lang).t
    assert c.board.record() == record and host.storage[game_key(c.session.entry.id)] == saved
    assert c.page.dialog is None
    s = c.renderer.screen()
    assert_translated(s, lang)
    note = next(n for n in s.notices if n.key == "notice.bad_daily")
    assert note.text == t("notice.bad_daily", reason=t("error.option." + code,
                                                        limit=MAX_DAILY_LINK_CHARS))


@pytest.mark.parametrize("lang", LANGS)
def test_daily_link_during_a_game_asks_first(lang):
    c, host, _ = make_page(langs=(lang,))
    c.handle("click", "close", None)
    c.handle("click", "take", "0")
    board = c.board
    c.handle("hashchange", None, "#daily?d=2026-10-10")
    assert isinstance(c.page.dialog, ConfirmDailyDialog) and c.board is board
    s = c.renderer.screen()
    assert_translated(s, lang)
    t = texts(lang).t
    assert s.dialog.question == t("daily.confirm_question", day="2026-10-10")
    assert 'data-action="daily-accept"' in host.html["dialog"]
    c.handle("click", "close", None)  # keep my game
    assert c.board is board and c.page.dialog is None and c.page.takes
    c.handle("click", "daily", None)  # the button asks too
    assert isinstance(c.page.dialog, ConfirmDailyDialog) and c.page.dialog.day == DAY
    c.handle("click", "daily-accept", None)
    assert c.board.options.seed == "daily-" + DAY and c.page.dialog is None


def test_daily_link_in_a_read_only_tab_waits_for_the_lock():
    c, host, _ = make_page()
    c.handle("tab", "busy", None)
    board = c.board
    c.handle("hashchange", None, "#daily?d=2026-10-10")
    assert c.board is board and c.links.pending == "#daily?d=2026-10-10"
    c.handle("click", "daily", None)
    assert c.board is board
    c.handle("tab", "granted", None)
    assert c.board.options.seed == "daily-2026-10-10"


def test_a_broken_local_date_is_said_not_crashed():
    c, host, _ = make_page()
    host.today = "not a date"
    board = c.board
    c.handle("click", "daily", None)
    assert c.board is board and "notice.daily_no_date" in notice_keys(c)
    assert not c.page.crashed


# ---------------------------------------------------------------------------- honest dice


@pytest.mark.parametrize("lang", LANGS)
def test_rules_panel_says_what_seeded_dice_mean(lang):
    s = sm.build_screen(PageState(dialog=RulesDialog()), None, texts(lang))
    html = board_view.render(s)["dialog"]
    text = texts(lang).t("rules.app.dice")
    assert 'id="rules-app-dice"' in html and board_view.esc(text) in html
    assert ("seed" if lang == "en" else "Startwert") in text and "link" in text.lower()
    assert html.index('id="rules-app-dice"') > html.index('id="rules-app"')


FACE_CLASS = re.compile(r'class="die die-([GUP]) f-([pboxn])')
BUTTON_FACE = re.compile(r'data-die="(\d+)" data-face="(\w+)"')


@pytest.mark.parametrize("players, seed", [(1, 3), (1, 4), (2, 5), (3, 6)])
def test_no_die_face_is_shown_before_it_is_rolled(players, seed):
    """Every state of seeded random games: the faces on the screen (model and HTML) are
    exactly the rolled dice's; a taken die waiting for its roll shows none, even though
    the seed already fixes it (the face the roll will give is never in the HTML)."""
    from skyline import Roll, apply_action

    board = Board(Options(tuple("ABCD"[:players]), f"honest{seed}", 0, False, None))
    rng = random.Random(seed)
    checked_rolls = 0
    while True:
        state = board.state
        s = sm.build_screen(PageState(), board, texts("en"))
        html = board_view.render(s)
        engine = {d.id: d.face for d in state.dice}
        shown_model = {d.id: d.face for d in s.dice}
        for die_id, face in shown_model.items():
            want = engine[die_id]
            assert face == (None if want is None else FACE_LETTERS[want])
        turn = html.get("turn", "")
        shown_faces = [f for _, f in FACE_CLASS.findall(turn) if f != "n"]
        assert len(shown_faces) == sum(1 for f in engine.values() if f is not None)
        for die_id, face in BUTTON_FACE.findall(turn):
            assert face == FACE_LETTERS[engine[int(die_id)]]
        for region in ("supply", "players", "log"):  # dice there are never faces
            assert not [f for _, f in FACE_CLASS.findall(html.get(region, "")) if f != "n"]
        if state.phase is Phase.ROLL:
            assert all(f is None for f in engine.values()) and not shown_faces
            rolled = apply_action(state, Roll(tuple(d.id for d in state.dice)))
            # the seed fixes them already (unless no die can be used and the turn ended)
            assert all(d.face is not None for d in rolled.dice)
            assert all("not rolled" in d.label for d in s.dice)
            checked_rolls += 1
        if board.is_game_over():
            break
        board.push(BOTS["random"](state, rng))
    assert checked_rolls >= 9


# ---------------------------------------------------------------------------- history


def test_history_records_each_finished_game_once():
    c, host, _ = make_page()
    c.handle("click", "close", None)
    finish(c, 1)  # solo (the default game)
    c.session.start(Options(("Ann", "Bot"), "vs1", 0, False, None), None,
                    (Seat.here(), Seat.computer("greedy")))
    finish(c, 2)
    c.session.start(Options(("Ann", "Bo"), "hs1", 0, False, None))
    finish(c, 3)
    c.session.record_result()  # counted again: ignored
    data = json.loads(host.storage[KEY_HISTORY])
    assert data["v"] == 1 and data["kind"] == "skyline-history"
    modes = [g["mode"] for g in data["games"]]
    assert modes == ["solo", "multi", "multi"]
    solo, vs, hot = data["games"]
    assert solo["day"] == DAY and solo["at"].startswith("2026-01-01T")
    assert solo["seats"][0]["score"] >= 0 and solo["level"] in (None, *game_stats.LEVEL_NAMES)
    assert [s["kind"] for s in vs["seats"]] == ["human", "greedy"]
    assert sorted(s["rank"] for s in vs["seats"]) in ([1, 2], [1, 1])
    # the stored history reads back to the same results
    results, problem = game_stats.read_history(host.storage[KEY_HISTORY])
    assert problem is None and results == c.session.history.results
    summary = game_stats.summarize(results)
    greedy = next(v for v in summary.versus if v.level == "greedy")
    assert greedy.games == 1 and greedy.won + greedy.lost == 1
    assert summary.multi_humans_only == 1 and len(summary.solo) == 1


def test_history_survives_a_reload_and_caps_its_length():
    host = FakeHost()
    c, host, _ = make_page(host=host)
    c.handle("click", "close", None)
    finish(c, 4)
    first = c.session.history.results[0]
    many = [game_stats.GameResult(f"id{i}", first.at, first.day, "solo", None, False,
                                  first.seats) for i in range(game_stats.MAX_HISTORY + 5)]
    host.storage[KEY_HISTORY] = game_stats.history_json(many)
    c2, _, _ = make_page(host=host)
    history = c2.session.history
    assert len(history.results) == game_stats.MAX_HISTORY and history.problem is None
    assert history.results[-1].id == f"id{game_stats.MAX_HISTORY + 4}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("raw, code, kept", [
    ("{not json", "json_syntax", 0),
    ('{"v": 1, "kind": "other", "games": []}', "history_format", 0),
    ('{"v": 9, "kind": "skyline-history", "games": []}', "history_version", 0),
    ('{"v": 1, "kind": "skyline-history", "games": {}}', "history_format", 0),
    ("[]", "history_format", 0),
    (None, "history_entry", 1),  # one good entry, one damaged: the good one is kept
])
def test_a_damaged_history_is_kept_aside_and_said(lang, raw, code, kept):
    c0, h0, _ = make_page()
    c0.handle("click", "close", None)
    finish(c0, 5)
    good = json.loads(h0.storage[KEY_HISTORY])
    if raw is None:
        good["games"].append({"id": "x", "mode": "solo", "seats": "no"})
        raw = json.dumps(good)
    host = FakeHost({KEY_HISTORY: raw})
    c, host, _ = make_page(host=host, langs=(lang,))
    aside = [k for k in host.storage if k.startswith(KEY_HISTORY_BROKEN)]
    assert len(aside) == 1 and host.storage[aside[0]] == raw  # byte for byte
    assert len(c.session.history.results) == kept
    assert game_stats.read_history(host.storage[KEY_HISTORY]) == (c.session.history.results, None)
    s = c.renderer.screen()
    assert_translated(s, lang)
    note = next(n for n in s.notices if n.key == "notice.history_broken")
    t = texts(lang).t
    assert t("error.history." + code, number=2, version="9") in note.text and aside[0] in note.text
    # new results go on being recorded
    c.handle("click", "close", None)
    finish(c, 6)
    assert len(game_stats.read_history(host.storage[KEY_HISTORY])[0]) == kept + 1


def test_a_damaged_history_that_cannot_be_kept_aside_is_never_overwritten():
    class Full(Exception):
        pass

    raw = "{broken"
    host = FakeHost({KEY_HISTORY: raw})
    host.fail_set = Full
    c, host, _ = make_page(host=host)
    assert c.session.history.held and "notice.history_broken_lost" in notice_keys(c)
    host.fail_set = None
    c.handle("click", "close", None)
    finish(c, 7)
    assert host.storage[KEY_HISTORY] == raw and len(c.session.history.results) == 1


def test_history_when_the_storage_is_full():
    class QuotaExceededError(Exception):
        pass

    c, host, _ = make_page()
    c.handle("click", "close", None)
    before = dict(host.storage)
    host.fail_set = QuotaExceededError
    finish(c, 8)
    assert host.storage == before  # nothing stored changed
    assert "notice.not_saved" in notice_keys(c)
    assert len(c.session.history.results) == 1  # ... but the session keeps it
    c.handle("click", "stats", None)
    assert len(c.renderer.screen().dialog.chart.dots) == 1


def test_history_when_the_storage_is_blocked():
    class SecurityError(Exception):
        pass

    host = FakeHost()
    host.fail_get = SecurityError
    c, host, _ = make_page(host=host)
    c.handle("click", "close", None)
    finish(c, 9)
    assert host.storage == {} and len(c.session.history.results) == 1
    c.handle("click", "stats", None)
    assert c.renderer.screen().dialog.totals.startswith("Finished games on this device: 1 ")


def test_history_reader_is_total():
    rng = random.Random(11)
    good = game_stats.history_json([game_stats.GameResult(
        "a|-|3|0", "2026-01-01T00:00:01.000Z", DAY, "solo", None, False,
        (game_stats.SeatResult("Ann", "human", 12, 1),))])
    samples = [None, 3, b"{}", "", "null", "[" * 5000, "x" * 2_000_000, good]
    for _ in range(400):
        chars = list(good)
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(chars))
            chars[i] = rng.choice('{}[]",:0123456789abcnulltrue')
        samples.append("".join(chars))
    for raw in samples:
        results, problem = game_stats.read_history(raw)
        assert isinstance(results, list)
        assert problem is None or isinstance(problem, game_stats.HistoryError)
        if problem is None:
            assert game_stats.read_history(game_stats.history_json(results)) == (results, None)
    assert game_stats.read_history(good)[1] is None


# ---------------------------------------------------------------------------- statistics


@pytest.mark.parametrize("lang", LANGS)
def test_statistics_page_after_finished_games(lang):
    c, host, _ = make_page(langs=(lang,))
    c.handle("click", "daily", None)
    finish(c, 1)
    c.session.start(Options(("Ann",), "sc1", 0, False, "essen"))
    finish(c, 2)
    c.session.start(Options(("Ann", "Bot"), "vs2", 0, False, None), None,
                    (Seat.here(), Seat.computer("expert")))
    finish(c, 3)
    c.handle("click", "stats", None)
    assert isinstance(c.page.dialog, StatsDialog)
    s = c.renderer.screen()
    assert_translated(s, lang)
    v = s.dialog
    t = texts(lang).t
    assert v.totals == t("stats.totals", n=3, solo=2, multi=1)
    assert len(v.chart.dots) == 2 and v.chart.path.count(",") == 2
    assert v.chart.summary == t("stats.chart.summary", n=2, first=1, last=2,
                                low=min(r.score for r in c.session.history.results[:2]),
                                high=max(r.score for r in c.session.history.results[:2]),
                                latest=c.session.history.results[1].score)
    assert [row[0] for row in v.scenarios] == [t("stats.no_scenario"), t("scenario.essen")]
    assert [row[2] for row in v.games] == [t("stats.mode.solo"), t("stats.mode.daily")]
    assert v.daily[0][0] == DAY
    expert = next(row for row in v.rating.rows if row[0] == t("seat.level.expert"))
    assert sum(int(n) for n in expert[1:]) == 1
    html = host.html["dialog"]
    assert 'data-testid="dialog-stats"' in html and 'data-testid="stats-chart"' in html
    assert 'role="img" aria-labelledby="chart-title chart-desc"' in html
    assert html.count('<circle class="dot"') == 2 and "<polyline" in html
    assert 'data-testid="stats-games"' in html and html.count("<tr>") >= 2 + 2 + 3
    # the export: every result and record, as JSON, offered as a download
    assert 'data-testid="stats-export"' in html
    assert f'download="skyline-statistics-{DAY}.json"' in html
    exported = json.loads(host.downloads[-1])
    assert exported["kind"] == "skyline-statistics" and len(exported["history"]) == 3
    assert exported["history"] == [r.to_json() for r in c.session.history.results]
    assert exported["daily"][DAY]["plays"] == 1 and "expert" in exported["versus"]
    assert exported["records"]["best"] and "seen" not in exported["records"]


@pytest.mark.parametrize("lang", LANGS)
def test_statistics_page_without_games(lang):
    c, host, _ = make_page(langs=(lang,))
    c.handle("click", "stats", None)
    s = c.renderer.screen()
    assert_translated(s, lang)
    assert s.dialog.empty == texts(lang).t("stats.empty") and s.dialog.chart is None
    assert "stats-chart" not in host.html["dialog"]
    c.handle("keydown", None, None, key="Escape")
    assert c.page.dialog is None


def test_statistics_read_records_from_before_the_history():
    records = {"v": 1, "best": {"-": 77, "dubai": 40, "bogus": 5}, "levels": {
        "senior-architect": 2, "nope": 1}, "scenarios": {"dubai": 1}, "daily": {
        "2026-11-11": {"best": 61, "plays": 2}, "bad": {"best": 1}}, "seen": []}
    c, host, _ = make_page(storage={KEY_RECORDS: json.dumps(records)})
    c.handle("click", "stats", None)
    v = c.renderer.screen().dialog
    t = texts("en").t
    assert (t("stats.no_scenario"), "77", "0", "–") in v.scenarios
    assert (t("level.senior-architect"), "2") in v.levels
    assert (t("scenario.dubai"), "1") in v.scenarios_met
    assert v.daily == (("2026-11-11", "61", "2"),) and v.empty is None


def test_the_chart_keeps_the_last_games_and_scales_to_the_best():
    first = game_stats.GameResult("x", "2026-01-01T00:00:01.000Z", DAY, "solo", None, False,
                                  (game_stats.SeatResult("Ann", "human", 0, 1),))
    results = tuple(
        game_stats.GameResult(f"g{i}", first.at, first.day, "solo", None, False,
                              (game_stats.SeatResult("Ann", "human", 3 * i, 1),))
        for i in range(45))
    v = stats_ui.stats_view(StatsDialog(results, {}, None, "x.json"), texts("en").t)
    assert len(v.chart.dots) == stats_ui.CHART_GAMES and len(v.games) == 45
    assert v.chart.x_first == "game 16" and v.chart.x_last == "game 45"
    top = min(d.y for d in v.chart.dots)
    assert top == v.chart.dots[-1].y and top >= stats_ui.CHART_PAD[1]
    assert v.chart.grid[-1][1] == "140"  # 132 points: the axis goes to the next 20
    html = board_view.render(sm.Screen(
        "en", "de", sm.build_screen(PageState(), None, texts("en")).labels, None, (), v, None))
    assert 'id="stats-export"' not in html["dialog"]  # no download without a URL
