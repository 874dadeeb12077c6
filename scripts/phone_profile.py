"""A mid-range phone for the browser benchmarks (``scripts/bench_web.py --phone``).

Two limits that hold for everything the browser does, page, workers and service worker
alike (DevTools' CPU throttling slows pages only: Chromium answers "Operation is only
supported for pages, not workers", so Python in a worker would run at full speed):

* **CPU**: a cgroup (v1, ``/sys/fs/cgroup/cpu``; root) whose CFS quota is a fraction of
  one core; the process that launches the browser joins it before it starts, so the
  browser and every process it starts inherit it (:func:`cpu_group`, :func:`joiner`).
* **Network**: :class:`SharedLink`, a TCP proxy in front of the server through which
  every connection passes: one link of a fixed rate that all of them share (in turns,
  as flows share a bottleneck), each byte delivered half a round trip after the link
  has sent it, each way.

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
from collections import deque
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


class _Flow:
    """One direction of one connection: the bytes waiting for the link, and where they go."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self.waiting: deque[bytes] = deque()  # b"" last: the end of the stream
        self.queued = False  # in the link's turn order

    def take(self, most: int) -> bytes | None:
        """Up to ``most`` waiting bytes; b"" at the end of the stream; None if nothing waits."""
        if not self.waiting:
            return None
        first = self.waiting[0]
        if not first:
            return self.waiting.popleft()
        if len(first) > most:
            self.waiting[0] = first[most:]
            return first[:most]
        return self.waiting.popleft()

    def deliver(self, data: bytes) -> None:
        with suppress(OSError, RuntimeError):
            self.writer.write(data)

    def close(self) -> None:
        with suppress(OSError, RuntimeError):
            self.writer.close()


class SharedLink:
    """A TCP proxy to ``upstream`` that models one slow link shared by every connection:
    ``mbit`` megabits a second in all, ``rtt_ms`` round trip. The bytes waiting in each
    connection take turns on the link (``QUANTUM`` bytes at a time, round robin), as TCP
    flows share a bottleneck and as HTTP/2 interleaves a page's requests: a small file
    asked for during a big download arrives after its share of the link, not after the
    whole download. Each piece arrives half a round trip after the link has sent it.
    Runs in a thread of its own; :meth:`start` returns the port it listens on
    (127.0.0.1)."""

    QUANTUM = 4096

    def __init__(self, upstream: tuple[str, int], mbit: float, rtt_ms: float) -> None:
        self.upstream = upstream
        self.rate = mbit * 1e6 / 8  # bytes a second
        self.half_rtt = rtt_ms / 2000
        self.free_at = 0.0  # when the link will have sent all it was given
        self.loop = asyncio.new_event_loop()
        self.sent = 0
        self.turns: deque[_Flow] = deque()  # the flows with bytes waiting, in turn
        self.wake: asyncio.Event | None = None

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
            self.wake = asyncio.Event()
            server = self.loop.run_until_complete(
                asyncio.start_server(self._connection, "127.0.0.1", 0))
            ready.append(server.sockets[0].getsockname()[1])
            self.loop.create_task(self._send())
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
        await asyncio.gather(self._read(client_reader, _Flow(server_writer)),
                             self._read(server_reader, _Flow(client_writer)))

    async def _read(self, reader: asyncio.StreamReader, flow: _Flow) -> None:
        """One direction: what is read waits for its turns on the link."""
        while True:
            try:
                data = await reader.read(65536)
            except OSError:
                data = b""
            flow.waiting.append(data)
            if not flow.queued:
                flow.queued = True
                self.turns.append(flow)
                assert self.wake is not None
                self.wake.set()
            if not data:
                return

    async def _send(self) -> None:
        """The link: one quantum of the next flow in turn, then the next."""
        assert self.wake is not None
        while True:
            if not self.turns:
                self.wake.clear()
                await self.wake.wait()
                continue
            flow = self.turns.popleft()
            piece = flow.take(self.QUANTUM)
            now = self.loop.time()
            if piece:
                self.loop.call_at(self.schedule(len(piece), now), flow.deliver, piece)
                await asyncio.sleep(max(0.0, self.free_at - now))
            elif piece == b"":
                self.loop.call_at(now + self.half_rtt, flow.close)
            if flow.waiting:
                self.turns.append(flow)
            else:
                flow.queued = False
