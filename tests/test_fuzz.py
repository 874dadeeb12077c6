"""Fuzzing the readers of share links, records and saves ("nothing lost, nothing broken").

Over 10,000 inputs per run (times ``SKYLINE_PROPERTY_SCALE``): generated valid
links, records and saves of random games in every save version, then mutated
(truncated, reordered, duplicated, wrong types, huge numbers, unknown options,
illegal actions, 1 MB strings, unicode, deep nesting, wrong versions, hand-edited
snapshots), plus raw Hypothesis text. Each input must either load a complete game
that equals the replay of its own record and round-trips, or raise the reader's
one documented error (LinkError / RecordError / SaveError) with a code and a
message; never another exception (how long a reader takes is a figure of
scripts/reliability_report.py, not a test's assertion); and an input
that is valid by construction must give back exactly its game (nothing lost).
Solo records are fuzzed the same way. The edges: the longest legal games through
every reader, and every reader's limit (exactly at it a valid input loads, one
character or byte over it is refused with the limit's own code).
The generators live in ``fuzz_cases.py``, shared with scripts/reliability_report.py.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from fuzz_cases import (
    LIMITS,
    LONGEST_KINDS,
    NASTY,
    Case,
    entry_case,
    game_link_case,
    junk_text,
    limit_case,
    link_case,
    longest_case,
    pool_board,
    record_case,
    run_case,
    save_case,
    solo_records_case,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skyline import (
    Board,
    LinkError,
    Options,
    Phase,
    RecordError,
    SaveError,
    load_save,
    make_save,
    make_share_fragment,
    migrate_save,
    parse_share_fragment,
    read_save,
    validate_options,
)
from skyline.records import SAVE_VERSION, SAVE_VERSIONS
from skyline.records.game_list import read_index

SCALE = max(1, int(os.environ.get("SKYLINE_PROPERTY_SCALE", "1")))
FIXTURES = Path(__file__).parent / "fixtures" / "saves"
SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]

junk = st.one_of(
    st.sampled_from(NASTY),
    st.text(alphabet=st.characters(exclude_categories=()), max_size=30),
    st.integers().map(str),
)
seeds = st.integers(0, 2**64 - 1)


def assert_ok(case: Case) -> None:
    outcome = run_case(case)
    assert outcome.status in ("loaded", "rejected"), (outcome, case.how, repr(case.value)[:300])


# --------------------------------------------------------------------------- fuzzing


# Each Hypothesis example runs a small batch of cases (the first with Hypothesis's
# junk, the rest with the generator's own), which keeps Hypothesis's per-example
# overhead from dominating: 10,500 reader calls per run in all.
LINK_BATCH, LINK_EXAMPLES = 5, 1000
RECORD_BATCH, RECORD_EXAMPLES = 2, 1250
SAVE_BATCH, SAVE_EXAMPLES = 2, 750
GAME_LINK_BATCH, GAME_LINK_EXAMPLES = 2, 600
ENTRY_BATCH, ENTRY_EXAMPLES = 2, 500
SOLO_RECORDS_BATCH, SOLO_RECORDS_EXAMPLES = 2, 250
RAW_KINDS = ("link", "record", "save", "game_link", "entry", "solo_records")
RAW_EXAMPLES = 500  # x 6 readers
FUZZ_CASES = (LINK_BATCH * LINK_EXAMPLES + RECORD_BATCH * RECORD_EXAMPLES
              + SAVE_BATCH * SAVE_EXAMPLES + GAME_LINK_BATCH * GAME_LINK_EXAMPLES
              + ENTRY_BATCH * ENTRY_EXAMPLES + SOLO_RECORDS_BATCH * SOLO_RECORDS_EXAMPLES
              + len(RAW_KINDS) * RAW_EXAMPLES)


def run_batch(generator, seed: int, junk_piece: str, size: int) -> None:
    rng = random.Random(seed)
    for k in range(size):
        assert_ok(generator(rng, junk_piece if k == 0 else junk_text(rng)))


def test_enough_cases_per_run():
    assert FUZZ_CASES >= 10_000


@settings(max_examples=LINK_EXAMPLES * SCALE, deadline=None, suppress_health_check=SLOW_OK)
@given(seeds, junk)
def test_fuzzed_links(seed, junk_piece):
    run_batch(link_case, seed, junk_piece, LINK_BATCH)


@settings(max_examples=RECORD_EXAMPLES * SCALE, deadline=None, suppress_health_check=SLOW_OK)
@given(seeds, junk)
def test_fuzzed_records(seed, junk_piece):
    run_batch(record_case, seed, junk_piece, RECORD_BATCH)


@settings(max_examples=SAVE_EXAMPLES * SCALE, deadline=None, suppress_health_check=SLOW_OK)
@given(seeds, junk)
def test_fuzzed_saves(seed, junk_piece):
    run_batch(save_case, seed, junk_piece, SAVE_BATCH)


@settings(max_examples=SOLO_RECORDS_EXAMPLES * SCALE, deadline=None,
          suppress_health_check=SLOW_OK)
@given(seeds, junk)
def test_fuzzed_solo_records(seed, junk_piece):
    run_batch(solo_records_case, seed, junk_piece, SOLO_RECORDS_BATCH)


@pytest.mark.parametrize("over", [False, True], ids=["at", "over"])
@pytest.mark.parametrize("which", LIMITS)
def test_each_limit_loads_what_is_at_it_and_refuses_what_is_over_it(which, over):
    """Exactly at a reader's limit a valid input loads (its game given back); one
    character or byte over it, it is refused with the limit's own code."""
    for seed in range(3):
        case = limit_case(random.Random(seed), "", which, over)
        outcome = run_case(case)
        assert outcome.status == ("rejected" if over else "loaded"), outcome
        assert outcome.code == case.code


