"""`pbem chaos [--short] [--backend embedded|postgres|both]`: the fault-injection suite.

Starts private processes (gunicorn, two Celery workers, beat, the SMTP listener, and a private
PostgreSQL + Redis or the embedded SQLite default), runs a deadline burst and a stream of order
mails while it kills and restarts them, waits for the drain and prints what was lost or doubled
(see adjudicator/bench/chaos.py and docs/benchmarks.md). Exit code 1 if anything was.
"""

from __future__ import annotations

import argparse
import signal
import sys
from dataclasses import replace

from . import install_hint, missing_extra


def main(argv: list[str]) -> int:
    if missing := missing_extra():  # without the bench extra, say what to install
        print(install_hint("pbem chaos", missing), file=sys.stderr)
        return 2
    from . import chaos

    parser = argparse.ArgumentParser(prog="pbem chaos", description=__doc__)
    parser.add_argument("--short", action="store_true", help="~50 games and a few faults (CI)")
    parser.add_argument("--backend", choices=("embedded", "postgres", "both"), default="both")
    parser.add_argument("--games", type=int, help="games in the deadline burst")
    parser.add_argument("--mails", type=int, help="inbound order mails over SMTP")
    parser.add_argument("--outage", type=float, help="seconds the broker is stopped")
    parser.add_argument("--keep", action="store_true", help="keep the run's directory and logs")
    args = parser.parse_args(argv)
    plan = chaos.short_plan() if args.short else chaos.Plan()
    overrides = {k: v for k, v in (("games", args.games), ("mails", args.mails), ("outage", args.outage))
                 if v is not None}
    plan = replace(plan, **overrides)
    # stopped from outside: leave through the run's clean-up, which stops every process it started
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    backends = ["embedded", "postgres"] if args.backend == "both" else [args.backend]
    failed = False
    for backend in backends:
        if backend == "postgres" and (why := chaos.services_available()):
            print(f"backend: postgres skipped ({why})")
            if args.backend == "postgres":
                return 2
            continue
        figures = chaos.run(backend, plan, keep=args.keep)
        print("\n".join(figures.lines()), flush=True)
        failed |= not figures.ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
