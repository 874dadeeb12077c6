"""Optimal solo play for Skyline: the offline value table plus the exact within-turn search.

Stdlib only (runs in Pyodide).  The table ``skyline/data/solo_values.bin`` is produced by
``scripts/solve_solo.py`` and loaded lazily with ``importlib.resources``.

Abstract model
--------------
A solo position is described by

* ``turns_left``: turns still to be played *including the current one* (9 at the start of
  the game, 1 during the last turn, 0 when the game is over);
* ``columns``: the counts of unfinished columns per class, in ``COLUMN_CLASSES`` order::

      ("purple", 1)                         lone purple ground floor
      ("blue", 1), ("blue", 2), ("blue", 3)  unfinished mid-rise of that height
      ("orange", 1) ... ("orange", 5)         unfinished high-rise of that height

  (unfinished columns of the same class are interchangeable);
* ``tiles``: the heights of the completed buildings (their points, height squared, are
  banked; they matter for the future only as possible victims of a demolition);
* ``mode``: ``"standard"`` (completing a 6-high building ends the game after that turn) or
  ``"nine"`` (always nine rounds).

``value(pos)`` is the expected final score at the start of a turn under optimal play.
Completed tiles' points are included ("banked"), and so is the final point of each lone
purple ground floor.

The table holds ``W[t](counts)``: the expected points still to come with ``t`` turns left,
from the column counts (capped, see ``CAPS``; columns beyond a cap are ignored) and the number
of completed 4-point tiles (height 2; the optimum sometimes sacrifices one when a demolition
is forced, e.g. to keep an orange 5).  It ships the entries the exact turn search needs from
every turn-start position that optimal play reaches with probability >= 1e-5 (about 12,500
positions per mode, 99.7 % of the probability mass at every turn).  Where a lookup is
missing (positions far off the optimal path, e.g. after weak human play) a fitted linear
value is used and the result is flagged ``exact=False``.

Within a turn the search is an exact expectimax over the real position (uncapped counts,
real tiles: sacrificing the smallest tile of height >= 3 is considered too, which the
table's model does not do) with ``W[t-1]`` at the turn end.  It is memoised per
(mode, turns left), so after the first decision of a turn the others are nearly free.
Call ``prepare(mode)`` once at game start (decodes the table for the mode, ~40 ms).

Decision API (for the adapter)
------------------------------
Dice are ``(type, face)`` pairs: type ``"G"`` (ground), ``"U"`` (upper), ``"P"``
(penthouse); face ``"purple" | "blue" | "orange"`` for G and U, ``"blank" | "blue" |
"orange"`` for P (P's blue/orange are the blue/orange penthouses).

``turn_options(pos, dice=None, resolved=False)`` lists every distinct choice with the
expected final score, best first (``Option(action, value, exact)``).  Actions:

* ``("take", ("G", "U", "P"))``: at the turn start (``dice is None``): the three die types to
  take (sorted G < U < P);
* ``("build", i, target)``: build die ``dice[i]``; ``target`` is ``None`` for a ground floor
  (a new column of the die's colour), otherwise the class of the unfinished column the die is
  put on, e.g. ``("blue", 2)`` (an upper floor makes it ``("blue", 3)``, a penthouse
  completes it as a 3-high tile);
* ``("demolish", i, target)``: spend die ``dice[i]`` to remove a column of class ``target``
  (e.g. ``("purple", 1)``) or a completed tile ``("tile", height)``;
* ``("reroll", (i, j, ...))``: reroll those dice (only when ``resolved``);
* ``("end",)``: end the turn (only when ``resolved``; remaining dice go back).

``pos`` is always the *current* position (columns and tiles after what has already been
resolved this turn; ``turns_left`` still counts the current turn).  ``resolved`` says whether
at least one die has been resolved since the last roll.  In the standard game a 6-high tile
in ``pos.tiles`` means it was completed this turn, so the game ends after this turn.
``best_turn_choice(...)`` returns the first option.  Identical dice are interchangeable: the
lowest index with that face is reported.  On exact ties the order is builds, end, rerolls,
demolitions (then generation order), so the bot never demolishes for nothing.

Mapping rules for the adapter: a column's class is its colour and current height (an
unfinished purple is always ``("purple", 1)``); any column of the class may be used.  A
ground floor always starts a new column.  A tile's height is its number of floors (purple
tiles are 2 high).  After each resolution, pass the updated position; after a reroll, pass
``resolved=False`` with the new faces.  If ``turn_options`` returns ``[]`` after a roll,
nothing can be resolved and the turn ends.

Scenarios
---------
``SoloPosition(..., scenario="dubai", counter=x)`` plays one of the seven solo scenarios:
``counter`` is the exact scenario counter of ``skyline.players.scenario_model`` (e.g. the number of
completed 3-high buildings for Dubai), kept by the turn search through every build and
demolition.  Values are then the objective ``expected final score + SUCCESS_WEIGHT *
P(met)`` (``Option.value``), from the scenario's own table
``data/scenarios/<scenario>-<mode>.bin`` (``scripts/solve_scenarios.py``), read only when
that scenario is played (``load_scenario_table``; where the file is not in the package, e.g.
on the web page, it raises ``MissingScenarioTable``, a ``MissingTable`` carrying the path the
host fetches before asking again).  ``scenario_options`` adds to each option the
probability of meeting the scenario and the expected final score (``ScenarioOption``).

Example::

    from skyline import solo_value as sv
    sv.prepare("standard")
    pos = sv.SoloPosition.start("standard")   # turn 1: one orange column of height 1
    sv.best_turn_choice(pos)
    # Option(action=("take", ("G", "G", "G")), value=82.218, exact=True)
    dice = [("G", "purple"), ("G", "orange"), ("G", "purple")]
    sv.turn_options(pos, dice, resolved=False)[:2]
    # [Option(("build", 0, None), 81.470, True), Option(("build", 1, None), 80.905, True)]
    pos = sv.SoloPosition(9, (1, 0, 0, 0, 1, 0, 0, 0, 0))   # after building die 0
    sv.best_turn_choice(pos, [("G", "orange"), ("G", "purple")], resolved=True)
    # Option(("reroll", (0, 1)), 81.470, True)
"""

from __future__ import annotations

import itertools
import struct
import sys
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import accumulate
from typing import TYPE_CHECKING, NamedTuple, Protocol

from . import deferred as _deferred
from .adapter import FACE_P, FACES, TYPES, colour_columns, outcomes, pair_kind, turns_left
from .scenario_model import SCENARIO_MODELS, SUCCESS_WEIGHT, ScenarioModel

if TYPE_CHECKING:
    from ..rules import GameState

__all__ = [
    "BUILDS",
    "CAPS",
    "COLUMN_CLASSES",
    "FACES",
    "FACE_P",
    "TYPES",
    "MissingScenarioTable",
    "MissingTable",
    "Option",
    "ScenarioOption",
    "ScenarioTable",
    "has_scenario_table",
    "install_scenario_table",
    "load_scenario_table",
    "prepare_scenario",
    "scenario_options",
    "scenario_table_path",
    "scenario_value",
    "SoloPosition",
    "best_turn_choice",
    "defer_table",
    "ext_counts",
    "position",
    "ValueTable",
    "load_table",
    "prepare",
    "set_table",
    "turn_options",
    "value",
    "value_info",
]

