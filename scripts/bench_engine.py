#!/usr/bin/env python3
"""Benchmark the rules engine with seeded random-legal games.

Plays games where every action is drawn uniformly from ``legal_actions`` (the
``random`` bot's policy, inlined so only the engine is measured) and prints the
milliseconds per game for 1, 2 and 4 players, and the cost of one
``legal_actions`` call on a mid-game state in microseconds. Timings are the best
of ``--repeat`` runs, since other processes may load the machine.

The last stdout line is one JSON object with the keys ``ms_per_game_1p``,
``ms_per_game_2p``, ``ms_per_game_4p`` and ``us_legal_actions``.

    python scripts/bench_engine.py [--games 200] [--repeat 5] [--profile 4]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skyline.rules import (
    GameState,
    Options,
    Phase,
    apply_action,
    legal_actions,
    new_game,
)

NAMES = ("Ada", "Bo", "Cy", "Di")


def play_random(players: int, seed: str) -> tuple[GameState, int]:
    """One random-legal game; returns the final state and the number of actions."""
    rng = random.Random(seed)
    state = new_game(Options(NAMES[:players], seed))
    steps = 0
    while state.phase is not Phase.OVER:
        actions = legal_actions(state)
        state = apply_action(state, actions[rng.randrange(len(actions))])
        steps += 1
    return state, steps


def time_games(players: int, games: int, repeat: int) -> float:
    """Best-of-``repeat`` milliseconds per game."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for i in range(games):
            play_random(players, f"bench-{players}-{i}")
        best = min(best, (time.perf_counter() - start) / games)
    return best * 1000


def mid_game_states(count: int = 20) -> list[GameState]:
    """States in the middle of 4-player games, with rolled dice (RESOLVE/CONTINUE)."""
    out = []
    for i in range(count):
        rng = random.Random(f"mid-{i}")
        state = new_game(Options(NAMES, f"mid-{i}"))
        while state.phase is not Phase.OVER and not (
            state.round >= 5 and state.phase in (Phase.RESOLVE, Phase.CONTINUE)
        ):
            actions = legal_actions(state)
            state = apply_action(state, actions[rng.randrange(len(actions))])
        if state.phase is not Phase.OVER:
            out.append(state)
    return out


def time_legal_actions(repeat: int) -> float:
    """Best-of-``repeat`` microseconds per ``legal_actions`` call on mid-game states."""
    states = mid_game_states()
    loops = 200
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(loops):
            for state in states:
                legal_actions(state)
        best = min(best, (time.perf_counter() - start) / (loops * len(states)))
    return best * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per timing run (1 player)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure; the best is kept")
    parser.add_argument(
        "--profile", type=int, choices=(1, 2, 4), help="cProfile random games of this many players"
    )
    args = parser.parse_args(argv)
    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.enable()
        for i in range(args.games):
            play_random(args.profile, f"bench-{args.profile}-{i}")
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(20)
        return 0
    result = {}
    for players in (1, 2, 4):
        games = max(1, args.games // players)
        ms = time_games(players, games, args.repeat)
        result[f"ms_per_game_{players}p"] = round(ms, 3)
        print(f"{players} player{'s' if players > 1 else ''}: {ms:8.3f} ms per random game")
    us = time_legal_actions(args.repeat)
    result["us_legal_actions"] = round(us, 2)
    print(f"legal_actions on a mid-game 4-player state: {us:.2f} µs")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
