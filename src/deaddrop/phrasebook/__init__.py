"""The words a game's fronts (the web pages, the terminal) use for what the engine tells a seat,
one wording per game whichever front shows it."""
