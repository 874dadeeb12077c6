"""Computer seats and the helpers that play like one: a computer's move (paced by the
driver in ``app.computer.pacer``), Hint, and the value tables they fetch on first need."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Protocol

from app.core.commands import Cmd, Command, form_arg, plain
from app.core.events import Emit, PlayAction
from app.core.page_state import PACES, HintResult, Level
from app.core.session import Session
from app.core.whose_turn import can_hint, computer_turn, hint_offered
from skyline import Options, new_game


class ComputerDriver(Protocol):
    """Paces computer play (app.computer.pacer): a timer that calls ``step``."""

    def wake(self, delay: int | None = None) -> None: ...


class Computer:
    """The computer to move, Hint, and data files fetched on demand."""

    def __init__(self, session: Session, emit: Emit) -> None:
        self.s = session
        self.emit = emit
        self.driver: ComputerDriver | None = None
        self.think_ms: list[float] = []
        # deferred data files being fetched (see need_data): path -> callbacks waiting
        self.data_waiting: dict[str, list[Callable[[], None]]] = {}

    def commands(self) -> dict[Cmd, Command]:
        return {
            Cmd.BOT_SKIP: plain(self.skip),
            Cmd.BOT_PACE: form_arg(self.set_pace, focus=Cmd.BOT_PACE),
            Cmd.BOT_HINT: plain(self.ask_hint),
        }

    def attach(self, driver: ComputerDriver) -> None:
        """The pacing of computer play (see ``ComputerDriver``)."""
        self.driver = driver

    def wake(self, delay: int | None = None) -> None:
        if self.driver is not None:
            self.driver.wake(delay)

    def turn(self) -> bool:
        """A computer seat is to move here (game commands are refused meanwhile); a tab
        that only watches never plays it (the tab that has the game does)."""
        return computer_turn(self.s.page, self.s.board) and not self.s.page.readonly

    def set_pace(self, form: dict) -> None:
        """The computer's pace from now on (and on later visits)."""
        pace = str(form.get("value", ""))
        if pace in PACES and pace != self.s.page.pace:
            self.s.page.pace = pace
            self.s.store.save_pace(pace)

    def skip(self) -> None:
        """Play the computer's turn out without the pace."""
        self.s.page.skipping = True
        self.wake(0)

    def step(self) -> float | None:
        """The computer to move plays one action; returns its thinking time (ms), or
        None if no computer is to move."""
        from skyline.players.registry import get_bot

        if not self.turn():
            return None
        board = self.s.board
        assert board is not None
        seat = board.state.seat
        level = self.s.page.seat_kind(seat).level
        assert level is not None
        rng = random.Random(f"{board.options.seed}/{seat}/{len(board.actions)}")
        started = time.perf_counter()
        action = get_bot(level)(board.state, rng)
        think = (time.perf_counter() - started) * 1000
        self.record_think(think)
        self.s.page.takes = []
        self.emit(PlayAction(action))
        return think

    def record_think(self, ms: float) -> None:
        self.think_ms.append(ms)
        del self.think_ms[:-2000]

    def ask_hint(self) -> bool | None:
        """The Hint button: only while the computer's help is on for this game."""
        if not hint_offered(self.s.page, self.s.board):
            return False
        self.show_hint()
        return None

    def show_hint(self) -> None:
        """The expert's best actions for the human to move (skyline expert's hint; the
        guided first game asks for it whatever the help is set to)."""
        from skyline.players.expert import hint

        s = self.s
        if not can_hint(s.page, s.board):
            return
        assert s.board is not None
        started = time.perf_counter()
        try:
            rows = hint(s.board.state, 3)
        except LookupError as exc:  # the value table is fetched on first need
            path = getattr(exc, "path", None)
            if path is None:
                raise
            asked = len(s.board.actions)
            self.need_data(path, lambda: self._hint_arrived(asked))
            return
        self.record_think((time.perf_counter() - started) * 1000)
        s.page.hint = HintResult(len(s.board.actions), tuple(rows))

    def _hint_arrived(self, asked: int) -> None:
        """The table a Hint waited for is here: show it if the position is unchanged."""
        if self.s.board is not None and len(self.s.board.actions) == asked:
            self.show_hint()
            self.s.render()

    def need_data(self, path: str, then: Callable[[], None]) -> None:
        """A data file the engine reads on demand (a value table kept off the start-up
        path, see ``skyline.players.solo_value.defer_table``; ``path`` is inside the
        ``skyline`` package) is missing: the host fetches it once and puts it into the
        package folder, then ``then`` runs (for every caller that waited on it)."""
        waiting = self.data_waiting.setdefault(path, [])
        waiting.append(then)
        if len(waiting) > 1:
            return  # already on its way

        def arrived(ok: bool) -> None:
            callbacks = self.data_waiting.pop(path, [])
            if not ok:
                self.s.notify("notice.data_failed", Level.ERROR)
                self.s.render()
                return
            for callback in callbacks:
                callback()

        # the answer comes later, outside any click: through the controller's crash path
        self.s.host.fetch_data(path, arrived)  # the answer runs through the crash path


def value_table_ready(options: Options, fetch_table: Callable[[LookupError], None]) -> bool:
    """Whether the solo value table a game of ``options`` needs is here; if not, it is
    fetched (``fetch_table``: on again when it arrives) and the caller waits."""
    from skyline.players import solo_value as sv  # kept off the start path

    try:
        sv.value(sv.position(new_game(options)))
    except LookupError as exc:
        fetch_table(exc)
        return False
    return True
