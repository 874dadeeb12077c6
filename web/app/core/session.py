"""The open game and what every part of the page shares: the board, its game-list
entry, the page state, storage, notices, and the render.

The other parts (``play``, ``links``, ``friends``, ``library``, ``daily``, ``computer``,
``tabs``, ``newgame``) change this state; only ``Session.render`` writes to the host's
regions, from ``screen.build_screen`` and ``board_view.render``.
"""

from __future__ import annotations

import dataclasses
import secrets
import string
from typing import TYPE_CHECKING

from app import render as board_view
from app import screen as screen_model
from app.core.game_stats import result_of
from app.core.host_port import Host
from app.core.i18n import LANGS, Text, Texts, translate
from app.core.names import game_record_error, names_error, record_names_error
from app.core.page_state import (
    ExportDialog,
    GamesDialog,
    Level,
    Notice,
    NoticeButton,
    PageState,
    RulesDialog,
    seats_of_entry,
)
from app.core.store import KEY_SEATS, History, Library, Records, SaveWrite, Store, TabLock
from app.games import ui as games_ui
from skyline import (
    Board,
    DieType,
    GameEntry,
    LinkError,
    Options,
    OptionsError,
    RecordError,
    SaveError,
    Seat,
    make_entry,
)

if TYPE_CHECKING:
    from app.controller import Controller
    from app.tutorial.guide import TutorialState

SEED_ALPHABET = string.ascii_letters + string.digits
#: Notices of one cause under different keys: a new one replaces the one before (a link
#: refused says why, whichever kind of link it was); any other notice is its own cause.
NOTICE_CAUSES = dict.fromkeys(("notice.bad_link", "notice.bad_link_new", "corr.bad_link",
                               "notice.bad_daily", "corr.stale"), "link_refused")
REGIONS = ("topbar", "notices", "turn", "supply", "players", "log", "dialog")


def random_seed() -> str:
    """8-10 characters [A-Za-z0-9]; ``secrets`` uses crypto.getRandomValues in Pyodide."""
    length = 8 + secrets.randbelow(3)
    return "".join(secrets.choice(SEED_ALPHABET) for _ in range(length))


