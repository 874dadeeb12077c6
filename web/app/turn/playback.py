"""A friend's turn that came by link, played on the board (``PageState.playback``).

The game is already the updated one when the link has been read (``app.games.friends``);
the page then shows it as it was when this device last saw it and plays the new actions
one per tick of the computer's timer (``app.computer.pacer``), at the pace the player
chose, each with its cues (motion and sound), as a computer's turn plays. A click, a
key's Escape or Skip shows the game as it is at once (the controller ends it).
"""

from __future__ import annotations

from app.core.commands import Cmd
from app.core.session import Session
from app.turn.cues import action_cues
from skyline import Board


class PlaybackSteps:
    """Steps the playback of the session's page, one action at a time."""

    def __init__(self, session: Session) -> None:
        self.s = session

    def step(self) -> bool:
        """Show one more action of the friend's turn with its cues; False when none is
        being played. The last one ends the playback: the game shows as it is."""
        page = self.s.page
        playback = page.playback
        if playback is None:
            return False
        game = Board.from_record(playback.record)
        before = game.at(playback.step)
        after = game.at(playback.step + 1)
        if len(after.actions) == len(before.actions):  # nothing left (a record cut short)
            page.playback = None
            return False
        page.cues += action_cues(before.state, after.actions[-1], after.state,
                                 lambda seat: page.seat_kind(seat).is_here)
        playback.step += 1
        if playback.step >= playback.total:
            page.playback = None
        return True

    def stopped_by(self, action: str) -> bool:
        """A click while a friend's turn plays back shows the game as it is at once (the
        pace may still be changed); True if it was Skip, which does only that."""
        page = self.s.page
        if page.playback is None or action == Cmd.BOT_PACE:
            return False
        page.playback = None
        return action == Cmd.BOT_SKIP
