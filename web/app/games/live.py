"""Live tables: a game with friends elsewhere whose moves travel as they are made.

The open game is at a live table when its entry holds a room secret (``GameEntry.live``).
This feature then keeps one :class:`~skyline.records.live_table.LiveTable` (the engine's
synchronisation, a pure reducer) in step with the session, one way:

- the page's own moves (the player's clicks, the computer seats this device plays) are
  made on the session's board as in any game; before each render :meth:`Live.follow`
  hands the new actions (or the undone ones) to the table, whose messages go out through
  the host (``live_send``);
- what arrives from the other devices (``live`` page events: a message, a device that
  joined or left, a tick, the relays' or the network's state) goes to the table; a game
  that changed is put on the session's board, saved, and its new actions are played on
  the board one by one, as a friend's turn from a link is (``PageState.playback``).

The rest of the page reads only ``PageState.live`` (``LiveStatus``): whose seats move
here, which seats are away, whether this device has caught up, the network. Joining and
leaving follow the open entry: opening a live game joins its table (at start, after a
reload, on switching games), opening another leaves it, and a tab that only watches
(another tab has the game) never joins.
"""

from __future__ import annotations

import secrets
from dataclasses import replace

from app.core.bridge import PageEvent
from app.core.commands import Cmd, Command, Guard, plain
from app.core.page_state import Level, LiveStatus, Playback
from app.core.session import Session
from app.games.state import SendDialog
from skyline import Board, IllegalActionError, make_live_link
from skyline.records.live_table import Event, LiveTable, Step, common_length, live_seats

#: How the network's state is said when it changes (None: nothing to say).
NETWORK_NOTICES = {
    "closed": ("live.no_relay", Level.WARN),
    "offline": ("live.offline", Level.WARN),
    "unavailable": ("live.unavailable", Level.ERROR),
}


