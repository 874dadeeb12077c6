"""Walk every screen: seeded games of every shape played to the end on the fake host.

Shapes: solo (plain, all nine rounds, each scenario, a computer seat), 2, 3 and 4 players,
every seat kind the new-game dialog offers (a person here, a computer at each level, a
friend elsewhere: a second device opens the game link and claims the seat in the "which
seat do you play?" dialog), standard and all-nine-rounds games.

At every state reached on the main line, the screen is looked at in English and in
German (the page's own language command), and every command the rendered HTML offers
(the ``data-action``/``data-arg`` of each enabled button, each form's submit with the
values it shows) is issued: commands that only open or show something on the page
itself, then Escape; commands that change the game on a copy of the page (a new page
booted from a saved storage, plus the events since that save). The main
line goes on with a seeded random choice among the enabled game commands (or the timer,
when a computer seat is to move). Every output is checked:

* no exception, no ``host.report`` (the controller's crash handler), no error notice;
* no string-table key visible (text, ``aria-label``, ``title``, ``placeholder``);
* in German, no text that is an English table value (one that differs from German);
* a friend elsewhere is never called a computer (scoreboard, status, log, prompts);
* every region a picture keeps holds only what a picture may (app.core.dom's
  allow-list), so the next visit paints it;
* at each state (in both languages at the full sweeps), and in each dialog, list or
  replay a view command opens, every control the page shows is set against the controller's refusal
  (``tests/control_check.py``): enabled is accepted, greyed is refused for the reason shown.

The page is driven only through ``web_fakes.make_page`` and ``Controller.handle``; the
state is read from ``host.html`` (and ``c.board`` / ``c.page`` for whose turn it is).
"""

from __future__ import annotations

import html as htmlmod
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field

import pytest
from app.controller import Controller
from app.core import i18n
from app.core.commands import Guard
from app.core.dom import SNAPSHOT_REGIONS
from control_check import ControlCheck
from page_html import FORM, TAG, enabled_controls, form_values, outside_picture
from web_fakes import FakeHost, make_page, start_game, tables

from skyline import SCENARIOS

TABLES = tables()
EN, DE = TABLES["en"], TABLES["de"]
LANGS = ("en", "de")

# ------------------------------------------------------------------ shapes of games


@dataclass(frozen=True)
class Shape:
    label: str
    names: tuple[str | None, ...]  # None: the name the dialog offers
    seats: tuple[str, ...]  # human / beginner / greedy / expert / friend (as the dialog)
    seed: str
    scenario: str = ""
    nine: bool = False
    start: int = 0
    sweep: int = 1  # issue every command at one state in ``sweep`` (others: render only)


SHAPES = (
    Shape("solo", ("Alice",), ("human",), "walk-solo", sweep=4),
    Shape("solo nine rounds", ("Alice",), ("human",), "walk-nine", nine=True, sweep=8),
    *(Shape(f"solo scenario {s}", ("Alice",), ("human",), f"walk-{s}", scenario=s, sweep=16)
      for s in SCENARIOS),
    Shape("solo computer (expert)", ("Alice",), ("expert",), "walk-bot", sweep=8),
    Shape("2p here+beginner", ("Alice", "Bob"), ("human", "beginner"), "walk-2b", sweep=12),
    Shape("2p here+friend", ("Alice", "Bob"), ("human", "friend"), "walk-2f", sweep=10),
    Shape("3p here+greedy+expert nine rounds", ("Alice", "Bob", "Cleo"),
          ("human", "greedy", "expert"), "walk-3", nine=True, start=1, sweep=20),
    Shape("3p here+friend+expert", ("Alice", "Bob", "Cleo"),
          ("human", "friend", "expert"), "walk-3f", sweep=16),
    Shape("4p here+beginner+greedy+greedy", ("Alice", "Bob", "Cleo", "Dan"),
          ("human", "beginner", "greedy", "greedy"), "walk-4", start=2, sweep=16),
    Shape("4p here+expert+friend (default name)+beginner", ("Alice", "Bob", None, "Dan"),
          ("human", "expert", "friend", "beginner"), "walk-4f", sweep=16),
)

# the game commands, from the command table the features give the controller
GAME_ACTIONS = {str(name) for name, cmd in Controller(FakeHost(), tables()).commands.items()
                if cmd.guards & Guard.GAME}
