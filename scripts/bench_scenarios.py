#!/usr/bin/env python3
"""The scenario table of docs/players.md: per scenario and mode, the solver's values next
to simulated expert games.

    python scripts/bench_scenarios.py [--games 10000] [--seed scen] [--workers 2]
                                      [--scenario NAME ...] [--mode standard|nine|both]

For each table ``skyline/data/scenarios/<scenario>-<mode>.bin``: the model optimum (P(met)
and expected score of the start position), the exact values of the shipped policy (the
runtime's turn search followed through every roll, from the table header), and the success
rate and mean score of ``--games`` seeded expert games (``simulate --scenario``, game ``i``
seeded ``f"{seed}-{scenario}-{mode}-{i}"``) with their standard errors and the distance in
standard errors. The last stdout line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skyline import Options, score
from skyline.__main__ import play_bot_game
from skyline.players import solo_value as sv
from skyline.rules import SCENARIOS, scenario_met


def _chunk(job: tuple[str, str, str, int, int]) -> list[tuple[int, bool]]:
    scenario, mode, seed, lo, hi = job
    out = []
    for i in range(lo, hi):
        game_seed = f"{seed}-{scenario[:4]}-{mode[0]}-{i}"
        state = play_bot_game(
            Options(("solo",), game_seed, 0, mode == "nine", scenario), ["expert"], game_seed
        )
        out.append((score(state.players[0]), scenario_met(scenario, state.players[0])))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--seed", default="scen")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scenario", action="append", choices=SCENARIOS)
    ap.add_argument("--mode", choices=("standard", "nine", "both"), default="both")
    args = ap.parse_args(argv)
    modes = ("standard", "nine") if args.mode == "both" else (args.mode,)
    rows = []
    for scenario in args.scenario or SCENARIOS:
        for mode in modes:
            if not sv.has_scenario_table(scenario, mode):
                print(f"{scenario} {mode}: no table", file=sys.stderr)
                continue
            meta = sv.load_scenario_table(scenario, mode).meta
            t0 = time.time()
            step = max(1, args.games // (8 * args.workers))
            jobs = [(scenario, mode, args.seed, lo, min(args.games, lo + step))
                    for lo in range(0, args.games, step)]
            with Pool(args.workers) as pool:
                results = [r for part in pool.map(_chunk, jobs) for r in part]
            scores = [s for s, _ in results]
            rate = sum(m for _, m in results) / len(results)
            se_rate = (rate * (1 - rate) / len(results)) ** 0.5
            mean = statistics.fmean(scores)
            se_mean = statistics.stdev(scores) / len(scores) ** 0.5
            pol, opt = meta["policy"], meta["optimum"]
            row = {
                "scenario": scenario, "mode": mode, "games": len(results),
                "optimum_p": opt["p_success"], "optimum_score": opt["expected_score"],
                "policy_p": pol["p_success"], "policy_score": pol["expected_score"],
                "sim_p": rate, "sim_p_se": se_rate, "sim_score": mean, "sim_score_se": se_mean,
                "z_p": (rate - pol["p_success"]) / se_rate if se_rate else 0.0,
                "z_score": (mean - pol["expected_score"]) / se_mean,
                "seconds": round(time.time() - t0, 1),
            }
            rows.append(row)
            print(
                f"| {scenario} | {mode} | {opt['p_success']:.2%} / {opt['expected_score']:.2f}"
                f" | {pol['p_success']:.2%} / {pol['expected_score']:.2f}"
                f" | {rate:.2%} ± {se_rate:.2%} / {mean:.2f} ± {se_mean:.2f}"
                f" | {len(results):,} |",
                flush=True,
            )
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
