"""`pbem mail failed | retry | sweep`: the operator's view of mail the server gave up on.

- `pbem mail failed` lists inbox rows never processed and outbox rows never sent after all their
  attempts (the recovery sweep marks them `failed`), with the last error;
- `pbem mail retry inbox|outbox [ID ...]` hands them on again with fresh attempts (all of that
  kind when no ID is given);
- `pbem mail sweep` runs one recovery sweep now (beat runs it every minute).

Uses DATABASE_URL like every pbem command; the tasks go to the configured broker (PBEM_EAGER=1
runs them here instead).
"""

from __future__ import annotations

import argparse
import sys

from adjudicator import service, store


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem mail", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="action", required=True)
    sub.add_parser("failed", help="list failed inbox and outbox rows")
    retry = sub.add_parser("retry", help="hand failed rows on again")
    retry.add_argument("kind", choices=("inbox", "outbox"))
    retry.add_argument("ids", nargs="*", type=int, help="row ids (default: every failed row of that kind)")
    sub.add_parser("sweep", help="run one recovery sweep now")
    args = parser.parse_args(argv)
    store.init_db()
    if args.action == "failed":
        with store.transaction(write=False) as s:
            rows = service.failed_rows(s)
        if not rows:
            print("no failed mail")
        for r in rows:
            print(f"{r.kind} {r.id}\t{r.when:%Y-%m-%d %H:%M}Z\t{r.who}\t{r.subject[:60]!r}\t"
                  f"attempts {r.attempts}\t{r.error}")
        return 0
    from workers.enqueue import enqueue

    if args.action == "retry":
        with store.transaction() as s:
            tasks = service.retry_failed(s, args.kind, args.ids or None)
        if not tasks:
            print(f"no failed {args.kind} rows" + (f" among {args.ids}" if args.ids else ""), file=sys.stderr)
            return 1
    else:
        result = store.run_in_transaction(service.recovery_sweep)
        tasks = result.tasks
        print(f"re-enqueued {len(result.inbox)} inbox and {len(result.outbox)} outbox rows; "
              f"gave up on {len(result.failed_inbox)} inbox and {len(result.failed_outbox)} outbox rows")
    enqueue(tasks)
    if args.action == "retry":
        print(f"handed on {len(tasks)} {args.kind} row(s)")
    return 0
