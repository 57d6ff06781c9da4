"""Keeping the server healthy: the figures an operator watches, the recovery sweep, retention, and
checking every record after a restore.
"""