COLUMN_CLASSES: tuple[tuple[str, int], ...] = (
    ("purple", 1),
    ("blue", 1),
    ("blue", 2),
    ("blue", 3),
    ("orange", 1),
    ("orange", 2),
    ("orange", 3),
    ("orange", 4),
    ("orange", 5),
)
_CLASS_INDEX: dict[tuple[object, ...], int] = {c: i for i, c in enumerate(COLUMN_CLASSES)}
# Default caps of the model: 9 column classes, then the number of 4-point tiles.
CAPS: tuple[int, ...] = (8, 5, 3, 5, 4, 3, 2, 2, 2, 2)
T2 = 9  # index of the 4-point tile count in the extended count vector
# Colour of the tile completed by a die kind (upper purple, blue and orange penthouses).
_TILE_COLOUR = {3: "purple", 7: "blue", 8: "orange"}

# Builds per die kind (type * 3 + face): (remove class, add class, points, tile height).
# Class 9 is the count of 4-point tiles; -1 = none.
BUILDS: tuple[tuple[tuple[int, int, int, int], ...], ...] = (
    ((-1, 0, 0, 0),),
    ((-1, 1, 0, 0),),
    ((-1, 4, 0, 0),),
    ((0, T2, 4, 2),),
    ((1, 2, 0, 0), (2, 3, 0, 0)),
    ((4, 5, 0, 0), (5, 6, 0, 0), (6, 7, 0, 0), (7, 8, 0, 0)),
    (),
    ((1, T2, 4, 2), (2, -1, 9, 3), (3, -1, 16, 4)),
    ((5, -1, 9, 3), (6, -1, 16, 4), (7, -1, 25, 5), (8, -1, 36, 6)),
)


class Option(NamedTuple):
    action: tuple
    #: expected final score (all points, banked included); in a scenario game the objective
    #: expected final score + SUCCESS_WEIGHT * P(scenario met)
    value: float
    exact: bool = True  # False if a fallback (non-table) value was involved


@dataclass(frozen=True)
class SoloPosition:
    """Abstract solo position (see the module docstring)."""

    turns_left: int
    columns: tuple[int, ...] = (0,) * 9
    tiles: tuple[int, ...] = ()
    mode: str = "standard"
    #: the solo scenario played (None: none) and its exact counter (``scenario_model``)
    scenario: str | None = None
    counter: int = 0
    _key: tuple = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.columns) != 9 or min(self.columns) < 0:
            raise ValueError("columns must be 9 non-negative counts")
        if self.mode not in ("standard", "nine"):
            raise ValueError("mode must be 'standard' or 'nine'")
        if any(h < 1 or h > 6 for h in self.tiles):
            raise ValueError("tile heights are 1..6")
        if self.scenario is not None and self.scenario not in SCENARIO_MODELS:
            raise ValueError(f"unknown scenario {self.scenario!r}")
        if self.counter < 0:
            raise ValueError("the scenario counter is a non-negative count")
        object.__setattr__(self, "columns", tuple(int(c) for c in self.columns))
        object.__setattr__(self, "tiles", tuple(sorted(int(h) for h in self.tiles)))

    @classmethod
    def from_columns(
        cls,
        turns_left: int,
        columns: Iterable[tuple[str, int]] = (),
        tiles: Iterable[int] = (),
        mode: str = "standard",
    ) -> SoloPosition:
        """Build from a list of unfinished column classes, e.g. ``[("orange", 1)]``."""
        counts = [0] * 9
        for c in columns:
            counts[_CLASS_INDEX[tuple(c)]] += 1
        return cls(turns_left, tuple(counts), tuple(tiles), mode)

    @classmethod
    def start(cls, mode: str = "standard") -> SoloPosition:
        """The solo start: one orange column of height 1, nine turns."""
        return cls.from_columns(9, [("orange", 1)], (), mode)

    @property
    def banked(self) -> int:
        return sum(h * h for h in self.tiles)

    @property
    def final_score(self) -> int:
        """Score if the game ended now (lone purple ground floors count 1)."""
        return self.banked + self.columns[0]

    @property
    def met(self) -> bool:
        """Whether the scenario would be met if the game ended now (True without one)."""
        if self.scenario is None:
            return True
        return SCENARIO_MODELS[self.scenario].met(self.counter, self.columns[0])

    @property
    def game_ends_after_turn(self) -> bool:
        return self.turns_left <= 1 or (self.mode == "standard" and 6 in self.tiles)


# --------------------------------------------------------------------------------------
# Table
# --------------------------------------------------------------------------------------

MAGIC = b"SKYSOLO1"


def _shuffle(data: bytes, width: int) -> bytes:
    """Byte planes of fixed-width little-endian items (compresses far better)."""
    return b"".join(data[i::width] for i in range(width))


def _unshuffle(planes: bytes, width: int) -> bytes:
    n = len(planes) // width
    out = bytearray(len(planes))
    for i in range(width):
        out[i::width] = planes[i * n : (i + 1) * n]
    return bytes(out)


