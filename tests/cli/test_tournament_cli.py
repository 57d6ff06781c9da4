"""`pbem archive DIR` and `pbem ratings --recompute` as an operator runs them."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from urllib.parse import urlsplit

from adjudicator.cli import archive, ratings, verify
from tests.support.play import finished_duel, new_game

LINK = re.compile(r'\s(?:href|src|action)="([^"]*)"')


def _local_links(html: str) -> list[str]:
    return [u for u in LINK.findall(html) if not urlsplit(u).scheme and not u.startswith("#")]


def test_archive_writes_finished_games_with_an_index_and_working_relative_links(sqlite_db, toy, tmp_path, capsys):
    from adjudicator import service, store

    with store.transaction() as s:
        cup = service.create_director(s, "Club <Cup>")
    done = [finished_duel(None, ("Ann", "Bob")), finished_duel(cup, ("Cid", "Dee"), winner_first=False)]
    running = new_game(seats=2)
    out = tmp_path / "site"
    assert archive.main([str(out)]) == 0
    assert "wrote 2 finished game(s)" in capsys.readouterr().out

    index = (out / "index.html").read_text()
    for game in done:
        assert f'href="game/{game.game_id}/index.html"' in index
        assert (out / "game" / game.game_id / "log.html").is_file()
    assert running.game_id not in index and not (out / "game" / running.game_id).exists()
    assert "Ann" in (out / "game" / done[0].game_id / "index.html").read_text()

    # the tournament's standings come along, linked both ways with its games
    standings = (out / "tournament" / cup.director_id / "index.html").read_text()
    assert f'href="tournament/{cup.director_id}/index.html">Club &lt;Cup&gt;</a>' in index
    assert f'href="../../game/{done[1].game_id}/index.html"' in standings
    assert f'href="../../tournament/{cup.director_id}/index.html"' in (
        out / "game" / done[1].game_id / "index.html").read_text()
    assert "Dee" in (out / "tournament" / cup.director_id / "standings.csv").read_text()
    # player pages stay on the server: their links are removed, the names stay
    assert "/player/" not in standings and "<span>Dee</span>" in standings and "<span>Cid</span>" in standings
    assert "New game" not in index and "Atom feed" not in standings + index

    pages = sorted(out.rglob("*.html"))
    # with the browser verifier's runtime installed, each game has its verifier page (issue 29)
    from web.verifier_runtime import installed

    verifiers = [out / "game" / g.game_id / "verify.html" for g in done] if installed() else []
    assert len(pages) == 6 + len(verifiers) and all(v in pages for v in verifiers)
    if verifiers:
        _verifier_reads_its_files_as_scripts(out, verifiers)
    _all_links_resolve(out, pages)
    # the records in the archive verify offline, as on the server
    capsys.readouterr()
    assert verify.main([str(out / "game" / g.game_id / "record.json") for g in done]) == 0


def _verifier_reads_its_files_as_scripts(out: Path, verifiers: list[Path]) -> None:
    """Opened from the folder (file://) the verifier cannot fetch a file, but it can load a script:
    beside each file it fetches (X) is X.js, which hands pbemFile() X's bytes."""
    import base64

    from web.verifier import EMBEDDED

    def script_bytes(path: Path) -> bytes:
        match = re.fullmatch(rb'pbemFile\("([A-Za-z0-9+/=]*)"\);\n', path.read_bytes())
        assert match, path
        return base64.b64decode(match.group(1), validate=True)

    runtime = next((out / "verify" / "runtime").iterdir())
    fetched = [out / "verify" / "pbem.zip", *[runtime / name for name in EMBEDDED]]
    assert sorted(p.name for p in runtime.glob("*.js")) == sorted(
        ["pyodide.js", "pyodide.asm.js", *[f"{name}.js" for name in EMBEDDED]])
    for page in verifiers:
        fetched.append(page.with_name("record.json"))
        html = page.read_text()
        assert 'data-local="../../static/verify-local.js"' in html and (out / "static" / "verify-local.js").is_file()
        assert f'data-embedded="{" ".join(EMBEDDED)}"' in html
    for path in fetched:
        assert script_bytes(path.with_name(path.name + ".js")) == path.read_bytes()


def test_archive_writes_every_page_of_a_paged_log(sqlite_db, toy, tmp_path, capsys, monkeypatch):
    from adjudicator.service.pages import reading

    monkeypatch.setattr(reading, "LOG_PAGE_ENTRIES", 2)
    game = finished_duel(None, ("Ann", "Bob"))
    out = tmp_path / "site"
    assert archive.main([str(out)]) == 0
    logs = sorted(p.name for p in (out / "game" / game.game_id).glob("log*.html"))
    assert logs[0] == "log-0.html" and logs[-1] == "log.html" and len(logs) >= 3
    first = (out / "game" / game.game_id / "log-0.html").read_text()
    assert 'href="log-2.html"' in first  # "Later" leads to the next page's file
    _all_links_resolve(out, sorted(out.rglob("*.html")))


def _all_links_resolve(out, pages) -> None:
    checked = 0
    for page in pages:
        here = page.relative_to(out).parent.as_posix()
        for url in _local_links(page.read_text()):
            path = urlsplit(url).path
            assert not path.startswith("/"), f"{page}: absolute link {url}"
            target = out / posixpath.normpath(posixpath.join(here, path))
            assert target.is_file(), f"{page}: {url} leads nowhere"
            checked += 1
    assert checked > 20
    assert (out / "static" / "style.css").is_file()


def test_ratings_recompute_lists_the_winner_first(sqlite_db, toy, capsys):
    finished_duel(None, ("Ann", "Bob"))
    finished_duel(None, ("Ann", "Bob"))
    assert ratings.main(["--recompute", "--game", "toy"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "rated 2 finished game(s)"
    assert [line.split("\t")[4] for line in lines[1:]] == ["Ann", "Bob"]
    assert all(line.split("\t")[3] == "2 game(s)" for line in lines[1:])


def test_an_empty_server_archives_an_empty_index(sqlite_db, tmp_path: Path, capsys):
    assert archive.main([str(tmp_path / "site")]) == 0
    assert "No game has finished yet" in (tmp_path / "site" / "index.html").read_text()
