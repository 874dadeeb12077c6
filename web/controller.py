"""The game page's brain: page state around an engine :class:`skyline.Board`.

The page never decides a rule: legality, build planning, undo limits, scoring and the
log come from the engine; what the player sees and may do is decided by
``screen.build_screen`` from the typed page state (``page_state.PageState``). This
module turns events (clicks, keys, the tab lock, storage events, computer moves) into
engine actions and page-state changes, saves after every action (``store.Store``) and
renders ``board_view.render(screen)`` into the host's regions.

It talks to the browser only through a ``host`` object (see ``main.DomHost``), so it
runs unchanged in CPython with a fake host (``tests/web_fakes.py``).

Computer seats are first-class (``page.seats``: seat -> level): game commands are
refused during a computer's turn, the new-game dialog and links carry the seats, the
share link adds them. Explicit hooks for the code that paces computer play (``bots_ui``):

- ``attach(driver)``: ``driver.wake(delay=None)`` is called after every handled event
  and every computer step; the driver schedules the next ``step_computer()``.
- ``step_computer()``: the computer to move plays one action (returns the thinking ms).
- ``listeners``: callables ``f(controller, action)`` run after every successful action.
"""

from __future__ import annotations

import dataclasses
import re
import secrets
import string
import time
from collections.abc import Callable
from typing import Protocol

import board_view
import games_ui
import screen as screen_model
from game_stats import export_json, result_of
from i18n import LANGS, Texts
from page_state import (
    COMPUTER_LEVELS,
    FRIEND,
    HUMAN,
    LEVEL_LETTERS,
    BuildChoice,
    ClaimDialog,
    ConfirmDailyDialog,
    ConfirmLinkDialog,
    DemolishChoice,
    ExportDialog,
    GamesDialog,
    HintResult,
    Level,
    Narration,
    NewGameDialog,
    Notice,
    NoticeButton,
    PageState,
    ReplayState,
    RulesDialog,
    SendDialog,
    ShareDialog,
    StatsDialog,
)
from stats_ui import copy_text
from store import (
    KEY_GAME,
    KEY_SAVE,
    KEY_SEATS,
    History,
    Library,
    Records,
    SaveWrite,
    Store,
    TabLock,
    entry_key,
)

from skyline import (
    SCENARIOS,
    Abandon,
    Board,
    Build,
    Demolish,
    DieType,
    EndTurn,
    IllegalActionError,
    Options,
    OptionsError,
    Phase,
    RecordError,
    Roll,
    Take,
    TakeDistrict,
    apply_action,
    validate_options,
)
from skyline.players import bot_available
from skyline.records.daily import (
    DAILY_PATH,
    daily_day,
    daily_options,
    parse_daily_fragment,
    parse_day,
)
from skyline.records.game_links import (
    SEAT_HERE,
    GameLink,
    is_game_link,
    link_seats,
    make_game_link,
    parse_game_link,
    send_to,
)
from skyline.records.game_list import GameEntry, entry_to_json, make_entry, read_entry
from skyline.records.links import (
    LINK_PREFIX,
    LinkError,
    check_bots_available,
    make_share_fragment,
    parse_share_bots,
    parse_share_fragment,
)
from skyline.records.saves import SaveError
from skyline.rules import describe

__all__ = ["KEY_SAVE", "Controller", "random_seed"]

SEED_ALPHABET = string.ascii_letters + string.digits
REGIONS = ("topbar", "notices", "turn", "supply", "players", "log", "dialog")
# Commands that change the game (refused in a read-only tab, after a crash, during a
# computer's turn).
GAME_ACTIONS = frozenset({"take", "untake", "district", "die", "roll", "build", "demolish",
                          "abandon", "end", "undo", "cancel", "col", "tile"})
REPLAY_KEYS = {"ArrowLeft": "replay-back", "ArrowRight": "replay-next",
               "Home": "replay-first", "End": "replay-last"}


# Markup, even percent-encoded: no link this page makes has it outside the names.
_MARKUP = re.compile(r"[<>\"`]|%3[CE]|%22|%60", re.IGNORECASE)


def not_a_link(fragment: str) -> bool:
    """A fragment that is no link of any kind (``#word?...``) the page knows, e.g.
    ``#garbage<script>``: reported as a damaged link, not silently dropped."""
    return bool(fragment.strip("#")) and not re.match(r"#[a-z]+\?", fragment)


def is_daily_fragment(fragment: str) -> bool:
    """A fragment meant as a daily-challenge link (``#daily?d=...``; checked by
    ``skyline.daily.parse_daily_fragment``)."""
    return fragment.lstrip("#").startswith(DAILY_PATH)


def random_seed() -> str:
    """8-10 characters [A-Za-z0-9]; ``secrets`` uses crypto.getRandomValues in Pyodide."""
    length = 8 + secrets.randbelow(3)
    return "".join(secrets.choice(SEED_ALPHABET) for _ in range(length))


class ComputerDriver(Protocol):
    """Paces computer play (web/bots_ui.py): a timer that calls ``step_computer``."""

    def wake(self, delay: int | None = None) -> None: ...


