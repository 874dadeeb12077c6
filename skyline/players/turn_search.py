"""The exact within-turn search of the solo expert: an expectimax over one turn.

The search plays the real position (uncapped counts, the real tiles: sacrificing the
smallest tile of height >= 3 is considered too, which the tables' model does not do) and
values the end of the turn from a table with one turn less (:class:`TableLookup`: the solo
table, a scenario table or an offline tool's stand-in). One :class:`TurnSolver` serves one
mode and turns left and memoises every node, so after the first decision of a turn the
others are nearly free.

:func:`node_options` lists the choices at a node (builds, end, rerolls, demolitions, as
raw actions); :func:`public_action` names one in the terms of
:mod:`skyline.players.solo_value`. In a scenario game :func:`p_after` follows the
objective's best choices on to the probability of meeting the scenario.

>>> from skyline.players.solo_model import CAPS
>>> from skyline.players.value_table import ValueTable
>>> flat = ValueTable(CAPS, {"nine": [((), ())] * 2}, {"nine": [[0.0] * 11] * 2})
>>> s = TurnSolver(flat, "nine", 1)  # the last turn: only what is banked counts
>>> purple = (1,) + (0,) * 9  # a lone purple ground floor
>>> [(raw[0], raw[2], v) for raw, v, _ in node_options(s, purple, (3,), False, False, 0)]
[('resolve', ('build', ('purple', 1)), 4.0), ('resolve', ('demolish', ('purple', 1)), 0.0)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations_with_replacement
from typing import Protocol

from .adapter import FACE_P, distinct, outcomes, reroll_dist, rerolls
from .scenario_model import SUCCESS_WEIGHT, ScenarioModel
from .solo_model import COLUMN_CLASSES, T2, build_moves

__all__ = ["TAKES", "TableLookup", "TurnSolver", "node_options", "p_after", "public_action"]

_NEG = float("-inf")
#: The die types a turn may take (type indices, sorted), in the order they are listed.
TAKES = tuple(combinations_with_replacement(range(3), 3))
# Hands of two dice: their order (the index of the two-dice values), by sorted pair.
_HANDS2: tuple[tuple[int, ...], ...] = tuple(combinations_with_replacement(range(9), 2))
_H2: dict[tuple[int, ...], int] = {h: i for i, h in enumerate(_HANDS2)}
_IDX2 = [[_H2[tuple(sorted((a, b)))] for b in range(9)] for a in range(9)]


class TableLookup(Protocol):
    """What the turn solver reads of a table: ValueTable, ScenarioTable or an offline
    tool's stand-in (see ``set_scenario_table``)."""

    def lookup(self, mode: str, t: int, counts: Sequence[int]) -> tuple[float, bool]: ...


def tile_after(m: int, th: int) -> int:
    """Smallest tile of height >= 3 after completing a tile of height ``th``."""
    if th >= 3 and (m == 0 or th < m):
        return th
    return m


def _moves(cols: tuple[int, ...], model: ScenarioModel | None) -> tuple:
    """(builds per kind, demolitions) valid at ``cols``: demolitions = ((class, cols2), ...)
    (class 9: a 4-point tile); with a scenario the counter follows each of them."""
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
    return build_moves(cols, model), tuple(dem)


class TurnSolver:
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
        self, table: TableLookup, mode: str, t: int, model: ScenarioModel | None = None
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
        """(builds per kind, demolitions) valid at ``cols`` (see :func:`_moves`)."""
        mv = self.movememo.get(cols)
        if mv is None:
            mv = self.movememo[cols] = _moves(cols, self.model)
        return mv

    def _solve(self, memo: dict, key: tuple, compute: Callable[..., tuple], *args: object) -> tuple:
        """A memo miss: ``compute(*args)`` with whether it used a fallback value appended,
        stored under ``key``; that flag also joins the caller's."""
        outer = self.inexact
        self.inexact = False
        r = memo[key] = (*compute(*args), self.inexact)
        self.inexact = self.inexact or outer
        return r

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
        if r is None:
            return self._solve(self.memo1, key, self._last_die, cols, ended, m)
        if r[2]:
            self.inexact = True
        return r

    def _last_die(
        self, cols: tuple[int, ...], ended: bool, m: int
    ) -> tuple[list[float], list[float]]:
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
        return f0, f1

    def two_dice(
        self, cols: tuple[int, ...], ended: bool, m: int
    ) -> tuple[list[float], list[float], bool]:
        """Values with two dice left, all 45 hands (index ``_H2``): (after a roll, after
        resolving, whether a fallback value was used)."""
        key = (cols, ended, m)
        r = self.memo2.get(key)
        if r is None:
            return self._solve(self.memo2, key, self._two_dice, cols, ended, m)
        if r[2]:
            self.inexact = True
        return r

    def _two_dice(
        self, cols: tuple[int, ...], ended: bool, m: int
    ) -> tuple[list[float], list[float]]:
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
                    f1 = last(c2, ended or (std and th == 6), tile_after(m, th))[1]
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
            for h2, p in reroll_dist((), tys):
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
        return f0, f1s

    def three_dice(
        self, cols: tuple[int, ...], hand: tuple[int, ...], ended: bool, m: int
    ) -> float:
        """Value right after rolling three dice."""
        key = (cols, hand, ended, m)
        r = self.memo3.get(key)
        if r is None:
            r = self._solve(self.memo3, key, self._three_dice, cols, hand, ended, m)
        elif r[1]:
            self.inexact = True
        return r[0]

    def _three_dice(
        self, cols: tuple[int, ...], hand: tuple[int, ...], ended: bool, m: int
    ) -> tuple[float]:
        builds, dem = self.moves(cols)
        std = self.std
        two = self.two_dice
        best = _NEG
        for kind, rest in distinct(hand):
            ri = _H2[rest]
            for pts, c2, th, _rem in builds[kind]:
                if th:
                    x = pts + two(c2, ended or (std and th == 6), tile_after(m, th))[1][ri]
                else:
                    x = two(c2, ended, m)[1][ri]
                if x > best:
                    best = x
        if dem or m:
            for _kind, rest in distinct(hand):
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
        return (best,)

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
        return sum(p * f(cols, h, False, m) for h, p in outcomes(tys))


