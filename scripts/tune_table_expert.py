#!/usr/bin/env python3
"""Tune a constant of the 2-4 player expert (``skyline.players.table_expert``) by self-play duels.

    python scripts/tune_table_expert.py --duel expert,greedy,2 --games 2000 \\
        --set TREND_PRIOR=-1 --set TREND_PRIOR=2 [--seed tune] [--workers 1]

Every ``--set NAME=VALUE[,NAME=VALUE...]`` is one variant (module constants of
``skyline.players.table_expert`` replaced before the games); each variant plays the same
``--games`` games as ``scripts/bench_bots.py`` does (common random numbers: seed group
``i // n``, the bot in seat ``i % n``), so variants differ only by their play. Printed per
variant: the win rate with its standard error, and against the first variant the paired
difference with its standard error (per seed group, which removes most of the dice luck).
The last stdout line is one JSON object. Use a seed other than ``bench`` to keep the
tuning games apart from the benchmark's.
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

from bench_bots import _chunks, _duel_chunk, duel_stats


def _parse(spec: str) -> dict[str, float]:
    out = {}
    for part in spec.split(","):
        name, value = part.split("=")
        out[name.strip()] = float(value)
    return out


def _apply(settings: dict[str, float]) -> None:
    from skyline.players import table_expert as te

    for name, value in settings.items():
        if not hasattr(te, name):
            raise SystemExit(f"skyline.players.table_expert has no constant {name}")
        setattr(te, name, type(getattr(te, name))(value))
    te._CACHE.clear()


def _job(job: tuple[dict[str, float], tuple]) -> list[tuple[float, int, int]]:
    settings, duel = job
    _apply(settings)
    return _duel_chunk(duel)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--duel", default="expert,greedy,2", metavar="BOT,OPPONENT,PLAYERS")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", default="tune")
    ap.add_argument("--workers", type=int, default=1, choices=(1, 2))
    ap.add_argument("--save", help="also write each variant's per-game rows to this JSON file")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE,...",
                    help="one variant (repeatable); none: the module as it is")
    args = ap.parse_args(argv)
    bot, opponent, players_s = args.duel.split(",")
    players = int(players_s)
    variants = [_parse(s) for s in args.set] or [{}]
    results = []
    base_groups: list[float] = []
    with Pool(args.workers) as pool:
        for settings in variants:
            t0 = time.time()
            jobs = [(settings, (bot, opponent, players, args.seed, lo, hi))
                    for lo, hi in _chunks(args.games, 16, players)]
            rows = [r for chunk in pool.imap(_job, jobs) for r in chunk]
            rate, se = duel_stats(rows, players)
            groups = [sum(r[0] for r in rows[lo:lo + players]) / players
                      for lo in range(0, len(rows), players)]
            if args.save:
                saved = json.loads(Path(args.save).read_text()) if Path(args.save).is_file() \
                    else []
                saved.append({"duel": args.duel, "seed": args.seed, "set": settings,
                              "rows": rows})
                Path(args.save).write_text(json.dumps(saved))
            row = {"set": settings, "games": len(rows), "win_rate": round(rate, 4),
                   "se": round(se, 4), "mean": round(statistics.fmean(r[1] for r in rows), 2),
                   "seconds": round(time.time() - t0, 1)}
            line = (f"{args.duel} {settings or 'as is'}: n={len(rows)} wins {rate:.2%} "
                    f"(se {se:.2%}) mean {row['mean']}")
            if not base_groups:
                base_groups = groups
            else:
                diff = [a - b for a, b in zip(groups, base_groups, strict=True)]
                d_se = statistics.stdev(diff) / len(diff) ** 0.5
                row["diff"] = round(statistics.fmean(diff), 4)
                row["diff_se"] = round(d_se, 4)
                line += f"; vs first {row['diff']:+.2%} (se {d_se:.2%})"
            print(line, flush=True)
            results.append(row)
    print(json.dumps({"duel": args.duel, "seed": args.seed, "variants": results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
