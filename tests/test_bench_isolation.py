"""The benchmarks and the fault suite (adjudicator/bench, the `bench` extra) stay out of the runtime:
no runtime module imports them, and starting the web app, the workers, the service or the command
line (short of a bench) loads neither them nor Hypothesis."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNTIME = [path for folder in ("adjudicator", "web", "workers") for path in sorted((ROOT / folder).rglob("*.py"))
           if "bench" not in path.relative_to(ROOT).parts[:2]]
# the one door: `pbem bench ...` / `pbem chaos` import the package when asked for
DOOR = ROOT / "adjudicator" / "cli" / "main.py"

PROBE = r"""
import importlib, json, sys
from web import create_app
create_app({"DATABASE_URL": sys.argv[1], "SECRET_KEY": "probe", "PBEM_BASE_URL": "http://pbem.test",
            "PBEM_VAR_DIR": sys.argv[2]})
import adjudicator.service, workers.celery_app, workers.tasks, workers.beat, workers.mailer, workers.smtp
from adjudicator.cli.main import COMMANDS, main
for module, _help in COMMANDS.values():
    if not module.startswith("adjudicator.bench"):
        importlib.import_module(module)
try:
    main(["verify", "--help"])
except SystemExit:
    pass
print(json.dumps(sorted(name for name in sys.modules
                        if name.startswith("adjudicator.bench") or name.split(".")[0] == "hypothesis")))
"""


def _bench_imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(("." * node.level) + node.module)
    return [name for name in names if name.startswith("adjudicator.bench") or name.split(".")[0] == "hypothesis"]


def test_no_runtime_module_imports_the_benches_or_hypothesis() -> None:
    assert len(RUNTIME) > 100  # the walk found the runtime
    offenders = {str(path.relative_to(ROOT)): found for path in RUNTIME
                 if path != DOOR and (found := _bench_imports(path))}
    assert offenders == {}
    # the door names the bench commands' modules only in its table, imported when asked for
    assert _bench_imports(DOOR) == []
    from adjudicator.cli.main import COMMANDS

    assert COMMANDS["bench"][0] == "adjudicator.bench.main" and COMMANDS["chaos"][0] == "adjudicator.bench.chaos_cli"


def test_starting_the_runtime_loads_no_bench_module_nor_hypothesis(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PBEM_EAGER": "1", "PBEM_MAIL_DIR": str(tmp_path / "mail")}
    env.pop("SMTP_HOST", None)
    done = subprocess.run([sys.executable, "-c", PROBE, f"sqlite:///{tmp_path / 'probe.sqlite3'}",
                           str(tmp_path / "var")], capture_output=True, text=True, cwd=tmp_path, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == []


def test_bench_command_names_the_extra_when_it_is_missing(tmp_path: Path) -> None:
    # a Hypothesis that cannot be found: the command says what to install instead of a traceback
    (tmp_path / "sitecustomize.py").write_text(
        "import importlib.util\n_find = importlib.util.find_spec\n"
        "importlib.util.find_spec = lambda name, *a: None if name == 'hypothesis' else _find(name, *a)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    done = subprocess.run([sys.executable, "-m", "adjudicator.cli.main", "bench", "toy"], capture_output=True,
                          text=True, cwd=tmp_path, env=env, timeout=120)
    assert done.returncode == 2
    assert "pbem[bench]" in done.stderr and "hypothesis" in done.stderr
