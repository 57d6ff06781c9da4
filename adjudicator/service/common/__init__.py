"""What every room stands on: time, errors, the values returned, secrets, installed content,
verified addresses, and the game row locked with its rows read once (core, snapshot).
"""
