"""Playing with friends elsewhere: a ``#game?`` link adds the game (asking which seats
this device plays), updates it when it continues it, or is refused when older; "Send
your move" carries the game on by share sheet, clipboard or QR code. The game list is
never overwritten silently (``skyline.records.game_list``, ``store.Library``).
"""

from __future__ import annotations

from typing import Any

from app.core.commands import Cmd, Command, Guard, form_arg, plain
from app.core.dom import DIALOG_FIRST
from app.core.i18n import Text
from app.core.page_state import Level, Playback
from app.core.session import Session
from app.core.store import SaveWrite
from app.games import ui as games_ui
from app.games.state import ClaimDialog, SendDialog
from skyline import (
    COMPUTER_LEVELS,
    GameEntry,
    GameLink,
    LinkError,
    Phase,
    Seat,
    make_game_link,
    parse_game_link,
    parse_live_link,
    send_to,
)


class Friends:
    """Game links in and out."""

    def __init__(self, session: Session) -> None:
        self.s = session

    def commands(self) -> dict[Cmd, Command]:
        return {
            Cmd.CORR_SEND: plain(self.open_send_dialog),
            Cmd.CORR_COPY: plain(self.copy),
            Cmd.CORR_SHARE: plain(self.share),
            Cmd.CORR_QR: plain(self.show_qr),
            Cmd.CORR_CLAIM: form_arg(self.claim_seats, Guard.WRITES),
        }

    def open_game_link(self, fragment: str, link: GameLink, secret: str = "") -> None:
        """A game link from a friend (already read): add, update, keep beside or refuse.
        With a live table's ``secret`` (an invitation) the game joins that table here."""
        s = self.s
        games = s.library.games
        for copy in games.copies(link.game_id):
            s.library.reread(copy.id)  # another tab may have changed it
        reception = games.receive(link, s.host.now_iso())
        state = link.board.state
        if reception.kind == "new":
            seat = state.seat if state.phase is not Phase.OVER else None
            # a link's seats are "human" or a computer level
            suggested = (seat if seat is not None and link.seats[seat] not in COMPUTER_LEVELS
                         and not secret else None)  # a live table's seat to move: the host's
            s.page.dialog = ClaimDialog(fragment, link.seats, link.board.options.names,
                                        suggested, secret=secret)
            s.focus_id = DIALOG_FIRST
            return
        stored = games.get(reception.entry_id) if reception.entry_id is not None else None
        if secret and stored is not None and stored.live != secret:
            # the invitation to a live table of a game this device has: it joins the table
            stored = stored._replace(live=secret)
            if s.library.write(stored) is SaveWrite.CONFLICT:
                s.notify_conflict()
                return
            if s.is_open(stored.id) and s.entry is not None:
                s.entry = s.entry._replace(live=secret)
            if reception.entry is not None and reception.kind == "update":
                reception = reception._replace(entry=reception.entry._replace(live=secret))
        if secret and reception.kind == "stale" and stored is not None:
            s.switch_to(stored)  # this device is ahead: the table catches the others up
            s.notify("live.opened", **self.turn_params(stored))
            return
        if reception.kind == "stale" and stored is not None:
            entry = stored
            s.notify("corr.stale", Level.ERROR, sticky=True, name=entry.name,
                     round=link.board.state.round)
            return
        if reception.kind == "same":
            s.switch_to(stored)
            s.notify("corr.same")
            return
        assert reception.entry is not None  # an update or a divergence carries its entry
        entry = reception.entry
        if reception.kind == "update":
            if s.library.write(entry) is SaveWrite.CONFLICT:
                s.notify_conflict()
                return
            s.page.dialog = None
            s.open_entry(entry)
            seen = len(stored.board.actions) if stored is not None else len(entry.board.actions)
            if len(entry.board.actions) > seen:
                # the friend's turn is played on the board before the game shows as it is
                s.page.playback = Playback(entry.board.record(), seen, len(entry.board.actions))
            s.notify("corr.updated", **self.turn_params(entry))
            return
        # diverged: both continuations are kept, side by side
        if s.library.write(entry, current=False) is SaveWrite.CONFLICT:
            s.notify_conflict()
            return
        s.notify("corr.diverged", Level.WARN, sticky=True,
                 button=(Cmd.GAME_OPEN, entry.id, "corr.open_other"),
                 name=stored.name if stored else entry.name)

    def turn_params(self, entry: GameEntry) -> dict[str, Any]:
        """Whose turn it is in ``entry``, for the notices about a link."""
        if entry.finished:
            return {"name": "", "state": Text("corr.state_over")}
        name = entry.options.names[entry.seat]
        here = Seat.from_code(entry.seats[entry.seat]).is_here
        key = "corr.state_you" if here else "corr.state_friend"
        return {"name": name, "state": Text(key, (("name", name),))}

    def claim_seats(self, form: dict) -> None:
        """The answer to "which seats do you play?" for a new game from a link."""
        s = self.s
        d = s.page.dialog
        if not isinstance(d, ClaimDialog):
            return
        mine = [i for i, code in enumerate(d.seats)
                if code not in COMPUTER_LEVELS and form.get(f"seat{i}") in ("on", "1", True)]
        if not mine:
            d.error = s.t("corr.claim_none")
            return
        try:
            link = parse_live_link(d.fragment).game if d.secret else parse_game_link(d.fragment)
        except LinkError as exc:
            s.page.dialog = None
            s.notify("corr.bad_link", Level.ERROR, reason=s.error(exc))
            return
        entry = s.library.games.adopt(link, mine, s.host.now_iso(), live=d.secret)
        if s.library.write(entry) is SaveWrite.CONFLICT:
            s.page.dialog = None
            s.notify_conflict()
            return
        s.page.dialog = None
        old = s.entry
        if old is not None and s.untouched():
            s.library.delete(old.id)  # an untouched game makes room (as on a new game)
        s.open_entry(entry)
        s.notify("corr.added", **self.turn_params(entry))

    # ------------------------------------------------------------------ sending

    def game_link(self) -> str:
        """The link that carries the open game to a friend elsewhere."""
        s = self.s
        assert s.board is not None and s.entry is not None
        fragment = make_game_link(s.board, s.entry.seats, s.entry.nonce)
        return s.host.page_base() + "#" + fragment

    def open_send_dialog(self) -> None:
        s = self.s
        if s.board is None or s.entry is None or not s.page.friend_seats:
            return
        seats = s.entry_seats(len(s.board.options.names))
        s.page.dialog = SendDialog(self.game_link(), send_to(s.board, seats))
        s.focus_id = Cmd.CORR_SHARE if s.can_share() else Cmd.CORR_COPY

    def copy(self) -> None:
        d = self.s.page.dialog
        if isinstance(d, SendDialog):
            self.s.host.copy(d.link, lambda ok: self._sent("copy", ok))

    def share(self) -> None:
        d = self.s.page.dialog
        if isinstance(d, SendDialog):
            title = self.s.t("live.share_title" if d.live else "corr.share_title")
            self.s.host.share(d.link, title, lambda ok: self._sent("share", ok))

    def _sent(self, what: str, ok: bool) -> None:
        d = self.s.page.dialog
        if isinstance(d, SendDialog):
            if what == "copy":
                d.copied = ok
            else:
                d.shared = ok or None
                if not ok:  # cancelled or refused: copy instead
                    self.s.host.copy(d.link, lambda done: self._sent("copy", done))
                    return
            self.s.render()

    def show_qr(self) -> None:
        d = self.s.page.dialog
        if isinstance(d, SendDialog) and d.qr in (None, "failed"):
            d.qr = "loading"
            self.s.host.load_qr(self._qr_loaded)

    def _qr_loaded(self, ok: bool) -> None:
        d = self.s.page.dialog
        if not isinstance(d, SendDialog):
            return
        try:
            d.qr = games_ui.qr_svg(d.link) if ok else "failed"
        except Exception as exc:
            self.s.host.report(f"skyline: QR code: {type(exc).__name__}: {exc}")
            d.qr = "failed"
        self.s.render()
