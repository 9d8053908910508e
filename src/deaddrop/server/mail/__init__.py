"""Mail to players: the digest when a Pouch departs, the reminder before a deadline.

Opt-in per player (accounts), sent over SMTP with aiosmtplib, at most one mail per
(game, day, user, kind) however many mailers run (see `mailer.py` and `deliveries.py`).
"""
