"""Moderators and tournament directors: pauses, extensions, replacements, the audited moderator
tools, directors' links and tournament standings.
"""
