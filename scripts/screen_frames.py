"""Prove that a refactor leaves the page's output unchanged: drive many seeded scripted
games on the fake host and digest every frame.

A frame is what the host holds after one event: every region's HTML (``host.html``),
the texts announced in the live region, the storage, the texts copied, shared, saved
or offered as downloads, the reports (the controller's crash handler), the focus
moves and the document's language. The games are
deterministic: fixed seeds, a seeded random choice among the commands the rendered HTML
offers (``data-action``/``data-arg`` of enabled buttons, forms with the values shown),
both languages, solo/scenarios/2-4 players/computer seats, dialogs, undo, the game
list, replay, share and daily links, reloads; never a friend elsewhere.

Only ``tests/web_fakes`` (``make_page``, ``FakeHost``, the ``FakeTimer``),
``tests/page_html`` and ``Controller.handle`` are used (and the command table's game
commands), so the script runs unchanged on the code before and after a refactor.
Randomness the page draws itself (``secrets``: seeds and nonces) is seeded per game,
and the clock of ``time.perf_counter`` stands still (the solo review is graded in one
go), so two runs give the same frames.

    python3 scripts/screen_frames.py [--games N] [--events N] [--dump FILE]

prints the number of frames and the sha256 of all of them; ``--dump FILE`` writes one
line per frame (index, event, sha256 of the frame) so two runs can be diffed.
Run it from the checkout to test (it imports that checkout's ``skyline`` and ``web``).
"""

from __future__ import annotations

import os
import sys

if os.environ.get("PYTHONHASHSEED") != "0":  # set order of strings: the same every run
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable, *sys.argv])

import argparse
import hashlib
import json
import random
import re
import secrets
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "tests", ROOT / "web"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

# ---------------------------------------------------------------- determinism

_SECRETS = random.Random(0)


def _seed_secrets(seed: str) -> None:
    _SECRETS.seed(seed)


secrets.randbelow = lambda n: _SECRETS.randrange(n)
secrets.choice = lambda seq: seq[_SECRETS.randrange(len(seq))]
secrets.randbits = lambda k: _SECRETS.getrandbits(k)
secrets.token_bytes = lambda n=32: bytes(_SECRETS.getrandbits(8) for _ in range(n))
secrets.token_hex = lambda n=32: secrets.token_bytes(n).hex()
secrets.token_urlsafe = lambda n=32: __import__("base64").urlsafe_b64encode(
    secrets.token_bytes(n)).rstrip(b"=").decode()
time.perf_counter = lambda: 0.0  # a clock that stands still: no chunk depends on speed
time.monotonic = lambda: 0.0
time.time = lambda: 1_764_547_200.0  # 2025-12-01, never read by the page today

from app.controller import Controller  # noqa: E402
from app.core.commands import Guard  # noqa: E402
from page_html import enabled_controls  # noqa: E402
from web_fakes import FakeHost, make_page, tables  # noqa: E402

from skyline import SCENARIOS  # noqa: E402

# ---------------------------------------------------------------- reading the HTML

# the game commands, from the command table the features give the controller
GAME_ACTIONS = {str(name) for name, cmd in Controller(FakeHost(), tables()).commands.items()
                if cmd.guards & Guard.GAME}


def offered(regions: dict[str, str]) -> list[tuple]:
    """Every enabled command as (kind, action, arg, form), the dialog's only when open."""
    shown = [regions["dialog"]] if regions.get("dialog") else [regions[k] for k in sorted(regions)]
    return [(c.kind, c.action, c.arg, c.form) for html in shown for c in enabled_controls(html)]


# ---------------------------------------------------------------- scripted games

SEATS = ("human", "human", "beginner", "greedy", "expert")  # never "friend"
WEIGHTS = {"take": 6, "district": 2, "die": 5, "roll": 6, "build": 7, "demolish": 2,
           "end": 4, "col": 5, "tile": 5, "abandon": 0.5, "undo": 1.5, "untake": 0.7,
           "cancel": 0.7, "lang": 0.4, "ng-start": 1.5, "close": 1.5, "game-delete": 0.4,
           "dismiss": 0.5, "rules-goto": 0.2, "game-rename-save": 1, "ng-change": 1,
           "newgame": 0.4, "daily": 0.3, "rules": 0.5}