class ValueTable:
    """W[mode][t] lookups on capped count vectors; fallback: fitted linear value.

    Binary format (version 1)::

        b"SKYSOLO1", u32 little-endian header length, JSON header (utf-8),
        then one zlib blob per mode (sizes in header["blob_sizes"], order header["modes"]).

    The header holds: format, caps (9 column classes + number of 4-point tiles), classes,
    modes, turns, scale, counts[mode][t] (entries per level, t = 0..turns, t = 0 empty),
    linear[mode][t] (fallback: bias, then one coefficient per capped count), optimum[mode]
    (value of the start) and notes on the model.  A mode's blob (after zlib) is two byte-plane
    shuffled arrays: all levels' u32 index deltas, then all levels' i16 value deltas.  Per level
    the flat indices (mixed radix over caps + 1 in class order, last class fastest) are sorted
    and delta coded from 0, and the values round(W * scale) delta coded from 0.  A mode is
    decoded on first use (or by ``prepare``).
    """

    def __init__(
        self,
        caps: tuple[int, ...],
        levels: dict[str, list[tuple[Sequence[int], Sequence[int]]]],
        linear: dict[str, list[list[float]]],
        meta: dict | None = None,
        blobs: dict[str, bytes] | None = None,
    ) -> None:
        self.caps = tuple(caps)
        self._levels = dict(levels)  # mode -> [t] -> (sorted flat indices, scaled values)
        self._blobs = dict(blobs or {})
        self.linear = linear  # mode -> [t] -> [bias, coef per count]
        self.meta = meta or {}
        self.scale = self.meta.get("scale", 256)
        self.radix = []
        r = 1
        for c in reversed(self.caps):
            self.radix.append(r)
            r *= c + 1
        self.radix.reverse()

    @property
    def modes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys([*self._levels, *self._blobs]))

    def _level(self, mode: str, t: int) -> tuple[Sequence[int], Sequence[int]]:
        lv = self._levels.get(mode)
        if lv is None:
            lv = self._levels[mode] = self._decode(mode)
        level = lv[t]
        if callable(level):  # still delta coded: decoded on first use, one level at a time
            level = lv[t] = level()
        return level

    def level(self, mode: str, t: int) -> dict[int, float]:
        """All shipped entries {flat index: value} of W[t]."""
        idx, vals = self._level(mode, t)
        return {i: v / self.scale for i, v in zip(idx, vals, strict=True)}

    def _decode(self, mode: str) -> list[tuple[Sequence[int], Sequence[int]]]:
        raw = zlib.decompress(self._blobs.pop(mode))
        counts = self.meta["counts"][mode]
        n = sum(counts)
        if len(raw) != 6 * n:
            raise ValueError("corrupt solo value table")
        d_idx = array("I", _unshuffle(raw[: 4 * n], 4))
        d_val = array("h", _unshuffle(raw[4 * n :], 2))
        if sys.byteorder != "little":
            d_idx.byteswap()
            d_val.byteswap()
        # Summing the deltas is the slow part (a Python loop per entry); it is deferred
        # per level so that no single step blocks a browser page for long.
        out: list = []
        pos = 0
        for c in counts:
            out.append(
                lambda a=pos, b=pos + c: (
                    array("I", accumulate(d_idx[a:b])),
                    array("i", accumulate(d_val[a:b])),
                )
            )
            pos += c
        return out

    def prepare(self, mode: str, t: int | None = None) -> None:
        """Decode a mode now (else on its first lookup): all levels, or only level ``t``."""
        levels = range(len(self.meta["counts"][mode])) if t is None else (t,)
        for level in levels:
            self._level(mode, level)

    def index(self, counts: Sequence[int]) -> int:
        i = 0
        for c, cap, r in zip(counts, self.caps, self.radix, strict=False):
            i += (c if c < cap else cap) * r
        return i

    def counts(self, index: int) -> tuple[int, ...]:
        out = []
        for r in self.radix:
            out.append(index // r)
            index %= r
        return tuple(out)

    def lookup(self, mode: str, t: int, counts: Sequence[int]) -> tuple[float, bool]:
        """(W[t](counts), exact?)  ``t >= 1``; counts: 9 column counts + 4-point tiles."""
        idx, vals = self._level(mode, t)
        i = self.index(counts)
        j = bisect_left(idx, i)
        if j < len(idx) and idx[j] == i:
            return vals[j] / self.scale, True
        coef = self.linear[mode][t]
        x = coef[0]
        for c, cap, a in zip(counts, self.caps, coef[1:], strict=False):
            x += a * (c if c < cap else cap)
        return x, False

    @classmethod
    def from_bytes(cls, data: bytes) -> ValueTable:
        import json

        if data[:8] != MAGIC:
            raise ValueError("not a Skyline solo value table")
        (hlen,) = struct.unpack_from("<I", data, 8)
        header = json.loads(data[12 : 12 + hlen].decode())
        if header.get("format") != 1:
            raise ValueError(f"unsupported solo table format {header.get('format')}")
        pos = 12 + hlen
        blobs = {}
        for mode, size in zip(header["modes"], header["blob_sizes"], strict=True):
            blobs[mode] = data[pos : pos + size]
            pos += size
        if pos != len(data):
            raise ValueError("trailing data in solo value table")
        return cls(tuple(header["caps"]), {}, header["linear"], header, blobs)

    @staticmethod
    def to_bytes(
        caps: Sequence[int],
        turns: int,
        entries: dict[str, list[dict[int, int]]],
        linear: dict[str, list[list[float]]],
        scale: int,
        extra: dict | None = None,
    ) -> bytes:
        """``entries[mode][t]`` (t = 0..turns) maps flat index -> round(value * scale)."""
        import json

        blobs = []
        counts: dict[str, list[int]] = {}
        for mode, per_t in entries.items():
            counts[mode] = []
            d_idx = array("I")
            d_val = array("h")
            for t in range(turns + 1):
                items = sorted(per_t[t].items()) if t < len(per_t) else []
                counts[mode].append(len(items))
                pi = pv = 0
                for i, v in items:
                    d_idx.append(i - pi)
                    d_val.append(v - pv)  # OverflowError if a delta leaves int16
                    pi, pv = i, v
            if sys.byteorder != "little":
                d_idx.byteswap()
                d_val.byteswap()
            raw = _shuffle(d_idx.tobytes(), 4) + _shuffle(d_val.tobytes(), 2)
            blobs.append(zlib.compress(raw, 9))
        header = {
            "format": 1,
            "caps": list(caps),
            "classes": [f"{c}{h}" for c, h in COLUMN_CLASSES] + ["tiles4"],
            "modes": list(entries),
            "turns": turns,
            "scale": scale,
            "counts": counts,
            "linear": linear,
            "blob_sizes": [len(b) for b in blobs],
        }
        header.update(extra or {})
        hb = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
        return MAGIC + struct.pack("<I", len(hb)) + hb + b"".join(blobs)


_TABLE: ValueTable | None = None


#: The shipped table, inside the ``skyline`` package.
TABLE_RESOURCE = _deferred.TABLE_RESOURCE

#: Package data files (paths inside ``skyline``) that a host delivers on request instead of
#: shipping them in the package (:mod:`skyline.players.deferred`).
_DEFERRED = _deferred.DEFERRED
defer_table = _deferred.defer_table


class MissingTable(LookupError):
    """A deferred data file (see :func:`defer_table`) is not there yet: the host fetches
    ``path`` (relative to the ``skyline`` package), puts it into the package folder and
    asks again."""

    def __init__(self, path: str) -> None:
        super().__init__(f"data file {path!r} is not loaded yet; the host delivers it")
        self.path = path


def _resource(path: str):
    from importlib import resources

    return resources.files("skyline").joinpath(path)


def table_available() -> bool:
    """Whether a table is loaded, the shipped one is there to load, or the host delivers
    it on request (the expert bot needs it; :mod:`skyline.players.registry` asks)."""
    if _TABLE is not None or TABLE_RESOURCE in _DEFERRED:
        return True
    try:
        return _resource(TABLE_RESOURCE).is_file()
    except (OSError, ValueError):
        return False


def table_loaded() -> bool:
    """Whether a table is loaded (shipped, delivered or set)."""
    return _TABLE is not None


def load_table() -> ValueTable:
    """The shipped table (loaded once); :class:`MissingTable` while a deferred table has
    not been delivered yet."""
    global _TABLE
    if _TABLE is None:
        resource = _resource(TABLE_RESOURCE)
        if TABLE_RESOURCE in _DEFERRED and not resource.is_file():
            raise MissingTable(TABLE_RESOURCE)
        _TABLE = ValueTable.from_bytes(resource.read_bytes())
    return _TABLE


def prepare(mode: str, t: int | None = None) -> None:
    """Load the table and decode ``mode`` (or only its level ``t``) now, e.g. while the page
    is idle, so that the first decision does not pay for it."""
    load_table().prepare(mode, t)


def set_table(table: ValueTable | None) -> None:
    """Replace the table used by the module functions (tests, offline tools)."""
    global _TABLE
    _TABLE = table
    _SOLVERS.clear()


# --------------------------------------------------------------------------------------
# Within-turn expectimax
# --------------------------------------------------------------------------------------

_NEG = float("-inf")


def _hands(k: int) -> list[tuple[int, ...]]:
    return list(itertools.combinations_with_replacement(range(9), k))


_OUTCOMES = {
    tys: outcomes(tys)
    for k in range(1, 4)
    for tys in itertools.combinations_with_replacement(range(3), k)
}


def _remove(hand: tuple[int, ...], kind: int) -> tuple[int, ...]:
    i = hand.index(kind)
    return hand[:i] + hand[i + 1 :]


# Per hand: distinct kinds with the rest; reroll options (kept hand, rerolled types).
_DISTINCT: dict[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...]] = {}
_REROLLS: dict[tuple[int, ...], tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]] = {}
for _k in range(1, 4):
    for _h in _hands(_k):
        _DISTINCT[_h] = tuple((kd, _remove(_h, kd)) for kd in sorted(set(_h)))
        opts = set()
        for r in range(1, _k + 1):
            for sub in itertools.combinations(range(_k), r):
                kept = tuple(_h[i] for i in range(_k) if i not in sub)
                tys = tuple(sorted(_h[i] // 3 for i in sub))
                opts.add((kept, tys))
        _REROLLS[_h] = tuple(sorted(opts))


def _merge(kept: tuple[int, ...], new: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(kept + new))


_REROLL_DIST: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple] = {}
for _h, _opts in _REROLLS.items():
    for _kept, _tys in _opts:
        if (_kept, _tys) not in _REROLL_DIST:
            _REROLL_DIST[_kept, _tys] = tuple((_merge(_kept, o), p) for o, p in _OUTCOMES[_tys])


def _tile_after(m: int, th: int) -> int:
    """Smallest tile of height >= 3 after completing a tile of height ``th``."""
    if th >= 3 and (m == 0 or th < m):
        return th
    return m


_HANDS2 = _hands(2)
_H2 = {h: i for i, h in enumerate(_HANDS2)}
_IDX2 = [[_H2[tuple(sorted((a, b)))] for b in range(9)] for a in range(9)]


class _Lookup(Protocol):
    """What the turn solver reads of a table: ValueTable, ScenarioTable or an offline
    tool's stand-in (see ``set_scenario_table``)."""

    def lookup(self, mode: str, t: int, counts: Sequence[int]) -> tuple[float, bool]: ...


class _TurnSolver:
    """Memoised expectimax for one (mode, turns_left).  Values are points still to come.

    A node is (counts, hand, resolved, game_ends, m): counts = 9 column counts + number of
    4-point tiles (uncapped), hand = sorted die kinds (type * 3 + face), m = height of the
    smallest tile of height >= 3 (0: none; only used when demolishing such a tile).
    Nodes with one or two dice are computed for all hands of that size at once per
    (counts, game_ends, m).

    Pruning (exact given that values grow with every count, which the solver checks): with
    ``resolved`` set a demolition is never better than the best other option (keeping the die
    unused is at least as good), so it is skipped; right after a roll, demolishing with die d
    is only examined when the value of simply dropping d beats the best option so far.

    In a scenario game (``model`` set) counts carry the scenario counter as an eleventh entry,
    values are the objective (points still to come + SUCCESS_WEIGHT * P(met)), and there is
    no pruning: values need not grow with every count (a demolition can save a scenario).
    """

    def __init__(
        self, table: _Lookup, mode: str, t: int, model: ScenarioModel | None = None
    ) -> None:
        self.table = table
        self.mode = mode
        self.std = mode == "standard"
        self.t = t
        self.model = model
        self.prune = model is None
        self.pmemo: dict[tuple, float] = {}
        self.endmemo: dict[tuple, tuple[float, bool]] = {}
        self.movememo: dict[tuple, tuple] = {}
        self.memo1: dict[tuple, tuple] = {}
        self.memo2: dict[tuple, tuple] = {}
        self.memo3: dict[tuple, tuple[float, bool]] = {}
        self.inexact = False  # set when a fallback value was used (since last reset)

    def size(self) -> int:
        return len(self.memo1) + len(self.memo2) + len(self.memo3)

    def end_value(self, cols: tuple[int, ...], ended: bool) -> float:
        if ended or self.t <= 1:
            if self.model is not None and self.model.met(cols[10], cols[0]):
                return cols[0] + SUCCESS_WEIGHT
            return float(cols[0])
        r = self.endmemo.get(cols)
        if r is None:
            r = self.endmemo[cols] = self.table.lookup(self.mode, self.t - 1, cols)
        if not r[1]:
            self.inexact = True
        return r[0]

    def moves(self, cols: tuple[int, ...]) -> tuple:
        """(builds per kind, demolitions) valid at ``cols``.

        builds[kind] = ((points, cols2, tile height, from class), ...);
        demolitions = ((class, cols2), ...) (class 9: a 4-point tile)."""
        mv = self.movememo.get(cols)
        if mv is not None:
            return mv
        model = self.model
        builds = []
        for kind in range(9):
            lst = []
            for rem, add, pts, th in BUILDS[kind]:
                if rem >= 0 and cols[rem] == 0:
                    continue
                c2 = list(cols)
                if rem >= 0:
                    c2[rem] -= 1
                if add >= 0:
                    c2[add] += 1
                if model is not None and th:
                    c2[10] = model.complete(c2[10], _TILE_COLOUR[kind], th)
                lst.append((pts, tuple(c2), th, rem))
            builds.append(tuple(lst))
        dem = []
        for k in range(10):
            if cols[k]:
                c2 = list(cols)
                c2[k] -= 1
                if model is not None:
                    if k == T2:  # a low-rise 4-point tile first, if there is one
                        colour = "purple" if model.name == "shanghai" and c2[10] else "blue"
                        c2[10] = model.demolish_tile(c2[10], colour, 2)
                    else:
                        c2[10] = model.demolish_column(c2[10])
                dem.append((k, tuple(c2)))
        mv = self.movememo[cols] = (tuple(builds), tuple(dem))
        return mv

    def big(self, cols: tuple[int, ...], m: int) -> tuple[int, ...]:
        """Counts after demolishing the smallest tile of height ``m`` >= 3."""
        if self.model is None:
            return cols
        return cols[:10] + (self.model.demolish_tile(cols[10], None, m),)

    def last_die(
        self, cols: tuple[int, ...], ended: bool, m: int
    ) -> tuple[list[float], list[float], bool]:
        """Values with one die left, all nine faces: (right after a roll, after resolving,
        whether a fallback value was used)."""
        key = (cols, ended, m)
        r = self.memo1.get(key)
        if r is not None:
            if r[2]:
                self.inexact = True
            return r
        outer = self.inexact
        self.inexact = False
        end_value = self.end_value
        builds, dem = self.moves(cols)
        end = end_value(cols, ended)
        std = self.std
        dv = _NEG  # demolish with the last die
        for k, c2 in dem:
            x = end_value(c2, ended) - (4.0 if k == T2 else 0.0)
            if x > dv:
                dv = x
        if m:
            x = (end if self.prune else end_value(self.big(cols, m), ended)) - m * m
            if x > dv:
                dv = x
        bval = []
        f0 = []
        for kind in range(9):
            b = _NEG
            for pts, c2, th, _rem in builds[kind]:
                x = pts + end_value(c2, ended or (std and th == 6))
                if x > b:
                    b = x
            bval.append(b)
            v = b if b >= dv else dv
            f0.append(end if v == _NEG else v)  # nothing resolvable: the turn ends
        f1 = []
        p0, p1, p2 = FACE_P
        for kind in range(9):
            ty = kind - kind % 3
            v = 0.0 + p0 * f0[ty] + p1 * f0[ty + 1] + p2 * f0[ty + 2]
            if end > v:
                v = end
            if bval[kind] > v:
                v = bval[kind]
            if not self.prune and dv > v:
                v = dv
            f1.append(v)
        r = self.memo1[key] = (f0, f1, self.inexact)
        self.inexact = self.inexact or outer
        return r

    def two_dice(
        self, cols: tuple[int, ...], ended: bool, m: int
    ) -> tuple[list[float], list[float], bool]:
        """Values with two dice left, all 45 hands (index ``_H2``): (after a roll, after
        resolving, whether a fallback value was used)."""
        key = (cols, ended, m)
        r = self.memo2.get(key)
        if r is not None:
            if r[2]:
                self.inexact = True
            return r
        outer = self.inexact
        self.inexact = False
        builds, dem = self.moves(cols)
        end = self.end_value(cols, ended)
        last = self.last_die
        std = self.std
        # bv[a][b]: best build of die a, die b left (resolved)
        bv = []
        for a in range(9):
            row = [_NEG] * 9
            for pts, c2, th, _rem in builds[a]:
                if th:
                    f1 = last(c2, ended or (std and th == 6), _tile_after(m, th))[1]
                else:
                    f1 = last(c2, ended, m)[1]
                for b in range(9):
                    x = pts + f1[b]
                    if x > row[b]:
                        row[b] = x
            bv.append(row)
        keep = last(cols, ended, m)[1]  # die dropped for free: bound for demolitions
        dvs: list | None = None
        f0 = []
        for a, b in _HANDS2:
            best = bv[a][b] if bv[a][b] >= bv[b][a] else bv[b][a]
            if (dem or m) and (not self.prune or keep[b] > best or keep[a] > best):
                if dvs is None:
                    dvs = [_NEG] * 9
                    for k, c2 in dem:
                        f1 = last(c2, ended, m)[1]
                        cost = 4.0 if k == T2 else 0.0
                        for r_ in range(9):
                            x = f1[r_] - cost
                            if x > dvs[r_]:
                                dvs[r_] = x
                    if m:
                        f1 = last(self.big(cols, m), ended, 6)[1]
                        for r_ in range(9):
                            x = f1[r_] - m * m
                            if x > dvs[r_]:
                                dvs[r_] = x
                if dvs[a] > best:
                    best = dvs[a]
                if dvs[b] > best:
                    best = dvs[b]
            f0.append(end if best == _NEG else best)
        p0, p1, p2 = FACE_P
        # rr1[T][a]: keep die a, reroll one die of type T
        rr1 = [
            [
                0.0 + p0 * f0[_IDX2[a][ty]] + p1 * f0[_IDX2[a][ty + 1]] + p2 * f0[_IDX2[a][ty + 2]]
                for a in range(9)
            ]
            for ty in (0, 3, 6)
        ]
        rr2 = {}
        for tys in ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)):
            x = 0.0
            for h2, p in _REROLL_DIST[(), tys]:
                x += p * f0[_H2[h2]]
            rr2[tys] = x
        f1s = []
        for a, b in _HANDS2:
            best = bv[a][b] if bv[a][b] >= bv[b][a] else bv[b][a]
            if end > best:
                best = end
            ta, tb = a // 3, b // 3
            x = rr1[tb][a]
            if x > best:
                best = x
            x = rr1[ta][b]
            if x > best:
                best = x
            x = rr2[(ta, tb)]
            if x > best:
                best = x
            if dvs is not None and not self.prune:
                if dvs[a] > best:
                    best = dvs[a]
                if dvs[b] > best:
                    best = dvs[b]
            f1s.append(best)
        r = self.memo2[key] = (f0, f1s, self.inexact)
        self.inexact = self.inexact or outer
        return r

    def three_dice(
        self, cols: tuple[int, ...], hand: tuple[int, ...], ended: bool, m: int
    ) -> float:
        """Value right after rolling three dice."""
        key = (cols, hand, ended, m)
        r = self.memo3.get(key)
        if r is not None:
            if r[1]:
                self.inexact = True
            return r[0]
        outer = self.inexact
        self.inexact = False
        builds, dem = self.moves(cols)
        std = self.std
        two = self.two_dice
        best = _NEG
        for kind, rest in _DISTINCT[hand]:
            ri = _H2[rest]
            for pts, c2, th, _rem in builds[kind]:
                if th:
                    x = pts + two(c2, ended or (std and th == 6), _tile_after(m, th))[1][ri]
                else:
                    x = two(c2, ended, m)[1][ri]
                if x > best:
                    best = x
        if dem or m:
            for _kind, rest in _DISTINCT[hand]:
                ri = _H2[rest]
                if self.prune and two(cols, ended, m)[1][ri] <= best:
                    continue
                for k, c2 in dem:
                    x = two(c2, ended, m)[1][ri] - (4.0 if k == T2 else 0.0)
                    if x > best:
                        best = x
                if m:
                    x = two(self.big(cols, m), ended, 6)[1][ri] - m * m
                    if x > best:
                        best = x
        if best == _NEG:
            best = self.end_value(cols, ended)
        self.memo3[key] = (best, self.inexact)
        self.inexact = self.inexact or outer
        return best

    def f(
        self, cols: tuple[int, ...], hand: tuple[int, ...], flag: bool, ended: bool, m: int
    ) -> float:
        """Value of a node (points still to come)."""
        n = len(hand)
        if n == 0:
            return self.end_value(cols, ended)
        if n == 1:
            r = self.last_die(cols, ended, m)
            return (r[1] if flag else r[0])[hand[0]]
        if n == 2:
            r = self.two_dice(cols, ended, m)
            return (r[1] if flag else r[0])[_H2[hand]]
        assert not flag
        return self.three_dice(cols, hand, ended, m)

    def take_value(self, cols: tuple[int, ...], tys: tuple[int, ...], m: int) -> float:
        f = self.three_dice
        return sum(p * f(cols, h, False, m) for h, p in _OUTCOMES[tys])


