"""Seats held by the substitute from the start (practice games, lobby seats filled at a deadline),
the lobby's fill time, and whether a tournament counts games with substitute seats (issue 28)

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-28 03:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0019'
down_revision = '0018'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('held_by_substitute', sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table('lobby_games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('fill_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
    with op.batch_alter_table('directors', schema=None) as batch_op:
        batch_op.add_column(sa.Column('count_substitute_games', sa.Boolean(), nullable=False,
                                      server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table('directors', schema=None) as batch_op:
        batch_op.drop_column('count_substitute_games')
    with op.batch_alter_table('lobby_games', schema=None) as batch_op:
        batch_op.drop_column('fill_at')
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('held_by_substitute')