# Commands that only open, show or close something of the page itself: issued on the
# main line, then Escape. Everything else runs on a copy of the page.
VIEW_ACTIONS = {"rules", "rules-goto", "newgame", "ng-change", "close", "stats", "share",
                "games", "corr-send", "corr-copy", "corr-share", "corr-qr",
                "daily-copy", "game-rename", "game-rename-cancel", "game-export",
                "export-save", "game-replay", "replay-close", "replay-round", "dismiss",
                "chances-open"}
# the main line's weights among the enabled game commands
WEIGHTS = {"take": 3, "district": 1, "die": 2, "roll": 4, "build": 5, "demolish": 1,
           "end": 2, "col": 3, "tile": 3, "abandon": 0.3, "undo": 0.2, "untake": 0.2,
           "cancel": 0.2}
MAX_STEPS = 1500  # main-line events per game


def main_line_weights(choices: list[Command]) -> list[float]:
    """Dice one at a time: a selection that cannot be used is given up again."""
    stuck = not any(x.action in ("build", "demolish") for x in choices)
    selected = any(x.pressed for x in choices)
    weights = []
    for x in choices:
        if x.action == "die" and x.pressed:
            w = 3 if stuck else 0.1
        elif x.action == "die":
            w = 0 if selected and stuck else 0.3 if selected else 2
        elif x.action in ("abandon", "end") and stuck and not selected:
            w = 3
        else:
            w = WEIGHTS.get(x.action, 1)
        weights.append(w)
    return weights if any(weights) else [1] * len(weights)

# ------------------------------------------------------------------ reading the HTML

_ATTR_TEXT = re.compile(r'\s(?:aria-label|title|placeholder|alt)="([^"]*)"')


@dataclass(frozen=True)
class Command:
    """One thing the player may do: ``handle(kind, action, arg, form=form)``."""

    kind: str
    action: str
    arg: str | None = None
    form: tuple[tuple[str, str], ...] | None = None
    key: str = ""  # keydown
    pressed: bool = field(default=False, compare=False)  # aria-pressed (a selected die)

    def run(self, dev) -> None:
        if self.kind == "timer":
            dev.timer.step()
            return
        dev.c.handle(self.kind, self.action, self.arg, key=self.key,
                     form=dict(self.form) if self.form is not None else None)

    def __str__(self) -> str:
        if self.kind == "keydown":
            return f"key {self.key}"
        if self.kind == "hashchange":
            return f"hashchange {self.arg[:40]!r}…"
        arg = "" if self.arg is None else f" {self.arg!r}"
        form = f" form={dict(self.form)}" if self.form else ""
        return f"{self.kind} {self.action}{arg}{form}"


def offered(regions: dict[str, str]) -> list[Command]:
    """Every enabled command of the page as shown (the dialog's only, when one is open)."""
    shown = {"dialog": regions["dialog"]} if regions.get("dialog") else regions
    out: list[Command] = []
    seen = set()
    for html in shown.values():
        for c in enabled_controls(html):
            form = None if c.form is None else tuple(sorted(c.form.items()))
            cmd = Command(c.kind, c.action, c.arg, form, pressed=c.pressed)
            if cmd not in seen:
                seen.add(cmd)
                out.append(cmd)
    return out


ESCAPE = Command("keydown", None, key="Escape")
TIMER = Command("timer", "")


def error_notices(host) -> frozenset:
    return frozenset(re.findall(r'class="notice n-error"[^>]*data-key="([^"]*)"',
                                host.html.get("notices", "")))


def segments(html: str) -> list[str]:
    """Visible texts: the text between tags, and the attributes read out or shown."""
    parts = [htmlmod.unescape(s).strip() for s in TAG.split(html)]
    parts += [htmlmod.unescape(v).strip() for v in _ATTR_TEXT.findall(html)]
    return [p for p in parts if p]


# ------------------------------------------------------------------ the checks

KEYS = set(EN) | set(DE)
PREFIXES = {k.split(".")[0] for k in KEYS}
_KEYLIKE = re.compile(
    r"(?<![\w./:#?=&-])([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)(\|(?:one|zero))?(?![\w/-])")
_PARAM = re.compile(r"\{[a-z_]+\}")
COUNTED = ("n", "points", "score")  # i18n.COUNT_PARAMS: numbers


