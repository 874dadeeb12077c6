# ruff: noqa: E501 - HTML templates read better unwrapped
"""Computer players, the hint and the solo review on the page.

``install(controller)`` plugs into the Controller's extension points:

- ``seat_controllers``: ``{seat: BotSeat(level)}`` for computer seats (beginner, greedy,
  expert from ``skyline.bots.BOTS``); the page treats them as not human.
- a timer (``setTimeout`` through ``schedule``) plays one bot action per tick, every
  ``PACE_MS``; "Skip" plays the remaining bot actions at ``SKIP_MS`` intervals, one action
  (a few ms of thinking) per tick, so the board keeps rendering and never freezes. Bots
  wait while a dialog is open.
- ``panels``: the computer-player bar (who is thinking, Skip), the Hint button and its
  answer, and the review of a finished solo game. The review is computed decision by
  decision in ticks of at most ``CHUNK_MS``.
- the new-game dialog gets one "Player" select per seat (``seat{i}``: human or a level).

Which seats are computers is stored next to the save under ``KEY_SEATS`` together with
the game's seed and names, and restored on boot when the saved game is that game.

It wraps Controller methods on the instance (``_action``, ``_form_to_dialog``, ``_start``,
``open_new_game_dialog``, ``open_link``, ``share_link``, ``commands``) and otherwise only
uses public Controller API, so it runs in CPython with a fake host and a fake ``schedule``.

Links: ``bots=1e3g`` (skyline.links) names the computer seats; the share link adds them.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable

import board_view
from board_view import esc

from skyline import (
    Abandon,
    Build,
    Demolish,
    EndTurn,
    Options,
    Phase,
    Roll,
    Take,
    TakeDistrict,
    apply_action,
    new_game,
)
from skyline.board import describe
from skyline.bots import BOTS

LEVELS = ("beginner", "greedy", "expert")
PACE_MS = 600
SKIP_MS = 15
CHUNK_MS = 60
WARM_MS = 1500  # start decoding the solo table this long after boot, one level per tick
KEY_SEATS = "skyline.seats"
GAME_ACTIONS = {"take", "untake", "district", "die", "roll", "build", "demolish", "abandon",
                "end", "undo", "cancel", "col", "tile"}


class BotSeat:
    """A computer player at a level (a name in ``skyline.bots.BOTS``)."""

    def __init__(self, level: str) -> None:
        self.level = level

    def __repr__(self) -> str:
        return f"BotSeat({self.level!r})"


def _browser_schedule(ms: int, fn: Callable[[], None]) -> None:
    from pyodide.ffi import create_once_callable
    from pyscript import window

    window.setTimeout(create_once_callable(fn), ms)


def load_table_quickly() -> None:
    """Install the shipped solo table from the package folder unless one is loaded."""
    from pathlib import Path

    from skyline import solo_value as sv

    if sv._TABLE is not None:  # noqa: SLF001 - loaded already
        return
    path = Path(sv.__file__).parent / "data" / "solo_values.bin"
    sv.set_table(sv.ValueTable.from_bytes(path.read_bytes()))


def install(
    controller,
    schedule: Callable[[int, Callable[[], None]], None] | None = None,
    fragment: str = "",
):
    """Plug the computer players into a booted controller. ``fragment``: the address's
    fragment at boot (a link naming computer seats, see skyline.links ``bots``)."""
    ui = BotsUI(controller, schedule or _browser_schedule)
    ui.restore()
    ui.boot_link(fragment)
    controller.render()
    ui.kick()
    ui.schedule(WARM_MS, ui.warm)
    return ui


def _number(c, value: float) -> str:
    text = f"{value:.1f}"
    return text.replace(".", ",") if c.texts.lang == "de" else text


def action_text(c, state, action) -> str:
    """The action as an instruction in the player's language (no future faces shown)."""
    t = c.t
    if isinstance(action, Take):
        return t("hint.take", dice=", ".join(t("log.type." + d.letter) for d in action.types))
    if isinstance(action, TakeDistrict):
        return t("hint.district", n=len(state.district))
    if isinstance(action, Roll):
        if state.phase is Phase.ROLL:
            return t("hint.roll")
        by_id = {d.id: d for d in state.dice}
        words = [board_view.die_word(c, by_id[i].type.letter + by_id[i].face.letter) for i in action.dice]
        return t("hint.reroll", dice=", ".join(words))
    if isinstance(action, EndTurn):
        return t("hint.end")
    events = describe(state, action, apply_action(state, action))
    e = events[0] if events else {}
    if isinstance(action, Build):
        text = t("hint.build", die=board_view.die_word(c, e["die"]), height=e["height"])
        if "completed" in e:
            text += " " + t("log.completed", height=e["completed"], points=e["points"])
        return text
    if isinstance(action, Demolish):
        what = t("column.label" if not e["completed"] else "tile.label_short",
                 kind=t("kind.short." + e["kind"]), height=e["height"])
        return t("hint.demolish", die=board_view.die_word(c, e["die"]), what=what)
    if isinstance(action, Abandon):
        return t("hint.abandon", dice=", ".join(board_view.die_word(c, d) for d in e["dice"].split()))
    return str(action)


