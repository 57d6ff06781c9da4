"""tournaments: scoring per game type of a director, player ratings

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24 04:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('directors', schema=None) as batch_op:
        batch_op.add_column(sa.Column('scoring', sa.JSON(), nullable=False, server_default='{}'))

    op.create_table('player_ratings',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_type', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('player', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('updated_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_type', 'player')
    )
    with op.batch_alter_table('player_ratings', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_ratings_player'), ['player'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('player_ratings', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_ratings_player'))
    op.drop_table('player_ratings')

    with op.batch_alter_table('directors', schema=None) as batch_op:
        batch_op.drop_column('scoring')