def _english_only() -> list[tuple[str, re.Pattern]]:
    """English values German never uses, as patterns over one whole text."""
    german = set(DE.values())
    out = []
    for key, en in EN.items():
        if DE.get(key) == en or en in german:
            continue
        literal = _PARAM.sub("", en)
        if len(re.sub(r"[^A-Za-z]", "", literal)) < 5:
            continue
        pattern = "".join((r"-?\d+" if p[1:-1] in COUNTED else ".+?") if _PARAM.fullmatch(p)
                          else re.escape(p) for p in re.split(r"(\{[a-z_]+\})", en) if p)
        out.append((key, re.compile(pattern, re.S)))
    return out


ENGLISH_ONLY = _english_only()
_ENGLISH_ANY = re.compile("|".join(f"(?:{p.pattern})" for _, p in ENGLISH_ONLY), re.S)
_UNIT = re.compile(r"<(li|p|h3|span|header|td|th)\b[^>]*>(.*?)</\1>", re.S)
_SELECT = re.compile(r"<select\b.*?</select>", re.S)
_PLAYER = re.compile(r'<section class="player[^"]*"[^>]* data-testid="player-(\d+)".*?</section>',
                     re.S)
_ROUND = re.compile(r'data-testid="round">([^<]*)<')
_PHASE = re.compile(r'data-phase="([a-z_]+)"')
_TURN = re.compile(r'data-testid="turn">(.*?)</span>', re.S)

_seen_text: dict[tuple[str, str], tuple[str, ...]] = {}


def text_problems(text: str, lang: str) -> tuple[str, ...]:
    """A key in one visible text; in German, the text being an English one."""
    memo = (text, lang)
    if memo not in _seen_text:
        found = []
        for m in _KEYLIKE.finditer(text):
            token = m.group(1)
            if token in KEYS or token.split(".")[0] in PREFIXES:
                found.append(f"string-table key {m.group(0)!r} visible")
        if lang == "de" and _ENGLISH_ANY.fullmatch(text):
            key = next(k for k, p in ENGLISH_ONLY if p.fullmatch(text))
            found.append(f"English text of {key!r} in German")
        _seen_text[memo] = tuple(found)
    return _seen_text[memo]


_seen_region: dict[tuple[str, str, tuple[str, ...]], tuple[str, ...]] = {}


def region_problems(name: str, html: str, lang: str, friends: tuple[str, ...],
                    names: frozenset = frozenset()) -> tuple[str, ...]:
    """What is wrong in one region's HTML; ``names``: the players' names (typed or
    stored as they are), never taken for a text of the tables."""
    memo = (html, lang, friends, names)
    if memo in _seen_region:
        return _seen_region[memo]
    problems = []
    if name in SNAPSHOT_REGIONS:  # the next visit paints it from its picture
        problems += [f"{what} in {name}: the next visit drops its picture"
                     for what in sorted(outside_picture(html))]
    for text in segments(html):
        for what in text_problems(text, lang):
            if not (what.startswith("English") and text in names):
                problems.append(f"{what} in {name}: {text!r}")
    for friend in friends:
        # a line of the status, log, list: each part about one player ("Bob (elsewhere),
        # Cleo (Computer (Expert))"); the friend's own part of the scoreboard as a whole
        shown = _SELECT.sub("", html)  # a choice of seat kinds is no one's seat
        units = [part for u in _UNIT.finditer(shown)
                 for part in re.split(r"[,·]", htmlmod.unescape(TAG.sub("", u.group(2))))]
        units += [htmlmod.unescape(TAG.sub(" ", u.group(0))) for u in _PLAYER.finditer(shown)
                  if friend in TAG.sub("", u.group(0))]
        for unit in units:
            if friend in unit and "computer" in unit.lower():
                problems.append(f"friend {friend!r} called a computer in {name}: "
                                f"{' '.join(unit.split())!r}")
    out = tuple(dict.fromkeys(problems))
    _seen_region[memo] = out
    return out


# ------------------------------------------------------------------ a device and the walk


def seat_kind(c, seat: int) -> str:
    """"human" (a person here), "computer" or "friend": what the page holds for a seat,
    a string ("human", a level, "friend") or a ``skyline.Seat`` (its kind)."""
    kind = c.page.seat_kind(seat)
    kind = getattr(kind, "kind", kind)
    kind = str(getattr(kind, "value", kind))
    return {"here": "human", "human": "human", "friend": "friend"}.get(kind, "computer")


