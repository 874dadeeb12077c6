"""The open game and what every feature shares: the board, its game-list entry, the
page state, storage, notices and the news of the latest action.

Features change this state through their commands; the shell renders it
(``Session.render`` calls the renderer the controller installed), so the core never
imports a view.
"""

from __future__ import annotations

import secrets
import string
from collections.abc import Callable
from typing import Any

from app.core.commands import Cmd
from app.core.game_stats import result_of
from app.core.host_port import Host
from app.core.i18n import Texts
from app.core.notices import Notices
from app.core.page_state import (
    ExportDialog,
    GamesDialog,
    Lesson,
    Level,
    Narration,
    NewGameDialog,
    PageState,
    RulesDialog,
    StatsDialog,
    seats_of_entry,
)
from app.core.selection import Selection
from app.core.store import KEY_SEATS, History, Library, Records, SaveWrite, Store, TabLock
from skyline import (
    Board,
    DieType,
    GameEntry,
    GameState,
    Options,
    Phase,
    SaveError,
    Seat,
    make_entry,
)

SEED_ALPHABET = string.ascii_letters + string.digits


def random_seed() -> str:
    """8-10 characters [A-Za-z0-9]; ``secrets`` uses crypto.getRandomValues in Pyodide."""
    length = 8 + secrets.randbelow(3)
    return "".join(secrets.choice(SEED_ALPHABET) for _ in range(length))


#: the dialogs that stay open when the game in memory is replaced by the stored one (a
#: watching tab follows every move of the other tab): they show nothing of that game
#: (the game list reads the list, which follows too), or keep what the player typed;
#: the others (a link of the game, a question about it) would show a state now gone
KEPT_ON_RELOAD = (ExportDialog, GamesDialog, NewGameDialog, RulesDialog, StatsDialog)


