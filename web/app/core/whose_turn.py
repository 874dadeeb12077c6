"""Who is to move, as the page sees it: a computer seat, a friend elsewhere, or a
person here who may ask for a hint."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.page_state import (
    HELP_DEFAULTS,
    PageState,
)
from skyline import (
    Board,
    Phase,
    Seat,
)

# ---------------------------------------------------------------------------- the help


def kind_of(seats: Sequence[Seat]) -> str:
    """``solo`` (one seat), ``computers`` (a computer has a seat) or ``humans`` (only
    people, here or elsewhere): the kinds the computer's help is chosen for."""
    if len(seats) == 1:
        return "solo"
    return "computers" if any(seat.is_computer for seat in seats) else "humans"


def game_kind(page: PageState, board: Board) -> str:
    """The kind (:func:`kind_of`) of the game on ``board``."""
    return kind_of([page.seat_kind(i) for i in range(len(board.state.players))])


def help_on(page: PageState, board: Board) -> bool:
    """Whether the computer's help (Hint and the chances chart) is on for this game: the
    player's choice for its kind, else the kind's default."""
    return help_for(page, game_kind(page, board))


def help_for(page: PageState, kind: str) -> bool:
    return page.help_on.get(kind, HELP_DEFAULTS[kind])


# ---------------------------------------------------------------------------- decisions


def computer_turn(page: PageState, board: Board | None) -> bool:
    """A computer seat is to move in a game not over (never during a replay, nor while
    a friend's turn from a link is played back: the computer moves after it)."""
    return (
        board is not None and board.state.phase is not Phase.OVER and page.replay is None
        and page.playback is None
        and page.seat_kind(board.state.seat).is_computer
        and (page.live is None or (page.live.synced and board.state.seat in page.live.moves_here))
    )


def friend_turn(page: PageState, board: Board | None) -> bool:
    """A friend elsewhere is to move: this device refuses moves until a link comes (or,
    at a live table, until the move arrives; a computer seat played on another device of
    the table counts as that device's)."""
    if board is None or board.state.phase is Phase.OVER:
        return False
    seat = board.state.seat
    if page.live is not None:
        return seat not in page.live.moves_here
    return page.seat_kind(seat).is_friend


def live_waiting(page: PageState, board: Board | None) -> bool:
    """At a live table, this device's seat is to move but it has not yet compared its
    game with another device's (it may be behind): it waits for the table."""
    return (
        board is not None and page.live is not None and not page.live.synced
        and board.state.phase is not Phase.OVER and board.state.seat in page.live.moves_here
    )


def can_hint(page: PageState, board: Board | None) -> bool:
    """A person here is to move and may be shown what the expert would do (the guided
    first game shows it whatever the help is set to; the Hint button needs the help on,
    :func:`hint_offered`)."""
    return (
        board is not None and board.state.phase is not Phase.OVER
        and page.seat_kind(board.state.seat).is_here and page.choice is None
        and page.replay is None
    )


def hint_offered(page: PageState, board: Board | None) -> bool:
    """The Hint button is there: a person here may ask and the computer's help is on."""
    return board is not None and can_hint(page, board) and help_on(page, board)
