"""Station on the web: games, lobby, the five tabs and the Pouch runner."""