@pytest.mark.parametrize("players", [1, 4])
@pytest.mark.parametrize("kind", LONGEST_KINDS)
def test_the_longest_games_load_through_every_reader(kind, players):
    case = longest_case(random.Random(players), "", kind, players, heavy=True)
    assert run_case(case).status == "loaded"


@settings(max_examples=GAME_LINK_EXAMPLES * SCALE, deadline=None,
          suppress_health_check=SLOW_OK)
@given(seeds, junk)
def test_fuzzed_game_links(seed, junk_piece):
    run_batch(game_link_case, seed, junk_piece, GAME_LINK_BATCH)


@settings(max_examples=ENTRY_EXAMPLES * SCALE, deadline=None, suppress_health_check=SLOW_OK)
@given(seeds, junk)
def test_fuzzed_list_entries(seed, junk_piece):
    run_batch(entry_case, seed, junk_piece, ENTRY_BATCH)


PREFIXES = ("", "#play?", "#game?1.", "game?1.AAAAAA", '{"v":1,"kind":"skyline-entry",',
            "play?p=Ann&seed=", "skyline1 players=A seed=x start=0 nine=0 "
            "scenario=- | tGGG r0.1.2 ", '{"v":2,"kind":"skyline-save","game":', '{"v":')


@settings(max_examples=RAW_EXAMPLES * SCALE, deadline=None, suppress_health_check=SLOW_OK)
@given(st.one_of(
    st.tuples(st.sampled_from(PREFIXES),
              st.text(alphabet=st.characters(exclude_categories=()), max_size=200))
    .map("".join),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
        lambda inner: st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["v", "game", "kind", "format", "record", "state",
                                           "seats", "nonce", "id", "save"]),
                          inner, max_size=5),
        max_leaves=20,
    ).map(json.dumps),
))
def test_raw_text_to_every_reader(text):
    for kind in RAW_KINDS:
        assert_ok(Case(kind, "raw", text))
    try:  # the game list's index: read or refused with its documented error
        read_index(text)
    except SaveError as exc:
        assert exc.code != "internal" and str(exc)


# --------------------------------------------------------------------------- share links


def test_link_format_and_round_trip():
    options = Options(("Ann", "Bo, Jr.", "李"), "Xy12ab", 2, True)
    fragment = make_share_fragment(options)
    assert fragment == "play?p=Ann,Bo%2C%20Jr.,%E6%9D%8E&seed=Xy12ab&start=2&nine=1"
    for text in (fragment, "#" + fragment, "https://skyline.example/#" + fragment + "\n"):
        assert parse_share_fragment(text) == (options, None)
    solo = parse_share_fragment("#play?beat=83&sc=dubai&seed=s&p=Ann")  # any order
    assert solo == (Options(("Ann",), "s", 0, False, "dubai"), 83)
    assert make_share_fragment(*solo) == "play?p=Ann&seed=s&start=0&nine=0&sc=dubai&beat=83"


def test_random_start_is_the_same_for_everyone():
    a = parse_share_fragment("play?p=A,B,C&seed=abc&start=r")
    b = parse_share_fragment("play?p=A,B,C&seed=abc")
    assert a == b and a.options.start_seat == validate_options(
        Options(("A", "B", "C"), "abc", None)).start_seat
    assert "start=" + str(a.options.start_seat) in make_share_fragment(a.options)


