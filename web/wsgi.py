"""WSGI entry point: `gunicorn web.wsgi:app` (configuration from the environment)."""

from web import create_app

app = create_app()
