"""What a game's record says: its log as each reader sees it, its outcome, the results and ratings
it gives, which steps may be taken back, and how fresh an open page is.
"""
