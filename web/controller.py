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

import secrets
import string
import time
from collections.abc import Callable
from typing import Protocol

import board_view
import screen as screen_model
from i18n import LANGS, Texts
from page_state import (
    COMPUTER_LEVELS,
    HUMAN,
    LEVEL_LETTERS,
    BuildChoice,
    ConfirmLinkDialog,
    DemolishChoice,
    ExportDialog,
    HintResult,
    Level,
    NewGameDialog,
    Notice,
    NoticeButton,
    PageState,
    RulesDialog,
    ShareDialog,
)
from store import KEY_SAVE, Records, SaveWrite, Store, TabLock

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
    validate_options,
)
from skyline.board import describe
from skyline.links import (
    LINK_PREFIX,
    SAVE_VERSION,
    LinkError,
    SaveError,
    make_save,
    make_share_fragment,
    parse_share_bots,
    parse_share_fragment,
    read_save,
)

__all__ = ["KEY_SAVE", "Controller", "random_seed"]

SEED_ALPHABET = string.ascii_letters + string.digits
REGIONS = ("topbar", "notices", "turn", "supply", "players", "log", "dialog")
# Commands that change the game (refused in a read-only tab, after a crash, during a
# computer's turn).
GAME_ACTIONS = frozenset({"take", "untake", "district", "die", "roll", "build", "demolish",
                          "abandon", "end", "undo", "cancel", "col", "tile"})


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
        self.records = Records()
        self.lock = TabLock(host)
        self.pending_link: str | None = None  # a link opened while another tab had the game
        self.last_html: dict[str, str] = {}
        self.focus_id: str | None = None
        self.timings: list[float] = []
        self.think_ms: list[float] = []
        # game log events, one list per action (kept in step with board.actions)
        self._log: list[list[dict]] | None = None
        self.log_version = 0  # changes whenever the log does
        self._log_view: tuple[tuple, screen_model.LogView] | None = None
        self.listeners: list[Callable[[Controller, object], None]] = []
        self.driver: ComputerDriver | None = None

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
        raw = make_save(
            self.board, beat=page.beat, takes="".join(t.letter for t in page.takes),
            saved_at=self.host.now_iso(),
        )
        if self.store.write_save(raw) is SaveWrite.CONFLICT:
            page.readonly = True
            self.reload_saved()
            self.notify("notice.save_conflict", Level.WARN, sticky=True,
                        button=("take-control", "", "btn.play_here"))

    def load_saved_game(self) -> bool:
        """Load the stored save (any version skyline.links reads; older ones are
        rewritten in the current format). One that cannot be loaded is kept aside."""
        raw = self.store.read_save()
        if raw is None:
            return False
        try:
            saved = read_save(raw)
        except SaveError as exc:
            self._keep_aside(raw, self.error_text(exc))
            return False
        self._set_board(saved.board)
        self.page.seats = self.store.load_seats(saved.board.options)
        self.store.last_raw = raw
        self.page.beat = saved.beat
        self.page.takes = [DieType.from_letter(c) for c in saved.takes]
        self._auto_select()
        if saved.version != SAVE_VERSION:
            self.save()  # migrated: stored again in the current format
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
        self.load_saved_game()

    def _record_result(self) -> None:
        board = self.board
        if board is None:
            return
        counted, previous = self.records.record(board, self.store)
        if counted:
            self.page.previous_best = previous

    # ------------------------------------------------------------------ boot

    def boot(self, fragment: str = "") -> None:
        lang = self.store.load_lang()
        if lang not in LANGS:
            from i18n import pick_language

            lang = pick_language(list(self.browser_langs))
        self.texts.lang = lang
        self.store.probe()  # tell at once if nothing can be saved
        self.records.load(self.store)
        had_save = self.load_saved_game()
        if fragment.startswith(LINK_PREFIX):
            self.open_link(fragment)
        elif fragment:
            self.host.clear_fragment()
        if self.board is None:
            self._start(self._default_options())
            if self.page.dialog is None:
                self.open_new_game_dialog(first=True)
        elif not had_save:
            self.save()
        self.render()

    def _default_options(self) -> Options:
        return Options((self.t("newgame.default_name", n=1),), random_seed(), 0, False, None)

    def _set_board(self, board: Board) -> None:
        self.board = board
        self.log_version += 1
        self.page.takes = []
        self.page.selected = set()
        self.page.choice = None
        self._log = None

    def _start(self, options: Options, beat: int | None = None,
               seats: tuple[str, ...] = ()) -> None:
        self._set_board(Board(options))
        page = self.page
        page.beat = beat
        page.seats = {i: s for i, s in enumerate(seats[: len(options.names)])
                      if s in COMPUTER_LEVELS}
        page.hint = None
        page.review = None
        page.skipping = False
        self.store.save_seats(options, page.seats)
        self.save()

    def game_in_progress(self) -> bool:
        return self.board is not None and not self.board.is_game_over() and (
            bool(self.board.actions) or bool(self.page.takes)
        )

    # ------------------------------------------------------------------ links

    def open_link(self, fragment: str) -> None:
        """A ``#play?`` link: start its game, or ask first if one is in progress.
        Links may name computer seats (``bots=1e``, see skyline.links)."""
        self.host.clear_fragment()
        try:
            link = parse_share_fragment(fragment)
            bots = dict(parse_share_bots(fragment))
        except LinkError as exc:
            self.notify("notice.bad_link", Level.ERROR, reason=self.error_text(exc))
            return
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
        if self._log is not None:
            if describe_log:
                self._log.append(describe(before, action, state))
            else:
                self._log = None
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
                self.notify("notice.stuck", Level.WARN, name=before.players[before.seat].name)
        self._fault_point("action")
        self.save()
        if state.phase is Phase.OVER:
            self._record_result()
        page.hint = None
        for listener in self.listeners:
            listener(self, action)

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

        from skyline.registry import get_bot

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
        from skyline.expert import hint

        if not screen_model.can_hint(self.page, self.board):
            return
        started = time.perf_counter()
        rows = hint(self.board.state, 3)
        self._think((time.perf_counter() - started) * 1000)
        self.page.hint = HintResult(len(self.board.actions), tuple(rows))

    # ------------------------------------------------------------------ dialogs

    def open_new_game_dialog(self, first: bool = False) -> None:
        opts = self.board.options if self.board else None
        names = list(opts.names) if opts else []
        names += [self.t("newgame.default_name", n=i + 1) for i in range(len(names), 4)]
        seats = []
        if opts and not first:
            seats = [self.page.seat_kind(i) for i in range(len(opts.names))]
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
        for i in range(4):
            if f"name{i}" in form:
                d.names[i] = str(form[f"name{i}"])
            value = form.get(f"seat{i}")
            if value is not None:
                d.seats[i] = value if value in COMPUTER_LEVELS else HUMAN
        d.start = str(form.get("start", d.start))
        d.nine = form.get("nine") in ("on", "1", True)
        d.scenario = str(form.get("scenario", d.scenario) or "")
        d.seed = str(form.get("seed", d.seed) or "")

    def start_from_form(self, form: dict) -> None:
        self._form_to_dialog(form)
        d = self.page.dialog
        count = d.count
        names = tuple(d.names[:count])
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
        try:
            if kind == "keydown":
                if not self._key(key, in_field):
                    return
            elif kind == "hashchange":
                if arg and arg.startswith(LINK_PREFIX):
                    self.open_link(arg)
            elif kind == "tab" and action:
                self._tab_event(action)
            elif kind in ("click", "change", "submit") and action:
                if action == "ng-change" and kind != "change":
                    return
                self._action(action, arg, form or {})
            else:
                return
        except Exception as exc:  # noqa: BLE001 - a bug must not cost the saved game
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

    def _tab_event(self, event: str) -> None:
        """``busy`` / ``lost`` (another tab has the game), ``granted`` (this tab
        has it), ``saved`` (another tab wrote the save)."""
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
                self.open_link(fragment)
        elif event == "saved" and page.readonly:
            self.reload_saved()

    def _other_tab_notice(self) -> None:
        self.notify("notice.other_tab", Level.WARN, sticky=True,
                    button=("take-control", "", "btn.play_here"))

    def _close_dialog(self) -> None:
        first = isinstance(self.page.dialog, NewGameDialog) and self.page.dialog.first
        self.page.dialog = None
        self.focus_id = "act-roll" if first else "btn-rules"

    def _key(self, key: str, in_field: bool) -> bool:
        page = self.page
        if key == "Escape":
            if page.dialog is not None:
                self._close_dialog()
                return True
            if page.choice:
                page.choice = None
                return True
            return False
        if in_field or page.dialog is not None:
            return False
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
        if page.readonly and (action in game or action in ("ng-start", "link-accept")):
            self._other_tab_notice()
            page.dialog = None
            return
        if page.crashed and (action in game or action in ("ng-start", "link-accept")):
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
                page.dialog = None
                self.notify("notice.link_started")
        elif action == "share" and self.board is not None:
            link = self.share_link()
            page.dialog = ShareDialog(link)
            self.focus_id = "share-link"
            self.host.copy(link, self._copied)
        elif action == "dismiss":
            if 0 <= number < len(page.notices):
                page.notices.pop(number)

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
        key = (self.log_version, len(self.board.actions), self.texts.lang, id(self.board))
        if self._log_view is None or self._log_view[0] != key:
            names = [p.name for p in self.board.state.players]
            view = screen_model.log_view(self.log_events(), names, self.texts)
            self._log_view = (key, view)
        return self._log_view[1]

    def screen(self) -> screen_model.Screen:
        """What the player sees and may do now (see web/screen.py)."""
        log = self._log_cached() if self.board is not None else None
        return screen_model.build_screen(self.page, self.board, self.texts,
                                         self.records.best, log=log)

    def render(self) -> None:
        regions = board_view.render(self.screen())
        for name in REGIONS:
            html = regions.get(name, "")
            if self.last_html.get(name) != html:
                self.host.set_html(name, html)
                self.last_html[name] = html
        if self.focus_id:
            self.host.focus(self.focus_id)
            self.focus_id = None
