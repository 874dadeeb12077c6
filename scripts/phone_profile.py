"""A mid-range phone for the browser benchmarks (``scripts/bench_web.py --phone``).

Two limits that hold for everything the browser does, page, workers and service worker
alike (DevTools' CPU throttling slows pages only: Chromium answers "Operation is only
supported for pages, not workers", so Python in a worker would run at full speed):

* **CPU**: a cgroup (v1, ``/sys/fs/cgroup/cpu``; root) whose CFS quota is a fraction of
  one core; the process that launches the browser joins it before it starts, so the
  browser and every process it starts inherit it (:func:`cpu_group`, :func:`joiner`).
* **Network**: :class:`SharedLink`, a TCP proxy in front of the server through which
  every connection passes: one link of a fixed rate that all of them share, each byte
  delivered half a round trip after the link has sent it, each way.

The server and the proxy run in the benchmark's own process, outside the cgroup (the
phone's network is not the phone's CPU).

>>> link = SharedLink(("127.0.0.1", 9), mbit=8, rtt_ms=100)
>>> link.schedule(1_000_000, now=0.0), link.schedule(1_000_000, now=0.0)  # shared
(1.05, 2.05)
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

CGROUP_CPU = Path("/sys/fs/cgroup/cpu")
PERIOD_US = 100_000


def cpu_group_available() -> str | None:
    """None if a CPU quota can be set here, else why not."""
    if not (CGROUP_CPU / "cpu.cfs_quota_us").exists():
        return f"no cgroup v1 cpu controller at {CGROUP_CPU}"
    if os.geteuid() != 0:
        return "a cgroup CPU quota needs root"
    return None


@contextmanager
def cpu_group(fraction: float) -> Iterator[Path]:
    """A cgroup whose processes share ``fraction`` of one core; removed afterwards (its
    processes are killed first)."""
    group = CGROUP_CPU / f"skyline-phone-{os.getpid()}"
    group.mkdir(exist_ok=True)
    try:
        (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
        (group / "cpu.cfs_quota_us").write_text(str(int(PERIOD_US * fraction)))
        yield group
    finally:
        for _ in range(20):
            pids = [int(p) for p in (group / "tasks").read_text().split()]
            if not pids:
                break
            for pid in pids:
                with suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            threading.Event().wait(0.1)
        with suppress(OSError):
            group.rmdir()


def joiner(group: Path) -> Callable[[], None]:
    """A ``preexec_fn`` for subprocess: the child joins ``group`` before it runs."""

    def join() -> None:
        (group / "tasks").write_text(str(os.getpid()))

    return join


class SharedLink:
    """A TCP proxy to ``upstream`` that models one slow link shared by every connection:
    ``mbit`` megabits a second in all, ``rtt_ms`` round trip. Runs in a thread of its
    own; :meth:`start` returns the port it listens on (127.0.0.1)."""

    def __init__(self, upstream: tuple[str, int], mbit: float, rtt_ms: float) -> None:
        self.upstream = upstream
        self.rate = mbit * 1e6 / 8  # bytes a second
        self.half_rtt = rtt_ms / 2000
        self.free_at = 0.0  # when the link will have sent all it was given
        self.loop = asyncio.new_event_loop()
        self.sent = 0

    def schedule(self, size: int, now: float) -> float:
        """When ``size`` bytes given to the link at ``now`` arrive at the other end."""
        start = max(now, self.free_at)
        self.free_at = start + size / self.rate
        self.sent += size
        return round(self.free_at + self.half_rtt, 6)

    def start(self) -> int:
        ready: list[int] = []
        started = threading.Event()

        def run() -> None:
            asyncio.set_event_loop(self.loop)
            server = self.loop.run_until_complete(
                asyncio.start_server(self._connection, "127.0.0.1", 0))
            ready.append(server.sockets[0].getsockname()[1])
            started.set()
            self.loop.run_forever()

        threading.Thread(target=run, daemon=True).start()
        started.wait()
        return ready[0]

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)

    async def _connection(self, client_reader: asyncio.StreamReader,
                          client_writer: asyncio.StreamWriter) -> None:
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(self._pump(client_reader, server_writer),
                             self._pump(server_reader, client_writer))

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One direction: each chunk read is delivered when the shared link has sent it,
        half a round trip later, in order."""
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def read() -> None:
            while True:
                try:
                    data = await reader.read(16384)
                except OSError:
                    data = b""
                now = self.loop.time()
                at = self.schedule(len(data), now) if data else now + self.half_rtt
                await queue.put((at, data))
                if not data:
                    return

        async def write() -> None:
            while True:
                at, data = await queue.get()
                delay = at - self.loop.time()
                if delay > 0:
                    await asyncio.sleep(delay)
                if not data:
                    with suppress(OSError):
                        writer.close()
                    return
                try:
                    writer.write(data)
                    await writer.drain()
                except OSError:
                    return

        await asyncio.gather(read(), write())
