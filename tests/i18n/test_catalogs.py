"""The catalogs are complete and current: every msgid of the source is in each language's `.po`
with a translation, so a new string cannot ship untranslated (issue 12)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from adjudicator import i18n

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]


@pytest.fixture(scope="module")
def source_msgids(tmp_path_factory: pytest.TempPathFactory) -> set[str | tuple[str, ...]]:
    """Every msgid of the Python code and the templates, extracted by pybabel as a translator would."""
    pot = tmp_path_factory.mktemp("pot") / "messages.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg",
                    "-k", "N_", "--no-location", "-o", str(pot), "."], cwd=ROOT, check=True,
                   capture_output=True)
    with pot.open("rb") as f:
        extracted = {m.id for m in read_po(f) if m.id}
    return extracted | set(_grammar_helps().values())


def _grammar_helps() -> dict[str, str]:
    """Each game's order grammar help: one whole msgid, built by the game at run time (so pybabel
    cannot extract it) and translated by `i18n.help_text` for the turn mails and the seat page."""
    from adjudicator.engine import all_games

    return {game_id: game.grammar_help() for game_id, game in all_games().items()
            if game.grammar_help() and type(game).__module__.startswith("adjudicator.")}  # not a test's toy


@pytest.mark.parametrize("code", CATALOGS)
def test_every_game_grammar_help_is_translated(code: str) -> None:
    helps = _grammar_helps()
    assert {"doge", "china", "1960", "founding-fathers"} <= set(helps)
    with i18n.language(code):
        same = [game_id for game_id, text in helps.items() if i18n.help_text(text) == text]
    assert not same, f"{code}: the grammar help of {same} is not translated (its text changed?)"
    assert i18n.help_text("") == ""  # not the catalog's header


def _catalog(code: str):  # type: ignore[no-untyped-def]
    with i18n.catalog_path(code).open("rb") as f:
        return read_po(f, locale=code)


@pytest.mark.parametrize("code", CATALOGS)
def test_the_catalog_has_exactly_the_msgids_of_the_source(code: str, source_msgids) -> None:
    catalog_ids = {m.id for m in _catalog(code) if m.id}
    missing, stale = source_msgids - catalog_ids, catalog_ids - source_msgids
    assert not missing, (f"{code}: not in the catalog (run the update in docs/translating.md): "
                         f"{sorted(map(str, missing))[:20]}")
    assert not stale, f"{code}: no longer in the source: {sorted(map(str, stale))[:20]}"


@pytest.mark.parametrize("code", CATALOGS)
def test_every_msgid_is_translated(code: str) -> None:
    catalog = _catalog(code)
    empty = [m.id for m in catalog if m.id and (m.fuzzy or not all(m.string if isinstance(m.string, tuple)
                                                                    else [m.string]))]
    assert not empty, f"{code}: untranslated or fuzzy: {empty[:20]}"


@pytest.mark.parametrize("code", CATALOGS)
def test_placeholders_survive_translation(code: str) -> None:
    """A msgstr must use the msgid's %(name)s placeholders: a typo would raise when a mail is built."""
    errors = [(m.id, str(e)) for m in _catalog(code) if m.id for e in m.check()]
    assert not errors, errors[:10]


def test_a_language_is_chosen_per_block_and_falls_back_to_english() -> None:
    assert i18n.gettext("Your decision") == "Your decision"
    with i18n.language("es"):
        assert i18n.gettext("Your decision") == "Tu decisión"
        assert i18n.gettext("Game page: %(url)s", url="/game/x") == "Página de la partida: /game/x"
        with i18n.language("en"):
            assert i18n.gettext("Your decision") == "Your decision"
    assert i18n.normal("es-AR") == "es" and i18n.normal("fr") == "en" and i18n.normal(None) == "en"
    assert i18n.current() == "en"


def test_spanish_command_words_are_read_as_the_english_ones() -> None:
    from adjudicator.mail.body import parse_body
    from adjudicator.service.play.standing import is_standing_line, parse_standing

    names = [c.name for c in parse_body("AYUDA\nestado\nHistorial 3\nlista\nAusente cancelar\nRENUNCIAR")]
    assert names == ["help", "status", "history", "list", "absent", "resign"]
    press = parse_body("MENSAJE A TODOS\nhola\nFINMENSAJE")[0]
    assert (press.name, press.args, press.text) == ("press", ["all"], "hola")
    assert [c.name for c in parse_body("estado\nFIN\nAYUDA")] == ["status"]  # FIN = SIGNOFF
    assert is_standing_line("después bid: bid 2") and is_standing_line("SIEMPRE build: skip")
    assert parse_standing("DESPUES bid: bid 2").kind == "bid" and parse_standing("siempre skip").always
    assert parse_standing("PERMANENTES BORRAR").action == "clear"
    assert parse_standing("permanentes cancelar 2").number == 2
