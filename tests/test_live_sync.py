"""Live tables: the message format (skyline.records.live) and the synchronisation
(skyline.records.live_table) over a fake transport that reorders, duplicates and drops
messages, with whole games played by a bot from each seat's device."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skyline import Board
from skyline.players.bots import get_bot
from skyline.records.live import (
    MAX_LIVE_CHARS,
    LiveError,
    make_actions,
    make_have,
    make_state,
    parse_live_message,
)
from skyline.records.live_table import LiveTable, Step, committed_length, live_seats

NAMES = ["Ann", "Bo", "Cy", "Di"]
BOT = get_bot("greedy")


def new_board(players: int, seed: str = "live") -> Board:
    return Board.new(NAMES[:players], seed=seed)


def bot_game(players: int, seed: str = "live", moves: int | None = None) -> Board:
    """A game played by the bot alone, to its end or for ``moves`` actions."""
    board, rng = new_board(players, seed), random.Random(seed)
    while not board.is_game_over() and (moves is None or len(board.actions) < moves):
        board.push(BOT(board.state, rng))
    return board


# --------------------------------------------------------------------------- the network


@dataclass
class Network:
    """Devices ``d0``, ``d1`` … (device i plays seat i) and the messages in flight. Each
    delivery takes a random message in flight (reordering); ``loss`` drops and ``dup``
    duplicates a share of them. ``offline`` devices neither send nor receive."""

    players: int
    rng: random.Random
    loss: float = 0.0
    dup: float = 0.0
    reloads: float = 0.0
    tables: dict[str, LiveTable] = field(default_factory=dict)
    flight: list[tuple[str, str, str]] = field(default_factory=list)
    offline: set[str] = field(default_factory=set)
    saved: dict[str, list[str]] = field(default_factory=dict)
    events: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for seat in range(self.players):
            name = f"d{seat}"
            self.tables[name] = LiveTable.start(new_board(self.players), [seat])
            self.saved[name] = [self.tables[name].board.record()]
        for name in self.tables:
            for other in self.tables:
                if other != name:
                    self.apply(name, self.tables[name].joined(other))

    def apply(self, device: str, step: Step) -> None:
        self.tables[device] = step.table
        if step.table.board.record() != self.saved[device][-1]:
            self.saved[device].append(step.table.board.record())  # saved after every action
        self.events += [(device, event.kind) for event in step.events]
        for out in step.send:
            targets = [out.to] if out.to is not None else [
                p for p in step.table.connected]
            for target in targets:
                if device not in self.offline and target not in self.offline:
                    self.flight.append((device, target, out.text))

    def deliver(self, lossy: bool = True) -> None:
        sender, target, text = self.flight.pop(self.rng.randrange(len(self.flight)))
        if lossy and self.rng.random() < self.loss:
            return
        if lossy and self.rng.random() < self.dup:
            self.flight.append((sender, target, text))
        if target in self.tables and target not in self.offline:
            self.apply(target, self.tables[target].receive(sender, text))

    def reload(self, device: str) -> None:
        """``device`` closes its tab and opens the game again from its last save: its
        connections close (what is in flight to or from it is lost) and open again."""
        self.flight = [m for m in self.flight if device not in m[:2]]
        for name in self.tables:
            if name != device:
                self.apply(name, self.tables[name].left(device))
        seat = int(device[1:])
        self.tables[device] = LiveTable.start(Board.from_record(self.saved[device][-1]),
                                              [seat])
        for name in self.tables:
            if name != device:
                self.apply(device, self.tables[device].joined(name))
                self.apply(name, self.tables[name].joined(device))

    def move(self, bot_rng: random.Random) -> bool:
        """The device whose seat is to move makes one action; whether one did."""
        for name, table in self.tables.items():
            if name not in self.offline and table.may_move():
                self.apply(name, table.act(BOT(table.board.state, bot_rng)))
                return True
        return False

    def settle(self, rounds: int = 50) -> None:
        """Deliver everything without loss, pinging, until nothing is in flight."""
        for _ in range(rounds):
            while self.flight:
                self.deliver(lossy=False)
            if len(self.records()) == 1:
                return
            for name, table in self.tables.items():
                self.apply(name, table.ping())
        raise AssertionError("the network did not settle")

    def play(self, bot_rng: random.Random, limit: int = 40_000) -> None:
        for _ in range(limit):
            if all(t.game.is_game_over() for t in self.tables.values()) and not self.flight:
                return
            roll = self.rng.random()
            if self.rng.random() < self.reloads:
                self.reload(self.rng.choice(sorted(self.tables)))
            elif self.flight and roll < 0.6:
                self.deliver()
            elif not self.move(bot_rng):
                if self.flight:
                    self.deliver()
                else:  # everyone waits: a lost message is noticed by a ping
                    name = self.rng.choice(sorted(self.tables))
                    self.apply(name, self.tables[name].ping())
        raise AssertionError("the game did not finish")

    def records(self) -> set[str]:
        return {table.game.record() for table in self.tables.values()}


def assert_same_legal_game(net: Network) -> None:
    records = net.records()
    assert len(records) == 1, records
    (record,) = records
    replayed = Board.from_record(record)
    assert replayed.is_game_over()
    assert replayed.record() == record
    for name, table in net.tables.items():
        assert table.agreed == len(replayed.actions), name


# --------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_games_over_a_lossy_network_with_reloads(players: int) -> None:
    """A bot plays each seat from its own device; messages are reordered, 15% dropped,
    15% duplicated, and now and then a device reloads from its last save."""
    for seed in range(2):
        net = Network(players, random.Random(seed), loss=0.15, dup=0.15, reloads=0.01)
        net.play(random.Random(100 + seed))
        net.settle()
        assert_same_legal_game(net)
        kinds = {kind for _, kind in net.events}
        assert {"played", "duplicate", "gap", "adopted", "left"} <= kinds


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), loss=st.floats(0, 0.3), dup=st.floats(0, 0.3),
       reloads=st.sampled_from([0.0, 0.002, 0.01]), players=st.integers(2, 4))
def test_any_network_ends_with_one_game(seed: int, loss: float, dup: float, reloads: float,
                                        players: int) -> None:
    """Whatever the losses, duplicates, reorderings and reloads (each from the device's
    last save), every device ends with the same whole game."""
    net = Network(players, random.Random(seed), loss=loss, dup=dup, reloads=reloads)
    net.play(random.Random(seed))
    net.settle()
    assert_same_legal_game(net)


def test_a_device_that_reloads_catches_up() -> None:
    net = Network(3, random.Random(5), loss=0.1, dup=0.1)
    bot_rng = random.Random(5)
    for _ in range(120):
        net.move(bot_rng)
        while net.flight:
            net.deliver()
    net.settle()
    # d1 closes its tab, loses its last saves, and starts from an older saved record
    old = net.saved["d1"][len(net.saved["d1"]) // 2]
    for name in ("d0", "d2"):
        net.apply(name, net.tables[name].left("d1"))
    net.tables["d1"] = LiveTable.start(Board.from_record(old), [1])
    assert net.tables["d1"].agreed < net.tables["d0"].agreed
    assert not net.tables["d1"].may_move()  # it catches up before it plays
    for name in ("d0", "d2"):
        net.apply("d1", net.tables["d1"].joined(name))
        net.apply(name, net.tables[name].joined("d1"))
    while net.flight:  # the hellos alone bring it up to date
        net.deliver(lossy=False)
    assert len(net.records()) == 1
    assert ("d1", "adopted") in net.events
    net.play(bot_rng)
    net.settle()
    assert_same_legal_game(net)


def test_a_device_offline_for_a_turn_catches_up() -> None:
    net = Network(3, random.Random(9))
    bot_rng = random.Random(9)
    while net.tables["d0"].board.state.seat != 1:  # Bo is to move
        net.move(bot_rng)
        net.settle()
    net.offline.add("d2")  # Cy's connections close
    for name in ("d0", "d1"):
        net.apply(name, net.tables[name].left("d2"))
        net.apply("d2", net.tables["d2"].left(name))
    assert not net.tables["d0"].seat_connected(2) and net.tables["d0"].seat_connected(1)
    while net.tables["d0"].board.state.seat == 1:  # Bo plays a whole turn; Cy is away
        assert net.move(bot_rng)
        while net.flight:
            net.deliver(lossy=False)
    behind = net.tables["d2"].agreed
    assert behind < net.tables["d0"].agreed
    assert not net.move(bot_rng)  # Cy is to move: the table waits for her
    net.offline.discard("d2")
    for name in ("d0", "d1"):  # the connections open again
        net.apply(name, net.tables[name].joined("d2"))
        net.apply("d2", net.tables["d2"].joined(name))
    while net.flight:  # the hellos alone bring it up to date
        net.deliver(lossy=False)
    assert len(net.records()) == 1 and net.tables["d2"].agreed > behind
    assert net.tables["d0"].seat_connected(2)
    net.play(bot_rng)
    net.settle()
    assert_same_legal_game(net)


# --------------------------------------------------------------------------- named cases


def pair(players: int = 2) -> tuple[LiveTable, LiveTable]:
    """Ann's and Bo's tables, each knowing the other."""
    ann = LiveTable.start(new_board(players), [0])
    bo = LiveTable.start(new_board(players), [1])
    ann = ann.receive("bo", bo.joined("ann").send[0].text).table
    bo = bo.receive("ann", ann.joined("bo").send[0].text).table
    return ann, bo


def ann_turn(ann: LiveTable) -> tuple[LiveTable, list[str]]:
    """Ann plays a whole turn; the messages she sends."""
    rng, texts = random.Random(1), list[str]()
    while ann.board.state.seat == 0:
        step = ann.act(BOT(ann.board.state, rng))
        ann, texts = step.table, texts + [out.text for out in step.send]
    return ann, texts


def test_actions_are_sent_once_committed_and_played_by_the_engine() -> None:
    ann, bo = pair()
    step = ann.act("tGGU")
    assert step.send == ()  # the take can still be undone
    ann = step.table.undo().table.act("tGGG").table
    step = ann.act("r0.1.2")
    (out,) = step.send
    assert out.to is None and out.text == "L1 A 1 tGGG r0.1.2"
    received = bo.receive("ann", out.text)
    assert [e.kind for e in received.events] == ["played"]
    assert received.table.board.record() == step.table.board.record()


def test_a_device_that_reloads_mid_turn_keeps_its_undoable_steps() -> None:
    ann, bo = pair()
    saved = ann.act("tGGU").table.board.record()  # saved after the take, then reloaded
    ann = LiveTable.start(Board.from_record(saved), [0])
    assert len(ann.board.actions) == 1 and ann.agreed == 0 and not ann.may_move()
    ann = ann.receive("bo", bo.ping().send[0].text).table
    assert ann.act("r0.1.2").send[0].text == "L1 A 1 tGGU r0.1.2"
    assert ann.undo().table.board.actions == ()
    # another seat's undoable steps in a save are not the game
    assert LiveTable.start(Board.from_record(saved), [1]).board.actions == ()


def test_a_duplicate_is_ignored() -> None:
    ann, bo = pair()
    ann, texts = ann_turn(ann)
    for text in texts:
        bo = bo.receive("ann", text).table
    step = bo.receive("ann", texts[0])
    assert [e.kind for e in step.events] == ["duplicate"] and step.send == ()
    assert step.table.board.record() == ann.board.record()


def test_a_stale_action_is_ignored_and_answered_with_the_game() -> None:
    ann, bo = pair()
    ann, texts = ann_turn(ann)
    for text in texts:
        bo = bo.receive("ann", text).table
    step = bo.receive("ann", "L1 A 1 tUUU r0.1.2")  # move 1 was another take
    assert [e.kind for e in step.events] == ["stale"]
    assert step.table.board.record() == bo.board.record()
    (answer,) = step.send
    assert answer.to == "ann" and parse_live_message(answer.text).kind == "S"


def test_a_gap_asks_for_the_game_and_the_answer_fills_it() -> None:
    ann, bo = pair()
    ann, texts = ann_turn(ann)
    assert len(texts) >= 2
    step = bo.receive("ann", texts[1])  # the first message was lost
    assert [e.kind for e in step.events] == ["gap"] and step.table.agreed == 0
    (ask,) = step.send
    reply = ann.receive("bo", ask.text)
    (state,) = reply.send
    caught = step.table.receive("ann", state.text)
    assert [e.kind for e in caught.events] == ["adopted"]
    assert caught.table.board.record() == ann.board.record()


def test_an_illegal_action_is_refused() -> None:
    ann, bo = pair()
    step = bo.receive("ann", "L1 A 1 tGGU b0@7 e")  # a build before the roll
    assert [(e.kind, e.number) for e in step.events] == [("illegal", 2)]
    assert step.table.agreed == 0 and step.table.board.actions == ()


def test_actions_that_are_not_committed_are_refused() -> None:
    ann, bo = pair()
    step = bo.receive("ann", "L1 A 1 tGGU")  # a take that could still be undone
    assert [(e.kind, e.detail) for e in step.events] == [("illegal", "uncommitted")]
    assert step.table.board.actions == () and step.send[0].to == "ann"


def test_a_device_whose_hello_was_lost_is_synced_by_a_ping() -> None:
    ann = LiveTable.start(new_board(2), [0])
    bo = LiveTable.start(new_board(2), [1])
    assert not ann.may_move()
    ann = ann.joined("bo").table  # its hello is lost
    ann = ann.receive("bo", bo.ping().send[0].text).table
    assert ann.may_move() and ann.act("tGGU").table.act("r0.1.2").table.agreed == 2


def test_a_forged_seat_is_refused() -> None:
    ann, bo = pair(3)
    cy = LiveTable.start(new_board(3), [2])
    ann = ann.receive("cy", cy.joined("ann").send[0].text).table
    # Cy's device sends a move for Ann's seat, and Bo's device a move for Ann's seat
    for peer in ("cy", "bo"):
        step = ann.receive(peer, "L1 A 1 tGGU r0.1.2")
        assert [(e.kind, e.detail) for e in step.events] == [("forged", "0")]
        assert step.table.board.actions == ()
    step = bo.receive("cy", "L1 A 1 tGGU r0.1.2")  # Bo's device has no hello from Cy
    assert [e.kind for e in step.events] == ["unknown_peer"]
    bo = bo.receive("cy", cy.joined("bo").send[0].text).table
    step = bo.receive("cy", "L1 A 1 tGGU r0.1.2")  # Cy's device moves for Ann, seen by Bo
    assert [(e.kind, e.detail) for e in step.events] == [("forged", "0")]
    # a whole game that plays Ann's turn for her, once she has moved herself
    ann, _ = ann_turn(ann)
    forged = ann.game
    rng = random.Random(3)
    while forged.state.seat != 0 or forged.state.round == 1:
        forged.push(BOT(forged.state, rng))
    forged.push(BOT(forged.state, rng))
    forged.push(BOT(forged.state, rng))
    step = ann.receive("bo", make_state(forged.at(committed_length(forged)), [1]))
    assert "forged" in [e.kind for e in step.events]
    assert step.table.board.record() == ann.board.record()


def test_a_claim_of_a_seat_someone_plays_is_refused() -> None:
    ann, _ = pair()
    step = ann.receive("eve", make_state(new_board(2), [0, 1], hello=True))
    assert [(e.kind, e.number) for e in step.events] == [("seat_taken", 0), ("seat_taken", 1)]
    assert step.table.peers["eve"] == ()
    assert ann.act("tGGU").table.act("r0.1.2").table.agreed == 2


def test_the_longer_legal_game_wins_and_a_losing_one_is_answered() -> None:
    ann, bo = pair()
    ann, _ = ann_turn(ann)
    longer = make_state(ann.game, [0])
    step = bo.receive("ann", longer)
    assert [e.kind for e in step.events] == ["adopted"] and step.send == ()
    back = ann.receive("bo", make_state(new_board(2), [1]))  # Bo's old game
    assert [e.kind for e in back.events] == ["refused"]
    assert back.table.board.record() == ann.board.record()
    (answer,) = back.send
    game = parse_live_message(answer.text).board
    assert answer.to == "bo" and game is not None and game.record() == ann.game.record()


def test_a_diverging_game_follows_the_order_of_games() -> None:
    """Two different games of one table: each device adopts the winner or answers with
    it, so both end with the same game, whichever it hears first."""
    rng = random.Random(8)
    games = []
    for first, length in (("tGGG", 20), ("tUUU", 20), ("tGGU", 31)):
        board = new_board(2)
        board.push_text(first)
        while len(board.actions) < length or committed_length(board) != len(board.actions):
            board.push(BOT(board.state, rng))
        games.append(board)
    games += [Board.from_record(f"{new_board(2).record()}{take} r0.1.2")
              for take in ("tGGG", "tUUU")]  # the same length: the text decides
    for one, two in [(games[0], games[1]), (games[1], games[2]), (games[2], games[0]),
                     (games[3], games[4]), (games[4], games[3])]:
        assert one.actions[0] != two.actions[0]
        a, b = LiveTable.start(one, []), LiveTable.start(two, [])
        step = a.receive("b", make_state(two, [], hello=True))
        answer = b.receive("a", step.send[0].text)
        a = step.table
        b = answer.table
        for out in answer.send:
            a = a.receive("b", out.text).table
        assert a.game.record() == b.game.record()
        longer = max(one, two, key=lambda g: (len(g.actions), [-ord(c) for c in g.record()]))
        assert a.game.record() == longer.record()


def test_other_games_and_malformed_messages_are_refused() -> None:
    ann, _ = pair()
    step = ann.receive("bo", make_state(Board.new(["Ann", "Bo"], seed="other"), [1]))
    assert [(e.kind, e.detail) for e in step.events] == [("refused", "other_game")]
    for text in ["", "L1", "L2 A 1 e", "L1 Q 1", "L1 A 1", "L1 A x e", "L1 N 3 xyz",
                 "L1 S 9 0 skyline1 | ", "L1 S 0 1 " + new_board(2).record(), 7, None,
                 "L1 A 1 tGGU zz", "x" * (MAX_LIVE_CHARS + 1)]:
        step = ann.receive("bo", text)
        assert [e.kind for e in step.events] == ["malformed"] and step.table is ann


def mutated(text: str, rng: random.Random) -> str:
    """``text`` truncated, with a character changed, inserted or deleted, or a field
    doubled or dropped."""
    way = rng.randrange(5)
    at = rng.randrange(len(text) + 1)
    if way == 0:
        return text[:at]
    if way == 1:
        return text[:at] + rng.choice("L1AHSN0123456789 |@.xterbpGUPD\x00é\n") + text[at:]
    if way == 2:
        return text[:at] + text[at + 1:]
    fields = text.split(" ")
    index = rng.randrange(len(fields))
    if way == 3:
        return " ".join(fields[:index] + [fields[index]] + fields[index:])
    return " ".join(fields[:index] + fields[index + 1:])


@given(st.text(max_size=80))
def test_any_text_is_a_message_or_a_live_error(text: str) -> None:
    try:
        parse_live_message(text)
    except LiveError as error:
        assert error.code.startswith("live_")


def test_mutated_messages_never_break_a_table_or_its_game() -> None:
    """Thousands of damaged messages: each is read or refused with a LiveError, and a
    table that receives it never raises and always holds a legal game."""
    rng = random.Random(48)
    ann, bo = pair(3)
    ann, texts = ann_turn(ann)
    board = bot_game(3, moves=60)
    valid = texts + [make_state(board.at(committed_length(board)), [1]),
                     make_state(board.at(committed_length(board)), [2], hello=True),
                     make_have(board), "L1 A 3 b0 b1@0 e"]
    outcomes = set()
    for _ in range(3_000):
        text = mutated(rng.choice(valid), rng)
        try:
            parse_live_message(text)
            outcomes.add("read")
        except LiveError as error:
            outcomes.add(error.code)
        step = bo.receive("ann", text)
        game = step.table.game
        assert Board.from_record(game.record()).record() == game.record()
        assert all(isinstance(out.text, str) for out in step.send)
    assert {"read", "live_field", "live_action", "live_record", "live_format"} <= outcomes


@pytest.mark.parametrize(("text", "code", "params"), [
    (3, "live_type", {}),
    ("x" * (MAX_LIVE_CHARS + 1), "live_size", {"limit": MAX_LIVE_CHARS}),
    ("hello", "live_format", {}),
    ("L2 A 1 e", "live_version", {"version": "2"}),
    ("L1 Z 1", "live_kind", {"kind": "Z"}),
    ("L1 A 0 e", "live_field", {"field": "number"}),
    ("L1 A 4068 e e", "live_field", {"field": "actions"}),
    ("L1 A 1", "live_field", {"field": "actions"}),
    ("L1 A 1 e  e", "live_action", {"number": 2}),
    ("L1 A 3 e q", "live_action", {"number": 4}),
    ("L1 N 2 ABCDEF01", "live_field", {"field": "crc"}),
    ("L1 N 01 abcdef01", "live_field", {"field": "count"}),
    ("L1 S 10 0 skyline1 players=Ann,Bo seed=s start=0 nine=0 scenario=- | ",
     "live_field", {"field": "seats"}),
    ("L1 S 2 0 skyline1 players=Ann,Bo seed=s start=0 nine=0 scenario=- | ",
     "live_field", {"field": "seats"}),
    ("L1 S 0 1 skyline1 players=Ann,Bo seed=s start=0 nine=0 scenario=- | ",
     "live_field", {"field": "count"}),
    ("L1 S 0 1 skyline1 players=Ann,Bo seed=s start=0 nine=0 scenario=- | e",
     "live_record", {"record_code": "record_action", "number": 1}),
])
def test_a_malformed_message_raises_a_precise_error(text: object, code: str,
                                                     params: dict[str, object]) -> None:
    with pytest.raises(LiveError) as caught:
        parse_live_message(text)
    assert caught.value.code == code and caught.value.params == params
    assert isinstance(caught.value, ValueError)


def test_messages_round_trip_and_the_writers_refuse_bad_input() -> None:
    board = bot_game(4)
    message = parse_live_message(make_state(board, [3, 1]))
    assert message.kind == "S" and message.seats == (1, 3) and message.board is not None
    assert message.board.record() == board.record() and message.length == len(board.actions)
    have = parse_live_message(make_have(board))
    assert have.length == len(board.actions) and len(have.crc) == 8
    with pytest.raises(ValueError):
        make_actions(0, ["e"])
    with pytest.raises(ValueError):
        make_actions(1, ["nope"])
    with pytest.raises(ValueError):
        make_state(board, [4])


def test_live_seats_and_the_seat_rules() -> None:
    assert live_seats(("here", "expert", "friend")) == (0, 1)
    assert live_seats(("friend", "expert", "here")) == (2,)
    ann, bo = pair()
    with pytest.raises(ValueError):
        bo.act("tGGU")  # Ann is to move
    with pytest.raises(ValueError):
        ann.undo()  # nothing to undo
    with pytest.raises(ValueError):
        LiveTable.start(new_board(2), [2])


def message_sizes(players: int) -> tuple[list[int], list[int]]:
    """Byte sizes of every action message sent and of the final state, over 20 seeded
    games of greedy bots played through a live table."""
    actions: list[int] = []
    states: list[int] = []
    for seed in range(20):
        rng = random.Random(seed)
        table = LiveTable(Board.new(NAMES[:players], seed=f"size{seed}"),
                          frozenset(range(players)), 0, synced=True)
        while not table.board.is_game_over():
            step = table.act(BOT(table.board.state, rng))
            table, actions = step.table, actions + [len(o.text.encode()) for o in step.send]
        states.append(len(make_state(table.game, [0]).encode()))
    return actions, states


@pytest.mark.parametrize(("players", "state_figures", "action_range"), [
    (2, (411, 679, 772), (11, 34)),
    (3, (390, 1_037, 1_233), (11, 36)),
    (4, (761, 1_346, 1_545), (11, 35)),
])
def test_message_sizes_are_those_in_the_docs(players: int, state_figures: tuple[int, ...],
                                             action_range: tuple[int, int]) -> None:
    """The figures of docs/formats.md (Live tables, Sizes)."""
    actions, states = message_sizes(players)
    assert (min(states), round(sum(states) / len(states)), max(states)) == state_figures
    assert (min(actions), max(actions)) == action_range
    assert sorted(actions)[len(actions) // 2] in (17, 18)
