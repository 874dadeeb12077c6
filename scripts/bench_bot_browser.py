#!/usr/bin/env python3
"""Expert decision time in the browser (Pyodide) and the bytes the solo table adds.

    python scripts/bench_bot_browser.py [--games 3] [--players 1] [--seed pyb] [--no-build]

Builds ``dist/`` (unless ``--no-build``), serves it with ``scripts/serve.py``, opens it in
Chromium (``SKYLINE_CHROMIUM``, default /usr/bin/chromium) and, inside the page, through
``window.skylineBots`` (web/bots_ui.py):

1. loads the solo value table once and times it (a one-off at the first expert decision
   or hint);
2. plays ``--games`` scripted games of the expert (seeds ``{seed}-0`` ...) and times every
   expert decision: p50, p95, max.

Table bytes: the size of ``skyline/data/solo_values.bin`` and its compressed size in the
wheel the page downloads (the extra bytes on a cold load). The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402 - scripts/chromium.py

TABLE = ROOT / "skyline" / "data" / "solo_values.bin"


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def table_bytes(dist: Path) -> dict:
    out = {"table_file_bytes": TABLE.stat().st_size if TABLE.exists() else None}
    wheels = sorted(dist.glob("skyline-*.whl"))
    if wheels:
        with zipfile.ZipFile(wheels[0]) as z:
            for info in z.infolist():
                if info.filename.endswith("solo_values.bin"):
                    out["table_in_wheel_bytes"] = info.compress_size
        out["wheel_bytes"] = wheels[0].stat().st_size
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--players", type=int, default=1)
    ap.add_argument("--seed", default="pyb")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--dist", type=Path, default=ROOT / "dist", help="built site to serve")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    cmd = [sys.executable, str(ROOT / "scripts" / "serve.py"), "--port", "0", "--dir",
           str(args.dist)]
    if args.no_build:
        cmd.append("--no-build")
    server = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        while True:
            line = server.stdout.readline()
            if not line:
                raise SystemExit("server did not start")
            if line.startswith("serving "):
                url = line.split()[1]
                break
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.goto(url)
            page.wait_for_selector('body[data-ready="1"]', timeout=120_000)
            # The value table is fetched on first need: "missing" until it has arrived.
            for _ in range(600):
                table = json.loads(page.evaluate("window.skylineBots('table', '')"))
                if "missing" not in table:
                    break
                page.wait_for_timeout(100)
            else:
                raise SystemExit(f"value table never arrived: {table}")
            arg = f"{args.games},{args.seed},{args.players}"
            times = json.loads(page.evaluate(f"window.skylineBots('bench', '{arg}')"))
            times = times["decisions_ms"]
            browser.close()
    finally:
        server.terminate()
        server.wait()
    result = {
        "games": args.games,
        "players": args.players,
        "decisions": len(times),
        "table_load_ms": round(table["load_ms"], 1),
        "table_first_lookup_ms": {k: round(v, 1) for k, v in table["first_lookup_ms"].items()},
        "table_entries": table["entries"],
        "decision_ms": {
            "p50": round(pct(times, 0.5), 2),
            "p95": round(pct(times, 0.95), 2),
            "max": round(max(times), 2),
            "mean": round(sum(times) / len(times), 2),
        },
        **table_bytes(args.dist),
    }
    d = result["decision_ms"]
    print(f"Pyodide expert decisions: n={len(times)} p50 {d['p50']} ms, p95 {d['p95']} ms, "
          f"max {d['max']} ms; table load {result['table_load_ms']} ms + first lookup "
          f"{result['table_first_lookup_ms']} ms "
          f"({result['table_entries']} entries); table bytes {result.get('table_file_bytes')} "
          f"(in the wheel: {result.get('table_in_wheel_bytes')})")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