class Live:
    """The open game's live table, if it is at one."""

    def __init__(self, session: Session) -> None:
        self.s = session
        self.table: LiveTable | None = None
        self.secret = ""  # the table joined ("" none)
        self.entry_id = ""  # the game it is of
        self.names: dict[str, str] = {}  # peer id -> the names of its seats, for notices
        self.arrived: frozenset[int] = frozenset()  # the seats the "joined" notice names
        session.before_render = self.follow

    def commands(self) -> dict[Cmd, Command]:
        return {Cmd.LIVE_INVITE: plain(self.invite, Guard.WRITES)}

    # ------------------------------------------------------------------ the invitation

    def invite(self) -> None:
        """Make the open game a live table (a new room secret, unless it is one already)
        and show its invitation: one link, with its QR code, for the friends elsewhere."""
        s = self.s
        if s.board is None or s.entry is None or not s.page.friend_seats:
            return
        if not s.entry.live:
            s.entry = s.entry._replace(live=secrets.token_urlsafe(16))
            s.save()
        s.page.dialog = SendDialog(self.invitation(), None, live=True)
        s.focus_id = Cmd.CORR_SHARE if s.can_share() else Cmd.CORR_COPY

    def invitation(self) -> str:
        s = self.s
        assert s.board is not None and s.entry is not None
        fragment = make_live_link(s.board, s.entry.seats, s.entry.nonce, s.entry.live)
        return s.host.page_base() + "#" + fragment

    # ------------------------------------------------------------------ one way: page -> table

    def follow(self) -> None:
        """Before each render: join or leave as the open game asks, and hand this device's
        new moves to the table."""
        s = self.s
        entry = s.entry
        wanted = ""
        if (entry is not None and entry.live and s.board is not None and not s.page.readonly
                and s.tutorial is None and not s.page.crashed):
            wanted = entry.live
        if wanted != self.secret or (entry is not None and entry.id != self.entry_id
                                     and wanted):
            self._leave()
            if wanted:
                self._join()
        table = self.table
        if table is None or s.board is None:
            s.page.live = None
            return
        ours, theirs = s.board.actions, table.board.actions
        if ours != theirs:
            common = common_length(ours, theirs)
            try:
                for _ in range(len(theirs) - common):
                    step = table.undo()
                    self._apply(step, show=False)
                    table = step.table
                for action in ours[common:]:
                    step = table.act(action)
                    self._apply(step, show=False)
                    table = step.table
            except IllegalActionError:
                agreed = table.game.actions
                if len(ours) > len(agreed) and tuple(ours[:len(agreed)]) == tuple(agreed):
                    # moves of other seats that came by link (the correspondence fallback):
                    # the engine read them; the table takes the longer game and tells the
                    # others, who adopt it as they would a device's
                    self._restart(s.board)
                else:
                    # a move the table cannot take (it had not caught up): the table's
                    # game stands, and the player sees it
                    self._show(table.board)
                    s.notify("live.move_refused", Level.WARN)
        self._status()

    def _restart(self, board: Board) -> None:
        """The table on ``board`` (a longer game from elsewhere), peers kept, and a word to
        them about how far this device is."""
        old = self.table
        assert old is not None
        table = replace(LiveTable.start(board, old.mine), peers=old.peers,
                        connected=old.connected, synced=old.synced)
        self._apply(table.ping(), show=False)

    def _join(self) -> None:
        s = self.s
        assert s.entry is not None and s.board is not None
        self.secret, self.entry_id = s.entry.live, s.entry.id
        self.table = LiveTable.start(s.board, live_seats(s.entry.seats))
        self.names = {}
        s.page.live = LiveStatus(self.table.mine)
        if self.table.board.actions != s.board.actions:  # another seat's undoable steps
            self._show(self.table.board)
        s.host.live_join(self.secret)

    def _leave(self) -> None:
        if self.secret:
            self.s.host.live_leave()
        self.secret, self.entry_id, self.table = "", "", None
        self.s.page.live = None

    # ------------------------------------------------------------------ table -> page

    def event(self, event: PageEvent) -> None:
        """A ``live`` page event (web/js/live-page.js)."""
        table, s = self.table, self.s
        if table is None:
            return
        what = event.what
        if what == "message":
            self._apply(table.receive(event.peer, event.text))
        elif what == "joined":
            self._apply(table.joined(event.peer))
        elif what == "left":
            self._apply(table.left(event.peer))
        elif what == "tick":
            self._apply(table.ping())
        elif what in ("relays", "online", "offline", "error"):
            network = {"relays": event.text if event.text in ("open", "closed") else "closed",
                       "online": "connecting", "offline": "offline"}.get(what, "unavailable")
            if what == "error" and event.text != "unavailable":
                s.host.report(f"skyline: live table: {event.text}")
                return  # a device that failed the secret's check: nothing for the player
            live = s.page.live
            if live is not None and live.network != network:
                s.page.live = LiveStatus(live.moves_here, live.away, live.synced, network)
                said = NETWORK_NOTICES.get(network)
                if said is not None:
                    s.notify(said[0], said[1], sticky=True)
                else:
                    s.drop_notices(*(key for key, _level in NETWORK_NOTICES.values()))
        self._status()

    def _apply(self, step: Step, show: bool = True) -> None:
        """The table's step: its messages go out, what happened is said, and a game that
        changed is shown (and saved) here."""
        self.table = step.table
        if self.s.board is not None:
            names = self.s.board.options.names
            for peer, seats in step.table.peers.items():
                if seats:
                    self.names[peer] = ", ".join(names[i] for i in seats)
        for out in step.send:
            self.s.host.live_send(out.to or "", out.text)
        for event in step.events:
            self._say(event)
        if show and step.table.board.actions != (self.s.board.actions if self.s.board else ()):
            self._show(step.table.board)

    def _show(self, board: Board) -> None:
        """Put the table's game on the session's board, save it, and play the actions this
        device had not seen on the board, as a friend's turn from a link."""
        s = self.s
        assert s.board is not None
        before = s.board.actions
        seen = common_length(before, board.actions)
        playback = s.page.playback
        if playback is not None:
            seen = min(seen, playback.step)
        was_over = s.board.is_game_over()
        s.set_board(board.copy())
        s.save()
        if board.is_game_over() and not was_over:
            s.record_result()
        if len(board.actions) > seen:
            s.page.playback = Playback(board.record(), seen, len(board.actions))
        else:
            s.page.playback = None

    def _say(self, event: Event) -> None:
        """Tell the player what matters: a friend came or went, a message was refused."""
        s, table = self.s, self.table
        assert table is not None and s.board is not None
        names = s.board.options.names
        if event.kind == "joined":
            return  # said once the peer says which seats it plays (its hello)
        name = self.names.get(event.peer or "", "")
        if event.kind == "left" and name:
            s.notify("live.left", Level.INFO, name=name)
        elif event.kind == "seat_taken":
            s.notify("live.seat_taken", Level.WARN, name=names[event.number])
        elif event.kind in ("forged", "illegal", "malformed", "refused"):
            s.host.report(f"skyline: live table: {event.kind} from {event.peer}: {event.detail}")
        elif event.kind == "dropped":
            s.notify("live.dropped", Level.WARN)

    def _status(self) -> None:
        """``PageState.live`` from the table, saying who arrived."""
        s, table = self.s, self.table
        if table is None or s.board is None:
            s.page.live = None
            return
        old = s.page.live
        count = len(s.board.options.names)
        away = frozenset(i for i in range(count) if not table.seat_connected(i))
        network = old.network if old is not None else "connecting"
        new = LiveStatus(table.mine, away, table.synced, network)
        if old is not None and old.away != new.away:
            back = (old.away - new.away) - table.mine
            if back:
                # friends arriving one after the other are said in one notice, while it shows
                shown = any(n.key == "live.joined" for n in s.page.notices)
                self.arrived = ((self.arrived if shown else frozenset()) | back) - new.away
                names = s.board.options.names
                s.notify("live.joined", Level.INFO,
                         name=", ".join(names[i] for i in sorted(self.arrived)))
        s.page.live = new
