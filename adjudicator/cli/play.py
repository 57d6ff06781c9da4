"""`pbem play GAME --bots N [--seat SEAT] [--seed S] [--export FILE]`: a practice game in the
terminal. You play one seat; the substitute (adjudicator/bots, docs/bots.md) plays the N others,
each from its own seat's view. Type an order in the game's grammar, `help` for the grammar, `quit`
to stop. `--export` writes the record, which `pbem verify` replays."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from adjudicator.bots import choose
from adjudicator.engine import IllegalOrder, get_game
from adjudicator.record import RecordBuilder, export_bytes


def practice(game_id: str, bots: int, seat: str | None, seed: str, read: TextIO, write: TextIO,
             export: Path | None = None) -> int:
    game = get_game(game_id)
    count = bots + 1
    if not game.info.min_seats <= count <= game.info.max_seats:
        write.write(f"{game.info.title} is played by {game.info.min_seats} to {game.info.max_seats} seats: "
                    f"give --bots {game.info.min_seats - 1} to {game.info.max_seats - 1}\n")
        return 2
    options = game.info.resolve_options({})
    seats = game.seat_names(count, options)
    mine = seat or seats[0]
    if mine not in seats:
        write.write(f"no seat {mine!r}; the seats are {', '.join(seats)}\n")
        return 2
    record = RecordBuilder(game, seats, options, server_seed=f"practice:{seed}", entropy=[seed])
    write.write(f"{game.info.title}: you play {mine}; substitutes play {', '.join(s for s in seats if s != mine)}\n")
    while True:
        prompts = game.prompts(record.state)
        if not prompts:
            break
        first = sorted(prompts)[0]
        group = sorted(s for s, p in prompts.items() if p.sealed and p.group == prompts[first].group) \
            if prompts[first].sealed else [first]
        if mine in prompts and prompts[mine].sealed:  # answer your sealed decision with its group
            group = sorted(s for s, p in prompts.items() if p.sealed and p.group == prompts[mine].group)
        elif mine in prompts:
            group = [mine]
        orders = {}
        for member in group:
            if member != mine:
                orders[member] = choose(game, record.state, member, public=record.entries[-1]["hash"])
                continue
            order = _ask(game, record, mine, prompts[mine], read, write)
            if order is None:
                write.write("stopped\n")
                return 1
            orders[member] = order
        for member, order in orders.items():
            if member != mine and not prompts[member].hidden:
                write.write(f"{member.capitalize()} (substitute) plays {game.format_order(order)}\n")
        record.apply(orders, prompts=prompts, substitute=[m for m in orders if m != mine])
    outcome = game.outcome(record.state)
    write.write(f"game over: {outcome.summary if outcome else 'no result'}\n")
    if export is not None:
        export.write_bytes(export_bytes(record.export()))
        write.write(f"record written to {export}\n")
    return 0


def _ask(game, record: RecordBuilder, seat: str, prompt, read: TextIO, write: TextIO):
    write.write("\n" + game.render_view(game.view(record.state, seat), seat) + "\n")
    while True:
        write.write(f"{prompt.text or prompt.kind} > ")
        write.flush()
        line = read.readline()
        if not line or line.strip().lower() in ("quit", "exit"):
            return None
        text = line.strip()
        if text.lower() == "help":
            write.write((game.grammar_help() or "orders as listed in the decision") + "\n")
            continue
        try:
            return game.parse_order(text, prompt)
        except IllegalOrder as exc:
            write.write(f"not an order here: {exc}\n")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem play", description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--bots", type=int, required=True, help="how many seats the substitute plays")
    parser.add_argument("--seat", default=None, help="your seat (default: the first)")
    parser.add_argument("--seed", default="practice")
    parser.add_argument("--export", type=Path, default=None, metavar="FILE")
    args = parser.parse_args(argv)
    return practice(args.game, args.bots, args.seat, args.seed, sys.stdin, sys.stdout, args.export)
