"""Value types and the pure rules of Skyline.

Everything here is a pure function of immutable values: :func:`apply_action`
takes a :class:`GameState` and an action and returns the next state, and
:func:`legal_actions` lists what may be done. Chance is explicit: rolling is a
chance event whose outcomes and probabilities :func:`roll_outcomes` lists; in
play the outcome is derived from the game's seed (:func:`seeded_faces`), so the
same seed and the same actions always give the same game.

>>> state = new_game(Options(names=("Ada",), seed="demo"))
>>> state.phase is Phase.TAKE, len(legal_actions(state))
(True, 10)
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import chain, product
from math import factorial
from typing import NamedTuple

MAX_PLAYERS = 4
ROUNDS = 9
MAX_NAME_LENGTH = 24
SEED_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,32}")
SCENARIOS = ("dubai", "essen", "new-york", "sao-paolo", "shanghai", "toronto", "tucson")
#: Letters of the die types (G ground, U upper, P penthouse), indexed by :class:`DieType`;
#: records, links, saves and the page all spell dice with these.
DIE_LETTERS = "GUP"
#: Letters of the faces (p purple, b blue, o orange, x blank), indexed by :class:`Face`.
FACE_LETTERS = "pbox"
SOLO_LEVELS = (
    (100, "urban-overseer"),
    (90, "master-planner"),
    (80, "urban-planner"),
    (70, "principal-architect"),
    (60, "senior-architect"),
    (50, "junior-architect"),
    (40, "project-manager"),
)


class DieType(IntEnum):
    """The three kinds of dice in the construction yard."""

    GROUND = 0
    UPPER = 1
    PENTHOUSE = 2

    @property
    def letter(self) -> str:
        return DIE_LETTERS[self]

    @classmethod
    def from_letter(cls, letter: str) -> DieType:
        index = DIE_LETTERS.find(letter)
        if index < 0 or len(letter) != 1:
            raise ValueError(f"unknown die type {letter!r}: expected G, U or P")
        return cls(index)


class Face(IntEnum):
    """A rolled face. Purple, blue and orange are also the building kinds
    (low-rise, mid-rise, high-rise); BLANK only appears on penthouse dice."""

    PURPLE = 0
    BLUE = 1
    ORANGE = 2
    BLANK = 3

    @property
    def letter(self) -> str:
        return FACE_LETTERS[self]

    @classmethod
    def from_letter(cls, letter: str) -> Face:
        index = FACE_LETTERS.find(letter)
        if index < 0 or len(letter) != 1:
            raise ValueError(f"unknown face {letter!r}: expected p, b, o or x")
        return cls(index)

    @property
    def kind_name(self) -> str:
        return ("low-rise", "mid-rise", "high-rise", "blank")[self]


P, B, O, X = Face.PURPLE, Face.BLUE, Face.ORANGE, Face.BLANK  # noqa: E741
#: The six faces of each die type, as the rulings give them.
DIE_FACES: dict[DieType, tuple[Face, ...]] = {
    DieType.GROUND: (P, P, P, B, B, O),
    DieType.UPPER: (P, P, P, B, B, O),
    DieType.PENTHOUSE: (X, X, X, B, B, O),
}
_FACE_TABLE = tuple(DIE_FACES[t] for t in DieType)
#: Highest a column of each kind may reach with an upper floor (purple: the
#: upper floor completes it at height 2).
UPPER_LIMIT = {P: 2, B: 3, O: 5}
#: Heights a column must have for a penthouse of its colour to complete it.
PENTHOUSE_RANGE = {B: (1, 3), O: (2, 5)}


class Phase(IntEnum):
    """Where the active player is within a turn."""

    TAKE = 0  # choose three yard dice or take the district
    ROLL = 1  # dice taken, roll them all (taking can still be undone)
    RESOLVE = 2  # must resolve at least one die
    CONTINUE = 3  # may resolve more, reroll a selection, or end the turn
    OVER = 4  # game over


class Die(NamedTuple):
    """An active die: ``id`` is stable for the whole turn; ``face`` is None until rolled."""

    id: int
    type: DieType
    face: Face | None


class Column(NamedTuple):
    """An unfinished building: a column of dice of one colour."""

    kind: Face
    height: int


class Building(NamedTuple):
    """A completed building tile; it never grows again."""

    kind: Face
    height: int

    @property
    def points(self) -> int:
        return self.height * self.height


class Player(NamedTuple):
    name: str
    columns: tuple[Column, ...]
    buildings: tuple[Building, ...]
    demolitions: int = 0


class Options(NamedTuple):
    """Game options. ``start_seat`` None means "derive it from the seed"."""

    names: tuple[str, ...]
    seed: str
    start_seat: int | None = 0
    all_nine: bool = False
    scenario: str | None = None


class GameState(NamedTuple):
    options: Options
    round: int
    seat: int
    phase: Phase
    district: tuple[DieType, ...]
    dice: tuple[Die, ...]
    rolls: int
    six_completed: bool
    players: tuple[Player, ...]

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    @property
    def start_seat(self) -> int:
        return self.options.start_seat or 0

    @property
    def player(self) -> Player:
        return self.players[self.seat]


# --------------------------------------------------------------------------- errors


class SkylineError(ValueError):
    """Base of the engine's coded errors.

    ``code`` is a stable identifier the page translates; ``params`` fill its message;
    the message itself is plain English for logs and the terminal. Subclasses:
    :class:`IllegalActionError`, :class:`OptionsError`, ``RecordError``
    (:mod:`skyline.board`), ``LinkError`` and ``SaveError`` (:mod:`skyline.links`),
    ``BotError`` (:mod:`skyline.registry`).
    """

    def __init__(self, code: str, message: str, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class IllegalActionError(SkylineError):
    """An action that the rules do not allow in this state."""


class OptionsError(SkylineError):
    """Game options that :func:`validate_options` refuses.

    ``code`` is the field at fault: ``names``, ``seed``, ``start_seat``, ``all_nine`` or
    ``scenario`` (also :attr:`field`); ``params["reason"]`` says what is wrong with it.
    The message starts with the field's name, e.g. ``"seed: expected 1 to 32 ..."``.
    """

    @property
    def field(self) -> str:
        return self.code


#: The option fields an :class:`OptionsError` may name (its ``code``).
OPTION_FIELDS = ("names", "seed", "start_seat", "all_nine", "scenario")


# --------------------------------------------------------------------------- actions


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


# --------------------------------------------------------------------------- setup


def validate_options(options: Options) -> Options:
    """Return normalised options or raise :class:`OptionsError` naming the bad field.

    Names are trimmed and inner whitespace collapsed; ``start_seat`` None is resolved
    from the seed (a pure function of the seed and the number of players).
    """
    names = options.names
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise OptionsError(
            "names", "names: expected a list of 1 to 4 player names", reason="not_list"
        )
    if not 1 <= len(names) <= MAX_PLAYERS:
        raise OptionsError(
            "names", f"names: expected 1 to 4 players, got {len(names)}",
            reason="count", count=len(names),
        )
    clean: list[str] = []
    for name in names:
        if not isinstance(name, str):
            raise OptionsError("names", "names: every name must be text", reason="not_text")
        name = " ".join(name.split())
        if not name or len(name) > MAX_NAME_LENGTH:
            raise OptionsError(
                "names", f"names: each name must have 1 to {MAX_NAME_LENGTH} characters",
                reason="length", limit=MAX_NAME_LENGTH,
            )
        if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 or 0xD800 <= ord(c) < 0xE000 for c in name):
            # lone surrogates cannot be encoded (records, links, the browser)
            raise OptionsError(
                "names", "names: control characters are not allowed", reason="control"
            )
        clean.append(name)
    seed = options.seed
    if not isinstance(seed, str) or not SEED_PATTERN.fullmatch(seed):
        raise OptionsError(
            "seed", "seed: expected 1 to 32 letters, digits, '-' or '_'", reason="invalid"
        )
    start = options.start_seat
    if start is None:
        start = _mix(_seed_base(seed) ^ 0x5EA7) % len(clean)
    elif isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < len(clean):
        raise OptionsError(
            "start_seat", f"start_seat: expected a seat from 0 to {len(clean) - 1}",
            reason="invalid", players=len(clean),
        )
    if not isinstance(options.all_nine, bool):
        raise OptionsError("all_nine", "all_nine: expected true or false", reason="invalid")
    scenario = options.scenario
    if scenario is not None:
        if len(clean) != 1:
            raise OptionsError(
                "scenario", "scenario: scenarios exist only in the solo game",
                reason="solo_only",
            )
        if scenario not in SCENARIOS:
            raise OptionsError(
                "scenario", f"scenario: unknown scenario {str(scenario)[:30]!r}",
                reason="invalid",
            )
    return Options(tuple(clean), seed, start, options.all_nine, scenario)


def new_game(options: Options) -> GameState:
    """The state before round 1: start gifts handed out, district filled."""
    options = validate_options(options)
    n = len(options.names)
    gifts = (O, B, P)
    players = []
    for seat, name in enumerate(options.names):
        order = (seat - options.start_seat) % n
        columns = (Column(gifts[order], 1),) if order < 3 else ()
        players.append(Player(name, columns, ()))
    district = () if n == 1 else (DieType.GROUND, DieType.UPPER, DieType.PENTHOUSE)
    return GameState(
        options, 1, options.start_seat, Phase.TAKE, district, (), 0, False, tuple(players)
    )


# --------------------------------------------------------------------------- chance

_MASK = (1 << 64) - 1
_seed_cache: dict[str, int] = {}


def _seed_base(seed: str) -> int:
    base = _seed_cache.get(seed)
    if base is None:
        base = int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big")
        if len(_seed_cache) > 256:
            _seed_cache.clear()
        _seed_cache[seed] = base
    return base


def _mix(x: int) -> int:
    """SplitMix64 finaliser: integer-only, so CPython and Pyodide agree bit for bit."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def seeded_faces(state: GameState, dice: Sequence[Die]) -> tuple[Face, ...]:
    """The faces the seed gives to ``dice`` rolled now.

    A face depends on the seed, round, seat, the roll's number in the turn, the
    die type and how many dice of that type come before it in this roll, so two
    players of the same seed who take the same types see the same faces.
    """
    base = _seed_base(state.options.seed) ^ (
        state.round << 56 | state.seat << 52 | state.rolls << 40
    )
    seen = [0, 0, 0]
    faces = []
    table = _FACE_TABLE
    mask = _MASK
    for die in dice:
        t = die.type
        k = seen[t]
        seen[t] = k + 1
        # _mix(base ^ (t << 16 | k)), inlined: this runs for every rolled die
        x = ((base ^ (t << 16 | k)) + 0x9E3779B97F4A7C15) & mask
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & mask
        faces.append(table[t][(x ^ (x >> 31)) % 6])
    return tuple(faces)


