"""A fake browser host for the page's Python (web/), so it runs under CPython.

``FakeHost`` implements the host port of ``web/main.DomHost``: regions, storage (with
switchable faults), the clock and the local date (``today``), the lock and the clipboard.
Its late answers (a copy, a share, the QR library, a data file, the storage's persistence,
the lock, a save not written) come at once, or, with ``answers`` a list, wait there until
``answer_all()`` (as the browser's come after the event).
``FakeTimer`` replaces ``setTimeout`` for the computer players (``run()`` fires what is
due, in order).
``make_page()`` boots a controller with the real string tables and the computer seats.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path

WEB = Path(__file__).resolve().parent.parent / "web"
if str(WEB) not in sys.path:
    sys.path.append(str(WEB))


@functools.cache
def _tables() -> dict[str, dict[str, str]]:
    return {lang: json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
            for lang in ("en", "de")}


def tables() -> dict[str, dict[str, str]]:
    """The string tables (read once; each caller gets its own copies to change)."""
    return {lang: dict(table) for lang, table in _tables().items()}


class QuotaExceededError(Exception):
    """The error a full localStorage raises, as its name reaches Python (a JsException's
    text starts with the DOMException's name)."""


class FakeHost:
    """What the Controller needs from the browser, in memory."""

    def __init__(self, storage: dict[str, str] | None = None) -> None:
        self.html: dict[str, str] = {}
        self.storage: dict[str, str] = {} if storage is None else storage
        self.fail_set: type[Exception] | None = None  # e.g. a QuotaExceededError stand-in
        self.fail_get: type[Exception] | None = None  # e.g. a SecurityError stand-in
        self.refuse: set[str] = set()  # keys whose writes fail as when the store is full
        self.focused: list[str] = []
        self.crossings = 0  # storage calls, each a round trip from the worker in the page
        self.announced: list[str] = []  # the live region's texts, oldest first
        self.announce_seq = 0
        self.copied: list[str] = []
        self.copy_ok = True
        self.lang = "en"
        self.fragment_cleared = False
        self.reports: list[str] = []
        self.faults: set[str] = set()
        self.lock_answer = "granted"
        self.clock = 0
        self.today = "2026-12-01"  # local_date(); a test may change it
        self.downloads: list[str] = []  # texts offered as downloads (download_url)
        self.files: list[tuple[str, str]] = []  # (file name, text) saved by download()
        self.shared: list[str] = []
        self.share_ok: bool | None = None  # None: no share sheet (navigator.share missing)
        self.qr_ok = True
        self.tz = 0
        self.fetched: list[str] = []  # data files asked for (fetch_data)
        self.persist_answer: str | None = "granted"  # None: the browser never answers
        self.persist_asked = 0
        self.cues: list[dict] = []  # the cue batches sent, oldest first
        self.answers: list[Callable[[], None]] | None = None  # None: answered at once
        self.saves = 0  # storage_write_soon calls, numbered as the page numbers them
        self.unsaved: list[tuple[int, str]] = []  # (save id, outcome) to answer later
        self._trouble: dict[int, Callable[[str], None]] = {}
        self.live_secret: str | None = None  # the live table joined (live_join)
        self.live_sent: list[tuple[str, str]] = []  # (to, text) sent to the live table

    def _answer(self, answer: Callable[[], None]) -> None:
        if self.answers is None:
            answer()
        else:
            self.answers.append(answer)

    def answer_all(self) -> None:
        """The late answers waiting, in order (as the browser gives them)."""
        answers, self.answers = self.answers or [], []
        for answer in answers:
            answer()

    def set_html(self, name: str, html: str) -> None:
        self.html[name] = html

    def cue(self, cues_json: str) -> None:
        self.cues.append(json.loads(cues_json))

    def focus(self, element_id: str | None) -> None:
        if element_id:
            self.focused.append(element_id)

    def announce(self, seq: int, text: str) -> None:
        """The live region: a new text only for a new ``seq`` (like main.DomHost)."""
        if seq != self.announce_seq:
            self.announce_seq = seq
            self.announced.append(text)

    # Each storage_* call is one crossing from the worker to the page (``crossings``).
    def storage_get(self, key: str) -> str | None:
        self.crossings += 1
        return self._get(key)

    def storage_set(self, key: str, value: str) -> None:
        self.crossings += 1
        self._set(key, value)

    def _get(self, key: str) -> str | None:
        if self.fail_get:
            raise self.fail_get("blocked")
        return self.storage.get(key)

    def _set(self, key: str, value: str) -> None:
        if self.fail_get:
            raise self.fail_get("blocked")
        if self.fail_set or key in self.refuse:
            raise (self.fail_set or OSError)("full")
        self.storage[key] = value

    def storage_write_if(self, key: str, expected: str | None, value: str,
                         also: tuple[tuple[str, str], ...] = ()) -> str:
        """Compare and write in one call, then the ``also`` pairs, as main.DomHost
        does (web/js/storage.js)."""
        self.crossings += 1
        stored = self._get(key)
        if stored is not None and stored != expected:
            return "conflict"
        self._set(key, value)
        try:
            for other, text in also:
                self._set(other, text)
        except Exception:
            return "partial"
        return "written"

    def storage_write_soon(self, key: str, expected: str | None, value: str,
                           also: tuple[tuple[str, str], ...],
                           trouble: Callable[[str], None]) -> None:
        """With the render's batch (web/js/render.js): no crossing; an outcome other
        than "written" is told to ``trouble`` (the page sends it back as an event)."""
        self.crossings -= 1  # storage_write_if counts one; this one is not a crossing
        self.saves += 1
        try:
            outcome = self.storage_write_if(key, expected, value, also)
        except QuotaExceededError:
            outcome = "full"  # web/js/storage.js, refusedOutcome
        except Exception:
            outcome = "failed"
        if outcome == "written":
            return
        if self.answers is None:
            trouble(outcome)
        else:  # the page's "saved" event tells it (``saved``)
            self._trouble[self.saves] = trouble
            self.unsaved.append((self.saves, outcome))

    def saved(self, save_id: int, outcome: str) -> None:
        """The page's answer to a save it could not write (a "saved" page event)."""
        trouble = self._trouble.pop(save_id, None)
        if trouble is not None:
            trouble(outcome)

    def storage_later(self, key: str, value: str | None) -> None:
        """With the render's batch (web/js/render.js): no crossing; a failure is
        ignored there."""
        try:
            if value is None:
                self.storage.pop(key, None)
            else:
                self._set(key, value)
        except Exception:
            pass

    def storage_keys(self) -> list[str]:
        self.crossings += 1
        if self.fail_get:
            raise self.fail_get("blocked")
        return list(self.storage)

    def tz_minutes(self) -> int:
        return self.tz

    def download(self, filename: str, text: str) -> None:
        self.files.append((filename, text))

    def can_share(self) -> bool:
        return self.share_ok is not None

    def share(self, text: str, title: str, done: Callable[[bool], None]) -> None:
        self.shared.append(text)
        self._answer(lambda: done(bool(self.share_ok)))

    def fetch_data(self, path: str, done: Callable[[bool], None]) -> None:
        """The engine's data files are in the package here (the page fetches them)."""
        self.fetched.append(path)
        self._answer(lambda: done(True))

    def load_qr(self, done: Callable[[bool], None]) -> None:
        """segno is installed for the tests (the page loads its wheel on demand)."""
        self._answer(lambda: done(self.qr_ok))

    def storage_remove(self, key: str) -> None:
        self.crossings += 1
        if self.fail_get:
            raise self.fail_get("blocked")
        self.storage.pop(key, None)

    def now_iso(self) -> str:
        self.clock += 1
        return f"2026-01-01T00:00:{self.clock:02d}.000Z"

    def local_date(self) -> str:
        return self.today

    def page_base(self) -> str:
        return "http://127.0.0.1:8000/"

    def clear_fragment(self) -> None:
        self.fragment_cleared = True

    def set_lang(self, lang: str) -> None:
        self.lang = lang

    def scroll_to(self, element_id: str) -> None:
        self.focused.append("scroll:" + element_id)

    def reveal(self, element_id: str) -> None:
        self.focused.append("reveal:" + element_id)

    def take_lock(self, on_result: Callable[[str], None]) -> None:
        answer = self.lock_answer
        self._answer(lambda: on_result(answer))

    def download_url(self, text: str) -> str:
        self.downloads.append(text)
        return "blob:fake/" + str(len(text))

    def live_join(self, secret: str) -> None:
        self.live_secret = secret

    def live_send(self, to: str, text: str) -> None:
        self.live_sent.append((to, text))

    def live_leave(self) -> None:
        self.live_secret = None

    def report(self, text: str) -> None:
        self.reports.append(text)

    def fault(self, where: str) -> bool:
        if where in self.faults:
            self.faults.discard(where)
            return True
        return False

    def persist_storage(self, done: Callable[[str], None]) -> None:
        self.persist_asked += 1
        answer = self.persist_answer
        if answer is not None:
            self._answer(lambda: done(answer))

    def copy(self, text: str, done: Callable[[bool], None]) -> None:
        self.copied.append(text)
        ok = self.copy_ok
        self._answer(lambda: done(ok))


class FakeTimer:
    """``schedule(ms, fn)`` collected; ``run()`` fires them in due order."""

    def __init__(self) -> None:
        self.now = 0
        self.queue: list[tuple[int, int, Callable[[], None]]] = []
        self.count = 0

    def __call__(self, ms: int, fn: Callable[[], None]) -> None:
        self.count += 1
        self.queue.append((self.now + ms, self.count, fn))

    def step(self) -> bool:
        if not self.queue:
            return False
        self.queue.sort(key=lambda e: (e[0], e[1]))
        due, _, fn = self.queue.pop(0)
        self.now = max(self.now, due)
        fn()
        return True

    def run(self, limit: int = 10_000, until: Callable[[], bool] | None = None) -> int:
        """Fire callbacks until none is left (or ``until()``); returns how many fired."""
        fired = 0
        while fired < limit and (until is None or not until()):
            if not self.step():
                break
            fired += 1
        return fired


def make_page(storage: dict[str, str] | None = None, fragment: str = "",
              langs: tuple[str, ...] = ("en",), host: FakeHost | None = None,
              bots: bool = True):
    """A booted controller on a fake host; returns (controller, host, timer)."""
    from app.controller import Controller

    host = host or FakeHost(storage)
    timer = FakeTimer()
    c = Controller(host, tables(), langs)
    c.boot(fragment)
    if bots:
        from app.computer import pacer as bots_ui

        bots_ui.install(c, timer)
    return c, host, timer


def start_game(c, names: tuple[str, ...], seats: tuple[str, ...], seed: str) -> None:
    """Start a game through the new-game dialog: ``seats`` as the dialog offers them
    (human, beginner, greedy, expert, friend)."""
    c.handle("click", "newgame", None)
    form = {"count": str(len(names)), "seed": seed, "start": "0"}
    for i, (name, seat) in enumerate(zip(names, seats, strict=True)):
        form[f"name{i}"] = name
        form[f"seat{i}"] = seat
    c.handle("submit", "ng-start", None, form=form)
    assert c.page.dialog is None, c.page.dialog
