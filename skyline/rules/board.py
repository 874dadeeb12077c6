"""The :class:`Board`: a game with its history, undo, record and JSON form.

>>> board = Board.new(["Ada"], seed="demo")
>>> board.push_text("tGGU")
>>> board.can_undo(), board.pop(), board.state.phase.name
(True, Take(types=(<DieType.GROUND: 0>, <DieType.GROUND: 0>, <DieType.UPPER: 1>)), 'TAKE')
>>> board.push_text("tGGG"); board.push_text("r0.1.2"); board.can_undo()
False
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import quote, unquote

from .actions import (
    Action,
    Build,
    EndTurn,
    Roll,
    parse_action,
)
from .bounds import (
    MAX_ACTIONS,
    MAX_RECORD_CHARS,
    max_dice,
    max_turns,
    record_chars_bound,
    seat_dice,
)
from .building import BuildPlan, plan_build
from .errors import IllegalActionError, OptionsError, SkylineError
from .events import TurnReport, describe, last_turn_report, turns_since_report
from .legal import legal_actions
from .options import new_game, validate_options
from .scoring import ranking, score
from .state import Building, Column, Die, DieType, Face, GameState, Options, Phase, Player
from .turns import apply_action

RECORD_MAGIC = "skyline1"
JSON_FORMAT = "skyline-game"
JSON_VERSION = 1
#: Most actions a record may have: the most any game has (:mod:`skyline.rules.bounds`).
MAX_RECORD_ACTIONS = MAX_ACTIONS


class RecordError(SkylineError):
    """A game record or saved game that cannot be loaded; ``code`` says why (``record_*``,
    ``json_*``), the message in plain English."""


# The last records read, as boards: a page reads its saved game more than once as it
# starts, and a replay reads the game it shows; replaying the record is what costs.
_READ: dict[str, Board] = {}


class Board:
    """A game in progress: the current state, the actions that led to it, undo.

    Each build, demolition and abandon is its own undo step; taking dice can be
    undone until the roll; a roll or the end of a turn commits everything before it.
    """

    def __init__(self, options: Options) -> None:
        self.options = validate_options(options)
        self._states: list[GameState] = [new_game(self.options)]
        self._actions: list[Action] = []
        self._floor = 0  # actions before this index cannot be undone
        # each action's notation and events, filled on demand: the page saves and logs
        # the game after every click, so neither replays the whole game each time
        self._notation: list[str] = []
        self._events: list[list[dict[str, Any]]] = []

    @classmethod
    def new(
        cls,
        names: Sequence[str],
        seed: str,
        start_seat: int | None = 0,
        all_nine: bool = False,
        scenario: str | None = None,
    ) -> Board:
        return cls(Options(tuple(names), seed, start_seat, all_nine, scenario))

    # ------------------------------------------------------------------ queries

    @property
    def state(self) -> GameState:
        return self._states[-1]

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    def legal_actions(self) -> list[Action]:
        return legal_actions(self.state)

    def is_game_over(self) -> bool:
        return self.state.phase is Phase.OVER

    def scores(self) -> list[int]:
        return [score(p) for p in self.state.players]

    def ranking(self) -> list[int]:
        return ranking(self.state)

    def can_undo(self) -> bool:
        return len(self._actions) > self._floor

    def plan_build(self, die_ids: Iterable[int]) -> BuildPlan:
        return plan_build(self.state, die_ids)

    # ------------------------------------------------------------------ moves

    def push(self, action: Action) -> None:
        """Apply a legal action (raises :class:`IllegalActionError` otherwise).

        Rolls take their faces from the seed, as the record replays them; a search that
        chooses chance outcomes uses :func:`~skyline.rules.apply_action` with ``faces``.
        """
        state = apply_action(self.state, action)
        self._states.append(state)
        self._actions.append(action)
        if isinstance(action, Roll | EndTurn):
            self._floor = len(self._actions)

    def push_text(self, token: str) -> None:
        self.push(parse_action(token))

    def pop(self) -> Action:
        """Undo the last action; raise :class:`IllegalActionError` if it is committed."""
        if not self.can_undo():
            raise IllegalActionError(
                "no_undo", "nothing to undo: a roll or a finished turn is final"
            )
        self._states.pop()
        del self._notation[len(self._actions) - 1:]
        del self._events[len(self._actions) - 1:]
        return self._actions.pop()

    def build_selection(
        self, die_ids: Iterable[int], choices: Sequence[int | None] = ()
    ) -> BuildPlan:
        """Build the selected dice, each as its own undo step.

        Dice whose target is unique or equivalent are placed automatically;
        ``choices`` answer, in order, the towers asked for. Returns the plan of
        what remains: ``choice_die`` set means a tower must still be chosen.
        Nothing is built if the selection cannot be placed in full.
        """
        remaining = set(die_ids)
        plan = plan_build(self.state, remaining)
        if not plan.feasible:
            raise IllegalActionError("cannot_build_all", "not all selected dice can be built")
        pending = list(choices)
        while True:
            for step in plan.steps:
                self.push(step)
                remaining.discard(step.die)
            if plan.choice_die is None or not pending:
                return plan
            choice = pending.pop(0)
            if choice not in plan.choices:
                raise IllegalActionError("bad_choice", "that tower is not a choice for this die")
            self.push(Build(plan.choice_die, choice))
            remaining.discard(plan.choice_die)
            if not remaining:
                return BuildPlan(True, (), None, ())
            plan = plan_build(self.state, remaining)

    def copy(self) -> Board:
        other = Board.__new__(Board)
        other.options = self.options
        other._states = list(self._states)
        other._actions = list(self._actions)
        other._floor = self._floor
        other._notation = list(self._notation)
        other._events = list(self._events)
        return other

    def at(self, step: int) -> Board:
        """A new board with this game after its first ``step`` actions (clamped), as a
        replay shows it; this board is untouched. Nothing of it can be undone.

        >>> b = Board.new(["Ada", "Bo"], seed="s1"); b.push_text("tGGU"); b.push_text("r0.1.2")
        >>> [len(b.at(n).actions) for n in (-1, 1, 9)], b.at(1).state == b._states[1]
        ([0, 1, 2], True)
        """
        step = max(0, min(step, len(self._actions)))
        other = Board.__new__(Board)
        other.options = self.options
        other._states = self._states[: step + 1]
        other._actions = self._actions[:step]
        other._floor = step
        other._notation = self._notation[:step]
        other._events = self._events[:step]
        return other

    # ------------------------------------------------------------------ log

    def last_turn(self) -> TurnReport | None:
        """What the latest finished turn did (:class:`~skyline.rules.events.TurnReport`),
        or None before any turn has ended and once the game is over."""
        return last_turn_report(self._states, self._actions)

    def turns_since(self, seat: int) -> tuple[TurnReport, ...]:
        """What the other seats' turns did since ``seat`` last played (since the start
        if it has not yet), oldest first; empty once the game is over.

        >>> from skyline import Board
        >>> board = Board.new(["Ann", "Bo", "Cy"], "since-doc")
        >>> board.turns_since(0)
        ()
        >>> while (board.state.round, board.state.seat) != (2, 1):  # Ann, Bo, Cy, Ann
        ...     board.push(board.legal_actions()[0])
        >>> [report.seat for report in board.turns_since(1)]
        [2, 0]
        >>> [report.seat for report in board.turns_since(2)]  # its own turn ends the list
        [0]
        """
        return turns_since_report(self._states, self._actions, seat)

    def log(self) -> list[dict[str, Any]]:
        """The game's events in order, as plain dicts for the page to translate.

        Each has ``event``, ``round`` and ``seat``; further keys depend on the event.
        """
        states, known = self._states, self._events
        for i in range(len(known), len(self._actions)):
            known.append(describe(states[i], self._actions[i], states[i + 1]))
        return [dict(e) for group in known for e in group]

    # ------------------------------------------------------------------ record

    def record(self) -> str:
        """The game as compact text: options, then the actions in notation.

        >>> b = Board.new(["Ada", "Bo Li"], seed="s1"); b.push_text("tGGU"); b.record()
        'skyline1 players=Ada,Bo%20Li seed=s1 start=0 nine=0 scenario=- | tGGU'
        """
        o = self.options
        head = [
            RECORD_MAGIC,
            "players=" + ",".join(quote(n, safe="") for n in o.names),
            f"seed={o.seed}",
            f"start={o.start_seat}",
            f"nine={int(o.all_nine)}",
            f"scenario={o.scenario or '-'}",
        ]
        notation = self._notation
        notation.extend(str(a) for a in self._actions[len(notation):])
        return " ".join(head) + " | " + " ".join(notation)

    @classmethod
    def from_record(cls, text: object) -> Board:
        """Load a record, validating every action by replaying it.

        Raises :class:`RecordError` (a ValueError) with a precise message; never
        returns a half-built game.
        """
        if not isinstance(text, str):
            raise RecordError("record_type", "a record must be text")
        known = _READ.get(text)
        if known is not None:
            return known.copy()
        board = cls._read_record(text)
        if type(board) is Board:
            if len(_READ) >= 8:
                del _READ[next(iter(_READ))]
            _READ[text] = board.copy()
        return board

    @classmethod
    def _read_record(cls, text: str) -> Board:
        if len(text) > MAX_RECORD_CHARS:
            raise RecordError(
                "record_size", f"the record is longer than {MAX_RECORD_CHARS} characters, "
                "the most a game's record can have",
            )
        head, sep, body = text.partition("|")
        if not sep:
            raise RecordError("record_format", "the record has no '|' between options and actions")
        options = parse_options(head)
        try:
            board = cls(options)
        except OptionsError as exc:
            raise RecordError(
                "record_options", f"bad options: {exc}", field=exc.field, **exc.params
            ) from None
        tokens = body.split()
        if len(tokens) > MAX_RECORD_ACTIONS:
            raise RecordError(
                "record_size", f"the record has more than {MAX_RECORD_ACTIONS} actions, "
                "the most a game can have",
            )
        for number, token in enumerate(tokens, 1):
            try:
                board.push(parse_action(token))
            except ValueError as exc:
                raise RecordError(
                    "record_action", f"action {number} ({token[:20]!r}) is not legal: {exc}",
                    number=number,
                ) from None
        return board

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> str:
        """Versioned JSON: the record plus a snapshot of the state for checking."""
        return json.dumps(
            {
                "format": JSON_FORMAT,
                "version": JSON_VERSION,
                "record": self.record(),
                "state": state_to_dict(self.state),
            },
            separators=(",", ":"),
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str) -> Board:
        """Load :meth:`to_json` output; raises :class:`RecordError` if it is broken,
        from another version, or its state does not match its record."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError, RecursionError):
            raise RecordError("json_syntax", "the saved game is not valid JSON") from None
        return cls.from_data(data)

    @classmethod
    def from_data(cls, data: object) -> Board:
        """Load the parsed object of :meth:`to_json` (as :meth:`from_json` does)."""
        if not isinstance(data, dict) or data.get("format") != JSON_FORMAT:
            raise RecordError("json_format", "this is not a saved Skyline game")
        version = data.get("version")
        if version != JSON_VERSION:
            raise RecordError(
                "json_version", f"saved game version {str(version)[:10]} is not supported",
                version=str(version)[:10],
            )
        board = cls.from_record(data.get("record"))
        if "state" in data and data["state"] != state_to_dict(board.state):
            raise RecordError("json_mismatch", "the saved state does not match its moves")
        return board


