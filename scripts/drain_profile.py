#!/usr/bin/env python3
"""`python scripts/drain_profile.py [--backend postgres] [--mails 600] [--games 50] [--chunk 9]`:
the inbox drain alone, in this process, on `pbem bench mail`'s order mails (issue 31).

The mails are stored as the listener stores them (groups of 8), then drained chunk after chunk
by `inboxdrain.drain` (on SQLite: the read and parse before the write transaction, as a worker
does). Prints the drain's CPU and statements a mail, and with `--profile` the Python calls a mail
under cProfile: a count that does not move with the machine's load, unlike CPU time.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=("embedded", "postgres"), default="embedded")
    parser.add_argument("--mails", type=int, default=600)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--chunk", type=int, default=9, help="mails a drain takes at most (the bench sees ~9)")
    parser.add_argument("--profile", action="store_true", help="count the Python calls (slower)")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="pbem-drain-profile-"))
    os.environ.update({"PBEM_MAIL_DIR": str(tmp / "mail"), "PBEM_MAIL_DNS": "0", "PBEM_VAR_DIR": str(tmp / "var"),
                       "PBEM_MAIL_REPLIES_PER_HOUR": "1000000"})
    from adjudicator import store
    from adjudicator.bench.burst import _database

    with _database(args.backend, tmp) as (url, _broker):
        store.configure(url)
        try:
            return _run(args)
        finally:
            store.configure(None)


def _run(args: argparse.Namespace) -> int:
    from sqlalchemy import event

    from adjudicator import service, store
    from adjudicator.bench.mail import _mails, _make_games
    from adjudicator.service.mail import inboxdrain

    store.init_db()
    mails = _mails(args.mails, _make_games(args.games), "profile")
    for first in range(0, len(mails), 8):
        _store([service.arrived_mail(raw, "smtp", sender, to, "127.0.0.1") for sender, to, raw in
                mails[first:first + 8]])
    statements = [0]

    def counted(*_args: Any) -> None:
        statements[0] += 1

    event.listen(store.get_engine(), "before_cursor_execute", counted)
    profile = cProfile.Profile() if args.profile else None
    done, cpu, wall = 0, time.process_time(), time.perf_counter()
    if profile is not None:
        profile.enable()
    while drained := inboxdrain.drain(args.chunk).processed:
        done += len(drained)
    if profile is not None:
        profile.disable()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    if not done:
        print("error: nothing drained")
        return 1
    print(f"drain {args.backend}: {done} mails, CPU {cpu / done * 1000:.3f} ms a mail (wall {wall / done * 1000:.3f}), "
          f"statements {statements[0] / done:.2f} a mail")
    if profile is not None:
        calls: int = pstats.Stats(profile).total_calls  # type: ignore[attr-defined]  # set by Stats, not declared
        print(f"drain {args.backend}: Python calls {calls / done:.0f} a mail")
    return 0


def _store(arrived: list[Any]) -> None:
    """A group of mails as the listener stores it (workers/groupcommit.py)."""
    from adjudicator import service, store

    store.run_in_transaction(lambda s: service.receive_mails(s, arrived))


if __name__ == "__main__":
    sys.exit(main())
