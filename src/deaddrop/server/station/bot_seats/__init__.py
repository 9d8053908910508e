"""Bot seats of Station games: added in the lobby, played by the bot runner (issue 14)."""
