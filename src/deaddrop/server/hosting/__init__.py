"""Hosting a game on the web, for every game alike: its state from its log, one writer per game,
refusals that name the rule, and the form and JSON plumbing of its endpoints."""
