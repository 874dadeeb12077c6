"""Correspondence play (game links, relations, seats), the daily challenge and the
game list (entries, index, migration of the single save, receiving links)."""

from __future__ import annotations

import base64
import datetime
import json
import random
import zlib
from pathlib import Path

import pytest
from fuzz_cases import pack, pack_raw, pool_board, pooled_board

from skyline import Board, Phase, SaveError
from skyline.players.bots import get_bot
from skyline.records import SAVE_VERSIONS, LinkError, read_save
from skyline.records.daily import (
    daily_day,
    daily_fragment,
    daily_options,
    daily_result,
    daily_seed,
    parse_daily_fragment,
)
from skyline.records.game_links import (
    MAX_GAME_LINK_CHARS,
    MAX_PAYLOAD_BYTES,
    Relation,
    claim_seats,
    compare,
    game_id,
    is_game_link,
    make_game_link,
    may_move,
    parse_game_link,
    send_to,
    turn_kind,
)
from skyline.records.game_list import (
    GameList,
    entry_to_json,
    make_entry,
    migrate_single_save,
    read_entry,
    read_index,
)

FIXTURES = Path(__file__).parent / "fixtures" / "saves"
NOW = "2026-12-01T10:00:00Z"
LATER = "2026-12-01T11:00:00Z"


def two_player(moves: int = 0, seed: str = "corr1") -> Board:
    """A 2-player game after ``moves`` greedy actions (deterministic)."""
    board = Board.new(["Ann", "Bo"], seed=seed)
    bot, rng = get_bot("greedy"), random.Random(seed)
    for _ in range(moves):
        if board.is_game_over():
            break
        board.push(bot(board.state, rng))
    return board


def finish_turn(board: Board) -> Board:
    """``board`` played on (greedy) until the next seat's turn starts."""
    board = board.copy()
    bot, rng = get_bot("greedy"), random.Random(len(board.actions))
    seat = board.state.seat
    while not board.is_game_over() and (board.state.seat == seat
                                        or board.state.phase is not Phase.TAKE):
        board.push(bot(board.state, rng))
    return board


# --------------------------------------------------------------------------- game links


@pytest.mark.parametrize("index", range(0, 48, 3))
def test_game_links_round_trip_every_kind_of_game(index):
    board = pooled_board(index)
    n = len(board.options.names)
    seats = ("here",) + ("friend", "expert", "greedy")[: n - 1]
    link = make_game_link(board, seats, nonce="k3X-_9")
    got = parse_game_link("https://skyline.example/#" + link)
    assert got.board.state == board.state and got.board.actions == board.actions
    assert got.seats == ("human",) + ("human", "expert", "greedy")[: n - 1]
    assert got.nonce == "k3X-_9" and got.game_id == game_id(board, seats, "k3X-_9")
    assert is_game_link("#" + link) and not is_game_link("#play?p=A&seed=x")


def test_both_devices_agree_on_the_game_id_and_ownership_is_not_in_the_link():
    board = two_player(30)
    mine = make_game_link(board, ("here", "friend"))
    theirs = make_game_link(board, ("friend", "here"))
    assert mine == theirs  # who plays which human seat stays on each device
    assert game_id(board, ("here", "friend")) == game_id(board, ("friend", "here"))
    assert game_id(board, ("here", "friend")) != game_id(board, ("here", "friend"), "n2")
    assert game_id(board, ("here", "friend")) != game_id(board, ("here", "expert"))
    assert game_id(board, ("here", "friend")) == game_id(two_player(0), ("here", "friend"))


def test_a_link_carries_no_face_that_has_not_been_rolled():
    board = Board.new(["Ann", "Bo"], seed="corr2")
    board.push_text("tGGU")  # taken, not rolled
    got = parse_game_link(make_game_link(board, ("here", "friend"))).board
    assert got.state.phase is Phase.ROLL
    assert all(d.face is None for d in got.state.dice)


def test_link_length_of_a_two_player_game_is_chat_sized():
    """The issue's aim is 1,500 characters; scripts/game_link_length.py measures."""
    board = Board.new(["Ann", "Bo"], seed="corr3", all_nine=True)
    bot, rng = get_bot("greedy"), random.Random(3)
    while not board.is_game_over():
        board.push(bot(board.state, rng))
    assert board.state.round == 9 and len(make_game_link(board, ("here", "friend"))) <= 1500


