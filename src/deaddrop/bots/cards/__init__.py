"""Cards bots: each answers from one seat's view alone (C13)."""
