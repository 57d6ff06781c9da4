"""gunicorn settings for the web app (deploy/compose.yaml and deploy/systemd/pbem-web.service)."""

import os

bind = os.environ.get("PBEM_BIND", "0.0.0.0:8000")
# Threaded workers (gthread): a request waiting for its game's row lock or for the database does
# not hold a whole process. Sync workers (PBEM_WEB_THREADS=1) did far worse under overload in
# `pbem bench http --backend postgres --rate 500` (17-67 order POSTs/s, most requests timed out,
# where 3 x 2 threads served 157/s); 2 x 2, 2 x 4 and 4 x 2 were within the noise of 3 x 2
# (docs/benchmarks.md, order submission). On SQLite the writers queue on one lock anyway.
workers = int(os.environ.get("PBEM_WEB_WORKERS", "3"))
threads = int(os.environ.get("PBEM_WEB_THREADS", "2"))
timeout = 30
accesslog = "-"
forwarded_allow_ips = os.environ.get("PBEM_TRUSTED_PROXIES", "127.0.0.1")


def post_worker_init(worker: object) -> None:
    """Once the worker has loaded the app: its objects (about 120,000: modules, templates, game
    data) go to the collector's permanent generation. A full collection, which walked them all
    (70-90 ms of CPU, stalling the worker's requests), then walks only what came after."""
    import gc

    gc.collect()
    gc.freeze()
