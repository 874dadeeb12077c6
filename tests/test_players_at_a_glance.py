"""Players at a glance and what happened since your last turn (CPython, the page's own
render on a fake host), English and German: in games of 3 and 4 with computer seats and
pass-and-play, the player to move here reads one line per rival who moved since their
own last turn, each adding up to that turn's change in score (told apart from the
engine, by watching the scores turn by turn); each seat's colour on its scoreboard
chip, its skyline and its log lines; the chip as a button that brings that skyline
into view (page state, never saved, gone at the next turn)."""

from __future__ import annotations

import random
import re

import pytest
from app.core.i18n import Texts
from web_fakes import make_page, start_game, tables

from skyline import Phase
from skyline.players.bots import get_bot

LANGS = ("en", "de")
NAMES = ("Ann", "Robo", "Bo", "Cyd")


def bracketed(line: str) -> list[int]:
    return [int(n) for n in re.findall(r"\(([+-]\d+)\)", line)]


class TurnWatch:
    """Every finished turn as (seat, change in score), seen from outside the engine's
    report: the scores when a seat's turn began and when the next seat's began."""

    def __init__(self, c) -> None:
        self.c = c
        self.turns: list[tuple[int, int]] = []
        self._key = self._now()
        self._scores = c.board.scores()
        played = c.play.after  # the turn's end of every action pushed, its own or a computer's

        def after(action, before, describe_log=True) -> None:
            played(action, before, describe_log)
            self.after(c, action)

        c.play.after = after

    def _now(self) -> tuple[int, int]:
        state = self.c.board.state
        return state.round, state.seat

    def after(self, c, action) -> None:
        if c.board.state.phase is Phase.OVER or self._now() == self._key:
            return
        scores = c.board.scores()
        seat = self._key[1]
        self.turns.append((seat, scores[seat] - self._scores[seat]))
        self._key, self._scores = self._now(), scores

    def since(self, seat: int) -> list[tuple[int, int]]:
        """The turns after ``seat``'s latest one (all of them if it has none)."""
        mine = [i for i, (s, _) in enumerate(self.turns) if s == seat]
        return self.turns[mine[-1] + 1:] if mine else list(self.turns)


def play_to_turn_starts(c, timer, seed: int, rounds: int):
    """Play (greedy for the people here, the page's timer for the computers), stopping
    at the start of every turn of a person here, for ``rounds`` rounds."""
    rng = random.Random(seed)
    first = True
    for _ in range(3000):
        state = c.board.state
        if state.phase is Phase.OVER or state.round > rounds:
            return
        if c.computer_turn():
            assert c.renderer.screen().game.last_turns == ()  # nobody here to tell
            c.computer.wake()
            timer.run(until=lambda: not c.computer_turn() or c.board.is_game_over())
            continue
        if state.phase is Phase.TAKE and not c.page.takes and not first:
            c.session.render()
            yield
        first = False
        assert c.play.dispatch(get_bot("greedy")(c.board.state, rng))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("seats", [("human", "greedy", "human"),
                                   ("human", "beginner", "human", "greedy")])
def test_each_person_here_reads_every_rival_since_their_own_last_turn(lang, seats):
    """Pass-and-play with computers: whoever is to move here reads a line per rival
    since *their* last turn (the other person here included), in the order played,
    each naming the player, in the seat's colour and mark, whose points add up to that
    turn's change in score, with a short form (name and points) a phone shows when there
    are several; only those rivals' skylines are ringed."""
    t = Texts(tables(), lang).t
    c, host, timer = make_page(langs=(lang,))
    count = len(seats)
    start_game(c, NAMES[:count], seats, f"since-{count}")
    watch = TurnWatch(c)
    looked = 0
    for _ in play_to_turn_starts(c, timer, seed=count, rounds=6):
        seat = c.board.state.seat
        want = watch.since(seat)
        if c.board.state.round > 1:
            assert [s for s, _ in want] == [(seat + k) % count for k in range(1, count)]
        lines = c.renderer.screen().game.last_turns
        assert [(line.seat, sum(bracketed(line.text))) for line in lines] == want
        for line, (rival, points) in zip(lines, want, strict=True):
            assert line.text.startswith(NAMES[rival]) or f" {NAMES[rival]} " in line.text
            assert t("last.points", n=points, signed=f"{points:+d}") in line.text
        many = " many" if len(want) > 1 else ""
        html = re.search(rf'<ul class="last-turn{many}" data-testid="last-turn">(.*?)</ul>',
                         host.html["turn"]).group(1)
        shown = re.findall(r'<li class="seat-(\d)" data-seat="\d"><span class="seat-mark" '
                           r'aria-hidden="true"></span><span class="last-long"><bdi>([^<]+)</bdi>'
                           r'.*?<span class="last-short" aria-hidden="true">(.*?)</span></li>',
                           html)
        assert shown == [(str(s), NAMES[s], t("last.short", name=f"<bdi>{NAMES[s]}</bdi>",
                                              points=t("last.points", n=p, signed=f"{p:+d}")))
                         for s, p in want]
        ringed = {int(chunk[0]) for chunk in host.html["players"].split('data-testid="player-')[1:]
                  if ' changed"' in chunk}
        assert ringed <= {s for s, _ in want}
        looked += 1
        if looked == 3:  # once the player acts the lines go
            c.handle("click", "take", "0")
            assert c.renderer.screen().game.last_turns == ()
            assert 'data-testid="last-turn"' not in host.html["turn"]
            c.handle("click", "untake", "0")
    assert looked >= 8