@pytest.mark.parametrize(
    ("text", "code", "reason"),
    [
        (None, "link", "not_text"),
        (b"play?p=A&seed=x", "link", "not_text"),
        ("play?p=A&seed=x&" + "a" * 2000, "link", "too_long"),
        ("game?p=A&seed=x", "link", "not_play"),
        ("play?p=A&seed=x&zoom=2", "link", "unknown_key"),
        ("play?p=A&seed=x&seed=y", "link", "repeated_key"),
        ("play?p=A&seed", "link", "bad_part"),
        ("play?seed=x", "names", "missing"),
        ("play?p=A", "seed", "missing"),
        ("play?p=%FF&seed=x", "names", "encoding"),
        ("play?p=A,B,C,D,E&seed=x", "names", "count"),
        ("play?p=A,&seed=x", "names", "length"),
        ("play?p=%ED%A0%80&seed=x", "names", "encoding"),
        ("play?p=A%00B&seed=x", "names", "control"),
        ("play?p=Bob%E2%80%AEgnp.exe&seed=x", "names", "bidi"),
        ("play?p=A,%E2%80%8B%20%E2%80%8B&seed=x", "names", "invisible"),
        ("play?p=A&seed=a%20b", "seed", "invalid"),
        ("play?p=A&seed=x&start=1", "start_seat", "invalid"),
        ("play?p=A&seed=x&start=%C2%B2", "start_seat", "invalid"),
        ("play?p=A,B&seed=x&start=" + "9" * 5000, "link", "too_long"),
        ("play?p=A,B&seed=x&start=" + "9" * 500, "start_seat", "invalid"),
        ("play?p=A&seed=x&nine=true", "all_nine", "invalid"),
        ("play?p=A&seed=x&sc=paris", "scenario", "invalid"),
        ("play?p=A,B&seed=x&sc=dubai", "scenario", "solo_only"),
        ("play?p=A&seed=x&beat=1001", "beat", "invalid"),
        ("play?p=A&seed=x&beat=" + "1" * 400, "beat", "invalid"),
        ("play?p=A&seed=x&beat=-1", "beat", "invalid"),
        ("play?p=A,B&seed=x&beat=5", "beat", "solo_only"),
    ],
)
def test_bad_links_raise_link_error(text, code, reason):
    with pytest.raises(LinkError) as info:
        parse_share_fragment(text)
    assert (info.value.code, info.value.params["reason"]) == (code, reason)
    assert str(info.value) and len(str(info.value)) < 200


def test_make_share_fragment_refuses_what_no_link_may_carry():
    with pytest.raises(LinkError):
        make_share_fragment(Options(("A", "B"), "x"), beat=10)
    with pytest.raises(LinkError):
        make_share_fragment(Options(("\ud800",), "x"))
    with pytest.raises(LinkError):
        make_share_fragment(Options(("A",), "x"), beat=True)


# --------------------------------------------------------------------------- saves


