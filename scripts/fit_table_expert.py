#!/usr/bin/env python3
"""Measure the spread the 2-4 player expert assumes (``skyline.table_expert.SPREAD``).

    python scripts/fit_table_expert.py [--games 1500] [--seed sig]

Plays ``--games`` seeded solo expert games per mode (standard, all nine rounds) and, at
the start of every turn, records the solo value of the position (the expected final
score) and the final score reached. Prints, per mode and turns left, the mean and the
standard deviation of ``final - value``; the standard deviations are the SPREAD table
(the means should be close to 0: the value is unbiased). The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skyline import Options, Phase, apply_action, new_game, score  # noqa: E402
from skyline import solo_value as sv  # noqa: E402
from skyline.expert import expert_bot, position  # noqa: E402


def spreads(mode: str, games: int, seed: str) -> list[tuple[int, int, float, float]]:
    """(turns left, samples, mean, sd) of final score minus solo value, per turns left."""
    rows: dict[int, list[float]] = {t: [] for t in range(1, 10)}
    for g in range(games):
        state = new_game(Options(("solo",), f"{seed}-{mode[0]}-{g}", 0, mode == "nine"))
        seen = []
        while state.phase is not Phase.OVER:
            if state.phase is Phase.TAKE:
                pos = position(state)
                seen.append((pos.turns_left, sv.value(pos)))
            state = apply_action(state, expert_bot(state, None))  # type: ignore[arg-type]
        final = score(state.players[0])
        for t, v in seen:
            rows[t].append(final - v)
    return [(t, len(d), statistics.fmean(d), statistics.pstdev(d)) for t, d in rows.items() if d]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1500)
    ap.add_argument("--seed", default="sig")
    args = ap.parse_args(argv)
    out = {}
    for mode in ("standard", "nine"):
        table = spreads(mode, args.games, args.seed)
        for t, n, mean, sd in table:
            print(f"{mode:8} turns left {t}: n={n} mean {mean:+.2f} sd {sd:.2f}", flush=True)
        out[mode] = [0.0] + [round(sd, 2) for _t, _n, _m, sd in table]
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