_PRESSED = re.compile(r'data-action="die" data-arg="(\d+)" aria-pressed="true"')


def new_game_form(rng: random.Random, form: dict[str, str]) -> dict[str, str]:
    """A game of some shape for the new-game dialog's form."""
    form = dict(form)
    n = rng.choice((1, 1, 1, 2, 2, 3, 4))
    form["count"] = str(n)
    for i in range(4):
        form.pop(f"name{i}", None)
        form.pop(f"seat{i}", None)
    for i in range(n):
        if rng.random() < 0.7:
            form[f"name{i}"] = rng.choice(("Ann", "Bo", "Cy", "Dee", "Jörg", "Zoë", ""))
        seat = rng.choice(SEATS)
        if i == 0 and n > 1 and rng.random() < 0.8:
            seat = "human"
        form[f"seat{i}"] = seat
    form["scenario"] = rng.choice(("",) + SCENARIOS) if n == 1 and rng.random() < 0.6 else ""
    if rng.random() < 0.3:
        form["nine"] = "on"
    else:
        form.pop("nine", None)
    form["seed"] = rng.choice(("", f"fr{rng.randrange(10_000)}", "Seed 7", "x" * 32))
    if n > 1:
        form["start"] = str(rng.randrange(n))
    return form


class Frames:
    def __init__(self, dump) -> None:
        self.n = 0
        self.total = hashlib.sha256()
        self.dump = dump
        self.phases: dict[str, int] = {}  # what the frames showed (printed on stderr)

    def record(self, game: int, event: str, page, raised: str | None) -> None:
        host = page.host
        seen = page.seen
        frame = {
            "html": host.html,
            "announced": host.announced[seen["announced"]:],
            "storage": host.storage,
            "copied": host.copied[seen["copied"]:],
            "shared": host.shared[seen["shared"]:],
            "files": host.files[seen["files"]:],
            "downloads": host.downloads[seen["downloads"]:],
            "reports": host.reports[seen["reports"]:],
            "focused": host.focused[seen["focused"]:],
            "lang": host.lang,
            "raised": raised,
        }
        for key in seen:
            seen[key] = len(getattr(host, key))
        m = re.search(r'data-phase="([a-z_]+)"', host.html.get("turn", ""))
        dialog = re.search(r'data-testid="dialog-([a-z_-]+)"', host.html.get("dialog", ""))
        for what in (m and "phase " + m.group(1), dialog and "dialog " + dialog.group(1),
                     raised and "raised", frame["reports"] and "reported"):
            if what:
                self.phases[what] = self.phases.get(what, 0) + 1
        text = json.dumps(frame, sort_keys=True, ensure_ascii=False)
        digest = hashlib.sha256(f"{game}\t{event}\n{text}".encode()).hexdigest()
        self.total.update(digest.encode())
        if self.dump:
            self.dump.write(f"{self.n}\t{game}\t{event}\t{digest}\n")
        self.n += 1


class Page:
    """One tab: the controller, its fake host and timer."""

    def __init__(self, storage: dict | None, langs: tuple[str, ...], share: bool | None,
                 fragment: str = "") -> None:
        host = FakeHost(storage)
        host.share_ok = share
        self.c, self.host, self.timer = make_page(fragment=fragment, langs=langs, host=host)
        self.seen = {k: 0 for k in ("announced", "copied", "shared", "files", "downloads",
                                    "reports", "focused")}
        self.langs, self.share = langs, share


def link_of(host) -> str | None:
    for text in reversed(host.copied):
        m = re.search(r"#\S+", text)
        if m:
            return m.group(0)
    return None


