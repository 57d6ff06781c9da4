"""A server open to others refuses to start without its own address, and signing out ends the
session on the server: a copied cookie stops working (issue 26)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sqlmodel import select

from adjudicator import store
from adjudicator.store import PlayerAccount
from tests.web.forms import forms_of
from tests.web.test_players_web import sign_in
from web import unsafe_settings

ROOT = Path(__file__).resolve().parents[2]


def _environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "DATABASE_URL", "SMTP_"))}
    return {**env, "PBEM_VAR_DIR": str(tmp_path / "var"), "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}",
            "SECRET_KEY": "test", "PYTHONPATH": str(ROOT), **extra}


def test_the_checked_settings() -> None:
    assert unsafe_settings({"PBEM_BASE_URL": "https://pbem.example.org"}) is None
    assert unsafe_settings({"PBEM_BASE_URL": "http://127.0.0.1:8000"}) is None
    for base in ("", None, "pbem.example.org", "https://", "ftp://x"):
        assert "PBEM_BASE_URL is not set" in (unsafe_settings({"PBEM_BASE_URL": base}) or "")


def test_the_wsgi_app_does_not_start_without_a_base_url(tmp_path: Path) -> None:
    load = [sys.executable, "-c", "import web.wsgi; print('started')"]
    refused = subprocess.run(load, env=_environment(tmp_path), cwd=tmp_path, capture_output=True, text=True,
                             timeout=120)
    assert refused.returncode != 0 and "started" not in refused.stdout
    assert "pbem will not start: PBEM_BASE_URL is not set" in refused.stderr
    started = subprocess.run(load, env=_environment(tmp_path, PBEM_BASE_URL="https://pbem.example.org"),
                             cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert started.returncode == 0 and "started" in started.stdout, started.stderr


def test_pbem_run_on_a_public_address_needs_a_base_url(tmp_path: Path) -> None:
    run = [sys.executable, "-c", "import sys; from adjudicator.cli import main; sys.exit(main())", "run",
           "--host", "0.0.0.0", "--port", "0", "--no-worker", "--smtp-port", "0"]
    refused = subprocess.run(run, env=_environment(tmp_path), cwd=tmp_path, capture_output=True, text=True,
                             timeout=120)
    assert refused.returncode == 2
    assert "pbem will not start on 0.0.0.0: PBEM_BASE_URL is not set" in refused.stderr


def _sign_out(client) -> None:
    home = client.get("/me").get_data(as_text=True)
    form = next(f for f in forms_of(home) if f.action.endswith("/signout"))
    assert form.submit(client, "/signout").status_code == 303


def test_signing_out_ends_every_copy_of_the_session(app, client) -> None:
    sign_in(client, "ann@example.org")
    thief = app.test_client()
    thief.set_cookie("session", client.get_cookie("session").value)  # a copied cookie
    assert thief.get("/me").status_code == 200  # works while the session lives
    _sign_out(client)
    assert client.get("/me").status_code == 303
    assert thief.get("/me").status_code == 303  # ended on the server, not only in one browser
    with store.transaction(write=False) as s:
        assert s.exec(select(PlayerAccount.session_generation)).one() == 1
    sign_in(client, "ann@example.org")  # a new sign-in works again, under the new generation
    assert client.get("/me").status_code == 200 and thief.get("/me").status_code == 303
