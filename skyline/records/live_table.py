"""Live tables: the synchronisation of one game among devices, as a pure state machine.

A :class:`LiveTable` is one device's view of a live game: its :attr:`~LiveTable.board`
(the agreed actions, then this device's own actions that may still be undone), the seats
this device plays (:attr:`~LiveTable.mine`) and the seats each peer has claimed. Every
method is a reducer: it returns a :class:`Step` with the new table, the messages to send
(:class:`Outgoing`, in the format of :mod:`skyline.records.live`) and what happened
(:class:`Event`), and changes nothing else. No I/O, no clock: the page passes in what
arrived and sends what comes out.

The page calls :meth:`~LiveTable.act` ("I made this action"), :meth:`~LiveTable.undo`,
:meth:`~LiveTable.receive` ("this message arrived from peer X"),
:meth:`~LiveTable.joined` and :meth:`~LiveTable.left` (a peer's connection opened or
closed) and :meth:`~LiveTable.ping` (now and then: "this is how far I am", which lets a
device notice a lost last message).

The rules:

- A device moves only for its own seats; its actions are sent when they are committed
  (a roll, the end of a turn, the end of the game): the steps before may still be undone,
  so they stay on the device until then.
- A received action is played through the engine with its move number. A duplicate is
  ignored; a stale one (a move number this device already has, with another action) is
  ignored and answered with this device's game; a gap (a message lost or reordered) asks
  the sender for its game; an illegal action, or one for a seat its sender has not
  claimed, is refused.
- Games are ordered: the longer record wins, and between two different records of the
  same length the one whose text sorts first. A received game that wins is adopted, one
  that loses is answered with this device's. Since every device applies the same order,
  and any device that is behind asks or is answered, the devices that can reach each
  other end with the same game.
- A device moves only once it has compared its game with a peer's since it started, so
  a device that reloads an older save catches up before it plays.
- A received game that continues this device's is refused when it holds moves for this
  device's seats that this device did not make: once it has moved in this session, every
  move of its seats is in its own record. (Before its first move, after a reload, it
  adopts its own moves that it sent before it closed.)

>>> from skyline import Board
>>> ann = LiveTable.start(Board.new(["Ann", "Bo"], seed="demo"), [0])
>>> bo = LiveTable.start(Board.new(["Ann", "Bo"], seed="demo"), [1])
>>> step = bo.joined("ann"); [out.text[:8] for out in step.send]
['L1 H 1 0']
>>> ann = ann.joined("bo").table.receive("bo", step.send[0].text).table
>>> ann.peers
{'bo': (1,)}
>>> ann = ann.act("tGGU").table; step = ann.act("r0.1.2"); step.send
(Outgoing(to=None, text='L1 A 1 tGGU r0.1.2'),)
>>> step = bo.receive("ann", step.send[0].text)
>>> step.events
(Event(kind='unknown_peer', peer='ann', number=1, detail=''),)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from ..rules import Action, Board, EndTurn, IllegalActionError, Roll, parse_action
from .game_links import compare
from .live import (
    ACTIONS,
    HAVE,
    HELLO,
    LiveError,
    LiveMessage,
    make_actions,
    make_have,
    make_state,
    parse_live_message,
    record_crc,
)
from .seats import Seat


class Outgoing(NamedTuple):
    """A message to send: ``to`` a peer, or to every connected peer when ``None``."""

    to: str | None
    text: str


class Event(NamedTuple):
    """What happened, for the page to show: ``kind`` (below), the peer it came from, the
    move number concerned and a detail (the actions played, an error code).

    ``played`` (a peer's actions, ``detail`` their notation), ``adopted`` (a peer's longer
    game, ``detail`` the new actions' notation), ``duplicate``, ``stale``, ``gap``,
    ``illegal`` (``detail`` the engine's code), ``forged`` (a move for a seat the sender
    does not play), ``refused`` (a game that loses or is not this game: ``detail`` why),
    ``malformed`` (``detail`` the :class:`~skyline.records.live.LiveError` code),
    ``unknown_peer`` (actions before a hello: the hello is asked for), ``seat_taken`` (a
    claim of a seat someone else plays, ``number`` the seat), ``dropped`` (this device's
    undoable steps no longer fit the game and were dropped), ``joined``, ``left``.
    """

    kind: str
    peer: str | None
    number: int = 0
    detail: str = ""


class Step(NamedTuple):
    """A reducer's result: the new table, what to send, what happened."""

    table: LiveTable
    send: tuple[Outgoing, ...] = ()
    events: tuple[Event, ...] = ()


def committed_length(board: Board) -> int:
    """How many of the game's actions are final: up to the last roll or end of turn, or
    all of them once the game is over (the steps after may still be undone).

    >>> b = Board.new(["Ann"], seed="demo"); b.push_text("tGGU"); committed_length(b)
    0
    >>> b.push_text("r0.1.2"); b.push_text("b0"); committed_length(b)
    2
    """
    if board.is_game_over():
        return len(board.actions)
    actions = board.actions
    for index in range(len(actions), 0, -1):
        if isinstance(actions[index - 1], Roll | EndTurn):
            return index
    return 0


def live_seats(seats: Sequence[str]) -> tuple[int, ...]:
    """The seats a device moves for at a live table, from its seats (``here``, ``friend``
    or a computer level): its own, and the computer seats when it plays the game's
    first human seat (so exactly one device plays the computers).

    >>> live_seats(("friend", "expert", "here")), live_seats(("here", "greedy", "friend"))
    ((2,), (0, 1))
    """
    kinds = [Seat.from_code(code) for code in seats]
    here = [i for i, kind in enumerate(kinds) if kind.is_here]
    first_human = next((i for i, kind in enumerate(kinds) if not kind.is_computer), None)
    computers = [i for i, kind in enumerate(kinds) if kind.is_computer]
    return tuple(sorted(here + (computers if here and here[0] == first_human else [])))


def _wins(theirs: Board, ours: Board) -> bool:
    """Whether ``theirs`` comes after ``ours`` in the order of games."""
    if len(theirs.actions) != len(ours.actions):
        return len(theirs.actions) > len(ours.actions)
    return theirs.record() < ours.record()


def common_length(a: Sequence[Action], b: Sequence[Action]) -> int:
    """How many actions two records share from their start.

    >>> b = Board.new(["Ann"], seed="demo"); b.push_text("tGGU"); common_length(b.actions, ())
    0
    """
    size = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        size += 1
    return size


@dataclass(frozen=True)
class LiveTable:
    """One device's live table (see the module doc). Build it with :meth:`start`."""

    board: Board
    mine: frozenset[int]
    agreed: int
    peers: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    connected: frozenset[str] = frozenset()
    moved: bool = False
    synced: bool = False

    @classmethod
    def start(cls, board: Board, mine: Iterable[int]) -> LiveTable:
        """A table for ``board`` (a new game or the last one saved here; its undoable
        steps are kept when they are this device's) where this device plays ``mine``."""
        seats = frozenset(mine)
        if any(isinstance(s, bool) or not isinstance(s, int)
               or not 0 <= s < len(board.options.names) for s in seats):
            raise ValueError(f"seats: {sorted(seats, key=str)} are not all seats of this game")
        agreed = committed_length(board)
        if agreed < len(board.actions) and board.at(agreed).state.seat not in seats:
            board = board.at(agreed)  # another seat's undoable steps are not the game
        return cls(board.copy(), seats, agreed)

    # ------------------------------------------------------------------ queries

    @property
    def game(self) -> Board:
        """The agreed game (without this device's undoable steps)."""
        return self.board.at(self.agreed)

    def seat_connected(self, seat: int) -> bool:
        """Whether the seat is played here or by a connected peer (else the table waits)."""
        return seat in self.mine or any(
            seat in seats and peer in self.connected for peer, seats in self.peers.items())

    def may_move(self) -> bool:
        """Whether this device may move now: it has compared its game with a peer's since
        it started (a device that reloads an old save first catches up), the game is on
        and the seat to move is its."""
        return (self.synced and not self.board.is_game_over()
                and self.board.state.seat in self.mine)

    # ------------------------------------------------------------------ this device

    def act(self, action: Action | str) -> Step:
        """This device made ``action``: it is played (an illegal one or another seat's
        raises :class:`~skyline.IllegalActionError`) and sent once it is committed."""
        if not self.synced:
            raise IllegalActionError("not_synced", "no peer's game has been compared yet")
        if self.board.is_game_over():
            raise IllegalActionError("game_over", "the game is over")
        if self.board.state.seat not in self.mine:
            raise IllegalActionError(
                "not_your_seat", f"seat {self.board.state.seat} is not played on this device")
        board = self.board.copy()
        board.push(parse_action(action) if isinstance(action, str) else action)
        done = committed_length(board)
        if done == self.agreed:
            return Step(replace(self, board=board))
        text = make_actions(self.agreed + 1, board.actions[self.agreed:done])
        return Step(replace(self, board=board, agreed=done, moved=True), (Outgoing(None, text),))

    def undo(self) -> Step:
        """Take back this device's last step that is not yet sent."""
        if len(self.board.actions) <= self.agreed or not self.board.can_undo():
            raise IllegalActionError("no_undo", "nothing to undo: a roll or a finished turn "
                                     "is final")
        board = self.board.copy()
        board.pop()
        return Step(replace(self, board=board))

    def ping(self) -> Step:
        """Tell every peer how far this device is (a lost last message is noticed)."""
        return Step(self, (Outgoing(None, make_have(self.game)),))

    def joined(self, peer: str) -> Step:
        """A peer's connection opened: greet it with this device's seats and game."""
        table = replace(self, connected=self.connected | {peer})
        return Step(table, (Outgoing(peer, self._state(hello=True)),), (Event("joined", peer),))

    def left(self, peer: str) -> Step:
        """A peer's connection closed: its seats are free to be claimed again."""
        peers = {p: s for p, s in self.peers.items() if p != peer}
        table = replace(self, peers=peers, connected=self.connected - {peer})
        return Step(table, (), (Event("left", peer),))

    def _state(self, *, hello: bool = False) -> str:
        return make_state(self.game, self.mine, hello=hello)

    # ------------------------------------------------------------------ peers

    def receive(self, peer: str, text: object) -> Step:
        """A message arrived from ``peer``; never raises (a malformed one is an event)."""
        try:
            message = parse_live_message(text)
        except LiveError as exc:
            return Step(self, (), (Event("malformed", peer, 0, exc.code),))
        if message.kind == ACTIONS:
            return self._actions(peer, message)
        if message.kind == HAVE:
            return self._have(peer, message)
        return self._game(peer, message)

    def _answer(self, peer: str, *events: Event) -> Step:
        return Step(self, (Outgoing(peer, self._state()),), events)

    def _actions(self, peer: str, message: LiveMessage) -> Step:
        first, actions = message.number, message.actions
        if first > self.agreed + 1:
            return Step(self, (Outgoing(peer, make_have(self.game)),),
                        (Event("gap", peer, first),))
        known = self.board.actions[first - 1:min(self.agreed, first - 1 + len(actions))]
        if tuple(actions[:len(known)]) != known:
            return self._answer(peer, Event("stale", peer, first))
        new = actions[len(known):]
        if not new:
            return Step(self, (), (Event("duplicate", peer, first),))
        if peer not in self.peers:
            return Step(self, (Outgoing(peer, self._state(hello=True)),),
                        (Event("unknown_peer", peer, first),))
        board, number = self.game, self.agreed + 1
        for offset, action in enumerate(new):
            seat = board.state.seat
            if seat not in self.peers[peer] or seat in self.mine:
                return Step(self, (), (Event("forged", peer, number + offset, str(seat)),))
            try:
                board.push(action)
            except IllegalActionError as exc:
                return self._answer(peer, Event("illegal", peer, number + offset, exc.code))
        if committed_length(board) != len(board.actions):
            return self._answer(peer, Event("illegal", peer, len(board.actions), "uncommitted"))
        table, events = self._take(board)
        played = Event("played", peer, number, " ".join(str(a) for a in new))
        return Step(table, (), (played, *events))

    def _take(self, game: Board) -> tuple[LiveTable, tuple[Event, ...]]:
        """This table with ``game`` agreed, and this device's undoable steps replayed on it
        when they still fit."""
        board = game.copy()
        for action in self.board.actions[self.agreed:]:
            if board.state.seat not in self.mine:
                return replace(self, board=game, agreed=len(game.actions)), (
                    Event("dropped", None, len(game.actions) + 1),)
            try:
                board.push(action)
            except IllegalActionError:
                return replace(self, board=game, agreed=len(game.actions)), (
                    Event("dropped", None, len(game.actions) + 1),)
        return replace(self, board=board, agreed=len(game.actions)), ()

    def _have(self, peer: str, message: LiveMessage) -> Step:
        if message.length < self.agreed or (
                message.length == self.agreed and message.crc != record_crc(self.game.record())):
            return self._answer(peer)
        if message.length > self.agreed:
            return Step(self, (Outgoing(peer, make_have(self.game)),))
        return Step(replace(self, synced=True))  # the same game as the peer's

    def _claim(self, peer: str, seats: tuple[int, ...]) -> tuple[LiveTable, tuple[Event, ...]]:
        taken = set(self.mine) | {s for p, claimed in self.peers.items()
                                  if p != peer and p in self.connected for s in claimed}
        events = tuple(Event("seat_taken", peer, seat) for seat in seats if seat in taken)
        peers = {**self.peers, peer: tuple(s for s in seats if s not in taken)}
        return replace(self, peers=peers, connected=self.connected | {peer}), events

    def _game(self, peer: str, message: LiveMessage) -> Step:
        assert message.board is not None
        if message.board.options != self.board.options:
            return Step(self, (), (Event("refused", peer, 0, "other_game"),))
        table, events = self._claim(peer, message.seats)
        step = table._compare(peer, message)
        send = step.send
        if message.kind == HELLO and not send:
            send = (Outgoing(peer, step.table._state()),)
        return Step(step.table, send, events + step.events)

    def _compare(self, peer: str, message: LiveMessage) -> Step:
        assert message.board is not None
        theirs = message.board
        theirs = theirs.at(committed_length(theirs))
        ours = self.game
        table = replace(self, synced=True)
        relation = compare(ours, theirs).value
        if relation == "same":
            return Step(table)
        if not _wins(theirs, ours):
            return table._answer(peer, Event("refused", peer, len(theirs.actions), relation))
        start = common_length(ours.actions, theirs.actions)
        if self.moved and relation == "continues":
            replay = theirs.at(start)
            for offset, action in enumerate(theirs.actions[start:]):
                if replay.state.seat in self.mine:
                    return Step(table, (), (Event("forged", peer, start + offset + 1,
                                                  str(replay.state.seat)),))
                replay.push(action)
        table, events = table._take(theirs)
        adopted = Event("adopted", peer, start + 1,
                        " ".join(str(a) for a in theirs.actions[start:]))
        return Step(table, (), (adopted, *events))
