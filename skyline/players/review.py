"""The review of a solo game: every decision graded against the expert's best.

:class:`ReviewRun` grades a game a few decisions at a time, so the page can spread the
work over ticks (:meth:`ReviewRun.advance` with a time budget) and show the result once
it is :attr:`~ReviewRun.done`; :func:`review` runs one to the end.

Each decision (take, build, demolish, reroll, end: not the forced first roll) gets the
expected final score of the option chosen and of the best option, and the loss
``best - chosen`` (expected points given away, never negative; see
:func:`skyline.players.expert.grade`). Accuracy (0-100) = ``100 * V0 / (V0 + total
loss)``, where ``V0`` is the expected final score of optimal play from the start: 100 for a
game played without any loss, about 90 when the decisions gave away a ninth of the
optimum in expectation. In a scenario game the values are on the scenario's objective and
the verdict (:func:`skyline.players.expert.scenario_verdict`) says whether it was met and
which decision lost it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from ..rules import Action, Options, Phase, apply_action, new_game, score
from . import solo_value as sv
from .expert import grade, scenario_verdict

__all__ = ["ReviewRun", "review"]


class ReviewRun:
    """The review of the solo game ``options`` + ``actions``, graded incrementally.

    ``start`` is the optimum's expected value from the first position (computed if not
    given; the value table must be there, else :class:`~skyline.players.solo_value.MissingTable`).
    As it advances: ``state`` (the position reached), ``i`` (actions graded),
    ``decisions`` (one row per graded decision); once ``done``: ``total`` (the summed
    loss), ``accuracy`` and, in a scenario game, ``verdict``.
    """

    def __init__(self, options: Options, actions: Sequence[Action],
                 start: float | None = None) -> None:
        self.options = options
        self.actions = tuple(actions)
        self.state = new_game(options)
        if not self.state.solo:
            raise ValueError("review: only solo games are reviewed")
        self.start = sv.value(sv.position(self.state)) if start is None else start
        self.i = 0
        self.decisions: list[dict[str, Any]] = []
        self.done = False
        self.total = 0.0
        self.accuracy = 100.0
        self.verdict: dict[str, Any] | None = None

    def step(self) -> bool:
        """Grade the next action (if any is left); return :attr:`done`."""
        if self.i < len(self.actions):
            action = self.actions[self.i]
            row = grade(self.state, action)
            if row is not None:
                self.decisions.append(row)
            self.state = apply_action(self.state, action)
            self.i += 1
        if self.i >= len(self.actions) and not self.done:
            self._finish()
        return self.done

    def advance(self, budget_ms: float, clock: Callable[[], float] = time.perf_counter) -> bool:
        """Grade actions until the review is done or ``budget_ms`` milliseconds have passed
        (at least one action); return :attr:`done`."""
        started = clock()
        while self.i < len(self.actions) and (clock() - started) * 1000 < budget_ms:
            self.step()
        if self.i >= len(self.actions) and not self.done:
            self._finish()
        return self.done

    def _finish(self) -> None:
        self.done = True
        self.total = sum(d["loss"] for d in self.decisions)
        self.accuracy = (100.0 * self.start / (self.start + self.total)
                         if self.start + self.total > 0 else 100.0)
        scenario = self.options.scenario if self.state.solo else None
        if scenario:  # the verdict: met or not, and the decision that lost it
            self.verdict = scenario_verdict(self.state, scenario, self.decisions)

    def result(self) -> dict[str, Any]:
        """The review as :func:`review` returns it (so far, if not :attr:`done`)."""
        out: dict[str, Any] = {
            "decisions": self.decisions,
            "total_loss": sum(d["loss"] for d in self.decisions),
            "start_value": self.start,
            "accuracy": self.accuracy,
            "score": score(self.state.players[0]),
            "over": self.state.phase is Phase.OVER,
        }
        if self.verdict is not None:
            out.update(self.verdict)
        return out


def review(game: Any) -> dict[str, Any]:
    """Replay a finished (or partly played) solo game and grade every decision (see the
    module doc). ``game`` is a :class:`~skyline.rules.Board`, or an ``(options, actions)``
    pair; ``ValueError`` if it is not a solo game."""
    if isinstance(game, tuple):
        options, actions = game
    else:
        options, actions = game.options, list(game.actions)
    run = ReviewRun(options, actions)
    while not run.step():
        pass
    return run.result()
