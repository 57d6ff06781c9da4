"""Stylesheets are linked with a content version and cached; a changed file gets a new URL."""

from __future__ import annotations

import os
import re

from web.static_assets import ONE_YEAR


def test_stylesheets_are_versioned_and_cached_for_a_year(client):
    html = client.get("/").get_data(as_text=True)
    links = re.findall(r'href="(/static/[^"]+)"', html)
    assert links and all(re.search(r"\?v=[0-9a-f]{12}$", link) for link in links), links
    resp = client.get(links[0])
    assert resp.status_code == 200
    assert f"max-age={ONE_YEAR}" in resp.headers["Cache-Control"]


def test_an_unversioned_static_url_is_revalidated(client):
    resp = client.get("/static/style.css")
    assert resp.status_code == 200
    assert f"max-age={ONE_YEAR}" not in resp.headers.get("Cache-Control", "")


def test_a_changed_file_gets_a_new_version(app, tmp_path):
    static = tmp_path / "static"
    static.mkdir()
    (static / "a.css").write_text("body{}")
    app.static_folder = str(static)
    from web.static_assets import register_static_versions

    register_static_versions(app)
    with app.test_request_context():
        from flask import url_for

        first = url_for("static", filename="a.css")
        (static / "a.css").write_text("body{color:red}")
        stamp = (static / "a.css").stat().st_mtime_ns + 10**9  # a later edit, whatever the clock grain
        os.utime(static / "a.css", ns=(stamp, stamp))
        second = url_for("static", filename="a.css")
    assert first != second