def _deflate(payload: bytes) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return packer.compress(payload) + packer.flush()


GOOD = two_player(12)
GOOD_LINK = make_game_link(GOOD, ("here", "friend"))
GOOD_PAYLOAD = "hh \n" + GOOD.record()


@pytest.mark.parametrize(
    ("text", "code", "reason"),
    [
        (None, "link", "not_text"),
        (GOOD_LINK.encode(), "link", "not_text"),
        ("game?1." + "A" * MAX_GAME_LINK_CHARS, "link", "too_long"),
        ("play?" + GOOD_LINK[5:], "link", "not_game"),
        ("game" + GOOD_LINK[5:], "link", "not_game"),
        (GOOD_LINK.replace("game?1.", "game?2.", 1), "game_version", None),
        (GOOD_LINK.replace("game?1.", "game?", 1), "link", "malformed"),  # no version
        ("game?", "link", "empty"),
        ("#game?1", "link", "incomplete"),
        (GOOD_LINK + "*", "game_encoding", None),
        (GOOD_LINK + "A" * ((8 - len(GOOD_LINK)) % 4), "game_encoding", None),  # bad length
        (GOOD_LINK[:-3], "game_checksum", None),
        (GOOD_LINK[:9] + ("B" if GOOD_LINK[9] != "B" else "C") + GOOD_LINK[10:], "game_checksum",
         None),
        ("game?1.", "link", "incomplete"),
        (pack(b"h \n" + b"e " * MAX_PAYLOAD_BYTES), "game_size", None),
        (pack_raw(b"\xff\xfe\xfd not deflate"), "game_data", None),
        (pack_raw(_deflate(GOOD_PAYLOAD.encode())[:-4]), "game_data", None),
        (pack_raw(_deflate(GOOD_PAYLOAD.encode()) + b"tail"), "game_data", None),
        (pack(b"hh \n\xff" + GOOD.record().encode()), "game_data", None),
        (pack(GOOD.record().encode()), "game_data", None),
        (pack(b"hh\n" + GOOD.record().encode()), "game_data", None),
        (pack(b"hh bad nonce!\n" + GOOD.record().encode()), "game_data", None),
        (pack((GOOD_PAYLOAD + "\nmore").encode()), "game_data", None),
        (pack(("h \n" + GOOD.record()).encode()), "game_seats", None),
        (pack(("hx \n" + GOOD.record()).encode()), "game_seats", None),
        (pack(("hh \n" + GOOD.record() + " b9").encode()), "game_record", None),
        (pack(b"hh \nskyline2 players=A | "), "game_record", None),
    ],
)
def test_bad_game_links_raise_link_error(text, code, reason):
    with pytest.raises(LinkError) as info:
        parse_game_link(text)
    assert info.value.code == code and str(info.value) and len(str(info.value)) < 300
    assert info.value.params.get("reason") == reason
    if reason is not None:
        assert info.value.params["reason"] == reason


def test_a_broken_record_in_a_link_names_its_code_and_move():
    record = GOOD.record() + " b9"
    with pytest.raises(LinkError) as info:
        parse_game_link(pack(("hh \n" + record).encode()))
    assert info.value.params["record_code"] == "record_action"
    assert info.value.params["number"] == len(GOOD.actions) + 1


def test_the_checksum_is_over_the_deflated_data():
    raw = base64.urlsafe_b64decode(GOOD_LINK[7:] + "=" * (-len(GOOD_LINK[7:]) % 4))
    assert zlib.crc32(raw[4:]).to_bytes(4, "big") == raw[:4]
    assert zlib.decompress(raw[4:], -15).decode() == GOOD_PAYLOAD


def test_make_game_link_refuses_what_no_link_may_carry():
    for seats, nonce in ((("here",), ""), (("here", "wizard"), ""), ("hh", ""),
                         (("here", "friend"), "x" * 17), (("here", "friend"), "a b")):
        with pytest.raises(ValueError):
            make_game_link(GOOD, seats, nonce)


# --------------------------------------------------------------------------- relations


