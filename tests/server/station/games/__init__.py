"""Station games on the server: lobby, saves, host tools, the Pouch runner (issue 4)."""
