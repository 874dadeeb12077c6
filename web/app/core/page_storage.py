"""localStorage as the worker sees it (``main.DomHost``): a call that needs its answer
is a synchronous round trip to the page, so the writes that need none (a move's save,
whose trouble comes back later as an event; the dice selected) are queued and go to
the page with the render's batch of DOM commands (web/js/render.js ``save``, ``store``).

Order is kept: a call that waits for its answer first makes the queued writes itself,
in order, so a later write or read never overtakes an earlier one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol

from app.core.bridge import SaveCommand, StoreCommand

Trouble = Callable[[str], None]


class PageCalls(Protocol):
    """The page's storage functions (web/js/storage.js), each one round trip."""

    def get(self, key: str) -> Any: ...
    def set(self, key: str, value: str) -> None: ...
    def write_if(self, key: str, expected: str | None, value: str, also: str) -> Any: ...
    def remove(self, key: str) -> None: ...
    def keys(self) -> Any: ...


class PageStorage:
    """The storage half of the host port, for a page reached by round trips.

    >>> class Page:
    ...     def __init__(self): self.data, self.trips = {}, 0
    ...     def get(self, key): self.trips += 1; return self.data.get(key)
    ...     def set(self, key, value): self.trips += 1; self.data[key] = value
    ...     def write_if(self, key, expected, value, also):
    ...         self.trips += 1; self.data[key] = value; return "written"
    ...     def remove(self, key): self.trips += 1; self.data.pop(key, None)
    ...     def keys(self): self.trips += 1; return json.dumps(list(self.data))
    >>> page = Page(); storage = PageStorage(page, lambda: None)
    >>> storage.storage_write_soon("g", None, "v1", (), print); page.trips
    0
    >>> storage.storage_remove("g"); page.data, page.trips  # the save went first
    ({}, 2)
    >>> storage.storage_later("sel", "1"); storage.take_writes()
    [('store', 'sel', '1')]
    """

    def __init__(self, page: PageCalls, queued: Callable[[], None]) -> None:
        self.calls = page
        self.queued = queued  # a write is waiting: send a batch soon
        self.writes: list[StoreCommand | SaveCommand] = []
        self._saves = 0
        self._trouble: dict[int, Trouble] = {}  # save number -> told if not written

    def take_writes(self) -> list[StoreCommand | SaveCommand]:
        """The queued writes as DOM commands, for the batch being sent."""
        writes, self.writes = self.writes, []
        return writes

    def _in_order(self) -> None:
        """Before a call that waits for its answer: the queued writes, made now."""
        for command in self.take_writes():
            if command[0] == "store":
                _, key, text = command
                try:
                    if text is None:
                        self.calls.remove(key)
                    else:
                        self.calls.set(key, text)
                except Exception:
                    pass  # what may be lost without harm (as web/js/render.js does)
                continue
            _, save_id, key, expected, value, also = command
            try:
                outcome = str(self.calls.write_if(key, expected, value, also))
            except Exception:
                outcome = "failed"
            if outcome != "written":
                self.saved(save_id, outcome)

    # the host port (app.core.host_port.Host)
    def storage_get(self, key: str) -> str | None:
        self._in_order()
        value = self.calls.get(key)
        return value if isinstance(value, str) else None

    def storage_set(self, key: str, value: str) -> None:
        self._in_order()
        self.calls.set(key, value)

    def storage_write_if(self, key: str, expected: str | None, value: str,
                         also: tuple[tuple[str, str], ...] = ()) -> str:
        """Compare and write, then the ``also`` pairs: one round trip for all of it."""
        self._in_order()
        return str(self.calls.write_if(key, expected, value, json.dumps(list(also))))

    def storage_remove(self, key: str) -> None:
        self._in_order()
        self.calls.remove(key)

    def storage_keys(self) -> list[str]:
        self._in_order()
        return [str(k) for k in json.loads(str(self.calls.keys()))]

    def storage_later(self, key: str, value: str | None) -> None:
        self.writes.append(("store", key, value))
        self.queued()

    def storage_write_soon(self, key: str, expected: str | None, value: str,
                           also: tuple[tuple[str, str], ...], trouble: Trouble) -> None:
        self._saves += 1
        self._trouble[self._saves] = trouble
        self._trouble.pop(self._saves - 64, None)  # answered at once, if at all
        self.writes.append(("save", self._saves, key, expected, value, json.dumps(list(also))))
        self.queued()

    def saved(self, save_id: int, outcome: str) -> None:
        """The page's answer to a save that was not written."""
        trouble = self._trouble.pop(save_id, None)
        if trouble is not None:
            trouble(outcome)
