"""Players and what they own: sign-in, who speaks in a mail, a seat's settings, notes, press,
calendar feed, chat webhooks and the player's home page.
"""