class Session:
    """The open game (board + entry + page state) and the services every part uses."""

    def __init__(self, c: Controller, host: Host, tables: dict[str, dict[str, str]]) -> None:
        self.c = c
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
        self.last_html: dict[str, str] = {}
        self.focus_id: str | None = None
        self._revealed: object = None  # the choice whose target render() scrolled to
        self._replay_cache: tuple[tuple[str, int], Board] | None = None
        # game log events, one list per action (kept in step with board.actions)
        self.log: list[list[dict]] | None = None
        self.log_version = 0  # changes whenever the log does
        self._log_view: tuple[tuple, screen_model.LogView] | None = None
        self.narrations = 0  # Narration.seq: grows across games, so no news is missed
        # the guided first game while it runs (web/tutorial.py): the open game waits in it
        self.tutorial: TutorialState | None = None
        self._asked_to_keep = False

    @property
    def game(self) -> Board:
        """The open game's board (boot opens one, so the commands always have it)."""
        if self.board is None:
            raise RuntimeError("no game is open")
        return self.board

    # ------------------------------------------------------------------ words

    def t(self, key: str, /, **params: object) -> str:
        return self.texts.t(key, **params)

    def notify(
        self, message: str, level: str | Level = Level.INFO, sticky: bool = False,
        button: tuple[str, str, str] | None = None, **params: object,
    ) -> None:
        """Show a notice; ``button`` is (action, arg, label key) of a button inside it."""
        note = Notice(message, tuple(params.items()), Level(level), sticky,
                      NoticeButton(*button) if button else None)
        cause = NOTICE_CAUSES.get(message, message)
        notices = [n for n in self.page.notices if NOTICE_CAUSES.get(n.key, n.key) != cause]
        self.page.notices = (notices + [note])[-4:]

    def drop_notices(self, *keys: str) -> None:
        self.page.notices = [n for n in self.page.notices if n.key not in keys]

    def notify_conflict(self) -> None:
        self.notify("notice.save_conflict", Level.WARN, sticky=True)

    def notify_crash(self) -> None:
        self.notify("notice.crash", Level.ERROR, sticky=True,
                    button=("reload-saved", "", "btn.reload_saved"))

    def error(self, exc: Exception) -> Text:
        """An engine error (IllegalActionError, RecordError, LinkError, SaveError,
        OptionsError) as the text that explains it, with its params."""
        code = getattr(exc, "code", None)
        params = dict(getattr(exc, "params", {}) or {})
        # a refused name says why, wherever it came from (names.py)
        if code == "names" and isinstance(exc, OptionsError | LinkError):
            return names_error(params)
        if code == "game_record" and isinstance(exc, LinkError):
            return game_record_error(params)
        if code == "record_options" and isinstance(exc, SaveError | RecordError):
            refused = record_names_error(params)
            if refused is not None:
                return refused
        if isinstance(exc, LinkError | SaveError):
            prefix = "error.option." if isinstance(exc, LinkError) else "error.record."
            if code != "internal" and self.texts.has(prefix + str(code)):
                return Text(prefix + str(code), tuple(params.items()))
            return Text("error.unknown")
        prefix = "error.record." if isinstance(exc, RecordError) else "error.action."
        if code and self.texts.has(prefix + code):
            if "phase" in params:
                params["phase"] = Text("phase." + str(params["phase"]))
            if "face" in params:
                params["face"] = Text("kind." + str(params["face"]))
            return Text(prefix + code, tuple(params.items()))
        if isinstance(exc, OptionsError) and self.texts.has("error.option." + exc.field):
            return Text("error.option." + exc.field)
        return Text("error.unknown")

    def error_text(self, exc: Exception) -> str:
        """The error's explanation in the player's language now (for a dialog's line)."""
        return translate(self.t, self.error(exc))

    # ------------------------------------------------------------------ storage

    def _storage_failed(self) -> None:
        self.notify("notice.not_saved", Level.WARN, sticky=True)

    def _storage_recovered(self) -> None:
        """A game was saved again: the notice that nothing is saved is no longer true."""
        self.drop_notices("notice.not_saved")

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
        if self.library.write(entry) is SaveWrite.CONFLICT:
            page.readonly = True
            self.reload_saved()
            self.notify("notice.save_conflict", Level.WARN, sticky=True,
                        button=("take-control", "", "btn.play_here"))
        else:
            self.entry = entry
            self.keep_games()

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
            beat=page.beat, takes="".join(t.letter for t in page.takes),
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
        self.c.play.select_on_open()  # the dice selected before a reload stay selected
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

    def keep_aside(self, raw: str, reason: Text) -> None:
        key, kept = self.store.keep_aside(raw)
        button = ("export-save", key, "btn.export_save")
        if kept:
            self.notify("notice.save_broken", Level.WARN, sticky=True, button=button,
                        reason=reason, key=key)
        else:
            self.notify("notice.save_broken_lost", Level.WARN, sticky=True, button=button,
                        reason=reason)

    def reload_saved(self) -> None:
        """Replace the game in memory by the stored one: another tab's moves, or the
        last save after a crash. Without a readable save the game in memory stays."""
        self.page.crashed = False
        self.page.choice = None
        if self.page.dialog is not None and not isinstance(self.page.dialog, ExportDialog):
            self.page.dialog = None
        if self.entry is not None:
            entry, _raw = self.library.reread(self.entry.id)
            if entry is not None:
                self.open_entry(entry)
                return
        self.load_saved_game()

    def reload_after_crash(self) -> None:
        self.drop_notices("notice.crash")
        self.reload_saved()
        self.notify("notice.reloaded")

    def export_save(self, key: str | None) -> bool | None:
        """The raw text of a save kept aside, read-only, with a download."""
        if not key:
            return False
        text = self.store.broken_text(key)
        self.page.dialog = ExportDialog(key, text, self.host.download_url(text))
        return None

    def record_result(self) -> None:
        board = self.board
        if board is None or self.tutorial is not None:
            return  # the tutorial is never counted in the statistics
        counted, previous = self.records.record(board, self.store)
        if counted:
            self.page.previous_best = previous
        self.history.append(
            result_of(board, self.page.seats, self.host.now_iso(), self.host.local_date()),
            self.store)

    def load_records(self) -> None:
        """The solo records; ones that cannot be read in full are kept aside, ones of a
        newer version also left as they are (store.Records)."""
        records = self.records
        records.load(self.store)
        problem = records.problem
        if problem is None:
            return
        reason = Text("error.records." + problem.code, tuple(problem.params.items()))
        if not records.kept:
            self.notify("notice.records_broken_lost", Level.WARN, sticky=True, reason=reason)
        elif records.held:
            self.notify("notice.records_newer", Level.WARN, sticky=True, reason=reason,
                        key=records.broken_key)
        else:
            self.notify("notice.records_broken", Level.WARN, sticky=True, reason=reason,
                        key=records.broken_key)

    def check_settings(self) -> None:
        """Settings that cannot be read are kept aside and the player is told, as for the
        other stores; the defaults apply (the browser's language, the normal pace)."""
        problem = self.store.settings_problem()
        if problem is None:
            return
        code, params = problem
        reason = Text("error.settings." + code, tuple(params.items()))
        key, kept = self.store.keep_settings_aside()
        if kept:
            self.notify("notice.settings_broken", Level.WARN, sticky=True, reason=reason,
                        key=key)
        else:
            self.notify("notice.settings_broken_lost", Level.WARN, sticky=True, reason=reason)

    def load_history(self) -> None:
        """The game history; one that cannot be read in full is kept aside (store.History)."""
        history = self.history
        history.load(self.store)
        problem = history.problem
        if problem is None:
            return
        reason = Text("error.history." + problem.code, tuple(problem.params.items()))
        if history.held:
            self.notify("notice.history_broken_lost", Level.WARN, sticky=True, reason=reason)
        else:
            self.notify("notice.history_broken", Level.WARN, sticky=True, reason=reason,
                        key=history.broken_key)

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
        self.log = None

    def untouched(self) -> bool:
        """The open game has no move yet (a new game may replace it in the list)."""
        return (self.entry is not None and self.board is not None
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
        now = self.host.now_iso()
        self.entry = make_entry(board, self.entry_seats(len(options.names)),
                                nonce=random_seed(), created=now, updated=now, beat=beat)
        self.save()

    def game_in_progress(self) -> bool:
        return self.board is not None and not self.board.is_game_over() and (
            bool(self.board.actions) or bool(self.page.takes)
        )

    # ------------------------------------------------------------------ small commands

    def toggle_menu(self) -> None:
        self.page.menu_open = not self.page.menu_open

    def open_rules(self) -> None:
        self.page.dialog = RulesDialog()

    def rules_goto(self, section: str | None) -> bool | None:
        if not section:
            return False
        self.host.scroll_to("rules-" + section)
        return None

    def set_lang(self, lang: str | None) -> None:
        self.texts.lang = lang if lang in LANGS else "en"
        self.host.set_lang(self.texts.lang)
        self.store.save_lang(self.texts.lang)

    def close_dialog(self) -> None:
        """The host gives the focus back to the dialog's opener (web/host.js)."""
        self.page.dialog = None
        self.focus_id = None

    def dismiss(self, index: int) -> None:
        """Close a notice (its × button; Escape closes the newest)."""
        if 0 <= index < len(self.page.notices):
            self.page.notices.pop(index)

    # ------------------------------------------------------------------ render

    def log_events(self) -> list[dict]:
        """Board.log(), kept incrementally: one describe() per new action, not a replay."""
        assert self.board is not None
        if self.log is None or len(self.log) != len(self.board.actions):
            self.log = [[] for _ in self.board.actions]
            events = self.board.log()
            # regroup is not needed for display: keep all events in the last slot
            if self.log:
                self.log[-1] = events
        return [e for group in self.log for e in group]

    def _log_cached(self) -> screen_model.LogView:
        assert self.board is not None
        key = (self.log_version, len(self.board.actions), self.texts.lang, id(self.board),
               tuple(sorted(self.page.seats.items())))
        if self._log_view is None or self._log_view[0] != key:
            names = screen_model.player_names(
                self.page, [p.name for p in self.board.state.players], self.texts)
            view = screen_model.log_view(self.log_events(), names, self.texts)
            self._log_view = (key, view)
        return self._log_view[1]

    def can_share(self) -> bool:
        return self.host.can_share()

    def screen(self) -> screen_model.Screen:
        """What the player sees and may do now (see web/screen.py). During a replay the
        board shown is the replayed game at its step (the game itself is untouched)."""
        games = tuple(self.library.games.ordered())
        current = self.entry.id if self.entry is not None else None
        r = self.page.replay
        if r is not None:
            key = (r.record, r.step)
            if self._replay_cache is None or self._replay_cache[0] != key:
                self._replay_cache = (key, games_ui.board_at(r.record, r.step))
            board = self._replay_cache[1]
            page = dataclasses.replace(self.page, seats=dict(r.seats), takes=[],
                                       selected=set(), choice=None, hint=None, review=None,
                                       beat=None)
            return screen_model.build_screen(page, board, self.texts, self.records.best,
                                             games=games, current=current,
                                             can_share=self.can_share())
        log = self._log_cached() if self.board is not None else None
        screen = screen_model.build_screen(self.page, self.board, self.texts,
                                           self.records.best, log=log, games=games,
                                           current=current, can_share=self.can_share(),
                                           daily=self.records.data["daily"],
                                           base=self.host.page_base())
        if self.tutorial is not None and screen.game is not None:
            coach = self.c.tutorial.view()
            text, seq = self.c.tutorial.announce(screen.announce, screen.announce_seq)
            game = dataclasses.replace(screen.game, coach=coach,
                                       log=self.c.tutorial.log(screen.game.log))
            screen = dataclasses.replace(screen, game=game, announce=text, announce_seq=seq)
        return screen

    def render(self) -> None:
        """Write the regions that changed, tell the live region any news, then settle
        the focus: ``host.focus(id)`` after an event (None: keep it where it is; the
        host never leaves it on <body> when a region re-render or a dialog took it)."""
        screen = self.screen()
        regions = board_view.render(screen)
        for name in REGIONS:
            html = regions.get(name, "")
            if self.last_html.get(name) != html:
                self.host.set_html(name, html)
                self.last_html[name] = html
        if screen.announce:
            self.host.announce(screen.announce_seq, screen.announce)
        self.host.focus(self.focus_id)
        self.focus_id = None
        self._reveal_choice(screen)

    def _reveal_choice(self, screen: screen_model.Screen) -> None:
        """A new tower or demolition choice: scroll its first target into view once."""
        choice = self.page.choice
        if choice is None or choice is self._revealed:
            self._revealed = choice
            return
        self._revealed = choice
        target = screen_model.first_target(screen)
        if target is not None:
            self.host.reveal(target)