def test_compare_every_relation():
    base = two_player(10)
    later = two_player(25)
    other_branch = base.copy()
    fork = finish_turn(other_branch)
    assert later.actions[: len(base.actions)] == base.actions
    assert compare(base, base.copy()) is Relation.SAME
    assert compare(base, later) is Relation.CONTINUES
    assert compare(later, base) is Relation.STALE
    assert compare(base.record(), later.record()) is Relation.CONTINUES  # records work too
    diverged = base.copy()
    for action in diverged.legal_actions():
        trial = base.copy()
        trial.push(action)
        if trial.actions != later.actions[: len(trial.actions)]:
            diverged = trial
            break
    assert compare(later, diverged) is Relation.DIVERGES
    assert compare(diverged, later) is Relation.DIVERGES
    assert compare(base, two_player(10, seed="corr9")) is Relation.OTHER
    assert compare(fork, fork) is Relation.SAME


def test_compare_uses_replayed_actions_not_spelling():
    a = Board.new(["Ann", "Bo"], seed="corr4")
    b = a.copy()
    a.push_text("tGGU")
    b.push_text("tUGG")  # the same take, written differently
    assert compare(a, b) is Relation.SAME


# --------------------------------------------------------------------------- seats and turns


def test_seats_turns_and_whom_to_send_to():
    board = two_player(0)
    seat = board.state.seat
    seats = ["friend", "friend"]
    seats[seat] = "here"
    assert turn_kind(board, seats) == "here" and may_move(board, seats)
    assert send_to(board, seats) is None
    after = finish_turn(board)
    assert after.state.seat != seat
    assert turn_kind(after, seats) == "friend" and not may_move(after, seats)
    assert send_to(after, seats) == after.state.seat
    bots = list(seats)
    bots[after.state.seat] = "expert"
    assert turn_kind(after, bots) == "expert" and not may_move(after, bots)
    assert send_to(after, bots) is None
    over = two_player(10_000)
    assert over.is_game_over() and turn_kind(over, seats) == "over"
    assert not may_move(over, seats) and send_to(over, seats) is None


def test_claim_seats():
    assert claim_seats(("human", "human"), [1]) == ("friend", "here")
    assert claim_seats(("human", "expert", "human"), [0, 2]) == ("here", "expert", "here")
    for mine in ([1], [3], [-1], [True]):
        with pytest.raises(ValueError):
            claim_seats(("human", "expert"), mine)


# --------------------------------------------------------------------------- daily


def test_daily_challenge_is_the_same_for_everyone_and_changes_daily():
    day = datetime.date(2026, 12, 1)
    assert daily_seed(day) == daily_seed("2026-12-01") == "daily-2026-12-01"
    assert daily_seed(datetime.datetime(2026, 12, 1, 23, 59)) == "daily-2026-12-01"
    ann, bo = Board(daily_options(day, "Ann")), Board(daily_options(day, "Bo"))
    for board in (ann, bo):
        board.push_text("tGGU")
        board.push_text("r0.1.2")
    assert ann.state.dice == bo.state.dice  # the same dice for everyone
    other = Board(daily_options("2026-12-02", "Ann"))
    other.push_text("tGGU")
    other.push_text("r0.1.2")
    assert daily_options(day, "Ann").seed != other.options.seed
    opts = daily_options(day, "Ann")
    assert (opts.all_nine, opts.scenario, opts.start_seat, len(opts.names)) == (False, None, 0, 1)


def test_daily_day_recognises_only_the_challenge():
    day = datetime.date(2026, 12, 1)
    assert daily_day(daily_options(day, "Zoë")) == day
    assert daily_day(daily_options(day, "Ann")._replace(all_nine=True)) is None
    assert daily_day(daily_options(day, "Ann")._replace(names=("A", "B"))) is None
    assert daily_day(Board.new(["Ann"], seed="daily-2026-13-01").options) is None
    assert daily_day(Board.new(["Ann"], seed="x").options) is None


def test_daily_links():
    assert daily_fragment("2026-12-01") == "daily?d=2026-12-01"
    assert parse_daily_fragment("https://x.example/#daily?d=2026-12-01") == datetime.date(
        2026, 12, 1)
    for text, code in ((None, "link"), ("x" * 300, "link"), ("play?d=2026-12-01", "link"),
                       ("daily?x=2026-12-01", "link"), ("daily?d=2026-02-30", "daily_date"),
                       ("daily?d=1999-12-01", "daily_date"), ("daily?d=2026-1-1", "daily_date"),
                       ("daily?d=٢٠٢٦-12-01", "daily_date")):
        with pytest.raises(LinkError) as info:
            parse_daily_fragment(text)
        assert info.value.code == code


