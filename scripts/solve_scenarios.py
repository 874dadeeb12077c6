#!/usr/bin/env python3
# ruff: noqa: B023  (per-turn closures are only called within their loop iteration)
"""Exact solver for the seven solo scenarios (Dubai ... Tucson), standard and all-nine modes.

The model is the one of ``scripts/solve_solo.py`` (turns left, capped counts of unfinished
column classes, the number of 4-point tiles) plus one scenario counter ``x``
(``skyline/players/scenario_model.py``: what it counts, its cap, when the scenario is
met).  Each state
carries two values under the policy that is optimal for the objective

    J = E[final score] + SUCCESS_WEIGHT * P(scenario met)        (SUCCESS_WEIGHT = 10,000)

namely ``J`` and ``P`` (probability of meeting the scenario); the expected score is
``J - SUCCESS_WEIGHT * P``.  Maximisation is over ``J``; ``P`` follows the maximiser.

Column caps are smaller than the plain solo table's (``SCENARIO_CAPS``): eight scenario tables
per mode would otherwise take hours on two cores; columns beyond a cap are forgotten exactly
as in the plain model, so the model stays a playable lower bound, and the runtime's exact turn
search plays the real (uncapped) position.

Shipping: like the plain table, the entries the runtime's turn search needs from every
turn-start configuration the shipped policy reaches with probability >= ``MIN_PROB``, as
(expected score * 256, P * 2^20) pairs; one file per scenario and mode,
``skyline/data/scenarios/<scenario>-<mode>.bin``.

CLI::

    python scripts/solve_scenarios.py [--scenario NAME|all] [--mode standard|nine|both]
                                      [--check] [--cache DIR]

``--check`` recomputes every table and compares it byte for byte with the shipped file.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from solve_solo import (  # noqa: E402
    BUILDS,
    FACE_P,
    FORCED_PENALTY,
    NEG,
    P1,
    T2,
    TURNS,
    TYPES3,
    ArrayPool,
    Ops,
    add_one,
    hands_of_size,
    play_turn,
    remove_one,
    type_outcomes,
)

from skyline.players.scenario_model import SCENARIO_MODELS, SUCCESS_WEIGHT, ScenarioModel  # noqa: E402

#: Column caps of the scenario tables (P1, B1, B2, B3, O1..O5, 4-point tiles).
SCENARIO_CAPS = (4, 3, 2, 3, 3, 2, 2, 2, 2, 1)
SCALE = 64  # expected score to 1/64 point
P_SCALE = 1 << 16  # probability of success to 2^-16 (1/6.5 point of the objective)
MIN_PROB = 5e-5  # the forward pass follows configurations at least this likely
BUDGET = 148_000  # bytes per table: the least likely configurations' entries are left out
MODES = ("standard", "nine")
# Colour of the tile a die kind completes (kind = type * 3 + face).
TILE_COLOUR = {3: "purple", 7: "blue", 8: "orange"}


def _height(pts: int) -> int:
    return int(round(pts**0.5))


class PairOps(ArrayPool):
    """Pairs (J, P) of arrays of shape (x values,) + column shape; x is the outer axis."""

    def __init__(self, caps: tuple[int, ...], model: ScenarioModel):
        self.ops = Ops(caps)
        self.nx = model.cap + 1
        self.shape = (self.nx, *self.ops.shape)
        self.dtype = np.float32
        self.size = int(np.prod(self.shape))
        self.mask = np.empty(self.ops.size, bool)
        self.tmp = np.empty(self.ops.size, np.float32)
        self._free: list[np.ndarray] = []

    def pair(self, fill_j: float | None = None, fill_p: float | None = None):
        return (self.get(fill_j), self.get(fill_p))

    def max_into(self, best, src, rem, add, pts: float, xmap) -> None:
        """best[x][c] = lexmax(best, src[xmap[x]][c - e_rem + e_add] + pts) on J."""
        bj, bp = best
        sj, sp = src
        for x in range(self.nx):
            x2 = xmap[x]
            for di, si in self.ops.pairs(rem, add):
                dj = bj[x][di]
                if dj.size == 0:
                    continue
                cand = self.tmp[: dj.size].reshape(dj.shape)
                np.add(sj[x2][si], pts, out=cand)
                m = self.mask[: dj.size].reshape(dj.shape)
                np.greater(cand, dj, out=m)
                np.copyto(dj, cand, where=m)
                np.copyto(bp[x][di], sp[x2][si], where=m)

    @staticmethod
    def pmax(best, src) -> None:
        m = src[0] > best[0]
        np.copyto(best[0], src[0], where=m)
        np.copyto(best[1], src[1], where=m)

    @staticmethod
    def acc(acc, src, p: float, tmp) -> None:
        for a, s in zip(acc, src, strict=True):
            np.multiply(s, p, out=tmp)
            a += tmp


def solve(scenario: str, mode: str, caps=SCENARIO_CAPS, turns: int = TURNS, verbose=False):
    """Return ``[(J_t, P_t) for t in 0..turns]``, arrays of shape (cap + 1,) + caps + 1
    (x outermost, columns in class-id order)."""
    model = SCENARIO_MODELS[scenario]
    po = PairOps(caps, model)
    ops = po.ops
    nx = po.nx
    # terminal: lone purples + weight * met
    ax = ops.axis[P1]
    p1 = np.arange(ops.shape[ax], dtype=np.float32).reshape((-1,) + (1,) * (len(caps) - 1 - ax))
    w0j, w0p = po.get(0.0), po.get(0.0)
    for x in range(nx):
        for k in range(ops.shape[ax]):
            idx = [slice(None)] * len(caps)
            idx[ax] = k
            met = 1.0 if model.met(x, k) else 0.0
            w0p[x][tuple(idx)] = met
        w0j[x] += p1
        w0j[x] += SUCCESS_WEIGHT * w0p[x]
    W = [(w0j, w0p)]
    ident = list(range(nx))
    col_x = [model.model_demolish_column(x) for x in range(nx)]
    t2_x = [
        model.model_demolish_tile(x, "purple" if x >= 1 else "blue", 2) for x in range(nx)
    ]
    build_x: dict[tuple[int, int], list[int]] = {}
    for kind in range(9):
        for j, (_rem, _add, pts, _ends) in enumerate(BUILDS[kind]):
            if pts:
                build_x[kind, j] = [
                    model.model_complete(x, TILE_COLOUR[kind], _height(pts)) for x in range(nx)
                ]
            else:
                build_x[kind, j] = ident
    hands1, hands2 = hands_of_size(1), hands_of_size(2)
    end_arrays = None
    tmp = po.get()

    for t in range(1, turns + 1):
        t0 = time.time()
        U = W[t - 1]
        F1: dict = {(): U}
        F0: dict = {}
        Dm: dict = {}

        def demolish_value(rest):
            if rest not in Dm:
                src = F1[rest]
                best = po.pair(NEG, 0.0)
                for d in range(9):
                    po.max_into(best, src, d, None, 0.0, col_x)
                po.max_into(best, src, T2, None, -4.0, t2_x)
                Dm[rest] = best
            return Dm[rest]

        def resolve_value(hand, out=None):
            best = po.pair(NEG, 0.0) if out is None else out
            if out is not None:
                best[0].fill(NEG)
                best[1].fill(0.0)
            for kind in sorted(set(hand)):
                rest = remove_one(hand, kind)
                po.pmax(best, demolish_value(rest))
                for j, (rem, add, pts, ends) in enumerate(BUILDS[kind]):
                    src = F1[rest]
                    if ends and mode == "standard" and end_arrays is not None:
                        src = end_arrays[rest]
                    po.max_into(best, src, rem, add, float(pts), build_x[kind, j])
            return best

        def after_roll(hand, out=None):
            r = resolve_value(hand, out)
            dead = r[0] <= NEG / 2
            if dead.any():
                r[0][dead] = U[0][dead] - FORCED_PENALTY
                r[1][dead] = U[1][dead]
            return r

        for h in hands1:
            F0[h] = after_roll(h)
        for h in hands1:
            (k,) = h
            ty = k // 3
            v = resolve_value(h)
            po.pmax(v, U)
            rr = po.pair(0.0, 0.0)
            for f, p in enumerate(FACE_P):
                po.acc(rr, F0[(ty * 3 + f,)], p, tmp)
            po.pmax(v, rr)
            po.put(*rr)
            F1[h] = v
        for h in hands2:
            F0[h] = after_roll(h)
        rr1 = {}
        for ty in range(3):
            for kept in range(9):
                acc = rr1[ty, kept] = po.pair(0.0, 0.0)
                for f, p in enumerate(FACE_P):
                    po.acc(acc, F0[add_one((kept,), ty * 3 + f)], p, tmp)
        rr2 = {}
        for tys in itertools.combinations_with_replacement(range(3), 2):
            acc = rr2[tys] = po.pair(0.0, 0.0)
            for h, p in type_outcomes(tys):
                po.acc(acc, F0[h], p, tmp)
        for v in F0.values():
            po.put(*v)
        F0.clear()
        for h in hands2:
            a, b = h
            v = resolve_value(h)
            po.pmax(v, U)
            po.pmax(v, rr1[a // 3, b])
            po.pmax(v, rr1[b // 3, a])
            po.pmax(v, rr2[tuple(sorted((a // 3, b // 3)))])
            F1[h] = v
        for v in (*rr1.values(), *rr2.values()):
            po.put(*v)
        if mode == "standard" and t == 1:
            end_arrays = dict(F1)
        best = po.pair(NEG, 0.0)
        acc = po.pair()
        buf = po.pair()
        for tys in TYPES3:
            acc[0].fill(0.0)
            acc[1].fill(0.0)
            for h, p in type_outcomes(tys):
                r = after_roll(h, buf)
                po.acc(acc, r, p, tmp)
            po.pmax(best, acc)
        W.append(best)
        po.put(*acc, *buf)
        for v in Dm.values():
            po.put(*v)
        Dm.clear()
        if not (mode == "standard" and t == 1):
            for h, v in F1.items():
                if h:
                    po.put(*v)
        F1.clear()
        if verbose:
            print(f"  [{scenario}/{mode}] t={t} {time.time() - t0:.1f}s", file=sys.stderr)
    inv = [0] + [1 + ops.axis[c] for c in range(len(caps))]
    return [(j.transpose(inv), p.transpose(inv)) for j, p in W]


def solved(scenario: str, mode: str, cache: str | None, verbose: bool = False):
    """``solve`` with an optional on-disk cache (development)."""
    f = Path(cache) / f"S_{scenario}_{mode}.npz" if cache else None
    if f is not None and f.exists():
        z = np.load(f)
        return [(z["J"][t], z["P"][t]) for t in range(z["J"].shape[0])]
    W = solve(scenario, mode, verbose=verbose)
    if f is not None:
        f.parent.mkdir(parents=True, exist_ok=True)
        np.savez(f, J=np.stack([w[0] for w in W]), P=np.stack([w[1] for w in W]))
    return W


# --------------------------------------------------------------------------------------
# Shipping: the runtime's own policy followed through every roll, the lookups it needs
# --------------------------------------------------------------------------------------

START = (0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0)  # 10 solo counts (one orange ground floor), x = 0


class ArrayTable:
    """Runtime-compatible scenario table backed by the solver arrays; records lookups."""

    def __init__(self, caps: tuple[int, ...], W, scenario: str, mode: str):
        self.caps = caps
        self.W = W
        self.scenario = scenario
        self.mode = mode
        # key -> probability of the likeliest configuration whose turn search needed it
        self.queried: list[dict[tuple[int, ...], float]] = [{} for _ in W]
        self.current = 1.0

    def key(self, counts) -> tuple[int, ...]:
        return tuple(min(c, cap) for c, cap in zip(counts, self.caps, strict=True))

    def _at(self, t: int, counts):
        k = self.key(counts)
        q = self.queried[t]
        if q.get(k, -1.0) < self.current:
            q[k] = self.current
        return (k[10], *k[:10])

    def lookup(self, mode: str, t: int, counts) -> tuple[float, bool]:
        return float(self.W[t][0][self._at(t, counts)]), True

    def lookup_p(self, mode: str, t: int, counts) -> float:
        return float(self.W[t][1][self._at(t, counts)])


def forward(scenario: str, mode: str, table: ArrayTable, min_prob: float, verbose=False) -> dict:
    """Follow the runtime's policy on ``table`` through every roll from the start: the
    visited turn-start configurations, P(met) and the expected final score of that policy
    (configurations below ``min_prob`` are counted at their table values)."""
    from skyline.players import solo_value as sv

    model = SCENARIO_MODELS[scenario]
    sv.set_scenario_table(scenario, mode, table)
    dist: dict[tuple, float] = {(START, 0): 1.0}
    visited = []
    score = 0.0
    success = 0.0
    dropped = 0.0
    for t in range(TURNS, 0, -1):
        t0 = time.time()
        for (cols, _m), p in dist.items():
            if p < min_prob:
                j, _ = table.lookup(mode, t, cols)
                pm = table.lookup_p(mode, t, cols)
                score += p * (j - SUCCESS_WEIGHT * pm)
                success += p * pm
                dropped += p
        dist = {k: p for k, p in dist.items() if p >= min_prob}
        visited.append(dict(dist))
        s = sv._solver(mode, t, scenario)
        nxt: dict[tuple, float] = {}

        def before(cols, p, t=t):
            table.current = p
            table._at(t, cols)

        def finish(cols, m, ended, p, t=t):
            nonlocal score, success
            if ended or t == 1:
                score += p * cols[0]
                success += p * model.met(cols[10], cols[0])
            else:
                nxt[cols, m] = nxt.get((cols, m), 0.0) + p

        def placed(_what, gain, p):
            nonlocal score
            score += p * gain

        # likeliest first: a lookup is recorded with the first (likeliest) configuration whose
        # turn search needs it (the search is memoised within the turn)
        starts = sorted(dist.items(), key=lambda kv: -kv[1])
        play_turn(s, starts, finish, placed, before)
        if verbose:
            print(f"  [{scenario}/{mode}] forward t={t}: {len(visited[-1])} configurations, "
                  f"{len(table.queried[t - 1])} lookups, {time.time() - t0:.1f}s",
                  file=sys.stderr)
        dist = nxt
    sv.set_scenario_table(scenario, mode, None)
    return {"visited": visited, "score": score, "p_success": success, "dropped": dropped}


def _fit(keys: list[tuple[int, ...]], y: list[float]) -> list[float]:
    X = np.hstack([np.ones((len(keys), 1)), np.array(keys, dtype=np.float64)])
    coef, *_ = np.linalg.lstsq(X, np.array(y, dtype=np.float64), rcond=None)
    return [round(float(c), 4) for c in coef]


def build_table(scenario: str, mode: str, cache: str | None, min_prob: float = MIN_PROB,
                verbose: bool = False) -> tuple[bytes, dict]:

    t0 = time.time()
    W = solved(scenario, mode, cache, verbose)
    model = SCENARIO_MODELS[scenario]
    caps = (*SCENARIO_CAPS, model.cap)
    start = (START[10], *START[:10])
    opt_p = float(W[TURNS][1][start])
    opt_s = float(W[TURNS][0][start]) - SUCCESS_WEIGHT * opt_p
    t1 = time.time()
    table = ArrayTable(caps, W, scenario, mode)
    fw = forward(scenario, mode, table, min_prob, verbose)
    # the entries of the likeliest configurations, as many as the budget holds
    ranked = sorted(
        ((q, t, key) for t, d in enumerate(table.queried) if t for key, q in d.items()),
        key=lambda e: (-e[0], e[1], e[2]),
    )
    lo, hi = 1, len(ranked)
    data, cut = b"", 0.0
    while lo <= hi:  # the longest prefix that fits (size grows with the prefix)
        mid = (lo + hi) // 2
        trial = _encode(scenario, mode, caps, W, ranked[:mid], fw, opt_p, opt_s)
        if len(trial) <= BUDGET:
            data, cut, lo = trial, ranked[mid - 1][0], mid + 1
        else:
            hi = mid - 1
    report = {
        "scenario": scenario, "mode": mode,
        "optimum_p_success": opt_p, "optimum_expected_score": opt_s,
        "policy_p_success": fw["p_success"], "policy_expected_score": fw["score"],
        "dropped_mass": fw["dropped"], "entries": lo - 1, "needed": len(ranked),
        "shipped_min_prob": cut, "bytes": len(data),
        "solve_seconds": round(t1 - t0, 1), "forward_seconds": round(time.time() - t1, 1),
    }
    return data, report


def _encode(scenario, mode, caps, W, chosen, fw, opt_p, opt_s) -> bytes:
    from skyline.players import solo_value as sv

    need: list[list[tuple[int, ...]]] = [[] for _ in range(TURNS + 1)]
    for _q, t, key in chosen:
        need[t].append(key)
    entries: list[dict[int, tuple[int, int]]] = [{}]
    linear: list[list[list[float]]] = [[]]
    radix = sv.ScenarioTable({"caps": caps, "mode": mode, "scenario": scenario, "scale": SCALE,
                              "p_scale": P_SCALE}, b"").radix
    for t in range(1, TURNS + 1):
        d = {}
        keys = sorted(need[t])
        ss, ps = [], []
        for key in keys:
            at = (key[10], *key[:10])
            p = min(1.0, max(0.0, float(W[t][1][at])))
            sc = float(W[t][0][at]) - SUCCESS_WEIGHT * float(W[t][1][at])
            ss.append(sc)
            ps.append(p)
            d[sum(c * r for c, r in zip(key, radix, strict=True))] = (
                int(round(sc * SCALE)), int(round(p * P_SCALE)))
        entries.append(d)
        linear.append([_fit(keys, ss), _fit(keys, ps)] if keys else [[0.0] * 12, [0.0] * 12])
    header = {
        "scenario": scenario,
        "mode": mode,
        "caps": list(caps),
        "classes": ["P1", "B1", "B2", "B3", "O1", "O2", "O3", "O4", "O5", "tiles4", "x"],
        "turns": TURNS,
        "scale": SCALE,
        "p_scale": P_SCALE,
        "success_weight": SUCCESS_WEIGHT,
        "linear": linear,
        "optimum": {"p_success": round(opt_p, 6), "expected_score": round(opt_s, 4)},
        "policy": {"p_success": round(fw["p_success"], 6),
                   "expected_score": round(fw["score"], 4)},
    }
    return sv.ScenarioTable.to_bytes(header, entries)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenario", default="all", choices=("all", *SCENARIO_MODELS))
    ap.add_argument("--mode", choices=("standard", "nine", "both"), default="both")
    ap.add_argument("--out", default=str(ROOT / "skyline" / "data" / "scenarios"))
    ap.add_argument("--check", action="store_true", help="recompute, compare with shipped files")
    ap.add_argument("--cache", help="directory to keep/reuse the solver arrays (development)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    scenarios = tuple(SCENARIO_MODELS) if args.scenario == "all" else (args.scenario,)
    modes = MODES if args.mode == "both" else (args.mode,)
    out = Path(args.out)
    ok = True
    reports = []
    for scenario in scenarios:
        for mode in modes:
            data, report = build_table(scenario, mode, args.cache, verbose=args.verbose)
            path = out / f"{scenario}-{mode}.bin"
            if args.check:
                same = path.exists() and path.read_bytes() == data
                report["check"] = "ok" if same else "MISMATCH"
                ok = ok and same
            else:
                out.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
            reports.append(report)
            print(
                f"{scenario:10s} {mode:8s} optimum P {report['optimum_p_success']:.4f} "
                f"score {report['optimum_expected_score']:.3f} | policy P "
                f"{report['policy_p_success']:.4f} score {report['policy_expected_score']:.3f}"
                f" | {report['entries']} entries, {report['bytes']} bytes"
                + (f" | {report['check']}" if args.check else ""),
                flush=True,
            )
    print(json.dumps(reports))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