def roll_outcomes(types: Sequence[DieType]) -> list[tuple[tuple[Face, ...], float]]:
    """Distinct outcomes of rolling dice of ``types`` with their probabilities.

    Dice of the same type are interchangeable, so outcomes are multisets: faces
    come back aligned with ``types`` and sorted within each type.

    >>> [(f, round(p, 3)) for f, p in roll_outcomes([DieType.PENTHOUSE])]
    [((<Face.BLUE: 1>,), 0.333), ((<Face.ORANGE: 2>,), 0.167), ((<Face.BLANK: 3>,), 0.5)]
    """
    groups: dict[DieType, list[int]] = {}
    for position, t in enumerate(types):
        groups.setdefault(t, []).append(position)
    per_type = []
    for t, positions in groups.items():
        faces = sorted(set(DIE_FACES[t]))
        weights = {f: DIE_FACES[t].count(f) / 6 for f in faces}
        options = []
        for counts in _compositions(len(positions), len(faces)):
            prob = factorial(len(positions))
            chosen: list[Face] = []
            for face, count in zip(faces, counts, strict=True):
                prob = prob / factorial(count) * weights[face] ** count
                chosen += [face] * count
            options.append((positions, tuple(chosen), prob))
        per_type.append(options)
    outcomes = []
    for combo in product(*per_type):
        faces_out: list[Face] = [X] * len(types)
        prob = 1.0
        for positions, chosen, p in combo:
            prob *= p
            for position, face in zip(positions, chosen, strict=True):
                faces_out[position] = face
        outcomes.append((tuple(faces_out), prob))
    return outcomes


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


