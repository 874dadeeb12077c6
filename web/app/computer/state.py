"""The computer's own page state: the reviews and the chances chart as the pacer works
them out in idle ticks (``app.computer.pacer``).

The page state holds each on a base named in the core (``ReviewState``,
``TableReviewState``, ``ChancesState``); the accessors below give it back typed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.core.page_state import (
    ChancesState,
    PageState,
    ReviewState,
    TableReviewState,
    held_as,
)


@dataclass
class ReviewProgress(ReviewState):
    """The review of a finished solo game, graded decision by decision in ticks."""

    key: tuple[Any, ...]
    state: Any  # the GameState reached so far
    start: float  # the optimum's expected score (scenario: objective) from the first position
    i: int = 0
    decisions: list[dict[str, Any]] = field(default_factory=list)
    done: bool = False
    total: float = 0.0
    accuracy: float = 100.0
    # a scenario game, once done: skyline.expert.scenario_verdict (scenario_met, failed_by,
    # start_p_success, p_loss_total, ...); the values above are then on the scenario's
    # objective (expected score + SUCCESS_WEIGHT * P(met))
    verdict: dict[str, Any] | None = None


@dataclass
class TableReviewProgress(TableReviewState):
    """The review of a finished game of 2-4 players (``skyline.players.table_review``),
    replayed in ticks by the pacer: ``key`` is the game reviewed (options and actions),
    ``seats`` the seats graded (the people at this device), ``i`` of ``total`` actions
    replayed so far; ``result`` (a ``TableReview``) once done."""

    key: tuple[Any, ...]
    seats: tuple[int, ...]
    total: int
    i: int = 0
    result: Any = None


@dataclass
class ChancesProgress(ChancesState):
    """The chances as the game goes (``skyline.players.chances``), valued in idle ticks by
    the pacer: ``key`` is the game followed (its options), ``kind`` what a point holds
    (``table``, ``score``, ``scenario``), ``points`` every turn valued so far (kept: a
    turn is valued once), ``done`` every turn of the game so far has its point."""

    key: Any
    kind: str
    points: tuple[Any, ...] = ()
    done: bool = False


def review_of(page: PageState) -> ReviewProgress | None:
    """The solo review's progress (``PageState.review``), if any."""
    return held_as(page.review, ReviewProgress)


def table_review_of(page: PageState) -> TableReviewProgress | None:
    """The review's progress of a game of 2-4 players (``PageState.table_review``), if any."""
    return held_as(page.table_review, TableReviewProgress)


def chances_of(page: PageState) -> ChancesProgress | None:
    """The chances chart's values so far (``PageState.chances``), if any."""
    return held_as(page.chances, ChancesProgress)
