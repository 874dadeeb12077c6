"""Generators and checkers for fuzzing the engine's readers: share links
(:func:`skyline.parse_share_fragment`), records (:meth:`skyline.Board.from_record`),
saves (:func:`skyline.read_save`), game links
(:func:`skyline.records.game_links.parse_game_link`), game-list entries
(:func:`skyline.records.game_list.read_entry`), the game list's index
(:func:`skyline.records.game_list.read_index`) and the solo records
(:func:`skyline.records.solo_records.read_solo_records`).

Beside the mutations of a pool of small random games (:data:`GENERATORS`), the edges
(:data:`EDGE_GENERATORS`): the longest games the rules allow
(:func:`longest_board`, :mod:`skyline.rules.bounds`) through every writer and reader,
and inputs exactly at each reader's limit (must load) and one character or byte over
it (must be refused with the limit's own code).

Shared by ``tests/test_fuzz.py`` (driven by Hypothesis) and
``scripts/reliability_report.py`` (a fixed-seed loop). Every generator takes a
``random.Random`` and a piece of *junk* text, returns a :class:`Case`: the input
plus, for inputs that are valid by construction, the game (or link) they must
give. :func:`run_case` feeds a case to its reader and returns an
:class:`Outcome`: ``loaded`` (the result was checked: complete, consistent,
round-trips), ``rejected`` with the documented error's code, ``crash`` (any other
exception, or a check failed), ``hang`` (slower than the ``limit`` it is given: the
report script's :data:`CASE_LIMIT`; the tests give none, a test has no clock), and
``lost`` when a valid input did not give back its game.
"""

from __future__ import annotations

import base64
import json
import random
import time
import zlib
from functools import cache
from typing import Any, NamedTuple
from urllib.parse import quote

from skyline import (
    SCENARIOS,
    Abandon,
    Board,
    Build,
    DieType,
    EndTurn,
    Options,
    RecordError,
    Roll,
    Take,
    TakeDistrict,
    apply_action,
    make_save,
    make_share_fragment,
    new_game,
    parse_action,
    parse_share_fragment,
    read_save,
    validate_options,
)
from skyline.records import MAX_BEAT, LinkError, SaveError
from skyline.records.game_links import (
    COMPUTER_LEVELS,
    MAX_GAME_LINK_CHARS,
    MAX_PAYLOAD_BYTES,
    game_id,
    make_game_link,
    parse_game_link,
)
from skyline.records.game_list import (
    MAX_ENTRY_CHARS,
    MAX_INDEX_CHARS,
    GameList,
    entry_to_json,
    make_entry,
    read_entry,
    read_index,
)
from skyline.records.links import MAX_LINK_CHARS
from skyline.records.saves import MAX_SAVE_CHARS
from skyline.records.solo_records import (
    MAX_RECORDS_CHARS,
    SoloRecordsError,
    empty_solo_records,
    read_solo_records,
    solo_records_json,
)
from skyline.rules.bounds import MAX_RECORD_CHARS

CASE_LIMIT = 2.0  # seconds: a case slower than this counts as a hang
MB = 1_000_000

#: Awkward text: direction marks, zero-width, emoji, surrogates, controls, other
#: scripts' digits, percent escapes, huge and odd numbers, syntax characters.
NASTY = (
    "", " ", "\t", "\n", "\r\n", "\x00", "\x1b[31m", "\x7f", "\x85", "\u2028", "\ufeff",
    "\u202e", "\u200f", "\u200b", "\u2060", "\ufffd", "\uffff", "\ud800", "\udfff",
    "\U0001f600", "\U0001f469\u200d\U0001f469\u200d\U0001f467", "\u0301", "Z\u0351\u0352",
    "\u00b2", "\u0663", "\uff10", "\u2167", "\u09e8", "%", "%F", "%FF", "%C0%AF", "%E2%82",
    "%00", "%25", "%2C", "%26", "%3D", "%23", "+", "&", "=", "#", "?", ",", "|", "@", ".",
    "-", "_", "r", "-1", "+1", "0x1F", "1e400", "NaN", "Infinity", "null", "true", "[]", "{}",
    "1" * 400, "9" * 5000, str(10**400), "18446744073709551616", "0" * 300 + "1",
    "<script>alert(1)</script>", "\"'`", "\\", "\\u0000", "名前", "Ελένη", "مرحبا", "שָׁלוֹם",
)

NAME_POOL = (
    "Ann", "Bo Li", "Zoë", "李, 明", "O'Brien", "a&b=c", "100%", "#1 fan", "x|y", "ümlaut",
    "\U0001f3d9\ufe0f", "مريم", "דוד", "  spaced  out ", "Ω", "A" * 24, "テスト", "d\u0301",
)


class Case(NamedTuple):
    kind: str  # the reader: a key of ERRORS
    how: str  # which generator / mutation made it
    value: Any
    expected: Any = None  # valid by construction: the ShareLink / Board it must give
    code: str | None = None  # must be refused with exactly this code (over a limit)


class Outcome(NamedTuple):
    status: str  # loaded, rejected, crash, hang, lost
    code: str | None  # the error code when rejected; the exception type for a crash
    detail: str = ""
    seconds: float = 0.0


# --------------------------------------------------------------------------- text mutations