# --------------------------------------------------------------------------- building


def build_targets(columns: Sequence[Column], die: Die) -> list[int | None]:
    """Where ``die`` could be built now: None for a new building, else column
    indices, one per class of equivalent columns (same colour and height)."""
    face = die.face
    if face is None or face is X:
        return []
    if die.type is DieType.GROUND:
        return [None]
    seen: set[int] = set()
    targets: list[int | None] = []
    if die.type is DieType.UPPER:
        limit = UPPER_LIMIT[face]
        for index, column in enumerate(columns):
            if column.kind is face and column.height < limit and column.height not in seen:
                seen.add(column.height)
                targets.append(index)
        return targets
    low, high = PENTHOUSE_RANGE[face]
    for index, column in enumerate(columns):
        if column.kind is face and low <= column.height <= high and column.height not in seen:
            seen.add(column.height)
            targets.append(index)
    return targets


def _check_build(columns: Sequence[Column], die: Die, column: int | None) -> None:
    face = die.face
    if face is None:
        raise IllegalActionError("not_rolled", "roll the dice before building")
    if face is X:
        raise IllegalActionError("blank_penthouse", "a blank penthouse cannot be built")
    if die.type is DieType.GROUND:
        if column is not None:
            raise IllegalActionError(
                "ground_on_top", "a ground floor starts a new building; it cannot go on top"
            )
        return
    if column is None:
        raise IllegalActionError(
            "needs_column", "an upper floor or penthouse must go on an unfinished building"
        )
    if not 0 <= column < len(columns):
        raise IllegalActionError(
            "no_column", f"there is no unfinished building {column}", index=column
        )
    target = columns[column]
    if target.kind is not face:
        raise IllegalActionError(
            "wrong_colour", "the die's colour does not match the building", face=face.kind_name
        )
    if die.type is DieType.UPPER:
        if target.height >= UPPER_LIMIT[face]:
            raise IllegalActionError(
                "too_high", "this building has no room for another upper floor",
                height=target.height,
            )
    else:
        low, high = PENTHOUSE_RANGE[face]
        if not low <= target.height <= high:
            raise IllegalActionError(
                "penthouse_height", "a penthouse cannot complete a building of this height",
                height=target.height,
            )


def _apply_build(player: Player, die: Die, column: int | None) -> tuple[Player, Building | None]:
    """Return the player after building and the building completed, if any."""
    face = die.face
    assert face is not None
    name, columns, buildings, demolitions = player
    if column is None:
        return Player(name, columns + (Column(face, 1),), buildings, demolitions), None
    height = columns[column].height + 1
    if die.type is DieType.PENTHOUSE or face is P:
        done = Building(face, height)
        rest = columns[:column] + columns[column + 1 :]
        return Player(name, rest, buildings + (done,), demolitions), done
    new_columns = columns[:column] + (Column(face, height),) + columns[column + 1 :]
    return Player(name, new_columns, buildings, demolitions), None


def can_build_all(columns: Sequence[Column], dice: Iterable[Die]) -> bool:
    """Whether every die can be placed in some order (grounds, uppers, penthouses)."""
    uppers = [0, 0, 0]
    pents = [0, 0, 0]
    heights: list[list[int]] = [[], [], []]
    for column in columns:
        heights[column.kind].append(column.height)
    for die in dice:
        face = die.face
        if face is None or face is X:
            return False
        if die.type is DieType.GROUND:
            heights[face].append(1)
        elif die.type is DieType.UPPER:
            uppers[face] += 1
        else:
            pents[face] += 1
    if uppers[P] > len(heights[P]):
        return False
    for kind in (B, O):
        hs = heights[kind]
        limit = UPPER_LIMIT[kind]
        if uppers[kind] > sum(limit - h for h in hs) or pents[kind] > len(hs):
            return False
        if kind is O:
            # a penthouse on an orange ground floor needs an upper floor under it first
            raises = max(0, pents[O] - sum(1 for h in hs if h >= 2))
            if raises > uppers[O]:
                return False
    return True


