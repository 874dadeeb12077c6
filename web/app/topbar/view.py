"""The top bar's part of the screen model: the game's status (the round, whose turn,
the computer's help) and what the scoreboard reads of each seat."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from app.core.labels import Labels
from app.core.page_state import PageState
from app.core.whose_turn import help_on
from skyline import Board, Phase


@dataclass(frozen=True)
class Status:
    over: bool
    text: str  # "Game over" or the round
    turn: str  # whose turn ("" when over)
    help: str = ""  # "Help on" while the computer's help is on for the game being played


def status_view(page: PageState, board: Board, t: Callable[..., str],
                names: Sequence[str]) -> Status:
    """The round and whose turn it is, or that the game is over."""
    state = board.state
    if state.phase is Phase.OVER:
        return Status(True, t("status.over"), "")
    name = names[state.seat]
    seat = page.seat_kind(state.seat)
    key = ("status.turn_computer" if seat.is_computer
           else "status.turn_friend" if seat.is_friend else "status.turn")
    turn = t("status.solo_turn") if state.solo else t(key, name=name)
    return Status(False, t("status.round", round=state.round), turn,
                  t("status.help_on") if help_on(page, board) else "")


class ScoreboardSeat(Protocol):
    """What the scoreboard shows of a seat (the turn's ``PlayerView`` is one)."""

    @property
    def seat(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def start(self) -> bool: ...  # the start player's star
    @property
    def active(self) -> bool: ...  # the player to move
    @property
    def score(self) -> int: ...
    @property
    def buildings(self) -> int: ...
    @property
    def summary(self) -> str: ...  # the seat as one sentence, for screen readers
    @property
    def show(self) -> str: ...  # the chip as a button: the sentence, "show skyline"


@dataclass(frozen=True)
class TopBar:
    """What the top bar shows: its static words, the other page language (the language
    switch), the status (None: no game), the menu folded open, the Sound switch and the
    scoreboard's seats in seat order (None: no game)."""

    labels: Labels
    other_lang: str
    status: Status | None
    menu_open: bool
    sound: bool
    seats: Sequence[ScoreboardSeat] | None
