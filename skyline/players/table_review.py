"""The review of a game of 2-4 players: the decisions that cost the most chance of winning,
the game's turning points and the final ranking.

:class:`TableReviewRun` replays a game a few actions at a time, so the page can spread the
work over ticks (:meth:`TableReviewRun.advance` with a time budget) and show the result
once it is :attr:`~TableReviewRun.done`; :func:`table_review` runs one to the end.

**Decisions.** Only the seats asked for are graded (the page asks for the people playing
on its device: not computer seats, not friends elsewhere). Each decision of such a seat
(take, build, abandon, demolish, reroll, end; not a forced action such as the first roll,
the only legal action there) is graded by the expert that plays
(:mod:`skyline.players.table_expert`): ``before`` is the chance of finishing first with
the best option (the first of :func:`~skyline.players.table_expert.table_options`),
``after`` the chance with the action chosen, and ``loss = before - after`` in percentage
points (never negative). The chosen action is found in the option list by its class of
equivalent actions (:func:`skyline.rules.action_class`: interchangeable dice, columns of
the same colour and height), so another die of the same kind or a build onto an identical
column is the same choice (``matched``). An action the list does not name (a demolition,
several dice abandoned at once, taking a district of three dice, a die beyond the
search's focus) is valued soundly by the expert's own evaluation of the position it leads
to (:func:`~skyline.players.table_expert.value_after`: the rest of the turn searched, or
the turn's end valued as every option is; a reroll over every outcome of its dice, never by
the faces that came up; ``matched`` is False); should that
be better than the list's best, it is the best (``before = after``, no loss).

**Turning points.** Before and after every turn, every seat's chance of finishing first as
the expert's model sees the table (:func:`~skyline.players.table_expert.table_chances`;
at the end the result itself). The turning points are the (at most :data:`TURNING_POINTS`)
turns that moved the eventual winner's chance the most (the first winner's, if the win is
shared), in play order; each says whose turn it was, what it did (its events, as the game
log has them) and who led before and after. :meth:`TableReview.turning_points_for` picks
them as other readers see them (the people at one device: the turns that moved their own
chances the most).

**Ranking.** The engine's own (:func:`skyline.rules.game_summary`): most points first; a
tie on points goes to more completed buildings; equal points and equal building counts
share the rank. ``tie_break`` says whether buildings had to decide a points tie at the top.

Deterministic; no I/O (the solo value table must be loaded, else
:class:`~skyline.players.solo_value.MissingTable`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..rules import (
    Action,
    GameState,
    Options,
    Phase,
    Roll,
    action_class,
    apply_action,
    describe,
    game_summary,
    legal_actions,
    new_game,
    roll_outcomes,
    score,
)
from .table_expert import table_chances, table_options, value_after

__all__ = [
    "TURNING_POINTS", "FinalPlace", "TableDecision", "TableReview", "TableReviewRun",
    "TurnChange", "table_review",
]

#: The review names at most this many turning points.
TURNING_POINTS = 3


@dataclass(frozen=True)
class TableDecision:
    """One graded decision: ``state`` before it, the action ``chosen``, the expert's
    ``best``, the chances of winning (0..1) with the best option (``before``) and with the
    choice (``after``), and ``loss`` in percentage points (``100 * (before - after)``,
    never negative). ``matched``: the choice is in the expert's option list (by its class
    of equivalent actions); else its chance is the expert's value of the position it led
    to. ``index`` is the action's position in the game's record."""

    index: int
    seat: int
    round: int
    phase: str
    state: GameState
    chosen: Action
    best: Action
    before: float
    after: float
    loss: float
    matched: bool


@dataclass(frozen=True)
class TurnChange:
    """One turn of the game: who played it (``seat``) in which ``round``, what it did
    (``events``: :func:`skyline.rules.describe` events, as the log words them), the
    points it gained, and every seat's chance of finishing first before and after it
    (``before``/``after``, 0..1 per seat); ``leader_before``/``leader_after`` are the
    seats with the highest chance (the lower seat on equal chances)."""

    round: int
    seat: int
    events: tuple[dict[str, Any], ...]
    points: int
    before: tuple[float, ...]
    after: tuple[float, ...]

    @property
    def leader_before(self) -> int:
        return max(range(len(self.before)), key=lambda i: (self.before[i], -i))

    @property
    def leader_after(self) -> int:
        return max(range(len(self.after)), key=lambda i: (self.after[i], -i))

    def change(self, seat: int) -> float:
        """How much the turn moved ``seat``'s chance of winning (after - before)."""
        return self.after[seat] - self.before[seat]