_BUILD_ORDER = {DieType.GROUND: 0, DieType.UPPER: 1, DieType.PENTHOUSE: 2}


class BuildPlan(NamedTuple):
    """How a selection would be built.

    ``feasible`` says whether all selected dice can be placed. ``steps`` are the
    builds that need no decision, in order. If ``choice_die`` is set, the player
    must pick its tower among ``choices`` (one column per equivalence class)
    before the rest can be planned.
    """

    feasible: bool
    steps: tuple[Build, ...]
    choice_die: int | None
    choices: tuple[int | None, ...]


def plan_build(state: GameState, die_ids: Iterable[int]) -> BuildPlan:
    """Plan building the selected dice: place automatically where the target is
    unique or equivalent, stop at the first die whose target is a real choice.
    Targets that would strand another selected die are never offered."""
    by_id = {d.id: d for d in state.dice}
    try:
        selected = sorted(
            (by_id[i] for i in set(die_ids)), key=lambda d: (_BUILD_ORDER[d.type], d.id)
        )
    except KeyError:
        return BuildPlan(False, (), None, ())
    columns = state.player.columns
    if not selected or not can_build_all(columns, selected):
        return BuildPlan(False, (), None, ())
    player = state.player
    steps = []
    for position, die in enumerate(selected):
        rest = selected[position + 1 :]
        options = []
        for target in build_targets(player.columns, die):
            after, _ = _apply_build(player, die, target)
            if can_build_all(after.columns, rest):
                options.append(target)
        if len(options) != 1:
            return BuildPlan(True, tuple(steps), die.id, tuple(options))
        steps.append(Build(die.id, options[0]))
        player, _ = _apply_build(player, die, options[0])
    return BuildPlan(True, tuple(steps), None, ())


# --------------------------------------------------------------------------- turn flow


def _advance(state: GameState) -> GameState:
    """End the active player's turn and move to the next seat or round."""
    options, round_, seat, _, district, _, _, six, players = state
    seat = (seat + 1) % len(players)
    if seat != (options.start_seat or 0):
        return GameState(options, round_, seat, Phase.TAKE, district, (), 0, six, players)
    if round_ >= ROUNDS or (six and not options.all_nine):
        return GameState(options, round_, seat, Phase.OVER, district, (), 0, six, players)
    return GameState(options, round_ + 1, seat, Phase.TAKE, district, (), 0, False, players)


def can_resolve_any(state: GameState) -> bool:
    """Whether some active die can be built, abandoned or used to demolish."""
    if not state.dice:
        return False
    if not state.solo:
        return True
    player = state.player
    if player.columns or player.buildings:
        return True
    return any(build_targets(player.columns, die) for die in state.dice)


def _dice_by_ids(state: GameState, ids: Sequence[int]) -> tuple[Die, ...]:
    if not ids:
        raise IllegalActionError("empty_selection", "select at least one die")
    by_id = {d.id: d for d in state.dice}
    picked = []
    for i in ids:
        die = by_id.pop(i, None)
        if die is None:
            if any(d.id == i for d in picked):
                raise IllegalActionError("repeated_die", f"die {i} is selected twice", die=i)
            raise IllegalActionError("no_die", f"there is no active die {i}", die=i)
        picked.append(die)
    return tuple(picked)


def _require_phase(state: GameState, *phases: Phase) -> None:
    if state.phase not in phases:
        if state.phase is Phase.OVER:
            raise IllegalActionError("game_over", "the game is over")
        wanted = {
            Phase.TAKE: "take dice first",
            Phase.ROLL: "roll the dice you took first",
            Phase.RESOLVE: "resolve at least one die first",
            Phase.CONTINUE: "resolve at least one die first",
        }[state.phase]
        raise IllegalActionError(
            "wrong_phase", f"not now: {wanted}", phase=state.phase.name.lower()
        )


def _find_die(dice: tuple[Die, ...], die_id: int) -> int:
    """Index of the active die ``die_id`` (IllegalActionError if there is none)."""
    for index, die in enumerate(dice):
        if die.id == die_id:
            return index
    raise IllegalActionError("no_die", f"there is no active die {die_id}", die=die_id)


_TAKE_DICE: dict[tuple[DieType, ...], tuple[Die, ...]] = {}