_CHART = re.compile(r'<section class="chances.*?</section>', re.S)


def _without_chart(html: str | None) -> str | None:
    return _CHART.sub("", html) if html else html


@dataclass
class Device:
    name: str
    lang: str
    c: object = None
    host: object = None
    timer: object = None
    # how to make this page again: boot from one of ``snaps`` (the storage after an
    # event, as (number of events, copy of the storage)), then issue the events after it
    events: list[Command] = field(default_factory=list)
    snaps: list[tuple[int, dict]] = field(default_factory=list)
    base: int = 0  # the newest snap known to give this page again
    recipe: tuple[int, int] | None = None  # (len(events), snap) that made the last copy
    inexact: int = 0  # copies that differ from the page (before their command)

    def boot(self, storage=None):
        self.events, self.snaps, self.base, self.recipe = [], [(0, dict(storage or {}))], 0, None
        self.c, self.host, self.timer = make_page(storage=dict(storage or {}), langs=(self.lang,))

    def _make(self, snap: int) -> Device:
        other = Device(self.name + "'", self.lang)
        at, storage = self.snaps[snap]
        other.c, other.host, other.timer = make_page(storage=dict(storage), langs=(self.lang,))
        for cmd in self.events[at:]:
            cmd.run(other)
        if other.c.texts.lang != self.c.texts.lang:
            other.c.handle("click", "lang", self.c.texts.lang)
        if not self.timer.queue:  # the page has settled (e.g. the review graded): so does this
            other.timer.run(limit=2000)
        return other

    def _same(self, other: Device) -> bool:
        """The same page, but for the notices and the chances chart (worked out in idle
        ticks: a copy may be ahead of the page in it, or behind)."""
        return all(_without_chart(other.host.html.get(k)) == _without_chart(v)
                   for k, v in self.host.html.items() if k != "notices")

    def copy(self) -> Device:
        """A page like this one (the newest snap that gives it, else the known one)."""
        if self.recipe is not None and self.recipe[0] == len(self.events):
            return self._make(self.recipe[1])
        newest = len(self.snaps) - 1
        tries = [*range(newest, max(self.base, newest - 6), -1), self.base]
        for snap in dict.fromkeys(tries):
            other = self._make(snap)
            if self._same(other):
                self.base = snap
                break
        else:
            self.inexact += 1
        self.recipe = (len(self.events), snap)
        return other

    def adopt(self, other: Device) -> None:
        self.c, self.host, self.timer, self.recipe = other.c, other.host, other.timer, None

    def went_on(self, cmd: Command, storage_before: dict) -> None:
        """``cmd`` happened on the main line: the recipe of this page grows (a change
        of language is made once, at the end of a copy)."""
        if cmd.action == "lang":
            return
        self.events.append(cmd)
        if self.host.storage != storage_before and not self.host.html.get("dialog"):
            self.snaps.append((len(self.events), dict(self.host.storage)))

    def friends(self) -> tuple[str, ...]:
        """The names a friend elsewhere goes by here (as typed; a default in either
        language)."""
        b = self.c.board
        if b is None:
            return ()
        out = []
        for i, p in enumerate(b.state.players):
            if seat_kind(self.c, i) == "friend":
                defaults = [t["newgame.default_name"].format(n=i + 1) for t in (EN, DE)]
                out += [p.name, *defaults] if not p.name or p.name in defaults else [p.name]
        return tuple(dict.fromkeys(out))


