"""The host port: everything the page's Python needs from the browser, as a typed
``Protocol``. ``main.DomHost`` implements it in the browser (through ``web/js/``),
``tests/web_fakes.FakeHost`` in memory for CPython.

The browser answers some calls later (a copy, a share, the QR library, a data file, the
storage's persistence, the game lock, a save the page could not write): the session
holds the host as ``GuardedHost``, which runs each answer through the controller's crash
path, as a click is run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

Done = Callable[[bool], None]


class Host(Protocol):
    # regions, focus and the live region
    def set_html(self, name: str, html: str) -> None: ...
    def focus(self, element_id: str | None) -> None: ...
    def announce(self, seq: int, text: str) -> None: ...
    def scroll_to(self, element_id: str) -> None: ...
    def reveal(self, element_id: str) -> None: ...
    def set_lang(self, lang: str) -> None: ...
    # what the latest actions did (app.core.cues), as JSON, before the regions change
    def cue(self, cues_json: str) -> None: ...

    # storage (localStorage): each may raise when storage is full or blocked
    def storage_get(self, key: str) -> str | None: ...
    def storage_set(self, key: str, value: str) -> None: ...
    # compare and write, then the ``also`` pairs: "written", "conflict" (nothing
    # written) or "partial" (``key`` written, an ``also`` pair refused)
    def storage_write_if(self, key: str, expected: str | None, value: str,
                         also: tuple[tuple[str, str], ...] = ()) -> str: ...
    def storage_remove(self, key: str) -> None: ...
    def storage_keys(self) -> list[str]: ...
    # with the render's batch, no round trip and nothing said if it fails: for what may
    # be lost without harm (the dice selected); ``value`` None removes the key
    def storage_later(self, key: str, value: str | None) -> None: ...
    # ``storage_write_if`` with the render's batch (no round trip): ``trouble`` is
    # called later with the outcome if it is not "written" ("conflict", "partial", or
    # "failed": the store refused ``key``)
    def storage_write_soon(self, key: str, expected: str | None, value: str,
                           also: tuple[tuple[str, str], ...],
                           trouble: Callable[[str], None]) -> None: ...
    # the page's answer to a save of ``storage_write_soon`` it could not write (a
    # "saved" page event): its ``trouble`` is told ``outcome``
    def saved(self, save_id: int, outcome: str) -> None: ...

    # the clock and the player's calendar
    def now_iso(self) -> str: ...
    def local_date(self) -> str: ...
    def tz_minutes(self) -> int: ...

    # the page's address and its fragment
    def page_base(self) -> str: ...
    def clear_fragment(self) -> None: ...

    # the game lock (Web Locks): on_result gets "granted", "busy" or "lost"
    def take_lock(self, on_result: Callable[[str], None]) -> None: ...

    # sharing, files and data
    def copy(self, text: str, done: Done) -> None: ...
    def can_share(self) -> bool: ...
    def share(self, text: str, title: str, done: Done) -> None: ...
    def load_qr(self, done: Done) -> None: ...
    def download(self, filename: str, text: str) -> None: ...
    def download_url(self, text: str) -> str: ...
    def fetch_data(self, path: str, done: Done) -> None: ...
    # ask the browser to keep this site's storage: done("granted" | "denied" | "unsupported")
    def persist_storage(self, done: Callable[[str], None]) -> None: ...

    # live tables (web/js/live-page.js): join the table of a room secret, send a message
    # to one peer (``to``) or to every connected one (``to`` ""), leave; what arrives
    # comes back as "live" page events
    def live_join(self, secret: str) -> None: ...
    def live_send(self, to: str, text: str) -> None: ...
    def live_leave(self) -> None: ...

    # faults: report a bug; the e2e tests' fault hook
    def report(self, text: str) -> None: ...
    def fault(self, where: str) -> bool: ...


Guard = Callable[[Callable[[], object]], None]
#: What the browser answers a call with (whether it worked, or what happened).
Answer = TypeVar("Answer")


class GuardedHost:
    """``host`` with every late answer run through ``guard`` (the controller's crash
    path): a bug in a feature's callback costs no saved game, as in a click."""

    def __init__(self, host: Host, guard: Guard) -> None:
        self.host = host
        self.guard = guard

    def _guarded(self, callback: Callable[[Answer], None]) -> Callable[[Answer], None]:
        """``callback``, run through the crash path when the browser answers."""
        return lambda answer: self.guard(lambda: callback(answer))

    # the calls answered later
    def storage_write_soon(self, key: str, expected: str | None, value: str,
                           also: tuple[tuple[str, str], ...],
                           trouble: Callable[[str], None]) -> None:
        self.host.storage_write_soon(key, expected, value, also, self._guarded(trouble))

    def take_lock(self, on_result: Callable[[str], None]) -> None:
        self.host.take_lock(self._guarded(on_result))

    def copy(self, text: str, done: Done) -> None:
        self.host.copy(text, self._guarded(done))

    def share(self, text: str, title: str, done: Done) -> None:
        self.host.share(text, title, self._guarded(done))

    def load_qr(self, done: Done) -> None:
        self.host.load_qr(self._guarded(done))

    def fetch_data(self, path: str, done: Done) -> None:
        self.host.fetch_data(path, self._guarded(done))

    def persist_storage(self, done: Callable[[str], None]) -> None:
        self.host.persist_storage(self._guarded(done))

    # the rest, as the host has them
    def set_html(self, name: str, html: str) -> None:
        self.host.set_html(name, html)

    def focus(self, element_id: str | None) -> None:
        self.host.focus(element_id)

    def announce(self, seq: int, text: str) -> None:
        self.host.announce(seq, text)

    def scroll_to(self, element_id: str) -> None:
        self.host.scroll_to(element_id)

    def reveal(self, element_id: str) -> None:
        self.host.reveal(element_id)

    def set_lang(self, lang: str) -> None:
        self.host.set_lang(lang)

    def cue(self, cues_json: str) -> None:
        self.host.cue(cues_json)

    def storage_get(self, key: str) -> str | None:
        return self.host.storage_get(key)

    def storage_set(self, key: str, value: str) -> None:
        self.host.storage_set(key, value)

    def storage_write_if(self, key: str, expected: str | None, value: str,
                         also: tuple[tuple[str, str], ...] = ()) -> str:
        return self.host.storage_write_if(key, expected, value, also)

    def storage_remove(self, key: str) -> None:
        self.host.storage_remove(key)

    def storage_keys(self) -> list[str]:
        return self.host.storage_keys()

    def storage_later(self, key: str, value: str | None) -> None:
        self.host.storage_later(key, value)

    def saved(self, save_id: int, outcome: str) -> None:
        self.host.saved(save_id, outcome)

    def now_iso(self) -> str:
        return self.host.now_iso()

    def local_date(self) -> str:
        return self.host.local_date()

    def tz_minutes(self) -> int:
        return self.host.tz_minutes()

    def page_base(self) -> str:
        return self.host.page_base()

    def clear_fragment(self) -> None:
        self.host.clear_fragment()

    def can_share(self) -> bool:
        return self.host.can_share()

    def download(self, filename: str, text: str) -> None:
        self.host.download(filename, text)

    def download_url(self, text: str) -> str:
        return self.host.download_url(text)

    def live_join(self, secret: str) -> None:
        self.host.live_join(secret)

    def live_send(self, to: str, text: str) -> None:
        self.host.live_send(to, text)

    def live_leave(self) -> None:
        self.host.live_leave()

    def report(self, text: str) -> None:
        self.host.report(text)

    def fault(self, where: str) -> bool:
        return self.host.fault(where)