def apply_action(
    state: GameState, action: Action, faces: Sequence[Face] | None = None
) -> GameState:
    """Return the state after ``action``; raise :class:`IllegalActionError` if illegal.

    For a :class:`Roll`, ``faces`` (aligned with ``action.dice``) chooses the chance
    outcome, as a bot's search does; without it the seed decides.
    """
    # States are built field by field rather than with _replace: this is the hot path
    # of every bot and search (see scripts/bench_engine.py).
    options, round_, seat, phase, district, dice, rolls, six, players = state
    if isinstance(action, Build):
        if phase is not Phase.RESOLVE and phase is not Phase.CONTINUE:
            _require_phase(state, Phase.RESOLVE, Phase.CONTINUE)
        index = _find_die(dice, action.die)
        die = dice[index]
        player = players[seat]
        _check_build(player.columns, die, action.column)
        player, done = _apply_build(player, die, action.column)
        six = six or (done is not None and done.height == 6)
        return GameState(
            options, round_, seat, Phase.CONTINUE, district, dice[:index] + dice[index + 1 :],
            rolls, six, players[:seat] + (player,) + players[seat + 1 :],
        )
    if isinstance(action, Roll):
        if phase is not Phase.ROLL and phase is not Phase.CONTINUE:
            _require_phase(state, Phase.ROLL, Phase.CONTINUE)
        chosen = _dice_by_ids(state, action.dice)
        if phase is Phase.ROLL and len(chosen) != len(dice):
            raise IllegalActionError(
                "roll_all", "the first roll of a turn rolls all the dice taken"
            )
        if faces is None:
            faces = seeded_faces(state, chosen)
        else:
            faces = tuple(faces)
            if len(faces) != len(chosen) or any(
                f not in DIE_FACES[d.type] for d, f in zip(chosen, faces, strict=True)
            ):
                raise ValueError("faces: one possible face per rolled die expected")
            faces = tuple(map(Face, faces))
        new_face = {d.id: f for d, f in zip(chosen, faces, strict=True)}
        new_dice = tuple(
            Die(d.id, d.type, new_face[d.id]) if d.id in new_face else d for d in dice
        )
        rolled = GameState(
            options, round_, seat, Phase.RESOLVE, district, new_dice, rolls + 1, six, players
        )
        return rolled if can_resolve_any(rolled) else _advance(rolled)
    if isinstance(action, Demolish):
        if phase is not Phase.RESOLVE and phase is not Phase.CONTINUE:
            _require_phase(state, Phase.RESOLVE, Phase.CONTINUE)
        index = _find_die(dice, action.die)
        name, columns, buildings, demolitions = players[seat]
        target = action.index
        pool = buildings if action.completed else columns
        if not 0 <= target < len(pool):
            what = "completed building" if action.completed else "unfinished building"
            raise IllegalActionError(
                "no_target", f"there is no {what} {target}", index=target
            )
        pool = pool[:target] + pool[target + 1 :]
        player = (
            Player(name, columns, pool, demolitions + 1)
            if action.completed
            else Player(name, pool, buildings, demolitions + 1)
        )
        return GameState(
            options, round_, seat, Phase.CONTINUE, district, dice[:index] + dice[index + 1 :],
            rolls, six, players[:seat] + (player,) + players[seat + 1 :],
        )
    if isinstance(action, Abandon):
        if phase is not Phase.RESOLVE and phase is not Phase.CONTINUE:
            _require_phase(state, Phase.RESOLVE, Phase.CONTINUE)
        if len(players) == 1:
            raise IllegalActionError("solo_abandon", "there is no abandoning in the solo game")
        chosen = _dice_by_ids(state, action.dice)
        ids = set(action.dice)
        return GameState(
            options, round_, seat, Phase.CONTINUE,
            tuple(sorted(district + tuple(d.type for d in chosen))),
            tuple(d for d in dice if d.id not in ids), rolls, six, players,
        )
    if isinstance(action, EndTurn):
        if phase is not Phase.CONTINUE:
            _require_phase(state, Phase.CONTINUE)
        return _advance(state)
    if isinstance(action, Take):
        if phase is not Phase.TAKE:
            _require_phase(state, Phase.TAKE)
        types = action.types
        if len(types) != 3 or not all(isinstance(t, DieType) for t in types):
            raise IllegalActionError("take_three", "take exactly three dice from the yard")
        key = tuple(types)
        taken = _TAKE_DICE.get(key)
        if taken is None:
            taken = tuple(Die(i, t, None) for i, t in enumerate(sorted(types)))
            _TAKE_DICE[key] = taken
        return GameState(options, round_, seat, Phase.ROLL, district, taken, rolls, six, players)
    if isinstance(action, TakeDistrict):
        if phase is not Phase.TAKE:
            _require_phase(state, Phase.TAKE)
        if len(players) == 1:
            raise IllegalActionError("solo_district", "the solo game does not use the district")
        if not district:
            raise IllegalActionError("empty_district", "the abandoned district is empty")
        taken = tuple(Die(i, t, None) for i, t in enumerate(district))
        refill = (DieType.GROUND, DieType.UPPER, DieType.PENTHOUSE)
        return GameState(options, round_, seat, Phase.ROLL, refill, taken, rolls, six, players)
    raise ValueError(f"not an action: {action!r}")


def _set(players: tuple[Player, ...], seat: int, player: Player) -> tuple[Player, ...]:
    return players[:seat] + (player,) + players[seat + 1 :]


# --------------------------------------------------------------------------- legal actions

_TAKES = tuple(
    Take((DieType(a), DieType(b), DieType(c)))
    for a in range(3)
    for b in range(a, 3)
    for c in range(b, 3)
)
_END = EndTurn()
_TAKE_DISTRICT = TakeDistrict()


def _groups(dice: Sequence[Die]) -> list[list[int]]:
    """Ids of interchangeable dice (same type and face), grouped."""
    groups: dict[tuple[DieType, Face | None], list[int]] = {}
    for die in dice:
        groups.setdefault((die.type, die.face), []).append(die.id)
    return list(groups.values())


def _selections(groups: list[list[int]]) -> Iterator[tuple[int, ...]]:
    """One selection per distinct nonempty multiset of dice."""
    # the order of itertools.product over the counts (first group slowest), built
    # prefix by prefix: the empty selection comes first and is skipped
    selections: list[tuple[int, ...]] = [()]
    for group in groups:
        prefixes = [tuple(group[:count]) for count in range(len(group) + 1)]
        selections = [s + p for s in selections for p in prefixes]
    for chosen in selections[1:]:
        yield tuple(sorted(chosen))


