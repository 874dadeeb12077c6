#!/usr/bin/env python3
"""Benchmark the computer players on the engine (seeded, reproducible).

    python scripts/bench_bots.py [--games 10000] [--duel-games 2000] [--seed bench]
                                 [--bots random,beginner,greedy,expert] [--workers 2]
                                 [--multi 3,4] [--duel expert,expert1,4 ...]
                                 [--skip-solo] [--skip-duels] [--progress]

* Solo: every bot plays ``--games`` seeded games in each mode (standard, all nine rounds):
  mean, sd, standard error and the share of games reaching each solo level; for the expert
  also the solver's optimum (expected value of the start position) and the ratio.
* Duels: one bot against ``n - 1`` copies of another in ``--duel-games`` games of ``n``
  players, with common random numbers: game ``i`` uses the dice seed of group ``i // n``
  and puts the bot in seat ``i % n`` (seat 0 starts), so every seed is played once from
  every seat and every start position. Reported: the bot's win rate (a shared win counts
  1/k) with its standard error (over the seed groups), its mean score and the best
  opponent's. Default duels: the expert against greedy and beginner (2 players) and
  against ``expert1`` (its earlier 2-4 player play, the baseline) with 2 and 4 players;
  ``--duel A,B,N`` (repeatable) replaces them.
* ``--multi 3,4``: also the expert against greedy opponents in 3- and 4-player games.

Game ``i`` of a run uses the game seed ``f"{seed}-{mode}-{i}"`` (duels
``f"{seed}-{opponent}{n}-{i // n}"``), so a figure can be reproduced game by game with
``skyline.__main__.play_bot_game``. Work is split over at most two worker processes (run
it with ``nice`` on a shared machine). The last stdout line is one JSON object.
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

from skyline import SOLO_LEVELS, Options, ranking, score
from skyline.__main__ import play_bot_game

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
    """(bot's win share, bot's score, best opponent score) per game."""
    expert, opponent, players, seed, lo, hi = job
    out = []
    for i in range(lo, hi):
        seat = i % players
        bots = [opponent] * players
        bots[seat] = expert
        game_seed = f"{seed}-{opponent}{players}-{i // players}"
        names = tuple(f"p{s}" for s in range(players))
        state = play_bot_game(Options(names, game_seed, 0, False), bots, game_seed)
        ranks = ranking(state)
        share = 1 / ranks.count(1) if ranks[seat] == 1 else 0.0
        others = [score(p) for s, p in enumerate(state.players) if s != seat]
        out.append((share, score(state.players[seat]), max(others)))
    return out


def _chunks(n: int, parts: int, unit: int = 1) -> list[tuple[int, int]]:
    """Ranges covering ``range(n)``, boundaries on multiples of ``unit``."""
    size = max(1, -(-n // parts))
    size = -(-size // unit) * unit
    return [(lo, min(n, lo + size)) for lo in range(0, n, size)]


def duel_stats(rows: list[tuple[float, int, int]], players: int) -> tuple[float, float]:
    """Win rate and its standard error, the seed groups of ``players`` games as units
    (common random numbers make the games of a group correlated)."""
    n = len(rows)
    rate = sum(r[0] for r in rows) / n
    groups = [sum(r[0] for r in rows[lo:lo + players]) / len(rows[lo:lo + players])
              for lo in range(0, n, players)]
    if len(groups) < 2:
        return rate, (rate * (1 - rate) / n) ** 0.5
    return rate, statistics.stdev(groups) / len(groups) ** 0.5


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
    ap.add_argument("--duel", action="append", default=[], metavar="BOT,OPPONENT,PLAYERS",
                    help="one BOT against PLAYERS-1 OPPONENTs (repeatable; replaces the "
                         "default duels)")
    ap.add_argument("--skip-solo", action="store_true")
    ap.add_argument("--progress", action="store_true",
                    help="duels: print the win rate over the games done so far (stderr)")
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
                        from skyline.players import solo_value as sv

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
        duels = [] if args.skip_duels else [
            ("expert", "greedy", 2), ("expert", "beginner", 2),
            ("expert", "expert1", 2), ("expert", "expert1", 4)]
        if args.duel:
            duels = []
            for spec in args.duel:
                bot, opponent, players = spec.split(",")
                duels.append((bot, opponent, int(players)))
        duels += [("expert", "greedy", int(n)) for n in args.multi.split(",") if n.strip()]
        for bot, opponent, players in duels:
            t0 = time.time()
            jobs = [(bot, opponent, players, args.seed, lo, hi)
                    for lo, hi in _chunks(args.duel_games, parts * 4, players)]
            rows = []
            for chunk in pool.imap(_duel_chunk, jobs):
                rows.extend(chunk)
                if args.progress and len(rows) < args.duel_games:
                    rate, se = duel_stats(rows, players)
                    print(f"  ... {players}p {bot} vs {opponent}: first {len(rows)} games: "
                          f"{rate:.1%} (se {se:.1%})", file=sys.stderr, flush=True)
            n = len(rows)
            rate, se = duel_stats(rows, players)
            stats = {
                "games": n,
                "players": players,
                "bot": bot,
                "opponent": opponent,
                "win_rate": round(rate, 4),
                "win_rate_se": round(se, 4),
                "fair_share": round(1 / players, 4),
                "bot_mean": round(statistics.fmean(r[1] for r in rows), 2),
                "best_opponent_mean": round(statistics.fmean(r[2] for r in rows), 2),
                "seconds": round(time.time() - t0, 1),
            }
            where = "duels" if players == 2 else "multi"
            result[where][f"{bot}_vs_{opponent}_{players}p"] = stats
            print(f"{players}p {bot} vs {opponent}: n={n} {bot} wins {rate:.1%} "
                  f"(se {se:.1%}); {bot} mean {stats['bot_mean']}, "
                  f"best opponent mean {stats['best_opponent_mean']}", flush=True)
    result["seconds"] = round(time.time() - started, 1)
    print(json.dumps(result, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
