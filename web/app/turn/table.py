"""The table's own command: a tap on a scoreboard chip brings that player's skyline into
view (on a phone the skylines' strip turns to it). Which skyline is shown is page state
(``PageState.shown_seat``), read by the turn's view; it is never saved, and the next
turn shows the player to move again."""

from __future__ import annotations

from app.core.commands import Cmd, Command, number_arg
from app.core.session import Session
from app.turn.state import ShownSeat


class Table:
    """Which skyline the table shows."""

    def __init__(self, session: Session) -> None:
        self.s = session

    def commands(self) -> dict[Cmd, Command]:
        # no guard: looking at a skyline changes no game, so it works during a
        # computer's turn, a friend's, a replay and in a tab that only watches
        return {Cmd.SHOW_SEAT: number_arg(self.show_seat)}

    def show_seat(self, seat: int) -> None:
        board = self.s.board
        if board is None or not 0 <= seat < len(board.state.players):
            return  # a stale or made-up chip: nothing to show
        state = board.state
        # a new value each tap: the renderer scrolls to it even when it is shown already
        self.s.page.shown_seat = ShownSeat(seat, (state.round, state.seat))
