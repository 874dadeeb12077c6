"""The expert's own game on a seed: the daily challenge's benchmark.

:class:`ExpertGame` plays the solo expert (:mod:`skyline.players.expert`, the optimum of
the solo model) on a solo game's options a few decisions at a time, so the page can spread
the work over idle ticks (:meth:`ExpertGame.advance` with a time budget) and show the
score once it is :attr:`~ExpertGame.done`; :func:`expert_score` plays one to the end.

**The same dice.** Its rolls come from the seed exactly as a player's do
(``apply_action`` without faces, :func:`skyline.rules.chance.seeded_faces`): a face
depends on the seed, round, seat, the roll's number in the turn, the die type and the
die's rank among dice of its type in that roll, never on the player's name or on earlier
choices. The seed thus fixes one table of faces for the whole day, and the expert reads
the same table as every player: whoever takes the same types in a round, or rerolls the
same number of dice of a type at the same roll of the turn, sees the same faces. Where
the choices differ, each reads another cell of that one table, the common random numbers
of a fair comparison; neither can see a face the other could not have had.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ..rules import Action, Options, Phase, apply_action, new_game, score
from .registry import get_bot

__all__ = ["ExpertGame", "expert_score"]


class ExpertGame:
    """The expert's solo game on ``options``, played incrementally.

    As it advances: ``state`` (the position reached), ``actions`` (its actions so far,
    the record of its game); once ``done``: ``score``. The expert is deterministic (its
    ``rng`` is unused), so the same options always give the same game. A decision that
    needs a value table not delivered yet raises the table's ``LookupError``
    (:class:`~skyline.players.solo_value.MissingTable`) and can be retried."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self.state = new_game(options)
        if not self.state.solo:
            raise ValueError("benchmark: only a solo game has one")
        self.actions: list[Action] = []
        self._bot = get_bot("expert")
        self._rng = random.Random(0)

    @property
    def done(self) -> bool:
        return self.state.phase is Phase.OVER

    @property
    def score(self) -> int:
        """The expert's score (so far, if not :attr:`done`)."""
        return score(self.state.players[0])

    @property
    def round(self) -> int:
        return self.state.round

    def step(self) -> bool:
        """Play the expert's next action (if the game is not over); return :attr:`done`."""
        if not self.done:
            action = self._bot(self.state, self._rng)
            self.state = apply_action(self.state, action)  # a roll: the seed's faces
            self.actions.append(action)
        return self.done

    def advance(self, budget_ms: float, clock: Callable[[], float] = time.perf_counter) -> bool:
        """Play until the game is over or ``budget_ms`` milliseconds have passed (at least
        one action); return :attr:`done`."""
        started = clock()
        self.step()
        while not self.done and (clock() - started) * 1000 < budget_ms:
            self.step()
        return self.done


def expert_score(options: Options) -> int:
    """The expert's final score on the solo game ``options`` (played to the end at once)."""
    game = ExpertGame(options)
    while not game.step():
        pass
    return game.score