# --------------------------------------------------------------------------- choices


def node_options(
    s: TurnSolver, cols: tuple[int, ...], hand: tuple[int, ...], flag: bool, ended: bool,
    m: int, next_big: Sequence[int] = (),
) -> list[tuple[tuple, float, bool]]:
    """Raw options at a within-turn node: (raw action, points to come, exact), in a fixed
    order: builds, end, rerolls, demolitions (ties go to the earlier one).  Raw actions:
    ("resolve", kind, (verb, target), gain, cols2, rest, ended2, m2), ("end",),
    ("reroll", kept, types)."""
    out: list[tuple[tuple, float, bool]] = []
    builds, dem = s.moves(cols)
    for kind, rest in distinct(hand):
        for pts, c2, th, rem in builds[kind]:
            e2 = ended or (s.std and th == 6)
            m2 = tile_after(m, th)
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
        for kept, tys in rerolls(hand):
            s.inexact = False
            v = 0.0
            for h2, p in reroll_dist(kept, tys):
                v += p * s.f(cols, h2, False, ended, m)
            out.append((("reroll", kept, tys), v, not s.inexact))
    for kind, rest in distinct(hand):
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


def public_action(raw: tuple, kinds: Sequence[int]) -> tuple:
    """A raw action of :func:`node_options` with the dice named by their index in the
    roll, whose kinds are ``kinds``."""
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


# --------------------------------------------------------------------------- P(met)


def _p_end(s: TurnSolver, cols: tuple[int, ...], ended: bool) -> float:
    assert s.model is not None
    if ended or s.t <= 1:
        return 1.0 if s.model.met(cols[10], cols[0]) else 0.0
    # a scenario solver (model set) holds a scenario table, which has lookup_p
    return s.table.lookup_p(s.mode, s.t - 1, cols)  # type: ignore[attr-defined]


def _p_node(
    s: TurnSolver, cols: tuple[int, ...], hand: tuple[int, ...], flag: bool, ended: bool, m: int
) -> float:
    """P(met) of a within-turn node when the objective's optimal choice is played on."""
    if not hand:
        return _p_end(s, cols, ended)
    key = (cols, hand, flag, ended, m)
    r = s.pmemo.get(key)
    if r is None:
        opts = node_options(s, cols, hand, flag, ended, m)
        if opts:
            best = max(range(len(opts)), key=lambda i: (opts[i][1], -i))
            r = p_after(s, cols, ended, m, opts[best][0])
        else:
            r = _p_end(s, cols, ended)
        s.pmemo[key] = r
    return r


def p_after(s: TurnSolver, cols: tuple[int, ...], ended: bool, m: int, raw: tuple) -> float:
    """P(met) after the raw option ``raw`` at ``cols`` (a raw action of
    :func:`node_options`, or ``("take", types)`` at the turn start) when the objective's
    optimal choices are played on; ``s`` is a scenario's solver."""
    if raw[0] == "end":
        return _p_end(s, cols, ended)
    if raw[0] == "take":
        return sum(q * _p_node(s, cols, h, False, ended, m) for h, q in outcomes(raw[1]))
    if raw[0] == "reroll":
        _, kept, tys = raw
        return sum(q * _p_node(s, cols, h2, False, ended, m) for h2, q in reroll_dist(kept, tys))
    _, _kind, _what, _gain, c2, rest, e2, m2 = raw
    return _p_node(s, c2, rest, True, e2, m2)
