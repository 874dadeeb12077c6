"""Fault scenario results for scripts/reliability_report.py (not a test module).

A fault test wraps its run in ``with scenario("storage quota exceeded") as s:``,
calls ``s.kept("what was checked")`` once it has checked that the game survived
intact, and the outcome is merged (by name) into ``e2e/.artifacts/faults.json``::

    {"scenarios": [{"name", "survived", "games_lost", "detail"}, ...]}

A scenario that raises is recorded as not survived; one that never reached
``kept`` counts its game as lost. The report reads the file; it is a test artefact
(git-ignored), rewritten by every run of the fault tests. Several pytest-xdist workers
may record at once: each merge holds an exclusive lock on ``faults.json.lock``.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

FAULTS_FILE = Path(__file__).resolve().parent / ".artifacts" / "faults.json"


class Scenario:
    def __init__(self, name: str) -> None:
        self.name = name
        self.games_lost = 1  # until the test has checked the game
        self.detail = ""

    def kept(self, detail: str) -> None:
        self.games_lost = 0
        self.detail = detail


def record(name: str, survived: bool, games_lost: int, detail: str) -> None:
    """Merge one scenario's outcome into FAULTS_FILE (atomic replace, under a lock)."""
    FAULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    with open(FAULTS_FILE.with_suffix(".json.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        _merge(name, survived, games_lost, detail)


def _merge(name: str, survived: bool, games_lost: int, detail: str) -> None:
    try:
        data = json.loads(FAULTS_FILE.read_text(encoding="utf-8"))
        scenarios = [s for s in data["scenarios"] if s.get("name") != name]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        scenarios = []
    scenarios.append(
        {"name": name, "survived": survived, "games_lost": games_lost, "detail": detail[:200]}
    )
    tmp = FAULTS_FILE.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"scenarios": scenarios}, indent=1) + "\n", encoding="utf-8")
    tmp.replace(FAULTS_FILE)


@contextmanager
def scenario(name: str) -> Iterator[Scenario]:
    s = Scenario(name)
    try:
        yield s
    except BaseException as exc:
        record(name, False, s.games_lost, f"failed: {type(exc).__name__}: {str(exc)[:150]}")
        raise
    record(name, True, s.games_lost, s.detail or "survived")
