"""Checking every game's record in a database: after a restore, before trusting a backup.

Each started game's record is checked as `pbem verify` checks an export: the hash chain always;
a finished game is also replayed through its rules with the server seed. A running game's seed
stays secret, so its record is checked as far as the chain.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlmodel import Session, col, select

from adjudicator.record import VerifyError, verify_record
from adjudicator.record.chain import export_document
from adjudicator.store.models import Game, RecordEntry

from ..common.core import module_of


@dataclass
class RecordsChecked:
    games: int = 0
    entries: int = 0
    replayed: int = 0  # finished games replayed in full
    failures: list[tuple[str, str]] = field(default_factory=list)  # (game id, what failed)


def check_records(s: Session) -> RecordsChecked:
    checked = RecordsChecked()
    for g in s.exec(select(Game).where(Game.record_length > 0).order_by(col(Game.id))).all():
        rows = s.exec(select(RecordEntry).where(RecordEntry.game_id == g.id).order_by(col(RecordEntry.seq))).all()
        entries = [r.to_entry() for r in rows]
        checked.games += 1
        checked.entries += len(entries)
        if len(entries) != g.record_length:
            checked.failures.append((g.public_id, f"holds {len(entries)} record entries, its game row says "
                                                  f"{g.record_length}"))
            continue
        finished = g.status == "finished"
        try:
            report = verify_record(export_document(module_of(g), entries, g.server_seed if finished else None))
        except VerifyError as exc:
            checked.failures.append((g.public_id, str(exc)))
            continue
        checked.replayed += int(report.replayed)
    return checked