class Controller:
    """Page state + event handling for one game screen."""

    def __init__(self, host, tables: dict[str, dict[str, str]], browser_langs=("en",)) -> None:
        self.host = host
        self.texts = Texts(tables, "en")
        self.browser_langs = tuple(browser_langs)
        self.board: Board | None = None
        self.page = PageState()
        self.store = Store(host, self._storage_failed)
        self.library = Library(self.store)
        self.entry: GameEntry | None = None  # the open game's entry (id, seats, name, ...)
        self.deleted: list[GameEntry] = []  # deleted games, for undo
        self._replay_cache: tuple[tuple[str, int], Board] | None = None
        self.records = Records()
        self.history = History()
        self.lock = TabLock(host)
        self.pending_link: str | None = None  # a link opened while another tab had the game
        self.last_html: dict[str, str] = {}
        self.focus_id: str | None = None
        self._revealed: object = None  # the choice whose target render() scrolled to
        self.timings: list[float] = []
        self.think_ms: list[float] = []
        # game log events, one list per action (kept in step with board.actions)
        self._log: list[list[dict]] | None = None
        self.log_version = 0  # changes whenever the log does
        self._log_view: tuple[tuple, screen_model.LogView] | None = None
        self.listeners: list[Callable[[Controller, object], None]] = []
        self.driver: ComputerDriver | None = None
        # deferred data files being fetched (see need_data): path -> callbacks waiting
        self.data_waiting: dict[str, list[Callable[[], None]]] = {}
        self.narrations = 0  # Narration.seq: grows across games, so no news is missed

    # ------------------------------------------------------------------ helpers

    def t(self, key: str, /, **params: object) -> str:
        return self.texts.t(key, **params)

    @property
    def state(self):
        return self.board.state if self.board else None

    def is_human(self, seat: int) -> bool:
        return self.page.seat_kind(seat) == HUMAN

    def computer_turn(self) -> bool:
        return screen_model.computer_turn(self.page, self.board)

    def notify(
        self, message: str, level: str | Level = Level.INFO, sticky: bool = False,
        button: tuple[str, str, str] | None = None, **params,
    ) -> None:
        """Show a notice; ``button`` is (action, arg, label key) of a button inside it."""
        note = Notice(message, tuple(params.items()), Level(level), sticky,
                      NoticeButton(*button) if button else None)
        notices = [n for n in self.page.notices if n.key != message] + [note]
        self.page.notices = notices[-4:]

    def drop_notices(self, *keys: str) -> None:
        self.page.notices = [n for n in self.page.notices if n.key not in keys]

    def error_text(self, exc: Exception) -> str:
        """Translate an engine error (IllegalActionError / RecordError) with its params."""
        code = getattr(exc, "code", None)
        params = dict(getattr(exc, "params", {}) or {})
        if isinstance(exc, LinkError | SaveError):
            prefix = "error.option." if isinstance(exc, LinkError) else "error.record."
            if code != "internal" and self.texts.has(prefix + str(code)):
                return self.t(prefix + str(code), **params)
            return self.t("error.unknown")
        prefix = "error.record." if isinstance(exc, RecordError) else "error.action."
        if code and self.texts.has(prefix + code):
            if "phase" in params:
                params["phase"] = self.t("phase." + str(params["phase"]))
            if "face" in params:
                params["face"] = self.t("kind." + str(params["face"]))
            return self.t(prefix + code, **params)
        if isinstance(exc, OptionsError) and self.texts.has("error.option." + exc.field):
            return self.t("error.option." + exc.field)
        return self.t("error.unknown")

    # ------------------------------------------------------------------ storage

    def _storage_failed(self) -> None:
        self.notify("notice.not_saved", Level.WARN, sticky=True)

    def save(self) -> None:
        """Write the game (skyline.links save envelope), unless this tab must not.

        Never over a save this tab has not seen: if the stored text is not the one it
        last wrote or read, another tab moved in between; this tab then shows that game
        read-only instead of silently overwriting it."""
        page = self.page
        if self.board is None or page.readonly or page.crashed or self.store.held:
            return
        entry = self._entry_now()
        if self.library.write(entry) is SaveWrite.CONFLICT:
            page.readonly = True
            self.reload_saved()
            self.notify("notice.save_conflict", Level.WARN, sticky=True,
                        button=("take-control", "", "btn.play_here"))
        else:
            self.entry = entry

    def _entry_seats(self, count: int) -> tuple[str, ...]:
        """The open game's seats as the list keeps them (here, friend or a level)."""
        return tuple(
            kind if kind in COMPUTER_LEVELS or kind == FRIEND else SEAT_HERE
            for kind in (self.page.seat_kind(i) for i in range(count))
        )

    def _entry_now(self) -> GameEntry:
        e, board, page = self.entry, self.board, self.page
        if e is None or e.options != board.options:
            # a board set without an entry (tests, tools): it becomes a game of its own
            now = self.host.now_iso()
            e = make_entry(board, self._entry_seats(len(board.options.names)),
                           nonce=random_seed(), created=now)
        return make_entry(
            board, e.seats, nonce=e.nonce, name=e.name, created=e.created,
            updated=self.host.now_iso(), diverged_from=e.diverged_from, entry_id=e.id,
            beat=page.beat, takes="".join(t.letter for t in page.takes),
        )

    def _open_entry(self, entry: GameEntry) -> None:
        """Show a game of the list (a copy of its board: the list's entry is untouched
        until the next save)."""
        self.entry = entry
        self._set_board(entry.board.copy())
        page = self.page
        page.seats = {i: kind for i, kind in enumerate(entry.seats) if kind != SEAT_HERE}
        page.beat = entry.beat
        page.takes = [DieType.from_letter(c) for c in entry.takes]
        page.hint = None
        page.review = None
        page.skipping = False
        page.replay = None
        self._auto_select()
        if self.library.games.current != entry.id and entry.id in self.library.games:
            self.library.games.current = entry.id
            if not page.readonly:
                self.library.write_index()

    def load_saved_game(self) -> bool:
        """Open the list's current game as stored (the single save of older versions
        is migrated into the list first; one that cannot be loaded is kept aside)."""
        now = self.host.now_iso()
        raw = self.store.read_save()
        if raw is not None and not self.page.readonly:
            try:
                entry = self.library.migrate(raw, self.store.get(KEY_SEATS), now)
            except SaveError as exc:
                self._keep_aside(raw, self.error_text(exc))
            else:
                self._open_entry(entry)
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
        entry, _raw = self.library.reread(current)
        if entry is None:
            entry = games.get(current)
        if entry is None:
            return False
        self._open_entry(entry)
        return True

    def _keep_aside(self, raw: str, reason: str) -> None:
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
                self._open_entry(entry)
                return
        self.load_saved_game()

    def _record_result(self) -> None:
        board = self.board
        if board is None:
            return
        counted, previous = self.records.record(board, self.store)
        if counted:
            self.page.previous_best = previous
        self.history.append(
            result_of(board, self.page.seats, self.host.now_iso(), self.host.local_date()),
            self.store)

    # ------------------------------------------------------------------ boot

    def boot(self, fragment: str = "") -> None:
        lang = self.store.load_lang()
        if lang not in LANGS:
            from i18n import pick_language

            lang = pick_language(list(self.browser_langs))
        self.texts.lang = lang
        self.store.probe()  # tell at once if nothing can be saved
        self.records.load(self.store)
        tz = getattr(self.host, "tz_minutes", None)
        self.page.tz_minutes = int(tz()) if tz is not None else 0
        self.library.load(self.host.now_iso())
        for copy, exc, kept in self.library.broken:
            key = "games.entry_broken" if kept else "notice.save_broken_lost"
            self.notify(key, Level.WARN, sticky=True, button=("export-save", copy,
                        "btn.export_save"), reason=self.error_text(exc), key=copy)
        self._load_history()
        had_save = self.load_saved_game()
        link_error = None
        if is_daily_fragment(fragment) or is_game_link(fragment):
            self.open_fragment(fragment)
        elif fragment.startswith(LINK_PREFIX) or not_a_link(fragment):
            link_error = self.open_link(fragment, quiet=self.board is None)
        elif fragment:
            self.host.clear_fragment()
        if self.board is None:
            self._start(self._default_options())
            if self.page.dialog is None:
                self.open_new_game_dialog(first=True)
                # shown inside the welcome dialog (a notice would be hidden behind it)
                self.page.dialog.notice = link_error
        if link_error is not None and not isinstance(self.page.dialog, NewGameDialog):
            self.notify("notice.bad_link_new", Level.ERROR, reason=link_error)
        elif not had_save:
            self.save()
        self.render()

    def _load_history(self) -> None:
        """The game history; one that cannot be read in full is kept aside (store.History)."""
        history = self.history
        history.load(self.store)
        problem = history.problem
        if problem is None:
            return
        reason = self.t("error.history." + problem.code, **problem.params)
        if history.held:
            self.notify("notice.history_broken_lost", Level.WARN, sticky=True, reason=reason)
        else:
            self.notify("notice.history_broken", Level.WARN, sticky=True, reason=reason,
                        key=history.broken_key)

    def _default_options(self) -> Options:
        return Options((self.t("newgame.default_name", n=1),), random_seed(), 0, False, None)

    def _set_board(self, board: Board) -> None:
        self.board = board
        self.log_version += 1
        self.page.takes = []
        self.page.selected = set()
        self.page.choice = None
        self.page.narration = None
        self._log = None

    def _start(self, options: Options, beat: int | None = None,
               seats: tuple[str, ...] = ()) -> None:
        """A new game, added to the list (an untouched game open before is replaced)."""
        old = self.entry
        if (old is not None and self.board is not None and not self.board.actions
                and not self.page.takes and not self.page.readonly):
            self.library.delete(old.id)
        self._set_board(Board(options))
        page = self.page
        page.beat = beat
        solo = len(options.names) == 1
        page.seats = {i: s for i, s in enumerate(seats[: len(options.names)])
                      if s in COMPUTER_LEVELS or (s == FRIEND and not solo)}
        page.hint = None
        page.review = None
        page.skipping = False
        page.daily_copied = None
        page.replay = None
        now = self.host.now_iso()
        self.entry = make_entry(self.board, self._entry_seats(len(options.names)),
                                nonce=random_seed(), created=now, updated=now, beat=beat)
        self.save()

    def game_in_progress(self) -> bool:
        return self.board is not None and not self.board.is_game_over() and (
            bool(self.board.actions) or bool(self.page.takes)
        )

    # ------------------------------------------------------------------ links

    def open_game_link(self, fragment: str) -> None:
        """A game link from a friend: add the game (asking which seats this device
        plays), update it if the link continues it, or refuse an older link; a link
        that continues the game differently is kept beside it. The list is never
        overwritten silently, and a bad link changes nothing."""
        self.host.clear_fragment()
        try:
            link = parse_game_link(fragment)
        except LinkError as exc:
            self.notify("corr.bad_link", Level.ERROR, reason=self.error_text(exc))
            return
        if self.page.readonly:  # opened once this tab has the game ("Play here")
            self.pending_link = fragment
            self._other_tab_notice()
            return
        games = self.library.games
        for copy in games.copies(link.game_id):
            self.library.reread(copy.id)  # another tab may have changed it
        now = self.host.now_iso()
        reception = games.receive(link, now)
        names = link.board.options.names
        state = link.board.state
        if reception.kind == "new":
            seat = state.seat if state.phase is not Phase.OVER else None
            suggested = seat if seat is not None and link.seats[seat] not in COMPUTER_LEVELS \
                else None
            self.page.dialog = ClaimDialog(fragment, link.seats, names, suggested)
            self.focus_id = "dlg-first"
            return
        if reception.kind == "stale":
            entry = games.get(reception.entry_id)
            self.notify("corr.stale", Level.ERROR, sticky=True, name=entry.name,
                        moves=len(entry.board.actions), link_moves=len(link.board.actions))
            return
        if reception.kind == "same":
            self._switch_to(games.get(reception.entry_id))
            self.notify("corr.same")
            return
        entry = reception.entry
        if reception.kind == "update":
            if self.library.write(entry) is SaveWrite.CONFLICT:
                self.notify("notice.save_conflict", Level.WARN, sticky=True)
                return
            self.page.dialog = None
            self._open_entry(entry)
            self.notify("corr.updated", **self._turn_params(entry))
            return
        # diverged: both continuations are kept, side by side
        if self.library.write(entry, current=False) is SaveWrite.CONFLICT:
            self.notify("notice.save_conflict", Level.WARN, sticky=True)
            return
        first = games.get(reception.entry_id)
        self.notify("corr.diverged", Level.WARN, sticky=True,
                    button=("game-open", entry.id, "corr.open_other"),
                    name=first.name if first else entry.name)

    def _turn_params(self, entry: GameEntry) -> dict:
        names = entry.options.names
        if entry.finished:
            return {"name": "", "state": self.t("corr.state_over")}
        name = names[entry.seat]
        kind = entry.seats[entry.seat]
        key = "corr.state_you" if kind == SEAT_HERE else "corr.state_friend"
        return {"name": name, "state": self.t(key, name=name)}

    def _switch_to(self, entry: GameEntry | None) -> None:
        if entry is None or (self.entry is not None and entry.id == self.entry.id):
            return
        fresh, _raw = self.library.reread(entry.id)
        self._open_entry(fresh or entry)

    def claim_seats(self, form: dict) -> None:
        """The answer to "which seats do you play?" for a new game from a link."""
        d = self.page.dialog
        if not isinstance(d, ClaimDialog):
            return
        mine = [i for i, kind in enumerate(d.seats)
                if kind not in COMPUTER_LEVELS and form.get(f"seat{i}") in ("on", "1", True)]
        if not mine:
            d.error = self.t("corr.claim_none")
            return
        try:
            link = parse_game_link(d.fragment)
        except LinkError as exc:
            self.page.dialog = None
            self.notify("corr.bad_link", Level.ERROR, reason=self.error_text(exc))
            return
        now = self.host.now_iso()
        entry = self.library.games.adopt(link, mine, now)
        if self.library.write(entry) is SaveWrite.CONFLICT:
            self.page.dialog = None
            self.notify("notice.save_conflict", Level.WARN, sticky=True)
            return
        self.page.dialog = None
        old = self.entry
        if (old is not None and self.board is not None and not self.board.actions
                and not self.page.takes):
            self.library.delete(old.id)  # an untouched game makes room (as on a new game)
        self._open_entry(entry)
        self.notify("corr.added", **self._turn_params(entry))

    def game_link(self) -> str:
        """The link that carries the open game to a friend elsewhere."""
        fragment = make_game_link(self.board, self.entry.seats, self.entry.nonce)
        return self.host.page_base() + "#" + fragment

    def open_send_dialog(self) -> None:
        if self.board is None or self.entry is None or not self.page.friend_seats:
            return
        seats = self._entry_seats(len(self.board.options.names))
        self.page.dialog = SendDialog(self.game_link(), send_to(self.board, seats))
        self.focus_id = "corr-share" if self._can_share() else "corr-copy"

    def _can_share(self) -> bool:
        can = getattr(self.host, "can_share", None)
        return bool(can and can())

    def _send_done(self, what: str, ok: bool) -> None:
        d = self.page.dialog
        if isinstance(d, SendDialog):
            if what == "copy":
                d.copied = ok
            else:
                d.shared = ok or None
                if not ok:  # cancelled or refused: copy instead
                    self.host.copy(d.link, lambda done: self._send_done("copy", done))
                    return
            self.render()

    def _qr_loaded(self, ok: bool) -> None:
        d = self.page.dialog
        if not isinstance(d, SendDialog):
            return
        try:
            d.qr = games_ui.qr_svg(d.link) if ok else "failed"
        except Exception as exc:
            report = getattr(self.host, "report", None)
            if report is not None:
                report(f"skyline: QR code: {type(exc).__name__}: {exc}")
            d.qr = "failed"
        self.render()

    def open_link(self, fragment: str, quiet: bool = False) -> str | None:
        """A ``#play?`` link: start its game, or ask first if one is in progress.
        Links may name computer seats (``bots=1e``, see skyline.links).

        A link that cannot be opened: the reason is shown as a notice, or returned
        without one when ``quiet`` (no game yet: the caller shows it in the welcome
        dialog, and "your current game is unchanged" would not be true)."""
        self.host.clear_fragment()
        try:
            if not_a_link(fragment):
                raise LinkError("link", "this is not a game link", reason="malformed")
            link = parse_share_fragment(fragment)
            bots = dict(parse_share_bots(fragment))
            check_bots_available(bots, bot_available)  # the expert needs its value table
        except LinkError as exc:
            reason = self.link_error_text(exc, fragment)
            if not quiet:
                self.notify("notice.bad_link", Level.ERROR, reason=reason)
            return reason
        options, beat = link.options, link.beat
        seats = tuple(bots.get(i, HUMAN) for i in range(len(options.names)))
        if self.page.readonly:  # opened once this tab has the game ("Play here")
            self.pending_link = fragment
            self._other_tab_notice()
            return
        if self.game_in_progress():
            self.page.dialog = ConfirmLinkDialog(options, beat, seats)
            self.focus_id = "dlg-first"
        else:
            self._start(options, beat, seats)
            self.page.dialog = None
            self.notify("notice.link_started")
        return None

    def link_error_text(self, exc: LinkError, fragment: str) -> str:
        """Why a link cannot be opened. A link with markup in it (``<script>``), or one
        that is not a game link at all, is damaged, whatever field the reader tripped on."""
        # names may hold anything (shown as text); no other part of a link holds markup
        rest = "&".join(part for part in fragment.split("&") if not part.startswith(("p=",
                                                                                      "#play?p=")))
        if exc.params.get("reason") == "malformed" or _MARKUP.search(rest):
            return self.t("error.option.malformed")
        return self.error_text(exc)

    def open_fragment(self, fragment: str) -> None:
        """A link the page was opened with (or navigated to): a game link from a friend
        (correspondence), a daily challenge or a shared game."""
        if is_game_link(fragment):
            self.open_game_link(fragment)
        elif is_daily_fragment(fragment):
            self.open_daily_link(fragment)
        else:
            self.open_link(fragment)

    # ------------------------------------------------------------------ daily challenge

    def open_daily_link(self, fragment: str) -> None:
        """A ``#daily?d=YYYY-MM-DD`` link (skyline.daily): that day's challenge, asking
        first if a game is in progress; a bad link is refused, the game untouched."""
        self.host.clear_fragment()
        try:
            day = parse_daily_fragment(fragment)
        except LinkError as exc:
            self.notify("notice.bad_daily", Level.ERROR, reason=self.error_text(exc))
            return
        if self.page.readonly:
            self.pending_link = fragment
            self._other_tab_notice()
            return
        self.start_daily(day.isoformat())

    def today(self) -> str | None:
        """The player's local calendar day from the host, or None if it gives none."""
        try:
            return parse_day(str(self.host.local_date())).isoformat()
        except ValueError:
            return None

    def start_daily(self, day: str | None = None, confirmed: bool = False) -> None:
        """Start the daily challenge of ``day`` (default: today); a game in progress is
        replaced only after the player confirms."""
        day = day or self.today()
        if day is None:
            self.notify("notice.daily_no_date", Level.ERROR)
            return
        board = self.board
        current = daily_day(board.options) if board is not None else None
        if current is not None and current.isoformat() == day and not board.is_game_over():
            self.page.dialog = None
            self.notify("notice.daily_already", day=day)
            return
        if self.game_in_progress() and not confirmed:
            self.page.dialog = ConfirmDailyDialog(day)
            self.focus_id = "dlg-first"
            return
        name = self.t("newgame.default_name", n=1)
        if board is not None and board.state.solo:
            name = board.options.names[0]
        self._start(daily_options(day, name))
        self._narrate([], self.board.state, new_game=True)
        self.page.dialog = None
        self.focus_id = "yard-G"
        self.notify("notice.daily_started", day=day)

    def copy_daily(self) -> None:
        view = self.screen().game
        daily = view.daily if view is not None else None
        if daily is None or daily.line is None:
            return
        self.host.copy(copy_text(daily), self._daily_copied)

    def _daily_copied(self, ok: bool) -> None:
        self.page.daily_copied = ok
        self.render()

    def open_stats(self) -> None:
        """The statistics page: the history and records as they are now, and their export."""
        results = tuple(self.history.results)
        records = {k: v for k, v in self.records.data.items() if k != "seen"}
        text = export_json(list(results), records, self.host.now_iso())
        day = self.today() or "export"
        self.page.dialog = StatsDialog(results, records, self.host.download_url(text),
                                       f"skyline-statistics-{day}.json")
        self.focus_id = "dlg-close"

    def share_link(self) -> str:
        board = self.board
        beat = None
        if board.state.solo and board.is_game_over():
            beat = board.scores()[0]
        elif board.state.solo and self.page.beat is not None:
            beat = self.page.beat
        try:
            fragment = make_share_fragment(board.options, beat)
        except LinkError:  # a score no link may carry: share the game without it
            fragment = make_share_fragment(board.options)
        bots = "".join(f"{i}{LEVEL_LETTERS[level]}"
                       for i, level in sorted(self.page.seats.items()))
        return self.host.page_base() + "#" + fragment + ("&bots=" + bots if bots else "")

    # ------------------------------------------------------------------ actions

    def dispatch(self, action) -> bool:
        """Push one engine action; on an illegal one show the translated reason.
        Refused while another tab has the game or after a crash (see _crash)."""
        if self.page.readonly or self.page.crashed:
            return False
        before = self.board.state
        try:
            self.board.push(action)
        except IllegalActionError as exc:
            self.notify("notice.illegal", Level.ERROR, reason=self.error_text(exc))
            return False
        self._after(action, before)
        return True

    def _after(self, action, before, describe_log: bool = True) -> None:
        page = self.page
        state = self.board.state
        self.log_version += 1
        if describe_log:
            events = describe(before, action, state)
            self._narrate(events, before)
            if self._log is not None:
                self._log.append(events)
        else:
            self._log = None
        page.rolled = tuple(action.dice) if isinstance(action, Roll) else ()
        if isinstance(action, Roll):
            page.selected = set()
            self._auto_select()
        elif isinstance(action, Build | Demolish):
            page.selected.discard(action.die)
        elif isinstance(action, Abandon):
            page.selected -= set(action.dice)
        else:
            page.selected = set()
        page.selected &= {d.id for d in state.dice}
        if (state.seat, state.round) != (before.seat, before.round) or state.phase is Phase.OVER:
            page.takes = []
            page.choice = None
            if isinstance(action, Roll):  # nothing could be used: the engine ended the turn
                self.notify("notice.stuck", Level.WARN, name=before.players[before.seat].name,
                            seat=before.seat)
        self._fault_point("action")
        self.save()
        if state.phase is Phase.OVER:
            self._record_result()
        if page.friend_seats and page.dialog is None and (
            (state.phase is Phase.OVER and before.phase is not Phase.OVER)
            or (state.phase is not Phase.OVER and state.seat != before.seat
                and page.seat_kind(state.seat) == FRIEND)
        ):
            self.open_send_dialog()  # the turn went to a friend elsewhere: send the link
        page.hint = None
        for listener in self.listeners:
            listener(self, action)

    def _narrate(self, events: list[dict], before, new_game: bool = False) -> None:
        """The live region's news: the latest action's events and whether the turn
        changed (``screen`` words it)."""
        state = self.board.state
        self.narrations += 1
        seq = self.narrations
        changed = new_game or (state.phase is not Phase.OVER
                               and (state.seat, state.round) != (before.seat, before.round))
        self.page.narration = Narration(seq, tuple(events), changed, new_game)

    def _fault_point(self, where: str) -> None:
        """Test hook: raise here if the host says so (main.DomHost.fault reads the
        page's ``window.__skylineFault``; nothing sets it outside the e2e tests)."""
        fault = getattr(self.host, "fault", None)
        if fault is not None and fault(where):
            raise RuntimeError(f"simulated fault ({where}), set by a test")

    def _auto_select(self) -> None:
        """After a roll a single die is selected automatically; several start deselected."""
        state = self.board.state
        if state.phase is Phase.RESOLVE and len(state.dice) == 1:
            self.page.selected = {state.dice[0].id}

    def _sel(self) -> tuple[int, ...]:
        alive = {d.id for d in self.board.state.dice}
        return tuple(sorted(self.page.selected & alive))

    def take(self, type_index: int) -> None:
        page = self.page
        state = self.board.state
        if state.phase is not Phase.TAKE or page.choice or len(page.takes) >= 3:
            return
        if not 0 <= type_index < len(DieType):
            return
        page.takes.append(DieType(type_index))
        if len(page.takes) == 3:
            picks = page.takes
            page.takes = []
            if not self.dispatch(Take(tuple(sorted(picks)))):
                page.takes = picks[:2]
        else:
            self.save()

    def put_back(self, index: int) -> None:
        page = self.page
        state = self.board.state
        last = self.board.actions[-1] if self.board.actions else None
        if state.phase is Phase.TAKE and 0 <= index < len(page.takes):
            page.takes.pop(index)
            self.save()
        elif state.phase is Phase.ROLL and isinstance(last, Take):
            types = list(last.types)
            if 0 <= index < len(types) and self.board.can_undo():
                self.board.pop()
                self._log = None
                self.log_version += 1
                types.pop(index)
                page.takes = types
                self.save()

    def take_district(self) -> None:
        page = self.page
        if self.board.state.phase is Phase.TAKE and not page.choice:
            picks = page.takes
            page.takes = []
            if not self.dispatch(TakeDistrict()):
                page.takes = picks

    def toggle(self, die_id: int) -> None:
        page = self.page
        if page.choice or self.board.state.phase not in (Phase.RESOLVE, Phase.CONTINUE):
            return
        if die_id in page.selected:
            page.selected.discard(die_id)
        elif any(d.id == die_id for d in self.board.state.dice):
            page.selected.add(die_id)

    def roll(self) -> None:
        state = self.board.state
        if self.page.choice:
            return
        if state.phase is Phase.ROLL:
            self.dispatch(Roll(tuple(d.id for d in state.dice)))
        else:
            self.dispatch(Roll(self._sel()))

    def build(self) -> None:
        if self.page.choice:
            return
        self._build_step(self._sel(), ())

    def _build_step(self, ids: tuple[int, ...], choices: tuple) -> None:
        board = self.board
        page = self.page
        before = board.state
        pushed = len(board.actions)
        try:
            plan = board.build_selection(ids, choices)
        except IllegalActionError as exc:
            self.notify("notice.illegal", Level.ERROR, reason=self.error_text(exc))
        else:
            remaining = {d.id for d in board.state.dice} & set(ids)
            if plan.choice_die is not None and remaining:
                rest = tuple(sorted(remaining))
                page.choice = BuildChoice(plan.choice_die, tuple(plan.choices), rest)
                page.selected = set(remaining)
            else:
                page.choice = None
        new = board.actions[pushed:]
        for action in new:
            # build_selection pushed them all: describe one alone, rebuild the log for several
            self._after(action, before, describe_log=len(new) == 1)
        if len(new) > 1:
            events, state = [], before
            for action in new:
                after = apply_action(state, action)
                events += describe(state, action, after)
                state = after
            self._narrate(events, before)

    def choose_column(self, index: int) -> None:
        choice = self.page.choice
        state = self.board.state
        if isinstance(choice, BuildChoice):
            columns = state.player.columns
            if not 0 <= index < len(columns):
                return
            # equivalent columns map to the engine's representative
            target = screen_model.build_choice_for(state, choice, index)
            if target is None:
                return
            self.page.choice = None
            self._build_step(choice.remaining, (target,))
        elif isinstance(choice, DemolishChoice):
            self._demolish_target(index, False)

    def choose_tile(self, index: int) -> None:
        if isinstance(self.page.choice, DemolishChoice):
            self._demolish_target(index, True)

    def demolish(self) -> None:
        if self.page.choice:
            return
        ids = self._sel()
        if ids:
            self.page.choice = DemolishChoice(ids)

    def _demolish_target(self, index: int, completed: bool) -> None:
        queue = list(self.page.choice.queue)
        if not self.dispatch(Demolish(queue[0], index, completed)):
            return
        queue.pop(0)
        state = self.board.state
        player = state.player
        queue = [i for i in queue if any(d.id == i for d in state.dice)]
        over = state.phase is Phase.OVER
        if queue and (player.columns or player.buildings) and not over:
            self.page.choice = DemolishChoice(tuple(queue))
        else:
            self.page.choice = None

    def abandon(self) -> None:
        if not self.page.choice:
            self.dispatch(Abandon(self._sel()))

    def end_turn(self) -> None:
        if not self.page.choice:
            self.dispatch(EndTurn())

    def cancel(self) -> None:
        self.page.choice = None

    def undo(self) -> None:
        page = self.page
        page.choice = None
        if self.board.state.phase is Phase.TAKE and page.takes:
            page.takes.pop()
            self.save()
            return
        if not self.board.can_undo():
            return
        action = self.board.pop()
        self._log = None
        self.log_version += 1
        page.hint = None
        if isinstance(action, Take):
            page.takes = list(action.types[:2])
            page.selected = set()
        elif isinstance(action, Build | Demolish):
            page.selected = {action.die}
        elif isinstance(action, Abandon):
            page.selected = set(action.dice)
        else:
            page.selected = set()
        self.save()

    # ------------------------------------------------------------------ computer seats

    def attach(self, driver: ComputerDriver) -> None:
        """The pacing of computer play (see ``ComputerDriver``)."""
        self.driver = driver

    def wake_driver(self, delay: int | None = None) -> None:
        if self.driver is not None:
            self.driver.wake(delay)

    def step_computer(self) -> float | None:
        """The computer to move plays one action; returns its thinking time (ms), or
        None if no computer is to move."""
        import random

        from skyline.players.registry import get_bot

        if not self.computer_turn():
            return None
        board = self.board
        seat = board.state.seat
        level = self.page.seat_kind(seat)
        rng = random.Random(f"{board.options.seed}/{seat}/{len(board.actions)}")
        started = time.perf_counter()
        action = get_bot(level)(board.state, rng)
        think = (time.perf_counter() - started) * 1000
        self._think(think)
        self.page.takes = []
        self.dispatch(action)
        return think

    def _think(self, ms: float) -> None:
        self.think_ms.append(ms)
        del self.think_ms[:-2000]

    def show_hint(self) -> None:
        """The expert's best actions for the human to move (skyline.expert.hint)."""
        from skyline.players.expert import hint

        if not screen_model.can_hint(self.page, self.board):
            return
        started = time.perf_counter()
        try:
            rows = hint(self.board.state, 3)
        except LookupError as exc:  # the value table is fetched on first need
            path = getattr(exc, "path", None)
            if path is None:
                raise
            asked = len(self.board.actions)
            self.need_data(path, lambda: self._hint_arrived(asked))
            return
        self._think((time.perf_counter() - started) * 1000)
        self.page.hint = HintResult(len(self.board.actions), tuple(rows))

    def _hint_arrived(self, asked: int) -> None:
        """The table a Hint waited for is here: show it if the position is unchanged."""
        if self.board is not None and len(self.board.actions) == asked:
            self.show_hint()
            self.render()

    def need_data(self, path: str, then: Callable[[], None]) -> None:
        """A data file the engine reads on demand (a value table kept off the start-up
        path, see ``skyline.solo_value.defer_table``; ``path`` is inside the ``skyline``
        package) is missing: the host fetches it once and puts it into the package
        folder, then ``then`` runs (for every caller that waited on it)."""
        waiting = self.data_waiting.setdefault(path, [])
        waiting.append(then)
        if len(waiting) > 1:
            return  # already on its way

        def arrived(ok: bool) -> None:
            callbacks = self.data_waiting.pop(path, [])
            if not ok:
                self.notify("notice.data_failed", "error")
                self.render()
                return
            for callback in callbacks:
                callback()

        self.host.fetch_data(path, arrived)

    # ------------------------------------------------------------------ dialogs

    def open_new_game_dialog(self, first: bool = False) -> None:
        opts = self.board.options if self.board else None
        seats = []
        if opts and not first:
            seats = [self.page.seat_kind(i) for i in range(len(opts.names))]
        kinds = (seats + [HUMAN] * 4)[:4]
        # a name the player never typed stays unset (None): shown in the player's language
        names: list[str | None] = [
            None if screen_model.is_default_name(self.texts, n, i, kinds[i]) else n
            for i, n in enumerate(opts.names if opts else ())
        ]
        names += [None] * (4 - len(names))
        self.page.dialog = NewGameDialog(
            first=first,
            count=len(opts.names) if opts and not first else 1,
            names=names,
            seats=(seats + [HUMAN] * 4)[:4],
            nine=bool(opts.all_nine) if opts else False,
            scenario=(opts.scenario or "") if opts else "",
        )
        self.focus_id = "dlg-first"

    def _form_to_dialog(self, form: dict) -> None:
        d = self.page.dialog
        try:
            d.count = max(1, min(4, int(form.get("count", d.count))))
        except (TypeError, ValueError):
            pass
        shown = screen_model.player_names(PageState(), d.names[:4], self.texts, d.seats[:4])
        for i in range(4):
            if f"name{i}" in form:
                value = str(form[f"name{i}"])
                # the default shown, sent back unchanged, stays unset
                if not (d.names[i] is None and value.strip() == shown[i]):
                    d.names[i] = value
            value = form.get(f"seat{i}")
            if value is not None:
                d.seats[i] = value if value in COMPUTER_LEVELS or value == FRIEND else HUMAN
        d.start = str(form.get("start", d.start))
        d.nine = form.get("nine") in ("on", "1", True)
        d.scenario = str(form.get("scenario", d.scenario) or "")
        d.seed = str(form.get("seed", d.seed) or "")

    def start_from_form(self, form: dict) -> None:
        self._form_to_dialog(form)
        d = self.page.dialog
        count = d.count
        names = screen_model.player_names(PageState(), d.names[:count], self.texts,
                                          d.seats[:count])
        start = None if d.start == "r" or count == 1 else d.start
        try:
            if start is not None:
                start = int(start)
                if not 0 <= start < count:
                    start = 0
            scenario = d.scenario if count == 1 and d.scenario in SCENARIOS else None
            seed = d.seed.strip() or random_seed()
            options = validate_options(Options(names, seed, start, d.nine, scenario))
        except ValueError as exc:
            d.error = self.error_text(exc)
            return
        self._start(options, None, tuple(d.seats[:count]))
        self._narrate([], self.board.state, new_game=True)
        self.page.dialog = None
        self.focus_id = "act-roll"

    # ------------------------------------------------------------------ events

    def handle(
        self,
        kind: str,
        action: str | None,
        arg: str | None,
        key: str = "",
        form: dict | None = None,
        target_id: str | None = None,
        in_field: bool = False,
    ) -> None:
        """One DOM event, already reduced to its data-action / data-arg (see main.py)."""
        started = time.perf_counter()
        self.focus_id = target_id
        self.page.rolled = ()  # a roll animates (and is announced) once, not on every render
        try:
            if kind == "keydown":
                if not self._key(key, in_field):
                    return
            elif kind == "hashchange":
                if arg and (arg.startswith(LINK_PREFIX) or is_daily_fragment(arg)
                            or not_a_link(arg) or is_game_link(arg)):
                    self.open_fragment(arg)
            elif kind == "tab" and action:
                self._tab_event(action, arg)
            elif kind in ("click", "change", "submit") and action:
                if action == "ng-change" and kind != "change":
                    return
                self._action(action, arg, form or {})
            else:
                return
        except Exception as exc:
            self._crash(exc)
        self.wake_driver()
        self.render()
        self.timings.append((time.perf_counter() - started) * 1000)
        del self.timings[:-500]

    def _crash(self, exc: Exception) -> None:
        """An unexpected exception inside an action: the game in memory may be half
        updated, so it is not saved; the player may reload the last save."""
        report = getattr(self.host, "report", None)
        if report is not None:
            report(f"skyline: {type(exc).__name__}: {exc}")
        self.page.crashed = True
        self.page.choice = None
        self.notify("notice.crash", Level.ERROR, sticky=True,
                    button=("reload-saved", "", "btn.reload_saved"))

    # ------------------------------------------------------------------ two tabs
    #
    # One tab at a time may move. main.DomHost asks the browser for a lock (Web Locks,
    # released when a tab closes): granted at start, this tab plays; held elsewhere,
    # it shows the stored game read-only and follows the other tab's saves (storage
    # events). "Play here" takes the lock over, the other tab becomes read-only.
    # save() also refuses to overwrite a save it has not seen (no lock support, or
    # a race), so no tab silently overwrites another one's moves.

    def _tab_event(self, event: str, key: str | None = None) -> None:
        """``busy`` / ``lost`` (another tab has the game), ``granted`` (this tab
        has it), ``saved`` (another tab wrote ``key``: a game of the list)."""
        page = self.page
        if event in ("busy", "lost"):
            if not self.store.readable():
                return
            page.readonly = True
            page.choice = None
            self._other_tab_notice()
        elif event == "granted":
            was_readonly = page.readonly
            page.readonly = False
            self.drop_notices("notice.other_tab", "notice.save_conflict")
            if was_readonly:
                self.reload_saved()
                self.notify("notice.playing_here")
            if self.pending_link:
                fragment, self.pending_link = self.pending_link, None
                self.open_fragment(fragment)
        elif event == "saved":
            if key is not None and key.startswith(KEY_GAME) and key != KEY_GAME.rstrip("."):
                entry_id = key[len(KEY_GAME):]
                if page.readonly or self.entry is None or entry_id != self.entry.id:
                    self.library.reread(entry_id)  # the list shows the other tab's state
            if page.readonly and (key is None or self.entry is None
                                  or key in (KEY_SAVE, entry_key(self.entry.id))):
                self.reload_saved()

    def _other_tab_notice(self) -> None:
        self.notify("notice.other_tab", Level.WARN, sticky=True,
                    button=("take-control", "", "btn.play_here"))

    def _close_dialog(self) -> None:
        """The host gives the focus back to the dialog's opener (web/host.js for main.DomHost)."""
        self.page.dialog = None
        self.focus_id = None

    def _key(self, key: str, in_field: bool) -> bool:
        page = self.page
        if key == "Escape":
            if page.dialog is not None:
                self._close_dialog()
                return True
            if page.replay is not None:
                page.replay = None
                return True
            if page.choice:
                page.choice = None
                return True
            return False
        if in_field or page.dialog is not None:
            return False
        if page.replay is not None and key in REPLAY_KEYS:
            self._replay(REPLAY_KEYS[key], {})
            return True
        if key in ("?", "h", "H"):
            page.dialog = RulesDialog()
            self.focus_id = "dlg-first"
            return True
        return False

    def _action(self, action: str, arg: str | None, form: dict) -> None:
        page = self.page
        number = int(arg) if arg and arg.lstrip("-").isdigit() else -1
        game = {
            "take": lambda: self.take(number),
            "untake": lambda: self.put_back(number),
            "district": self.take_district,
            "die": lambda: self.toggle(number),
            "roll": self.roll,
            "build": self.build,
            "demolish": self.demolish,
            "abandon": self.abandon,
            "end": self.end_turn,
            "undo": self.undo,
            "cancel": self.cancel,
            "col": lambda: self.choose_column(number),
            "tile": lambda: self.choose_tile(number),
        }
        if action == "bot-skip":
            page.skipping = True
            self.wake_driver(0)
            return
        if action == "bot-hint":
            self.show_hint()
            return
        if action in GAME_ACTIONS and page.dialog is None and self.computer_turn():
            return  # the computer is playing this seat
        if action in GAME_ACTIONS and page.replay is not None:
            return  # a replay never changes the game
        if (action in GAME_ACTIONS and page.dialog is None
                and screen_model.friend_turn(page, self.board)):
            name = self.board.state.player.name
            self.notify("corr.not_yours", Level.WARN, name=name)
            return
        if action.startswith(("game-", "games")) or action.startswith(("replay-", "corr-")):
            if self._games_action(action, arg, form):
                return
        starts = ("ng-start", "link-accept", "daily", "daily-accept")
        if page.readonly and (action in game or action in starts):
            self._other_tab_notice()
            page.dialog = None
            return
        if page.crashed and (action in game or action in starts):
            self.notify("notice.crash", Level.ERROR, sticky=True,
                        button=("reload-saved", "", "btn.reload_saved"))
            return
        if action in game:
            if page.dialog is None and self.board is not None:
                page.notices = [n for n in page.notices if n.sticky]
                game[action]()
            return
        if action == "take-control":
            self.lock.take(self._lock_result)
            return
        if action == "reload-saved":
            self.drop_notices("notice.crash")
            self.reload_saved()
            self.notify("notice.reloaded")
            return
        if action == "export-save" and arg:
            text = self.store.broken_text(arg)
            page.dialog = ExportDialog(arg, text, self.host.download_url(text))
            self.focus_id = "export-text"
            return
        if action == "lang":
            self.texts.lang = arg if arg in LANGS else "en"
            self.host.set_lang(self.texts.lang)
            self.store.save_lang(self.texts.lang)
        elif action == "rules":
            page.dialog = RulesDialog()
            self.focus_id = "dlg-first"
        elif action == "rules-goto" and arg:
            self.host.scroll_to("rules-" + arg)
        elif action == "newgame":
            self.open_new_game_dialog()
        elif action == "ng-change":
            if isinstance(page.dialog, NewGameDialog):
                self._form_to_dialog(form)
        elif action == "ng-start":
            if isinstance(page.dialog, NewGameDialog):
                self.start_from_form(form)
        elif action == "close":
            self._close_dialog()
        elif action == "link-accept":
            d = page.dialog
            if isinstance(d, ConfirmLinkDialog):
                self._start(d.options, d.beat, d.seats)
                self._narrate([], self.board.state, new_game=True)
                page.dialog = None
                self.notify("notice.link_started")
        elif action == "daily":
            self.start_daily()
        elif action == "daily-accept":
            d = page.dialog
            if isinstance(d, ConfirmDailyDialog):
                self.start_daily(d.day, confirmed=True)
        elif action == "daily-copy":
            self.copy_daily()
        elif action == "stats":
            self.open_stats()
        elif action == "share" and self.board is not None:
            link = self.share_link()
            page.dialog = ShareDialog(link)
            self.focus_id = "share-link"
            self.host.copy(link, self._copied)
        elif action == "dismiss":
            if 0 <= number < len(page.notices):
                page.notices.pop(number)

    # ------------------------------------------------------------------ game list, replay

    def _games_action(self, action: str, arg: str | None, form: dict) -> bool:
        """The game list, the replay and correspondence commands; True if handled."""
        page = self.page
        games = self.library.games
        changes = ("game-open", "game-delete", "game-undelete", "game-rename-save",
                   "game-import-text", "corr-claim")
        if page.readonly and action in changes:
            self._other_tab_notice()
            page.dialog = None
            return True
        if action == "games":
            page.dialog = GamesDialog()
            self.focus_id = "dlg-first"
        elif action == "game-open" and arg in games:
            self._switch_to(games.get(arg))
            page.dialog = None
            self.focus_id = "btn-games"
        elif action == "game-replay" and arg in games:
            entry = games.get(arg)
            if self.entry is not None and arg == self.entry.id:
                entry = self._entry_now()  # the game as it is now
            record = entry.board.record()
            page.replay = ReplayState(
                arg, entry.name, record, len(entry.board.actions), 0,
                {i: kind for i, kind in enumerate(entry.seats) if kind != SEAT_HERE})
            page.dialog = None
            page.choice = None
            self.focus_id = "replay-next"
        elif action.startswith("replay-"):
            self._replay(action, form)
        elif action == "game-rename" and isinstance(page.dialog, GamesDialog):
            page.dialog.renaming = arg
            self.focus_id = "game-name"
        elif action == "game-rename-cancel" and isinstance(page.dialog, GamesDialog):
            page.dialog.renaming = None
        elif action == "game-rename-save":
            self._rename(str(form.get("id", "")), str(form.get("name", "")))
        elif action == "game-delete" and arg in games:
            self._delete(arg)
        elif action == "game-undelete":
            self._undelete(arg)
        elif action == "game-export" and arg in games:
            entry = games.get(arg)
            if self.entry is not None and arg == self.entry.id and not page.readonly:
                entry = self._entry_now()
            raw = self.store.get(entry_key(arg)) or entry_to_json(entry)
            self.host.download(f"skyline-{arg}.json", raw)
        elif action == "game-import-text":
            self._import(form.get("text"))
        elif action == "corr-send":
            self.open_send_dialog()
        elif action == "corr-copy" and isinstance(page.dialog, SendDialog):
            self.host.copy(page.dialog.link, lambda ok: self._send_done("copy", ok))
        elif action == "corr-share" and isinstance(page.dialog, SendDialog):
            d = page.dialog
            self.host.share(d.link, self.t("corr.share_title"),
                            lambda ok: self._send_done("share", ok))
        elif action == "corr-qr" and isinstance(page.dialog, SendDialog):
            if page.dialog.qr in (None, "failed"):
                page.dialog.qr = "loading"
                self.host.load_qr(self._qr_loaded)
        elif action == "corr-claim":
            self.claim_seats(form)
        else:
            return False
        return True

    def _replay(self, action: str, form: dict) -> None:
        r = self.page.replay
        if r is None:
            return
        if action == "replay-close":
            self.page.replay = None
            self.focus_id = "btn-games"
            return
        step = {"replay-first": 0, "replay-back": r.step - 1, "replay-next": r.step + 1,
                "replay-last": r.total}.get(action)
        if action == "replay-round":
            value = str(form.get("value", ""))
            step = int(value) if value.isdigit() else None
        if step is not None:
            r.step = max(0, min(r.total, step))
            self.focus_id = self.focus_id or "replay-next"

    def _rename(self, entry_id: str, name: str) -> None:
        entry = self.library.games.get(entry_id)
        if entry is None:
            return
        if self.entry is not None and entry_id == self.entry.id:
            entry = self._entry_now()
        renamed = make_entry(entry.board, entry.seats, nonce=entry.nonce, name=name.strip(),
                             created=entry.created, updated=entry.updated,
                             diverged_from=entry.diverged_from, entry_id=entry.id,
                             beat=entry.beat, takes=entry.takes)
        current = self.entry is not None and entry_id == self.entry.id
        if self.library.write(renamed, current=current) is SaveWrite.CONFLICT:
            self.notify("notice.save_conflict", Level.WARN, sticky=True)
        elif current:
            self.entry = renamed
        if isinstance(self.page.dialog, GamesDialog):
            self.page.dialog.renaming = None
        self.focus_id = f"game-rename-{entry_id}"

    def _delete(self, entry_id: str) -> None:
        current = self.entry is not None and entry_id == self.entry.id
        if current:
            self.save()
        entry = self.library.delete(entry_id)
        if entry is None:
            return
        if current:
            entry = self._entry_now() if self.board is not None else entry
        self.deleted = [e for e in self.deleted if e.id != entry_id][-9:] + [entry]
        self.notify("games.deleted", sticky=True, button=("game-undelete", entry_id,
                                                          "games.undo"), name=entry.name)
        if isinstance(self.page.dialog, GamesDialog):
            self.page.dialog.deleted = (entry_id, entry.name)
        if current:
            self.entry = None
            if not self.load_saved_game():
                self.board = None
                self._start(self._default_options())
        self.focus_id = "games-undo"

    def _undelete(self, entry_id: str | None) -> None:
        entry = next((e for e in self.deleted if e.id == entry_id), None)
        if entry is None:
            return
        self.deleted.remove(entry)
        self.drop_notices("games.deleted")
        if isinstance(self.page.dialog, GamesDialog):
            self.page.dialog.deleted = None
        if self.library.restore(entry) is SaveWrite.CONFLICT:
            self.notify("notice.save_conflict", Level.WARN, sticky=True)
        else:
            self.notify("games.restored", name=entry.name)

    def _import(self, text: object) -> None:
        """A game file (as exported): added, or updating its game only if it continues
        it; an older copy is refused, another continuation is kept beside it."""
        try:
            entry = read_entry(text)
        except SaveError as exc:
            self.notify("games.import_failed", Level.ERROR, reason=self.error_text(exc))
            return
        games = self.library.games
        for copy in games.copies(entry.game):
            self.library.reread(copy.id)
        link = GameLink(entry.board, link_seats(entry.seats), entry.nonce, entry.game)
        reception = games.receive(link, self.host.now_iso())
        if reception.kind == "new":
            new = self.library.side_entry(entry) if entry.id in games else entry
            result, key = self.library.write(new, current=False), "games.imported"
        elif reception.kind == "same":
            self.notify("games.import_same", name=entry.name)
            return
        elif reception.kind == "stale":
            self.notify("games.import_stale", Level.ERROR, name=entry.name)
            return
        else:
            new = reception.entry
            key = "games.import_updated" if reception.kind == "update" else "games.import_diverged"
            result = self.library.write(new, current=False)
            if (reception.kind == "update" and self.entry is not None
                    and new.id == self.entry.id and result is not SaveWrite.CONFLICT):
                self._open_entry(new)
        if result is SaveWrite.CONFLICT:
            self.notify("notice.save_conflict", Level.WARN, sticky=True)
        else:
            self.notify(key, name=new.name)

    def _lock_result(self, result: str) -> None:
        self.handle("tab", result, None)

    def _copied(self, ok: bool) -> None:
        if isinstance(self.page.dialog, ShareDialog):
            self.page.dialog.copied = ok
            self.render()

    # ------------------------------------------------------------------ render

    def log_events(self) -> list[dict]:
        """Board.log(), kept incrementally: one describe() per new action, not a replay."""
        if self._log is None or len(self._log) != len(self.board.actions):
            self._log = [[] for _ in self.board.actions]
            events = self.board.log()
            # regroup is not needed for display: keep all events in the last slot
            if self._log:
                self._log[-1] = events
        return [e for group in self._log for e in group]

    def _log_cached(self) -> screen_model.LogView:
        key = (self.log_version, len(self.board.actions), self.texts.lang, id(self.board),
               tuple(sorted(self.page.seats.items())))
        if self._log_view is None or self._log_view[0] != key:
            names = screen_model.player_names(
                self.page, [p.name for p in self.board.state.players], self.texts)
            view = screen_model.log_view(self.log_events(), names, self.texts)
            self._log_view = (key, view)
        return self._log_view[1]

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
                                             can_share=self._can_share())
        log = self._log_cached() if self.board is not None else None
        return screen_model.build_screen(self.page, self.board, self.texts,
                                         self.records.best, log=log, games=games,
                                         current=current, can_share=self._can_share(),
                                         daily=self.records.data["daily"],
                                         base=self.host.page_base())

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