_SOLVERS: dict[tuple[str, int, str | None], _TurnSolver] = {}
_MEMO_LIMIT = 50_000


def _solver(mode: str, t: int, scenario: str | None = None) -> _TurnSolver:
    key = (mode, t, scenario)
    s = _SOLVERS.get(key)
    if s is None or s.size() > _MEMO_LIMIT:
        if scenario is None:
            s = _TurnSolver(load_table(), mode, t)
        else:
            table = load_scenario_table(scenario, mode)
            s = _TurnSolver(table, mode, t, SCENARIO_MODELS[scenario])
        _SOLVERS[key] = s
    return s


def position(state: GameState, seat: int | None = None) -> SoloPosition:
    """The abstract position of ``seat`` (default: the active player) in the engine's
    ``state`` at this moment (see :mod:`.adapter`)."""
    seat = state.seat if seat is None else seat
    player = state.players[seat]
    mode = "nine" if state.options.all_nine else "standard"
    pos = SoloPosition.from_columns(
        turns_left(state, seat), colour_columns(player.columns),
        [b.height for b in player.buildings], mode,
    )
    scenario = state.options.scenario if state.solo else None
    if scenario is None:
        return pos
    counter = SCENARIO_MODELS[scenario].count(colour_columns(player.buildings),
                                              player.demolitions)
    return replace(pos, scenario=scenario, counter=counter)


