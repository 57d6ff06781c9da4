"""undo: the steps a seat may take back (issue 25)

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0012'
down_revision = '0011'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # games made before this revision have no step to take back until their next one
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('undo_seat', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False,
                                      server_default=''))
        batch_op.add_column(sa.Column('undo_from', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('undo_from')
        batch_op.drop_column('undo_seat')
