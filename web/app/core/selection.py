"""The dice selected mid-turn: chosen automatically after a roll, kept in storage so a
reload keeps them, and restored only at that very moment of that game.

The selection is page state (``PageState.selected``); this module is the one place
that decides it outside a click.
"""

from __future__ import annotations

import json
from typing import Protocol

from app.core.page_state import Lesson, PageState
from app.core.store import Store
from skyline import Board, GameEntry, Phase

#: The stored selection: {"game": the open game's id, "actions": how many actions it
#: had, "dice": [die ids]}.
KEY_SELECTION = "skyline.selection"


class OpenGame(Protocol):
    """What the selection reads of the open game (``app.core.session.Session`` is one);
    named here so that the session, which holds the selection, is not imported back."""

    @property
    def page(self) -> PageState: ...
    @property
    def store(self) -> Store: ...
    @property
    def board(self) -> Board | None: ...
    @property
    def game(self) -> Board: ...  # the board, which a command always has
    @property
    def entry(self) -> GameEntry | None: ...
    @property
    def tutorial(self) -> Lesson | None: ...


class Selection:
    """The selected dice of the session's open game, beyond a click."""

    def __init__(self, session: OpenGame) -> None:
        self.s = session
        self._kept: str | None = None  # the selection as last stored

    def auto_select(self) -> None:
        """After a roll a single die is selected automatically; several start deselected."""
        state = self.s.game.state
        if state.phase is Phase.RESOLVE and len(state.dice) == 1:
            self.s.page.selected = {state.dice[0].id}

    def on_open(self) -> None:
        """A game just opened (a reload, another game of the list): the dice selected at
        this very moment of it before, else the automatic selection."""
        s = self.s
        raw = s.store.get(KEY_SELECTION) if s.tutorial is None else None
        self._kept = raw
        kept = self._read(raw)
        if kept:
            s.page.selected = set(kept)
        else:
            self.auto_select()

    def _read(self, raw: str | None) -> tuple[int, ...]:
        """The stored selection if it is of the open game as it is now (rolled active dice
        only), else none."""
        s = self.s
        try:
            data = json.loads(raw) if raw else None
        except (ValueError, RecursionError):
            return ()
        state = s.game.state
        if (not isinstance(data, dict) or s.entry is None or data.get("game") != s.entry.id
                or data.get("actions") != len(s.game.actions)
                or state.phase not in (Phase.RESOLVE, Phase.CONTINUE)
                or not isinstance(data.get("dice"), list)):
            return ()
        rolled = {d.id for d in state.dice if d.face is not None}
        return tuple(i for i in data["dice"] if isinstance(i, int) and i in rolled)

    def keep(self) -> None:
        """Store the selected dice, so a reload mid-turn keeps them (never from a tab that
        only watches, nor from the tutorial, which is never saved)."""
        s = self.s
        if (s.entry is None or s.board is None or s.page.readonly or s.page.crashed
                or s.tutorial is not None):
            return
        raw = None
        if s.page.selected:
            raw = json.dumps({"game": s.entry.id, "actions": len(s.board.actions),
                              "dice": sorted(s.page.selected)}, separators=(",", ":"))
        if raw == self._kept:
            return
        self._kept = raw
        s.store.later(KEY_SELECTION, raw)  # a click on a die waits for no round trip

    def alive(self) -> tuple[int, ...]:
        """The selected dice still in play, in order."""
        alive = {d.id for d in self.s.game.state.dice}
        return tuple(sorted(self.s.page.selected & alive))
