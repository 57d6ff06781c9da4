"""The baseline of `pbem bench http`: a minimal Flask app that parses the same order form and
upserts one row per (game, seat) in the same database, through the store's transactions (WAL and
BEGIN IMMEDIATE on SQLite), served by gunicorn with the same settings as the real app.

Run as `gunicorn adjudicator.bench.httpapp:app` with DATABASE_URL set; the bench creates the
table first (`create_table`).
"""

from __future__ import annotations

from flask import Flask, redirect, request
from sqlalchemy import text

from adjudicator import store

TABLE = "bench_http_orders"


def create_table() -> None:
    with store.transaction() as s:
        s.connection().execute(text(
            f"CREATE TABLE IF NOT EXISTS {TABLE} (game VARCHAR(32) NOT NULL, seat VARCHAR(32) NOT NULL, "
            "body TEXT NOT NULL, token VARCHAR(64) NOT NULL, PRIMARY KEY (game, seat))"))


app = Flask(__name__)


@app.post("/play/<game_id>/<seat>/<seat_token>")
def order(game_id: str, seat: str, seat_token: str):  # type: ignore[no-untyped-def]
    form = request.form
    with store.transaction() as s:
        s.connection().execute(text(
            f"INSERT INTO {TABLE} (game, seat, body, token) VALUES (:game, :seat, :body, :token) "
            "ON CONFLICT (game, seat) DO UPDATE SET body = excluded.body, token = excluded.token"),
            {"game": game_id, "seat": seat, "body": form.get("order", ""), "token": form.get("prompt_token", "")})
    return redirect(f"/play/{game_id}/{seat}/{seat_token}#result", 303)