#: Above this many distinct reroll selections only the structured ones are listed.
MAX_LISTED_REROLLS = 128


def _rerolls(groups: list[list[int]]) -> Iterator[tuple[int, ...]]:
    """Distinct reroll selections. A pool swollen by abandoning (a district of
    thirty dice, say) has millions of them, so above MAX_LISTED_REROLLS the list
    keeps one die of each group, whole groups, all dice, and all but one die of
    each group."""
    total = 1
    for group in groups:
        total *= len(group) + 1
    if total - 1 <= MAX_LISTED_REROLLS:
        yield from _selections(groups)
        return
    everything = tuple(sorted(chain.from_iterable(groups)))
    n = len(everything)
    if any(len(g) >= n - 1 for g in groups):
        yield from _rerolls_by_set(groups, everything)
        return
    # Here (n >= 8) the short selections (single dice, whole groups shorter than
    # n - 1) cannot equal the long ones (all but one die, all dice), so only the
    # short ones need sorting. Dropping a larger id gives a smaller tuple, so the
    # all-but-one selections come in order of decreasing dropped id.
    short = set()
    for group in groups:
        short.add((group[0],))
        short.add(tuple(group))
    yield from sorted(short, key=lambda sel: (len(sel), sel))
    for dropped in sorted((g[-1] for g in groups), reverse=True):
        k = everything.index(dropped)
        yield everything[:k] + everything[k + 1 :]
    yield everything


def _rerolls_by_set(
    groups: list[list[int]], everything: tuple[int, ...]
) -> Iterator[tuple[int, ...]]:
    """The structured selections of :func:`_rerolls`, deduplicated by a set."""
    seen: set[tuple[int, ...]] = set()
    for group in groups:
        seen.add((group[0],))
        seen.add(tuple(group))
        k = everything.index(group[-1])  # ids are unique: drop this one die
        seen.add(everything[:k] + everything[k + 1 :])
    seen.add(everything)
    yield from sorted(seen, key=lambda sel: (len(sel), sel))


def legal_actions(state: GameState) -> list[Action]:
    """Every legal action, one representative for each class of equivalent
    actions (interchangeable dice, columns of the same colour and height).

    Rerolls are listed for every distinct selection (a structured subset when
    there are more than MAX_LISTED_REROLLS, see :func:`_rerolls`). Abandoning is listed one
    die at a time plus all dice at once, since a selection abandoned together
    gives the same state as its dice abandoned one by one (building likewise:
    see :func:`plan_build`). :func:`apply_action` accepts any legal action.
    """
    phase = state.phase
    if phase is Phase.TAKE:
        return [*_TAKES, _TAKE_DISTRICT] if state.district else list(_TAKES)
    if phase is Phase.ROLL:
        return [Roll(tuple(d.id for d in state.dice))]
    if phase is Phase.OVER:
        return []
    actions: list[Action] = []
    dice = state.dice
    player = state.players[state.seat]
    columns = player.columns
    # interchangeable dice (same type and face): one representative per group
    groups: dict[tuple[DieType, Face | None], list[int]] = {}
    reps: list[Die] = []
    for die in dice:
        die_id, die_type, face = die
        key = (die_type, face)
        group = groups.get(key)
        if group is None:
            groups[key] = [die_id]
            reps.append(die)
        else:
            group.append(die_id)
    # interchangeable targets (same colour and height): the first of each
    column_targets = list({c: i for i, c in reversed(tuple(enumerate(columns)))}.values())
    column_targets.sort()
    building_targets = list(
        {b: i for i, b in reversed(tuple(enumerate(player.buildings)))}.values()
    )
    building_targets.sort()
    if len(_ACTION_CACHE) > _ACTION_CACHE_LIMIT:
        _ACTION_CACHE.clear()
    cache = _ACTION_CACHE
    for die in reps:
        die_id = die.id
        for target in build_targets(columns, die):
            key_b = ("b", die_id, target)
            action = cache.get(key_b)
            if action is None:
                action = cache[key_b] = Build(die_id, target)
            actions.append(action)
        for index in column_targets:
            key_c = ("c", die_id, index)
            action = cache.get(key_c)
            if action is None:
                action = cache[key_c] = Demolish(die_id, index, False)
            actions.append(action)
        for index in building_targets:
            key_d = ("d", die_id, index)
            action = cache.get(key_d)
            if action is None:
                action = cache[key_d] = Demolish(die_id, index, True)
            actions.append(action)
    if dice:
        if len(state.players) > 1:
            # Abandoning a selection ends where abandoning its dice one by one
            # ends, so the list offers one die at a time, and all dice at once.
            for die in reps:
                key_a = ("a", die.id)
                action = cache.get(key_a)
                if action is None:
                    action = cache[key_a] = Abandon((die.id,))
                actions.append(action)
            if len(dice) > 1:
                actions.append(Abandon(tuple([d[0] for d in dice])))
        if phase is Phase.CONTINUE:
            if len(dice) <= _REROLL_CACHE_DICE:
                key_r = tuple(map(tuple, groups.values()))
                rolls = _REROLL_CACHE.get(key_r)
                if rolls is None:
                    if len(_REROLL_CACHE) > _ACTION_CACHE_LIMIT:
                        _REROLL_CACHE.clear()
                    rolls = _REROLL_CACHE[key_r] = tuple(
                        _roll(sel) for sel in _rerolls(list(groups.values()))
                    )
                actions.extend(rolls)
            else:
                actions.extend(Roll(sel) for sel in _rerolls(list(groups.values())))
    if phase is Phase.CONTINUE:
        actions.append(_END)
    return actions


