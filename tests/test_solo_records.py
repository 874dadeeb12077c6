"""The solo records (``skyline.records``: best scores, levels, scenarios met, daily
bests) are kept like the games and the history: read by a total reader
(skyline/records/solo_records.py), a damaged text kept aside byte for byte with a
notice in the player's language and only what could be read written back, and records
of a newer version never written over."""

from __future__ import annotations

import json

import pytest
from app.core.store import KEY_RECORDS, KEY_RECORDS_BROKEN
from test_daily_stats import finish, notice_keys
from test_screen import assert_translated, texts
from web_fakes import FakeHost, make_page

from skyline.records.solo_records import (
    MAX_RECORDS_CHARS,
    empty_solo_records,
    read_solo_records,
    solo_records_json,
)

LANGS = ("en", "de")
GOOD = {"v": 1, "best": {"-": 84, "dubai": 61}, "levels": {"Urban Planner": 2},
        "scenarios": {"dubai": 1}, "daily": {"2026-11-30": {"best": 70, "plays": 3}},
        "seen": []}


def aside(host) -> list[str]:
    return [k for k in host.storage if k.startswith(KEY_RECORDS_BROKEN)]


def play_solo(c, seed: int) -> None:
    c.handle("click", "close", None)
    finish(c, seed)


# ---------------------------------------------------------------------------- the reader


@pytest.mark.parametrize(("raw", "code"), [
    (None, "records_size"), ("x" * (MAX_RECORDS_CHARS + 1), "records_size"),
    ("{not json", "json_syntax"), ("[" * 5000 + "]" * 5000, "json_syntax"),
    ("[]", "records_format"), ('{"best": {}}', "records_format"),
    ('{"v": true}', "records_format"), ('{"v": 2}', "records_version"),
    ('{"v": 0}', "records_version"), ('{"v": 1, "best": []}', "records_entry"),
    ('{"v": 1, "best": {"-": -3}}', "records_entry"), ('{"v": 1, "extra": 1}', "records_entry"),
    ('{"v": 1, "daily": {"2026-01-01": {"best": "x"}}}', "records_entry"),
    ('{"v": 1, "seen": [1]}', "records_entry"),
])
def test_the_reader_is_total_and_names_the_first_problem(raw, code):
    data, problem = read_solo_records(raw)
    assert problem is not None and problem.code == code and str(problem)
    assert set(data) == set(empty_solo_records())


def test_the_reader_keeps_every_readable_item():
    damaged = {**GOOD, "best": {"-": 84, "dubai": "lots"}, "daily": {**GOOD["daily"], "x": 1}}
    data, problem = read_solo_records(json.dumps(damaged))
    assert problem.params == {"field": "best"}
    assert data["best"] == {"-": 84} and data["daily"] == GOOD["daily"]
    assert data["levels"] == GOOD["levels"]
    assert read_solo_records(solo_records_json(data)) == (data, None)


def test_records_of_older_versions_read_clean():
    """The first pages wrote no daily bests and no list of counted games."""
    old = {"v": 1, "best": {"-": 50}, "levels": {}, "scenarios": {}}
    data, problem = read_solo_records(json.dumps(old))
    assert problem is None and data["best"] == {"-": 50} and data["daily"] == {}
    assert read_solo_records(json.dumps(GOOD)) == (GOOD, None)


# ---------------------------------------------------------------------------- the page


@pytest.mark.parametrize("lang", LANGS)
def test_damaged_records_are_kept_aside_and_what_was_readable_stays(lang):
    raw = json.dumps({**GOOD, "levels": {"Urban Planner": "two"}})
    c, host, _ = make_page(host=FakeHost({KEY_RECORDS: raw}), langs=(lang,))
    keys = aside(host)
    assert len(keys) == 1 and host.storage[keys[0]] == raw  # byte for byte
    s = c.renderer.screen()
    assert_translated(s, lang)
    note = next(n for n in s.notices if n.key == "notice.records_broken")
    t = texts(lang).t
    assert t("error.records.records_entry", field="levels") in note.text and keys[0] in note.text
    stored = json.loads(host.storage[KEY_RECORDS])
    assert stored["best"] == GOOD["best"] and stored["daily"] == GOOD["daily"]
    play_solo(c, 3)  # a new game counts on top of what was kept
    stored = json.loads(host.storage[KEY_RECORDS])
    assert stored["daily"] == GOOD["daily"] and stored["best"]["dubai"] == 61
    assert stored["best"]["-"] >= 84


@pytest.mark.parametrize("raw", ["{broken", "[1, 2]", '{"v": 1, "best": 5}'])
def test_unreadable_records_are_never_lost_silently(raw):
    c, host, _ = make_page(host=FakeHost({KEY_RECORDS: raw}))
    assert "notice.records_broken" in notice_keys(c)
    assert [host.storage[k] for k in aside(host)] == [raw]


@pytest.mark.parametrize("lang", LANGS)
def test_records_of_a_newer_version_are_never_written_over(lang):
    raw = json.dumps({"v": 2, "best": {"-": 99}, "trophies": ["gold"]})
    c, host, _ = make_page(host=FakeHost({KEY_RECORDS: raw}), langs=(lang,))
    assert [host.storage[k] for k in aside(host)] == [raw]
    s = c.renderer.screen()
    assert_translated(s, lang)
    note = next(n for n in s.notices if n.key == "notice.records_newer")
    assert texts(lang).t("error.records.records_version", version="2") in note.text
    play_solo(c, 4)
    assert host.storage[KEY_RECORDS] == raw  # the newer page's records stay as they are
    assert c.session.records.best  # this session still counts its game, in memory


def test_records_that_cannot_be_kept_aside_are_never_written_over():
    class Full(Exception):
        pass

    raw = "{broken"
    host = FakeHost({KEY_RECORDS: raw})
    host.fail_set = Full
    c, host, _ = make_page(host=host)
    assert c.session.records.held and "notice.records_broken_lost" in notice_keys(c)
    host.fail_set = None
    play_solo(c, 5)
    assert host.storage[KEY_RECORDS] == raw


def test_clean_records_give_no_notice_and_grow():
    c, host, _ = make_page(host=FakeHost({KEY_RECORDS: json.dumps(GOOD)}))
    assert not aside(host) and not [k for k in notice_keys(c) if k.startswith("notice.rec")]
    play_solo(c, 6)
    stored = json.loads(host.storage[KEY_RECORDS])
    assert stored["best"]["-"] >= 84 and len(stored["seen"]) == 1
