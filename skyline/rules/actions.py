"""The actions a player takes, their compact notation (:func:`parse_action`) and
their classes of equivalence (:func:`action_class`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .state import (
    DieType,
    Face,
    GameState,
)


@dataclass(frozen=True, slots=True)
class Take:
    """Take three dice of the given types from the yard.

    The types are kept sorted (G, U, P), so ``Take((P, G, U)) == Take((G, U, P))``; types
    that are not all :class:`DieType` are kept as given (and the take is illegal).
    """

    types: tuple[DieType, ...]

    def __post_init__(self) -> None:
        try:
            types = tuple(self.types)
        except TypeError:
            return  # not a sequence: apply_action refuses it ("take_three")
        if all(isinstance(t, DieType) for t in types):
            types = tuple(sorted(types))
        object.__setattr__(self, "types", types)

    def __str__(self) -> str:
        return "t" + "".join(t.letter for t in self.types)


@dataclass(frozen=True, slots=True)
class TakeDistrict:
    """Take every die in the abandoned district."""

    def __str__(self) -> str:
        return "tD"


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll the given dice: all of them after taking, a nonempty selection later."""

    dice: tuple[int, ...]

    def __str__(self) -> str:
        return "r" + ".".join(map(str, self.dice))


@dataclass(frozen=True, slots=True)
class Build:
    """Build one die: ``column`` None starts a new building (ground floor)."""

    die: int
    column: int | None = None

    def __str__(self) -> str:
        return f"b{self.die}" if self.column is None else f"b{self.die}@{self.column}"


@dataclass(frozen=True, slots=True)
class Demolish:
    """Spend one die to remove an unfinished column or a completed building."""

    die: int
    index: int
    completed: bool = False

    def __str__(self) -> str:
        return f"x{self.die}@{'b' if self.completed else 'c'}{self.index}"


@dataclass(frozen=True, slots=True)
class Abandon:
    """Move the selected dice to the abandoned district (not in solo)."""

    dice: tuple[int, ...]

    def __str__(self) -> str:
        return "a" + ".".join(map(str, self.dice))


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn; remaining dice go back to the yard."""

    def __str__(self) -> str:
        return "e"


Action = Take | TakeDistrict | Roll | Build | Demolish | Abandon | EndTurn

_TOKEN = re.compile(
    r"t(?P<take>[GUP]{3}|D)|r(?P<roll>\d{1,3}(?:\.\d{1,3})*)|b(?P<bdie>\d{1,3})(?:@(?P<bcol>\d{1,3}))?"
    r"|x(?P<xdie>\d{1,3})@(?P<xkind>[cb])(?P<xidx>\d{1,3})|a(?P<ab>\d{1,3}(?:\.\d{1,3})*)|(?P<end>e)"
)


def parse_action(token: str) -> Action:
    """Parse one action in the compact notation.

    >>> parse_action("tGUG"), parse_action("b2@0"), parse_action("x1@b3")
    (Take(types=(<DieType.GROUND: 0>, <DieType.GROUND: 0>, <DieType.UPPER: 1>)), \
Build(die=2, column=0), Demolish(die=1, index=3, completed=True))
    """
    if not isinstance(token, str):
        raise ValueError(f"action must be text, not {type(token).__name__}")
    match = _TOKEN.fullmatch(token)
    if match is None:
        shown = token if len(token) <= 20 else token[:20] + "…"
        raise ValueError(f"not an action: {shown!r}")
    g = match.groupdict()
    if g["take"]:
        if g["take"] == "D":
            return TakeDistrict()
        return Take(tuple(DieType.from_letter(c) for c in g["take"]))
    if g["roll"]:
        return Roll(_ids(g["roll"]))
    if g["bdie"]:
        return Build(int(g["bdie"]), None if g["bcol"] is None else int(g["bcol"]))
    if g["xdie"]:
        return Demolish(int(g["xdie"]), int(g["xidx"]), g["xkind"] == "b")
    if g["ab"]:
        return Abandon(_ids(g["ab"]))
    return EndTurn()


def _ids(text: str) -> tuple[int, ...]:
    ids = tuple(int(part) for part in text.split("."))
    if list(ids) != sorted(set(ids)):
        raise ValueError(f"dice must be listed once each in increasing order: {text!r}")
    return ids


ActionClass = tuple[object, ...]


def action_class(state: GameState, action: Action) -> ActionClass | None:
    """The class of ``action`` in ``state``: a hashable key such that two legal actions
    with the same key lead to equivalent states. It is the notion :func:`legal_actions`
    lists one representative of: dice of the same type and face are interchangeable, and
    so are unfinished columns (or completed buildings) of the same colour and height.

    The key describes what the action does, not whether it is legal (see
    :func:`is_legal`); it is None if the action names a die, a column or a building
    that does not exist, or selects a die twice.

    >>> state = new_game(Options(("Ada",), seed="demo"))
    >>> G, U = DieType.GROUND, DieType.UPPER
    >>> action_class(state, Take((U, G, G))) == action_class(state, Take((G, G, U)))
    True
    """
    if isinstance(action, Take):
        return ("t", tuple(action.types))
    if isinstance(action, TakeDistrict):
        return ("tD",)
    if isinstance(action, EndTurn):
        return ("e",)
    by_id = {d.id: (d.type, d.face) for d in state.dice}
    player = state.players[state.seat]
    if isinstance(action, Roll | Abandon):
        ids = action.dice
        if len(set(ids)) != len(ids) or any(i not in by_id for i in ids):
            return None
        kinds: dict[tuple[DieType, Face | None], int] = {}
        for i in ids:
            kinds[by_id[i]] = kinds.get(by_id[i], 0) + 1
        tag = "r" if isinstance(action, Roll) else "a"
        return (tag, tuple(sorted(kinds.items(), key=_kind_order)))
    if isinstance(action, Build):
        kind = by_id.get(action.die)
        if kind is None:
            return None
        if action.column is None:
            return ("b", kind, None)
        if not 0 <= action.column < len(player.columns):
            return None
        return ("b", kind, tuple(player.columns[action.column]))
    if isinstance(action, Demolish):
        kind = by_id.get(action.die)
        pool = player.buildings if action.completed else player.columns
        if kind is None or not 0 <= action.index < len(pool):
            return None
        return ("x", kind, action.completed, tuple(pool[action.index]))
    return None


def _kind_order(item: tuple[tuple[DieType, Face | None], int]) -> tuple[int, int]:
    (die_type, face), _ = item
    return (int(die_type), -1 if face is None else int(face))


#: Every action type (anything else is not an action).
ACTION_TYPES = (Take, TakeDistrict, Roll, Build, Demolish, Abandon, EndTurn)
