"""The game page's brain: page state around an engine :class:`skyline.Board`.

The page never decides a rule: legality, build planning, undo limits, scoring
and the log all come from the engine. This module keeps what is only page state
(the yard dice picked so far, the selected dice, a pending tower choice or
demolition target, the open dialog, notices), turns clicks into engine actions,
saves after every action and asks :mod:`board_view` for HTML.

It talks to the browser only through a ``host`` object (see ``main.DomHost``), so
it runs unchanged in CPython with a fake host.

Extension points for computer players, hints and reviews (not used yet):

- ``Controller.dispatch(action)``: push any engine action through the same path a
  click takes (validation message, selection upkeep, save, listeners, render).
- ``Controller.listeners``: callables ``f(controller, action)`` run after every
  successful action (e.g. a bot seat controller that schedules its move).
- ``Controller.seat_controllers``: ``{seat: object}``; a seat without an entry is
  a human at this screen. The page only reads ``is_human(seat)``.
- ``Controller.panels``: callables ``f(controller) -> html`` rendered as extra
  ``<section>`` panels below the log (already escaped HTML).
"""

from __future__ import annotations

import json
import secrets
import string
import time
from collections.abc import Callable

import board_view
from i18n import LANGS, Texts

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
    Phase,
    RecordError,
    Roll,
    Take,
    TakeDistrict,
    plan_build,
    summary,
    validate_options,
)
from skyline.board import describe
from skyline.links import (
    SAVE_VERSION,
    LinkError,
    SaveError,
    make_save,
    make_share_fragment,
    parse_share_fragment,
    read_save,
)

KEY_SAVE = "skyline.save"
KEY_SETTINGS = "skyline.settings"
KEY_RECORDS = "skyline.records"
KEY_BROKEN = "skyline.save.broken."
KEY_PROBE = "skyline.probe"
LINK_PREFIX = "#play?"
SEED_ALPHABET = string.ascii_letters + string.digits
REGIONS = ("topbar", "notices", "turn", "supply", "players", "log", "dialog")
# Error messages of validate_options start with the field name.
OPTION_FIELDS = ("names", "seed", "start_seat", "all_nine", "scenario", "beat", "link")


def random_seed() -> str:
    """8-10 characters [A-Za-z0-9]; ``secrets`` uses crypto.getRandomValues in Pyodide."""
    length = 8 + secrets.randbelow(3)
    return "".join(secrets.choice(SEED_ALPHABET) for _ in range(length))


