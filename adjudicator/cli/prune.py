"""`pbem prune`: delete what the server no longer needs (adjudicator/service/upkeep/retention.py):
dropped mail after 30 days (PBEM_DROPPED_MAIL_DAYS), the bodies of sent mail after 90 days
(PBEM_OUTBOX_BODY_DAYS; the rows and their Message-IDs stay), mail held for addresses nobody
confirmed after 30 days. The beat runs it daily; run it by hand after changing a period.

Uses DATABASE_URL like every pbem command.
"""

from __future__ import annotations

import argparse

from adjudicator import service, store


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem prune", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--outbox-days", type=int, default=None,
                        help=f"remove sent mail bodies older than this (default {service.OUTBOX_BODY_DAYS})")
    parser.add_argument("--dropped-days", type=int, default=None,
                        help=f"delete dropped mail older than this (default {service.DROPPED_DAYS})")
    args = parser.parse_args(argv)
    if any(d is not None and d < 1 for d in (args.outbox_days, args.dropped_days)):
        parser.error("periods are whole days, at least 1")
    store.init_db()
    result = store.run_in_transaction(
        lambda s: service.prune(s, outbox_days=args.outbox_days, dropped_days=args.dropped_days))
    print(result)
    return 0