def is_legal(state: GameState, action: object) -> bool:
    """Whether the rules allow ``action`` in ``state`` (:func:`apply_action` would accept
    it). Anything that is not an action is not legal.

    >>> state = new_game(Options(("Ada",), seed="demo"))
    >>> is_legal(state, Take((DieType.GROUND,) * 3)), is_legal(state, EndTurn())
    (True, False)
    """
    if not isinstance(action, _ACTION_TYPES):
        return False
    try:
        apply_action(state, action)  # type: ignore[arg-type]
    except IllegalActionError:
        return False
    return True


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


_ACTION_TYPES = (Take, TakeDistrict, Roll, Build, Demolish, Abandon, EndTurn)


#: Actions are immutable, so legal_actions hands out shared instances (bounded caches).
_ACTION_CACHE: dict[tuple[object, ...], Action] = {}
_REROLL_CACHE: dict[tuple[tuple[int, ...], ...], tuple[Roll, ...]] = {}
_ROLL_CACHE: dict[tuple[int, ...], Roll] = {}
_ACTION_CACHE_LIMIT = 4096
_REROLL_CACHE_DICE = 12  # pools up to this size have their reroll lists cached


def _roll(selection: tuple[int, ...]) -> Roll:
    action = _ROLL_CACHE.get(selection)
    if action is None:
        if len(_ROLL_CACHE) > 4 * _ACTION_CACHE_LIMIT:
            _ROLL_CACHE.clear()
        action = _ROLL_CACHE[selection] = Roll(selection)
    return action


# --------------------------------------------------------------------------- scoring


def lone_low_rises(player: Player) -> int:
    """Unfinished purple (low-rise) ground floors: each is scored as a completed height-1
    building (1 point). The one place this rule is written; :func:`final_buildings`,
    :func:`score`, :func:`completed_count` and :func:`game_summary` use it."""
    return sum(1 for c in player.columns if c.kind is P)


def final_buildings(player: Player) -> tuple[Building, ...]:
    """The scored skyline: completed buildings plus lone purple ground floors as
    height-1 tiles; other unfinished columns are discarded."""
    return player.buildings + (Building(P, 1),) * lone_low_rises(player)


def score(player: Player) -> int:
    """Points of a skyline; the same during play and at the end."""
    return sum(b.height * b.height for b in player.buildings) + lone_low_rises(player)


def completed_count(player: Player) -> int:
    """Completed buildings, lone low-rise ground floors included (the tie-break)."""
    return len(player.buildings) + lone_low_rises(player)


def ranking(state: GameState) -> list[int]:
    """Rank of each seat (1 = winner), ties on points and completed buildings shared."""
    keys = [(score(p), completed_count(p)) for p in state.players]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def solo_level(points: int) -> str | None:
    """The solo title reached with ``points``, or None below 40."""
    for threshold, title in SOLO_LEVELS:
        if points >= threshold:
            return title
    return None


#: Each solo scenario as a count and a bound: (what is counted, the bound, at least?).
#: ``at_least``: the count must reach the bound; otherwise it must not exceed it.
SCENARIO_GOALS: dict[str, tuple[str, int, bool]] = {
    "dubai": ("height_3", 3, True),
    "essen": ("demolitions", 0, False),
    "new-york": ("height_5_6", 2, True),
    "sao-paolo": ("height_4", 4, True),
    "shanghai": ("low_rise", 0, False),
    "toronto": ("buildings", 7, False),
    "tucson": ("high_rise", 0, False),
}


def _scenario_count(scenario: str, player: Player) -> int:
    """What ``scenario`` counts in the skyline ``player`` would score now."""
    if scenario not in SCENARIO_GOALS:
        raise ValueError(f"scenario: unknown scenario {scenario!r}")
    what = SCENARIO_GOALS[scenario][0]
    if what == "demolitions":
        return player.demolitions
    final = final_buildings(player)
    if what == "buildings":
        return len(final)
    if what == "low_rise":
        return sum(1 for b in final if b.kind is P)
    if what == "high_rise":
        return sum(1 for b in final if b.kind is O)
    if what == "height_5_6":
        return sum(1 for b in final if b.height >= 5)
    return sum(1 for b in final if b.height == int(what[-1]))


def scenario_met(scenario: str, player: Player) -> bool:
    """Whether the final skyline of ``player`` fulfils a solo scenario."""
    _, bound, at_least = SCENARIO_GOALS.get(scenario, ("", 0, True))
    count = _scenario_count(scenario, player)
    return count >= bound if at_least else count <= bound


@dataclass(frozen=True, slots=True)
class ScenarioProgress:
    """How a solo scenario stands, judged on the skyline as it would score now.

    ``count`` is what the scenario counts (``counted``: ``height_3``, ``height_4``,
    ``height_5_6``, ``buildings``, ``low_rise``, ``high_rise`` or ``demolitions``),
    ``bound`` the number the goal names: ``at_least`` means ``count`` must reach it,
    otherwise ``count`` must not exceed it. ``met``: the goal holds now (at the end of
    the game, the verdict; equal to :func:`scenario_met`). ``settled``: nothing can
    change ``met`` any more (the game is over, or Essen after a demolition).
    """

    scenario: str
    counted: str
    count: int
    bound: int
    at_least: bool
    met: bool
    settled: bool


