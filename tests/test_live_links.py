"""The live table's invitation link (``#live?1.<secret>.<data>``) and the game list's
room secret of a live table (``GameEntry.live``)."""

from __future__ import annotations

import json
import random
import secrets

import pytest
from fuzz_cases import longest_board, pack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skyline import Board, LinkError, Phase
from skyline.players.bots import get_bot
from skyline.records.game_links import (
    MAX_ADDRESS_CHARS,
    MAX_PAYLOAD_BYTES,
    deflate_bound,
    game_id,
    is_game_link,
    make_game_link,
    parse_game_link,
)
from skyline.records.game_list import (
    GameList,
    entry_chars_bound,
    entry_to_json,
    make_entry,
    read_entry,
    read_index,
)
from skyline.records.live_links import (
    MAX_LIVE_LINK_CHARS,
    MAX_SECRET_CHARS,
    LiveLink,
    is_live_link,
    is_secret,
    make_live_link,
    parse_live_link,
)

SECRET = "Q2hhbmdlIHRoaXMgc2VjcmV0"
NOW = "2026-12-06T10:00:00Z"
LATER = "2026-12-06T11:00:00Z"
SEATS = ("here", "friend", "expert", "greedy")


def played(players: int, moves: int, seed: str = "live1") -> Board:
    """A game of ``players`` after ``moves`` greedy actions (deterministic)."""
    board = Board.new(["Ann", "Bo", "Cy", "Di"][:players], seed=seed)
    bot, rng = get_bot("greedy"), random.Random(seed)
    for _ in range(moves):
        if board.is_game_over():
            break
        board.push(bot(board.state, rng))
    return board


GOOD = played(2, 12)
GOOD_LINK = make_live_link(GOOD, ("here", "friend"), "k3Xq9a", SECRET)
GOOD_DATA = GOOD_LINK.rpartition(".")[2]


def with_secret(secret: str) -> str:
    return f"live?1.{secret}.{GOOD_DATA}"


# --------------------------------------------------------------------------- the link


@pytest.mark.parametrize(("players", "moves"), [(1, 0), (1, 25), (2, 40), (3, 15), (4, 60),
                                                (2, 10**6)])
def test_live_links_round_trip(players, moves):
    board = played(players, moves)
    if moves == 10**6:
        assert board.state.phase is Phase.OVER
    seats = SEATS[:players]
    secret = secrets.token_urlsafe(16)
    link = make_live_link(board, seats, "n-_9", secret)
    got = parse_live_link("https://skyline.example/#" + link)
    assert isinstance(got, LiveLink) and got.secret == secret
    assert got.game.board.state == board.state and got.game.board.actions == board.actions
    assert got.game.seats == ("human",) + ("human", "expert", "greedy")[: players - 1]
    assert got.game.nonce == "n-_9" and got.game.game_id == game_id(board, seats, "n-_9")
    # the data is exactly the game link's: the same game, read by either reader
    game = make_game_link(board, seats, "n-_9")
    assert link == f"live?1.{secret}.{game.partition('.')[2]}"
    again = parse_game_link(game)
    assert again[1:] == got.game[1:] and again.board.record() == got.game.board.record()
    assert is_live_link(link) and is_live_link("#" + link) and is_live_link(" x/#" + link)
    assert not is_game_link(link) and not is_live_link(game) and not is_live_link(None)


def test_a_secret_is_what_the_page_makes():
    assert all(is_secret(secrets.token_urlsafe(16)) for _ in range(50))
    assert is_secret("a" * 22) and is_secret("-_" * 32)
    for bad in ("a" * 21, "a" * 65, "a" * 21 + "=", "a" * 21 + ".", "ä" * 22, "", None, 22):
        assert not is_secret(bad)


def test_make_live_link_refuses_what_no_link_may_carry():
    for secret in ("", "short", "a" * 65, "a" * 21 + "!", None):
        with pytest.raises(ValueError):
            make_live_link(GOOD, ("here", "friend"), "", secret)  # type: ignore[arg-type]
    for seats, nonce in ((("here",), ""), (("here", "wizard"), ""), (("here", "friend"), "a b")):
        with pytest.raises(ValueError):
            make_live_link(GOOD, seats, nonce, SECRET)


