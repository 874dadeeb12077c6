"""One router for every link the page opens: ``#play?`` (a shared game, see
``skyline.records.links``), ``#game?`` (a game with friends elsewhere, handled by
``app.games.friends``), ``#live?`` (the invitation to a live table, the same with the
table's room secret) and ``#daily?`` (a daily challenge, ``web/daily.py``).

Each link is read by the engine's total reader first: a bad one is refused with its
reason in the player's language and the game in progress is untouched. In a tab that
does not have the game (another tab has the lock) a link waits until this tab has it;
a game link, which continues a game, takes the game over at once: it applies in the
tab that opened it, and the other tab steps aside.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from app.core.commands import Cmd, Command, Guard, plain
from app.core.dom import DIALOG_FIRST, SHARE_LINK
from app.core.events import Emit, StartDaily
from app.core.i18n import Text
from app.core.page_state import ConfirmLinkDialog, Level, ShareDialog
from app.core.session import Session
from app.games.friends import Friends
from app.games.tabs import Tabs
from skyline import (
    DAILY_PATH,
    LINK_PREFIX,
    LinkError,
    Seat,
    check_bots_available,
    is_game_link,
    is_live_link,
    make_share_fragment,
    parse_daily_fragment,
    parse_game_link,
    parse_live_link,
    parse_share_bots,
    parse_share_fragment,
)
from skyline.players.registry import bot_available

# Markup, even percent-encoded: no link this page makes has it outside the names.
_MARKUP = re.compile(r"[<>\"`]|%3[CE]|%22|%60", re.IGNORECASE)


def not_a_link(fragment: str) -> bool:
    """A fragment that is no link of any kind (``#word?...``) the page knows, e.g.
    ``#garbage<script>``: reported as a damaged link, not silently dropped."""
    return bool(fragment.strip("#")) and not re.match(r"#[a-z]+\?", fragment)


def unknown_kind(fragment: str) -> str | None:
    """The word of a link of a kind this page has none of (``#foo?bar=1``: "foo"), said
    rather than ignored; None for the page's own kinds and for no link at all."""
    shape = re.match(r"#?([a-z]+)\?", fragment)
    if shape is None or shape.group(1) in _KINDS:
        return None
    return shape.group(1)


class LinkKind(Enum):
    PLAY = "play"  # a shared game: #play?...
    GAME = "game"  # a game with friends elsewhere: #game?...
    LIVE = "live"  # the invitation to a live table: #live?...
    DAILY = "daily"  # a daily challenge: #daily?d=...


#: The link words the page knows (``#play?``, ``#game?``, ``#daily?``).
_KINDS = frozenset(kind.value for kind in LinkKind)


def link_kind(fragment: str) -> LinkKind | None:
    """Which link a fragment is meant as (None: no link, e.g. empty). Anything that is
    no known link at all counts as a damaged shared-game link."""
    if is_game_link(fragment):
        return LinkKind.GAME
    if is_live_link(fragment):
        return LinkKind.LIVE
    if fragment.lstrip("#").startswith(DAILY_PATH):
        return LinkKind.DAILY
    if fragment.startswith(LINK_PREFIX) or not_a_link(fragment) or unknown_kind(fragment):
        return LinkKind.PLAY
    return None


@dataclass(frozen=True)
class PlayLink:
    """A shared game as its link gives it: options, a score to beat and the seats."""

    options: Any
    beat: int | None
    seats: tuple[Seat, ...]


def read_play_link(fragment: str) -> PlayLink:
    if not_a_link(fragment):
        raise LinkError("link", "this is not a game link", reason="malformed")
    kind = unknown_kind(fragment)
    if kind is not None:
        raise LinkError("link", f"this page has no #{kind}? links", reason="unknown", kind=kind)
    link = parse_share_fragment(fragment)
    bots = dict(parse_share_bots(fragment))
    check_bots_available(bots, bot_available)
    seats = tuple(Seat.computer(bots[i]) if i in bots else Seat.here()
                  for i in range(len(link.options.names)))
    return PlayLink(link.options, link.beat, seats)


#: Each link's total reader: a valid link's value, or a LinkError.
READERS: dict[LinkKind, Callable[[str], Any]] = {
    LinkKind.PLAY: read_play_link,
    LinkKind.GAME: parse_game_link,
    LinkKind.LIVE: parse_live_link,
    LinkKind.DAILY: parse_daily_fragment,
}


class LinkRouter:
    """Opens links (at start and on ``hashchange``) and makes the share link."""

    def __init__(self, session: Session, emit: Emit, tabs: Tabs, friends: Friends) -> None:
        self.s = session
        self.emit = emit
        self.tabs = tabs
        self.friends = friends
        self.pending: str | None = None  # a link opened while another tab had the game

    def commands(self) -> dict[Cmd, Command]:
        return {
            Cmd.LINK_ACCEPT: plain(self.accept, guards=Guard.STARTS | Guard.WRITES),
            Cmd.SHARE: plain(self.share, focus=SHARE_LINK),
        }

    def open(self, fragment: str, quiet: bool = False) -> Text | None:
        """Open the link in ``fragment``. A shared-game link that cannot be opened:
        the reason is shown as a notice, or returned without one when ``quiet`` (no
        game yet: the caller shows it in the welcome dialog, and "your current game is
        unchanged" would not be true)."""
        if fragment:
            self.s.host.clear_fragment()
        kind = link_kind(fragment)
        if kind is None:
            return None
        try:
            link = READERS[kind](fragment)
        except LinkError as exc:
            return self._refused(kind, exc, fragment, quiet)
        if self.s.page.readonly:  # opened once this tab has the game
            self.pending = fragment
            if kind in (LinkKind.GAME, LinkKind.LIVE):
                self.tabs.take_control()  # it continues a game: apply it here
            else:
                self.tabs.other_tab_notice()  # "Play here" opens it
            return None
        if kind is LinkKind.GAME:
            self.friends.open_game_link(fragment, link)
        elif kind is LinkKind.LIVE:
            self.friends.open_game_link(fragment, link.game, link.secret)
        elif kind is LinkKind.DAILY:
            self.emit(StartDaily(link.isoformat()))
        else:
            self._open_play_link(link)
        return None

    def open_pending(self) -> None:
        """This tab has the game now: the link that waited for it opens."""
        if self.pending:
            fragment, self.pending = self.pending, None
            self.open(fragment)

    def _refused(self, kind: LinkKind, exc: LinkError, fragment: str,
                 quiet: bool) -> Text | None:
        s = self.s
        if kind in (LinkKind.GAME, LinkKind.LIVE):
            s.notify("corr.bad_link", Level.ERROR, reason=s.error(exc))
            return None
        if kind is LinkKind.DAILY:
            s.notify("notice.bad_daily", Level.ERROR, reason=s.error(exc))
            return None
        reason = self.error(exc, fragment)
        if not quiet:
            s.notify("notice.bad_link", Level.ERROR, reason=reason)
        return reason

    def error(self, exc: LinkError, fragment: str) -> Text:
        """Why a link cannot be opened. A link with markup in it (``<script>``), or one
        that is not a game link at all, is damaged, whatever field the reader tripped on."""
        # names may hold anything (shown as text); no other part of a link holds markup
        rest = "&".join(part for part in fragment.split("&")
                        if not part.startswith(("p=", "#play?p=")))
        if exc.params.get("reason") == "malformed" or _MARKUP.search(rest):
            return Text("error.option.malformed")
        return self.s.error(exc)

    def _open_play_link(self, link: PlayLink) -> None:
        """Start the shared game, or ask first if one is in progress."""
        s = self.s
        if s.game_in_progress():
            s.page.dialog = ConfirmLinkDialog(link.options, link.beat, link.seats)
            s.focus_id = DIALOG_FIRST
        else:
            s.start(link.options, link.beat, link.seats)
            s.page.dialog = None
            s.notify("notice.link_started")

    def accept(self) -> None:
        """The player confirmed the shared game that arrived during a game."""
        s = self.s
        d = s.page.dialog
        if isinstance(d, ConfirmLinkDialog):
            s.start(d.options, d.beat, d.seats)
            s.narrate_new_game()
            s.page.dialog = None
            s.notify("notice.link_started")

    # ------------------------------------------------------------------ sharing

    def share_link(self) -> str:
        """A ``#play?`` link that starts this game (same seed) for someone else: with a
        solo score to beat and the computer seats; a friend elsewhere is a person, so
        that seat is a person's in the new game too."""
        s = self.s
        board = s.board
        assert board is not None
        beat = None
        if board.state.solo and board.is_game_over():
            beat = board.scores()[0]
        elif board.state.solo and s.page.beat is not None:
            beat = s.page.beat
        try:
            fragment = make_share_fragment(board.options, beat)
        except LinkError:  # a score no link may carry: share the game without it
            fragment = make_share_fragment(board.options)
        bots = "".join(f"{i}{seat.letter}" for i, seat in sorted(s.page.seats.items())
                       if seat.is_computer)
        return s.host.page_base() + "#" + fragment + ("&bots=" + bots if bots else "")

    def share(self) -> bool | None:
        s = self.s
        if s.board is None:
            return False
        link = self.share_link()
        s.page.dialog = ShareDialog(link)
        s.host.copy(link, self._copied)
        return None

    def _copied(self, ok: bool) -> None:
        if isinstance(self.s.page.dialog, ShareDialog):
            self.s.page.dialog.copied = ok
            self.s.render()
