"""A live tables' signalling relay on the loopback, for the tests and benchmarks:
``scripts/live_relay.mjs`` (Node) in a child process.

    with LoopbackRelay() as relay:        # relay.url: "ws://127.0.0.1:PORT"
        ...                               # point the page at it (web/js/live.js:
                                          # window.__skylineLiveRelays = [relay.url])

``relay.stop()`` stops it mid-test (the data channels it helped open stay up);
``log`` (a path) records every message a device sent the relay, one JSON line each
(``{"t", "bytes", "text"}``): what a relay sees.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from types import TracebackType

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "live_relay.mjs"


class LoopbackRelay:
    """The relay of web/js/live.js's strategy on 127.0.0.1, on a free port."""

    def __init__(self, strategy: str = "nostr", log: Path | None = None,
                 port: int = 0) -> None:
        command = ["node", str(SCRIPT), strategy, "--port", str(port)]
        if log is not None:
            command += ["--log", str(log)]
        self.log = log
        self._proc: subprocess.Popen[str] | None = subprocess.Popen(
            command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        try:
            self.url: str = json.loads(line)["url"]
        except (ValueError, KeyError):
            self.stop()
            raise RuntimeError(f"live_relay.mjs did not start: {line!r}") from None

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def stop(self) -> None:
        """Stop the relay (idempotent)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                pipe.close()

    def __enter__(self) -> LoopbackRelay:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
