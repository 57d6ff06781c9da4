"""pace24: a per-game absence budget and the days of absence each seat has used (issue 24)

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-27 23:50:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0017'
down_revision = '0016'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('absence_budget_days', sa.Integer(), nullable=False, server_default='28'))
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('absence_days_used', sa.Integer(), nullable=False, server_default='0'))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('absence_days_used')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('absence_budget_days')
