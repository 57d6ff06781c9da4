"""The game record: setup plus accepted inputs, hash-chained; replay and offline verification.

Pure (standard library + engine + games): the same code checks a record on the server, in
`pbem verify` and in the tests.
"""

from .chain import (
    GENESIS,
    RECORD_FORMAT,
    RecordBuilder,
    commitment,
    derive_seed,
    entry_hash,
    seed_commitment,
    setup_data,
)
from .rollback import DECLARED_RESULT, ROLLBACK, rollback_target, undone_indices
from .verify import VerifyError, VerifyReport, export_bytes, replay_record, verify_bytes, verify_record

__all__ = [
    "GENESIS", "RECORD_FORMAT", "RecordBuilder", "VerifyError", "commitment", "derive_seed",
    "entry_hash", "export_bytes", "replay_record", "seed_commitment", "setup_data", "verify_bytes", "verify_record",
    "VerifyReport", "DECLARED_RESULT", "ROLLBACK", "rollback_target", "undone_indices",
]
