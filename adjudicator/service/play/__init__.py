"""A turn of play, from an order or a deadline to the mails it sends: orders and how a line is read,
steps applied to the record, sealed reveals, waits and defaults (pace), standing orders, absences,
undo and rollback, and the notifications written in the same transaction.
"""
