"""The worker's storage (web/app/core/page_storage.py): writes that go with the render
keep their order against calls that wait for an answer."""

from __future__ import annotations

import doctest
import json

from app.core import page_storage
from app.core.page_storage import PageStorage


class Page:
    """web/js/storage.js in memory; ``full``: keys whose writes the store refuses."""

    def __init__(self) -> None:
        self.data: dict[str, str] = {}
        self.full: set[str] = set()

    def get(self, key):
        return self.data.get(key)

    def set(self, key, value):
        if key in self.full:
            raise OSError("QuotaExceededError")
        self.data[key] = value

    def write_if(self, key, expected, value, also):
        stored = self.data.get(key)
        if stored is not None and stored != expected:
            return "conflict"
        self.set(key, value)
        for other, text in json.loads(also):
            self.set(other, text)
        return "written"

    def remove(self, key):
        self.data.pop(key, None)

    def keys(self):
        return json.dumps(list(self.data))


def test_its_examples() -> None:
    assert doctest.testmod(page_storage).failed == 0


def test_queued_writes_go_first_and_in_order_before_a_call_that_waits() -> None:
    page, heard, sends = Page(), [], []
    storage = PageStorage(page, lambda: sends.append(1))
    storage.storage_write_soon("game", None, "v1", (("index", "i1"),), heard.append)
    storage.storage_later("selection", "[1]")
    assert page.data == {} and len(sends) == 2  # a batch is asked for, nothing written yet
    storage.storage_remove("game")  # e.g. the game deleted in the same command
    assert page.data == {"index": "i1", "selection": "[1]"}
    assert storage.take_writes() == [] and heard == []


def test_trouble_of_a_save_made_in_order_is_heard_at_once() -> None:
    page, heard = Page(), []
    page.data["game"] = "another tab's"
    storage = PageStorage(page, lambda: None)
    storage.storage_write_soon("game", None, "mine", (), heard.append)
    page.full.add("other")
    storage.storage_write_soon("other", None, "x", (), heard.append)
    assert storage.storage_get("game") == "another tab's"
    assert heard == ["conflict", "failed"]


def test_an_answer_from_the_page_reaches_its_save_once() -> None:
    heard: list[str] = []
    storage = PageStorage(Page(), lambda: None)
    storage.storage_write_soon("game", None, "v1", (), heard.append)
    (command, save_id, *_rest), = storage.take_writes()
    assert command == "save"
    storage.saved(save_id, "conflict")
    storage.saved(save_id, "conflict")  # an answer twice, or for a save long gone
    assert heard == ["conflict"]
