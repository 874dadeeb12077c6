#!/usr/bin/env python3
"""Measure the cost of the review of a game of 2-4 players under CPython.

    python scripts/bench_review.py [--players 2,4] [--games 3] [--seed bench-review]

Each game is played to its end by the expert in every seat (seeded: game ``i`` of ``n``
players uses the seed ``f"{seed}-{n}-{i}"``), then reviewed by
:class:`skyline.players.table_review.TableReviewRun` three ways, each from cold caches
(the table expert's per-turn searches cleared; the value table stays loaded, as in the
page once fetched): no seat graded (the replay and the turning points only), one seat
graded (a person against computers) and every seat graded (pass and play). Printed per
player count: the decisions graded, milliseconds per decision (mean, p95, max: one
:func:`~skyline.players.table_review.grade_decision` each), and seconds per game for each
way, with the cost per reviewed seat. The page grades in chunks of ``bots_ui.CHUNK_MS``
(60 ms) per tick, so a tick overruns by at most one decision. The last stdout line is one
JSON object.
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

from skyline import Board, Options, apply_action, new_game
from skyline.players import table_expert
from skyline.players import table_review as tr
from skyline.players.bots import BOTS


def expert_game(players: int, seed: str) -> Board:
    board = Board(Options(tuple(f"p{i}" for i in range(players)), seed, 0, False, None))
    rng = random.Random(seed)
    while not board.is_game_over():
        board.push(BOTS["expert"](board.state, rng))
    return board


def timed_review(board: Board, seats: tuple[int, ...]) -> float:
    """Seconds to review ``board`` grading ``seats``, from cold search caches."""
    table_expert._CACHE.clear()
    started = time.perf_counter()
    run = tr.TableReviewRun(board.options, board.actions, seats)
    while not run.step():
        pass
    run.result()
    return time.perf_counter() - started


def decision_times(board: Board) -> list[float]:
    """Milliseconds of each graded decision of every seat, in play order (as the review
    grades them), from cold search caches."""
    table_expert._CACHE.clear()
    out = []
    state = new_game(board.options)
    for action in board.actions:
        started = time.perf_counter()
        graded = tr.grade_decision(state, action)
        if graded is not None:
            out.append((time.perf_counter() - started) * 1000)
        state = apply_action(state, action)
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", default="bench-review")
    args = parser.parse_args()
    report = {}
    for n in (int(x) for x in args.players.split(",")):
        ms: list[float] = []
        bare, one, every, actions = [], [], [], []
        for g in range(args.games):
            board = expert_game(n, f"{args.seed}-{n}-{g}")
            actions.append(len(board.actions))
            bare.append(timed_review(board, ()))
            one.append(timed_review(board, (0,)))
            every.append(timed_review(board, tuple(range(n))))
            ms += decision_times(board)
        row = {
            "players": n, "games": args.games, "actions_per_game": statistics.mean(actions),
            "decisions": len(ms), "decisions_per_seat": len(ms) / (n * args.games),
            "ms_per_decision_mean": statistics.mean(ms),
            "ms_per_decision_p95": percentile(ms, 0.95),
            "ms_per_decision_max": max(ms),
            "s_per_game_no_seat": statistics.mean(bare),
            "s_per_game_one_seat": statistics.mean(one),
            "s_per_game_every_seat": statistics.mean(every),
            "s_per_reviewed_seat": (statistics.mean(every) - statistics.mean(bare)) / n,
        }
        report[str(n)] = row
        print(f"{n} players, {args.games} expert games "
              f"({row['actions_per_game']:.0f} actions each): "
              f"{len(ms)} decisions graded, {row['decisions_per_seat']:.0f} per seat; "
              f"ms per decision mean {row['ms_per_decision_mean']:.1f}, "
              f"p95 {row['ms_per_decision_p95']:.1f}, max {row['ms_per_decision_max']:.1f}")
        print(f"  s per game: replay and turning points only {row['s_per_game_no_seat']:.2f}, "
              f"one seat reviewed {row['s_per_game_one_seat']:.2f}, every seat "
              f"{row['s_per_game_every_seat']:.2f} "
              f"({row['s_per_reviewed_seat']:.2f} per reviewed seat)")
    print(json.dumps(report))


if __name__ == "__main__":
    main()
