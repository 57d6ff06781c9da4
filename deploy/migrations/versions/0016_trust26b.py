"""trust: the bounds per client network (client_actions) and an index on the outbox's address
(the bounds per address count by it) (issue 26)

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-27 23:50:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0016'
down_revision = '0015'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('client_actions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('network', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('action', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False),
    sa.Column('at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('client_actions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_client_actions_network'), ['network'], unique=False)
        batch_op.create_index(batch_op.f('ix_client_actions_at'), ['at'], unique=False)
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_outbox_to'), ['to'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_outbox_to'))
    with op.batch_alter_table('client_actions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_client_actions_at'))
        batch_op.drop_index(batch_op.f('ix_client_actions_network'))
    op.drop_table('client_actions')
