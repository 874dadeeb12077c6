#!/usr/bin/env python3
# ruff: noqa: B023  (per-turn closures are only called within their loop iteration)
"""Exact solver for the solo game of Skyline (expected final score under optimal play).

State model (see ``skyline/players/solo_value.py`` for the runtime side):

* At the start of a turn the only things that matter for the *future* score are the number
  of turns left ``t``, the counts of unfinished columns of each kind
  ``(P1, B1, B2, B3, O1, O2, O3, O4, O5)`` (lone purple ground floor; blue of height 1-3;
  orange of height 1-5) and, for forced demolitions, the number ``T2`` of completed 4-point
  tiles (height 2).  Completed tiles otherwise only add their points (banked).
* ``W[t][c]`` = expected number of points still to be scored (completions in the remaining
  ``t`` turns, plus 1 per lone purple ground floor at the end) from counts ``c`` with ``t``
  turns left, under optimal play.  ``W[0][c] = P1``.
* Counts are capped (default 8/5/3/5/4/3/2/2/2, T2 at 2).  A column built beyond the cap of
  its class is *forgotten* (the model keeps the count at the cap and never uses that column
  again); a tile beyond the T2 cap is never sacrificed.  So every modelled policy is playable
  and the model value is a lower bound of the real one.
* Within a turn: expectimax over the three dice types taken, the rolls, each single
  resolution (build a face on a column class, demolish a column class or a 4-point tile with
  any die), the reroll subsets and ending the turn.  Resolving several dice "at once" is the
  same as resolving them one after the other.
* Standard mode: completing a 6-high building ends the game after the current turn; the rest
  of that turn is then worth exactly what a last turn is worth (``t = 1``).

Forced demolition.  If after a roll nothing can be built, a building must be demolished.  The
cheapest victim may be a completed tile: the optimum sometimes takes three penthouse dice for
an orange 5 and, on a blank roll, sacrifices a 4-point tile rather than the column.  The model
tracks the 4-point tiles (``T2``; tracking none loses 0.053 / 0.083 points, cap 1 -> 2 adds
0.002 / 0.005, cap 3 adds < 0.001).  Taller tiles are never sacrificed in the model; if there
is neither a column nor a 4-point tile, the dead end is charged 36 points (the most a tile can
cost), which the optimum never risks.  ``--tiles cheap`` solves the relaxation in which a
tile can always be sacrificed for only 4 points: an upper bound of the true optimum
(standard 82.2202, nine 84.9180 vs. 82.2177 / 84.9143 shipped).  The runtime's within-turn
search uses the real tiles (it also considers sacrificing the smallest taller tile).

Shipping.  The full arrays have ~2.1 M states per turn; the table keeps the entries the exact
turn search needs from every turn-start configuration that optimal play reaches with
probability >= ``MIN_PROB`` (found by following the runtime's own search through every roll),
quantised to 1/256 point, plus a linear fallback per turn.

CLI::

    python scripts/solve_solo.py [--mode standard|nine|both] [--out skyline/data/] [--check]

Deterministic; needs numpy (float32 arrays, ~2.1 M states per turn).  Single-threaded.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Column classes (dimension order of the state arrays).
CLASSES = ("P1", "B1", "B2", "B3", "O1", "O2", "O3", "O4", "O5", "T2")
P1, B1, B2, B3, O1, O2, O3, O4, O5, T2 = range(10)
DEFAULT_CAPS = (8, 5, 3, 5, 4, 3, 2, 2, 2, 2)
TURNS = 9
NEG = -1.0e9
FORCED_PENALTY = 36.0

# Die-face kinds: type * 3 + face.  Types: 0 ground, 1 upper, 2 penthouse.
# Faces of G/U: 0 purple (3/6), 1 blue (2/6), 2 orange (1/6).
# Faces of P:   0 blank (3/6),  1 blue penthouse (2/6), 2 orange penthouse (1/6).
FACE_P = (3 / 6, 2 / 6, 1 / 6)
# Build transitions per kind: (remove_class or None, add_class or None, points, ends_game)
BUILDS: tuple[tuple[tuple[int | None, int | None, int, bool], ...], ...] = (
    ((None, P1, 0, False),),  # G purple: new lone purple
    ((None, B1, 0, False),),  # G blue
    ((None, O1, 0, False),),  # G orange
    ((P1, T2, 4, False),),  # U purple: completes a purple at height 2 (a 4-point tile)
    ((B1, B2, 0, False), (B2, B3, 0, False)),  # U blue
    ((O1, O2, 0, False), (O2, O3, 0, False), (O3, O4, 0, False), (O4, O5, 0, False)),
    (),  # P blank
    ((B1, T2, 4, False), (B2, None, 9, False), (B3, None, 16, False)),  # blue penthouse
    ((O2, None, 9, False), (O3, None, 16, False), (O4, None, 25, False), (O5, None, 36, True)),
)


#: The dice-type multisets a turn can take (three dice).
TYPES3 = list(itertools.combinations_with_replacement(range(3), 3))


def hands_of_size(k: int) -> list[tuple[int, ...]]:
    return list(itertools.combinations_with_replacement(range(9), k))


def remove_one(hand: tuple[int, ...], kind: int) -> tuple[int, ...]:
    lst = list(hand)
    lst.remove(kind)
    return tuple(lst)


def add_one(hand: tuple[int, ...], kind: int) -> tuple[int, ...]:
    return tuple(sorted(hand + (kind,)))


def type_outcomes(types: tuple[int, ...]) -> list[tuple[tuple[int, ...], float]]:
    """All face outcomes (as sorted kind tuples) of rolling dice of the given types."""
    dist: dict[tuple[int, ...], float] = {}
    for faces in itertools.product(range(3), repeat=len(types)):
        p = 1.0
        kinds = []
        for ty, f in zip(types, faces, strict=True):
            p *= FACE_P[f]
            kinds.append(ty * 3 + f)
        key = tuple(sorted(kinds))
        dist[key] = dist.get(key, 0.0) + p
    return sorted(dist.items())


# Physical axis order of the solver's arrays, outermost first (small axes outside so that
# shifted views have long contiguous inner runs).  Indexing below is by class id; ``Ops``
# maps class ids to axes, and ``solve`` returns arrays in class-id order (transposed views).
PHYS = (O5, O4, O3, T2, O2, B2, O1, B1, B3, P1)


class ArrayPool:
    """Reusable arrays of one shape and dtype (``shape``, ``dtype`` and the free list
    ``_free`` are set by the subclass)."""

    shape: tuple[int, ...]
    dtype: type
    _free: list[np.ndarray]

    def get(self, fill: float | None = None) -> np.ndarray:
        a = self._free.pop() if self._free else np.empty(self.shape, self.dtype)
        if fill is not None:
            a.fill(fill)
        return a

    def put(self, *arrays: np.ndarray) -> None:
        self._free.extend(arrays)


class Ops(ArrayPool):
    """In-place "maximum of shifted array" operations on the capped count arrays."""

    def __init__(self, caps: tuple[int, ...], dtype: type = np.float32):
        self.caps = caps
        self.phys = tuple(c for c in PHYS if c < len(caps))
        self.axis = {c: i for i, c in enumerate(self.phys)}
        self.shape = tuple(caps[c] + 1 for c in self.phys)
        self.dtype = dtype
        self.size = int(np.prod(self.shape))
        self.scratch = np.empty(self.size, dtype)
        self._pairs: dict[tuple[int | None, int | None], list[tuple[tuple, tuple]]] = {}
        self._free: list[np.ndarray] = []

    def canonical(self, a: np.ndarray) -> np.ndarray:
        """View of a physical-order array indexed by class id order."""
        inv = [self.axis[c] for c in range(len(self.caps))]
        return a.transpose(inv)

    def pairs(self, rem: int | None, add: int | None) -> list[tuple[tuple, tuple]]:
        """(destination view, source view) index pairs for c -> c - e_rem + e_add (capped)."""
        key = (rem, add)
        if key not in self._pairs:
            n = len(self.shape)
            base_d, base_s = [slice(None)] * n, [slice(None)] * n
            if rem is not None:
                rem = self.axis[rem]
                base_d[rem], base_s[rem] = slice(1, None), slice(0, -1)
            out = []
            if add is not None and add < len(self.caps):
                add = self.axis[add]
                d1, s1 = list(base_d), list(base_s)
                d1[add], s1[add] = slice(0, -1), slice(1, None)
                d2, s2 = list(base_d), list(base_s)
                d2[add], s2[add] = slice(-1, None), slice(-1, None)
                out = [(tuple(d1), tuple(s1)), (tuple(d2), tuple(s2))]
            else:
                out = [(tuple(base_d), tuple(base_s))]
            self._pairs[key] = out
        return self._pairs[key]

    def max_into(
        self, best: np.ndarray, src: np.ndarray, rem: int | None, add: int | None, pts: float
    ) -> None:
        """best[c] = max(best[c], src[c - e_rem + e_add] + pts) wherever c_rem >= 1.

        Adding a column beyond the cap of its class keeps the count at the cap (forgotten).
        """
        for di, si in self.pairs(rem, add):
            dv, sv = best[di], src[si]
            if dv.size == 0:
                continue
            if pts:
                tmp = self.scratch[: sv.size].reshape(sv.shape)
                np.add(sv, pts, out=tmp)
                sv = tmp
            np.maximum(dv, sv, out=dv)


def solve(
    mode: str = "standard",
    caps: tuple[int, ...] = DEFAULT_CAPS,
    turns: int = TURNS,
    tiles: str = "none",
    verbose: bool = False,
    dtype: type = np.float32,
) -> list[np.ndarray]:
    """Return ``W[0..turns]``, arrays of shape ``caps + 1``.

    caps: 9 caps (columns only) or 10 (last: number of 4-point tiles tracked).
    mode: "standard" (6-high ends the game after that turn) or "nine" (all rounds).
    tiles: "none" (shipped, playable model) or "cheap" (relaxation, upper bound).
    """
    assert mode in ("standard", "nine") and tiles in ("none", "cheap")
    assert len(caps) in (9, 10)
    ops = Ops(caps, dtype)
    shape = ops.shape
    track_t2 = len(caps) > T2
    w0 = np.zeros(shape, dtype)
    ax = ops.axis[P1]
    w0 += np.arange(shape[ax], dtype=dtype).reshape((-1,) + (1,) * (len(shape) - 1 - ax))
    W = [w0]
    hands1, hands2 = hands_of_size(1), hands_of_size(2)
    end_arrays: dict[tuple[int, ...], np.ndarray] | None = None  # F1 at t = 1 (standard)
    penalty = FORCED_PENALTY if tiles == "none" else 0.0

    for t in range(1, turns + 1):
        t0 = time.time()
        U = W[t - 1]
        F1: dict[tuple[int, ...], np.ndarray] = {(): U}
        F0: dict[tuple[int, ...], np.ndarray] = {}
        Dm: dict[tuple[int, ...], np.ndarray] = {}

        def demolish_value(rest: tuple[int, ...]) -> np.ndarray:
            if rest not in Dm:
                src = F1[rest]
                best = ops.get(NEG)
                for d in range(9):
                    ops.max_into(best, src, d, None, 0.0)
                if track_t2:  # demolish a tracked 4-point tile
                    ops.max_into(best, src, T2, None, -4.0)
                if tiles == "cheap":
                    np.maximum(best, src - 4.0, out=best)
                Dm[rest] = best
            return Dm[rest]

        def resolve_value(hand: tuple[int, ...], out: np.ndarray | None = None) -> np.ndarray:
            """Best value of resolving one die of ``hand`` (NEG where impossible)."""
            best = ops.get(NEG) if out is None else out
            if out is not None:
                best.fill(NEG)
            for kind in sorted(set(hand)):
                rest = remove_one(hand, kind)
                np.maximum(best, demolish_value(rest), out=best)
                for rem, add, pts, ends in BUILDS[kind]:
                    src = F1[rest]
                    if ends and mode == "standard" and end_arrays is not None:
                        src = end_arrays[rest]
                    ops.max_into(best, src, rem, add, float(pts))
            return best

        def after_roll(hand: tuple[int, ...], out: np.ndarray | None = None) -> np.ndarray:
            r = resolve_value(hand, out)
            # Nothing resolvable: no column and no tracked tile; see module docstring.
            dead = r <= NEG / 2
            if dead.any():
                r[dead] = U[dead] - penalty
            return r

        # Size 1.
        for h in hands1:
            F0[h] = after_roll(h)
        for h in hands1:
            (k,) = h
            ty = k // 3
            v = resolve_value(h)
            np.maximum(v, U, out=v)
            rr = ops.get(0.0)
            for f, p in enumerate(FACE_P):
                rr += p * F0[(ty * 3 + f,)]
            np.maximum(v, rr, out=v)
            ops.put(rr)
            F1[h] = v
        # Size 2.
        for h in hands2:
            F0[h] = after_roll(h)
        tmp = ops.get()
        rr1 = {}
        for ty in range(3):
            for kept in range(9):
                acc = rr1[ty, kept] = ops.get(0.0)
                for f, p in enumerate(FACE_P):
                    np.multiply(F0[add_one((kept,), ty * 3 + f)], p, out=tmp)
                    acc += tmp
        rr2 = {}
        for tys in itertools.combinations_with_replacement(range(3), 2):
            acc = rr2[tys] = ops.get(0.0)
            for h, p in type_outcomes(tys):
                np.multiply(F0[h], p, out=tmp)
                acc += tmp
        ops.put(tmp, *F0.values())
        F0.clear()
        for h in hands2:
            a, b = h
            v = resolve_value(h)
            np.maximum(v, U, out=v)
            np.maximum(v, rr1[a // 3, b], out=v)
            np.maximum(v, rr1[b // 3, a], out=v)
            np.maximum(v, rr2[tuple(sorted((a // 3, b // 3)))], out=v)
            F1[h] = v
        ops.put(*rr1.values(), *rr2.values())
        del rr1, rr2
        if mode == "standard" and t == 1:
            end_arrays = dict(F1)
        # Size 3: accumulate per type multiset, then maximise.
        best = np.full(shape, NEG, dtype)
        acc = ops.get()
        buf = ops.get()
        for tys in TYPES3:
            acc.fill(0.0)
            for h, p in type_outcomes(tys):
                r = after_roll(h, buf)
                r *= p
                acc += r
            np.maximum(best, acc, out=best)
        W.append(best)
        ops.put(acc, buf, *Dm.values())
        Dm.clear()
        if not (mode == "standard" and t == 1):
            ops.put(*(a for h, a in F1.items() if h))
        F1.clear()
        if verbose:
            print(f"  [{mode}] t={t} done in {time.time() - t0:.1f}s", file=sys.stderr)
    return [ops.canonical(w) for w in W]


# --------------------------------------------------------------------------------------
# Shipping: optimal-path states, the lookups their exact turn search needs, the binary file
# --------------------------------------------------------------------------------------

SCALE = 256  # values stored as round(value * SCALE) (resolution ~0.004 points)
MIN_PROB = 1e-5  # ship the lookups of turn-start configurations at least this likely
START = (0, 0, 0, 0, 1, 0, 0, 0, 0, 0)
TABLE_FILE = "solo_values.bin"


def _runtime():
    from skyline.players import solo_value as sv

    return sv


class ArrayTable:
    """Runtime-compatible table backed by the full solver arrays; records every lookup."""

    def __init__(self, caps: tuple[int, ...], W: dict[str, list[np.ndarray]]):
        self.caps = caps
        self.W = W
        self.queried: dict[str, list[set[tuple[int, ...]]]] = {
            m: [set() for _ in w] for m, w in W.items()
        }

    def lookup(self, mode: str, t: int, counts) -> tuple[float, bool]:
        key = tuple(min(c, cap) for c, cap in zip(counts, self.caps, strict=True))
        self.queried[mode][t].add(key)
        return float(self.W[mode][t][key]), True


def play_turn(s, starts, finish, placed, before=None) -> None:
    """Push one turn's start distribution through every roll, each node taking the choice the
    runtime's turn search ``s`` (``sv._solver``) rates best.

    ``starts`` yields ``((cols, m), p)``; ``finish(cols, m, ended, p)`` receives the mass
    that leaves the turn (ended, or no dice left), ``placed(what, gain, p)`` every resolved
    die (``what`` as in the search's options, ``gain`` its points); ``before(cols, p)``, if
    given, is called before the search rates a start's takes."""
    from skyline.players.adapter import outcomes, reroll_dist
    from skyline.players.turn_search import node_options

    # within-turn nodes bucketed by (hand size, flag): process in dependency order
    buckets: dict[tuple[int, bool], dict[tuple, float]] = {
        (k, f): {} for k in range(4) for f in (False, True)
    }
    for (cols, m), p in starts:
        if before is not None:
            before(cols, p)
        vals = [s.take_value(cols, tys, m) for tys in TYPES3]
        tys = TYPES3[max(range(len(vals)), key=lambda i, v=vals: (v[i], -i))]
        for h, q in outcomes(tys):
            key = (cols, m, h, False)
            b = buckets[3, False]
            b[key] = b.get(key, 0.0) + p * q
    for size in (3, 2, 1, 0):
        for flag in (True, False):
            for (cols, m, hand, ended), p in buckets[size, flag].items():
                if not hand:
                    finish(cols, m, ended, p)
                    continue
                opts = node_options(s, cols, hand, flag, ended, m)
                best = max(range(len(opts)), key=lambda i, o=opts: (o[i][1], -i), default=-1)
                if best < 0:
                    finish(cols, m, ended, p)
                    continue
                raw = opts[best][0]
                if raw[0] == "end":
                    finish(cols, m, ended, p)
                elif raw[0] == "reroll":
                    _, kept, tys = raw
                    for h2, q in reroll_dist(kept, tys):
                        key = (cols, m, h2, ended)
                        bb = buckets[size, False]
                        bb[key] = bb.get(key, 0.0) + p * q
                else:
                    _, _kind, what, gain, c2, rest, e2, m2 = raw
                    placed(what, gain, p)
                    key = (c2, m2, rest, e2)
                    bb = buckets[size - 1, True]
                    bb[key] = bb.get(key, 0.0) + p


def forward(
    mode: str, table: ArrayTable, turns: int = TURNS, verbose: bool = False, min_prob: float = 0.0
) -> dict:
    """Follow the optimal policy (the runtime's exact turn search on ``table``) through every
    roll outcome from the start; returns the visited turn-start configurations and the
    expected final score (points gained along the way plus lone purples at the end)."""
    sv = _runtime()
    sv.set_table(table)  # type: ignore[arg-type]
    dist: dict[tuple, float] = {(START, 0): 1.0}  # (counts, smallest tile >= 3) -> prob
    visited: list[dict[tuple, float]] = []
    expected = 0.0
    six_high = 0.0
    dropped = []
    for t in range(turns, 0, -1):
        t0 = time.time()
        small = {k: p for k, p in dist.items() if p < min_prob}
        dropped.append(sum(small.values()))
        for (cols, _m), p in small.items():  # count them at their optimal value
            key = tuple(min(c, cap) for c, cap in zip(cols, table.caps, strict=True))
            expected += p * float(table.W[mode][t][key])
        dist = {k: p for k, p in dist.items() if p >= min_prob}
        visited.append(dict(dist))
        s = sv._solver(mode, t)
        nxt: dict[tuple, float] = {}

        def finish(cols, m, ended, p, t=t):
            nonlocal expected
            if ended or t == 1:
                expected += p * cols[0]
            else:
                nxt[cols, m] = nxt.get((cols, m), 0.0) + p

        def placed(what, gain, p):
            nonlocal expected, six_high
            expected += p * gain
            if what[0] == "build" and gain == 36:
                six_high += p

        play_turn(s, dist.items(), finish, placed)
        if verbose:
            print(
                f"  [{mode}] forward t={t}: {len(visited[-1])} configurations "
                f"({len(small)} dropped, mass {dropped[-1]:.2e}), {s.size()} search blocks, "
                f"{len(table.queried[mode][t - 1])} lookups, {time.time() - t0:.1f}s",
                file=sys.stderr,
            )
        dist = nxt
    return {"visited": visited, "expected": expected, "six_high": six_high, "dropped": dropped}


def linear_fit(w: np.ndarray, keys: list[tuple[int, ...]]) -> list[float]:
    """Least-squares fit of W[t] as bias + coef . counts (the fallback), over the shipped
    entries (or every state if there are few)."""
    if len(keys) >= 200:
        grids = np.array(sorted(keys), dtype=np.float64)
        y = np.array([w[k] for k in sorted(keys)], dtype=np.float64)
    else:
        grids = np.indices(w.shape).reshape(w.ndim, -1).T.astype(np.float64)
        y = w.reshape(-1).astype(np.float64)
    X = np.hstack([np.ones((grids.shape[0], 1)), grids])
    coef, *_ = np.linalg.lstsq(X, y, rcond=None)
    return [round(float(c), 4) for c in coef]


def build_table(
    modes, caps=DEFAULT_CAPS, verbose=True, min_prob: float = MIN_PROB, cache: str | None = None
) -> tuple[bytes, dict]:
    sv = _runtime()
    W: dict[str, list[np.ndarray]] = {}
    report: dict = {"caps": list(caps), "modes": {}}
    for mode in modes:
        t0 = time.time()
        f = Path(cache) / f"W_{mode}.npy" if cache else None
        if f is not None and f.exists():
            W[mode] = list(np.load(f))
        else:
            W[mode] = solve(mode, caps=caps, tiles="none", verbose=verbose)
            if f is not None:
                np.save(f, np.stack([np.ascontiguousarray(w) for w in W[mode]]))
        report["modes"][mode] = {
            "optimum": float(W[mode][TURNS][START]),
            "solve_seconds": round(time.time() - t0, 1),
        }
    for mode in modes:  # the runtime's demolition pruning relies on this
        worst = min(
            float(np.diff(W[mode][t], axis=ax).min())
            for t in range(1, TURNS + 1)
            for ax in range(len(caps))
        )
        report["modes"][mode]["min_increment"] = worst
        if worst < -1e-4:  # float32 rounding only
            raise AssertionError(f"value not monotone in the counts ({mode}): {worst}")
    table = ArrayTable(caps, W)
    entries: dict[str, list[dict[int, int]]] = {}
    linear: dict[str, list[list[float]]] = {}
    radix = sv.ValueTable(caps, {}, {}).radix
    for mode in modes:
        t0 = time.time()
        fw = forward(mode, table, verbose=verbose, min_prob=min_prob)
        need = table.queried[mode]
        # also the turn-start states themselves (value() of visited positions)
        for k, lvl in enumerate(fw["visited"]):
            t = TURNS - k
            for cols, _tiles in lvl:
                need[t].add(tuple(min(c, cap) for c, cap in zip(cols, caps, strict=True)))
        per_t: list[dict[int, int]] = [{}]
        for t in range(1, TURNS + 1):
            d = {}
            for key in need[t]:
                v = int(round(float(W[mode][t][key]) * SCALE))
                if not 0 <= v < 65536:
                    raise ValueError(f"value out of range: {key} {v}")
                d[sum(c * r for c, r in zip(key, radix, strict=True))] = v
            per_t.append(d)
        entries[mode] = per_t
        linear[mode] = [[0.0]] + [
            linear_fit(W[mode][t], list(need[t])) for t in range(1, TURNS + 1)
        ]
        configs = sum(len(lvl) for lvl in fw["visited"])
        report["modes"][mode].update(
            {
                "runtime_expected": fw["expected"],
                "p_six_high": fw["six_high"],
                "visited_configurations": configs,
                "dropped_mass_per_turn": [float(f"{x:.3g}") for x in fw["dropped"]],
                "visited_column_states": len(
                    {(k, c) for k, lvl in enumerate(fw["visited"]) for c, _ in lvl}
                ),
                "table_entries": sum(len(d) for d in per_t),
                "forward_seconds": round(time.time() - t0, 1),
            }
        )
        if verbose:
            print(f"  [{mode}] {json.dumps(report['modes'][mode])}", file=sys.stderr)
    extra = {
        "optimum": {m: report["modes"][m]["optimum"] for m in modes},
        "model": "W[t](P1,B1,B2,B3,O1..O5,tiles4): points still to come, t turns left",
        "min_prob": min_prob,
    }
    data = sv.ValueTable.to_bytes(caps, TURNS, entries, linear, SCALE, extra)
    report["bytes"] = len(data)
    sv.set_table(None)
    return data, report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mode", choices=("standard", "nine", "both"), default="both")
    ap.add_argument("--out", default=str(ROOT / "skyline" / "data"))
    ap.add_argument("--check", action="store_true", help="recompute, compare with the shipped file")
    ap.add_argument("--cache", help="directory to keep/reuse the full solver arrays (development)")
    ap.add_argument(
        "--tiles",
        choices=("none", "cheap"),
        default="none",
        help="'cheap': only print the upper-bound relaxation value (no table written)",
    )
    args = ap.parse_args(argv)
    modes = ("standard", "nine") if args.mode == "both" else (args.mode,)
    t0 = time.time()
    if args.tiles == "cheap":
        for mode in modes:
            W = solve(mode, tiles="cheap", verbose=True)
            print(json.dumps({"mode": mode, "tiles": "cheap", "value": float(W[TURNS][START])}))
        return 0
    data, report = build_table(modes, cache=args.cache)
    report["seconds"] = round(time.time() - t0, 1)
    report["states_per_turn"] = int(np.prod([c + 1 for c in DEFAULT_CAPS]))
    path = Path(args.out) / TABLE_FILE
    for mode in modes:
        r = report["modes"][mode]
        print(
            f"{mode}: optimum {r['optimum']:.4f}  (runtime search on the table: "
            f"{r['runtime_expected']:.4f}; P(6-high) {r['p_six_high']:.3f}; "
            f"{r['visited_configurations']} turn-start configurations; "
            f"{r['table_entries']} table entries)"
        )
    print(
        f"states per turn: {report['states_per_turn']}; table {len(data)} bytes; "
        f"{report['seconds']} s"
    )
    if args.mode != "both":
        print("(a partial table is not written; use --mode both to write or check)")
        print(json.dumps(report))
        return 0
    if args.check:
        old = path.read_bytes() if path.exists() else b""
        ok = old == data
        if not ok and old:
            ok = _same_table(old, data)
        report["check"] = "ok" if ok else "MISMATCH"
        print(json.dumps(report))
        return 0 if ok else 1
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    print(f"wrote {path}")
    print(json.dumps(report))
    return 0


def _same_table(a: bytes, b: bytes) -> bool:
    """Same entries, values within one quantum (guards against last-bit float noise)."""
    sv = _runtime()
    ta, tb = sv.ValueTable.from_bytes(a), sv.ValueTable.from_bytes(b)
    if ta.caps != tb.caps or ta.modes != tb.modes:
        return False
    for mode in ta.modes:
        for t in range(1, TURNS + 1):
            da, db = ta.level(mode, t), tb.level(mode, t)
            if set(da) != set(db):
                print(f"key sets differ ({mode})", file=sys.stderr)
                return False
            bad = [k for k in da if abs(da[k] - db[k]) > 1.01 / SCALE]
            if bad:
                print(f"{len(bad)} values differ ({mode})", file=sys.stderr)
                return False
    return True


if __name__ == "__main__":
    raise SystemExit(main())