class Walk:
    def __init__(self) -> None:
        self.failures: list[tuple[str, str, str]] = []  # (shape, where, what)
        self.missing: list[tuple[str, str]] = []  # i18n.ON_MISSING: (key, lang)
        self.counts = Counter()
        self.shape = ""
        #: what the page greys against what the controller refuses (tests/control_check.py)
        self.controls = ControlCheck(self.fail)

    # -------------------------------------------------------------- checking outputs

    def where(self, dev: Device, state: int, cmd: str) -> str:
        html = dev.host.html
        rnd = _ROUND.search(html.get("topbar", ""))
        phase = _PHASE.search(html.get("turn", ""))
        turn = _TURN.search(html.get("topbar", ""))
        desc = ", ".join(x for x in (
            htmlmod.unescape(rnd.group(1)) if rnd else "",
            phase.group(1) if phase else "",
            htmlmod.unescape(TAG.sub("", turn.group(1))) if turn else "") if x)
        return (f"[{self.shape}] device {dev.name}, state #{state} ({desc}), "
                f"command {cmd}, lang {dev.c.texts.lang if dev.c else dev.lang}")

    def fail(self, where: str, what: str) -> None:
        self.failures.append((self.shape, where, what))

    def check(self, dev: Device, where: str, reports_before: int = 0,
              errors_before: frozenset = frozenset()) -> None:
        self.counts["outputs"] += 1
        host = dev.host
        for report in host.reports[reports_before:]:
            self.fail(where, f"host.report {report!r}")
        for key in error_notices(host) - errors_before:
            self.fail(where, f"error notice {key!r}")
        lang = dev.c.texts.lang
        friends = dev.friends()
        board = dev.c.board
        names = frozenset(p.name for p in board.state.players) if board else frozenset()
        for name, html in host.html.items():
            for problem in region_problems(name, html, lang, friends, names):
                self.fail(where, problem)

    def run(self, dev: Device, cmd: Command, where: str) -> bool:
        """Issue ``cmd``, check what the page shows; False if it raised."""
        reports = len(dev.host.reports)
        errors = error_notices(dev.host)
        self.missing.clear()
        try:
            cmd.run(dev)
        except Exception as exc:
            self.fail(where, f"{type(exc).__name__}: {exc}")
            return False
        finally:
            for key, lang in dict.fromkeys(self.missing):
                self.fail(where, f"no text for {key!r} in the {lang!r} string table")
            self.missing.clear()
        self.check(dev, where, reports, errors)
        return len(dev.host.reports) == reports  # False: the controller caught a crash

    def main(self, dev: Device, cmd: Command, where: str) -> bool:
        """An event of the main line (kept in the device's recipe for its copies)."""
        before = dict(dev.host.storage)
        ok = self.run(dev, cmd, where)
        dev.went_on(cmd, before)
        return ok

    def escape(self, dev: Device, where: str) -> None:
        self.run(dev, ESCAPE, where)

    # -------------------------------------------------------------- one state

    def sweep(self, dev: Device, state: int, full: bool) -> None:
        """The state in the page's language, then in the other one (the main line goes
        on in that one); with ``full`` every command offered, in both."""
        for switch in (False, True):
            if switch:
                other = next(lang for lang in LANGS if lang != dev.c.texts.lang)
                self.main(dev, Command("click", "lang", other), self.where(dev, state, "lang"))
            self.counts["renders"] += 1
            if full or not switch:  # the other language's reasons at the full sweeps
                self.controls.look(dev.c, dev.host.html, self.where(dev, state, "-"))
            if not full:
                continue
            self.counts["swept"] += 1
            for cmd in offered(dev.host.html):
                if cmd.action != "lang":
                    self.try_command(dev, state, cmd, depth=1)

    def try_command(self, dev: Device, state: int, cmd: Command, depth: int,
                    before: tuple[Command, ...] = ()) -> None:
        self.counts["commands"] += 1
        label = " > ".join(str(x) for x in (*before, cmd))
        if cmd.action in VIEW_ACTIONS and not before and not dev.host.html.get("dialog"):
            ok = self.run(dev, cmd, self.where(dev, state, label))
            if ok:
                self.controls.look(dev.c, dev.host.html, self.where(dev, state, label))
            dialog = dev.host.html.get("dialog", "")
            inner = []
            if ok and depth == 1 and dialog and self.new_dialog(dev, dialog):
                inner = [x for x in offered(dev.host.html)
                         if x.action not in ("close", "lang") and x != cmd]
            self.restore(dev, state, label, ok)
            for x in inner:  # what the dialog offers, each on a copy
                self.try_command(dev, state, x, 2, (cmd,))
            return
        copy = dev.copy()
        for step in before:
            step.run(copy)
        self.run(copy, cmd, self.where(copy, state, label))

    def new_dialog(self, dev: Device, dialog: str) -> bool:
        """Look inside each kind of dialog (with the same commands) once per game and
        language."""
        testid = re.search(r'data-testid="([^"]*)"', dialog)
        kinds = tuple(sorted({c.action for c in offered({"dialog": dialog})}))
        memo = (dev.name, dev.c.texts.lang, testid.group(1) if testid else "", kinds)
        if memo in self.dialogs:
            return False
        self.dialogs.add(memo)
        return True

    def restore(self, dev: Device, state: int, label: str, ok: bool) -> None:
        """Back to the main line after a view command: Escape until nothing is open."""
        for _ in range(3):
            if not (dev.host.html.get("dialog") or 'data-action="replay-close"'
                    in "".join(dev.host.html.values())):
                break
            self.escape(dev, self.where(dev, state, label + " > Escape"))
        if not ok:  # a crash on the main line: on with the page as it was before
            dev.adopt(dev._make(len(dev.snaps) - 1))

    # -------------------------------------------------------------- one game

    def new_game(self, dev: Device, shape: Shape) -> None:
        """Through the new-game dialog, with the fields it offers."""
        where = f"[{shape.label}] new game"
        self.main(dev, Command("click", "newgame"), where)
        self.main(dev, Command("change", "ng-change", None, (("count", str(len(shape.names))),)),
                  where)
        body = FORM.search(dev.host.html["dialog"])
        if not body:
            raise AssertionError(f"[{shape.label}] no new-game form")
        form = form_values(body.group(2))
        shown = body.group(2)
        for i, (name, seat) in enumerate(zip(shape.names, shape.seats, strict=True)):
            if f'name="seat{i}"' not in shown or f'value="{seat}"' not in shown:
                raise AssertionError(f"[{shape.label}] the dialog offers no {seat!r} for seat {i}")
            if name is not None:
                form[f"name{i}"] = name
            form[f"seat{i}"] = seat
        if shape.scenario:
            if f'value="{shape.scenario}"' not in shown:
                raise AssertionError(f"[{shape.label}] the dialog offers no {shape.scenario}")
            form["scenario"] = shape.scenario
        if shape.nine:
            form["nine"] = "on"
        if len(shape.names) > 1:
            form["start"] = str(shape.start)
        form["seed"] = shape.seed
        self.main(dev, Command("submit", "ng-start", None, tuple(sorted(form.items()))), where)
        if dev.host.html.get("dialog"):
            raise AssertionError(f"[{shape.label}] the game did not start")

    def hand_over(self, dev: Device, other: Device, state: int) -> None:
        """The friend's turn: send the link to the other device, which plays on."""
        if 'data-action="corr-copy"' not in dev.host.html.get("dialog", ""):
            self.main(dev, Command("click", "corr-send"), self.where(dev, state, "corr-send"))
        self.main(dev, Command("click", "corr-copy"), self.where(dev, state, "corr-copy"))
        link = dev.host.copied[-1]
        self.main(dev, Command("click", "close"), self.where(dev, state, "close"))
        frag = "#" + link.split("#", 1)[1]
        self.main(other, Command("hashchange", None, frag), self.where(other, state, "open link"))
        dialog = other.host.html.get("dialog", "")
        if 'data-submit="corr-claim"' in dialog:
            self.sweep(other, state, True)  # "which seat do you play?"
            form = FORM.search(other.host.html["dialog"])
            values = form_values(form.group(2))
            b = dev.c.board
            for i in range(len(b.state.players)):
                values.pop(f"seat{i}", None)
                if seat_kind(dev.c, i) == "friend":
                    values[f"seat{i}"] = "on"
            self.main(other, Command("submit", "corr-claim", None, tuple(sorted(values.items()))),
                      self.where(other, state, "corr-claim"))
        if other.c.board.actions != dev.c.board.actions:
            raise AssertionError(self.where(other, state, "open link")
                                 + ": the link did not bring the game")

    def game(self, shape: Shape) -> None:
        self.shape = shape.label
        self.dialogs: set[tuple] = set()
        rng = random.Random(shape.seed)
        a = Device("A", "en")
        a.boot()
        self.check(a, self.where(a, 0, "boot"))
        self.sweep(a, 0, True)  # the welcome dialog
        self.new_game(a, shape)
        devices = [a]
        if "friend" in shape.seats:  # the friend's device: German
            devices.append(Device("B", "de"))
            devices[1].boot()
        holder: Device | None = a  # the device that has the game (the others wait)
        state = 0
        for _ in range(MAX_STEPS):
            c = holder.c
            state += 1
            self.counts["states"] += 1
            over = c.board.is_game_over()
            full = state % shape.sweep == 0 or over
            if seat_kind(c, c.board.state.seat) != "human" and not over:
                # a computer (or friend) to move: its moves are looked at in the page's
                # language; in both and with every command at some of them
                full = full and state % (3 * shape.sweep) == 0
                if state % 3 and not full:
                    self.counts["states looked at in one language"] += 1
                    holder = self.step(holder, devices, state, rng)
                    if holder is None:
                        break
                    continue
            self.sweep(holder, state, full)
            if over:
                break
            holder = self.step(holder, devices, state, rng)
            if holder is None:
                break
        else:
            self.fail(f"[{shape.label}]", f"not over after {MAX_STEPS} steps")
        # the end: the solo review is graded by the timer, then the state once more
        for dev in devices:
            dev.timer.run(limit=2000)
            self.sweep(dev, state + 1, True)
        self.counts["inexact copies"] += sum(dev.inexact for dev in devices)

    def step(self, holder: Device, devices: list[Device], state: int, rng) -> Device | None:
        """One event of the main line; the device that has the game then (None: stop)."""
        c = holder.c
        kind = seat_kind(c, c.board.state.seat)
        if kind == "friend":
            other = next(d for d in devices if d is not holder)
            self.hand_over(holder, other, state)
            return other
        if kind != "human":
            if not holder.timer.queue:
                self.fail(self.where(holder, state, "timer"), "the computer never moves")
                return None
            shown = dict(holder.host.html)
            for _ in range(50):  # the computer's next move (or anything new on the screen)
                self.main(holder, TIMER, self.where(holder, state, "main line: timer"))
                if holder.host.html != shown or not holder.timer.queue:
                    break
            return holder
        choices = [cmd for cmd in offered(holder.host.html) if cmd.action in GAME_ACTIONS]
        if not choices:
            self.fail(self.where(holder, state, "-"), "no game command offered")
            return None
        cmd = rng.choices(choices, main_line_weights(choices))[0]
        self.main(holder, cmd, self.where(holder, state, f"main line: {cmd}"))
        return holder