@dataclass(frozen=True)
class FinalPlace:
    """A seat's place in the final ranking (the engine's: points, then completed
    buildings; equal in both: the same rank)."""

    seat: int
    rank: int
    score: int
    completed: int


@dataclass(frozen=True)
class TableReview:
    """A reviewed game (see the module doc): the graded ``seats``, their ``decisions``
    (in play order), every turn (``turns``), the ``turning_points`` (in play order), the
    ``ranking`` (by rank, seat order among equals), the ``winners`` and whether the
    tie-break on completed buildings decided a points tie at the top (``tie_break``);
    ``over``: the game has ended (else the review is of the game so far)."""

    seats: tuple[int, ...]
    decisions: tuple[TableDecision, ...]
    turns: tuple[TurnChange, ...]
    turning_points: tuple[TurnChange, ...]
    ranking: tuple[FinalPlace, ...]
    winners: tuple[int, ...]
    tie_break: bool
    over: bool

    def of(self, seat: int) -> tuple[TableDecision, ...]:
        """The graded decisions of ``seat``, in play order."""
        return tuple(d for d in self.decisions if d.seat == seat)

    def total_loss(self, seat: int) -> float:
        """The percentage points of chance of winning ``seat``'s decisions gave away, summed."""
        return sum(d.loss for d in self.decisions if d.seat == seat)

    def turning_points_for(self, seats: Sequence[int]) -> tuple[TurnChange, ...]:
        """The turning points as ``seats`` see them (the people reading the review): the
        (at most :data:`TURNING_POINTS`) turns that moved one of their chances of winning
        the most, in play order; :attr:`turning_points` are the first winner's."""
        return _turning_points(self.turns, tuple(seats))

    def costly(self, seat: int, top: int = 5, at_least: float = 0.1) -> tuple[TableDecision, ...]:
        """``seat``'s decisions that cost at least ``at_least`` percentage points, the
        costliest first (play order among equal losses), at most ``top``."""
        rows = [d for d in self.decisions if d.seat == seat and d.loss >= at_least]
        return tuple(sorted(rows, key=lambda d: (-d.loss, d.index))[:top])


def _turning_points(turns: Sequence[TurnChange], seats: tuple[int, ...]) -> tuple[TurnChange, ...]:
    """The (at most :data:`TURNING_POINTS`) turns that moved one of ``seats``' chances of
    winning the most (by more than a twentieth of a percentage point), in play order."""
    if not seats:
        return ()

    def moved(k: int) -> float:
        return max(abs(turns[k].change(seat)) for seat in seats)

    ranked = sorted(range(len(turns)), key=lambda k: (-moved(k), k))
    return tuple(turns[k] for k in sorted(k for k in ranked[:TURNING_POINTS] if moved(k) > 0.0005))


def grade_decision(state: GameState, action: Action, index: int = 0) -> TableDecision | None:
    """``action`` taken at ``state`` (2-4 players) against the expert's best, or None when
    there was nothing to decide (one legal action only, or the game is over)."""
    if state.phase is Phase.OVER or state.solo or len(legal_actions(state)) <= 1:
        return None
    options = table_options(state)
    if not options:
        return None
    want = action_class(state, action)
    chosen = next((o for o in options if action_class(state, o.action) == want), None)
    best = options[0]
    if chosen is not None:
        after, matched = chosen.win, True
    else:
        after, matched = _win_after(state, action), False
    before, best_action = best.win, best.action
    if after > before:  # the choice the list did not name was at least as good
        before, best_action = after, action
    return TableDecision(
        index=index, seat=state.seat, round=state.round, phase=state.phase.name.lower(),
        state=state, chosen=action, best=best_action, before=before, after=after,
        loss=max(0.0, 100.0 * (before - after)), matched=matched,
    )


def _win_after(state: GameState, action: Action) -> float:
    """The expert's chance of winning after ``action`` (not in its option list): of the
    position it leads to (:func:`~skyline.players.table_expert.value_after`); a reroll is
    valued over every outcome of its dice (never by the faces that came up)."""
    if isinstance(action, Roll):
        types = {d.id: d.type for d in state.dice}
        return sum(p * value_after(state, apply_action(state, action, faces))[0]
                   for faces, p in roll_outcomes([types[i] for i in action.dice]))
    return value_after(state, apply_action(state, action))[0]


