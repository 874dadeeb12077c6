#!/usr/bin/env python3
"""Whether the chances chart's numbers mean what they say: its calibration over seeded
games of 2, 3 and 4 players between the computer levels.

    python scripts/bench_calibration.py [--games 700] [--seed calib] [--workers 2]
                                        [--players 2 3 4] [--shortfall 2:2.84/3.07,3:2.6]
                                        [--trend-prior 2:1.5,3:5] [--optimum 2]

For each player count, ``--games`` games (game ``i`` seeded ``f"{seed}-{n}p-{i}"``; each
seat's level drawn from Beginner, Greedy and Expert by the same seed) are played to their
end, and after every turn the chart's value for every seat is recorded
(:func:`skyline.players.chances.point_values`, what the page draws). Printed per player
count and for all games:

- calibration: per tenth of predicted chance (0-10 %, ..., 90-100 %), the points in it,
  their mean predicted chance and the share of them that won (a shared first place
  counts as its share);
- the Brier score of the chart beside two naive predictors: "the current leader" (the
  seats with the most points share 1) and "equal shares" (1 / players);
- the mean change of a seat's chance over its own turn and over the other seats' turns
  (a calibrated chance changes by 0 on average over either), with standard errors, and
  the change over its own turn per place in the turn order;
- at the start: the chart's chance per place in the turn order beside the share of the
  games that place won;
- per place in the turn order, how many points per turn a player fell short of its solo
  value at the start (the start value less the final score, over 9 turns; the start
  measured as the chart does).

``skyline.players.table_expert.CHART_SHORTFALL`` is fitted with this script: per player
count (and for two players per place in the turn order), the values that bring the mean
change over a seat's own turn to 0. ``--shortfall`` tries other values (``2:a/b`` per
place, ``3:a`` the same for every place; ``--shortfall 2:0,3:0,4:0`` is the chart without
it), ``--trend-prior`` other weights of it against a player's own trend
(``CHART_TREND_PRIOR``, in turns) and ``--optimum`` the player counts measured from the
solo optimum (``CHART_FROM_OPTIMUM``; ``--optimum none`` for none).

The last point of a game is its result, so the changes include the last turn. The last
stdout line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skyline import Options, apply_action, new_game, score
from skyline.players import solo_value as sv
from skyline.players import table_expert
from skyline.players.bots import BOTS
from skyline.players.chances import point_values
from skyline.players.solo_model import position
from skyline.rules import Phase

LEVELS = ("beginner", "greedy", "expert")
BINS = 10


def play(job: tuple[int, str, int]) -> list[tuple[int, tuple[float, ...], tuple[int, ...]]]:
    """One game: per point (the start, then every turn's end) the seat that just moved
    (-1 at the start), the chart's values and the seats' scores."""
    players, seed, i = job
    game_seed = f"{seed}-{players}p-{i}"
    rng = random.Random(game_seed)
    levels = [rng.choice(LEVELS) for _ in range(players)]
    state = new_game(Options(tuple(f"p{k}" for k in range(players)), game_seed, 0))
    points = [(-1, point_values(state), tuple(score(p) for p in state.players))]
    while state.phase is not Phase.OVER:
        seat = state.seat
        before = (state.round, state.seat)
        state = apply_action(state, BOTS[levels[seat]](state, rng))
        if state.phase is Phase.OVER or (state.round, state.seat) != before:
            points.append((seat, point_values(state), tuple(score(p) for p in state.players)))
    return points


def _init(
    shortfall: dict[int, tuple[float, ...]] | None = None,
    trend_prior: dict[int, float] | None = None,
    optimum: frozenset[int] | None = None,
) -> None:
    sv.load_table().prepare("standard")
    table_expert.CHART_SHORTFALL.update(shortfall or {})
    table_expert.CHART_TREND_PRIOR.update(trend_prior or {})
    if optimum is not None:
        table_expert.CHART_FROM_OPTIMUM = optimum


_init()  # the parent process values the start positions too


def leader(scores: tuple[int, ...]) -> tuple[float, ...]:
    top = max(scores)
    first = [s == top for s in scores]
    return tuple(1.0 / sum(first) if f else 0.0 for f in first)


def _mean_se(values: list[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 0.0
    m = sum(values) / len(values)
    if len(values) < 2:
        return m, 0.0
    var = sum((v - m) ** 2 for v in values) / (len(values) - 1)
    return m, math.sqrt(var / len(values))


def shortfall(games: list[list[tuple[int, tuple[float, ...], tuple[int, ...]]]]) -> list[float]:
    """Per place in the turn order (the games start with seat 0): the mean of (the solo
    value of its start, less its final score) / 9; the start as the chart measures it
    (for ``CHART_FROM_OPTIMUM`` player counts every place's is the start player's)."""
    n = len(games[0][0][1])
    first = new_game(Options(tuple(f"p{k}" for k in range(n)), "start", 0))
    optimum = n in table_expert.CHART_FROM_OPTIMUM
    start = [sv.value(position(first, 0 if optimum else k)) for k in range(n)]
    return [sum(start[k] - g[-1][2][k] for g in games) / len(games) / 9 for k in range(n)]


def measure(games: list[list[tuple[int, tuple[float, ...], tuple[int, ...]]]]) -> dict:
    """The figures of the module doc for ``games`` (each a list of points)."""
    bins = [[0, 0.0, 0.0] for _ in range(BINS)]  # points, sum predicted, sum won
    brier = {"chart": 0.0, "leader": 0.0, "equal": 0.0}
    n_brier = 0
    own: list[float] = []
    others: list[float] = []
    # per place in the turn order (the games start with seat 0), for one player count
    places = max(len(points[0][1]) for points in games)
    own_by_order: list[list[float]] = [[] for _ in range(places)]
    opening = [0.0] * places
    won = [0.0] * places
    for points in games:
        for k in range(len(points[0][1])):
            opening[k] += points[0][1][k] / len(games)
            won[k] += points[-1][1][k] / len(games)
        result = points[-1][1]  # the end: the winners share 1
        n = len(result)
        for _seat, values, scores in points[:-1]:
            lead = leader(scores)
            for k in range(n):
                p = values[k]
                b = min(BINS - 1, int(p * BINS))
                bins[b][0] += 1
                bins[b][1] += p
                bins[b][2] += result[k]
                brier["chart"] += (p - result[k]) ** 2
                brier["leader"] += (lead[k] - result[k]) ** 2
                brier["equal"] += (1.0 / n - result[k]) ** 2
                n_brier += 1
        for (_, before, _), (seat, after, _) in zip(points, points[1:], strict=False):
            for k in range(n):
                (own if k == seat else others).append(after[k] - before[k])
            own_by_order[seat].append(after[seat] - before[seat])
    deciles: list[dict[str, Any]] = [
        {"bin": f"{10 * b}-{10 * (b + 1)}%", "points": int(count),
         "predicted": total / count if count else None, "won": won / count if count else None}
        for b, (count, total, won) in enumerate(bins)
    ]
    gaps = [abs(won / count - total / count) for count, total, won in bins if count >= 50]
    own_m, own_se = _mean_se(own)
    oth_m, oth_se = _mean_se(others)
    return {
        "games": len(games),
        "deciles": deciles,
        "worst_decile_gap": max(gaps, default=0.0),
        "brier": {k: v / n_brier for k, v in brier.items()},
        "own_turn": {"mean": own_m, "se": own_se},
        "others_turns": {"mean": oth_m, "se": oth_se},
        **({"own_turn_by_place": [_mean_se(v)[0] for v in own_by_order],
            "start": {"chart": opening, "won": won}}
           if len({len(points[0][1]) for points in games}) == 1 else {}),
    }


def show(title: str, m: dict) -> None:
    print(f"\n{title}: {m['games']} games")
    print("  predicted   points   mean predicted   won")
    for d in m["deciles"]:
        if d["points"]:
            print(f"  {d['bin']:>9}  {d['points']:7d}   {100 * d['predicted']:6.1f} %"
                  f"        {100 * d['won']:5.1f} %")
    b = m["brier"]
    print(f"  Brier: chart {b['chart']:.4f}, current leader {b['leader']:.4f}, "
          f"equal shares {b['equal']:.4f}")
    o, t = m["own_turn"], m["others_turns"]
    print(f"  mean change over the seat's own turn {100 * o['mean']:+.2f} points "
          f"(se {100 * o['se']:.2f}), over the others' turns {100 * t['mean']:+.2f} "
          f"(se {100 * t['se']:.2f})")
    if "start" in m:
        print("  mean change over the seat's own turn by place in the turn order: "
              + ", ".join(f"{100 * v:+.2f}" for v in m["own_turn_by_place"]))
        print("  at the start, by place in the turn order: chart "
              + " / ".join(f"{100 * v:.1f} %" for v in m["start"]["chart"]) + ", won "
              + " / ".join(f"{100 * v:.1f} %" for v in m["start"]["won"]))
    print(f"  largest gap of a tenth with 50 points or more: "
          f"{100 * m['worst_decile_gap']:.1f} points")
    if "shortfall" in m:
        print("  short of the solo value, points per turn by place in the turn order: "
              + ", ".join(f"{v:.2f}" for v in m["shortfall"]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=700, help="games per player count")
    ap.add_argument("--seed", default="calib")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=(2, 3, 4))
    ap.add_argument("--shortfall", default="",
                    help="the chart's shortfall per player count and place in the turn "
                         "order, e.g. 2:2.84/3.07,3:2.6,4:1.7 (one value: every place)")
    ap.add_argument("--trend-prior", default="",
                    help="the chart's weight of the shortfall in turns, e.g. 2:1.5,3:5")
    ap.add_argument("--optimum", default=None,
                    help="the player counts the chart measures from the solo optimum, "
                         "e.g. 2,3 (none: no count)")
    args = ap.parse_args(argv)
    chart: dict[int, tuple[float, ...]] = {}
    for item in filter(None, args.shortfall.split(",")):
        k, v = item.split(":")
        places = tuple(float(x) for x in v.split("/"))
        chart[int(k)] = places if len(places) > 1 else places * int(k)
    trend = {int(k): float(v) for k, v in
             (item.split(":") for item in args.trend_prior.split(",") if item)}
    optimum = None if args.optimum is None else frozenset(
        int(k) for k in args.optimum.split(",") if k and k != "none")
    _init(chart, trend, optimum)
    started = time.perf_counter()
    out: dict[str, dict] = {}
    every: list = []
    print(f"the chart's shortfall per turn: {table_expert.CHART_SHORTFALL}; its weight in "
          f"turns: {table_expert.CHART_TREND_PRIOR}; measured from the solo optimum: "
          f"{sorted(table_expert.CHART_FROM_OPTIMUM)}")
    with Pool(args.workers, initializer=_init, initargs=(chart, trend, optimum)) as pool:
        for players in args.players:
            jobs = [(players, args.seed, i) for i in range(args.games)]
            games = pool.map(play, jobs, chunksize=8)
            every += games
            out[f"{players}p"] = {**measure(games), "shortfall": shortfall(games)}
            show(f"{players} players", out[f"{players}p"])
    out["all"] = measure(every)
    show("all", out["all"])
    print(f"\n{time.perf_counter() - started:.0f} s", file=sys.stderr)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
