"""Inbound mail, one path for SMTP, IMAP and the webhook: cheap checks, the inbox drain, each mail's
unit of rollback, its commands, and the envelope of our own mail (bounces).
"""
