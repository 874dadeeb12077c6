"""The longest game the rules allow (skyline/rules/bounds.py) and every reader's limit.

Whatever the page writes it must read back: the longest legal games (four players, all
nine rounds, every turn taking the district, rolling, abandoning one die and rerolling
the others) go through every writer and reader (record, JSON, save, game link,
game-list entry, export and import, a reload of the page), and each reader's limit is
at least the proven size of what its writer can write.
"""

from __future__ import annotations

import json
import random
import zlib
from pathlib import Path

import pytest
from app.core.commands import HOST_COMMANDS, IMPORT_LIMIT_BYTES
from app.core.game_stats import (
    MAX_HISTORY,
    MAX_HISTORY_CHARS,
    GameResult,
    SeatResult,
    history_json,
    read_history,
)
from app.core.store import KEY_INDEX, entry_key
from fuzz_cases import HEAVY_NAME, longest_board
from hypothesis import given, settings
from hypothesis import strategies as st
from web_fakes import FakeHost, make_page

from skyline import (
    Board,
    Options,
    Phase,
    Roll,
    TakeDistrict,
    apply_action,
    make_save,
    make_share_fragment,
    new_game,
    parse_share_fragment,
    read_save,
)
from skyline.records.game_links import (
    MAX_ADDRESS_CHARS,
    MAX_GAME_LINK_CHARS,
    MAX_PAYLOAD_BYTES,
    deflate_bound,
    make_game_link,
    parse_game_link,
)
from skyline.records.game_list import (
    MAX_ENTRY_CHARS,
    GameList,
    entry_chars_bound,
    entry_to_json,
    make_entry,
    migrate_single_save,
    read_entry,
    read_index,
)
from skyline.records.links import MAX_LINK_CHARS
from skyline.records.saves import MAX_SAVE_CHARS, save_chars_bound
from skyline.rules.board import MAX_RECORD_ACTIONS, game_json_chars_bound
from skyline.rules.bounds import (
    MAX_ACTIONS,
    MAX_RECORD_CHARS,
    max_actions,
    max_dice,
    max_holdings,
    max_turn_actions,
    max_turns,
    record_chars_bound,
)

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = (1, 2, 3, 4)


# ---------------------------------------------------------------------------- the bound


@pytest.mark.parametrize("players", PLAYERS)
def test_the_longest_game_reaches_the_proven_bound(players):
    """The game the proof describes is legal, over, and has exactly the bound's actions:
    4,068 with four players, so the bound cannot be lowered."""
    board = longest_board(players)
    assert board.state.phase is Phase.OVER
    assert len(board.actions) == max_actions(players)
    assert max_actions(4) == MAX_ACTIONS == MAX_RECORD_ACTIONS == 4068


@pytest.mark.parametrize("players", PLAYERS)
def test_the_longest_records_stay_within_the_proven_bound(players):
    """The longest record (the longest game with the longest names, seed and scenario)
    is within the bound, and the bound is close to it (the proof is not loose)."""
    for heavy in (False, True):
        record = longest_board(players, heavy).record()
        assert len(record) <= record_chars_bound(players) <= MAX_RECORD_CHARS
    heavy_record = longest_board(players, True).record()
    assert len(heavy_record) > 0.85 * record_chars_bound(players)  # 0.96 with four


def test_the_notation_can_spell_every_legal_action():
    """Die ids and building indices are at most three digits in the notation: the most
    dice of a turn and the most buildings of a player stay below 1,000."""
    assert max_dice(max_turns(4)) - 1 <= 999
    assert max_holdings(4) - 1 <= 999


def turns_of(board: Board):
    """Each turn of a game: (its number from 1, dice taken, actions)."""
    turn, dice, count = 0, 0, 0
    before = new_game(board.options)
    for action in board.actions:
        before, after = before, apply_action(before, action)
        if before.phase is Phase.TAKE:
            if count:
                yield turn, dice, count
            turn, count = turn + 1, 0
        count += 1
        if isinstance(action, Roll) and before.phase is Phase.ROLL:
            dice = len(before.dice)
        before = after
    if count:
        yield turn, dice, count


def long_play(board: Board, rng: random.Random) -> Board:
    """Random legal play that leans to long games: take the district, resolve one die
    at a time, reroll the rest."""
    while not board.is_game_over():
        actions = board.legal_actions()
        district = [a for a in actions if isinstance(a, TakeDistrict)]
        rolls = [a for a in actions if isinstance(a, Roll)]
        single = [a for a in actions if len(getattr(a, "dice", (0,))) == 1
                  and not isinstance(a, Roll)]
        if district and rng.random() < 0.8:
            board.push(district[0])
        elif rolls and rng.random() < 0.8:
            board.push(max(rolls, key=lambda a: len(a.dice)))
        elif single and rng.random() < 0.8:
            board.push(rng.choice(single))
        else:
            board.push(rng.choice(actions))
    return board


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(PLAYERS))
def test_no_game_passes_the_bound_turn_by_turn(seed, players):
    """Every turn of a played game holds at most 3 t dice and has at most 2 n + 2
    actions (the proof's two lemmas), so no game passes the bound."""
    rng = random.Random(seed)
    board = Board(Options(("A", "B", "C", "D")[:players], f"b{seed}", 0, True))
    long_play(board, rng)
    for turn, dice, count in turns_of(board):
        assert dice <= max_dice(turn, players)
        assert count <= max_turn_actions(dice)
    assert len(board.actions) <= max_actions(players)
    assert len(board.record()) <= record_chars_bound(players)