def test_daily_result_is_data_for_the_result_line():
    board = Board(daily_options("2026-12-01", "Ann"))
    with pytest.raises(ValueError):
        daily_result(board)  # not finished
    bot, rng = get_bot("greedy"), random.Random(1)
    while not board.is_game_over():
        board.push(bot(board.state, rng))
    result = daily_result(board)
    assert result.day == datetime.date(2026, 12, 1)
    assert result.score == board.scores()[0] and result.fragment == "daily?d=2026-12-01"
    with pytest.raises(ValueError):
        daily_result(two_player(10_000))


# --------------------------------------------------------------------------- list entries


def fixture(version: int) -> str:
    return (FIXTURES / f"v{version}.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("version", SAVE_VERSIONS)
def test_every_shipped_save_version_migrates_into_the_list(version):
    saved = read_save(fixture(version))
    entry = migrate_single_save(fixture(version), now=NOW)
    assert entry.board.state == saved.board.state
    assert entry.board.can_undo() == saved.board.can_undo()
    assert entry.seats == ("here",) * len(saved.board.options.names)
    assert (entry.beat, entry.takes) == (saved.beat, saved.takes)
    assert entry.updated == (saved.saved_at or NOW)
    again = read_entry(entry_to_json(entry))
    assert again == entry._replace(board=again.board) and again.board.state == entry.board.state
    listed = GameList([entry], current=entry.id)
    assert read_index(listed.index_json()).current == entry.id


def test_migration_keeps_the_computer_seats_of_that_game_only():
    text = fixture(1)
    board = read_save(text).board
    seats = json.dumps({"v": 1, "seed": board.options.seed, "names": list(board.options.names),
                        "bots": {"1": "expert", "2": "wizard", "7": "greedy"}})
    assert migrate_single_save(text, seats).seats == ("here", "expert", "here")
    other = json.dumps({"v": 1, "seed": "other", "names": list(board.options.names),
                        "bots": {"1": "expert"}})
    for junk in (other, "not json", "[]", None, 5):
        assert migrate_single_save(text, junk).seats == ("here",) * 3


def test_unreadable_single_save_is_a_save_error():
    with pytest.raises(SaveError) as info:
        migrate_single_save('{"v":2,"kind":"skyline-save","game":{}}')
    assert info.value.code == "json_format"


def entry_data(**changes) -> str:
    entry = make_entry(two_player(20), ("here", "friend"), nonce="n1", updated=NOW)
    data = json.loads(entry_to_json(entry))
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (None, "save_type"),
        ("x" * 600_000, "save_size"),
        ("[" * 50 + "]" * 50, "json_syntax"),
        ("{", "json_syntax"),
        ("[]", "save_format"),
        (entry_data(kind="skyline-save"), "save_format"),
        (entry_data(v="1"), "save_format"),
        (entry_data(v=2), "save_version"),
        (entry_data(save=None), "save_format"),
        (entry_data(save={"v": 9, "kind": "skyline-save"}), "save_version"),
        (entry_data(seats=["here"]), "entry_field"),
        (entry_data(seats=["here", "human"]), "entry_field"),
        (entry_data(nonce="bad nonce"), "entry_field"),
        (entry_data(id="Q" * 12), "entry_field"),
        (entry_data(game=5), "entry_field"),
        (entry_data(nonce="n2"), "entry_id"),
        (entry_data(seats=["here", "expert"]), "entry_id"),
    ],
)
def test_broken_entries_raise_save_error(text, code):
    with pytest.raises(SaveError) as info:
        read_entry(text)
    assert info.value.code == code and str(info.value)


def test_damaged_extras_of_an_entry_never_cost_the_game():
    good = read_entry(entry_data())
    for extras in ({"name": 5}, {"name": "x" * 500}, {"updated": ["x"]}, {"created": 10**400},
                   {"diverged_from": "nope"}, {"name": "   "}):
        entry = read_entry(entry_data(**extras))
        assert entry.board.state == good.board.state and entry.id == good.id
    assert read_entry(entry_data(name=5)).name == "Ann, Bo"


