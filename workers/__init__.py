"""Thin Celery adapters: they open a transaction, call the service and enqueue what it returns."""