@pytest.mark.parametrize("lang", LANGS)
def test_every_seat_has_its_colour_on_its_chip_skyline_and_log_lines(lang):
    c, host, timer = make_page(langs=(lang,))
    start_game(c, NAMES, ("human", "greedy", "human", "beginner"), "colours4")
    for _ in play_to_turn_starts(c, timer, seed=3, rounds=2):
        pass
    c.session.render()
    top, players, log = host.html["topbar"], host.html["players"], host.html["log"]
    for seat in range(4):
        chip = re.search(rf'<li class="sb seat-{seat}( active)?" '
                         rf'data-testid="sb-{seat}">(.*?)</li>', top).group(2)
        assert '<span class="seat-mark"></span>' in chip and NAMES[seat] in chip
        assert re.search(rf'<section class="player seat-{seat}( active)?" id="skyline-{seat}" '
                         rf'data-testid="player-{seat}"', players)
    # each log line in the colour of the seat whose action it tells; the round's end is
    # the table's own
    lines = re.findall(r'<li class="ev ev-(\w+)( seat-(\d))?"', log)
    events = list(reversed(c.board.log()))[:len(lines)]
    assert len(lines) > 20
    for (event, _, seat), e in zip(lines, events, strict=True):
        assert event == e["event"]
        assert seat == ("" if event in ("round_end", "game_over") else str(e["seat"]))
    # a solo game has no seat colours
    start_game(c, ("Ann",), ("human",), "colours1")
    assert "seat-" not in host.html["topbar"] + host.html["players"]
    assert c.play.dispatch(get_bot("greedy")(c.board.state, random.Random(1)))
    c.session.render()
    assert "seat-" not in host.html["log"] and "sb-show" not in host.html["topbar"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_scoreboard_chip_brings_that_skyline_into_view_until_the_next_turn(lang):
    """The chip is a button named by its sentence and "show this skyline"; a tap marks
    that skyline as shown (the phone's strip turns to it) and asks the host to scroll it
    into view, during a computer's turn too; the focus stays where it was; bad seats
    are ignored; a pending choice or the next turn shows the player to move again; the
    shown seat is never saved."""
    t = tables()[lang]
    c, host, timer = make_page(langs=(lang,))
    start_game(c, NAMES[:3], ("human", "greedy", "human"), "chip3")
    top = host.html["topbar"]
    for seat in range(3):
        button = re.search(rf'<button type="button" class="sb-show" id="show-seat-{seat}" '
                           rf'data-action="show-seat" data-arg="{seat}" '
                           rf'aria-controls="skyline-{seat}">(.*?)</button>', top).group(1)
        name = re.search(r'<span class="vh">(.*?)</span>$', button).group(1)
        assert name.startswith(f"<bdi>{NAMES[seat]}</bdi>")
        assert name.endswith(t["scoreboard.show"].split("}")[-1])
    focused = list(host.focused)
    c.handle("click", "show-seat", "2", target_id="show-seat-2")
    assert re.findall(r'class="player seat-\d[^"]*shown"', host.html["players"]) == [
        'class="player seat-2 shown"']
    # the focus stays on the chip (or is not touched); the skyline is scrolled to
    assert host.focused[len(focused):] in (["reveal:skyline-2"],
                                           ["show-seat-2", "reveal:skyline-2"])
    for bad in ("7", "-1", "x"):
        c.handle("click", "show-seat", bad)
        assert c.page.shown_seat is not None and c.page.shown_seat.seat == 2
    assert "shown" not in "".join(v for k, v in host.storage.items())
    # the turn goes on: the seat to move is shown again
    rng = random.Random(2)
    while c.board.state.seat == 0:
        assert c.play.dispatch(get_bot("greedy")(c.board.state, rng))
    c.session.render()
    assert " shown" not in host.html["players"]
    # a computer's turn: looking is allowed
    assert c.computer_turn()
    c.handle("click", "show-seat", "0")
    assert 'class="player seat-0 shown"' in host.html["players"]
    # a reload starts on the player to move
    c2, host2, _ = make_page(storage=host.storage, langs=(lang,))
    assert c2.page.shown_seat is None and " shown" not in host2.html["players"]