def ext_counts(pos: SoloPosition) -> tuple[int, ...]:
    """The table's count vector of ``pos``: the column classes, the 4-point tiles and, in a
    scenario, its counter."""
    cols = pos.columns + (sum(1 for h in pos.tiles if h == 2),)
    return cols if pos.scenario is None else cols + (pos.counter,)


def _min_big_tile(tiles: Iterable[int]) -> int:
    return min((h for h in tiles if h >= 3), default=0)


def value(pos: SoloPosition) -> float:
    """Expected final score at the start of a turn, under optimal play (banked included)."""
    return value_info(pos)[0]


def value_info(pos: SoloPosition) -> tuple[float, bool]:
    """(value, exact): the table entry if shipped, else the best dice choice of the exact turn
    search (exact if every lookup it needed was shipped; otherwise fallback values were used)."""
    if pos.turns_left <= 0:
        return float(pos.final_score) + (SUCCESS_WEIGHT if pos.met and pos.scenario else 0), True
    table = load_table() if pos.scenario is None else load_scenario_table(pos.scenario, pos.mode)
    v, exact = table.lookup(pos.mode, pos.turns_left, ext_counts(pos))
    if exact:
        return pos.banked + v, True
    best = turn_options(pos)[0]
    return best.value, best.exact


def turn_options(
    pos: SoloPosition,
    dice: Sequence[tuple[str, str]] | None = None,
    resolved: bool = False,
) -> list[Option]:
    """All distinct choices at this decision point with their expected final score, best first.

    ``dice is None``: turn start, choose the die types.  Otherwise ``dice`` are the remaining
    rolled dice and ``resolved`` tells whether a die was resolved since the last roll.
    Returns ``[]`` when there is nothing to decide (no dice, or nothing resolvable after a
    roll: the turn ends).
    """
    if pos.turns_left <= 0:
        return []
    s = _solver(pos.mode, pos.turns_left, pos.scenario)
    cols = ext_counts(pos)
    ended = pos.mode == "standard" and 6 in pos.tiles
    m = _min_big_tile(pos.tiles)
    banked = pos.banked
    out: list[Option] = []
    if dice is None:
        for tys in itertools.combinations_with_replacement(range(3), 3):
            s.inexact = False
            v = s.take_value(cols, tys, m)
            out.append(Option(("take", tuple(TYPES[i] for i in tys)), banked + v, not s.inexact))
    else:
        kinds = [pair_kind(d) for d in dice]
        hand = tuple(sorted(kinds))
        if not hand:
            return []
        big = sorted(h for h in pos.tiles if h >= 3)
        for raw, v, exact in _node_options(s, cols, hand, resolved, ended, m, big[1:2]):
            out.append(Option(_public_action(raw, kinds), banked + v, exact))
    out.sort(key=lambda o: -o.value)
    return out


