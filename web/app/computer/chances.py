"""The chances as the game goes: the chart beside the log, its switch and its points.

After every turn, how each player stands as the computer players see it
(``skyline.players.chances``): in a game of 2-4 players each seat's chance of finishing
first (the table expert's, as its review's turning points have them), in solo the
expected final score against the solo levels, in a scenario the chance of meeting it.
The pacer (``app.computer.pacer``) values the turns in idle ticks and keeps them in the
page state (``page.chances``), each turn once; no click waits for it.

The chart and Hint are the computer's help (``app.core.whose_turn.help_on``): on by
default in solo and against a computer, off by default where only people play each
other (it would advise one against another). The switch beside the chart, and the
new-game dialog, turn it on or off for games of that kind, remembered like the
computer's pace.
A point of the chart (or its row in the chart's table) replays the game from that turn.
"""

from __future__ import annotations

from app.computer.chances_view import CHANCES_SWITCH
from app.computer.state import chances_of
from app.core.commands import Cmd, Command, number_arg, text_arg
from app.core.events import Emit, OpenReplay
from app.core.session import Session
from app.core.whose_turn import game_kind, help_on


class Chances:
    """The chart's commands: the switch and a point (the replay from that turn)."""

    def __init__(self, session: Session, emit: Emit) -> None:
        self.s = session
        self.emit = emit

    def commands(self) -> dict[Cmd, Command]:
        return {
            Cmd.CHANCES_SHOW: text_arg(self.show, focus=CHANCES_SWITCH),
            Cmd.CHANCES_OPEN: number_arg(self.open),
        }

    def wanted(self) -> bool:
        """The chart is to be worked out now: a game is open and shown with it (not the
        guided first game, whose board is a lesson)."""
        s = self.s
        return (s.board is not None and s.tutorial is None
                and help_on(s.page, s.board))

    def show(self, arg: str | None) -> bool | None:
        """The switch: the computer's help ``on`` or ``off`` for games of this kind, from
        now on."""
        s = self.s
        if s.board is None or arg not in ("on", "off"):
            return False
        kind = game_kind(s.page, s.board)
        on = arg == "on"
        s.page.help_on[kind] = on
        s.store.save_help(kind, on)
        if not on:
            s.page.hint = None
        return None

    def open(self, step: int) -> bool | None:
        """A point of the chart: the open game replayed from ``step`` actions in (a
        point's turn end); anything else (an old point, a bad number) does nothing."""
        s = self.s
        progress = chances_of(s.page)
        if (s.board is None or s.tutorial is not None or progress is None
                or progress.key != s.board.options or s.page.dialog is not None
                or not any(p.step == step for p in progress.points)
                or not 0 <= step <= len(s.board.actions)):
            return False
        self.emit(OpenReplay(step))
        return None
