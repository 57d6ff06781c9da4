"""games: partial (covering on PostgreSQL) indexes for the due-games listing (issue 31)

The beat lists running games whose deadline or unsent reminder has come; these indexes hold those
rows alone, so the listing is an index-only range scan from 1k to 100k running games.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-28 03:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0020'
down_revision = '0019'
branch_labels = None
depends_on = None

RUNNING = "status = 'running'"


def _unreminded() -> str:
    false = "0" if op.get_bind().dialect.name == "sqlite" else "false"
    return f"status = 'running' AND reminded = {false}"


def upgrade() -> None:
    op.create_index('ix_games_running_due', 'games', ['due_at'], unique=False, postgresql_include=['public_id'],
                    postgresql_where=sa.text(RUNNING), sqlite_where=sa.text(RUNNING))
    op.create_index('ix_games_running_reminder', 'games', ['reminder_at'], unique=False,
                    postgresql_include=['public_id'], postgresql_where=sa.text(_unreminded()),
                    sqlite_where=sa.text(_unreminded()))


def downgrade() -> None:
    op.drop_index('ix_games_running_reminder', table_name='games')
    op.drop_index('ix_games_running_due', table_name='games')