class Controller:
    """Page state + event handling for one game screen."""

    def __init__(self, host, tables: dict[str, dict[str, str]], browser_langs=("en",)) -> None:
        self.host = host
        self.texts = Texts(tables, "en")
        self.browser_langs = tuple(browser_langs)
        self.board: Board | None = None
        self.takes: list[DieType] = []  # yard picks not yet pushed as Take
        self.selected: set[int] = set()
        # None, ("build", die_id, choices, remaining ids) or ("demolish", [die ids])
        self.mode: tuple | None = None
        self.dialog: dict | None = None
        self.notices: list[dict] = []
        self.beat: int | None = None
        self.storage_ok = True
        # The save text this tab last wrote or read: before writing, the stored one must
        # still be it, else another tab saved in between and is never silently overwritten.
        self.last_raw: str | None = None
        # Another tab has the game (see "Two tabs" below): this one only watches.
        self.readonly = False
        # An unexpected exception inside an action: the in-memory game is not trusted
        # (never saved) until the last save is reloaded.
        self.crashed = False
        self.save_held = False  # a broken save could not be kept aside: never save over it
        self.broken_saves: dict[str, str] = {}  # key -> raw text of saves kept aside
        self.pending_link: str | None = None  # a link opened while another tab had the game
        self.records: dict = {"v": 1, "best": {}, "levels": {}, "scenarios": {}, "seen": []}
        self.last_html: dict[str, str] = {}
        self.focus_id: str | None = None
        self.timings: list[float] = []
        # game log events, one list per action (kept in step with board.actions)
        self._log: list[list[dict]] | None = None
        self.log_version = 0  # changes whenever the log does (board_view caches its HTML)
        self.log_html: tuple | None = None
        # extension points (see module docstring)
        self.listeners: list[Callable[[Controller, object], None]] = []
        self.seat_controllers: dict[int, object] = {}
        self.panels: list[Callable[[Controller], str]] = []

    # ------------------------------------------------------------------ helpers

    def t(self, key: str, /, **params: object) -> str:
        return self.texts.t(key, **params)

    @property
    def state(self):
        return self.board.state if self.board else None

    def is_human(self, seat: int) -> bool:
        return seat not in self.seat_controllers

    def notify(
        self, message: str, level: str = "info", sticky: bool = False,
        button: tuple[str, str, str] | None = None, **params,
    ) -> None:
        """Show a notice; ``button`` is (action, arg, label key) of a button inside it."""
        note = {"key": message, "params": params, "level": level, "sticky": sticky,
                "button": button}
        self.notices = [n for n in self.notices if n["key"] != message] + [note]
        self.notices = self.notices[-4:]

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
        if isinstance(exc, ValueError):
            field = str(exc).split(":", 1)[0]
            if field in OPTION_FIELDS:
                return self.t("error.option." + field)
        return self.t("error.unknown")

    # ------------------------------------------------------------------ storage

    def _store(self, key: str, value: str) -> bool:
        try:
            self.host.storage_set(key, value)
        except Exception:  # noqa: BLE001 - SecurityError, QuotaExceededError, ...
            self._storage_failed()
            return False
        return True

    def _load(self, key: str) -> str | None:
        try:
            return self.host.storage_get(key)
        except Exception:  # noqa: BLE001
            self._storage_failed()
            return None

    def _remove(self, key: str) -> None:
        try:
            self.host.storage_remove(key)
        except Exception:  # noqa: BLE001
            self._storage_failed()

    def _storage_failed(self) -> None:
        if self.storage_ok:
            self.storage_ok = False
            self.notify("notice.not_saved", "warn", sticky=True)

    def save(self) -> None:
        """Write the game (skyline.links save envelope), unless this tab must not.

        Never over a save this tab has not seen: if the stored text is not the one it
        last wrote or read, another tab moved in between; this tab then shows that game
        read-only instead of silently overwriting it."""
        if self.board is None or self.readonly or self.crashed or self.save_held:
            return
        raw = make_save(
            self.board, beat=self.beat, takes="".join(t.letter for t in self.takes),
            saved_at=self.host.now_iso(),
        )
        stored = self._load(KEY_SAVE)
        if stored is not None and stored != self.last_raw:
            self.readonly = True
            self.reload_saved()
            self.notify("notice.save_conflict", "warn", sticky=True,
                        button=("take-control", "", "btn.play_here"))
            return
        if self._store(KEY_SAVE, raw):
            self.last_raw = raw

    def save_settings(self) -> None:
        self._store(KEY_SETTINGS, json.dumps({"v": 1, "lang": self.texts.lang}))

    def load_saved_game(self) -> bool:
        """Load the stored save (any version skyline.links reads; older ones are
        rewritten in the current format). One that cannot be loaded is kept aside."""
        raw = self._load(KEY_SAVE)
        if raw is None:
            return False
        try:
            saved = read_save(raw)
        except SaveError as exc:
            self._keep_aside(raw, self.error_text(exc))
            return False
        self._set_board(saved.board)
        self.last_raw = raw
        self.beat = saved.beat
        self.takes = [DieType.from_letter(c) for c in saved.takes]
        self._auto_select()
        if saved.version != SAVE_VERSION:
            self.save()  # migrated: stored again in the current format
        return True

    def _keep_aside(self, raw: str, reason: str) -> None:
        """A save that cannot be loaded: copied to its own key (then removed from the
        game's key), offered for export. If the copy fails it stays where it is and
        this session does not save over it."""
        key = KEY_BROKEN + self.host.now_iso().replace(":", "-")
        self.broken_saves[key] = raw
        button = ("export-save", key, "btn.export_save")
        if self._store(key, raw):
            self._remove(KEY_SAVE)
            self.notify("notice.save_broken", "warn", sticky=True, button=button,
                        reason=reason, key=key)
        else:
            self.save_held = True
            self.notify("notice.save_broken_lost", "warn", sticky=True, button=button,
                        reason=reason)

    def reload_saved(self) -> None:
        """Replace the game in memory by the stored one: another tab's moves, or the
        last save after a crash. Without a readable save the game in memory stays."""
        self.crashed = False
        self.mode = None
        if self.dialog and self.dialog.get("kind") != "export":
            self.dialog = None
        self.load_saved_game()

    def load_records(self) -> None:
        raw = self._load(KEY_RECORDS)
        if not raw:
            return
        try:
            data = json.loads(raw)
            if isinstance(data, dict) and data.get("v") == 1:
                for key in ("best", "levels", "scenarios"):
                    if isinstance(data.get(key), dict):
                        self.records[key] = data[key]
                if isinstance(data.get("seen"), list):
                    self.records["seen"] = data["seen"][-50:]
        except ValueError:
            pass

    def _record_result(self) -> None:
        """Solo records: best score per scenario, levels reached, scenario successes."""
        board = self.board
        if board is None or not board.is_game_over() or not board.state.solo:
            return
        game_id = f"{board.options.seed}|{board.options.scenario}|{len(board.actions)}"
        if game_id in self.records["seen"]:
            return
        info = summary(board.state)
        points = info["players"][0]["score"]
        slot = board.options.scenario or "-"
        best = self.records["best"]
        self.previous_best = best.get(slot)
        if not isinstance(best.get(slot), int) or points > best[slot]:
            best[slot] = points
        if info["level"]:
            self.records["levels"][info["level"]] = self.records["levels"].get(info["level"], 0) + 1
        if info.get("scenario") and info.get("scenario_met"):
            done = self.records["scenarios"]
            done[info["scenario"]] = done.get(info["scenario"], 0) + 1
        self.records["seen"] = (self.records["seen"] + [game_id])[-50:]
        self._store(KEY_RECORDS, json.dumps(self.records))

    # ------------------------------------------------------------------ boot

    def boot(self, fragment: str = "") -> None:
        raw = self._load(KEY_SETTINGS)
        lang = None
        if raw:
            try:
                lang = json.loads(raw).get("lang")
            except (ValueError, AttributeError):
                lang = None
        if lang not in LANGS:
            from i18n import pick_language

            lang = pick_language(list(self.browser_langs))
        self.texts.lang = lang
        if self._store(KEY_PROBE, "1"):  # tell at once if nothing can be saved
            self._remove(KEY_PROBE)
        self.load_records()
        had_save = self.load_saved_game()
        if fragment.startswith(LINK_PREFIX):
            self.open_link(fragment)
        elif fragment:
            self.host.clear_fragment()
        if self.board is None:
            self._start(self._default_options())
            if self.dialog is None:
                self.open_new_game_dialog(first=True)
        elif not had_save:
            self.save()
        self.render()

    def _default_options(self) -> Options:
        return Options((self.t("newgame.default_name", n=1),), random_seed(), 0, False, None)

    def _set_board(self, board: Board) -> None:
        self.board = board
        self.log_version += 1
        self.takes = []
        self.selected = set()
        self.mode = None
        self._log = None

    def _start(self, options: Options, beat: int | None = None) -> None:
        self._set_board(Board(options))
        self.beat = beat
        self.save()

    def game_in_progress(self) -> bool:
        return self.board is not None and not self.board.is_game_over() and (
            bool(self.board.actions) or bool(self.takes)
        )

    # ------------------------------------------------------------------ links

    def open_link(self, fragment: str) -> None:
        self.host.clear_fragment()
        try:
            link = parse_share_fragment(fragment)
        except LinkError as exc:
            self.notify("notice.bad_link", "error", reason=self.error_text(exc))
            return
        options, beat = link.options, link.beat
        if self.readonly:  # opened once this tab has the game ("Play here")
            self.pending_link = fragment
            self._other_tab_notice()
            return
        if self.game_in_progress():
            self.dialog = {"kind": "confirm_link", "options": options, "beat": beat}
            self.focus_id = "dlg-first"
        else:
            self._start(options, beat)
            self.dialog = None
            self.notify("notice.link_started")

    def share_link(self) -> str:
        board = self.board
        beat = None
        if board.state.solo and board.is_game_over():
            beat = board.scores()[0]
        elif board.state.solo and self.beat is not None:
            beat = self.beat
        try:
            fragment = make_share_fragment(board.options, beat)
        except LinkError:  # a score no link may carry: share the game without it
            fragment = make_share_fragment(board.options)
        return self.host.page_base() + "#" + fragment

    # ------------------------------------------------------------------ actions

    def dispatch(self, action) -> bool:
        """Push one engine action; on an illegal one show the translated reason.
        Refused while another tab has the game or after a crash (see _crash)."""
        if self.readonly or self.crashed:
            return False
        before = self.board.state
        try:
            self.board.push(action)
        except IllegalActionError as exc:
            self.notify("notice.illegal", "error", reason=self.error_text(exc))
            return False
        self._after(action, before)
        return True

    def _after(self, action, before, describe_log: bool = True) -> None:
        state = self.board.state
        self.log_version += 1
        if self._log is not None:
            if describe_log:
                self._log.append(describe(before, action, state))
            else:
                self._log = None
        if isinstance(action, Roll):
            self.selected = set()
            self._auto_select()
        elif isinstance(action, Build | Demolish):
            self.selected.discard(action.die)
        elif isinstance(action, Abandon):
            self.selected -= set(action.dice)
        else:
            self.selected = set()
        alive = {d.id for d in state.dice}
        self.selected &= alive
        if (state.seat, state.round) != (before.seat, before.round) or state.phase is Phase.OVER:
            self.takes = []
            self.mode = None
            if isinstance(action, Roll):  # nothing could be used: the engine ended the turn
                self.notify("notice.stuck", "warn", name=before.players[before.seat].name)
        self._fault_point("action")
        self.save()
        if state.phase is Phase.OVER:
            self._record_result()
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
            self.selected = {state.dice[0].id}

    def _sel(self) -> tuple[int, ...]:
        alive = {d.id for d in self.board.state.dice}
        return tuple(sorted(self.selected & alive))

    def take(self, type_index: int) -> None:
        state = self.board.state
        if state.phase is not Phase.TAKE or self.mode or len(self.takes) >= 3:
            return
        self.takes.append(DieType(type_index))
        if len(self.takes) == 3:
            picks = self.takes
            self.takes = []
            if not self.dispatch(Take(tuple(sorted(picks)))):
                self.takes = picks[:2]
        else:
            self.save()

    def put_back(self, index: int) -> None:
        state = self.board.state
        if state.phase is Phase.TAKE and 0 <= index < len(self.takes):
            self.takes.pop(index)
            self.save()
        elif state.phase is Phase.ROLL and isinstance(self._last_action(), Take):
            types = list(self._last_action().types)
            if 0 <= index < len(types) and self.board.can_undo():
                self.board.pop()
                types.pop(index)
                self.takes = types
                self.save()

    def _last_action(self):
        return self.board.actions[-1] if self.board.actions else None

    def take_district(self) -> None:
        if self.board.state.phase is Phase.TAKE and not self.mode:
            picks = self.takes
            self.takes = []
            if not self.dispatch(TakeDistrict()):
                self.takes = picks

    def toggle(self, die_id: int) -> None:
        if self.mode or self.board.state.phase not in (Phase.RESOLVE, Phase.CONTINUE):
            return
        if die_id in self.selected:
            self.selected.discard(die_id)
        elif any(d.id == die_id for d in self.board.state.dice):
            self.selected.add(die_id)

    def roll(self) -> None:
        state = self.board.state
        if self.mode:
            return
        if state.phase is Phase.ROLL:
            self.dispatch(Roll(tuple(d.id for d in state.dice)))
        else:
            self.dispatch(Roll(self._sel()))

    def build(self) -> None:
        if self.mode:
            return
        self._build_step(self._sel(), ())

    def _build_step(self, ids: tuple[int, ...], choices: tuple) -> None:
        board = self.board
        before = board.state
        pushed = len(board.actions)
        try:
            plan = board.build_selection(ids, choices)
        except IllegalActionError as exc:
            self.notify("notice.illegal", "error", reason=self.error_text(exc))
        else:
            remaining = {d.id for d in board.state.dice} & set(ids)
            if plan.choice_die is not None and remaining:
                rest = tuple(sorted(remaining))
                self.mode = ("build", plan.choice_die, tuple(plan.choices), rest)
                self.selected = set(remaining)
            else:
                self.mode = None
        new = board.actions[pushed:]
        for action in new:
            # build_selection pushed them all: describe one alone, rebuild the log for several
            self._after(action, before, describe_log=len(new) == 1)

    def choose_column(self, index: int) -> None:
        mode = self.mode
        state = self.board.state
        if not mode:
            return
        if mode[0] == "build":
            _, die_id, choices, remaining = mode
            columns = state.player.columns
            if not 0 <= index < len(columns):
                return
            # equivalent columns (same colour and height) map to the engine's representative
            choice = next(
                (c for c in choices if c is not None and columns[c] == columns[index]), None
            )
            if choice is None:
                return
            self.mode = None
            self._build_step(remaining, (choice,))
        elif mode[0] == "demolish":
            self._demolish_target(index, False)

    def choose_tile(self, index: int) -> None:
        if self.mode and self.mode[0] == "demolish":
            self._demolish_target(index, True)

    def demolish(self) -> None:
        if self.mode:
            return
        ids = self._sel()
        if ids:
            self.mode = ("demolish", list(ids))

    def _demolish_target(self, index: int, completed: bool) -> None:
        queue = list(self.mode[1])
        if not self.dispatch(Demolish(queue[0], index, completed)):
            return
        queue.pop(0)
        player = self.board.state.player
        queue = [i for i in queue if any(d.id == i for d in self.board.state.dice)]
        over = self.board.state.phase is Phase.OVER
        if queue and (player.columns or player.buildings) and not over:
            self.mode = ("demolish", queue)
        else:
            self.mode = None

    def abandon(self) -> None:
        if not self.mode:
            self.dispatch(Abandon(self._sel()))

    def end_turn(self) -> None:
        if not self.mode:
            self.dispatch(EndTurn())

    def cancel(self) -> None:
        self.mode = None

    def undo(self) -> None:
        self.mode = None
        if self.board.state.phase is Phase.TAKE and self.takes:
            self.takes.pop()
            self.save()
            return
        if not self.board.can_undo():
            return
        action = self.board.pop()
        self._log = None
        self.log_version += 1
        if isinstance(action, Take):
            self.takes = list(action.types[:2])
            self.selected = set()
        elif isinstance(action, Build | Demolish):
            self.selected = {action.die}
        elif isinstance(action, Abandon):
            self.selected = set(action.dice)
        else:
            self.selected = set()
        self.save()

    # ------------------------------------------------------------------ commands

    def commands(self) -> dict[str, tuple[bool, str | None]]:
        """Each command: (enabled, reason key when disabled). From the engine's legal actions."""
        board = self.board
        state = board.state
        phase = state.phase
        sel = self._sel()
        out: dict[str, tuple[bool, str | None]] = {}
        undo_ok = bool(self.takes and phase is Phase.TAKE) or board.can_undo()
        undo_why = "why.committed" if board.actions else "why.nothing_to_undo"
        if phase is Phase.OVER:
            for name in ("roll", "build", "abandon", "demolish", "end"):
                out[name] = (False, "why.over")
            out["undo"] = (False, "why.over")
            return out
        if self.mode:
            for name in ("roll", "build", "abandon", "demolish", "end", "undo"):
                out[name] = (False, "why.choosing")
            return out
        out["undo"] = (undo_ok, None if undo_ok else undo_why)
        if phase is Phase.TAKE:
            for name in ("roll", "build", "abandon", "demolish", "end"):
                out[name] = (False, "why.take_first")
            return out
        if phase is Phase.ROLL:
            out["roll"] = (True, None)
            for name in ("build", "abandon", "demolish", "end"):
                out[name] = (False, "why.roll_first")
            return out
        legal = board.legal_actions()
        kinds = {type(a) for a in legal}
        if not sel:
            why = "why.select"
            out["build"] = out["abandon"] = out["demolish"] = (False, why)
        else:
            feasible = plan_build(state, sel).feasible
            out["build"] = (True, None) if feasible else (False, "why.cannot_build")
            out["abandon"] = (True, None) if Abandon in kinds else (False, "why.no_abandon_solo")
            out["demolish"] = (True, None) if Demolish in kinds else (False, "why.no_buildings")
        if phase is Phase.RESOLVE:
            out["roll"] = (False, "why.resolve_first")
            out["end"] = (False, "why.resolve_first")
        else:
            out["roll"] = (True, None) if sel and Roll in kinds else (False, "why.select_reroll")
            out["end"] = (True, None) if EndTurn in kinds else (False, "why.resolve_first")
        return out

    def log_events(self) -> list[dict]:
        """Board.log(), kept incrementally: one describe() per new action, not a replay."""
        if self._log is None or len(self._log) != len(self.board.actions):
            self._log = [[] for _ in self.board.actions]
            events = self.board.log()
            # regroup is not needed for display: keep all events in the last slot
            if self._log:
                self._log[-1] = events
        return [e for group in self._log for e in group]

    # ------------------------------------------------------------------ dialogs

    def open_new_game_dialog(self, first: bool = False) -> None:
        opts = self.board.options if self.board else None
        names = list(opts.names) if opts else []
        names += [self.t("newgame.default_name", n=i + 1) for i in range(len(names), 4)]
        self.dialog = {
            "kind": "newgame",
            "first": first,
            "count": len(opts.names) if opts and not first else 1,
            "names": names,
            "start": "0",
            "nine": bool(opts.all_nine) if opts else False,
            "scenario": (opts.scenario or "") if opts else "",
            "seed": "",
            "error": None,
        }
        self.focus_id = "dlg-first"

    def _form_to_dialog(self, form: dict) -> None:
        d = self.dialog
        try:
            d["count"] = max(1, min(4, int(form.get("count", d["count"]))))
        except ValueError:
            pass
        for i in range(4):
            if f"name{i}" in form:
                d["names"][i] = form[f"name{i}"]
        d["start"] = form.get("start", d["start"])
        d["nine"] = form.get("nine") in ("on", "1", True)
        d["scenario"] = form.get("scenario", d["scenario"]) or ""
        d["seed"] = form.get("seed", d["seed"]) or ""

    def start_from_form(self, form: dict) -> None:
        self._form_to_dialog(form)
        d = self.dialog
        count = d["count"]
        names = tuple(d["names"][:count])
        start = None if d["start"] == "r" or count == 1 else d["start"]
        try:
            if start is not None:
                start = int(start)
                if not 0 <= start < count:
                    start = 0
            scenario = d["scenario"] if count == 1 and d["scenario"] in SCENARIOS else None
            seed = d["seed"].strip() or random_seed()
            options = validate_options(Options(names, seed, start, d["nine"], scenario))
        except ValueError as exc:
            d["error"] = self.error_text(exc)
            return
        self._start(options)
        self.dialog = None
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
        self.render()
        self.timings.append((time.perf_counter() - started) * 1000)
        del self.timings[:-500]

    def _crash(self, exc: Exception) -> None:
        """An unexpected exception inside an action: the game in memory may be half
        updated, so it is not saved; the player may reload the last save."""
        report = getattr(self.host, "report", None)
        if report is not None:
            report(f"skyline: {type(exc).__name__}: {exc}")
        self.crashed = True
        self.mode = None
        self.notify("notice.crash", "error", sticky=True,
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
        if event in ("busy", "lost"):
            try:
                self.host.storage_get(KEY_SAVE)
            except Exception:  # noqa: BLE001 - no storage: this tab's game is its own
                return
            self.readonly = True
            self.mode = None
            self._other_tab_notice()
        elif event == "granted":
            was_readonly = self.readonly
            self.readonly = False
            self.notices = [n for n in self.notices
                            if n["key"] not in ("notice.other_tab", "notice.save_conflict")]
            if was_readonly:
                self.reload_saved()
                self.notify("notice.playing_here")
            if self.pending_link:
                fragment, self.pending_link = self.pending_link, None
                self.open_link(fragment)
        elif event == "saved" and self.readonly:
            self.reload_saved()

    def _other_tab_notice(self) -> None:
        self.notify("notice.other_tab", "warn", sticky=True,
                    button=("take-control", "", "btn.play_here"))

    def _key(self, key: str, in_field: bool) -> bool:
        if key == "Escape":
            if self.dialog:
                first = self.dialog.get("first")
                self.dialog = None
                self.focus_id = "act-roll" if first else "btn-rules"
                return True
            if self.mode:
                self.mode = None
                return True
            return False
        if in_field or self.dialog:
            return False
        if key in ("?", "h", "H"):
            self.dialog = {"kind": "rules"}
            self.focus_id = "dlg-first"
            return True
        return False

    def _action(self, action: str, arg: str | None, form: dict) -> None:
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
        if self.readonly and (action in game or action in ("ng-start", "link-accept")):
            self._other_tab_notice()
            self.dialog = None
            return
        if self.crashed and (action in game or action in ("ng-start", "link-accept")):
            self.notify("notice.crash", "error", sticky=True,
                        button=("reload-saved", "", "btn.reload_saved"))
            return
        if action in game:
            if self.dialog is None and self.board is not None:
                self.notices = [n for n in self.notices if n["sticky"]]
                game[action]()
            return
        if action == "take-control":
            self.host.take_lock(self._lock_result)
            return
        if action == "reload-saved":
            self.notices = [n for n in self.notices if n["key"] != "notice.crash"]
            self.reload_saved()
            self.notify("notice.reloaded")
            return
        if action == "export-save" and arg:
            text = self.broken_saves.get(arg) or self._load(arg) or ""
            self.dialog = {"kind": "export", "key": arg, "text": text,
                           "url": self.host.download_url(text)}
            self.focus_id = "export-text"
            return
        if action == "lang":
            self.texts.lang = arg if arg in LANGS else "en"
            self.host.set_lang(self.texts.lang)
            self.save_settings()
        elif action == "rules":
            self.dialog = {"kind": "rules"}
            self.focus_id = "dlg-first"
        elif action == "rules-goto" and arg:
            self.host.scroll_to("rules-" + arg)
        elif action == "newgame":
            self.open_new_game_dialog()
        elif action == "ng-change":
            if self.dialog and self.dialog["kind"] == "newgame":
                self._form_to_dialog(form)
        elif action == "ng-start":
            if self.dialog and self.dialog["kind"] == "newgame":
                self.start_from_form(form)
        elif action == "close":
            first = self.dialog and self.dialog.get("first")
            self.dialog = None
            self.focus_id = "act-roll" if first else "btn-rules"
        elif action == "link-accept":
            d = self.dialog
            if d and d["kind"] == "confirm_link":
                self._start(d["options"], d["beat"])
                self.dialog = None
                self.notify("notice.link_started")
        elif action == "share":
            link = self.share_link()
            self.dialog = {"kind": "share", "link": link, "copied": None}
            self.focus_id = "share-link"
            self.host.copy(link, self._copied)
        elif action == "dismiss":
            if 0 <= number < len(self.notices):
                self.notices.pop(number)

    def _lock_result(self, result: str) -> None:
        self.handle("tab", result, None)

    def _copied(self, ok: bool) -> None:
        if self.dialog and self.dialog.get("kind") == "share":
            self.dialog["copied"] = ok
            self.render()

    # ------------------------------------------------------------------ render

    def render(self) -> None:
        regions = board_view.render(self)
        for name in REGIONS:
            html = regions.get(name, "")
            if self.last_html.get(name) != html:
                self.host.set_html(name, html)
                self.last_html[name] = html
        if self.focus_id:
            self.host.focus(self.focus_id)
            self.focus_id = None
