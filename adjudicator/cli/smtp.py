"""`pbem smtp [--host H] [--port P]`: the built-in SMTP listener alone (inbound mail is stored and
handed to the worker's `ingest_message` task)."""

from __future__ import annotations

import argparse
import os
import signal
import threading


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem smtp", description=__doc__)
    parser.add_argument("--host", default=os.environ.get("PBEM_SMTP_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PBEM_SMTP_PORT", "2525")))
    args = parser.parse_args(argv)
    from adjudicator import store
    from workers.smtp import start

    store.init_db()
    controller = start(args.host, args.port)
    print(f"SMTP listener on {args.host}:{args.port}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        controller.stop()
    return 0
