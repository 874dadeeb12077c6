"""The daily challenge's own page state."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.page_state import DialogState


@dataclass(frozen=True)
class ConfirmDailyDialog(DialogState):
    """The daily challenge of ``day`` (YYYY-MM-DD) was asked for while a game was in
    progress: start it only if the player says so."""

    day: str