def fixture(version: int) -> str:
    return (FIXTURES / f"v{version}.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("version", SAVE_VERSIONS)
def test_every_shipped_save_version_migrates_to_the_same_game(version):
    text = fixture(version)
    saved = read_save(text)
    data = json.loads(text)
    game = data if version == 0 else data["game"]
    replayed = Board.from_record(game["record"])
    assert saved.version == version
    assert saved.board.state == replayed.state
    assert saved.board.can_undo() == replayed.can_undo()
    assert saved.board.actions == replayed.actions
    migrated = migrate_save(data)
    assert migrated["v"] == SAVE_VERSION and migrated["kind"] == "skyline-save"
    # written again in the current version: the same game, extras kept
    again = read_save(make_save(saved.board, beat=saved.beat, takes=saved.takes,
                                saved_at=saved.saved_at))
    assert again.version == SAVE_VERSION
    assert again.board.state == saved.board.state
    assert again.board.can_undo() == saved.board.can_undo()
    assert (again.beat, again.takes, again.saved_at) == (saved.beat, saved.takes, saved.saved_at)


def test_fixtures_cover_what_matters():
    v0, v1, v2 = (read_save(fixture(v)) for v in SAVE_VERSIONS)
    assert v0.board.is_game_over() and v0.board.options.scenario == "dubai"
    assert v1.board.state.phase is Phase.CONTINUE and v1.board.can_undo()  # mid-turn, undoable
    assert len(v1.board.state.players) == 3 and v1.saved_at
    assert v2.board.state.phase is Phase.TAKE and (v2.beat, v2.takes) == (83, "GU")


def test_the_page_first_draft_save_is_version_1():
    """The page's first save format (version 1, before the page had rooms) had exactly
    this shape."""
    board = pool_board(random.Random(3)).copy()
    draft = {"v": 1, "game": json.loads(board.to_json()), "saved_at": "2025-11-30T07:00:00Z",
             "beat": None, "ui": {"takes": ""}}
    text = json.dumps(draft, separators=(",", ":"), ensure_ascii=False)
    assert load_save(text).state == board.state


def save_text(version: int = 2) -> tuple[Board, dict]:
    return read_save(fixture(version)).board, json.loads(fixture(version))


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda d: None, "save_type"),
        (lambda d: "x" * 600_000, "save_size"),
        (lambda d: "[" * 100_000 + "]" * 100_000, "json_syntax"),
        (lambda d: '{"v":2,"a":' + "[" * 40 + "]" * 40 + "}", "json_syntax"),
        (lambda d: '{"v":' + "9" * 5000 + "}", "json_syntax"),
        (lambda d: "not json", "json_syntax"),
        (lambda d: "", "json_syntax"),
        (lambda d: "[]", "save_format"),
        (lambda d: json.dumps({**d, "v": 3}), "save_version"),
        (lambda d: json.dumps({**d, "v": 10**400}), "save_version"),
        (lambda d: json.dumps({**d, "v": "2"}), "save_format"),
        (lambda d: json.dumps({**d, "v": True}), "save_format"),
        (lambda d: json.dumps({**d, "kind": "other-app"}), "save_format"),
        (lambda d: json.dumps({**d, "game": "{}"}), "save_format"),
        (lambda d: json.dumps({**d, "game": {**d["game"], "version": 2}}), "json_version"),
        (lambda d: json.dumps({**d, "game": {**d["game"], "format": "x"}}), "json_format"),
        (lambda d: json.dumps({**d, "game": {**d["game"], "record": 5}}), "record_type"),
        (lambda d: json.dumps({**d, "game": {**d["game"], "record": d["game"]["record"] + " e"}}),
         "record_action"),  # a save whose replay is illegal
        (lambda d: json.dumps({**d, "game": {**d["game"], "state": {
            **d["game"]["state"], "round": 9}}}), "json_mismatch"),  # a hand-edited state
    ],
)
def test_broken_saves_raise_save_error(make, code):
    _, data = save_text()
    with pytest.raises(SaveError) as info:
        load_save(make(data))
    assert info.value.code == code and str(info.value)


def test_an_illegal_replay_names_the_move():
    _, data = save_text()
    record = data["game"]["record"].replace("| tGUU", "| tGUU b0", 1)
    with pytest.raises(SaveError) as info:
        load_save(json.dumps({**data, "game": {**data["game"], "record": record}}))
    assert info.value.code == "record_action" and info.value.params["number"] == 2


def test_damaged_extras_never_cost_the_game():
    board, data = save_text()
    for extras in ({"beat": "83"}, {"beat": 10**400}, {"beat": -1}, {"ui": []},
                   {"ui": {"takes": "GUPX"}}, {"ui": {"takes": 5}}, {"saved_at": ["x"]}):
        saved = read_save(json.dumps({**data, **extras}))
        assert saved.board.state == board.state
    assert read_save(json.dumps({**data, "beat": "83"})).beat is None


def test_hand_edited_but_consistent_saves_load():
    """Whitespace, key order, escapes and a dropped snapshot are not damage."""
    board, data = save_text(1)
    variants = [
        json.dumps(data, indent=2, ensure_ascii=True),
        json.dumps(dict(reversed(list(data.items())))),
        json.dumps({**data, "game": {k: v for k, v in data["game"].items() if k != "state"}}),
        json.dumps({**data, "extra": {"from": "a newer page"}}),
    ]
    for text in variants:
        assert load_save(text).state == board.state


def test_record_weaknesses_found_by_fuzzing_are_record_errors():
    """Found by the fuzzer: undecodable names and non-ASCII digits in a record
    escaped as UnicodeDecodeError / ValueError from int()."""
    for text in ("skyline1 players=%FF seed=a start=0 nine=0 scenario=- | ",
                 "skyline1 players=A seed=a start=\u00b2 nine=0 scenario=- | ",
                 "skyline1 players=A seed=a start=\u0663 nine=0 scenario=- | "):
        with pytest.raises(RecordError):
            Board.from_record(text)
    with pytest.raises(ValueError, match="names"):
        Board.new(["\ud800"], seed="x")  # a lone surrogate cannot be written to a record


@pytest.mark.parametrize("value", [None, 5, b"{}", {"v": 2}, ["x"], 10**400])
def test_readers_refuse_non_text(value):
    with pytest.raises(SaveError):
        load_save(value)
    with pytest.raises(RecordError):
        Board.from_record(value)
    with pytest.raises(LinkError):
        parse_share_fragment(value)


def test_junk_generator_is_deterministic():
    assert junk_text(random.Random(5)) == junk_text(random.Random(5))