def test_the_longest_game_has_a_live_link_its_parser_reads():
    """A legal game's invitation is never refused by its own reader: the limit is a game
    link's with the longest secret added, and the longest game stays far below it."""
    data_chars = -(-4 * (4 + deflate_bound(MAX_PAYLOAD_BYTES)) // 3)
    assert MAX_LIVE_LINK_CHARS >= (MAX_ADDRESS_CHARS + len("#live?1.") + MAX_SECRET_CHARS
                                   + len(".") + data_chars)
    board = longest_board(4, heavy=True)
    link = make_live_link(board, SEATS, "n" * 16, "s" * MAX_SECRET_CHARS)
    address = "https://example.org/" + "p" * (MAX_ADDRESS_CHARS - 21) + "#"
    assert len(address) == MAX_ADDRESS_CHARS
    assert len(address + link) <= MAX_LIVE_LINK_CHARS
    got = parse_live_link(address + link)
    assert got.game.board.state == board.state and got.secret == "s" * MAX_SECRET_CHARS


@pytest.mark.parametrize(
    ("text", "code", "reason"),
    [
        (None, "link", "not_text"),
        (GOOD_LINK.encode(), "link", "not_text"),
        ("live?1." + "A" * MAX_LIVE_LINK_CHARS, "link", "too_long"),
        ("game" + GOOD_LINK[4:], "link", "not_live"),
        ("play?p=Ann&seed=x", "link", "not_live"),
        ("live", "link", "not_live"),
        ("live?", "link", "empty"),
        ("live?1", "link", "incomplete"),
        ("live?1.", "link", "incomplete"),
        ("live?1." + SECRET, "link", "incomplete"),
        ("live?1." + SECRET + ".", "link", "incomplete"),
        ("live?." + SECRET + "." + GOOD_DATA, "link", "malformed"),
        (GOOD_LINK.replace("live?1.", "live?2.", 1), "game_version", None),
        (with_secret(""), "live_secret", None),
        (with_secret(SECRET[:-3]), "live_secret", None),
        (with_secret(SECRET + "!"), "live_secret", None),
        (with_secret("s" * (MAX_SECRET_CHARS + 1)), "live_secret", None),
        ("live?1." + GOOD_DATA, "live_secret", None),  # no secret: the data is too long
        (GOOD_LINK + "*", "game_encoding", None),
        (GOOD_LINK[:-4], "game_checksum", None),  # truncated
        (with_secret(SECRET)[:-20] + ("B" if GOOD_LINK[-20] != "B" else "C") + GOOD_LINK[-19:],
         "game_checksum", None),  # one character of the data changed
        (with_secret(SECRET) + "." + GOOD_DATA, "game_encoding", None),
        ("live?1." + SECRET + "." + pack(b"hh \n" + GOOD.record().encode() + b" b9")[7:],
         "game_record", None),
        ("live?1." + SECRET + "." + pack(b"hx \n" + GOOD.record().encode())[7:],
         "game_seats", None),
    ],
)
def test_bad_live_links_raise_link_error(text, code, reason):
    with pytest.raises(LinkError) as info:
        parse_live_link(text)
    assert info.value.code == code and str(info.value) and len(str(info.value)) < 300
    assert info.value.params.get("reason") == reason


def test_a_tampered_secret_is_refused_or_is_another_room():
    """The secret is not under the checksum: a changed secret that is still a secret
    opens another room (of the same game); one that is not a secret is refused."""
    other = SECRET[:-1] + ("A" if SECRET[-1] != "A" else "B")
    assert parse_live_link(with_secret(other)).secret == other
    with pytest.raises(LinkError) as info:
        parse_live_link(with_secret(SECRET[:10] + "%" + SECRET[11:]))
    assert info.value.code == "live_secret"


def test_game_and_live_links_are_not_taken_for_each_other():
    game = make_game_link(GOOD, ("here", "friend"), "k3Xq9a")
    with pytest.raises(LinkError) as info:
        parse_live_link(game)
    assert (info.value.code, info.value.params["reason"]) == ("link", "not_live")
    with pytest.raises(LinkError) as info:
        parse_game_link(GOOD_LINK)
    assert (info.value.code, info.value.params["reason"]) == ("link", "not_game")


def test_a_broken_record_in_a_live_link_names_its_code_and_move():
    data = pack(("hh \n" + GOOD.record() + " b9").encode())[7:]
    with pytest.raises(LinkError) as info:
        parse_live_link(f"#live?1.{SECRET}.{data}")
    assert info.value.params["record_code"] == "record_action"
    assert info.value.params["number"] == len(GOOD.actions) + 1


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(
    st.text(max_size=300),
    st.tuples(st.sampled_from(["live?", "live?1.", f"live?1.{SECRET}.", "#live?1.",
                               f"x/#live?1.{SECRET}.{GOOD_DATA[:20]}", "game?1."]),
              st.text(alphabet=st.characters(exclude_categories=()), max_size=200))
    .map("".join),
    st.tuples(st.integers(0, len(GOOD_LINK) - 1), st.characters()).map(
        lambda cut: GOOD_LINK[: cut[0]] + cut[1] + GOOD_LINK[cut[0] + 1:]),
    st.none() | st.integers() | st.binary(max_size=20),
))
def test_any_text_is_a_live_link_or_a_link_error(text):
    try:
        got = parse_live_link(text)
    except LinkError as exc:
        assert exc.code != "internal" and str(exc)
    else:
        assert isinstance(got, LiveLink) and is_secret(got.secret)
        assert isinstance(text, str) and is_live_link(text)