def junk_text(rng: random.Random) -> str:
    """Random junk: a few NASTY pieces and random code points (surrogates included)."""
    parts = []
    for _ in range(rng.randrange(1, 5)):
        if rng.random() < 0.6:
            parts.append(rng.choice(NASTY))
        else:
            parts.append("".join(chr(rng.randrange(0x110000)) for _ in range(rng.randrange(1, 6))))
    return "".join(parts)


def big_text(rng: random.Random) -> str:
    """About 1 MB of text: one character repeated, or junk repeated."""
    piece = rng.choice(["a", "%", "\U0001f600", "&p=A", ",", "9", " e", "[", "\u200b", "r"])
    return piece * (MB // len(piece))


def mutate_text(text: str, rng: random.Random, junk: str) -> tuple[str, str]:
    """One textual mutation of ``text``; returns (name, result)."""
    n = len(text)
    i = rng.randrange(n + 1)
    j = rng.randrange(n + 1)
    i, j = min(i, j), max(i, j)
    choice = rng.randrange(8)
    if choice == 0:
        return "truncate", text[:i]
    if choice == 1:
        return "insert_junk", text[:i] + junk + text[i:]
    if choice == 2:
        return "replace_span", text[:i] + junk + text[j:]
    if choice == 3:
        return "delete_span", text[:i] + text[j:]
    if choice == 4:
        return "duplicate_span", text[:j] + text[i:j] + text[j:]
    if choice == 5:
        if n == 0:
            return "empty", ""
        k = rng.randrange(n)
        return "flip_char", text[:k] + chr(ord(text[k]) ^ (1 << rng.randrange(7))) + text[k + 1 :]
    if choice == 6:
        return "swap_case", text.swapcase()
    return "append_junk", text + junk


# --------------------------------------------------------------------------- games


def random_options(rng: random.Random) -> Options:
    players = rng.randrange(1, 5)
    names = tuple(rng.choice(NAME_POOL) for _ in range(players))
    seed_chars = "abcXYZ019_-"
    seed = "".join(rng.choice(seed_chars) for _ in range(rng.randrange(1, 33)))
    start = None if rng.random() < 0.3 else rng.randrange(players)
    scenario = rng.choice((None,) + SCENARIOS) if players == 1 else None
    return Options(names, seed, start, rng.random() < 0.3, scenario)


@cache
def pooled_board(index: int) -> Board:
    """Game ``index`` of a deterministic pool: random legal play (with undos) of a
    random length, from just set up to finished. Treat as read-only (copy first)."""
    rng = random.Random(f"pool{index}")
    board = Board(random_options(rng))
    steps = rng.choice([0, 3, 20, 60, 150, 10**6])
    for _ in range(steps):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_actions()))
        if board.can_undo() and rng.random() < 0.05:
            board.pop()
    return board


POOL_SIZE = 48


def pool_board(rng: random.Random) -> Board:
    return pooled_board(rng.randrange(POOL_SIZE))


def replayed_state(board: Board):
    """The state of ``board`` replayed from its own record with the pure functions."""
    head, _, body = board.record().partition("|")
    state = new_game(board.options)
    for token in body.split():
        state = apply_action(state, parse_action(token))
    return state


# --------------------------------------------------------------------------- links


def odd_value(rng: random.Random) -> Any:
    """A value of the wrong type (or a huge one)."""
    return rng.choice(
        [None, 0, 10**400, -1, 3.5, float("nan"), True, b"play?p=A&seed=x", ["play?p=A&seed=x"],
         {"p": "A"}, ("a",), object(), bytearray(b"x")]
    )


def _quote(text: str) -> str:
    return quote(text, safe="", errors="surrogatepass")


def link_case(rng: random.Random, junk: str) -> Case:
    options = random_options(rng)
    solo = len(options.names) == 1
    beat = rng.randrange(MAX_BEAT + 1) if solo and rng.random() < 0.5 else None
    fragment = make_share_fragment(options, beat)
    expected = (validate_options(options), beat)
    roll = rng.random()
    if roll < 0.15:
        prefix = rng.choice(["", "#", "  #", "https://example.org/skyline/#"])
        return Case("link", "valid", prefix + fragment, expected)
    if roll < 0.2:
        return Case("link", "wrong_type", odd_value(rng))
    if roll < 0.23:
        return Case("link", "huge_string", rng.choice(["", "play?p=A&seed=x&"]) + big_text(rng))
    path, _, query = fragment.partition("?")
    parts = query.split("&")
    op = rng.randrange(10)
    if op == 0:
        rng.shuffle(parts)
        return Case("link", "reordered", path + "?" + "&".join(parts), expected)
    if op == 1:
        parts.insert(rng.randrange(len(parts) + 1), rng.choice(parts))
        how = "duplicated_key"
    elif op == 2:
        del parts[rng.randrange(len(parts))]
        how = "dropped_key"
    elif op == 3:
        key = rng.choice(["x", "P", "seed ", "players", "v", "beat[]", junk[:10]])
        parts.insert(rng.randrange(len(parts) + 1), key + "=" + junk[:30])
        how = "unknown_key"
    elif op == 4:
        k = rng.randrange(len(parts))
        key = parts[k].partition("=")[0]
        value = rng.choice([junk, _quote(junk), str(10**400), "9" * 5000, "-1", "2", "r"])
        parts[k] = key + "=" + value
        how = "bad_value"
    elif op == 5:
        k = rng.randrange(len(parts))
        parts[k] = parts[k].partition("=")[0]
        how = "no_equals"
    elif op == 6:
        parts[0] = "p=" + ",".join(_quote(rng.choice(NASTY + NAME_POOL))
                                   for _ in range(rng.randrange(0, 7)))
        how = "names"
    else:
        name, text = mutate_text(fragment, rng, junk)
        return Case("link", "text_" + name, text)
    return Case("link", how, path + "?" + "&".join(parts))


