"""An open-loop HTTP load generator for the benches (loopback only).

Request i is sent at `start + i / rate` whatever happened to the earlier ones, and its latency is
measured from that planned time: a server that falls behind shows it in the latency instead of
slowing the client down (no coordinated omission). One connection per request, HTTP/1.1, so the
figures do not depend on keep-alive tuning.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Request:
    path: str
    body: bytes
    cookie: str = ""


@dataclass
class Outcome:
    latencies: list[float] = field(default_factory=list)  # seconds, of answered requests
    statuses: dict[int, int] = field(default_factory=dict)  # status -> count; 0 = no answer
    sent: int = 0
    elapsed: float = 0.0

    def errors(self, ok: int) -> int:
        return sum(count for status, count in self.statuses.items() if status != ok)


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def _raw(request: Request, port: int) -> bytes:
    head = (f"POST {request.path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(request.body)}\r\n")
    if request.cookie:
        head += f"Cookie: {request.cookie}\r\n"
    return head.encode() + b"\r\n" + request.body


async def _one(raw: bytes, port: int, planned: float, timeout: float) -> tuple[int, float]:
    await asyncio.sleep(max(0.0, planned - time.perf_counter()))
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
        try:
            writer.write(raw)
            await writer.drain()
            status_line = await asyncio.wait_for(reader.readline(), timeout - (time.perf_counter() - planned))
            await asyncio.wait_for(reader.read(), timeout)  # Connection: close ends the body
        finally:
            writer.close()
        status = int(status_line.split()[1])
    except (TimeoutError, OSError, ValueError, IndexError):
        return 0, 0.0
    return status, time.perf_counter() - planned


async def _run(requests: Sequence[Request], port: int, rate: float, count: int, duration: float,
               timeout: float) -> Outcome:
    start = time.perf_counter() + 0.05
    total = min(count, max(1, int(rate * duration)))
    raws = [_raw(r, port) for r in requests]
    tasks = [asyncio.create_task(_one(raws[i % len(raws)], port, start + i / rate, timeout)) for i in range(total)]
    outcome = Outcome(sent=total)
    for status, latency in await asyncio.gather(*tasks):
        outcome.statuses[status] = outcome.statuses.get(status, 0) + 1
        if status:
            outcome.latencies.append(latency)
    outcome.elapsed = time.perf_counter() - start
    return outcome


def run(requests: Sequence[Request], port: int, rate: float, count: int, duration: float,
        timeout: float = 10.0) -> Outcome:
    """Send min(count, rate * duration) POSTs at `rate` per second, cycling through `requests`.

    Without the client's garbage collector: the bench process holds the app it set the games up
    with (about 130,000 objects), and a full collection of it (17-64 ms) stopped the event loop,
    so requests went out late and the server was charged with the client's pause."""
    gc.collect()
    collecting = gc.isenabled()
    gc.disable()
    try:
        return asyncio.run(_run(requests, port, rate, count, duration, timeout))
    finally:
        if collecting:
            gc.enable()