def game_json_chars_bound(players: int) -> int:
    """Most characters of :meth:`Board.to_json` for a game of ``players``: the JSON of a
    state that has every part at its largest (not a reachable one) plus the longest
    record (:func:`~skyline.rules.bounds.record_chars_bound`), which JSON copies as it
    is (a record is ASCII without quotes or backslashes: names are percent-encoded).

    A name of 24 characters is at most 48 in JSON (``"`` and ``\\`` take two, control
    characters are refused). The district holds at most 3 more dice than a turn
    (:func:`~skyline.rules.bounds.max_dice`), the active dice at most a turn's, and
    each player has at most the start gift and a building per die of their own turns.

    >>> game_json_chars_bound(4)
    261247
    """
    turns = max_turns(players)
    dice = max_dice(turns, players)
    long_id = dice - 1  # every active die with the id of most digits
    holdings = [1 + seat_dice(players, order) for order in range(1, players + 1)]
    state = GameState(
        Options(('"' * 24,) * players, "x" * 32, players - 1, False, "sao-paolo"),
        9, players - 1, Phase.CONTINUE, (DieType.GROUND,) * (dice + 3),
        tuple(Die(long_id, DieType.GROUND, None) for _ in range(dice)), dice, False,
        tuple(
            Player('"' * 24, (Column(Face.ORANGE, 5),) * count, (), seat_dice(players, order))
            for order, count in enumerate(holdings, 1)
        ),
    )
    envelope = {"format": JSON_FORMAT, "version": JSON_VERSION, "record": "",
                "state": state_to_dict(state)}
    return len(json.dumps(envelope, separators=(",", ":"), ensure_ascii=False)) + \
        record_chars_bound(players)


