"""gunicorn settings for the web app (deploy/compose.yaml and deploy/systemd/pbem-web.service)."""

import os

bind = os.environ.get("PBEM_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("PBEM_WEB_WORKERS", "3"))
threads = 2
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
