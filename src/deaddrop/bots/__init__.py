"""Bots: they play from a player's view only, never from the full state (C13, DESIGN.md)."""
