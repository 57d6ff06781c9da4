"""Entry point: dispatches `pbem <command>` to the command modules (imported lazily)."""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = {
    "run": ("adjudicator.cli.run", "start web, worker, beat and mail on one machine"),
    "selfplay": ("adjudicator.cli.selfplay", "play random full games and check invariants"),
    "verify": ("adjudicator.cli.verify", "replay an exported record offline and check every hash"),
    "boards": ("adjudicator.cli.boards", "check, install and list China boards"),
    "decks": ("adjudicator.cli.decks", "check, install and list Founding Fathers decks"),
    "liveness": ("adjudicator.cli.liveness", "check that every game ends under deadline defaults and random play"),
    "play": ("adjudicator.cli.play", "practise a game in the terminal against substitutes (`--bots N`)"),
    "bench": ("adjudicator.bench.main", "print speed figures for a game (`pbem bench mail`: the mail path)"),
    "smtp": ("adjudicator.cli.smtp", "run the built-in SMTP listener for inbound mail"),
    "mail": ("adjudicator.cli.mail", "list and retry failed inbound/outbound mail; run the recovery sweep"),
    "ratings": ("adjudicator.cli.ratings", "list players' ratings per game type; --recompute rebuilds them"),
    "archive": ("adjudicator.cli.archive", "write every finished game as static HTML for publishing"),
    "chaos": ("adjudicator.bench.chaos_cli",
              "fault-injection run: kill and restart workers, web, broker, database; count lost work"),
    "backup": ("adjudicator.cli.backup", "write a consistent snapshot of the database while the server runs"),
    "restore": ("adjudicator.cli.restore", "load a backup into an empty database and check every game's record"),
    "prune": ("adjudicator.cli.prune", "delete old dropped mail and old sent mail bodies (the beat does it daily)"),
    "imap": ("adjudicator.cli.imap", "watch an IMAP mailbox in IDLE for inbound mail (IMAP_MODE=idle)"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pbem", description="pbem play-by-email adjudicator")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (_module, help_text) in COMMANDS.items():
        sub.add_parser(name, help=help_text, add_help=False)
    args, rest = parser.parse_known_args(argv)
    # every command is imported only when asked for: the benches and the fault suite
    # (adjudicator.bench) stay out of the runtime and check their own extra
    module = importlib.import_module(COMMANDS[args.command][0])
    return int(module.main(rest) or 0)


if __name__ == "__main__":
    sys.exit(main())
