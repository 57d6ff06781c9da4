"""trust26a: stored HTML of press and of mails carrying it; the session generation of an account (issue 26)

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0015'
down_revision = '0014'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.add_column(sa.Column('html', sa.Text(), nullable=True))
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('html', sa.Text(), nullable=True))
    with op.batch_alter_table('player_accounts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('session_generation', sa.Integer(), server_default='0', nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('player_accounts', schema=None) as batch_op:
        batch_op.drop_column('session_generation')
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_column('html')
    with op.batch_alter_table('press', schema=None) as batch_op:
        batch_op.drop_column('html')
