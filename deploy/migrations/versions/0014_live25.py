"""seat notes: a seat's private notes on its page (issue 25)

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0014'
down_revision = '0013'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('seat_notes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('generation', sa.Integer(), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id', 'seat')
    )
    with op.batch_alter_table('seat_notes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seat_notes_game_id'), ['game_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('seat_notes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seat_notes_game_id'))
    op.drop_table('seat_notes')