class TableReviewRun:
    """The review of the game ``options`` + ``actions`` (2-4 players), graded
    incrementally; ``seats``: the seats whose decisions are graded (default: all).

    As it advances: ``state`` (the position reached), ``i`` (actions replayed),
    ``decisions`` and ``turns`` so far; once ``done``, :meth:`result` is the whole review.
    ``ValueError`` for a solo game (:mod:`skyline.players.review` reviews those)."""

    def __init__(self, options: Options, actions: Sequence[Action],
                 seats: Sequence[int] | None = None) -> None:
        self.options = options
        self.actions = tuple(actions)
        self.state = new_game(options)
        if self.state.solo:
            raise ValueError("table review: only games of 2-4 players are reviewed")
        n = len(self.state.players)
        self.seats = tuple(sorted({s for s in (range(n) if seats is None else seats)
                                   if 0 <= s < n}))
        self.i = 0
        self.decisions: list[TableDecision] = []
        self.turns: list[TurnChange] = []
        self.done = False
        self._turn_start: tuple[float, ...] = table_chances(self.state)
        self._turn_events: list[dict[str, Any]] = []
        self._turn_points = score(self.state.players[self.state.seat])
        self._result: TableReview | None = None

    def step(self) -> bool:
        """Replay (and, for a graded seat, grade) the next action; return :attr:`done`."""
        if self.i < len(self.actions):
            state, action = self.state, self.actions[self.i]
            if state.seat in self.seats:
                row = grade_decision(state, action, self.i)
                if row is not None:
                    self.decisions.append(row)
            after = apply_action(state, action)
            self._turn_events.extend(describe(state, action, after))
            if after.phase is Phase.OVER or (after.round, after.seat) != (state.round, state.seat):
                self._end_turn(state, after)
            self.state = after
            self.i += 1
        if self.i >= len(self.actions) and not self.done:
            self.done = True
        return self.done

    def advance(self, budget_ms: float, clock: Callable[[], float] = time.perf_counter) -> bool:
        """Replay actions until the review is done or ``budget_ms`` milliseconds have passed
        (at least one action); return :attr:`done`."""
        started = clock()
        self.step()
        while not self.done and (clock() - started) * 1000 < budget_ms:
            self.step()
        return self.done

    def _end_turn(self, before: GameState, after: GameState) -> None:
        seat = before.seat
        chances = table_chances(after)
        events = tuple(e for e in self._turn_events
                       if e.get("event") not in ("round_end", "game_over"))
        points = score(after.players[seat]) - self._turn_points
        self.turns.append(TurnChange(before.round, seat, events, points, self._turn_start,
                                     chances))
        self._turn_start = chances
        self._turn_events = []
        self._turn_points = score(after.players[after.seat])

    def result(self) -> TableReview:
        """The review (so far, if not :attr:`done`)."""
        if self._result is not None:
            return self._result
        summary = game_summary(self.state)
        ranking = tuple(
            FinalPlace(p.seat, p.rank, p.score, p.completed)
            for p in sorted(summary.players, key=lambda p: (p.rank, p.seat))
        )
        focus = summary.winners[0] if summary.winners else 0
        review = TableReview(
            seats=self.seats,
            decisions=tuple(self.decisions),
            turns=tuple(self.turns),
            turning_points=_turning_points(self.turns, (focus,)),
            ranking=ranking,
            winners=summary.winners,
            tie_break=summary.tie_break,
            over=summary.over,
        )
        if self.done:
            self._result = review
        return review


def table_review(game: Any, seats: Sequence[int] | None = None) -> TableReview:
    """Replay a finished (or partly played) game of 2-4 players and review it (see the
    module doc); ``seats``: whose decisions to grade (default: every seat). ``game`` is a
    :class:`~skyline.rules.Board` or an ``(options, actions)`` pair; ``ValueError`` for a
    solo game."""
    if isinstance(game, tuple):
        options, actions = game
    else:
        options, actions = game.options, list(game.actions)
    run = TableReviewRun(options, actions, seats)
    while not run.step():
        pass
    return run.result()
