"""WSGI entry point: `gunicorn web.wsgi:app` (configuration from the environment). A production
server: it refuses to start without the settings a public server needs (`web.unsafe_settings`)."""

from web import create_app, unsafe_settings

app = create_app()
if (problem := unsafe_settings(app.config)) is not None:
    raise SystemExit(f"pbem will not start: {problem}")
