"""A closed-loop HTTP client for the benches' saturation figure (loopback only).

C connections each send their next request as soon as the previous one is answered, for a fixed
time; C rises (1, 2, 4, ...) and the highest rate of good answers is the server's saturation
throughput. Unlike the open loop (openloop.py) the client waits for the server, so the rate found
is what the server can sustain, not what was offered. One connection per request, as openloop.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass

from .openloop import Request, _raw


@dataclass(frozen=True)
class Level:
    connections: int
    good: int  # answers with the expected status
    bad: int  # other statuses and no answer
    elapsed: float

    @property
    def rate(self) -> float:
        return self.good / max(self.elapsed, 1e-9)


async def _exchange(raw: bytes, port: int, timeout: float) -> int:
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
        try:
            writer.write(raw)
            await writer.drain()
            status_line = await asyncio.wait_for(reader.readline(), timeout)
            await asyncio.wait_for(reader.read(), timeout)
        finally:
            writer.close()
        return int(status_line.split()[1])
    except (TimeoutError, OSError, ValueError, IndexError):
        return 0


async def _level(raws: Sequence[bytes], port: int, connections: int, seconds: float, ok: int,
                 timeout: float) -> Level:
    turn = itertools.cycle(raws)  # one event loop: no two connections take the same turn
    counts = {"good": 0, "bad": 0}
    start = time.perf_counter()
    stop = start + seconds

    async def loop() -> None:
        while time.perf_counter() < stop:
            status = await _exchange(next(turn), port, timeout)
            counts["good" if status == ok else "bad"] += 1

    await asyncio.gather(*(loop() for _ in range(connections)))
    return Level(connections, counts["good"], counts["bad"], time.perf_counter() - start)


def saturate(requests: Sequence[Request], port: int, levels: Sequence[int], seconds: float, ok: int,
             timeout: float = 10.0) -> list[Level]:
    """One closed-loop run per concurrency level, cycling through `requests` (without the client's
    garbage collector, as openloop.run, for the same reason)."""
    raws = [_raw(request, port) for request in requests]
    gc.collect()
    collecting = gc.isenabled()
    gc.disable()
    try:
        return [asyncio.run(_level(raws, port, level, seconds, ok, timeout)) for level in levels]
    finally:
        if collecting:
            gc.enable()


def peak(levels: Sequence[Level]) -> Level:
    return max(levels, key=lambda level: level.rate)