def check_link(case: Case, result: Any) -> str:
    """Problems of a parsed link ('' if none)."""
    options, beat = result
    if validate_options(options) != options:
        return "options not normalised"
    if beat is not None and not (0 <= beat <= MAX_BEAT and len(options.names) == 1):
        return "bad beat"
    again = parse_share_fragment(make_share_fragment(options, beat))
    if tuple(again) != (options, beat):
        return "does not round-trip"
    if case.expected is not None and tuple(result) != case.expected:
        return "valid link gave another game"
    return ""


# --------------------------------------------------------------------------- records

LEGAL_LOOKING = ("tGGG", "tPPP", "tD", "r0.1.2", "r0", "r0.0", "r2.1", "b0", "b9", "b0@7",
                 "x0@c9", "x1@b0", "a0", "a0.1", "e", "t", "tGGGG", "b", "r", "a", "x0@", "E")


def record_case(rng: random.Random, junk: str) -> Case:
    board = pool_board(rng)
    text = board.record()
    roll = rng.random()
    if roll < 0.15:
        return Case("record", "valid", text, board)
    if roll < 0.18:
        return Case("record", "wrong_type", odd_value(rng))
    if roll < 0.2:
        return Case("record", "huge_string", text.partition("|")[0] + "|" + big_text(rng))
    head, _, body = text.partition("|")
    fields, tokens = head.split(), body.split()
    op = rng.randrange(12)
    if op == 0 and tokens:
        tokens = tokens[: rng.randrange(len(tokens))]  # a shorter game: legal
        how = "truncated_tokens"
    elif op == 1 and len(tokens) > 1:
        i, j = rng.randrange(len(tokens)), rng.randrange(len(tokens))
        tokens[i], tokens[j] = tokens[j], tokens[i]
        how = "swapped_tokens"
    elif op == 2 and tokens:
        i = rng.randrange(len(tokens))
        tokens.insert(i, tokens[i])
        how = "duplicated_token"
    elif op == 3:
        tokens.insert(rng.randrange(len(tokens) + 1), rng.choice(LEGAL_LOOKING))
        how = "inserted_token"
    elif op == 4 and tokens:
        tokens[rng.randrange(len(tokens))] = rng.choice([junk, *LEGAL_LOOKING])
        how = "replaced_token"
    elif op == 5:
        tokens += ["e"] * rng.choice([1, 10, 5001])
        how = "appended_tokens"
    elif op == 6:
        rng.shuffle(fields)
        how = "reordered_fields"
    elif op == 7:
        fields.insert(rng.randrange(len(fields) + 1), rng.choice(fields))
        how = "duplicated_field"
    elif op == 8:
        del fields[rng.randrange(len(fields))]
        how = "dropped_field"
    elif op == 9:
        k = rng.randrange(len(fields))
        key = fields[k].partition("=")[0]
        value = rng.choice([junk, _quote(junk), str(10**400), "9", "4", "-", "1",
                            "dubai", "A,B,C,D,E", "%FF"])
        fields[k] = key + "=" + value
        how = "bad_field"
    elif op == 10:
        fields.insert(rng.randrange(len(fields) + 1), rng.choice(["x=1", "skyline1", "=", junk]))
        how = "extra_field"
    else:
        name, mutated = mutate_text(text, rng, junk)
        return Case("record", "text_" + name, mutated)
    return Case("record", how, " ".join(fields) + " | " + " ".join(tokens))


def check_board(board: Board) -> str:
    """Problems of a loaded board ('' if none): its state must be the replay of its
    own record, and the record and JSON forms must round-trip."""
    if replayed_state(board) != board.state:
        return "state differs from the replay of its record"
    again = Board.from_record(board.record())
    if again.state != board.state or again.record() != board.record():
        return "record does not round-trip"
    if again.can_undo() != board.can_undo():
        return "undo differs after a round trip"
    if Board.from_json(board.to_json()).state != board.state:
        return "JSON does not round-trip"
    return ""


def check_same_game(expected: Board, board: Board) -> str:
    if board.state != expected.state:
        return "a valid input loaded another game"
    if board.can_undo() != expected.can_undo() or board.actions != expected.actions:
        return "a valid input lost its history"
    return ""


# --------------------------------------------------------------------------- saves


def envelope(board: Board, version: int, rng: random.Random) -> dict[str, Any]:
    """A save of ``board`` as the page wrote it in ``version`` (as a parsed object)."""
    game = json.loads(board.to_json())
    if version == 0:
        return game
    beat = rng.choice([None, 0, 50, 83, 1000]) if board.state.solo else None
    stamp = "2025-11-30T06:50:00.000Z"
    if version == 1:
        return {"v": 1, "game": game, "saved_at": stamp, "beat": beat, "ui": {"takes": ""}}
    return json.loads(make_save(board, beat=beat, saved_at=stamp))


