"""standing_orders.dropped: a queued line that can never be used again, kept until the seat's next
mail says so (issue 24)

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28 00:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0013'
down_revision = '0012'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('standing_orders', schema=None) as batch_op:
        batch_op.add_column(sa.Column('dropped', sqlmodel.sql.sqltypes.AutoString(length=500), nullable=False,
                                      server_default=''))


def downgrade() -> None:
    with op.batch_alter_table('standing_orders', schema=None) as batch_op:
        batch_op.drop_column('dropped')
