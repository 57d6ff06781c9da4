"""Read-only use cases: the game list, public and seat pages, record exports.
"""