class Session(Notices):
    """The open game (board + entry + page state) and the services every feature uses."""

    def __init__(self, host: Host, tables: dict[str, dict[str, str]]) -> None:
        self.host = host
        self.texts = Texts(tables, "en")
        self.board: Board | None = None
        self.page = PageState()
        self.store = Store(host, self._storage_failed, self._storage_recovered)
        self.library = Library(self.store)
        self.entry: GameEntry | None = None  # the open game's entry (id, seats, name, ...)
        self.records = Records()
        self.history = History()
        self.lock = TabLock(host)
        self.selection = Selection(self)
        #: where the focus goes after this event (None: where the event left it)
        self.focus_id: str | None = None
        #: draws the page from this state: installed by the controller (app.render)
        self.renderer: Callable[[], None] = lambda: None
        #: runs before each render: the live table follows the game (app.games.live)
        self.before_render: Callable[[], None] = lambda: None
        # game log events, one list per action (kept in step with board.actions)
        self.log: list[list[dict[str, Any]]] | None = None
        self.log_version = 0  # changes whenever the log does
        self.narrations = 0  # Narration.seq: grows across games, so no news is missed
        # a guided lesson while it runs (app.tutorial): the open game waits in it, and
        # the lesson's board is never saved nor counted
        self.tutorial: Lesson | None = None
        self._asked_to_keep = False

    @property
    def game(self) -> Board:
        """The open game's board (boot opens one, so the commands always have it)."""
        if self.board is None:
            raise RuntimeError("no game is open")
        return self.board

    def save(self) -> None:
        """Write the game (skyline save envelope), unless this tab must not.

        Never over a save this tab has not seen: if the stored text is not the one it
        last wrote or read, another tab moved in between; this tab then shows that game
        read-only instead of silently overwriting it."""
        page = self.page
        if self.board is None or page.readonly or page.crashed or self.store.held:
            return
        if self.tutorial is not None:
            return  # the tutorial's board is a lesson: the game waiting is never written
        entry = self.entry_now()
        if self.store.ok:  # with the render; a store in trouble is written and heard at once
            self.library.write_soon(entry, self.save_refused)
        elif self.library.write(entry) is SaveWrite.CONFLICT:
            self.save_refused()
            return
        self.entry = entry
        self.keep_games()

    def save_refused(self) -> None:
        """Another tab saved this game since this tab last saw it, so this tab's save was
        not written: this tab shows that game, read-only, instead of overwriting it."""
        if self.page.readonly:
            return  # a later save of the same moves, refused too
        self.page.readonly = True
        self.reload_saved()
        self.notify("notice.save_conflict", Level.WARN, sticky=True,
                    button=(Cmd.TAKE_CONTROL, "", "btn.play_here"))

    def keep_games(self) -> None:
        """Once a game is in the list (more than the untouched game of a first visit),
        ask the browser, once per visit, to keep this site's storage when space runs low
        (a browser may ask the player); the game list says what it answered."""
        if self._asked_to_keep or not len(self.library.games):
            return
        if len(self.library.games) == 1 and self.untouched():
            return
        self._asked_to_keep = True
        self.page.storage_kept = "asked"

        def answered(answer: str) -> None:
            self.page.storage_kept = answer
            if isinstance(self.page.dialog, GamesDialog):
                self.render()

        self.host.persist_storage(answered)

    def entry_seats(self, count: int) -> tuple[str, ...]:
        """The open game's seats as the list keeps them (``Seat.code``)."""
        return tuple(self.page.seat_kind(i).code for i in range(count))

    def entry_now(self) -> GameEntry:
        """The open game as a game-list entry, as it is now."""
        e, board, page = self.entry, self.board, self.page
        assert board is not None
        if e is None or e.options != board.options:
            # a board set without an entry (tests, tools): it becomes a game of its own
            now = self.host.now_iso()
            e = make_entry(board, self.entry_seats(len(board.options.names)),
                           nonce=random_seed(), created=now)
        return make_entry(
            board, e.seats, nonce=e.nonce, name=e.name, created=e.created,
            updated=self.host.now_iso(), diverged_from=e.diverged_from, entry_id=e.id,
            beat=page.beat, takes="".join(t.letter for t in page.takes), live=e.live,
        )

    def open_entry(self, entry: GameEntry) -> None:
        """Show a game of the list (a copy of its board: the list's entry is untouched
        until the next save)."""
        self.entry = entry
        self.set_board(entry.board.copy())
        page = self.page
        page.seats = seats_of_entry(entry.seats)
        page.beat = entry.beat
        page.takes = [DieType.from_letter(c) for c in entry.takes]
        page.hint = None
        page.review = None
        page.skipping = False
        page.replay = None
        page.playback = None
        self.selection.on_open()  # the dice selected before a reload stay selected
        if self.library.games.current != entry.id and entry.id in self.library.games:
            self.library.games.current = entry.id
            if not page.readonly:
                self.library.write_index()

    def is_open(self, entry_id: str) -> bool:
        """The game ``entry_id`` of the list is the one open here."""
        return self.entry is not None and entry_id == self.entry.id

    def switch_to(self, entry: GameEntry | None) -> None:
        """Open another game of the list, as stored now."""
        if entry is None or self.is_open(entry.id):
            return
        fresh, _raw = self.library.reread(entry.id)
        self.open_entry(fresh or entry)

    def load_saved_game(self) -> bool:
        """Open the list's current game as stored (the single save of older versions
        is migrated into the list first; one that cannot be loaded is kept aside)."""
        now = self.host.now_iso()
        raw = self.store.read_save()
        if raw is not None and not self.page.readonly:
            try:
                entry = self.library.migrate(raw, self.store.get(KEY_SEATS), now)
            except SaveError as exc:
                self.keep_aside(raw, self.error(exc))
            else:
                self.open_entry(entry)
                return True
        games = self.library.games
        current = games.current if games.current in games else None
        if current is None and self.entry is not None and self.entry.id in games:
            current = self.entry.id
        if current is None:
            ordered = games.ordered()
            current = ordered[0].id if ordered else None
        if current is None:
            return False
        stored, _raw = self.library.reread(current)
        found = stored if stored is not None else games.get(current)
        if found is None:
            return False
        self.open_entry(found)
        return True

    def reload_saved(self) -> None:
        """Replace the game in memory by the stored one: another tab's moves, or the
        last save after a crash. Without a readable save the game in memory stays."""
        self.page.crashed = False
        self.page.choice = None
        if self.page.dialog is not None and not isinstance(self.page.dialog, KEPT_ON_RELOAD):
            self.page.dialog = None
        if self.entry is not None:
            entry, _raw = self.library.reread(self.entry.id)
            if entry is not None:
                self.open_entry(entry)
                return
        self.load_saved_game()

    def record_result(self) -> None:
        board = self.board
        if board is None or self.tutorial is not None:
            return  # the tutorial is never counted in the statistics
        self.records.record(board, self.store)
        self.history.append(
            result_of(board, self.page.seats, self.host.now_iso(), self.host.local_date()),
            self.store)

    # ------------------------------------------------------------------ games

    def default_options(self) -> Options:
        return Options((self.t("newgame.default_name", n=1),), random_seed(), 0, False, None)

    def set_board(self, board: Board | None) -> None:
        self.board = board
        self.log_version += 1
        self.page.takes = []
        self.page.selected = set()
        self.page.choice = None
        self.page.narration = None
        self.page.cues = []  # another game: nothing of the last one moves
        self.page.shown_seat = None  # another game starts on the player to move
        self.log = None

    def untouched(self) -> bool:
        """The open game has no move yet (a new game may replace it in the list); a live
        table's game is never that: friends may have joined it."""
        return (self.entry is not None and self.board is not None and not self.entry.live
                and not self.board.actions and not self.page.takes)

    def start(self, options: Options, beat: int | None = None,
              seats: tuple[Seat, ...] = ()) -> None:
        """A new game, added to the list (an untouched game open before is replaced)."""
        old = self.entry
        if old is not None and self.untouched() and not self.page.readonly:
            self.library.delete(old.id)
        board = Board(options)
        self.set_board(board)
        page = self.page
        page.beat = beat
        solo = len(options.names) == 1
        page.seats = {i: s for i, s in enumerate(seats[: len(options.names)])
                      if s.is_computer or (s.is_friend and not solo)}
        page.hint = None
        page.review = None
        page.skipping = False
        page.daily_copied = None
        page.replay = None
        page.playback = None
        now = self.host.now_iso()
        self.entry = make_entry(board, self.entry_seats(len(options.names)),
                                nonce=random_seed(), created=now, updated=now, beat=beat)
        self.save()

    def game_in_progress(self) -> bool:
        return self.board is not None and not self.board.is_game_over() and (
            bool(self.board.actions) or bool(self.page.takes)
        )

    # ------------------------------------------------------------------ news and render

    def narrate(self, events: list[dict[str, Any]], before: GameState,
                new_game: bool = False) -> None:
        """The live region's news: the latest action's events and whether the turn
        changed (the screen words it)."""
        state = self.game.state
        self.narrations += 1
        changed = new_game or (state.phase is not Phase.OVER
                               and (state.seat, state.round) != (before.seat, before.round))
        self.page.narration = Narration(self.narrations, tuple(events), changed, new_game)

    def narrate_new_game(self) -> None:
        self.narrate([], self.game.state, new_game=True)

    def log_events(self) -> list[dict[str, Any]]:
        """Board.log(), kept incrementally: one describe() per new action, not a replay."""
        assert self.board is not None
        if self.log is None or len(self.log) != len(self.board.actions):
            self.log = [[] for _ in self.board.actions]
            events = self.board.log()
            # regroup is not needed for display: keep all events in the last slot
            if self.log:
                self.log[-1] = events
        return [e for group in self.log for e in group]

    def can_share(self) -> bool:
        return self.host.can_share()

    def render(self) -> None:
        """Draw the page (the controller's renderer)."""
        self.before_render()
        self.renderer()
