"""The game log goes to the page as the lines added to it, the skylines as those that
changed (app.core.region_edits): the edits, applied to what the page shows, give
exactly the region a full render writes, through whole games (the chances chart beside
the log's list changing, the oldest lines dropping off at 300, the scoring above the
skylines at the end), and anything else is written whole."""

from __future__ import annotations

import doctest
import functools
import random
from collections.abc import Callable, Sequence

import pytest
from app.core import region_edits
from app.core.region_edits import (
    LOG_LIST,
    LOG_REGION,
    PLAYER_LIST,
    PLAYERS_REGION,
    Splice,
    log_edits,
    players_edits,
)
from region_patch import apply_edits, apply_players_edits, log_panel_html, players_html
from web_fakes import FakeHost, make_page, start_game


class LogHost(FakeHost):
    """Keeps every log and players region the page was sent, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.logs: list[str] = []
        self.players: list[str] = []

    def set_html(self, name: str, html: str) -> None:
        super().set_html(name, html)
        if name == LOG_REGION:
            self.logs.append(html)
        elif name == PLAYERS_REGION:
            self.players.append(html)


def test_doctests() -> None:
    assert doctest.testmod(region_edits).failed == 0


#: The whole games both kinds of edits are checked on: a solo game and a game of four.
GAMES = ((("Ada",), "edits-solo"), (("Ada", "Bo", "Cy", "Dee"), "edits-four"))


@functools.cache  # each game played once for the tests of both regions (they only read)
def whole_game(names: tuple[str, ...], seats: tuple[str, ...], seed: str) -> LogHost:
    host = LogHost()
    c, _, timer = make_page(host=host)
    start_game(c, names, seats, seed)
    rng = random.Random(seed)
    for _ in range(3000):
        if c.board.is_game_over():
            break
        c.play.dispatch(rng.choice(c.board.legal_actions()))
        timer.run(limit=50)
        c.render()
    assert c.board.is_game_over()
    c.handle("click", "lang", "de")  # a new language: the whole region again
    c.render()
    return host


def replayed(regions: Sequence[str], find: Callable[[str, str], list[Splice] | None],
             apply: Callable[[str, Sequence[Splice]], str]) -> tuple[int, list[list[Splice]]]:
    """Each region sent after the first, from the one before it: how many went whole,
    and the edits of the others, each checked to give exactly the region sent."""
    whole, edited = 0, []
    for old, new in zip(regions, regions[1:], strict=False):
        edits = find(old, new)
        if edits is None:
            whole += 1
            continue
        assert apply(old, edits) == new
        edited.append(edits)
    return whole, edited


def test_the_edits_of_whole_games_give_each_region_exactly() -> None:
    """A solo game and a game of four (the chart beside the list turns on at its end):
    every edit gives exactly the region a full render writes."""
    kinds: set[tuple[str, bool, bool]] = set()
    for names, seed in GAMES:
        logs = whole_game(names, ("human",) * len(names), seed).logs
        whole, edited = replayed(logs, log_edits, apply_edits)
        kinds |= {(e.target, bool(e.delete), bool(e.html)) for edits in edited for e in edits}
        # only for the first line (the empty log's note gives way) and the new language
        assert whole == 2, whole
        assert log_edits(logs[-2], logs[-1]) is None
        assert len(edited) > 40
    assert (LOG_LIST, False, True) in kinds  # lines added on top
    assert (LOG_REGION, True, True) in kinds  # the chart beside replaced


def test_the_oldest_lines_drop_off_at_300() -> None:
    page = log_panel_html
    lines = [f"<li>{n}</li>" for n in range(400)]
    old, new = page("Log", "", lines[2:302]), page("Log", "", lines[:300])
    edits = log_edits(old, new)
    assert edits is not None and [e.as_list() for e in edits] == [
        [LOG_LIST, 0, 0, "<li>0</li><li>1</li>", 300], [LOG_LIST, 300, 2, "", 302]]
    assert apply_edits(old, edits) == new


def test_what_the_edits_cannot_say_is_written_whole() -> None:
    page = log_panel_html
    lines = [f"<li>{n}</li>" for n in range(5)]
    old = page("Log", "", lines)
    assert log_edits(old, page("Protokoll", "", lines)) is None  # another title
    assert log_edits(old, page("Log", "", ["<li>x</li>"])) is None  # no line kept
    assert log_edits(old, page("Log", "<p>a</p><p>b</p>", lines)) is None  # two beside
    assert log_edits(old, "<p>no list</p>") is None
    many = [f"<li>new {n}</li>" for n in range(region_edits.MOST_NEW_LINES + 1)]
    assert log_edits(old, page("Log", "", many + lines)) is None  # too many to search
    assert log_edits(old, old) == []
    same_lines = page("Log", "<section>chart</section>", lines)
    assert log_edits(old, same_lines) == [Splice(LOG_REGION, 1, 0, "<section>chart</section>", 2)]


def test_the_page_refuses_edits_of_another_region() -> None:
    old = log_panel_html("Log", "", ["<li>a</li>"])
    with pytest.raises(ValueError, match="1 lines, not 2"):
        apply_edits(old, [Splice(LOG_LIST, 0, 0, "<li>b</li>", 2)])


def test_the_skylines_of_whole_games_go_as_those_that_changed() -> None:
    """A solo game and a game of four: every edit gives exactly the region a full
    render writes; a click mid-game mostly sends one skyline, or two when the turn
    passes (all of them when a round ends: the start player's star moves), on average
    at most half of them; a table of
    another size, the scoring at the end and a new language write the region whole."""
    for names, seed in GAMES:
        regions = whole_game(names, ("human",) * len(names), seed).players
        whole, edited = replayed(regions, players_edits, apply_players_edits)
        sent: list[int] = []
        for edits in edited:
            assert [e.target for e in edits] == [PLAYER_LIST]
            changed = edits[0].html.count('<section class="player')
            assert edits[0].delete == changed and 1 <= changed
            sent.append(changed)
        # the scoring above the skylines at the end, the new language; for the four
        # also their new game in place of the page's first (a solo one)
        assert whole == (2 if len(names) == 1 else 3), whole
        assert players_edits(regions[-2], regions[-1]) is None
        assert len(edited) >= 9 * len(names), len(edited)  # at least a build a round each
        # on average at most half of the skylines (a game of four sends about 1.8)
        assert sum(sent) <= len(sent) * max(1, len(names) / 2), sent


def test_skylines_the_edits_cannot_say_are_written_whole() -> None:
    html = players_html
    a, b = '<section class="player">a</section>', '<section class="player">b</section>'
    old = html("", " n2", [a, b])
    assert players_edits(old, html("", " n2 over", [a, b])) is None  # another list
    assert players_edits(old, html("<p>scoring</p>", " n2", [a, b])) is None
    assert players_edits(old, html("", " n2", [a, "<p>not a skyline</p>", b])) is None
    assert players_edits(old, "<p>no list</p>") is None
    nested = '<section class="player"><section>x</section></section>'
    edits = players_edits(old, html("", " n2", [nested, b]))
    assert edits == [Splice(PLAYER_LIST, 0, 1, nested, 2)]
    assert apply_players_edits(old, edits) == html("", " n2", [nested, b])
    with pytest.raises(ValueError, match="2 skylines, not 3"):
        apply_players_edits(old, [Splice(PLAYER_LIST, 0, 1, a, 3)])
