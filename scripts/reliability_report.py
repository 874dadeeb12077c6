#!/usr/bin/env python3
"""Reliability report: "nothing lost, nothing broken" in figures.

Feeds share links, game records, saves, game links (correspondence play),
game-list entries and solo records to the engine's readers (the generators of
``tests/fuzz_cases.py``, in a fixed-seed loop: the same run every time), then the
edges: the longest games the rules allow (``skyline.rules.bounds``) through every
writer and reader, and inputs exactly at each reader's limit (they must load) and
just over it (they must be refused with that limit's code); loads every shipped save
fixture, reads the page-level fault scenarios the e2e suite recorded, and prints:

* fuzz cases tried per category (the edges also per reader) and their outcomes:
  loaded, or rejected with the documented error (grouped by code);
* crashes (any other exception, or a loaded game that fails its checks; must be 0)
  and hangs (a case slower than ``fuzz_cases.CASE_LIMIT``; must be 0);
* games lost: a valid link/record/save/game link/entry that did not give back its
  game, a shipped save version that does not migrate (to a save of the current
  version and to an entry of the game list), or a game lost in a page fault scenario
  (must be 0);
* page fault scenarios survived (see :func:`page_faults`). Without the e2e suite's
  file the report fails: the scenarios were not run, and are not claimed.
  ``--engine-only`` leaves them out on purpose (said so in the report).

The last line is one JSON object with those figures. Exit status 1 if anything
crashed, hung or was lost, or the page fault scenarios are missing.

    python scripts/reliability_report.py                 # 10,000 cases per category
    python scripts/reliability_report.py --cases 2000 --seed 7 --engine-only
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import random  # noqa: E402

import fuzz_cases  # noqa: E402
from fuzz_cases import (  # noqa: E402
    CASE_LIMIT,
    EDGE_GENERATORS,
    GENERATORS,
    Case,
    junk_text,
    run_case,
)

from skyline import Board, read_save  # noqa: E402
from skyline.records import SAVE_VERSIONS  # noqa: E402
from skyline.records.game_list import entry_to_json, migrate_single_save, read_entry  # noqa: E402

FAULTS_FILE = ROOT / "e2e" / ".artifacts" / "faults.json"
FIXTURES = ROOT / "tests" / "fixtures" / "saves"
LABELS = {"link": "share links", "record": "records", "save": "saves",
          "game_link": "game links", "entry": "game-list entries", "index": "game-list index",
          "solo_records": "solo records", "longest": "longest legal games",
          "limits": "inputs at and just over each limit"}
WATCHDOG = 10 * CASE_LIMIT  # seconds: a case still running then is stopped as a hang


class CaseTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise CaseTimeout


def fuzz(kind: str, cases: int, seed: int, progress: bool) -> dict:
    """Run ``cases`` generated cases of ``kind``; the figures of the run."""
    rng = random.Random(f"{seed}-{kind}")
    generator = {**GENERATORS, **EDGE_GENERATORS}[kind]
    statuses: Counter[str] = Counter()
    readers: Counter[str] = Counter()
    codes: Counter[str] = Counter()
    problems: list[str] = []
    slowest = 0.0
    watchdog = hasattr(signal, "setitimer")
    if watchdog:
        signal.signal(signal.SIGALRM, _alarm)
    start = time.perf_counter()
    for i in range(cases):
        case: Case = generator(rng, junk_text(rng))
        if watchdog:
            signal.setitimer(signal.ITIMER_REAL, WATCHDOG)
        try:
            outcome = run_case(case, CASE_LIMIT)
        finally:
            if watchdog:
                signal.setitimer(signal.ITIMER_REAL, 0)
        status = outcome.status
        if status == "crash" and outcome.code == "CaseTimeout":
            status = "hang"
        statuses[status] += 1
        readers[case.kind] += 1
        slowest = max(slowest, outcome.seconds)
        if status == "rejected":
            codes[outcome.code or "?"] += 1
        elif status != "loaded" and len(problems) < 10:
            problems.append(f"{status} {outcome.code} {case.how}: {outcome.detail[:160]}")
        if progress and (i + 1) % (1000 if kind in GENERATORS else 50) == 0:
            print(f"  {kind}: {i + 1}/{cases}", file=sys.stderr, flush=True)
    return {
        "tried": cases,
        "loaded": statuses["loaded"],
        "rejected": statuses["rejected"],
        "rejected_by_code": dict(codes.most_common()),
        "by_reader": dict(readers.most_common()),
        "crashes": statuses["crash"],
        "hangs": statuses["hang"],
        "lost": statuses["lost"],
        "slowest_case_s": round(slowest, 4),
        "seconds": round(time.perf_counter() - start, 1),
        "problems": problems,
    }


def shipped_saves() -> dict:
    """Every save fixture (one per shipped version) must load as the game its record
    replays to, with the same undo state, and migrate into an entry of the game list
    that reads back as that game."""
    results = {}
    for version in SAVE_VERSIONS:
        path = FIXTURES / f"v{version}.json"
        try:
            text = path.read_text(encoding="utf-8")
            data = json.loads(text)
            game = data if version == 0 else data["game"]
            expected = Board.from_record(game["record"])
            saved = read_save(text)
            entry = read_entry(entry_to_json(migrate_single_save(text)))
            ok = (saved.board.state == expected.state
                  and saved.board.can_undo() == expected.can_undo()
                  and entry.board.state == expected.state
                  and entry.board.can_undo() == expected.can_undo())
            results[f"v{version}"] = "migrated" if ok else "LOST (state differs)"
        except Exception as exc:
            results[f"v{version}"] = f"LOST ({type(exc).__name__}: {str(exc)[:80]})"
    return results


# ----------------------------------------------------------------------------- page faults


def page_faults(path: Path = FAULTS_FILE) -> dict:
    """Page-level fault scenarios (storage quota, two tabs, Python crash, offline
    update, ...) are exercised by the Playwright suite, which records its results
    in ``e2e/.artifacts/faults.json``::

        {"scenarios": [{"name": "storage quota exceeded", "survived": true,
                        "games_lost": 0, "detail": "notice shown, game kept"}, ...]}

    This reads that file. Without it the scenarios count as "not run" (they are
    not claimed as survived, and the report fails); an unreadable file is reported as
    such (and fails too).
    """
    if not path.exists():
        return {"status": "not run", "file": str(path), "scenarios": []}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        scenarios = [
            {
                "name": str(s["name"]),
                "survived": s["survived"] is True,
                "games_lost": int(s.get("games_lost", 0)),
                "detail": str(s.get("detail", ""))[:200],
            }
            for s in data["scenarios"]
        ]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return {"status": f"unreadable ({type(exc).__name__})", "scenarios": []}
    return {
        "status": "run",
        "tried": len(scenarios),
        "survived": sum(s["survived"] for s in scenarios),
        "games_lost": sum(s["games_lost"] for s in scenarios),
        "scenarios": scenarios,
    }


# ----------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000, help="cases per category")
    parser.add_argument("--edge-cases", type=int, default=40,
                        help="cases per edge category (longest games, limits): heavier")
    parser.add_argument("--engine-only", action="store_true",
                        help="leave the page fault scenarios out (not claimed, not failed)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the fixed-seed loop")
    parser.add_argument("--faults", type=Path, default=FAULTS_FILE,
                        help="fault scenario results written by the e2e suite")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    for index in range(fuzz_cases.POOL_SIZE):  # the pool of random games, built once
        fuzz_cases.pooled_board(index)
    runs = {kind: fuzz(kind, args.cases, args.seed, not args.quiet) for kind in GENERATORS}
    runs.update({kind: fuzz(kind, args.edge_cases, args.seed, not args.quiet)
                 for kind in EDGE_GENERATORS})
    saves = shipped_saves()
    faults = ({"status": "left out (--engine-only)", "scenarios": []} if args.engine_only
              else page_faults(args.faults))

    print("Reliability report: share links, records, saves, game links, list entries, "
          "solo records; the longest games and every limit")
    print(f"fuzz: {args.cases} cases per category, {args.edge_cases} per edge category, "
          f"seed {args.seed}, hang limit {CASE_LIMIT:g} s per case")
    for kind, run in runs.items():
        print(f"\n  {LABELS.get(kind, kind)}: {run['tried']} tried in {run['seconds']} s "
              f"(slowest case {run['slowest_case_s']} s)")
        print(f"    loaded {run['loaded']}, rejected with the documented error {run['rejected']}")
        for code, count in run["rejected_by_code"].items():
            print(f"      {code:<16} {count}")
        if kind in EDGE_GENERATORS:
            print("    per reader: " + ", ".join(f"{LABELS.get(k, k)} {n}"
                                               for k, n in run["by_reader"].items()))
        print(f"    crashes {run['crashes']}, hangs {run['hangs']}, games lost {run['lost']}")
        for problem in run["problems"]:
            print(f"      ! {problem}")
    print("\n  shipped save versions: " + ", ".join(f"{v} {r}" for v, r in saves.items()))
    if faults["status"] == "run":
        print(f"\n  page fault scenarios: {faults['survived']}/{faults['tried']} survived, "
              f"games lost {faults['games_lost']}")
        for s in faults["scenarios"]:
            mark = "ok  " if s["survived"] and not s["games_lost"] else "FAIL"
            print(f"    {mark} {s['name']}: {s['detail']}")
    else:
        print(f"\n  page fault scenarios: {faults['status']} ({args.faults})")

    crashes = sum(r["crashes"] for r in runs.values())
    hangs = sum(r["hangs"] for r in runs.values())
    lost = (sum(r["lost"] for r in runs.values())
            + sum(1 for r in saves.values() if r != "migrated")
            + (faults.get("games_lost", 0) if faults["status"] == "run" else 0))
    failed_faults = (faults["tried"] - faults["survived"]) if faults["status"] == "run" else 0
    if not args.engine_only and faults["status"] != "run":
        failed_faults = 1  # not run (or unreadable): nothing may be claimed
        print(f"page fault scenarios {faults['status']}: run the e2e suite first "
              "(or --engine-only)")
    print(f"\ncrashes {crashes}, hangs {hangs}, games lost {lost}")
    summary = {
        "fuzz_cases": sum(r["tried"] for r in runs.values()),
        "fuzz": {
            kind: {k: v for k, v in run.items() if k != "problems"} for kind, run in runs.items()
        },
        "save_versions": saves,
        "fault_scenarios": {k: v for k, v in faults.items() if k != "scenarios"},
        "crashes": crashes,
        "hangs": hangs,
        "games_lost": lost,
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(summary, separators=(",", ":")))
    return 1 if crashes or hangs or lost or failed_faults else 0


if __name__ == "__main__":
    sys.exit(main())
