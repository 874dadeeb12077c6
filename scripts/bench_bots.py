#!/usr/bin/env python3
"""Benchmark the computer players on the engine (seeded, reproducible).

    python scripts/bench_bots.py [--games 10000] [--duel-games 2000] [--seed bench]
                                 [--bots random,beginner,greedy,expert] [--workers 2]
                                 [--multi 3,4] [--skip-solo] [--skip-duels]

* Solo: every bot plays ``--games`` seeded games in each mode (standard, all nine rounds):
  mean, sd, standard error and the share of games reaching each solo level; for the expert
  also the solver's optimum (expected value of the start position) and the ratio.
* Duels: the expert against greedy and against beginner in ``--duel-games`` two-player
  games each, seats alternating (game ``i``: the expert sits in seat ``i % 2``; seat 0
  starts); the expert's win rate (a shared win counts 1/k), its mean and the opponent's.
* ``--multi 3,4``: the expert against greedy opponents in 3- and 4-player games (the
  expert's seat rotates), win rate against the fair share 1/n.

Game ``i`` of a run uses the game seed ``f"{seed}-{mode}-{i}"`` (duels
``f"{seed}-{opponent}-{i}"``), so a figure can be reproduced game by game with
``skyline.__main__.play_bot_game``. Work is split over at most two worker processes.
The last stdout line is one JSON object with every figure.
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

from skyline import SOLO_LEVELS, Options, ranking, score  # noqa: E402
from skyline.__main__ import play_bot_game  # noqa: E402

LEVELS = [points for points, _ in reversed(SOLO_LEVELS)]


def _solo_chunk(job: tuple[str, str, str, int, int]) -> list[int]:
    bot, mode, seed, lo, hi = job
    out = []
    for i in range(lo, hi):
        game_seed = f"{seed}-{mode[0]}-{i}"
        state = play_bot_game(Options(("solo",), game_seed, 0, mode == "nine"), [bot], game_seed)
        out.append(score(state.players[0]))
    return out


def _duel_chunk(job: tuple[str, str, int, str, int, int]) -> list[tuple[float, int, int]]:
    """(expert's win share, expert's score, best opponent score) per game."""
    expert, opponent, players, seed, lo, hi = job
    out = []
    for i in range(lo, hi):
        seat = i % players
        bots = [opponent] * players
        bots[seat] = expert
        game_seed = f"{seed}-{opponent}{players}-{i}"
        names = tuple(f"p{s}" for s in range(players))
        state = play_bot_game(Options(names, game_seed, 0, False), bots, game_seed)
        ranks = ranking(state)
        share = 1 / ranks.count(1) if ranks[seat] == 1 else 0.0
        others = [score(p) for s, p in enumerate(state.players) if s != seat]
        out.append((share, score(state.players[seat]), max(others)))
    return out


def _chunks(n: int, parts: int) -> list[tuple[int, int]]:
    size = max(1, -(-n // parts))
    return [(lo, min(n, lo + size)) for lo in range(0, n, size)]


def solo_stats(scores: list[int]) -> dict:
    n = len(scores)
    sd = statistics.stdev(scores) if n > 1 else 0.0
    return {
        "games": n,
        "mean": round(statistics.fmean(scores), 3),
        "sd": round(sd, 2),
        "se": round(sd / n ** 0.5, 3),
        "levels": {str(lv): round(sum(s >= lv for s in scores) / n, 4) for lv in LEVELS},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10000, help="solo games per bot and mode")
    ap.add_argument("--duel-games", type=int, default=2000, help="games per duel")
    ap.add_argument("--seed", default="bench")
    ap.add_argument("--bots", default="random,beginner,greedy,expert")
    ap.add_argument("--workers", type=int, default=2, choices=(1, 2))
    ap.add_argument("--multi", default="", help="also 3/4-player runs, e.g. 3,4")
    ap.add_argument("--skip-solo", action="store_true")
    ap.add_argument("--skip-duels", action="store_true")
    args = ap.parse_args(argv)
    bots = [b for b in args.bots.split(",") if b]
    parts = args.workers * 8
    result: dict = {"seed": args.seed, "solo": {}, "duels": {}, "multi": {}}
    started = time.time()
    with Pool(args.workers) as pool:
        if not args.skip_solo:
            for mode in ("standard", "nine"):
                for bot in bots:
                    t0 = time.time()
                    jobs = [(bot, mode, args.seed, lo, hi) for lo, hi in _chunks(args.games, parts)]
                    scores = [s for chunk in pool.map(_solo_chunk, jobs) for s in chunk]
                    stats = solo_stats(scores)
                    stats["seconds"] = round(time.time() - t0, 1)
                    if bot == "expert":
                        from skyline import solo_value as sv

                        opt = sv.value(sv.SoloPosition.start(mode))
                        stats["optimum"] = round(opt, 4)
                        stats["mean_vs_optimum"] = round(stats["mean"] / opt, 4)
                    result["solo"].setdefault(mode, {})[bot] = stats
                    lv = " ".join(f"{k}:{v:.1%}" for k, v in stats["levels"].items())
                    extra = ""
                    if "optimum" in stats:
                        extra = (f"  optimum {stats['optimum']:.3f} "
                                 f"(ratio {stats['mean_vs_optimum']:.4f})")
                    print(f"solo {mode:8} {bot:8} n={stats['games']} mean {stats['mean']:.3f} "
                          f"sd {stats['sd']:.2f} se {stats['se']:.3f}  {lv}{extra}", flush=True)
        duels = [] if args.skip_duels else [("greedy", 2), ("beginner", 2)]
        duels += [("greedy", int(n)) for n in args.multi.split(",") if n.strip()]
        for opponent, players in duels:
            t0 = time.time()
            jobs = [("expert", opponent, players, args.seed, lo, hi)
                    for lo, hi in _chunks(args.duel_games, parts)]
            rows = [r for chunk in pool.map(_duel_chunk, jobs) for r in chunk]
            n = len(rows)
            wins = sum(r[0] for r in rows)
            rate = wins / n
            stats = {
                "games": n,
                "players": players,
                "opponent": opponent,
                "expert_win_rate": round(rate, 4),
                "win_rate_se": round((rate * (1 - rate) / n) ** 0.5, 4),
                "fair_share": round(1 / players, 4),
                "expert_mean": round(statistics.fmean(r[1] for r in rows), 2),
                "best_opponent_mean": round(statistics.fmean(r[2] for r in rows), 2),
                "seconds": round(time.time() - t0, 1),
            }
            where = "duels" if players == 2 else "multi"
            result[where][f"expert_vs_{opponent}_{players}p"] = stats
            print(f"{players}p expert vs {opponent}: n={n} expert wins {rate:.1%} "
                  f"(se {stats['win_rate_se']:.1%}); expert mean {stats['expert_mean']}, "
                  f"best opponent mean {stats['best_opponent_mean']}", flush=True)
    result["seconds"] = round(time.time() - started, 1)
    print(json.dumps(result, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
