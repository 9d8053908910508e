"""Stand-ins of Station games: a bot plays for an absent person until they come back, and the
host may hand a seat to a bot for good (issue 14)."""
