"""The table at a glance (under CPython, the page's own render on a fake host): fixed
seats, the scoreboard in the top bar, the top bar's menu on a narrow screen. English
and German."""

from __future__ import annotations

import random
import re

import pytest
from app import render as board_view
from app.core.names import esc_names
from web_fakes import make_page, tables

from skyline import Phase, completed_count
from skyline.players.bots import get_bot

LANGS = ("en", "de")


def start(c, names: tuple[str, ...], seed: str) -> None:
    c.handle("click", "newgame", None)
    form = {"count": str(len(names)), "seed": seed, "start": "0"}
    for i, name in enumerate(names):
        form[f"name{i}"] = name
        form[f"seat{i}"] = "human"
    c.handle("submit", "ng-start", None, form=form)
    assert c.page.dialog is None


def seat_order(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'data-testid="player-(\d)"', html)]


def board_order(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'data-testid="sb-(\d)"', html)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("names", [("Ann",), ("Ann", "Bo"), ("Ann", "Bo", "Cy", "Dee")])
def test_seats_never_move_and_the_scoreboard_shows_every_player(lang, names):
    c, host, _ = make_page(langs=(lang,), bots=False)
    start(c, names, seed=f"glance-{len(names)}")
    t = tables()[lang]
    seats = list(range(len(names)))
    turns = 0
    while c.board.state.phase is not Phase.OVER:
        state = c.board.state
        players, top = host.html["players"], host.html["topbar"]
        assert seat_order(players) == seats  # the same order on every step of the game
        assert board_order(top) == seats
        active = re.findall(r'<li class="sb[^"]* active" data-testid="sb-(\d)"', top)
        assert active == [str(state.seat)]
        scores = c.board.scores()
        for seat, name in enumerate(names):
            built = completed_count(state.players[seat])  # as the final scoring counts
            points = (t["player.score|one"] if scores[seat] == 1
                      else t["player.score"].format(score=scores[seat]))
            count = (t["scoreboard.buildings|one"] if built == 1
                     else t["scoreboard.buildings"].format(n=built))
            sentence = t["scoreboard.seat"].format(name=name, score=points, buildings=count)
            item = re.search(rf'data-testid="sb-{seat}">(.*?)</li>', top).group(1)
            assert f'<span class="vh">{esc_names(sentence, (name,))}' in item  # name isolated
            assert f'<b class="sb-score">{scores[seat]}</b>' in item
            assert (t["player.to_move"] in item) == (seat == state.seat and len(names) > 1)
            assert ("sb-star" in item) == (seat == state.start_seat and len(names) > 1)
        rng = random.Random(len(c.board.actions))
        assert c.play.dispatch(get_bot("greedy")(state, rng))
        c.session.render()  # as after a click
        turns += 1
    assert turns > 9 * len(names)
    # game over: the seats and the scoreboard stay in seat order, nobody marked
    assert seat_order(host.html["players"]) == seats and board_order(host.html["topbar"]) == seats
    assert not re.search(r'class="sb[^"]* active"', host.html["topbar"])


@pytest.mark.parametrize("lang", LANGS)
def test_the_top_bar_menu_opens_closes_on_a_command_and_on_escape(lang):
    c, host, _ = make_page(langs=(lang,), bots=False)
    start(c, ("Ann", "Bo"), seed="menu1")
    t = tables()[lang]
    top = host.html["topbar"]
    assert f'aria-expanded="false" aria-controls="tools">{t["btn.menu"]}</button>' in top
    assert '<nav class="tools" id="tools">' in top
    c.handle("click", "menu", None, target_id="btn-menu")
    top = host.html["topbar"]
    assert 'aria-expanded="true"' in top and '<nav class="tools open" id="tools">' in top
    c.handle("click", "rules", None)  # a command from the menu closes it
    assert c.page.dialog is not None and 'aria-expanded="false"' in host.html["topbar"]
    c.handle("keydown", None, None, key="Escape")
    c.handle("click", "menu", None, target_id="btn-menu")
    c.handle("keydown", None, None, key="Escape")  # Escape closes it, focus back on Menu
    assert 'aria-expanded="false"' in host.html["topbar"]
    assert host.focused[-1] == "btn-menu"


