#!/usr/bin/env python3
"""The day's benchmark under CPython: the expert's game on a run of daily challenges.

    python scripts/bench_daily_benchmark.py [--days 30] [--first 2026-12-01] [--chunk 60]

For each day from ``--first``: the expert's score on that day's dice, its decisions, the
time of the whole game played as the page's pacer plays it (``ExpertGame.advance`` with a
budget of ``--chunk`` ms per tick), the number of ticks and the longest tick (it exceeds
the budget by at most one decision: a decision is never cut). The turn solver keeps what
it has solved across days, as the page does within a visit. The value table is loaded
and decoded first, not timed. The last stdout line is one JSON object.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skyline.players import solo_value as sv
from skyline.players.benchmark import ExpertGame
from skyline.records.daily import daily_options


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--first", default="2026-12-01")
    parser.add_argument("--chunk", type=float, default=60.0)
    args = parser.parse_args()
    sv.load_table()
    for mode in ("standard", "nine"):
        sv.value(sv.SoloPosition.start(mode))  # decode the table before timing
    first = datetime.date.fromisoformat(args.first)
    rows = []
    for n in range(args.days):
        day = (first + datetime.timedelta(days=n)).isoformat()
        game = ExpertGame(daily_options(day, "Bench"))
        ticks: list[float] = []
        while not game.done:  # as the page's pacer plays it: one advance per tick
            t0 = time.perf_counter()
            game.advance(args.chunk)
            ticks.append((time.perf_counter() - t0) * 1000)
        total = sum(ticks)
        longest = max(ticks)
        rows.append({"day": day, "score": game.score, "decisions": len(game.actions),
                     "game_ms": round(total, 1), "longest_tick_ms": round(longest, 1),
                     "ticks": len(ticks)})
        print(f"{day}: {game.score:3d} points, {len(game.actions)} decisions, "
              f"{total:7.1f} ms in {len(ticks)} ticks, the longest {longest:6.1f} ms")
    scores = [r["score"] for r in rows]
    summary = {
        "days": len(rows), "mean_score": round(statistics.mean(scores), 2),
        "median_game_ms": round(statistics.median(r["game_ms"] for r in rows), 1),
        "max_game_ms": max(r["game_ms"] for r in rows),
        "max_tick_ms": max(r["longest_tick_ms"] for r in rows),
        "median_ticks": statistics.median(r["ticks"] for r in rows),
    }
    print(json.dumps({"summary": summary, "days": rows}))


if __name__ == "__main__":
    main()