def test_index_round_trip_and_damage():
    entries = [make_entry(pool_board(random.Random(i)), ("here",) * len(
        pool_board(random.Random(i)).options.names), nonce=f"n{i}", updated=f"2026-12-0{i}")
        for i in range(1, 5)]
    games = GameList(entries, current=entries[1].id)
    index = read_index(games.index_json())
    assert index.current == entries[1].id and [r.id for r in index.rows] == [
        e.id for e in entries]
    assert index.rows[0].summary["players"] == list(entries[0].options.names)
    again = GameList.from_entries(reversed(entries), index)
    assert list(again.entries) == [e.id for e in entries] and again.current == entries[1].id
    assert [e.id for e in GameList.from_entries(entries).ordered()] == [
        e.id for e in reversed(entries)]
    data = json.loads(games.index_json())
    for bad in ({**data, "games": "x"}, {**data, "current": "abcdefabcdef"},
                {**data, "games": data["games"] + data["games"][:1]},
                {**data, "games": [{"id": "../x"}]}):
        with pytest.raises(SaveError) as info:
            read_index(json.dumps(bad))
        assert info.value.code == "index_format"
    for text, code in ((None, "save_type"), ("{", "json_syntax"), ("{}", "save_format"),
                       (json.dumps({**data, "v": 2}), "save_version")):
        with pytest.raises(SaveError) as info:
            read_index(text)
        assert info.value.code == code


# --------------------------------------------------------------------------- receiving links


def test_receiving_links_on_the_other_device():
    """Ann (seat of the start player) sends; Bo's device receives."""
    start = two_player(0)
    first = start.state.seat
    ann_seats = ["friend", "friend"]
    ann_seats[first] = "here"
    moved = finish_turn(start)  # Ann's first turn: now it is Bo's
    link = parse_game_link(make_game_link(moved, ann_seats, nonce="abc"))
    bo = GameList()
    assert bo.receive(link, NOW).kind == "new"
    entry = bo.adopt(link, [moved.state.seat], now=NOW)
    assert entry.turn_kind == "here" and entry.id == link.game_id
    bo.put(entry)
    assert bo.receive(link, LATER) == ("same", entry.id, None)

    # Bo moves; Ann's device gets the continuation
    bo_moved = finish_turn(entry.board)
    ann = GameList([make_entry(moved, ann_seats, nonce="abc", updated=NOW)])
    reply = parse_game_link(make_game_link(bo_moved, entry.seats, nonce="abc"))
    got = ann.receive(reply, LATER)
    assert got.kind == "update" and got.entry.board.actions == bo_moved.actions
    assert got.entry.seats == tuple(ann_seats) and got.entry.updated == LATER
    ann.put(got.entry)
    # the old link again: refused, nothing changes
    assert ann.receive(link, LATER).kind == "stale"

    # Bo plays another continuation from the same position: kept side by side
    bo_other = entry.board.copy()
    bot, rng = get_bot("beginner"), random.Random(99)
    while compare(bo_moved, bo_other) is not Relation.DIVERGES:
        bo_other = entry.board.copy()
        while bo_other.state.seat == entry.board.state.seat and not bo_other.is_game_over():
            bo_other.push(bot(bo_other.state, rng))
    fork_link = parse_game_link(make_game_link(bo_other, entry.seats, nonce="abc"))
    got = ann.receive(fork_link, LATER)
    assert got.kind == "diverged" and got.entry_id == link.game_id
    assert got.entry.id == link.game_id + "-2" and got.entry.diverged_from == link.game_id
    ann.put(got.entry)
    assert len(ann) == 2 and ann.get(link.game_id).board.actions == bo_moved.actions
    assert read_entry(entry_to_json(got.entry)).id == link.game_id + "-2"
    # a continuation of the copy updates the copy, not the first game
    fork_more = finish_turn(bo_other)
    got = ann.receive(parse_game_link(make_game_link(fork_more, entry.seats, nonce="abc")))
    assert got.kind == "update" and got.entry_id == link.game_id + "-2"
    # a link of another game is a new game
    other = parse_game_link(make_game_link(moved, ann_seats, nonce="xyz"))
    assert ann.receive(other).kind == "new"
