"""games.substitute_at: the substitute owes a move since then, thought out by a worker's task
instead of inside a request or a deadline (issue 28); the recovery sweep finds a lost task by it

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-28 06:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0021'
down_revision = '0020'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('substitute_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch_op.create_index(batch_op.f('ix_games_substitute_at'), ['substitute_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_games_substitute_at'))
        batch_op.drop_column('substitute_at')
