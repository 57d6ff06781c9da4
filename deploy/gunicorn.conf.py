"""gunicorn settings for the web app (deploy/compose.yaml and deploy/systemd/pbem-web.service)."""

import os

bind = os.environ.get("PBEM_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("PBEM_WEB_WORKERS", "3"))
threads = 2
timeout = 30
accesslog = "-"
forwarded_allow_ips = os.environ.get("PBEM_TRUSTED_PROXIES", "127.0.0.1")