def parse_options(head: str) -> Options:
    """Parse the option part of a record (everything before ``|``)."""
    fields = head.split()
    if not fields or fields[0] != RECORD_MAGIC:
        raise RecordError("record_magic", f"a record must start with {RECORD_MAGIC!r}")
    values: dict[str, str] = {}
    for field in fields[1:]:
        key, eq, value = field.partition("=")
        if not eq or key not in {"players", "seed", "start", "nine", "scenario"}:
            raise RecordError("record_field", f"unknown record field {field[:30]!r}")
        if key in values:
            raise RecordError("record_field", f"record field {key!r} given twice")
        values[key] = value
    missing = {"players", "seed", "start", "nine", "scenario"} - values.keys()
    if missing:
        raise RecordError("record_field", f"record field {sorted(missing)[0]!r} is missing")
    start, nine = values["start"], values["nine"]
    if len(start) != 1 or not "0" <= start <= "9" or nine not in ("0", "1"):
        raise RecordError("record_field", "record fields 'start' and 'nine' must be small numbers")
    try:
        names = tuple(unquote(n, errors="strict") for n in values["players"].split(","))
    except UnicodeDecodeError:
        raise RecordError("record_field", "the player names are not valid UTF-8") from None
    return Options(
        names,
        values["seed"],
        int(values["start"]),
        values["nine"] == "1",
        None if values["scenario"] == "-" else values["scenario"],
    )