class BotsUI:
    def __init__(self, c, schedule) -> None:
        self.c = c
        self.schedule = schedule
        self.armed = False
        self.skipping = False
        self.think_ms: list[float] = []
        self.hint: tuple[int, list] | None = None  # (len(actions), rows)
        self.review: dict | None = None  # {"key", "decisions", "done", ...}
        self.review_job = False
        c.bots_ui = self
        c.seat_field = self.seat_field
        c.panels.append(self.panel)
        c.listeners.append(self.on_action)
        self._orig_action = c._action
        c._action = self._action
        self._orig_form = c._form_to_dialog
        c._form_to_dialog = self._form_to_dialog
        self._orig_start = c._start
        c._start = self._start
        self._orig_open = c.open_new_game_dialog
        c.open_new_game_dialog = self.open_new_game_dialog
        self._orig_open_link = c.open_link
        c.open_link = self.open_link
        self._orig_share_link = c.share_link
        c.share_link = self.share_link
        self._orig_commands = c.commands
        c.commands = self.commands
        self.link_bots: tuple | None = None  # (options, {seat: level}) of the last link
        if c.dialog and c.dialog.get("kind") == "newgame":
            c.dialog.setdefault("seats", ["human"] * 4)

    # ------------------------------------------------------------------ seats

    def levels(self) -> list[str]:
        c = self.c
        n = len(c.board.options.names) if c.board else 0
        return [getattr(c.seat_controllers.get(i), "level", "human") for i in range(n)]

    def set_seats(self, seats: list[str]) -> None:
        c = self.c
        c.seat_controllers = {
            i: BotSeat(level) for i, level in enumerate(seats) if level in LEVELS and level in BOTS
        }
        self.persist()

    def persist(self) -> None:
        c = self.c
        if c.board is None:
            return
        data = {
            "v": 1,
            "seed": c.board.options.seed,
            "names": list(c.board.options.names),
            "bots": {str(i): s.level for i, s in c.seat_controllers.items()},
        }
        c._store(KEY_SEATS, json.dumps(data, separators=(",", ":"), ensure_ascii=False))

    def restore(self) -> None:
        c = self.c
        raw = c._load(KEY_SEATS)
        if not raw or c.board is None:
            return
        try:
            data = json.loads(raw)
            if data.get("seed") != c.board.options.seed or data.get("names") != list(
                c.board.options.names
            ):
                return
            bots = {int(k): v for k, v in dict(data.get("bots") or {}).items()}
        except (ValueError, TypeError, AttributeError):
            return
        n = len(c.board.options.names)
        c.seat_controllers = {
            i: BotSeat(v) for i, v in bots.items() if 0 <= i < n and v in LEVELS and v in BOTS
        }

    # ------------------------------------------------------------------ wrapped controller methods

    def open_new_game_dialog(self, first: bool = False) -> None:
        self._orig_open(first)
        seats = self.levels() if self.c.board and not first else []
        self.c.dialog["seats"] = (seats + ["human"] * 4)[:4]

    def _form_to_dialog(self, form: dict) -> None:
        self._orig_form(form)
        d = self.c.dialog
        seats = d.setdefault("seats", ["human"] * 4)
        for i in range(4):
            value = form.get(f"seat{i}")
            if value is not None:
                seats[i] = value if value in LEVELS else "human"

    def open_link(self, fragment: str) -> None:
        """Links may name computer seats (``bots=1e``, see skyline.links)."""
        from skyline.links import LinkError, parse_share_bots, parse_share_fragment

        try:
            link = parse_share_fragment(fragment)
            self.link_bots = (link.options, dict(parse_share_bots(fragment)))
        except LinkError:
            self.link_bots = None
        self._orig_open_link(fragment)
        self.kick()

    def commands(self) -> dict:
        """During a computer's turn every command is greyed out, saying why."""
        out = self._orig_commands()
        if self.bot_turn():
            return {name: (False, "why.computer") for name in out}
        return out

    def boot_link(self, fragment: str) -> None:
        """The link the page was opened with: its computer seats apply to the game it
        started, or to the game it starts once the player confirms."""
        from skyline.links import LinkError, parse_share_bots, parse_share_fragment

        c = self.c
        if not fragment.startswith("#play?"):
            return
        try:
            options = parse_share_fragment(fragment).options
            bots = dict(parse_share_bots(fragment))
        except LinkError:
            return
        if c.board is not None and c.board.options == options and not c.board.actions:
            self.set_seats([bots.get(i, "human") for i in range(len(options.names))])
        else:
            self.link_bots = (options, bots)

    def share_link(self) -> str:
        url = self._orig_share_link()
        letters = {"beginner": "b", "greedy": "g", "expert": "e"}
        bots = "".join(f"{i}{letters[s.level]}" for i, s in sorted(self.c.seat_controllers.items()))
        return url + ("&bots=" + bots if bots and "#play?" in url else "")

    def _start(self, options, beat=None) -> None:
        d = self.c.dialog
        seats = list(d.get("seats") or []) if d and d.get("kind") == "newgame" else []
        if not seats and self.link_bots is not None and self.link_bots[0] == options:
            bots = self.link_bots[1]
            seats = [bots.get(i, "human") for i in range(len(options.names))]
        self.link_bots = None
        self._orig_start(options, beat)
        self.set_seats(seats[: len(options.names)])
        self.hint = None
        self.review = None
        self.skipping = False

    def _action(self, action: str, arg, form: dict) -> None:
        c = self.c
        if action == "bot-skip":
            self.skipping = True
            self.kick(0)
            return
        if action == "bot-hint":
            self.show_hint()
            return
        if action in GAME_ACTIONS and c.board is not None and c.dialog is None:
            if not c.is_human(c.board.state.seat) and c.board.state.phase is not Phase.OVER:
                return  # the computer is playing this seat
        self._orig_action(action, arg, form)
        self.kick()

    # ------------------------------------------------------------------ dialog field

    def seat_field(self, d: dict, i: int) -> str:
        t = self.c.t
        current = (d.get("seats") or ["human"] * 4)[i]
        opts = [("human", t("seat.human"))] + [(lv, t("seat.bot." + lv)) for lv in LEVELS]
        html = "".join(
            f'<option value="{v}"{" selected" if v == current else ""}>{esc(label)}</option>'
            for v, label in opts
        )
        return (
            f'<label class="field seat"><span>{esc(t("seat.label", n=i + 1))}</span>'
            f'<select name="seat{i}" id="ng-seat{i}" data-testid="seat-select">{html}</select></label>'
        )

    # ------------------------------------------------------------------ the bot timer

    def bot_turn(self) -> bool:
        c = self.c
        b = c.board
        return b is not None and b.state.phase is not Phase.OVER and not c.is_human(b.state.seat)

    def kick(self, delay: int | None = None) -> None:
        if self.armed:
            return
        if self.bot_turn():
            self.armed = True
            self.schedule(delay if delay is not None else (SKIP_MS if self.skipping else PACE_MS), self.tick)
        else:
            self.skipping = False
            self.review_kick()

    def warm(self, steps: tuple[tuple[str, int], ...] | None = None) -> None:
        """Read and decode the solo value table while the page is idle, one small step per
        tick (read the file, then one turn level of one mode at a time), so the first
        expert decision or hint does not pay for it and no tick blocks long. The file is
        read with a plain open (importlib.resources costs a first import in Pyodide)."""
        from skyline import solo_value as sv

        try:
            if steps is None:
                load_table_quickly()
                b = self.c.board
                first = "nine" if b is not None and b.options.all_nine else "standard"
                levels = len(sv.load_table().meta["counts"][first])
                steps = tuple(
                    (mode, t)
                    for mode in (first, "standard" if first == "nine" else "nine")
                    for t in range(levels)
                )
            else:
                sv.prepare(*steps[0])
                steps = steps[1:]
        except Exception:  # noqa: BLE001 - no table: the expert reports it when asked
            return
        if steps:
            self.schedule(WARM_MS // 30, lambda: self.warm(steps))

    def on_action(self, c, action) -> None:
        self.hint = None

    def tick(self) -> None:
        self.armed = False
        c = self.c
        try:
            if c.dialog is not None or c.mode is not None:
                # a dialog is open: the computer waits (checked again at the next tick)
                self.armed = True
                self.schedule(PACE_MS, self.tick)
                return
            if not self.bot_turn():
                self.skipping = False
                self.review_kick()
                c.render()
                return
            state = c.board.state
            seat = state.seat
            level = c.seat_controllers[seat].level
            rng = random.Random(f"{c.board.options.seed}/{seat}/{len(c.board.actions)}")
            started = time.perf_counter()
            action = BOTS[level](state, rng)
            self.think_ms.append((time.perf_counter() - started) * 1000)
            del self.think_ms[:-2000]
            c.takes = []
            c.dispatch(action)
            c.render()
        except Exception as exc:  # noqa: BLE001 - keep the page alive
            self.skipping = False
            c.notify("notice.error", "error")
            c.render()
            raise exc
        self.kick()

    # ------------------------------------------------------------------ hint

    def can_hint(self) -> bool:
        c = self.c
        b = c.board
        return (
            b is not None and b.state.phase is not Phase.OVER and c.is_human(b.state.seat)
            and c.mode is None
        )

    def show_hint(self) -> None:
        from skyline.expert import hint

        c = self.c
        if not self.can_hint():
            return
        state = c.board.state
        started = time.perf_counter()
        rows = hint(state, 3)
        self.think_ms.append((time.perf_counter() - started) * 1000)
        self.hint = (len(c.board.actions), rows)

    # ------------------------------------------------------------------ review (solo)

    def review_kick(self) -> None:
        c = self.c
        b = c.board
        if b is None or not b.is_game_over() or not b.state.solo or self.review_job:
            return
        key = (b.options, len(b.actions))
        if self.review is not None and self.review["key"] == key:
            return
        from skyline import solo_value as sv
        from skyline.expert import position

        state = new_game(b.options)
        self.review = {"key": key, "i": 0, "state": state, "decisions": [], "done": False,
                       "start": sv.value(position(state))}
        self.review_job = True
        self.schedule(0, self.review_step)

    def review_step(self) -> None:
        from skyline.expert import grade

        self.review_job = False
        c = self.c
        r = self.review
        b = c.board
        if r is None or b is None or r["key"] != (b.options, len(b.actions)):
            return
        actions = b.actions
        started = time.perf_counter()
        while r["i"] < len(actions) and (time.perf_counter() - started) * 1000 < CHUNK_MS:
            action = actions[r["i"]]
            row = grade(r["state"], action)
            if row is not None:
                r["decisions"].append(row)
            r["state"] = apply_action(r["state"], action)
            r["i"] += 1
        if r["i"] >= len(actions):
            r["done"] = True
            total = sum(d["loss"] for d in r["decisions"])
            r["total"] = total
            r["accuracy"] = 100.0 * r["start"] / (r["start"] + total) if r["start"] + total > 0 else 100.0
        else:
            self.review_job = True
            self.schedule(0, self.review_step)
        c.render()

    # ------------------------------------------------------------------ measurements

    def js_api(self, command: str = "think", arg: str = "") -> str:
        """JSON text for the e2e tests and scripts/bench_bot_browser.py.

        ``think``: the bot/hint thinking times so far (ms). ``table``: load the solo table
        now, with the time it took. ``bench``: play ``arg`` = "games,seed,players" scripted
        expert games and time every expert decision (blocks the page while it runs)."""
        if command == "table":
            from skyline import solo_value as sv

            started = time.perf_counter()
            load_table_quickly()
            table = sv.load_table()
            load_ms = (time.perf_counter() - started) * 1000
            first = {}
            for mode in ("standard", "nine"):  # the first lookup of a mode decodes it
                started = time.perf_counter()
                sv.value(sv.SoloPosition.start(mode))
                first[mode] = (time.perf_counter() - started) * 1000
            counts = (getattr(table, "meta", None) or {}).get("counts", {})
            entries = sum(sum(v) for v in counts.values()) if counts else None
            return json.dumps({"load_ms": load_ms, "first_lookup_ms": first, "entries": entries})
        if command == "bench":
            games, seed, players = (arg or "1,bench,1").split(",")
            times = []
            for g in range(int(games)):
                names = tuple(f"p{i}" for i in range(int(players)))
                state = new_game(Options(names, f"{seed}-{g}", 0, False, None))
                rng = random.Random(g)
                while state.phase is not Phase.OVER:
                    started = time.perf_counter()
                    action = BOTS["expert"](state, rng)
                    times.append((time.perf_counter() - started) * 1000)
                    state = apply_action(state, action)
            return json.dumps({"decisions_ms": times})
        return json.dumps({"think_ms": self.think_ms})

    # ------------------------------------------------------------------ panel

    def panel(self, c) -> str:
        b = c.board
        if b is None:
            return ""
        t = c.t
        parts = []
        state = b.state
        if self.bot_turn():
            name = state.player.name
            level = t("seat.bot." + c.seat_controllers[state.seat].level)
            skip = (
                f'<button type="button" id="bot-skip" data-action="bot-skip" data-testid="bot-skip"'
                f'{" disabled" if self.skipping else ""}>{esc(t("bot.skip"))}</button>'
            )
            parts.append(
                f'<div class="bot-bar" data-testid="bot-bar"><p>{esc(t("bot.playing", name=name, level=level))}</p>{skip}</div>'
            )
        if self.can_hint():
            parts.append(
                f'<button type="button" id="btn-hint" data-action="bot-hint" data-testid="hint-btn">{esc(t("hint.button"))}</button>'
            )
            if self.hint is not None and self.hint[0] == len(b.actions):
                rows = self.hint[1]
                if rows:
                    items = "".join(
                        f'<li data-testid="hint-option"><span class="hint-act">{esc(action_text(c, state, r["action"]))}</span> '
                        f'<span class="hint-val">{esc(t("hint.value", value=_number(c, r["value"])))}</span></li>'
                        for r in rows
                    )
                    best = action_text(c, state, rows[0]["action"])
                    parts.append(
                        f'<div class="hint" data-testid="hint" role="status"><p class="hint-best">{esc(t("hint.best", action=best))}</p>'
                        f'<p>{esc(t("hint.options"))}</p><ol>{items}</ol></div>'
                    )
                else:
                    parts.append(f'<div class="hint" data-testid="hint" role="status"><p>{esc(t("hint.none"))}</p></div>')
        r = self.review
        if b.is_game_over() and state.solo and r is not None:
            parts.append(self.review_html(c, r))
        if not parts:
            return ""
        return f'<h2 class="panel-title">{esc(t("bot.panel_title"))}</h2>' + "".join(parts)

    def review_html(self, c, r) -> str:
        t = c.t
        if not r["done"]:
            return f'<p data-testid="review-progress">{esc(t("review.working", done=r["i"], total=len(c.board.actions)))}</p>'
        rows = []
        for d in r["decisions"]:
            loss = d["loss"]
            cls = ' class="lost"' if loss >= 0.05 else ""
            rows.append(
                f'<tr{cls} data-testid="review-row"><td>{d["round"]}</td>'
                f'<td>{esc(action_text(c, d["state"], d["chosen"]))}</td>'
                f'<td>{esc(action_text(c, d["state"], d["best"]))}</td>'
                f'<td>{esc(_number(c, loss))}</td></tr>'
            )
        head = "".join(f"<th>{esc(t(k))}</th>" for k in ("review.round", "review.chosen", "review.best", "review.lost"))
        acc = t("review.accuracy", accuracy=_number(c, r["accuracy"]), lost=_number(c, r["total"]),
                optimum=_number(c, r["start"]))
        return (
            f'<div class="review" data-testid="review"><h3>{esc(t("review.title"))}</h3>'
            f'<p data-testid="review-accuracy">{esc(acc)}</p>'
            f'<table class="review-table"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
        )
