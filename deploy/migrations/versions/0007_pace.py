"""pace: waits, follow-up period, civil disorder, standing orders

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 22:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('standing_orders',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('seat', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('text', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False),
    sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('always', sa.Boolean(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('standing_orders', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_standing_orders_game_id'), ['game_id'], unique=False)

    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('follow_up_seconds', sa.Integer(), nullable=False, server_default='43200'))
        batch_op.add_column(sa.Column('disorder_after', sa.Integer(), nullable=False, server_default='2'))
        batch_op.add_column(sa.Column('waiting_on', sa.JSON(), nullable=False, server_default='[]'))

    with op.batch_alter_table('sealed_orders', schema=None) as batch_op:
        batch_op.add_column(sa.Column('origin', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False,
                                      server_default=''))

    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('missed', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('disorder', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column('waits', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('mailed_seq', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('wait_started_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column('acted_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('acted_at')
        batch_op.drop_column('wait_started_at')
        batch_op.drop_column('mailed_seq')
        batch_op.drop_column('waits')
        batch_op.drop_column('disorder')
        batch_op.drop_column('missed')

    with op.batch_alter_table('sealed_orders', schema=None) as batch_op:
        batch_op.drop_column('origin')

    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('waiting_on')
        batch_op.drop_column('disorder_after')
        batch_op.drop_column('follow_up_seconds')

    with op.batch_alter_table('standing_orders', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_standing_orders_game_id'))

    op.drop_table('standing_orders')
