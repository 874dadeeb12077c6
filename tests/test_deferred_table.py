"""A value table the host delivers on request (the web page fetches it on first need)."""

from __future__ import annotations

import random

import pytest

from skyline import new_game
from skyline.players import solo_value as sv
from skyline.players.registry import bot_available, get_bot
from skyline.rules import Options


@pytest.fixture
def deferred(monkeypatch: pytest.MonkeyPatch):
    """The shipped table is not there yet and the host has declared it deferred."""
    table = sv.load_table()
    monkeypatch.setattr(sv, "TABLE_RESOURCE", "data/not-delivered-yet.bin")
    sv.set_table(None)
    sv.defer_table(sv.TABLE_RESOURCE)
    yield table
    sv._DEFERRED.discard("data/not-delivered-yet.bin")
    sv.set_table(table)


def test_deferred_table_counts_as_available_and_names_its_path(deferred) -> None:
    assert sv.table_available() and bot_available("expert")
    with pytest.raises(sv.MissingTable) as caught:
        sv.load_table()
    assert caught.value.path == "data/not-delivered-yet.bin"
    assert isinstance(caught.value, LookupError)
    state = new_game(Options(("Solo",), "defer", 0, False, None))
    with pytest.raises(sv.MissingTable):  # the expert asks; nothing is half done
        get_bot("expert")(state, random.Random(1))
    sv.set_table(deferred)  # delivered: the expert plays
    assert get_bot("expert")(state, random.Random(1)) is not None


def test_missing_table_that_is_not_deferred_is_unavailable(monkeypatch) -> None:
    table = sv.load_table()
    monkeypatch.setattr(sv, "TABLE_RESOURCE", "data/absent.bin")
    sv.set_table(None)
    try:
        assert not sv.table_available() and not bot_available("expert")
        with pytest.raises(FileNotFoundError):
            sv.load_table()
    finally:
        sv.set_table(table)


def test_the_page_installs_a_delivered_table_from_the_package_folder() -> None:
    """web/bots_ui.load_table_quickly reads the file the host wrote, at the package data
    path (relative to the skyline package, wherever solo_value lives)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "web"))
    from app.computer import pacer as bots_ui

    table = sv.load_table()
    sv.set_table(None)
    try:
        bots_ui.load_table_quickly()
        assert sv.table_loaded()
    finally:
        sv.set_table(table)
