#!/usr/bin/env python3
"""Fit the spread the 2-4 player expert assumes (``skyline.players.table_expert.SPREAD``).

    python scripts/fit_table_expert.py [--games 2000] [--seed sprd]

Plays ``--games`` seeded solo expert games per mode (standard, all nine rounds) and, at
the start of every turn, records the solo value of the position (the expected final
score), the points still to come ``g`` (the value minus the score if the game ended then)
and the final score reached. Per mode and turns left it fits, by maximum likelihood,
``final - value ~ normal(0, a * max(1, g) ** p)`` (``p`` on a grid of 0.025, ``a`` then in
closed form) and prints ``(a, p)``, the plain standard deviation (the earlier
``SPREAD_TURNS``) and the mean of ``final - value`` (close to 0: the value is unbiased).
The last line is JSON: the SPREAD table.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skyline import Options, Phase, apply_action, new_game, score
from skyline.players import solo_value as sv
from skyline.players.expert import expert_bot, position


def samples(mode: str, games: int, seed: str) -> dict[int, list[tuple[float, float]]]:
    """Per turns left: (points still to come, final score - value) at each turn's start."""
    rows: dict[int, list[tuple[float, float]]] = {t: [] for t in range(1, 10)}
    for g in range(games):
        state = new_game(Options(("solo",), f"{seed}-{mode[0]}-{g}", 0, mode == "nine"))
        seen = []
        while state.phase is not Phase.OVER:
            if state.phase is Phase.TAKE:
                pos = position(state)
                value = sv.value(pos)
                seen.append((pos.turns_left, value, value - pos.final_score))
            state = apply_action(state, expert_bot(state, None))  # type: ignore[arg-type]
        final = score(state.players[0])
        for t, v, gain in seen:
            rows[t].append((gain, final - v))
    return rows


def fit(data: list[tuple[float, float]]) -> tuple[float, float]:
    """Maximum-likelihood (a, p) of variance ``a * max(1, g) ** p``."""
    best = (math.inf, 0.0, 0.0)
    logs = [math.log(max(1.0, g)) for g, _ in data]
    sq = [e * e for _, e in data]
    for i in range(81):
        p = 0.025 * i
        a = statistics.fmean(s / math.exp(p * lg) for s, lg in zip(sq, logs, strict=True))
        nll = sum(math.log(a) + p * lg + s / (a * math.exp(p * lg))
                  for s, lg in zip(sq, logs, strict=True))
        if nll < best[0]:
            best = (nll, a, p)
    return round(best[1], 4), round(best[2], 3)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", default="sprd")
    args = ap.parse_args(argv)
    out = {}
    for mode in ("standard", "nine"):
        rows = samples(mode, args.games, args.seed)
        table = [(0.0, 0.0)]
        for t, data in rows.items():
            a, p = fit(data)
            errors = [e for _, e in data]
            print(f"{mode:8} turns left {t}: n={len(data)} mean {statistics.fmean(errors):+.2f} "
                  f"sd {statistics.pstdev(errors):.2f}  a {a} p {p}", flush=True)
            table.append((a, p))
        out[mode] = table
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
