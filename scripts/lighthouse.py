#!/usr/bin/env python3
"""Lighthouse quality scores of the built site, as JSON.

Serves ``dist/`` (``--build`` builds it first) with scripts/serve.py's server (netlify
headers, compression), runs Lighthouse (npm ``lighthouse``, a pinned dev dependency,
never shipped) in Debian's Chromium and prints one JSON line: the category scores
(performance, accessibility, best practices, SEO), the key timings (first and largest
contentful paint, total blocking time, layout shift, speed index) and the audits that
did not pass in best practices and accessibility. Aims with the desktop preset:
performance >= 90, accessibility 100, best practices >= 95.

Usage: ``python scripts/lighthouse.py [--preset desktop|mobile] [--build] [--runs N]``
(``--runs``: the median run by performance score is printed).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import serve  # noqa: E402
from chromium import CHROMIUM  # noqa: E402

LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
TIMINGS = {
    "first-contentful-paint": "fcp_ms",
    "largest-contentful-paint": "lcp_ms",
    "total-blocking-time": "tbt_ms",
    "cumulative-layout-shift": "cls",
    "speed-index": "si_ms",
}


def run(url: str, preset: str) -> dict:
    cmd = [str(LIGHTHOUSE), url, "--output=json", "--output-path=stdout", "--quiet",
           "--only-categories=performance,accessibility,best-practices,seo",
           "--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run "
           "--disable-background-networking --disable-component-update"]
    if preset == "desktop":
        cmd.append("--preset=desktop")
    env = {**os.environ, "CHROME_PATH": CHROMIUM}
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True, timeout=600)
    report = json.loads(out.stdout)
    cats = report["categories"]
    audits = report["audits"]
    failing = {
        cat: sorted(
            ref["id"] for ref in cats[cat]["auditRefs"]
            if ref.get("weight", 0) > 0 and (audits[ref["id"]].get("score") is not None)
            and audits[ref["id"]]["score"] < 1
        )
        for cat in ("best-practices", "accessibility")
    }
    return {
        "preset": preset,
        **{f"score_{k.replace('-', '_')}": round(v["score"] * 100) for k, v in cats.items()},
        **{name: round(audits[a]["numericValue"], 3 if name == "cls" else 0)
           for a, name in TIMINGS.items()},
        "failing": failing,
        "deprecations": [i.get("value") for i in
                         audits.get("deprecations", {}).get("details", {}).get("items", [])],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=("desktop", "mobile"), default="desktop")
    parser.add_argument("--build", action="store_true", help="build dist/ first")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=ROOT / "dist")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit("[lighthouse] node_modules/.bin/lighthouse missing: run npm ci")
    if args.build:
        serve.load_script("build").build(args.dir.resolve())
    server = serve.make_server(args.dir.resolve())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    try:
        results = [run(f"http://{host}:{port}/", args.preset) for _ in range(max(1, args.runs))]
    finally:
        server.shutdown()
    perf = statistics.median_low(r["score_performance"] for r in results)
    print(json.dumps(next(r for r in results if r["score_performance"] == perf)))


if __name__ == "__main__":
    main()
