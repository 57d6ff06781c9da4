"""language: the game's language and each seat's own (issue 12)

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24 04:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0010'
down_revision = '0009'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # games made before this revision were all in English
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False,
                                      server_default='en'))
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('language', sqlmodel.sql.sqltypes.AutoString(length=16), nullable=False,
                                      server_default=''))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('language')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('language')
