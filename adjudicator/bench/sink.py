"""The SMTP sink of `pbem bench burst --mail smtp`, in a process of its own.

The sink stands for the relay a server sends to, which runs elsewhere. In the bench's own process
it shared that process's interpreter lock with the bench's polling, and its CPU was not seen: here
it has its own, and the bench reports its CPU seconds beside the workers' (on a 2-core machine
they still share the cores). The sink is `adjudicator.chaos.Sink`: it counts deliveries per
outbox row from our stable Message-IDs.

Protocol on stdin/stdout: the child prints its port; each line "counts" is answered with one JSON
line {"rows": rows received, "twice": rows received twice or more}; end of input stops it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import IO


class SinkProcess:
    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0

    def start(self) -> None:
        root = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH", "")]))}
        self.proc = subprocess.Popen([sys.executable, "-m", "adjudicator.bench.sink"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env)
        self.port = int(self._stdout().readline())

    @property
    def pid(self) -> int:
        return self.proc.pid if self.proc is not None else 0

    def counts(self) -> tuple[int, int]:
        """(rows received, rows received twice or more)."""
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write("counts\n")
        self.proc.stdin.flush()
        answer = json.loads(self._stdout().readline())
        return answer["rows"], answer["twice"]

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def _stdout(self) -> IO[str]:
        assert self.proc is not None and self.proc.stdout is not None
        return self.proc.stdout


def main() -> None:
    from .chaos import Sink

    sink = Sink()
    sink.start()
    print(sink.port, flush=True)
    try:
        for line in sys.stdin:
            if line.strip() == "counts":
                with sink.lock:
                    counts = list(sink.counts.values())
                print(json.dumps({"rows": len(counts), "twice": sum(n >= 2 for n in counts)}), flush=True)
    finally:
        sink.stop()


if __name__ == "__main__":
    main()
