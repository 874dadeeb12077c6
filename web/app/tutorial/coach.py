
"""The guided first game's panel ("Learn to play", web/tutorial.py): its screen-model
value and its HTML, shown at the top of the turn panel while the tutorial runs.

Every text in a :class:`CoachView` is already translated; ``marks`` are the ids of the
elements to touch now (as ``board_view`` names them: ``yard-U``, ``die-3``,
``act-build``, ``tile-2-0``, ``take-district``), which ``board_view`` marks like the
hint's best action.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.core.html import esc

#: The panel's id (focused when no element of the step is to be touched).
COACH = "coach"


@dataclass(frozen=True)
class CoachButton:
    """A button of the panel; its id is its command's name (focused after a step)."""

    action: str
    label: str
    primary: bool = False


@dataclass(frozen=True)
class CoachView:
    """The tutorial's step as the player sees it."""

    step: str  # the step's name (data-step), e.g. "e_take", "card_intro", "solo"
    kicker: str  # "Learn to play · step 3 of 24"
    heading: str  # whose turn, or the card's title
    paragraphs: tuple[str, ...]  # what to do and why (a card: what a turn taught)
    oops: str | None  # the friendly word after a click the step does not want
    marks: frozenset[str]  # the ids of the elements to touch now
    buttons: tuple[CoachButton, ...]  # Next / Play a real game, then Leave
    label: str  # the panel's accessible name


def render_coach(c: CoachView) -> str:
    """The panel: kicker, heading, the step's words, the friendly word, its buttons."""
    paragraphs = "".join(f'<p class="coach-text">{esc(p)}</p>' for p in c.paragraphs)
    oops = (f'<p class="coach-oops" data-testid="coach-oops">{esc(c.oops)}</p>'
            if c.oops else "")
    buttons = "".join(
        f'<button type="button" id="{b.action}" '
        f'class="{"primary" if b.primary else "coach-leave"}" '
        f'data-action="{b.action}" data-testid="{b.action}">{esc(b.label)}</button>'
        for b in c.buttons
    )
    return (
        f'<section class="coach" id="{COACH}" data-testid="coach" data-step="{esc(c.step)}" '
        f'aria-labelledby="coach-title">'
        f'<p class="coach-kicker">{esc(c.kicker)}</p>'
        f'<h3 class="coach-title" id="coach-title">{esc(c.heading)}</h3>'
        f"{paragraphs}{oops}"
        f'<div class="coach-actions">{buttons}</div></section>'
    )