def _dump(data: Any, rng: random.Random) -> str:
    if rng.random() < 0.2:
        return json.dumps(data, indent=rng.choice([None, 2, "\t"]), ensure_ascii=rng.random() < 0.5)
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _edit_leaf(data: Any, rng: random.Random, junk: str) -> Any:
    """Change one random leaf (or container) of a JSON object to another value."""
    if isinstance(data, dict) and data and rng.random() < 0.8:
        key = rng.choice(list(data))
        return {**data, key: _edit_leaf(data[key], rng, junk)}
    if isinstance(data, list) and data and rng.random() < 0.8:
        k = rng.randrange(len(data))
        return data[:k] + [_edit_leaf(data[k], rng, junk)] + data[k + 1 :]
    if isinstance(data, bool):
        return not data
    if isinstance(data, int):
        return data + rng.choice([1, -1, 10**400, -(10**30)])
    return rng.choice([junk, None, 0, 1, True, [], {}, 2.5, "p", "o", [["o", 6]], data])


def save_case(rng: random.Random, junk: str) -> Case:
    board = pool_board(rng)
    version = rng.choice([0, 1, 2, 2])
    data = envelope(board, version, rng)
    roll = rng.random()
    if roll < 0.12:
        return Case("save", f"valid_v{version}", _dump(data, rng), board)
    if roll < 0.15:
        return Case("save", "wrong_type", odd_value(rng))
    if roll < 0.17:
        return Case("save", "huge_string", rng.choice(["", '{"v":2,"junk":"']) + big_text(rng))
    if roll < 0.2:
        depth = rng.choice([33, 1000, 100_000])
        opener, closer = rng.choice([("[", "]"), ('{"a":', "}")])
        return Case("save", "deep_nesting", opener * depth + "1" + closer * depth)
    op = rng.randrange(11)
    if version and op == 0:  # extras damaged: the game must survive
        data = {**data, rng.choice(["beat", "ui", "saved_at"]): _edit_leaf(
            {"beat": data.get("beat"), "ui": {"takes": "GUP"}, "saved_at": 5}, rng, junk)}
        return Case("save", "damaged_extras", _dump(data, rng), board)
    if op == 1:
        items = list(data.items())
        rng.shuffle(items)
        return Case("save", "reordered_keys", _dump(dict(items), rng), board)
    game = data if version == 0 else data["game"]
    if op == 2:  # hand-edited snapshot
        game = {**game, "state": _edit_leaf(game["state"], rng, junk)}
        how = "edited_snapshot"
    elif op == 3:
        game = {k: v for k, v in game.items() if k != "state"}
        data = game if version == 0 else {**data, "game": game}
        return Case("save", "no_snapshot", _dump(data, rng), board)
    elif op == 4:  # a record edited by hand (or an illegal replay)
        mutated = record_case(random.Random(rng.random()), junk)
        if not isinstance(mutated.value, str) or len(mutated.value) > 10_000:
            mutated = Case("record", "x", board.record() + " e e")
        game = {**game, "record": mutated.value, "state": game["state"]}
        how = "edited_record_" + mutated.how
    elif op == 5:
        game = _edit_leaf(game, rng, junk)
        how = "edited_game"
    elif op == 6 and version:
        data = {**data, "v": rng.choice([0, 3, 99, -1, "2", 2.0, True, None, 10**400, []])}
        return Case("save", "wrong_version", _dump(data, rng))
    elif op == 7 and version:
        data = {**data, "game": rng.choice([None, [], "x", 1, junk, [game], json.dumps(game)])}
        return Case("save", "wrong_game_type", _dump(data, rng))
    elif op == 8:
        return Case("save", "edited_envelope", _dump(_edit_leaf(data, rng, junk), rng))
    elif op == 9:
        big = rng.choice(["9" * 5000, str(10**400), "1e999", "-0", "1" * 4301])
        text = _dump(data, rng)
        k = text.find(":") + 1
        return Case("save", "huge_number", text[:k] + big + "," + text[k:])
    else:
        name, text = mutate_text(_dump(data, rng), rng, junk)
        return Case("save", "text_" + name, text)
    data = game if version == 0 else {**data, "game": game}
    return Case("save", how, _dump(data, rng))


# --------------------------------------------------------------------------- game links


def random_seats(rng: random.Random, players: int, local: bool = True) -> tuple[str, ...]:
    humans = ("here", "friend") if local else ("human",)
    return tuple(rng.choice(humans) if rng.random() < 0.7 else rng.choice(COMPUTER_LEVELS)
                 for _ in range(players))


def random_nonce(rng: random.Random) -> str:
    return "".join(rng.choice("abcXYZ019_-") for _ in range(rng.choice([0, 0, 6, 16])))