def _node_options(
    s: _TurnSolver, cols, hand, flag, ended, m, next_big=()
) -> list[tuple[tuple, float, bool]]:
    """Raw options at a within-turn node: (raw action, points to come, exact), in a fixed
    order: builds, end, rerolls, demolitions (ties go to the earlier one).  Raw actions:
    ("resolve", kind, (verb, target), gain, cols2, rest, ended2, m2), ("end",),
    ("reroll", kept, types)."""
    out: list[tuple[tuple, float, bool]] = []
    builds, dem = s.moves(cols)
    for kind, rest in _DISTINCT[hand]:
        for pts, c2, th, rem in builds[kind]:
            e2 = ended or (s.std and th == 6)
            m2 = _tile_after(m, th)
            s.inexact = False
            v = pts + s.f(c2, rest, True, e2, m2)
            target = None if rem < 0 else COLUMN_CLASSES[rem]
            out.append(
                (("resolve", kind, ("build", target), pts, c2, rest, e2, m2), v, not s.inexact)
            )
    if flag:
        s.inexact = False
        v = s.end_value(cols, ended)
        out.append((("end",), v, not s.inexact))
        for kept, tys in _REROLLS[hand]:
            s.inexact = False
            v = 0.0
            for h2, p in _REROLL_DIST[kept, tys]:
                v += p * s.f(cols, h2, False, ended, m)
            out.append((("reroll", kept, tys), v, not s.inexact))
    for kind, rest in _DISTINCT[hand]:
        for k, c2 in dem:
            s.inexact = False
            gain = -4 if k == T2 else 0
            v = gain + s.f(c2, rest, True, ended, m)
            target = ("tile", 2) if k == T2 else COLUMN_CLASSES[k]
            out.append(
                (
                    ("resolve", kind, ("demolish", target), gain, c2, rest, ended, m),
                    v,
                    not s.inexact,
                )
            )
        if m:
            s.inexact = False
            m2 = next_big[0] if next_big else 0
            c2 = s.big(cols, m)
            v = -m * m + s.f(c2, rest, True, ended, m2)
            out.append(
                (
                    ("resolve", kind, ("demolish", ("tile", m)), -m * m, c2, rest, ended, m2),
                    v,
                    not s.inexact,
                )
            )
    return out


def _public_action(raw: tuple, kinds: Sequence[int]) -> tuple:
    if raw[0] == "resolve":
        verb, target = raw[2]
        return (verb, kinds.index(raw[1]), target)
    if raw[0] == "end":
        return ("end",)
    need = list(raw[1])
    idx = []
    for i, k in enumerate(kinds):
        if k in need:
            need.remove(k)
        else:
            idx.append(i)
    return ("reroll", tuple(idx))


def best_turn_choice(
    pos: SoloPosition,
    dice: Sequence[tuple[str, str]] | None = None,
    resolved: bool = False,
) -> Option | None:
    """The optimal choice (see ``turn_options``); ``None`` if there is nothing to decide."""
    opts = turn_options(pos, dice, resolved)
    return opts[0] if opts else None


# --------------------------------------------------------------------------------------
# Scenario tables and the probability of meeting a scenario
# --------------------------------------------------------------------------------------

