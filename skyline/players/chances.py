"""The chances as the game goes: after every turn, how each player stands, as the
computer players see it.

:class:`ChancesRun` follows a game turn by turn and values the position between turns,
a few turns at a time (:meth:`ChancesRun.advance` with a time budget), so a page can
spread the work over idle ticks. It keeps every point it has valued: when the game goes
on, only the new turns are valued; when an undo took back actions behind a point, the
points after it are dropped and the game is followed again from the last point kept.

What a point holds (:attr:`ChancePoint.values`), by the game's :func:`chances_kind`:

- ``"table"`` (2-4 players): every seat's chance of finishing first (0..1, summing to 1),
  from the expert that plays and reviews
  (:func:`skyline.players.table_expert.table_chances`, the review's turning points
  use the same); at the end the result itself (the winners share 1);
- ``"score"`` (solo): the expected final score under optimal play from there, the solo
  value table's value of the position (:func:`skyline.players.solo_value.value`); at the
  end the final score;
- ``"scenario"`` (a solo scenario): the chance of meeting it under the policy that plays
  for it (:func:`skyline.players.solo_value.scenario_value`); at the end 1 or 0.

Deterministic; no I/O (the value tables must be loaded, else
:class:`~skyline.players.solo_value.MissingTable` names the file to fetch, and the run
carries on where it stopped once it is there).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..rules import Action, GameState, Options, Phase, apply_action, new_game
from . import solo_value as sv

__all__ = ["ChancePoint", "ChancesRun", "chances_kind", "point_values"]


@dataclass(frozen=True)
class ChancePoint:
    """How the game stood after turn ``turn`` (0: at the start): the ``round`` and
    ``seat`` of that turn (the start: round 1, the first seat), ``step`` the actions
    played by then (where a replay shows it) and ``values`` (see the module doc)."""

    turn: int
    round: int
    seat: int
    step: int
    values: tuple[float, ...]


def chances_kind(options: Options) -> str:
    """``"table"``, ``"score"`` or ``"scenario"`` (see the module doc)."""
    if len(options.names) > 1:
        return "table"
    return "scenario" if options.scenario else "score"


@lru_cache(maxsize=1024)
def point_values(state: GameState) -> tuple[float, ...]:
    """The values of a point at ``state``, a position between turns (see the module doc);
    kept for the latest positions asked, so a game followed again (another run of the
    same game: a page opened anew, a game of the list opened again) values nothing twice.
    A missing value table raises and nothing is kept."""
    if not state.solo:
        from .table_expert import table_chances  # the solver only when a table needs it

        return table_chances(state)
    pos = sv.position(state)
    if pos.scenario is not None:
        return (sv.scenario_value(pos).p_success,)
    return (sv.value(pos),)


class ChancesRun:
    """The points of the game ``options``: :meth:`advance` follows its actions."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self.kind = chances_kind(options)
        self.points: list[ChancePoint] = []
        start = new_game(options)
        # every position between turns reached so far: (round, seat, step, state) of the
        # turn that led there (the start: round 1, the first seat, step 0)
        self._turns: list[tuple[int, int, int, GameState]] = [(1, start.seat, 0, start)]
        self._actions: list[Action] = []  # the actions followed so far
        self._state = start

    def done(self, actions: Sequence[Action]) -> bool:
        """Every turn of ``actions`` (the game so far) has its point."""
        return (len(self.points) == len(self._turns) and len(self._actions) == len(actions)
                and self._actions == list(actions))

    def follow(self, actions: Sequence[Action]) -> None:
        """Take ``actions`` (the game so far) as the game to follow: the points behind an
        action that is no longer there (an undo) are dropped, the others kept."""
        same = 0
        limit = min(len(actions), len(self._actions))
        while same < limit and actions[same] == self._actions[same]:
            same += 1
        if same == len(self._actions):
            return
        while self._turns[-1][2] > same:
            self._turns.pop()
        del self.points[len(self._turns):]
        _round, _seat, step, state = self._turns[-1]
        del self._actions[step:]
        self._state = state

    def advance(self, actions: Sequence[Action], budget_ms: float,
                clock: Callable[[], float] = time.perf_counter) -> bool:
        """Follow ``actions`` (the game so far) and value the turns not valued yet, until
        every one is or ``budget_ms`` milliseconds have passed (at least one point, if one
        is due); return whether every turn has its point."""
        self.follow(actions)
        started = clock()
        while True:
            if len(self.points) < len(self._turns):
                self._value(len(self.points))
                if (clock() - started) * 1000 >= budget_ms:
                    return self.done(actions)
            elif len(self._actions) < len(actions):
                self._play(actions[len(self._actions)])  # a replay step: no valuing, cheap
            else:
                return True

    def _play(self, action: Action) -> None:
        before = self._state
        after = apply_action(before, action)
        self._actions.append(action)
        self._state = after
        if after.phase is Phase.OVER or (after.round, after.seat) != (before.round, before.seat):
            self._turns.append((before.round, before.seat, len(self._actions), after))

    def _value(self, turn: int) -> None:
        round_, seat, step, state = self._turns[turn]
        values = point_values(state)  # may raise MissingTable: nothing has changed then
        self.points.append(ChancePoint(turn, round_, seat, step, values))