# One test per game shape, so that a runner can spread them over the cores.
@pytest.mark.parametrize("shape", SHAPES, ids=[shape.label for shape in SHAPES])
def test_every_screen_of_every_shape_in_both_languages(monkeypatch, shape):
    started = time.perf_counter()
    walk = Walk()
    # the page as in the browser (a missing text shows its key, or English), each missing
    # text reported with the event that showed it, as strict string tables would
    monkeypatch.setattr(i18n, "STRICT", False)
    monkeypatch.setattr(i18n, "ON_MISSING", lambda key, lang: walk.missing.append((key, lang)))
    try:
        walk.game(shape)
    except Exception as exc:
        walk.fail(f"[{shape.label}]", f"walk stopped by {type(exc).__name__}: {exc}")
    seconds = time.perf_counter() - started
    n = walk.counts
    controls = walk.controls.checked
    summary = (f"1 game, {n['states']} states ({n['swept']} state×language sweeps "
               f"of every command), {n['renders']} state×language renders, {n['commands']} "
               f"commands, {n['outputs']} outputs checked, {controls['screens']} screens' "
               f"{controls['commands']} controls set against the controller's refusal, "
               f"{seconds:.1f} s")
    print(summary)
    grouped: dict[tuple[str, str], list[str]] = {}
    for shape, where, what in walk.failures:
        grouped.setdefault((shape, what), []).append(where)
    lines = [f"{len(v)}× [{shape}] {what}\n    first: {v[0]}"
             for (shape, what), v in grouped.items()]
    assert not walk.failures, (f"{len(walk.failures)} problems ({len(grouped)} distinct) in "
                               f"{summary}:\n" + "\n".join(lines[:80]))
    assert controls["screens"] > 20 and controls["commands"] > 200


def test_the_walk_finds_a_friend_called_a_computer_in_a_skyline() -> None:
    """The check of each skyline reads the cards as the page writes them: a friend's
    card that called them a computer anywhere in it (here below the card's header,
    where no smaller part names them) would be found."""
    c, host, _ = make_page()
    start_game(c, ("Ann", "Bob"), ("human", "friend"), "walk-check")
    players = host.html["players"]
    assert region_problems("players", players, "en", ("Bob",)) == ()
    card = re.search(r'<section [^>]*data-testid="player-1".*?</section>', players, re.S)
    assert card is not None
    wrong = players.replace(card.group(0), card.group(0).replace(
        "</section>", "<p>A computer</p></section>"))
    problems = region_problems("players", wrong, "en", ("Bob",))
    assert any("called a computer" in p for p in problems), problems
