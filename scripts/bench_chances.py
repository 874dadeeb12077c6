#!/usr/bin/env python3
"""Measure what the chances chart costs under CPython: one point's valuing per turn.

    python scripts/bench_chances.py [--games 3] [--seed bench-chances]

Games played to their end by the greedy bot (seeded: ``f"{seed}-{kind}-{i}"``): solo,
a Dubai scenario, and 2, 3 and 4 players. Each is followed by
:class:`skyline.players.chances.ChancesRun` one point at a time (the value tables loaded
first, as on the page once fetched). Printed per kind: the points, milliseconds per point
(mean, p95, max). The page values in chunks of ``pacer.CHANCES_CHUNK_MS`` (30 ms) per idle
tick, so a tick overruns by at most one point. The last stdout line is one JSON object.
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

from skyline import Board, Options
from skyline.players import solo_value as sv
from skyline.players.bots import BOTS
from skyline.players.chances import ChancesRun

KINDS = {
    "solo": (("p0",), None),
    "dubai": (("p0",), "dubai"),
    "2 players": (("p0", "p1"), None),
    "3 players": (("p0", "p1", "p2"), None),
    "4 players": (("p0", "p1", "p2", "p3"), None),
}


def greedy_game(options: Options) -> Board:
    board = Board(options)
    rng = random.Random(options.seed)
    while not board.is_game_over():
        board.push(BOTS["greedy"](board.state, rng))
    return board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", default="bench-chances")
    args = parser.parse_args()
    out = {}
    for kind, (names, scenario) in KINDS.items():
        times: list[float] = []
        for i in range(args.games):
            seed = f"{args.seed}-{kind.replace(' ', '')}-{i}"
            board = greedy_game(Options(names, seed, 0, False, scenario))
            if scenario:  # the scenario's table, read before the clock starts (a fetch on the page)
                sv.load_scenario_table(scenario, "standard").prepare()
            sv.load_table().prepare("standard")
            run = ChancesRun(board.options)
            done = False
            while not done:
                started = time.perf_counter()
                done = run.advance(board.actions, 0)  # one point per call
                times.append((time.perf_counter() - started) * 1000)
        p95 = sorted(times)[int(0.95 * (len(times) - 1))]
        out[kind] = {"points": len(times), "mean_ms": statistics.mean(times), "p95_ms": p95,
                     "max_ms": max(times)}
        print(f"{kind:10s} {len(times):4d} points  mean {statistics.mean(times):6.2f} ms  "
              f"p95 {p95:6.2f} ms  max {max(times):6.2f} ms")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