def scenario_progress(state: GameState) -> ScenarioProgress | None:
    """The solo scenario's standing in ``state`` (None without a scenario).

    >>> s = new_game(Options(("Ada",), seed="demo", scenario="dubai"))
    >>> p = scenario_progress(s)
    >>> (p.count, p.bound, p.at_least, p.met, p.settled)
    (0, 3, True, False, False)
    """
    scenario = state.options.scenario
    if scenario is None or not state.solo:
        return None
    player = state.players[0]
    counted, bound, at_least = SCENARIO_GOALS[scenario]
    count = _scenario_count(scenario, player)
    met = count >= bound if at_least else count <= bound
    over = state.phase is Phase.OVER
    return ScenarioProgress(
        scenario=scenario, counted=counted, count=count, bound=bound, at_least=at_least,
        met=met, settled=over or (counted == "demolitions" and not met),
    )


def build_blocker(state: GameState, die_id: int) -> IllegalActionError | None:
    """Why the active die ``die_id`` cannot be built anywhere now, as the engine's own
    error (``not_rolled``, ``blank_penthouse``, ``needs_column`` with ``params["face"]``
    when no unfinished building has its colour, ``too_high``, ``penthouse_height``);
    None when it can be built. Raises :class:`IllegalActionError` ``no_die`` for a die
    that is not active."""
    die = state.dice[_find_die(state.dice, die_id)]
    columns = state.player.columns
    if build_targets(columns, die):
        return None
    face = die.face
    if face is None or face is X or die.type is DieType.GROUND:
        column = None
    else:
        same = [i for i, c in enumerate(columns) if c.kind is face]
        if not same:
            return IllegalActionError(
                "needs_column", f"no unfinished {face.kind_name} building to go on",
                face=face.kind_name,
            )
        column = same[0]
    try:
        _check_build(columns, die, column)
    except IllegalActionError as exc:
        return exc
    return None  # pragma: no cover - build_targets found none, _check_build agrees


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """One seat's scoring (see :class:`GameSummary`).

    ``buildings`` are the completed tiles; ``converted`` lone low-rise ground floors
    become height-1 tiles and ``discarded`` are the other unfinished columns (they score
    nothing); ``final`` is the scored skyline (tiles plus converted ground floors).
    ``completed`` counts ``final`` (the tie-break), ``rank`` is 1 for a winner.
    """

    seat: int
    name: str
    buildings: tuple[Building, ...]
    converted: int
    discarded: tuple[Column, ...]
    final: tuple[Building, ...]
    score: int
    completed: int
    rank: int
    demolitions: int


@dataclass(frozen=True, slots=True)
class GameSummary:
    """The scoring of a game, at its end or so far (``over`` says which).

    ``winners`` are the seats ranked 1 (several: a shared win); ``tie_break`` is true when
    several players had the best points, so completed buildings decided. Solo only
    (None otherwise): ``level``, the title reached (None below 40, too); ``scenario`` and
    ``scenario_met`` (None without a scenario).
    """

    players: tuple[PlayerSummary, ...]
    over: bool
    winners: tuple[int, ...]
    tie_break: bool
    solo: bool
    level: str | None
    scenario: str | None
    scenario_met: bool | None

    def to_dict(self) -> dict[str, object]:
        """The plain-dict form (letters for kinds) of the former ``summary()``."""
        rows = [
            {
                "seat": p.seat,
                "name": p.name,
                "buildings": [[b.kind.letter, b.height, b.points] for b in p.buildings],
                "converted": p.converted,
                "discarded": [[c.kind.letter, c.height] for c in p.discarded],
                "final": [[b.kind.letter, b.height, b.points] for b in p.final],
                "score": p.score,
                "completed": p.completed,
                "rank": p.rank,
                "demolitions": p.demolitions,
            }
            for p in self.players
        ]
        out: dict[str, object] = {
            "players": rows, "over": self.over, "winners": list(self.winners),
            "tie_break": self.tie_break,
        }
        if self.solo:
            out["level"] = self.level
            out["scenario"] = self.scenario
            out["scenario_met"] = self.scenario_met
        return out


def game_summary(state: GameState) -> GameSummary:
    """The scoring of ``state`` for each seat: tiles, low-rise conversion, totals, ranks,
    and the solo level and scenario.

    >>> s = game_summary(new_game(Options(("Ada",), seed="demo")))
    >>> s.players[0].score, s.players[0].discarded, s.level, s.over
    (0, (Column(kind=<Face.ORANGE: 2>, height=1),), None, False)
    """
    ranks = ranking(state)
    players = tuple(
        PlayerSummary(
            seat=seat,
            name=player.name,
            buildings=player.buildings,
            converted=lone_low_rises(player),
            discarded=tuple(c for c in player.columns if c.kind is not P),
            final=final_buildings(player),
            score=score(player),
            completed=completed_count(player),
            rank=ranks[seat],
            demolitions=player.demolitions,
        )
        for seat, player in enumerate(state.players)
    )
    best = max(p.score for p in players)
    tie_break = len(players) > 1 and sum(1 for p in players if p.score == best) > 1
    solo = state.solo
    scenario = state.options.scenario if solo else None
    return GameSummary(
        players=players,
        over=state.phase is Phase.OVER,
        winners=tuple(p.seat for p in players if p.rank == 1),
        tie_break=tie_break,
        solo=solo,
        level=solo_level(players[0].score) if solo else None,
        scenario=scenario,
        scenario_met=None if scenario is None else scenario_met(scenario, state.players[0]),
    )