# ---------------------------------------------------------------------- state <-> dict


def state_to_dict(state: GameState) -> dict[str, Any]:
    """A JSON-ready dict of the whole state (see :func:`state_from_dict`)."""
    o = state.options
    return {
        "options": {
            "names": list(o.names),
            "seed": o.seed,
            "start_seat": o.start_seat,
            "all_nine": o.all_nine,
            "scenario": o.scenario,
        },
        "round": state.round,
        "seat": state.seat,
        "phase": state.phase.name.lower(),
        "district": "".join(t.letter for t in state.district),
        "dice": [
            [d.id, d.type.letter, None if d.face is None else d.face.letter] for d in state.dice
        ],
        "rolls": state.rolls,
        "six_completed": state.six_completed,
        "players": [
            {
                "name": p.name,
                "columns": [[c.kind.letter, c.height] for c in p.columns],
                "buildings": [[b.kind.letter, b.height] for b in p.buildings],
                "demolitions": p.demolitions,
            }
            for p in state.players
        ],
    }


def state_from_dict(data: dict[str, Any]) -> GameState:
    """Rebuild a state from :func:`state_to_dict`; raises ValueError if malformed."""
    try:
        o = data["options"]
        options = validate_options(
            Options(tuple(o["names"]), o["seed"], o["start_seat"], o["all_nine"], o["scenario"])
        )
        faces = {f.letter: f for f in Face}
        players = tuple(
            Player(
                str(p["name"]),
                tuple(Column(faces[k], _int(h, 1, 5)) for k, h in p["columns"]),
                tuple(Building(faces[k], _int(h, 1, 6)) for k, h in p["buildings"]),
                _int(p["demolitions"], 0, 10_000),
            )
            for p in data["players"]
        )
        state = GameState(
            options,
            _int(data["round"], 1, 9),
            _int(data["seat"], 0, len(players) - 1),
            Phase[str(data["phase"]).upper()],
            tuple(DieType.from_letter(c) for c in data["district"]),
            tuple(
                Die(_int(i, 0, 999), DieType.from_letter(t), None if f is None else faces[f])
                for i, t, f in data["dice"]
            ),
            _int(data["rolls"], 0, 999),
            bool(data["six_completed"]),
            players,
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"malformed state: {exc}") from None
    if len(players) != len(options.names):
        raise ValueError("malformed state: player count differs from the options")
    return state


def _int(value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"expected a whole number from {low} to {high}, got {value!r}")
    return value
