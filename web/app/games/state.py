"""The game links' own page state: the dialogs of correspondence play."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.page_state import DialogState


@dataclass
class SendDialog(DialogState):
    """"Send your move": the game link for the friend at ``seat``, the clipboard's
    answer, and the QR code once asked for (``qr``: None not asked, "loading",
    "failed", else the SVG markup)."""

    link: str
    seat: int | None
    copied: bool | None = None
    shared: bool | None = None
    qr: str | None = None
    live: bool = False  # the invitation to a live table (its link is the invitation)


@dataclass
class ClaimDialog(DialogState):
    """A game link of an unknown game: which human seat(s) does this device play?"""

    fragment: str
    seats: tuple[str, ...]  # as the link gives them (human or a computer level)
    names: tuple[str, ...]
    suggested: int | None  # the seat to move, if it is human
    error: str | None = None
    secret: str = ""  # a live table's invitation: its room secret
