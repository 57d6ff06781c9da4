"""players: sign-in links, verified addresses, the lobby and tournament sign-up (issue 13)

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-25 21:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0011'
down_revision = '0010'
branch_labels = None
depends_on = None


def _string(length: int) -> sqlmodel.sql.sqltypes.AutoString:
    return sqlmodel.sql.sqltypes.AutoString(length=length)


def upgrade() -> None:
    op.create_table('sign_in_links',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('nonce', _string(64), nullable=False),
    sa.Column('email', _string(320), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.Column('used_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('nonce')
    )
    with op.batch_alter_table('sign_in_links', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_sign_in_links_email'), ['email'], unique=False)
        batch_op.create_index(batch_op.f('ix_sign_in_links_created_at'), ['created_at'], unique=False)
    op.create_table('player_accounts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('email', _string(320), nullable=False),
    sa.Column('name', _string(100), nullable=False),
    sa.Column('timezone', _string(64), nullable=False),
    sa.Column('calendar_hash', _string(64), nullable=False),
    sa.Column('verified_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('email')
    )
    with op.batch_alter_table('player_accounts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_player_accounts_calendar_hash'), ['calendar_hash'], unique=False)
    op.create_table('lobby_games',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id')
    )
    op.create_table('tournament_signups',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('director_id', sa.Integer(), nullable=False),
    sa.Column('open', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['director_id'], ['directors.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('director_id')
    )
    op.create_table('tournament_entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('director_id', sa.Integer(), nullable=False),
    sa.Column('email', _string(320), nullable=False),
    sa.Column('name', _string(100), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=True),
    sa.Column('seat', _string(64), nullable=False),
    sa.Column('created_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['director_id'], ['directors.id'], ),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('director_id', 'email')
    )
    with op.batch_alter_table('tournament_entries', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_tournament_entries_director_id'), ['director_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('tournament_entries', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tournament_entries_director_id'))
    op.drop_table('tournament_entries')
    op.drop_table('tournament_signups')
    op.drop_table('lobby_games')
    with op.batch_alter_table('player_accounts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_player_accounts_calendar_hash'))
    op.drop_table('player_accounts')
    with op.batch_alter_table('sign_in_links', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_sign_in_links_created_at'))
        batch_op.drop_index(batch_op.f('ix_sign_in_links_email'))
    op.drop_table('sign_in_links')
