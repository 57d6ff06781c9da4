"""`pbem imap`: watch the IMAP mailbox in IDLE (IMAP_HOST and the IMAP_* settings, see
workers/imap.py) and store each message as it arrives; the worker's `ingest_message` task handles
it. With IMAP_MODE=poll (the default) the worker's beat polls instead and this is not needed."""

from __future__ import annotations

import argparse
import os
import signal
import sys


def main(argv: list[str]) -> int:
    argparse.ArgumentParser(prog="pbem imap", description=__doc__).parse_args(argv)
    if not os.environ.get("IMAP_HOST"):
        print("set IMAP_HOST (and IMAP_USER, IMAP_PASSWORD, ...) to the mailbox to watch", file=sys.stderr)
        return 2
    from adjudicator import store
    from workers.imap import start_idle

    store.init_db()
    thread, stop = start_idle(lambda n: n and print(f"stored {n} message(s)", flush=True))
    print(f"watching {os.environ['IMAP_HOST']} in IMAP IDLE", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while thread.is_alive():
            thread.join(0.5)
    except KeyboardInterrupt:
        stop.set()
        thread.join(5)
    return 0