def play(game: int, events: int, frames: Frames) -> None:
    seed = f"frames-{game}"
    rng = random.Random(seed)
    _seed_secrets(seed)
    langs = rng.choice((("en",), ("de",), ("de-DE", "en"), ("fr", "en")))
    share = rng.choice((None, True, False))
    focus = rng.choice((1, 4, 12))  # how much more often a game command than anything else
    page = Page(None, langs, share)
    frames.record(game, "boot", page, None)
    for _ in range(events):
        html = page.host.html
        commands = offered(html)
        game_cmds = [x for x in commands if x[1] in GAME_ACTIONS]
        r, r2 = rng.random(), rng.random()
        raised = None
        if page.timer.queue and (not commands or r < 0.15 or (not game_cmds and r < 0.5)):
            r = -1.0  # the computer plays (or the page's own timers fire)
        else:
            r = r2
        if r < 0:
            label = "timer"
            page.timer.step()
        elif r < 0.02:
            label = "key Escape"
            raised = handle(page, "keydown", None, None, key="Escape")
        elif r < 0.03:
            label = "key ?"
            raised = handle(page, "keydown", None, None, key="?")
        elif r < 0.04:
            label = "reload"
            page = Page(dict(page.host.storage), page.langs, page.share)
        elif r < 0.05:
            link = link_of(page.host)
            kind = rng.choice(("share", "daily", "bad", "other-tab"))
            if kind == "share" and link:
                label, frag = "hashchange share link", link
            elif kind == "daily":
                day = rng.choice(("2026-12-01", "2026-11-30", "2026-13-01"))
                label, frag = f"hashchange daily {day}", f"#daily?d={day}"
            elif kind == "other-tab" and link:
                label = "boot with the link in a new tab"
                page = Page(dict(page.host.storage), page.langs, page.share, fragment=link)
                frames.record(game, label, page, None)
                continue
            else:
                label, frag = "hashchange bad link", "#play?p=%3Cb%3E&seed="
            raised = handle(page, "hashchange", None, frag)
        elif commands:
            pressed = set(_PRESSED.findall(html.get("turn", "")))
            stuck = not any(x[1] in ("build", "demolish") for x in commands)
            weights = [(WEIGHTS.get(x[1], 1) * (focus if x[1] in GAME_ACTIONS else 1))
                       * (1 if stuck or x[1] != "die" or x[2] not in pressed else 0.1)
                       for x in commands]
            kind, action, arg, form = rng.choices(commands, weights)[0]
            if action == "ng-start":
                form = new_game_form(rng, form or {})
            elif action == "ng-change":
                form = dict(form or {})
                form["count"] = str(rng.randrange(1, 5))
            elif action == "game-rename-save":
                form = dict(form or {})
                for key in form:
                    form[key] = rng.choice(("Evening game", "", "Spiel <b>2</b>", "x" * 40))
            label = f"{kind} {action}" + (f" {arg}" if arg is not None else "")
            if form is not None:
                label += " " + json.dumps(form, sort_keys=True, ensure_ascii=False)
            raised = handle(page, kind, action, arg, form=form)
        else:
            label = "key Escape"
            raised = handle(page, "keydown", None, None, key="Escape")
        frames.record(game, label, page, raised)


def handle(page: Page, kind, action, arg, key: str = "", form=None) -> str | None:
    try:
        page.c.handle(kind, action, arg, key=key, form=form)
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=48)
    ap.add_argument("--events", type=int, default=600, help="events per scripted game")
    ap.add_argument("--dump", help="write one line per frame: index, game, event, sha256")
    args = ap.parse_args(argv)
    started = time_now()
    dump = open(args.dump, "w", encoding="utf-8") if args.dump else None
    try:
        frames = Frames(dump)
        for game in range(args.games):
            play(game, args.events, frames)
    finally:
        if dump:
            dump.close()
    print(f"frames: {frames.n}")
    print(f"sha256: {frames.total.hexdigest()}")
    print(f"seconds: {time_now() - started:.1f}; frames showing: "
          + ", ".join(f"{k} {v}" for k, v in sorted(frames.phases.items())), file=sys.stderr)
    return 0


def time_now() -> float:
    return os.times().elapsed


if __name__ == "__main__":
    raise SystemExit(main())
