"""Who is to move, as the page sees it: a computer seat, a friend elsewhere, or a
person here who may ask for a hint."""

from __future__ import annotations

from app.core.page_state import (
    PageState,
)
from skyline import (
    Board,
    Phase,
)

# ---------------------------------------------------------------------------- names


# ---------------------------------------------------------------------------- decisions


def computer_turn(page: PageState, board: Board | None) -> bool:
    """A computer seat is to move in a game not over (never during a replay, nor while
    a friend's turn from a link is played back: the computer moves after it)."""
    return (
        board is not None and board.state.phase is not Phase.OVER and page.replay is None
        and page.playback is None
        and page.seat_kind(board.state.seat).is_computer
    )


def friend_turn(page: PageState, board: Board | None) -> bool:
    """A friend elsewhere is to move: this device refuses moves until a link comes."""
    return (
        board is not None and board.state.phase is not Phase.OVER
        and page.seat_kind(board.state.seat).is_friend
    )


def can_hint(page: PageState, board: Board | None) -> bool:
    return (
        board is not None and board.state.phase is not Phase.OVER
        and page.seat_kind(board.state.seat).is_here and page.choice is None
        and page.replay is None
    )