SCENARIO_MAGIC = b"SKYSCEN1"


class ScenarioTable:
    """Values of one solo scenario in one mode (``scripts/solve_scenarios.py``).

    Per turn level and shipped count vector (10 solo counts + the scenario counter, capped
    at ``caps``) two numbers under the policy optimal for ``score + SUCCESS_WEIGHT * met``:
    the expected points still to come ``S`` and the probability ``P`` of meeting the
    scenario. ``lookup`` gives the objective ``S + SUCCESS_WEIGHT * P``.

    Binary format::

        b"SKYSCEN1", u32 little-endian header length, JSON header, one zlib blob: the
        byte-plane shuffled u32 index deltas, i32 deltas of round(S * scale), i32 deltas of
        round(P * p_scale), all levels one after the other (entries per level in
        header["counts"], indices sorted per level, deltas from 0 per level). The flat index
        is mixed radix over ``caps + 1`` with the scenario counter most significant and the
        solo counts after it, the last fastest.

    Missing entries fall back to the header's per-level linear fits of S and P (inexact).
    """

    def __init__(self, header: dict, blob: bytes) -> None:
        self.meta = header
        self.caps = tuple(header["caps"])
        self.mode = header["mode"]
        self.scenario = header["scenario"]
        self.scale = header["scale"]
        self.p_scale = header["p_scale"]
        self._blob: bytes | None = blob
        self._levels: list = []
        # flat index: the scenario counter (last count) is the most significant digit, then
        # the solo counts in order, the last fastest (entries of one counter value together
        # compress better)
        self.radix: list[int] = [0] * len(self.caps)
        r = 1
        for k in range(len(self.caps) - 2, -1, -1):
            self.radix[k] = r
            r *= self.caps[k] + 1
        self.radix[-1] = r

    @classmethod
    def from_bytes(cls, data: bytes) -> ScenarioTable:
        import json

        if data[:8] != SCENARIO_MAGIC:
            raise ValueError("not a Skyline scenario value table")
        (hlen,) = struct.unpack_from("<I", data, 8)
        header = json.loads(data[12 : 12 + hlen].decode())
        if header.get("format") != 1:
            raise ValueError(f"unsupported scenario table format {header.get('format')}")
        blob = data[12 + hlen :]
        if len(blob) != header["blob_size"]:
            raise ValueError("truncated scenario value table")
        return cls(header, blob)

    @staticmethod
    def to_bytes(
        header: dict, entries: list[dict[int, tuple[int, int]]]
    ) -> bytes:
        """``entries[t]`` maps flat index -> (round(S * scale), round(P * p_scale))."""
        import json

        d_idx, d_s, d_p = array("I"), array("i"), array("i")
        counts = []
        for per_t in entries:
            items = sorted(per_t.items())
            counts.append(len(items))
            pi = ps = pp = 0
            for i, (sv_, pv) in items:
                d_idx.append(i - pi)
                d_s.append(sv_ - ps)
                d_p.append(pv - pp)
                pi, ps, pp = i, sv_, pv
        if sys.byteorder != "little":
            for a in (d_idx, d_s, d_p):
                a.byteswap()
        raw = _shuffle(d_idx.tobytes(), 4) + _shuffle(d_s.tobytes(), 4) + _shuffle(d_p.tobytes(), 4)
        blob = zlib.compress(raw, 9)
        header = dict(header, format=1, counts=counts, blob_size=len(blob))
        hb = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
        return SCENARIO_MAGIC + struct.pack("<I", len(hb)) + hb + blob

    def _decode(self) -> None:
        assert self._blob is not None
        raw = zlib.decompress(self._blob)
        counts = self.meta["counts"]
        n = sum(counts)
        if len(raw) != 12 * n:
            raise ValueError("corrupt scenario value table")
        planes = [array(code, _unshuffle(raw[4 * n * k : 4 * n * (k + 1)], 4))
                  for k, code in enumerate("Iii")]
        if sys.byteorder != "little":
            for a in planes:
                a.byteswap()
        pos = 0
        for c in counts:
            self._levels.append(
                lambda a=pos, b=pos + c: tuple(
                    array(code, accumulate(plane[a:b]))
                    for code, plane in zip("Iii", planes, strict=True)
                )
            )
            pos += c
        self._blob = None

    def _level(self, t: int) -> tuple[Sequence[int], Sequence[int], Sequence[int]]:
        if self._blob is not None:
            self._decode()
        level = self._levels[t]
        if callable(level):
            level = self._levels[t] = level()
        return level

    def prepare(self, t: int | None = None) -> None:
        """Decode all levels now (or only level ``t``)."""
        for level in range(len(self.meta["counts"])) if t is None else (t,):
            self._level(level)

    def index(self, counts: Sequence[int]) -> int:
        i = 0
        for c, cap, r in zip(counts, self.caps, self.radix, strict=True):
            i += (c if c < cap else cap) * r
        return i

    def lookup_pair(self, t: int, counts: Sequence[int]) -> tuple[float, float, bool]:
        """(expected points still to come, P(met), exact?) with ``t >= 1`` turns left.

        Lone low-rise ground floors beyond the table's cap are forgotten by the model, but
        they still count against Toronto and Shanghai at the end: for those the lookup counts
        each such floor as a building the scenario counter cannot lose again."""
        extra = counts[0] - self.caps[0]
        if extra > 0 and self.scenario in ("toronto", "shanghai"):
            x = counts[-1] + extra if self.scenario == "toronto" else self.caps[-1]
            counts = (*counts[:-1], x)
        idx, s_vals, p_vals = self._level(t)
        i = self.index(counts)
        j = bisect_left(idx, i)
        if j < len(idx) and idx[j] == i:
            return s_vals[j] / self.scale, p_vals[j] / self.p_scale, True
        fits = []
        for coef in self.meta["linear"][t]:
            x = coef[0]
            for c, cap, a in zip(counts, self.caps, coef[1:], strict=True):
                x += a * (c if c < cap else cap)
            fits.append(x)
        return fits[0], min(1.0, max(0.0, fits[1])), False

    def lookup(self, mode: str, t: int, counts: Sequence[int]) -> tuple[float, bool]:
        """The objective ``S + SUCCESS_WEIGHT * P`` (the interface of ``ValueTable``)."""
        s, p, exact = self.lookup_pair(t, counts)
        return s + SUCCESS_WEIGHT * p, exact

    def lookup_p(self, mode: str, t: int, counts: Sequence[int]) -> float:
        return self.lookup_pair(t, counts)[1]


_SCENARIO_TABLES: dict[tuple[str, str], ScenarioTable] = {}


def scenario_table_path(scenario: str, mode: str) -> str:
    """Where a scenario table lives in the package (and in the web build, under the site's
    root): ``data/scenarios/<scenario>-<mode>.bin``."""
    if scenario not in SCENARIO_MODELS or mode not in ("standard", "nine"):
        raise ValueError(f"no scenario table for {scenario!r} / {mode!r}")
    return f"data/scenarios/{scenario}-{mode}.bin"


