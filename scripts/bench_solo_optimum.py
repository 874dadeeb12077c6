#!/usr/bin/env python3
"""Play seeded solo games with the optimal expert (shipped table + exact turn search).

A standalone simulator (stdlib ``random``), independent of the engine: it applies the
abstract choices of ``skyline.players.solo_value`` to its own model of a solo skyline and checks
that each choice is legal under the rules.

    python scripts/bench_solo_optimum.py [--games 10000] [--seed 1] [--mode both]
                                         [--cold 300]

Prints mean, sd, level shares (40 ... 100) and per-decision timing for each mode; the last
line is a JSON object.  ``--cold N``: the first N games of each mode start with empty search
caches (as a fresh browser page would), and the decision times are measured on those.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skyline.players import solo_value as sv

LEVELS = (40, 50, 60, 70, 80, 90, 100)
COLOURS = ("purple", "blue", "orange")
MAX_HEIGHT = {"purple": 2, "blue": 4, "orange": 6}


def roll(rng: random.Random, ty: str) -> tuple[str, str]:
    r = rng.randrange(6)
    f = 0 if r < 3 else 1 if r < 5 else 2
    return (ty, sv.FACES[ty][f])


class Skyline:
    """Independent model of a solo skyline: unfinished columns as (colour, height)."""

    def __init__(self) -> None:
        self.columns: list[tuple[str, int]] = [("orange", 1)]
        self.tiles: list[int] = []
        self.demolished = 0

    def position(self, turns_left: int, mode: str) -> sv.SoloPosition:
        return sv.SoloPosition.from_columns(turns_left, self.columns, self.tiles, mode)

    def buildable(self, die: tuple[str, str]) -> bool:
        ty, face = die
        if ty == "G":
            return True
        for colour, h in self.columns:
            if ty == "U" and colour == face:
                if (
                    (colour == "purple" and h == 1)
                    or (colour == "blue" and h <= 2)
                    or (colour == "orange" and h <= 4)
                ):
                    return True
            if ty == "P" and colour == face and face in ("blue", "orange"):
                if (colour == "blue" and h <= 3) or (colour == "orange" and 2 <= h <= 5):
                    return True
        return False

    def build(self, die: tuple[str, str], target: tuple[str, int] | None) -> int:
        """Apply a build; returns the height of a completed tile (0 if none)."""
        ty, face = die
        if ty == "G":
            assert target is None, "ground floor starts a new column"
            self.columns.append((face, 1))
            return 0
        assert target in self.columns, f"no column {target}"
        colour, h = target
        assert colour == face, f"colour mismatch {die} on {target}"
        self.columns.remove(target)
        if ty == "U":
            assert (
                (colour == "purple" and h == 1)
                or (colour == "blue" and h <= 2)
                or (colour == "orange" and h <= 4)
            ), f"upper floor not allowed on {target}"
            if colour == "purple":
                self.tiles.append(2)
                return 2
            self.columns.append((colour, h + 1))
            return 0
        assert ty == "P" and face in ("blue", "orange"), f"cannot build {die}"
        assert (colour == "blue" and h <= 3) or (colour == "orange" and 2 <= h <= 5)
        self.tiles.append(h + 1)
        return h + 1

    def demolish(self, target: tuple[str, int]) -> None:
        self.demolished += 1
        if target[0] == "tile":
            assert target[1] in self.tiles, f"no tile {target}"
            self.tiles.remove(target[1])
        else:
            assert target in self.columns, f"no column {target}"
            self.columns.remove(target)

    def score(self) -> int:
        return sum(h * h for h in self.tiles) + sum(1 for c in self.columns if c == ("purple", 1))


def play(rng: random.Random, mode: str, times: list[float] | None) -> tuple[int, bool]:
    """One game; returns (score, every lookup exact)."""
    sky = Skyline()
    exact = True

    def choose(pos, dice=None, resolved=False):
        nonlocal exact
        t0 = time.perf_counter()
        opt = sv.best_turn_choice(pos, dice, resolved)
        if times is not None:
            times.append(time.perf_counter() - t0)
        if opt is not None and not opt.exact:
            exact = False
        return opt

    for turns_left in range(9, 0, -1):
        opt = choose(sky.position(turns_left, mode))
        assert opt.action[0] == "take" and len(opt.action[1]) == 3
        dice = [roll(rng, ty) for ty in opt.action[1]]
        resolved = False
        six = False
        while dice:
            can_resolve = any(sky.buildable(d) for d in dice) or sky.columns or sky.tiles
            opt = choose(sky.position(turns_left, mode), dice, resolved)
            if opt is None:
                assert not resolved and not can_resolve, "search gave up on a resolvable roll"
                break
            act = opt.action
            if act[0] == "build":
                assert sky.buildable(dice[act[1]])
                h = sky.build(dice.pop(act[1]), act[2])
                six = six or h == 6
                resolved = True
            elif act[0] == "demolish":
                sky.demolish(act[2])
                dice.pop(act[1])
                resolved = True
            elif act[0] == "reroll":
                assert resolved and act[1]
                for i in act[1]:
                    dice[i] = roll(rng, dice[i][0])
                resolved = False
            else:
                assert act == ("end",) and resolved
                break
        if mode == "standard" and six:
            break
    return sky.score(), exact


def bench(mode: str, games: int, seed: int, cold: int) -> dict:
    rng = random.Random(f"{seed}:{mode}")
    sv.prepare(mode)  # decode the table first (as a page would at game start)
    scores = []
    times: list[float] = []
    inexact = 0
    t0 = time.time()
    for g in range(games):
        if g < cold:
            sv._SOLVERS.clear()
        s, ok = play(rng, mode, times if g < cold else None)
        scores.append(s)
        inexact += not ok
    times.sort()
    n = len(scores)
    pos0 = sv.SoloPosition.start(mode)
    opt = sv.value(pos0)
    mean = statistics.fmean(scores)
    sd = statistics.stdev(scores) if n > 1 else 0.0
    res = {
        "mode": mode,
        "games": n,
        "mean": round(mean, 3),
        "sd": round(sd, 2),
        "se": round(sd / n**0.5, 3),
        "table_value": round(opt, 4),
        "mean_vs_table": round(mean / opt, 4),
        "levels": {str(lv): round(sum(s >= lv for s in scores) / n, 4) for lv in LEVELS},
        "games_with_fallback": inexact,
        "seconds": round(time.time() - t0, 1),
    }
    if times:
        res["decision_ms"] = {
            "n": len(times),
            "mean": round(1000 * statistics.fmean(times), 2),
            "p50": round(1000 * times[len(times) // 2], 2),
            "p95": round(1000 * times[int(len(times) * 0.95)], 2),
            "max": round(1000 * times[-1], 2),
        }
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mode", choices=("standard", "nine", "both"), default="both")
    ap.add_argument("--cold", type=int, default=300)
    args = ap.parse_args(argv)
    sv._MEMO_LIMIT = 2_000_000
    modes = ("standard", "nine") if args.mode == "both" else (args.mode,)
    out = {}
    for mode in modes:
        r = bench(mode, args.games, args.seed, min(args.cold, args.games))
        out[mode] = r
        lv = "  ".join(f"{k}:{v:.1%}" for k, v in r["levels"].items())
        print(
            f"{mode}: mean {r['mean']:.3f} sd {r['sd']:.2f} (se {r['se']:.3f}) over {r['games']} "
            f"games; table {r['table_value']:.4f} (ratio {r['mean_vs_table']:.4f}); levels {lv}"
        )
        if "decision_ms" in r:
            d = r["decision_ms"]
            print(
                f"  decision ms (cold caches, {d['n']} decisions): mean {d['mean']} "
                f"p50 {d['p50']} p95 {d['p95']} max {d['max']}"
            )
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