# ---------------------------------------------------------------------------- sizes


def test_every_reader_takes_what_its_writer_can_write():
    """Each limit is at least the proven size of what is written: a record, a save, a
    game-list entry, a game link (its payload and its DEFLATE), a share link."""
    assert max(record_chars_bound(p) for p in PLAYERS) == MAX_RECORD_CHARS
    assert max(save_chars_bound(p) for p in PLAYERS) <= MAX_SAVE_CHARS
    assert max(entry_chars_bound(p) for p in PLAYERS) <= MAX_ENTRY_CHARS
    assert all(game_json_chars_bound(p) < save_chars_bound(p) for p in PLAYERS)
    assert MAX_PAYLOAD_BYTES >= len("hhhh " + "n" * 16 + "\n") + MAX_RECORD_CHARS
    link_chars = len("#game?1.") + -(-4 * (4 + deflate_bound(MAX_PAYLOAD_BYTES)) // 3)
    assert MAX_GAME_LINK_CHARS >= MAX_ADDRESS_CHARS + link_chars


def test_the_history_reads_back_its_longest_form():
    """The statistics keep the newest 1,000 games: with the longest names (every
    character escaped in JSON), ids and levels they stay within the history's limit."""
    seats = tuple(SeatResult('"' * 24, "beginner", 1000, 4) for _ in range(4))
    results = [GameResult(f"{'s' * 32}|sao-paolo|4068|{i:08x}", "2026-12-01T10:00:00.000Z",
                          "2026-12-01", "multi", None, True, seats)
               for i in range(MAX_HISTORY)]
    text = history_json(results)
    assert len(text) <= MAX_HISTORY_CHARS
    assert read_history(text) == (results, None)


def test_the_import_takes_the_longest_entry():
    """web/js/files.js reads an imported file of at most IMPORT_LIMIT_BYTES (it has the
    limit from HOST_COMMANDS): more than the longest entry in UTF-8 (at most 4 bytes a
    character)."""
    assert HOST_COMMANDS["importLimit"] == IMPORT_LIMIT_BYTES
    assert 4 * entry_chars_bound() <= IMPORT_LIMIT_BYTES


@pytest.mark.parametrize("size", [0, 1, 1000, 65_535, 65_536, 200_000, MAX_PAYLOAD_BYTES])
def test_deflate_stays_within_its_bound_on_incompressible_data(size):
    rng = random.Random(size)
    data = bytes(rng.randrange(256) for _ in range(size))
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    assert len(packer.compress(data) + packer.flush()) <= deflate_bound(size)


def test_the_longest_share_link_fits():
    """Four names of 24 four-byte characters, the longest seed and every setting."""
    names = (HEAVY_NAME,) * 4
    fragment = make_share_fragment(Options(names, "s" * 32, 3, True), bots={1: "beginner",
                                   2: "greedy", 3: "expert"})
    solo = make_share_fragment(Options((HEAVY_NAME,), "s" * 32, 0, True, "sao-paolo"), 1000)
    assert max(len(fragment), len(solo)) + 1 <= MAX_LINK_CHARS
    assert parse_share_fragment("#" + fragment).options.names == names


# ---------------------------------------------------------------------------- round trips


@pytest.mark.parametrize(("players", "heavy"), [(4, False), (4, True), (2, True), (1, True)])
def test_the_longest_games_round_trip_through_every_writer_and_reader(players, heavy):
    board = longest_board(players, heavy)
    state = board.state
    assert Board.from_record(board.record()).state == state
    assert Board.from_json(board.to_json()).state == state
    beat = 1000 if players == 1 else None
    save = make_save(board, beat=beat, saved_at="\x00" * 40)
    assert len(save) <= save_chars_bound(players)
    assert read_save(save).board.state == state
    assert migrate_single_save(save).board.state == state
    seats = ("here", "friend", "expert", "greedy")[:players]
    link = make_game_link(board, seats, "n" * 16)
    assert parse_game_link("https://example.org/skyline/#" + link).board.state == state
    entry = make_entry(board, seats, nonce="n" * 16, name="\x00" * 60,
                       created="\x00" * 40, updated="\x00" * 40)
    text = entry_to_json(entry)
    assert len(text) <= entry_chars_bound(players)
    assert read_entry(text).board.state == state
    assert read_index(GameList([entry], entry.id).index_json()).current == entry.id


def test_the_page_reads_back_the_longest_game_it_stored_and_exported():
    """Stored as the page stores it, the longest game loads after a reload (not kept
    aside as too long); its export imports again on another device."""
    board = longest_board(4, heavy=True)
    entry = make_entry(board, ("here",) * 4, nonce="k3Xq9a")
    storage = {entry_key(entry.id): entry_to_json(entry),
               KEY_INDEX: GameList([entry], entry.id).index_json()}
    c, host, _ = make_page(storage=storage, bots=False)
    assert c.board.state == board.state and not c.session.library.broken
    assert not [k for k in host.storage if ".broken." in k]
    c.handle("click", "game-export", entry.id)
    exported = host.files[-1][1]
    other, other_host, _ = make_page(host=FakeHost(), bots=False)
    other.handle("click", "game-import-text", None, form={"text": exported})
    assert other.page.notices[-1].key == "games.imported"
    stored = json.loads(other_host.storage[entry_key(entry.id)])
    assert Board.from_record(stored["save"]["game"]["record"]).state == board.state