@cache
def bomb(size: int) -> str:
    """A game link whose payload inflates to ``size`` bytes (made once per size)."""
    return pack(b"h \n" + b"e " * (size // 2))


def pack(payload: bytes, version: str = "1") -> str:
    """A game link of any payload bytes, with a valid checksum (as a forger would)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    deflated = packer.compress(payload) + packer.flush()
    return pack_raw(deflated, version)


def pack_raw(deflated: bytes, version: str = "1") -> str:
    data = zlib.crc32(deflated).to_bytes(4, "big") + deflated
    return f"game?{version}." + base64.urlsafe_b64encode(data).decode().rstrip("=")


def game_link_case(rng: random.Random, junk: str) -> Case:
    board = pool_board(rng)
    seats = random_seats(rng, len(board.options.names))
    nonce = random_nonce(rng)
    link = make_game_link(board, seats, nonce)
    letters = "".join("h" if k in ("here", "friend") else k[0] for k in seats)
    payload = f"{letters} {nonce}\n{board.record()}"
    expected = (board, tuple("human" if k in ("here", "friend") else k for k in seats), nonce)
    roll = rng.random()
    if roll < 0.15:
        prefix = rng.choice(["", "#", "  #", "https://example.org/skyline/#"])
        return Case("game_link", "valid", prefix + link + rng.choice(["", " ", "\n"]), expected)
    if roll < 0.18:
        return Case("game_link", "wrong_type", odd_value(rng))
    if roll < 0.2:
        return Case("game_link", "huge_string", rng.choice(["", "game?1."]) + big_text(rng))
    op = rng.randrange(12)
    if op == 0:  # a decompression bomb with a valid checksum
        return Case("game_link", "bomb", bomb(rng.choice([MAX_PAYLOAD_BYTES + 2, 10 * MB,
                                                          50 * MB])))
    if op == 1:  # not DEFLATE at all, checksum valid
        return Case("game_link", "random_bytes",
                    pack_raw(bytes(rng.randrange(256) for _ in range(rng.randrange(0, 60)))))
    if op == 2:  # a truncated DEFLATE stream, checksum valid
        packer = zlib.compressobj(9, zlib.DEFLATED, -15)
        deflated = packer.compress(payload.encode()) + packer.flush()
        return Case("game_link", "truncated_stream",
                    pack_raw(deflated[: rng.randrange(len(deflated))]))
    if op == 3:  # the record inside edited (legal or not), checksum recomputed
        record = record_case(random.Random(rng.random()), junk).value
        if not isinstance(record, str) or len(record) > 20_000:
            record = board.record() + " e"
        return Case("game_link", "edited_record",
                    pack(f"{letters} {nonce}\n{record}".encode("utf-8", "surrogatepass")))
    if op == 4:  # the seat line edited, checksum recomputed
        head = rng.choice([letters + "h", letters[:-1], "x" * len(letters), junk, letters,
                           letters.upper(), "", letters + " " + nonce + " x"])
        tail = rng.choice([" " + nonce, " " + junk, "", " " + "n" * 17])
        return Case("game_link", "edited_seats",
                    pack(f"{head}{tail}\n{board.record()}".encode("utf-8", "surrogatepass")))
    if op == 5:  # payload lines changed, checksum recomputed
        lines = payload.split("\n")
        lines = rng.choice([lines[:1], lines + [junk], [lines[1], lines[0]], lines[:1] * 3])
        return Case("game_link", "edited_lines",
                    pack("\n".join(lines).encode("utf-8", "surrogatepass")))
    if op == 6:
        return Case("game_link", "bad_bytes",
                    pack(rng.choice([b"\xff\xfe", b"h \n\xc0\xaf", payload.encode()[:-1]
                                     + b"\x80"])))
    if op == 7:
        version = rng.choice(["2", "0", "", "01", "1.1", junk[:8], "9" * 50])
        return Case("game_link", "wrong_version", link.replace("game?1.", f"game?{version}.", 1))
    if op == 8:
        return Case("game_link", "other_path",
                    rng.choice(["play?", "Game?", "game", "game1.", junk]) + link[5:])
    name, text = mutate_text(link, rng, junk)
    return Case("game_link", "text_" + name, text)


def check_game_link(case: Case, result: Any) -> str:
    problem = check_board(result.board)
    if problem:
        return problem
    if result.game_id != game_id(result.board, result.seats, result.nonce):
        return "game id differs from the one its options give"
    again = parse_game_link(make_game_link(result.board, result.seats, result.nonce))
    if (again.board.actions, again.seats, again.nonce, again.game_id) != (
            result.board.actions, result.seats, result.nonce, result.game_id):
        return "game link does not round-trip"
    return ""


def check_same_link(case: Case, result: Any) -> str:
    board, seats, nonce = case.expected
    problem = check_same_game(board, result.board)
    if not problem and (result.seats, result.nonce) != (seats, nonce):
        problem = "a valid link lost its seats or nonce"
    return problem


# --------------------------------------------------------------------------- list entries


def entry_case(rng: random.Random, junk: str) -> Case:
    board = pool_board(rng)
    entry = make_entry(board, random_seats(rng, len(board.options.names)),
                       nonce=random_nonce(rng), name=rng.choice([None, "Friday game", junk]),
                       updated="2026-12-01T10:00:00Z")
    data = json.loads(entry_to_json(entry))
    roll = rng.random()
    if roll < 0.12:
        return Case("entry", "valid", _dump(data, rng), entry)
    if roll < 0.15:
        return Case("entry", "wrong_type", odd_value(rng))
    if roll < 0.17:
        return Case("entry", "huge_string", rng.choice(["", '{"v":1,"x":"']) + big_text(rng))
    op = rng.randrange(9)
    if op == 0:  # extras damaged: the game must survive
        key = rng.choice(["name", "created", "updated", "diverged_from"])
        data[key] = _edit_leaf(data[key], rng, junk)
        return Case("entry", "damaged_extras", _dump(data, rng), entry)
    if op == 1:
        items = list(data.items())
        rng.shuffle(items)
        return Case("entry", "reordered_keys", _dump(dict(items), rng), entry)
    if op == 2:
        key = rng.choice(["seats", "nonce", "id", "game"])
        data[key] = _edit_leaf(data[key], rng, junk)
        how = "edited_" + key
    elif op == 3:  # the save inside damaged as the save fuzzer damages saves
        inner = save_case(random.Random(rng.random()), junk)
        if not isinstance(inner.value, str) or len(inner.value) > 200_000:
            data["save"] = rng.choice([None, 5, [], "x", {}])
        else:
            try:
                data["save"] = json.loads(inner.value)
            except (ValueError, RecursionError):
                data["save"] = inner.value
        how = "edited_save_" + inner.how
    elif op == 4:
        data["v"] = rng.choice([0, 2, -1, "1", 1.0, True, None, 10**400, []])
        how = "wrong_version"
    elif op == 5:
        data["kind"] = rng.choice(["skyline-save", "skyline-games", None, junk])
        how = "wrong_kind"
    elif op == 6:
        return Case("entry", "edited_entry", _dump(_edit_leaf(data, rng, junk), rng))
    else:
        name, text = mutate_text(_dump(data, rng), rng, junk)
        return Case("entry", "text_" + name, text)
    return Case("entry", how, _dump(data, rng))


def check_entry(case: Case, result: Any) -> str:
    problem = check_board(result.board)
    if problem:
        return problem
    again = read_entry(entry_to_json(result))
    if again != result._replace(board=again.board) or again.board.state != result.board.state:
        return "entry does not round-trip"
    return ""


def check_same_entry(case: Case, result: Any) -> str:
    expected = case.expected
    problem = check_same_game(expected.board, result.board)
    if not problem and (result.id, result.seats, result.nonce) != (
            expected.id, expected.seats, expected.nonce):
        problem = "a valid entry lost its id, seats or nonce"
    return problem


# --------------------------------------------------------------------------- the edges

#: A name of 24 characters of 4 UTF-8 bytes each: 288 characters once percent-encoded.
HEAVY_NAME = "\U0001d54f" * 24


@cache
def longest_board(players: int, heavy: bool = False) -> Board:
    """The longest game the rules allow for ``players`` (:mod:`skyline.rules.bounds`):
    all nine rounds; every turn takes the abandoned district (three ground floors in the
    solo game), rolls, then resolves its lowest die and rerolls the others until none
    is left, then ends: abandoning it (building it, solo). ``heavy``: the longest
    names, seed and scenario too (the longest record). Treat as read-only."""
    names = (HEAVY_NAME if heavy else "Ann",) * players
    seed = ("s" * 32) if heavy else "longest"
    scenario = "sao-paolo" if heavy and players == 1 else None
    board = Board(Options(names, seed, players - 1, True, scenario))
    ground = (DieType.GROUND,) * 3
    while not board.is_game_over():
        board.push(Take(ground) if players == 1 else TakeDistrict())
        board.push(Roll(tuple(d.id for d in board.state.dice)))
        while True:
            ids = sorted(d.id for d in board.state.dice)
            board.push(Build(ids[0]) if players == 1 else Abandon((ids[0],)))
            if len(ids) == 1:
                break
            board.push(Roll(tuple(ids[1:])))
        board.push(EndTurn())
    return board


@cache
def longest_prefix(players: int, actions: int) -> Board:
    """The first ``actions`` actions of the longest game (a game in progress)."""
    record = longest_board(players).record()
    head, _, body = record.partition("|")
    return Board.from_record(head + "| " + " ".join(body.split()[:actions]))


LONGEST_KINDS = ("record", "save", "game_link", "entry")


def longest_case(rng: random.Random, junk: str, kind: str | None = None,
                 players: int | None = None, heavy: bool | None = None) -> Case:
    """A longest legal game (whole, or stopped in progress) through one writer: its
    record, save, game link or game-list entry, which must give the game back.
    ``heavy`` (the longest names too) asks for a whole game."""
    players = players or rng.choice((1, 2, 3, 4, 4, 4))
    if heavy is None and rng.random() < 0.25:
        board = longest_prefix(players, rng.choice((100, 1000, 2000, 3000, 4000)))
        how = f"longest_{players}p_in_progress"
    else:
        heavy = rng.random() < 0.5 if heavy is None else heavy
        board = longest_board(players, heavy)
        how = f"longest_{players}p" + ("_heavy" if heavy else "")
    kind = kind or rng.choice(LONGEST_KINDS)
    if kind == "record":
        return Case("record", how, board.record(), board)
    if kind == "save":
        beat = MAX_BEAT if board.state.solo else None
        return Case("save", how, make_save(board, beat=beat, saved_at="\x00" * 40), board)
    seats = random_seats(rng, len(board.options.names))
    nonce = "n" * 16
    if kind == "game_link":
        expected = (board, tuple("human" if k in ("here", "friend") else k for k in seats),
                    nonce)
        return Case("game_link", how, make_game_link(board, seats, nonce), expected)
    entry = make_entry(board, seats, nonce=nonce, name="\x00" * 60,
                       created="\x00" * 40, updated="\x00" * 40)
    return Case("entry", how, entry_to_json(entry), entry)


def _padded(text: str, size: int, at: int = 0) -> str:
    """``text`` with spaces inserted at ``at`` up to ``size`` characters."""
    return text[:at] + " " * (size - len(text)) + text[at:]


LIMITS = ("link", "record", "actions", "save", "entry", "game_link", "payload",
          "solo_records", "index")


def limit_case(rng: random.Random, junk: str, which: str | None = None,
               over: bool | None = None) -> Case:
    """An input exactly at one of the readers' limits (valid: it must load) or one
    character or byte over it (it must be refused with that limit's code)."""
    over = rng.random() < 0.5 if over is None else over
    extra = 1 if over else 0
    board = pool_board(rng)
    which = which or rng.choice(LIMITS)
    how = f"{which}_{'over' if over else 'at'}_limit"
    if which == "link":
        options = random_options(rng)
        text = _padded(make_share_fragment(options), MAX_LINK_CHARS + extra)
        return Case("link", how, text, None if over else (validate_options(options), None),
                    "link" if over else None)
    if which == "record":
        text = _padded(board.record(), MAX_RECORD_CHARS + extra, len(board.record()))
        return Case("record", how, text, None if over else board,
                    "record_size" if over else None)
    if which == "actions":
        if not over:
            return Case("record", how, longest_board(4).record(), longest_board(4))
        text = longest_board(4).record() + " e"
        return Case("record", how, text, None, "record_size")
    if which in ("save", "entry"):
        if which == "save":
            text, expected, limit = make_save(board), board, MAX_SAVE_CHARS
        else:
            expected = make_entry(board, random_seats(rng, len(board.options.names)))
            text, limit = entry_to_json(expected), MAX_ENTRY_CHARS
        return Case(which, how, _padded(text, limit + extra, 1), None if over else expected,
                    "save_size" if over else None)
    if which == "game_link":
        seats = random_seats(rng, len(board.options.names))
        expected = (board, tuple("human" if k in ("here", "friend") else k for k in seats), "")
        text = _padded(make_game_link(board, seats), MAX_GAME_LINK_CHARS + extra)
        return Case("game_link", how, text, None if over else expected, "link" if over else None)
    if which == "payload":  # four seats, the longest nonce, a record at its own limit
        board = longest_prefix(4, rng.randrange(200))
        nonce = "n" * 16
        record = _padded(board.record(), MAX_RECORD_CHARS, len(board.record()))
        payload = f"hhhh {nonce}\n{record}".encode() + b" " * extra
        assert len(payload) == MAX_PAYLOAD_BYTES + extra
        expected = (board, ("human",) * 4, nonce)
        return Case("game_link", how, pack(payload), None if over else expected,
                    "game_size" if over else None)
    if which == "solo_records":
        text = solo_records_json(random_solo_records(rng))
        return Case("solo_records", how, _padded(text, MAX_RECORDS_CHARS + extra, 1),
                    None if over else read_solo_records(text)[0],
                    "records_size" if over else None)
    games = GameList([make_entry(board, random_seats(rng, len(board.options.names)))])
    text = games.index_json()
    return Case("index", how, _padded(text, MAX_INDEX_CHARS + extra, 1),
                None if over else read_index(text), "save_size" if over else None)


# --------------------------------------------------------------------------- solo records


def random_solo_records(rng: random.Random) -> dict[str, Any]:
    """Solo records as the page writes them, of a random history of play."""
    data = empty_solo_records()
    for slot in rng.sample(("-", *SCENARIOS), rng.randrange(0, 5)):
        data["best"][slot] = rng.randrange(0, 200)
    for level in rng.sample(("Project Manager", "Urban Planner", "Master Planner"),
                            rng.randrange(0, 3)):
        data["levels"][level] = rng.randrange(1, 50)
    for scenario in rng.sample(SCENARIOS, rng.randrange(0, 3)):
        data["scenarios"][scenario] = rng.randrange(1, 9)
    for day in range(rng.randrange(0, 40)):
        data["daily"][f"2026-{1 + day // 28:02d}-{1 + day % 28:02d}"] = {
            "best": rng.randrange(0, 150), "plays": rng.randrange(1, 9)}
    data["seen"] = [f"seed{i}|-|{i}|00000000" for i in range(rng.randrange(0, 60))][-50:]
    return data


def solo_records_case(rng: random.Random, junk: str) -> Case:
    """Solo records: valid ones (they must read back whole), damaged or foreign ones
    (the readable part is kept and the first problem named; never an exception)."""
    data = random_solo_records(rng)
    text = solo_records_json(data)
    roll = rng.random()
    if roll < 0.15:
        return Case("solo_records", "valid", text, read_solo_records(text)[0])
    if roll < 0.18:
        return Case("solo_records", "wrong_type", odd_value(rng))
    if roll < 0.2:
        return Case("solo_records", "huge_string", '{"v":1,"x":"' + big_text(rng))
    op = rng.randrange(5)
    if op == 0:
        data = {**data, "v": rng.choice([0, 2, 99, -1, "1", 1.0, True, None, 10**400, []])}
        return Case("solo_records", "wrong_version", _dump(data, rng))
    if op == 1:
        return Case("solo_records", "edited", _dump(_edit_leaf(data, rng, junk), rng))
    if op == 2:
        data = {**data, rng.choice(["best", "daily", "seen", junk[:10]]): _edit_leaf(
            {"x": [1]}, rng, junk)}
        return Case("solo_records", "edited_part", _dump(data, rng))
    if op == 3:
        depth = rng.choice([33, 1000, 100_000])
        return Case("solo_records", "deep_nesting", "[" * depth + "]" * depth)
    name, mutated = mutate_text(text, rng, junk)
    return Case("solo_records", "text_" + name, mutated)


# --------------------------------------------------------------------------- running

ERRORS = {"link": LinkError, "record": RecordError, "save": SaveError,
          "game_link": LinkError, "entry": SaveError, "index": SaveError,
          "solo_records": SoloRecordsError}


def _read(case: Case) -> Any:
    if case.kind == "link":
        return parse_share_fragment(case.value)
    if case.kind == "record":
        return Board.from_record(case.value)
    if case.kind == "game_link":
        return parse_game_link(case.value)
    if case.kind == "entry":
        return read_entry(case.value)
    if case.kind == "index":
        return read_index(case.value)
    if case.kind == "solo_records":
        data, problem = read_solo_records(case.value)  # total: never raises
        if problem is not None:
            if not isinstance(data, dict) or set(data) != set(empty_solo_records()):
                raise ValueError("damaged records gave no records")
            raise problem
        return data
    return read_save(case.value)


def run_case(case: Case, limit: float | None = None) -> Outcome:
    """Feed ``case`` to its reader and check what comes back (see the module doc); a
    case slower than ``limit`` seconds (if given) is a hang."""
    error = ERRORS[case.kind]
    start = time.perf_counter()
    try:
        result = _read(case)
    except error as exc:
        seconds = time.perf_counter() - start
        code = getattr(exc, "code", None)
        if not code or code == "internal" or not str(exc).strip():
            return Outcome("crash", f"{type(exc).__name__}:{code}", str(exc)[:200], seconds)
        if case.expected is not None:
            return Outcome("lost", code, f"{case.how}: {str(exc)[:200]}", seconds)
        if case.code is not None and code != case.code:
            return Outcome("crash", f"wrong_code:{code}",
                           f"{case.how}: refused as {code}, not {case.code}", seconds)
        if limit is not None and seconds > limit:
            return Outcome("hang", code, case.how, seconds)
        return Outcome("rejected", code, "", seconds)
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        seconds = time.perf_counter() - start
        return Outcome("crash", type(exc).__name__, f"{case.how}: {str(exc)[:200]}", seconds)
    seconds = time.perf_counter() - start
    if case.code is not None:
        return Outcome("crash", "over_limit_loaded", f"{case.how}: not refused", seconds)
    try:
        if case.kind in ("index", "solo_records"):
            problem = check_store(case, result)
        elif case.kind in ("game_link", "entry"):
            check, same = ((check_game_link, check_same_link) if case.kind == "game_link"
                           else (check_entry, check_same_entry))
            problem = check(case, result)
            if not problem and case.expected is not None:
                problem = same(case, result)
                if problem:
                    return Outcome("lost", None, f"{case.how}: {problem}", seconds)
        elif case.kind == "link":
            problem = check_link(case, result)
        else:
            board = result if case.kind == "record" else result.board
            problem = check_board(board)
            if not problem and case.expected is not None:
                problem = check_same_game(case.expected, board)
                if problem:
                    return Outcome("lost", None, f"{case.how}: {problem}", seconds)
            if not problem and case.kind == "save":
                again = read_save(make_save(board, beat=result.beat, takes=result.takes))
                if again.board.state != board.state or again.board.can_undo() != board.can_undo():
                    problem = "save does not round-trip"
    except Exception as exc:
        problem = f"check raised {type(exc).__name__}: {exc}"
    if problem:
        return Outcome("crash", "half_built", f"{case.how}: {problem}", seconds)
    if limit is not None and seconds > limit:
        return Outcome("hang", None, case.how, seconds)
    return Outcome("loaded", None, "", seconds)


def check_store(case: Case, result: Any) -> str:
    """Problems of a read index or solo records ('' if none): they round-trip, and a
    valid input gives back what was written."""
    if case.kind == "index":
        again = read_index(GameList().index_json()) if not result.rows else result
        if case.expected is not None and result != case.expected:
            return "a valid index lost rows"
        return "" if isinstance(again.rows, tuple) else "index rows are not a tuple"
    again, problem = read_solo_records(solo_records_json(result))
    if problem is not None or again != result:
        return "solo records do not round-trip"
    if case.expected is not None and result != case.expected:
        return "valid solo records lost a part"
    return ""


GENERATORS = {"link": link_case, "record": record_case, "save": save_case,
              "game_link": game_link_case, "entry": entry_case,
              "solo_records": solo_records_case}
#: The edges: the longest legal games through every writer and reader, and every
#: reader's limits (heavier cases: fewer of them are run).
EDGE_GENERATORS = {"longest": longest_case, "limits": limit_case}
