"""Cards in a terminal: a person plays seat 0 against bots, with rich (`deaddrop cards play`)."""