@pytest.mark.parametrize("lang", LANGS)
def test_the_computers_pace_is_set_in_its_bar_and_remembered(lang):
    from app.core.page_state import PACES
    from web_fakes import FakeHost

    host = FakeHost()
    c, host, timer = make_page(host=host, langs=(lang,))
    c.handle("click", "newgame", None)
    c.handle("submit", "ng-start", None, form={
        "count": "2", "seed": "pace1", "start": "1", "name0": "Ann", "seat0": "human",
        "name1": "Robo", "seat1": "greedy"})
    t = tables()[lang]
    html = host.html["turn"]
    assert f'<span>{t["bot.pace"]}</span><select id="bot-pace" data-action="bot-pace">' in html
    for pace in PACES:
        assert f'value="{pace}"' in html and t[f"bot.pace.{pace}"] in html
    assert '<option value="normal" selected>' in html
    def pause() -> int:  # before the computer's next action
        ticks = [due - timer.now for due, _, fn in timer.queue
                 if getattr(fn, "__name__", "") == "tick"]
        assert len(ticks) == 1
        return ticks[0]

    assert pause() == PACES["normal"]
    c.handle("change", "bot-pace", None, form={"value": "fast"})
    assert '<option value="fast" selected>' in host.html["turn"]
    timer.run(until=lambda: pause() == PACES["fast"], limit=5)  # from its next action on
    assert pause() == PACES["fast"]
    c.handle("change", "bot-pace", None, form={"value": "warp"})  # not a pace: ignored
    assert c.page.pace == "fast"
    # remembered (with the language) on the next visit
    c2, host2, _ = make_page(storage=host.storage, langs=(lang,))
    assert c2.page.pace == "fast" and c2.session.store.load_lang() in (None, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_last_turn_is_summarised_and_marked_until_the_player_acts(lang):
    """Pass-and-play games of 2-4: at the start of every turn a line says what each
    rival's turn did since the player to move last played (one line with two players;
    every kind of action appears over these games), their buildings are marked on their
    skylines only, and all of it goes once the player acts."""
    t = tables()[lang]
    seen: set[str] = set()
    parts = {"last.district": t["last.district"], "last.nothing": t["last.nothing"],
             "last.floors": t["last.floors"].split("{n}")[-1].strip() or t["last.floors|one"],
             # the word before the points, in both the one and the many form
             "last.completed": t["last.completed"].split("(")[0].split()[-1],
             "last.abandoned": t["last.abandoned"].split("{n}")[-1].strip()}
    # a demolition is worded by what it took down (a building, a lone ground floor, ...)
    demolished = [re.compile(re.sub(r"\\\{\w+\\\}", ".+?", re.escape(board_view.esc(t[key]))))
                  for key in t if key.startswith("last.demolished")]
    # greedy players, and one pair choosing at random (random play demolishes often)
    for count, seed in ((2, "last2"), (3, "last3"), (4, "last4"), (2, "demo0")):
        c, host, _ = make_page(langs=(lang,), bots=False)
        start(c, ("Ann", "Bo", "Cy", "Dee")[:count], seed=seed)
        first = True
        while c.board.state.phase is not Phase.OVER:
            state = c.board.state
            at_start = state.phase is Phase.TAKE and not c.page.takes
            reports = c.board.turns_since(state.seat)
            turn = host.html["turn"]
            if at_start and not first:
                # the rivals since this seat last played: every other seat once the
                # first round is over, in the order they played
                behind = [(state.seat - k) % count for k in range(count - 1, 0, -1)]
                want = behind if state.round > 1 else [s for s in behind if s < state.seat]
                assert [r.seat for r in reports] == want
                lines = re.findall(r'<li class="seat-(\d)" data-seat="\d">'
                                   r'<span class="seat-mark" aria-hidden="true"></span>'
                                   r'<span class="last-long">(.*?)</span>', turn)
                assert [int(seat) for seat, _ in lines] == want
                for seat, line in lines:
                    name = ("Ann", "Bo", "Cy", "Dee")[int(seat)]
                    assert line.startswith(f"<bdi>{board_view.esc(name)}</bdi>")
                    seen.update(k for k, word in parts.items() if board_view.esc(word) in line)
                    if any(p.search(line) for p in demolished):
                        seen.add("last.demolished")
                marked = host.html["players"].split('data-testid="player-')
                by_seat = {r.seat: r for r in reports}
                for chunk in marked[1:]:
                    seat = int(chunk[0])
                    r = by_seat.get(seat)
                    assert chunk.count(" changed\"") == (
                        len(r.columns) + len(r.tiles) if r is not None else 0)
            else:
                assert 'data-testid="last-turn"' not in turn
                assert " changed\"" not in host.html["players"]
            rng = random.Random(len(c.board.actions))
            action = (rng.choice(c.board.legal_actions()) if seed == "demo0"
                      else get_bot("greedy")(state, rng))
            assert c.play.dispatch(action)
            c.session.render()
            first = False
    assert seen == {*parts, "last.demolished"}, {*parts, "last.demolished"} - seen


@pytest.mark.parametrize("lang", LANGS)
def test_hint_marks_its_best_action_on_the_board(lang):
    """At every decision of a solo game played by the hint's own best action, the yard
    rows, dice, tower and command that action uses carry the mark, and nothing else;
    every kind of decision (take, roll, build on a tower, end) is marked somewhere."""
    from app.computer.view import hint_marks

    c, host, _ = make_page(langs=(lang,))
    start(c, ("Ann",), seed="hintmarks")
    kinds: set[str] = set()
    for _ in range(120):
        if c.board.state.phase is Phase.OVER:
            break
        c.handle("click", "bot-hint", None)
        hint = c.renderer.screen().hint
        if hint is None or not hint.marks:
            break
        rows = c.page.hint.rows
        best = rows[0]["action"] if rows else c.board.legal_actions()[0]  # only End turn
        assert hint.marks == hint_marks(c.board.state, best)
        html = "".join(host.html[r] for r in ("turn", "supply", "players"))
        marked = set(re.findall(r'<(?:button|li)[^>]*class="[^"]*\bhinted\b[^"]*"[^>]*>', html))
        # one marked element per id; buildings carry it on their plot (li)
        assert len(marked) == len(hint.marks), (hint.marks, marked)
        for dom_id in hint.marks:
            if dom_id.startswith(("col-", "tile-")):
                continue  # a picture without an id (a build target button has it)
            assert re.search(rf'class="[^"]*\bhinted\b[^"]*" id="{dom_id}"|id="{dom_id}"[^>]*'
                             rf'class="[^"]*\bhinted', html), dom_id
        kinds.add(type(best).__name__)
        if any(m.startswith("col-") for m in hint.marks):
            kinds.add("tower")
        c.page.hint = None
        assert c.play.dispatch(best)
        c.session.render()
    assert {"Take", "Roll", "Build", "tower", "EndTurn"} <= kinds, kinds


@pytest.mark.parametrize("lang", LANGS)
def test_hint_after_taking_dice_in_a_scenario_says_roll(lang):
    from skyline import SCENARIOS

    c, host, _ = make_page(langs=(lang,))
    c.handle("click", "newgame", None)
    c.handle("submit", "ng-start", None, form={"count": "1", "name0": "Ann", "seed": "scn1",
                                                 "scenario": SCENARIOS[0]})
    assert c.board.options.scenario == SCENARIOS[0]
    for _ in range(3):
        c.handle("click", "take", "0")
    assert c.board.state.phase is Phase.ROLL
    c.handle("click", "bot-hint", None)
    t = tables()[lang]
    hint = c.renderer.screen().hint
    assert hint.best == t["hint.best"].format(action=t["hint.roll"])
    assert hint.marks == frozenset({"act-roll"}) and "hinted" in host.html["turn"]


@pytest.mark.parametrize("lang", LANGS)
def test_statistics_after_one_game_label_it_once_and_put_the_download_last(lang):
    c, host, _ = make_page(langs=(lang,), bots=False)
    start(c, ("Ann",), seed="stats1")
    rng = random.Random(5)
    while c.board.state.phase is not Phase.OVER:
        assert c.play.dispatch(get_bot("greedy")(c.board.state, rng))
    c.session.record_result()
    c.handle("click", "stats", None)
    html = host.html["dialog"]
    t = tables()[lang]
    game_one = t["stats.chart.game"].format(n=1)
    assert html.count(f">{game_one}</text>") == 1  # one game: one label
    assert html.index('data-testid="stats-export"') > html.index("stats-rating-how")
