"""The table at a glance (under CPython, the page's own render on a fake host): fixed
seats, the scoreboard in the top bar, the top bar's menu on a narrow screen. English
and German."""

from __future__ import annotations

import random
import re

import board_view
import pytest
from web_fakes import make_page, tables

from skyline import Phase
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
        active = re.findall(r'<li class="sb active" data-testid="sb-(\d)"', top)
        assert active == [str(state.seat)]
        scores = c.board.scores()
        for seat, name in enumerate(names):
            built = len(state.players[seat].buildings)
            points = (t["player.score|one"] if scores[seat] == 1
                      else t["player.score"].format(score=scores[seat]))
            count = (t["scoreboard.buildings|one"] if built == 1
                     else t["scoreboard.buildings"].format(n=built))
            sentence = t["scoreboard.seat"].format(name=name, score=points, buildings=count)
            item = re.search(rf'data-testid="sb-{seat}">(.*?)</li>', top).group(1)
            assert f'<span class="vh">{board_view.esc(sentence)}' in item
            assert f'<b class="sb-score">{scores[seat]}</b>' in item
            assert (t["player.to_move"] in item) == (seat == state.seat and len(names) > 1)
            assert ("sb-star" in item) == (seat == state.start_seat and len(names) > 1)
        rng = random.Random(len(c.board.actions))
        assert c.dispatch(get_bot("greedy")(state, rng))
        c.session.render()  # as after a click
        turns += 1
    assert turns > 9 * len(names)
    # game over: the seats and the scoreboard stay in seat order, nobody marked
    assert seat_order(host.html["players"]) == seats and board_order(host.html["topbar"]) == seats
    assert 'class="sb active"' not in host.html["topbar"]


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