def install_scenario_table(scenario: str, mode: str, data: bytes) -> None:
    """Hand the bytes of a scenario table to the runtime (the page fetches the file lazily
    when a scenario game starts, then calls this); it replaces the packaged file."""
    scenario_table_path(scenario, mode)  # validates the names
    table = ScenarioTable.from_bytes(bytes(data))
    if table.scenario != scenario or table.mode != mode:
        raise ValueError("scenario table for another scenario or mode")
    _SCENARIO_TABLES[scenario, mode] = table
    for key in [k for k in _SOLVERS if k[2] == scenario and k[0] == mode]:
        del _SOLVERS[key]


def has_scenario_table(scenario: str, mode: str) -> bool:
    """Whether the table can be used now (installed, or found in the package)."""
    if (scenario, mode) in _SCENARIO_TABLES:
        return True
    from importlib import resources

    return resources.files("skyline").joinpath(scenario_table_path(scenario, mode)).is_file()


class MissingScenarioTable(MissingTable):
    """The table of a scenario is neither installed nor in the package.  The web build
    serves every scenario table as a separate file, like the solo table: the host fetches
    ``path`` (relative to the ``skyline`` package) when a scenario game first needs it, puts
    it into the package folder and asks again (or hands the bytes to
    ``install_scenario_table``)."""

    def __init__(self, scenario: str, mode: str, path: str) -> None:
        super().__init__(path)
        self.scenario = scenario
        self.mode = mode
        self.path = path


def load_scenario_table(scenario: str, mode: str) -> ScenarioTable:
    """The table of a scenario and mode, loaded on first use only (from the package unless
    one was installed with ``install_scenario_table``)."""
    table = _SCENARIO_TABLES.get((scenario, mode))
    if table is None:
        from importlib import resources

        path = scenario_table_path(scenario, mode)
        try:
            data = resources.files("skyline").joinpath(path).read_bytes()
        except FileNotFoundError:
            raise MissingScenarioTable(scenario, mode, path) from None
        table = _SCENARIO_TABLES[scenario, mode] = ScenarioTable.from_bytes(data)
    return table


def prepare_scenario(scenario: str, mode: str, t: int | None = None) -> None:
    """Decode a scenario table now (all levels, or only level ``t``), e.g. while idle."""
    load_scenario_table(scenario, mode).prepare(t)


def set_scenario_table(scenario: str, mode: str, table: object | None) -> None:
    """Replace (or with None forget) the table of a scenario (offline tools, tests)."""
    if table is None:
        _SCENARIO_TABLES.pop((scenario, mode), None)
    else:
        # an offline tool's stand-in has ScenarioTable's lookups only
        _SCENARIO_TABLES[scenario, mode] = table  # type: ignore[assignment]
    for key in [k for k in _SOLVERS if k[2] == scenario and k[0] == mode]:
        del _SOLVERS[key]


def _p_end(s: _TurnSolver, cols: tuple[int, ...], ended: bool) -> float:
    assert s.model is not None
    if ended or s.t <= 1:
        return 1.0 if s.model.met(cols[10], cols[0]) else 0.0
    # a scenario solver (model set) holds a scenario table, which has lookup_p
    return s.table.lookup_p(s.mode, s.t - 1, cols)  # type: ignore[attr-defined]


def _p_node(s: _TurnSolver, cols, hand, flag, ended, m, next_big=()) -> float:
    """P(met) of a within-turn node when the objective's optimal choice is played on."""
    if not hand:
        return _p_end(s, cols, ended)
    key = (cols, hand, flag, ended, m)
    r = s.pmemo.get(key)
    if r is not None:
        return r
    opts = _node_options(s, cols, hand, flag, ended, m, next_big)
    r = _p_follow(s, cols, hand, ended, m, opts) if opts else _p_end(s, cols, ended)
    s.pmemo[key] = r
    return r


def _p_follow(s: _TurnSolver, cols, hand, ended, m, opts) -> float:
    best = max(range(len(opts)), key=lambda i: (opts[i][1], -i))
    return _p_raw(s, cols, ended, m, opts[best][0])


def _p_raw(s: _TurnSolver, cols, ended, m, raw: tuple) -> float:
    """P(met) after the raw option ``raw`` of a node at ``cols`` (see ``_node_options``)."""
    if raw[0] == "end":
        return _p_end(s, cols, ended)
    if raw[0] == "reroll":
        _, kept, tys = raw
        return sum(q * _p_node(s, cols, h2, False, ended, m) for h2, q in _REROLL_DIST[kept, tys])
    _, _kind_, _what, _gain, c2, rest, e2, m2 = raw
    return _p_node(s, c2, rest, True, e2, m2)


class ScenarioOption(NamedTuple):
    """A choice in a scenario game: the solver's action, the probability of meeting the
    scenario and the expected final score when the optimal policy plays on, the objective
    ``expected_score + SUCCESS_WEIGHT * p_success`` and whether only shipped values were
    used."""

    action: tuple
    p_success: float
    expected_score: float
    objective: float
    exact: bool = True


def scenario_options(
    pos: SoloPosition,
    dice: Sequence[tuple[str, str]] | None = None,
    resolved: bool = False,
    top: int | None = None,
) -> list[ScenarioOption]:
    """``turn_options`` of a scenario position with the probability of meeting the scenario
    and the expected final score of each option (the ``top`` best, all if None)."""
    if pos.scenario is None:
        raise ValueError("scenario_options needs a position with a scenario")
    opts = turn_options(pos, dice, resolved)
    if top is not None:
        opts = opts[: max(0, top)]
    if not opts:
        return []
    s = _solver(pos.mode, pos.turns_left, pos.scenario)
    cols = ext_counts(pos)
    ended = pos.mode == "standard" and 6 in pos.tiles
    m = _min_big_tile(pos.tiles)
    out = []
    if dice is None:
        for o in opts:
            tys = tuple(sorted(TYPES.index(x) for x in o.action[1]))
            p = sum(q * _p_node(s, cols, h, False, ended, m) for h, q in _OUTCOMES[tys])
            out.append(_scenario_option(o, p))
        return out
    kinds = [pair_kind(d) for d in dice]
    hand = tuple(sorted(kinds))
    big = sorted(h for h in pos.tiles if h >= 3)
    raws = {
        _public_action(raw, kinds): raw
        for raw, _v, _e in _node_options(s, cols, hand, resolved, ended, m, big[1:2])
    }
    for o in opts:
        out.append(_scenario_option(o, _p_raw(s, cols, ended, m, raws[o.action])))
    return out


def _scenario_option(o: Option, p: float) -> ScenarioOption:
    return ScenarioOption(o.action, p, o.value - SUCCESS_WEIGHT * p, o.value, o.exact)


def scenario_value(pos: SoloPosition) -> ScenarioOption:
    """At the start of a turn: P(met) and expected final score under optimal play (the best
    take's option)."""
    if pos.turns_left <= 0:
        met = 1.0 if pos.met else 0.0
        score_ = float(pos.final_score)
        return ScenarioOption(("over",), met, score_, score_ + SUCCESS_WEIGHT * met)
    return scenario_options(pos, top=1)[0]
