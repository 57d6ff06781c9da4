"""Creating games and filling their seats: creation, joining and starting, the lobby, and practice
games with the substitute.
"""
