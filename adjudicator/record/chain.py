"""Hash chain of record entries, seed commitments and sealed-order commitments.

An entry is ``{"index", "kind", "data", "prev", "state_hash", "hash"}`` where
``hash = sha256(canonical({index, kind, data, prev, state_hash}))`` and ``prev`` is the previous
entry's hash (GENESIS for the first). Kinds:

- ``setup``: ``{"game", "rules_version", "options", "seats", "seed_commitment", "entropy"}``
- ``orders``: ``{"orders": {seat: order}, "defaulted": [seat], "salts": {seat: salt}}``
  (salts only for a sealed group; they let anyone check the receipts given at submission), and
  ``"standing": [seat]`` when a seat's order came from its standing orders, ``"substitute": [seat]``
  when the substitute (adjudicator/bots) chose it for a seat in civil disorder (replay ignores both)
- ``note``: moderator actions and other events that do not change the game state
  (``{"action": ..., ...}``); its state_hash repeats the previous one, except for a
  ``rollback`` note (rollback.py), whose state is the one after the entry it returns to.

While a game runs, its public export is *redacted* (`redact_entries`): an orders entry that holds a
sealed group (it has salts) or a default the server chose (it has defaulted seats) carries
``{"withheld": "sealed", "seats", "commitments": {seat: receipt hash}, "defaulted"}`` instead of
its data, and the document lists those indices under ``"withheld"``. Its ``hash`` and ``prev``
still link the chain; the complete record (what `pbem verify` replays) is published at the end.

`state_hash` is the hash of the full state, secrets included. It cannot be brute-forced to learn
a secret because every state carries the 256-bit PRNG state in its secret part.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import GameModule, Step, apply_checked, sha256_hex, state_hash
from adjudicator.engine.canonical import sha256_text
from adjudicator.engine.play import hidden_seats

RECORD_FORMAT = "pbem-record/1"
GENESIS = "0" * 64


def entry_hash(entry: dict[str, Any]) -> str:
    body = {k: entry[k] for k in ("index", "kind", "data", "prev", "state_hash")}
    return sha256_hex(body)


def seed_commitment(server_seed: str) -> str:
    return sha256_text(server_seed)


def derive_seed(server_seed: str, entropy: list[str]) -> str:
    """The game's seed: the server's committed seed mixed with what the players contributed."""
    return sha256_hex({"server_seed": server_seed, "entropy": entropy})


def commitment(order: Any, salt: str) -> str:
    """A sealed order's receipt hash."""
    return sha256_hex({"order": order, "salt": salt})


def setup_data(
    game: GameModule, options: dict[str, Any], seats: list[str], commitment: str, entropy: list[str]
) -> dict[str, Any]:
    """The body of a record's setup entry. Content that is not built in (an installed board or
    deck) travels in it, so that the record replays on any machine."""
    data: dict[str, Any] = {
        "game": game.info.id,
        "rules_version": game.info.rules_version,
        "options": options,
        "seats": seats,
        "seed_commitment": commitment,
        "entropy": entropy,
    }
    carried = game.info.content_of(options)
    if carried:
        data["content"] = carried
    return data


class RecordBuilder:
    """Builds a record in memory alongside the live state (self-play, tests, the service)."""

    def __init__(
        self,
        game: GameModule,
        seats: list[str],
        options: dict[str, Any],
        server_seed: str,
        entropy: list[str] | None = None,
    ) -> None:
        self.game = game
        self.server_seed = server_seed
        self.entropy = list(entropy or [])
        options = game.info.resolve_options(options)
        step = game.setup(derive_seed(server_seed, self.entropy), seats, options)
        self.state = step.state
        self.events: list[dict[str, Any]] = list(step.events)
        self.entries: list[dict[str, Any]] = []
        self._append("setup", setup_data(game, options, seats, seed_commitment(server_seed), self.entropy))

    def _append(self, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        entry = {
            "index": len(self.entries),
            "kind": kind,
            "data": data,
            "prev": self.entries[-1]["hash"] if self.entries else GENESIS,
            "state_hash": state_hash(self.state),
        }
        entry["hash"] = entry_hash(entry)
        self.entries.append(entry)
        return entry

    def apply(
        self,
        orders: dict[str, Any],
        defaulted: list[str] | None = None,
        salts: dict[str, str] | None = None,
        prompts: dict[str, Any] | None = None,
        in_place: bool = False,
        substitute: list[str] | None = None,
    ) -> Step:
        """`prompts`: the open prompts of the current state, if the caller has built them.
        `in_place`: apply to the current state without copying it (self-play); an apply that
        raises then leaves this builder unusable."""
        prompts = self.game.prompts(self.state) if prompts is None else prompts
        step = apply_checked(self.game, self.state, orders, prompts, owned=in_place)
        self.state = step.state
        self.events.extend(step.events)
        data: dict[str, Any] = {"orders": orders, "defaulted": sorted(defaulted or []), "salts": salts or {}}
        hidden = hidden_seats(prompts, orders)
        if hidden:
            data["hidden"] = hidden
        if substitute:
            data["substitute"] = sorted(substitute)
        self._append("orders", data)
        return step

    def note(self, action: str, **data: Any) -> None:
        self._append("note", {"action": action, **data})

    def export(self, reveal_seed: bool | None = None) -> dict[str, Any]:
        """The export document; the seed is revealed once the game is over (or on request)."""
        over = not self.game.prompts(self.state)
        reveal = over if reveal_seed is None else reveal_seed
        return export_document(self.game, self.entries, self.server_seed if reveal else None)


WITHHELD = "sealed"


def must_withhold(entry: dict[str, Any]) -> bool:
    """Does this entry hold content the rules may still hide? A sealed group's orders (salted),
    defaults the server chose (which may follow from a hand) and orders of a hidden prompt (a card
    handed over in a trade) do; an open order played in public does not."""
    data = entry.get("data") or {}
    return entry.get("kind") == "orders" and bool(data.get("salts") or data.get("defaulted") or data.get("hidden"))


def redact_entries(entries: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[int]]:
    """The entries of a running game's public export, and the indices whose data was withheld.
    A withheld entry keeps its hashes and shows who took part and each seat's receipt hash."""
    out: list[dict[str, Any]] = []
    withheld: list[int] = []
    for entry in entries:
        if not must_withhold(entry):
            out.append(entry)
            continue
        data = entry["data"]
        salts = data.get("salts") or {}
        orders = data.get("orders") or {}
        out.append({**entry, "data": {
            "withheld": WITHHELD,
            "seats": sorted(orders),
            "commitments": {seat: commitment(orders[seat], salt) for seat, salt in sorted(salts.items())
                            if seat in orders},
            "defaulted": sorted(data.get("defaulted") or []),
        }})
        withheld.append(entry["index"])
    return out, withheld


def export_document(
    game: GameModule, entries: list[dict[str, Any]], server_seed: str | None, withheld: list[int] | None = None
) -> dict[str, Any]:
    """The export document. `withheld` (the indices `redact_entries` withheld) marks a redacted
    export of a running game; it is absent from a complete record."""
    setup = entries[0]["data"]
    doc: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "game": game.info.id,
        "rules_version": setup["rules_version"],
        "seed_commitment": setup["seed_commitment"],
        "server_seed": server_seed,
        "entries": entries,
    }
    if withheld:
        doc["withheld"] = list(withheld)
    return doc
