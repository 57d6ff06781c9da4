"""Games reach the registry through `pbem.games` entry points or a default source above the engine."""

import tomllib
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from adjudicator.engine import registry

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fresh_discovery(monkeypatch):
    """Discovery as on a fresh start, with the entry points this test supplies."""
    monkeypatch.setattr(registry, "_entry_points_read", False)
    saved = dict(registry._GAMES)
    yield monkeypatch
    registry._GAMES.clear()
    registry._GAMES.update(saved)


def _points(*pairs):
    return lambda group: ([EntryPoint(name, value, group) for name, value in pairs]
                          if group == registry.ENTRY_POINT_GROUP else [])


def test_an_entry_point_registers_its_game(fresh_discovery):
    import tests.support.toygame as toygame

    registry.unregister("toy")
    fresh_discovery.setattr(registry, "entry_points", _points(("toy", "tests.support.toygame:TOY")))
    assert registry.get_game("toy") is toygame.TOY


def test_a_broken_entry_point_says_what_to_do(fresh_discovery):
    fresh_discovery.setattr(registry, "entry_points", _points(("gone", "no_such_module_pbem:GAME")))
    with pytest.raises(RuntimeError, match="gone.*reinstall or remove"):
        registry.all_games()


def test_an_entry_point_to_something_else_is_refused(fresh_discovery):
    fresh_discovery.setattr(registry, "entry_points", _points(("odd", "tests.support.toygame:BIDS")))
    with pytest.raises(TypeError, match="must name a GameModule"):
        registry.all_games()


def test_without_entry_points_the_default_source_still_finds_the_builtin_games(fresh_discovery):
    fresh_discovery.setattr(registry, "entry_points", _points())
    assert "adjudicator.games" in registry._DEFAULT_SOURCES  # added by adjudicator/__init__.py
    assert {"doge", "china", "1960", "founding-fathers"} <= set(registry.all_games())


def test_pyproject_declares_every_builtin_game():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["pbem.games"]
    packages = sorted(p.parent.name for p in (ROOT / "adjudicator" / "games").glob("*/__init__.py"))
    assert sorted(v.split(":")[0].rsplit(".", 1)[1] for v in declared.values()) == packages
    for name, value in declared.items():
        game = EntryPoint(name, value, registry.ENTRY_POINT_GROUP).load()
        assert game.info.id == name
        assert registry.get_game(name) is game