# --------------------------------------------------------------------------- the game list


def test_a_live_entry_round_trips_with_its_secret():
    entry = make_entry(GOOD, ("here", "friend"), nonce="k3Xq9a", updated=NOW, live=SECRET)
    data = json.loads(entry_to_json(entry))
    assert data["live"] == SECRET
    again = read_entry(entry_to_json(entry))
    assert entry_to_json(again) == entry_to_json(entry) and again.live == SECRET
    index = read_index(GameList([entry], entry.id).index_json())
    assert index.rows[0].summary["live"] is True
    assert len(entry_to_json(entry)) <= entry_chars_bound(2)


def test_an_entry_that_is_not_live_writes_no_live_key():
    entry = make_entry(GOOD, ("here", "friend"), updated=NOW)
    assert entry.live == "" and "live" not in json.loads(entry_to_json(entry))
    assert "live" not in entry.summary()
    # an index written before live tables (no "live" in its rows) is read
    index = read_index(GameList([entry], entry.id).index_json())
    assert "live" not in index.rows[0].summary and index.current == entry.id


def test_old_entries_without_live_read_as_not_live():
    entry = make_entry(GOOD, ("here", "friend"), nonce="n1", updated=NOW)
    data = json.loads(entry_to_json(entry))
    data.pop("live", None)
    assert read_entry(json.dumps(data)).live == ""


@pytest.mark.parametrize("damaged", [5, None, True, ["x"], {"s": SECRET}, "short", "a" * 65,
                                     SECRET + "!", "", " " + SECRET])
def test_a_damaged_secret_is_dropped_and_the_game_kept(damaged):
    entry = make_entry(GOOD, ("here", "friend"), nonce="n1", updated=NOW, live=SECRET)
    data = json.loads(entry_to_json(entry))
    data["live"] = damaged
    got = read_entry(json.dumps(data))
    assert got.live == "" and got.board.state == GOOD.state and got.id == entry.id
    assert entry_to_json(got) == entry_to_json(entry._replace(live=""))


def test_make_entry_refuses_a_bad_secret():
    for bad in ("short", "a" * 65, SECRET + "."):
        with pytest.raises(ValueError):
            make_entry(GOOD, ("here", "friend"), live=bad)


def fork(board: Board) -> Board:
    """Another continuation of ``board``'s game: its last choice made differently."""
    for k in range(len(board.actions) - 1, -1, -1):
        other = Board(board.options)
        for action in board.actions[:k]:
            other.push(action)
        choices = [a for a in other.legal_actions() if a != board.actions[k]]
        if choices:
            other.push(choices[0])
            return other
    raise AssertionError("no choice to make differently")


def test_the_list_keeps_a_live_table_live():
    """An update from a link keeps the stored entry's secret; a continuation kept beside
    it is not the live table; a game adopted from a live link is live."""
    start = played(2, 0, "live2")
    seats = ["friend", "friend"]
    seats[start.state.seat] = "here"
    entry = make_entry(start, seats, nonce="abc", updated=NOW, live=SECRET)
    games = GameList([entry], entry.id)
    later = played(2, 20, "live2")
    got = games.receive(parse_game_link(make_game_link(later, seats, "abc")), LATER)
    assert got.kind == "update" and got.entry.live == SECRET
    games.put(got.entry)
    assert read_entry(entry_to_json(games.get(entry.id))).live == SECRET
    other = fork(later)
    got = games.receive(parse_game_link(make_game_link(other, seats, "abc")), LATER)
    assert got.kind == "diverged" and got.entry.live == "" and got.entry_id == entry.id
    invitation = parse_live_link(make_live_link(later, seats, "abc", SECRET))
    joined = GameList().adopt(invitation.game, [1 - start.state.seat], now=NOW,
                              live=invitation.secret)
    assert joined.live == SECRET and joined.id == entry.id
    assert GameList().adopt(invitation.game, [0], now=NOW).live == ""
